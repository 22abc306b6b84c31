// Compiling the registries' tables once (docs/building.md, "Compile time").
//
// The method and selector tables instantiate every method's fit and load and every selector for
// float and double: most of the compile time of a translation unit that uses a registry (about
// 5 CPU minutes at -O3). By default the tables are inline functions and every such unit pays it. A
// program with several of them defines NLDR_REGISTRY_COMPILED in all of them, and compiles the
// tables in exactly one unit that also defines NLDR_REGISTRY_DEFINITIONS before its includes
// (nldr's own tool, tests and Python module do: src/registry_tables.cpp, target nldr_registry).
#pragma once

#if defined(NLDR_REGISTRY_COMPILED) && !defined(NLDR_REGISTRY_DEFINITIONS)
/// The tables are declared here and defined in the program's one NLDR_REGISTRY_DEFINITIONS unit.
#define NLDR_REGISTRY_DECLARE_ONLY 1
#endif

#if defined(NLDR_REGISTRY_COMPILED)
#define NLDR_REGISTRY_LINKAGE
#else
#define NLDR_REGISTRY_LINKAGE inline
#endif
