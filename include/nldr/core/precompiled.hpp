// The function templates that nldr::registry compiles once (docs/building.md, "Compile time of the
// registries").
//
// The method and selector tables (registry/embedders.hpp, registry/selectors.hpp) are one function
// template each. Each method's fit and each selector's rule does its work in a template over the
// scalar, defined outside any class so that it is not inline, and names its float and double
// instances once, right after the definition:
//
//   NLDR_PRECOMPILED(IsomapModel<float> Isomap::fit_points<float>(const PointsRef<float>&, ...) const)
//
// which expands to
//   - nothing in a header-only program: every unit instantiates what it calls, as before;
//   - an explicit instantiation declaration (`extern template`) in a unit of a program that links
//     nldr::registry (NLDR_REGISTRY_COMPILED): the unit calls the compiled instance instead of
//     compiling its own (GCC and clang instantiate non-inline templates declared so nowhere else);
//   - the explicit instantiation definition in the library's one unit that defines
//     NLDR_REGISTRY_INSTANTIATE (src/registry_tables.cpp).
#pragma once

#if defined(NLDR_REGISTRY_INSTANTIATE)
#define NLDR_PRECOMPILED(...) template __VA_ARGS__;
#elif defined(NLDR_REGISTRY_COMPILED)
#define NLDR_PRECOMPILED(...) extern template __VA_ARGS__;
#else
#define NLDR_PRECOMPILED(...)
#endif
