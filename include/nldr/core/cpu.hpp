// What the CPU runs beyond the x86-64 baseline the library is built for. Kernels that gain from
// wider vectors carry an AVX-512 (or AVX2) version compiled with a target attribute, guarded by
// NLDR_X86_KERNELS, and pick it at run time with these checks; every such kernel gives the numbers
// of its baseline loop (each says how).
#pragma once

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define NLDR_X86_KERNELS 1
#include <immintrin.h>
#endif

// Around kernels that must round as their baseline loops do: contraction of a * b + c into a fused
// multiply-add off (x86-64's baseline has no FMA, AVX-512 has). GCC contracts across intrinsics;
// clang only within one expression, and an intrinsic is a call.
#if defined(__GNUC__) && !defined(__clang__)
#define NLDR_NO_FP_CONTRACT_BEGIN _Pragma("GCC push_options") _Pragma("GCC optimize(\"fp-contract=off\")")
#define NLDR_NO_FP_CONTRACT_END _Pragma("GCC pop_options")
#else
#define NLDR_NO_FP_CONTRACT_BEGIN
#define NLDR_NO_FP_CONTRACT_END
#endif

namespace nldr::detail {

#if defined(NLDR_X86_KERNELS)
/// True when the CPU runs AVX-512 Foundation (asked once).
inline bool has_avx512() {
  static const bool avx512 = __builtin_cpu_supports("avx512f");
  return avx512;
}
/// True when the CPU runs AVX2 and FMA (asked once).
inline bool has_avx2_fma() {
  static const bool avx2_fma = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return avx2_fma;
}
#endif

}  // namespace nldr::detail
