// nldr::registry's first unit (target nldr_registry in CMakeLists.txt): the float and double instances
// of every fit, placement, search and selector rule the headers name with NLDR_PRECOMPILED
// (core/precompiled.hpp). The tables that call them are compiled beside it, in src/registry_tables.cpp.
#define NLDR_REGISTRY_INSTANTIATE_METHODS
#include <nldr/registry/embedders.hpp>
#include <nldr/registry/selectors.hpp>
