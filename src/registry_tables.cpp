// The one translation unit that instantiates the method and selector tables for nldr's own tool,
// tests, examples and Python module (registry/compiled.hpp; target nldr_registry in CMakeLists.txt).
#include <nldr/registry/embedders.hpp>
#include <nldr/registry/selectors.hpp>

NLDR_INSTANTIATE_REGISTRY_TABLES
