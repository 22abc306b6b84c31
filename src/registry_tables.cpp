// nldr::registry's second unit (target nldr_registry in CMakeLists.txt): the method and selector tables,
// with every model's loading code and the factories that set each Options from its parameters. The
// functions they call are compiled in src/registry_methods.cpp: this unit, like any unit of a program
// that links nldr::registry (NLDR_REGISTRY_COMPILED), sees them declared extern (core/precompiled.hpp).
// The test registry_unit_compiles_no_fit compiles this file at -O0 and checks that it defines none.
#include <nldr/registry/embedders.hpp>
#include <nldr/registry/selectors.hpp>

template const std::vector<nldr::EmbedderInfo>& nldr::detail::embedder_table<void>();
template const std::vector<nldr::SelectorInfo>& nldr::detail::selector_table<void>();
