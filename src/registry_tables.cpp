// The one translation unit of nldr::registry (target nldr_registry in CMakeLists.txt): it compiles the
// method and selector tables and the float and double instances of every fit and selector rule that
// the headers name with NLDR_PRECOMPILED (core/precompiled.hpp), for nldr's own tool, tests,
// examples and Python module, and for the programs that link the installed library.
#define NLDR_REGISTRY_INSTANTIATE
#include <nldr/registry/embedders.hpp>
#include <nldr/registry/selectors.hpp>
