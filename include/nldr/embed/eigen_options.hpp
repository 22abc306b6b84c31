// Settings of the two eigensolvers behind the embedders; every options struct holds one of them
// under the member name `eigen`.
//  - BottomEigenOptions: the few smallest eigenpairs of a sparse PSD matrix (LLE and its variants,
//    LTSA, Laplacian Eigenmaps, diffusion maps): shift-invert Lanczos on a sparse factorization
//    (embed/detail/sparse_eigen.hpp, docs/spectral-solver.md).
//  - TopEigenOptions: the few largest eigenpairs of a dense symmetric matrix (classical MDS,
//    Isomap, Landmark Isomap): Lanczos on a parallel mat-vec (embed/detail/dense_top_eigen.hpp).
// Their dense_below thresholds differ because the dense fallbacks differ in cost: a sparse
// factorization beats the dense O(N^3) solve from N ~ 50, a dense O(N^2) mat-vec only from ~200.
#pragma once

#include <nldr/core/described.hpp>
#include <nldr/core/types.hpp>

#include <array>

namespace nldr {

/// The sparse factorization behind the Lanczos iteration (docs/spectral-solver.md).
enum class Factorization {
  /// With SuiteSparse (NLDR_HAVE_SUITESPARSE) and N >= suitesparse_from: `lu` for standard LLE,
  /// `supernodal` for the other methods; otherwise `simplicial`.
  automatic,
  /// Eigen's SimplicialLDLT of M - sigma I with the AMD ordering: no dependency, one thread.
  simplicial,
  /// CHOLMOD's supernodal LL^T of M - sigma I (dense BLAS-3 blocks; as many threads as the BLAS
  /// uses). Requires nldr built with SuiteSparse (the CMake target nldr::suitesparse).
  supernodal,
  /// Standard LLE only: UMFPACK's LU of I - W, never forming M = (I - W)^T (I - W), whose 2-hop
  /// pattern fills in 6x more (gram_eigen.hpp). Requires nldr built with SuiteSparse.
  lu,
};

inline constexpr std::array<Choice<Factorization>, 4> factorizations{{{"automatic", Factorization::automatic},
                                                                     {"simplicial", Factorization::simplicial},
                                                                     {"supernodal", Factorization::supernodal},
                                                                     {"lu", Factorization::lu}}};

/// True when this build of nldr has SuiteSparse's factorizations (`supernodal`, `lu`).
inline constexpr bool have_suitesparse() {
#if defined(NLDR_HAVE_SUITESPARSE)
  return true;
#else
  return false;
#endif
}

/// Settings of the bottom-eigenpair solver behind LLE, Laplacian Eigenmaps and LTSA.
struct BottomEigenOptions {
  /// N below this: dense SelfAdjointEigenSolver (O(N^3), exact); else sparse shift-invert Lanczos.
  /// Measured (bench_spectral_embedders crossover, LLE and Laplacian matrices, k = 10): equal at N = 50,
  /// sparse 4x faster at N = 100 and 30x at N = 400 (docs/benchmarks.md, "Spectral embedders").
  index_t dense_below = 100;
  /// Which sparse factorization the shift-invert uses (see Factorization).
  Factorization factorization = Factorization::automatic;
  /// `automatic` takes SuiteSparse's factorization from this N on (when available); >= 0.
  /// Measured with OpenBLAS (bench_spectral_embedders factorizations): on LLE matrices the supernodal
  /// LL^T overtakes the simplicial LDLT at N ~ 5000 and is 1.8x faster at 5 * 10^4; on Laplacians,
  /// which fill in little, the two are even there (docs/benchmarks.md, "Spectral embedders").
  index_t suitesparse_from = 5000;
  /// Shift sigma < 0 of the shift-invert; 0 = automatic: -1e-13 * (mean diagonal of M) when the null
  /// vector is deflated (every embedder), else -1e-8 * (mean diagonal); raised 1000-fold (up to 3 times)
  /// when the factorization meets a non-positive pivot.
  /// It must stay near the wanted eigenvalues (else they cluster at 1 / |sigma| and Lanczos stalls), yet
  /// keep (M - sigma I)^-1 well conditioned: without deflation, at -1e-12 the null direction is amplified
  /// 1e12-fold and solve errors of 1e-4 corrupt the other Ritz values (measured on a 600-point graph
  /// Laplacian); with it, -1e-13 and -1e-14 give residuals ||M v - lambda v|| ~ 4e-16 (LLE, N = 10^6).
  double shift = 0;
  int max_iterations = 1000;     ///< Lanczos restarts, >= 1
  double tolerance = 1e-10;      ///< relative Ritz-value tolerance of Spectra, > 0
  /// ncv; 0 = automatic: 4 w + 4 for the w eigenpairs Lanczos looks for (d after deflation), capped
  /// at N. Measured on LLE, LTSA and Laplacian matrices of a Swiss roll, S-curve and twin peaks
  /// (N = 2 * 10^4, d = 2): 13 solves with ncv = 12 against 21 with 20, the same eigenvalues to 1e-14.
  int lanczos_vectors = 0;
  /// Also solve for the next eigenpair and report the relative gap after the last one kept
  /// (EigenDiagnostics::relative_gap): how well the embedding's subspace is determined. Costs one
  /// more Lanczos pair (ncv 4 w + 8 instead of 4 w + 4 when automatic); needs N >= d + 3.
  bool report_gap = false;

  /// The settings a caller names (core/described.hpp).
  template <class Visitor>
  void describe(Visitor& v) {
    v.choice("factorization", factorization, factorizations,
             "sparse factorization of the shift-invert (lu: standard LLE only; supernodal, lu: with SuiteSparse)");
    v.flag("report_gap", report_gap, "solve one more eigenpair and report the relative gap after the last coordinate");
    v.number("eigen_max_iterations", max_iterations, {1, 1e9}, "eigensolver: Lanczos restarts before giving up");
    v.number("eigen_tolerance", tolerance, {1e-300, 0.5}, "eigensolver: relative tolerance of the Ritz values");
  }
};

/// How the top eigenpairs of a dense symmetric matrix are found (MDS, Isomap, Landmark Isomap).
struct TopEigenOptions {
  /// Matrices with N <= dense_below rows use one full dense decomposition (O(N^3), exact);
  /// larger ones use Spectra's Lanczos on a parallel mat-vec (O(N^2) per product). >= 0.
  index_t dense_below = 200;
  /// Lanczos restarts before giving up with nldr::convergence_error; >= 1.
  int max_iterations = 1000;
  /// Relative residual tolerance of the Lanczos solver; in (0, 1).
  double tolerance = 1e-10;

  /// The settings a caller names (core/described.hpp).
  template <class Visitor>
  void describe(Visitor& v) {
    v.number("eigen_max_iterations", max_iterations, {1, 1e9}, "eigensolver: Lanczos restarts before giving up");
    v.number("eigen_tolerance", tolerance, {1e-300, 0.5}, "eigensolver: relative tolerance of the Ritz values");
  }
};

}  // namespace nldr
