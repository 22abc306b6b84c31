// The function templates that nldr::registry compiles once (docs/building.md, "Compile time of the
// registries").
//
// The method and selector tables (registry/embedders.hpp, registry/selectors.hpp) are one function
// template each. Each method's fit and each selector's rule does its work in a template over the
// scalar, defined outside any class so that it is not inline, and names its float and double
// instances once, right after the definition:
//
//   NLDR_PRECOMPILED(LtsaModel<float> Ltsa::fit<float>(const PointsArg<float>&, const NeighborGraph<float>&) const)
//
// (the tables with NLDR_PRECOMPILED_TABLE), which expands to
//   - nothing in a header-only program: every unit instantiates what it calls, as before;
//   - an explicit instantiation declaration (`extern template`) in a unit of a program that links
//     nldr::registry (NLDR_REGISTRY_COMPILED): the unit calls the compiled instance instead of
//     compiling its own (GCC and clang instantiate non-inline templates declared so nowhere else);
//   - the explicit instantiation definition in the one unit that defines NLDR_REGISTRY_INSTANTIATE
//     (a program's own registry unit: docs/building.md).
// nldr::registry itself compiles them in two units that build in parallel: src/registry_methods.cpp
// (NLDR_REGISTRY_INSTANTIATE_METHODS: every NLDR_PRECOMPILED function, not the tables) and
// src/registry_tables.cpp (the tables, with every model's loading code, which the fuzzers instrument
// without slowing the fits: tests/fuzz/CMakeLists.txt).
#pragma once

#if defined(NLDR_REGISTRY_INSTANTIATE)
#define NLDR_PRECOMPILED(...) template __VA_ARGS__;
#define NLDR_PRECOMPILED_TABLE(...) template __VA_ARGS__;
#elif defined(NLDR_REGISTRY_INSTANTIATE_METHODS)
#define NLDR_PRECOMPILED(...) template __VA_ARGS__;
#define NLDR_PRECOMPILED_TABLE(...) extern template __VA_ARGS__;
#elif defined(NLDR_REGISTRY_COMPILED)
#define NLDR_PRECOMPILED(...) extern template __VA_ARGS__;
#define NLDR_PRECOMPILED_TABLE(...) extern template __VA_ARGS__;
#else
#define NLDR_PRECOMPILED(...)
#define NLDR_PRECOMPILED_TABLE(...)
#endif
