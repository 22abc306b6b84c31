// Includes the whole library and calls nothing (tests/CMakeLists.txt, test include_instantiates_no_solver:
// check.sh include). Compiled with -fkeep-inline-functions, this object holds every non-template inline
// function of the headers and every template they instantiate: a solver among them would be compiled in
// every unit that includes nldr (docs/building.md, "Compile time").
#include <nldr/nldr.hpp>
