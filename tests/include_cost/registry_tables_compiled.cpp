// Instantiates both registry tables (every method's fit, model loading and transform, every selector,
// for float and double) in a unit of a program that links nldr::registry (NLDR_REGISTRY_COMPILED), at
// -O0 so that everything the unit compiles is a symbol of its own (tests/CMakeLists.txt, test
// registry_unit_compiles_no_fit). The fits, selector rules, searches and placements the headers name
// with NLDR_PRECOMPILED must be references to the library's instances, and no solver may be compiled
// here: else every unit of such a program compiles them again (docs/building.md, "Compile time of the
// registries"). A method added to the registry is checked without an edit here.
#include <nldr/registry/embedders.hpp>
#include <nldr/registry/selectors.hpp>

template const std::vector<nldr::EmbedderInfo>& nldr::detail::embedder_table<void>();
template const std::vector<nldr::SelectorInfo>& nldr::detail::selector_table<void>();
