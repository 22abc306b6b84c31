// The one translation unit that compiles the method and selector tables for nldr's own tool, tests
// and Python module (registry/compiled.hpp; target nldr_registry in CMakeLists.txt).
#define NLDR_REGISTRY_DEFINITIONS
#include <nldr/registry/embedders.hpp>
#include <nldr/registry/selectors.hpp>
