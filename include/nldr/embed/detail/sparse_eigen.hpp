// The sparse bottom-eigenpair layer shared by LLE (all variants), Laplacian Eigenmaps and LTSA:
// the d+1 smallest eigenpairs of a sparse symmetric positive semi-definite N x N matrix M.
//
// Large N: Spectra's Lanczos on the shift-inverted operator (M - sigma I)^-1 with a small negative
// shift sigma, factorized once by Eigen's SimplicialLDLT with the AMD fill-reducing ordering. The
// smallest eigenvalues of M become the largest of the inverse, which Lanczos finds in a few
// iterations (Spectra's own SparseSymShiftSolve factorizes with SparseLU, 2-3x slower here).
// sigma < 0 keeps M - sigma I positive definite, so LDLT needs no pivoting; SimplicialLDLT reports
// success even on singular matrices, so the factor's pivots are checked explicitly.
// Every matrix here has a known null vector u (the constant vector for LLE and LTSA, D^1/2 1 for the
// normalized Laplacian). Given u, Lanczos runs on P (M - sigma I)^-1 P with P = I - u u^T: the
// inverse amplifies u by 1/|sigma|, and without the projection solve errors along u (~1e-16/|sigma|)
// corrupt the other Ritz vectors, which forced |sigma| up to where the wanted eigenvalues (~1e-10 for
// LLE at N = 10^5) cluster at -sigma and Lanczos needs dozens of restarts. With u deflated the shift
// can sit near them: -1e-13 mean diagonal (LLE's bottom eigenvalues scale like N^-2: 2e-13 at N = 2 * 10^5,
// 7e-15 at 10^6, where a shift of -1e-11 clustered them and took 8 restarts instead of 1).
// Small N: the full dense SelfAdjointEigenSolver is cheaper than the Lanczos set-up and is exact.
// Large matrices with SuiteSparse available (NLDR_HAVE_SUITESPARSE, the CMake target nldr::suitesparse):
// the same iteration on CHOLMOD's supernodal LL^T instead of the simplicial LDLT (cholmod_factor.hpp);
// standard LLE goes further and never forms M (gram_eigen.hpp).
// Everything here is double: the bottom eigenvalues of LLE matrices are ~1e-8..1e-5, below float's
// resolution of M's O(1) entries.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/progress.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/core/types.hpp>
#include <nldr/embed/detail/reporting_operator.hpp>
#include <nldr/embed/detail/signs.hpp>
#include <nldr/embed/eigen_options.hpp>
#include <nldr/embed/embedding.hpp>
#if defined(NLDR_HAVE_SUITESPARSE)
#include <nldr/embed/detail/cholmod_factor.hpp>
#endif

#include <Eigen/Core>
#include <Eigen/Eigenvalues>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>
#include <Spectra/SymEigsShiftSolver.h>

#include <algorithm>
#include <cmath>
#include <concepts>
#include <string>
#include <type_traits>

namespace nldr {

namespace detail {

/// Column-major sparse matrix of which only the lower triangle (row >= column) is stored and read.
using SparseLower = Eigen::SparseMatrix<double, Eigen::ColMajor, int>;

/// The nev smallest eigenpairs: values ascending, vectors N x nev orthonormal (signs not fixed).
struct BottomEigenpairs {
  Eigen::VectorXd values;
  Eigen::MatrixXd vectors;
  EigenDiagnostics diagnostics;
};

/// Eigen's simplicial LDL^T of M + offset I with the AMD ordering.
using SimplicialFactor = Eigen::SimplicialLDLT<SparseLower, Eigen::Lower, Eigen::AMDOrdering<int>>;

/// Pivot test of a factorization of M - sigma I: every pivot finite and above `relative` times the
/// largest. SimplicialLDLT reports success even on singular matrices, so its pivots are read here.
inline bool pivots_above(const SimplicialFactor& factor, double relative) {
  if (factor.info() != Eigen::Success) return false;
  const auto pivots = factor.vectorD();
  const double largest = pivots.cwiseAbs().maxCoeff();
  for (Eigen::Index i = 0; i < pivots.size(); ++i)
    if (!(std::isfinite(pivots[i]) && pivots[i] > relative * largest)) return false;
  return true;
}
#if defined(NLDR_HAVE_SUITESPARSE)
using SupernodalFactor = CholmodSupernodal<SparseLower>;
inline constexpr const char* supernodal_solver_name = "spectra-shift-invert-cholmod-supernodal";
inline bool pivots_above(const SupernodalFactor& factor, double relative) { return factor.pivots_above(relative); }
#endif

/// (M - sigma I)^-1 x through one sparse factorization (SimplicialFactor or SupernodalFactor): the
/// operator Spectra's SymEigsShiftSolver needs (Scalar, rows, cols, set_shift, perform_op).
template <class Factor>
class ShiftInvert {
 public:
  using Scalar = double;
  explicit ShiftInvert(const SparseLower& lower) : lower_(lower) {}
  Eigen::Index rows() const { return lower_.rows(); }
  Eigen::Index cols() const { return lower_.cols(); }

  const SparseLower& matrix() const { return lower_; }
  const Factor& factor() const { return factor_; }
  /// The fill-reducing ordering and the symbolic factorization, once for all shifts.
  void analyze() {
    if (analyzed_) return;
    factor_.analyzePattern(lower_);
    analyzed_ = true;
  }
  /// Factorizes M - sigma I; false when the factor is not positive definite (pivot <= 1e-14 of the
  /// largest, or not finite).
  bool factorize(double sigma) {
    analyze();
    factor_.setShift(-sigma);  // both factorize M + offset I without copying M
    factor_.factorize(lower_);
    if (!pivots_above(factor_, 1e-14)) return false;
    sigma_ = sigma;
    return true;
  }
  /// Called by Spectra's constructor with the shift it was given; factorize() has already run for it.
  void set_shift(double sigma) {
    if (sigma != sigma_ && !factorize(sigma))
      throw convergence_error("sparse eigensolver: factorization of M - sigma I failed");
  }
  /// Projects every product onto the complement of the unit vector u (see the file comment).
  void deflate(const Eigen::VectorXd& u) { deflated_ = &u; }
  void perform_op(const double* x, double* y) const {
    Eigen::Map<const Eigen::VectorXd> in(x, rows());
    Eigen::Map<Eigen::VectorXd> out(y, rows());
    if (deflated_ == nullptr) {
      out = factor_.solve(in);
      return;
    }
    const Eigen::VectorXd& u = *deflated_;
    out = factor_.solve(in - u * u.dot(in));
    out -= u * u.dot(out);
  }

 private:
  const SparseLower& lower_;
  Factor factor_;
  double sigma_ = 0;
  bool analyzed_ = false;
  const Eigen::VectorXd* deflated_ = nullptr;
};

inline void validate_solver_options(const BottomEigenOptions& options) {
  if (options.dense_below < 0)
    throw_invalid("dense_below", "dense_below = ", options.dense_below, " must be >= 0");
  if (options.factorization != Factorization::automatic && options.factorization != Factorization::simplicial &&
      options.factorization != Factorization::supernodal && options.factorization != Factorization::lu)
    throw_invalid("factorization", "factorization = ", int(options.factorization), " is not a Factorization");
  if ((options.factorization == Factorization::supernodal || options.factorization == Factorization::lu) &&
      !have_suitesparse())
    throw_invalid("factorization", "factorization = ",
                  options.factorization == Factorization::lu ? "lu" : "supernodal",
                  " needs SuiteSparse, and this program was built without it: install it (Debian: "
                  "libsuitesparse-dev) and link the CMake target nldr::suitesparse, or use Factorization::automatic");
  if (options.suitesparse_from < 0)
    throw_invalid("suitesparse_from", "suitesparse_from = ", options.suitesparse_from, " must be >= 0");
  if (!(std::isfinite(options.shift) && options.shift <= 0))
    throw_invalid("shift", "shift = ", options.shift,
                  " must be finite and <= 0 (0 = automatic): the shift-invert needs M - shift I positive definite");
  if (options.max_iterations < 1)
    throw_invalid("max_iterations", "max_iterations = ", options.max_iterations, " must be >= 1");
  if (!(std::isfinite(options.tolerance) && options.tolerance > 0))
    throw_invalid("tolerance", "tolerance = ", options.tolerance, " must be finite and > 0");
  if (options.lanczos_vectors < 0)
    throw_invalid("lanczos_vectors", "lanczos_vectors = ", options.lanczos_vectors, " must be >= 0 (0 = automatic)");
}

/// Lanczos vectors (Spectra's ncv) for `wanted` eigenpairs of an N x N operator (see lanczos_vectors).
inline Eigen::Index lanczos_vector_count(const BottomEigenOptions& options, int wanted, Eigen::Index n) {
  return std::min<Eigen::Index>(n, options.lanczos_vectors > 0
                                       ? std::max<Eigen::Index>(options.lanczos_vectors, wanted + 1)
                                       : 4 * Eigen::Index(wanted) + 4);
}

/// What a solver does under options.report_gap: solves for nev + 1 pairs through
/// solve(options', nev + 1) (options' the same without report_gap), records the relative gap
/// between pairs nev - 1 and nev (the first pair is the null one) and returns the first nev.
/// solve returns BottomEigenpairs, or std::optional of it (a solver that may decline).
/// \throws nldr::invalid_argument ("report_gap") when n < nev + 2.
template <class Solve>
auto solve_reporting_gap(const BottomEigenOptions& options, Eigen::Index n, int nev, Solve&& solve) {
  if (n < Eigen::Index(nev) + 2)
    throw_invalid("report_gap", "report_gap needs one eigenpair beyond the ", nev, " solved for, but N = ", n,
                  ": embed more points or turn report_gap off");
  BottomEigenOptions inner = options;
  inner.report_gap = false;
  auto result = solve(inner, nev + 1);
  auto keep = [nev](BottomEigenpairs& pairs) {
    const double last = pairs.values[nev - 1], next = pairs.values[nev];
    pairs.diagnostics.relative_gap = next > 0 ? std::max(0.0, next - last) / next : 0.0;
    pairs.values.conservativeResize(nev);
    pairs.vectors.conservativeResize(Eigen::NoChange, nev);
  };
  if constexpr (std::is_same_v<decltype(result), BottomEigenpairs>)
    keep(result);
  else if (result)
    keep(*result);
  return result;
}

/// Whether bottom_eigenpairs solves for `solved` pairs of an N x N matrix with the dense solver.
inline bool takes_dense_solver(const BottomEigenOptions& options, Eigen::Index n, int solved) {
  return n < options.dense_below || n <= 2 * Eigen::Index(solved) + 1;
}

/// Whether bottom_eigenpairs's shift-invert factorizes with CHOLMOD's supernodal LL^T (else Eigen's
/// simplicial LDL^T), where it does not take the dense solver.
inline bool takes_supernodal(const BottomEigenOptions& options, Eigen::Index n) {
  return have_suitesparse() && (options.factorization == Factorization::supernodal ||
                                (options.factorization == Factorization::automatic && n >= options.suitesparse_from));
}

/// Whether standard LLE's nev bottom eigenpairs of N points come from the LU of I - W (gram_eigen.hpp)
/// rather than from a factorization of M: `lu` asked for, or `automatic` with SuiteSparse from
/// suitesparse_from points on; never where bottom_eigenpairs would take the dense solver.
inline bool use_weights_lu(const BottomEigenOptions& options, index_t n, int nev) {
  if (takes_dense_solver(options, n, nev + (options.report_gap ? 1 : 0))) return false;
  return options.factorization == Factorization::lu ||
         (options.factorization == Factorization::automatic && have_suitesparse() && n >= options.suitesparse_from);
}

/// The pairs a Lanczos run found (`values` ascending, `vectors`) into `result`; when the run had M's
/// null vector u (unit) deflated, u comes first with its Rayleigh quotient (0 up to rounding).
/// u empty: not deflated.
inline void set_pairs(BottomEigenpairs& result, const SparseLower& lower, const Eigen::VectorXd& u,
                      const Eigen::VectorXd& values, const Eigen::MatrixXd& vectors) {
  if (u.size() == 0) {
    result.values = values;
    result.vectors = vectors;
    return;
  }
  const Eigen::Index wanted = values.size();
  result.values.resize(wanted + 1);
  result.vectors.resize(u.size(), wanted + 1);
  const Eigen::VectorXd Mu = lower.selfadjointView<Eigen::Lower>() * u;
  result.values[0] = u.dot(Mu);
  result.vectors.col(0) = u;
  result.values.tail(wanted) = values;
  result.vectors.rightCols(wanted) = vectors;
}

/// The shift-invert Lanczos iteration of bottom_eigenpairs on the operator `op` of one factorization
/// type (analyzed or not). Reports 0.2 after the factorization, then 0.2 + 0.8 k / (k + ncv) after the
/// k-th solve (reporting_operator.hpp).
template <class Factor>
BottomEigenpairs shift_invert_eigenpairs(ShiftInvert<Factor>& op, int nev, const BottomEigenOptions& options,
                                         const std::string& method, const Eigen::VectorXd& null_vector,
                                         const char* solver_name, const ProgressCallback& progress) {
  const SparseLower& lower = op.matrix();
  const Eigen::Index n = lower.rows();
  BottomEigenpairs result;
  double mean_diagonal = lower.diagonal().sum() / double(n);
  if (!(mean_diagonal > 0)) mean_diagonal = 1;
  const bool deflate = null_vector.size() == n && nev >= 2;
  double sigma = options.shift != 0 ? options.shift : (deflate ? -1e-13 : -1e-8) * mean_diagonal;
  Stopwatch factor_clock;
  // A shift too small for rounding gives a non-positive pivot: retry with larger ones.
  bool factorized = false;
  for (int attempt = 0; attempt < 4 && !factorized; ++attempt) {
    if (attempt > 0) sigma *= 1000;
    factorized = op.factorize(sigma);
  }
  result.diagnostics.factorization_seconds = factor_clock.seconds();
  report_progress(progress, 0.2, method + ": the eigensolver");
  if (!factorized)
    throw convergence_error(detail::concat(
        method, ": the sparse factorization of M - sigma I failed down to sigma = ", sigma,
        " (M is not positive semi-definite or not finite): check the input for duplicate points, "
        "raise the regularization, or set a larger negative solver shift"));

  Eigen::VectorXd u;
  if (deflate) {
    u = null_vector.normalized();
    op.deflate(u);
  }
  const int wanted = deflate ? nev - 1 : nev;
  const Eigen::Index ncv = lanczos_vector_count(options, wanted, n);
  OpenEndedProgress products(progress_part(progress, 0.2, 1), double(ncv), method + ": the eigensolver");
  ReportingOperator<ShiftInvert<Factor>> reporting(op, products);
  Spectra::SymEigsShiftSolver<ReportingOperator<ShiftInvert<Factor>>> solver(reporting, wanted, ncv, sigma);
  solver.init();  // Spectra's fixed-seed start vector: deterministic
  solver.compute(Spectra::SortRule::LargestMagn, options.max_iterations, options.tolerance,
                 Spectra::SortRule::SmallestAlge);
  result.diagnostics.solver = solver_name;
  result.diagnostics.iterations = int(solver.num_iterations());
  result.diagnostics.operations = int(solver.num_operations());
  if (solver.info() != Spectra::CompInfo::Successful)
    throw convergence_error(detail::concat(
        method, ": the shift-invert Lanczos iteration did not converge in ", options.max_iterations,
        " restarts (", solver.num_operations(), " solves, sigma = ", sigma,
        "): raise eigen.max_iterations or eigen.lanczos_vectors, loosen eigen.tolerance, "
        "or use the dense solver (solver.dense_below > N) for small N"));
  set_pairs(result, lower, u, solver.eigenvalues(), solver.eigenvectors());
  return result;
}

/// The nev smallest eigenpairs of the symmetric PSD matrix whose lower triangle is `lower` (N x N).
/// Requires 1 <= nev < N. `method` names the caller in error messages. `null_vector`, when given
/// (N entries, any non-zero scale), is a known vector with M u = 0: it is returned as the first pair
/// and deflated from the Lanczos iteration, which then finds the other nev - 1. `progress` (optional)
/// hears fractions of the solve (see shift_invert_eigenpairs; the dense solver reports nothing before
/// it ends); the caller reports the end.
/// \throws nldr::convergence_error when the factorization or the Lanczos iteration fails, saying what to try;
///         nldr::invalid_argument on bad options (e.g. a supernodal factorization without SuiteSparse, or
///         `lu`, which only standard LLE's own solver takes); nldr::memory_limit_exceeded when the dense
///         solver's matrices (3 N^2 doubles) exceed the available memory.
/// (A template only so that a unit instantiates the solvers where it calls it: docs/building.md, "Compile time".)
BottomEigenpairs bottom_eigenpairs(const std::same_as<SparseLower> auto& lower, int nev, const BottomEigenOptions& options,
                                   const std::string& method, const Eigen::VectorXd& null_vector = {},
                                   const ProgressCallback& progress = {}) {
  validate_solver_options(options);
  const Eigen::Index n = lower.rows();
  if (options.report_gap)
    return solve_reporting_gap(options, n, nev, [&](const BottomEigenOptions& inner, int count) {
      return bottom_eigenpairs(lower, count, inner, method, null_vector, progress);
    });
  if (takes_dense_solver(options, n, nev)) {
    // The matrix, the eigenvectors and the solver's workspace: three N x N doubles.
    check_memory(3 * std::uint64_t(n) * std::uint64_t(n) * sizeof(double),
                 detail::concat(method, ": the dense eigensolver's ", n, " x ", n, " matrices"),
                 "lower eigen.dense_below below N (the sparse solver needs memory in proportion to the non-zeros)");
    // SelfAdjointEigenSolver reads only the lower triangle, which is what `lower` holds.
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver{Eigen::MatrixXd(lower)};
    if (solver.info() != Eigen::Success)
      throw convergence_error(method + ": the dense eigensolver failed (non-finite matrix?); check the input for "
                                       "duplicate points or extreme scales");
    BottomEigenpairs result;
    result.values = solver.eigenvalues().head(nev);
    result.vectors = solver.eigenvectors().leftCols(nev);
    result.diagnostics.solver = "dense";
    return result;
  }
  if (options.factorization == Factorization::lu)
    throw_invalid("factorization", method,
                  ": factorization = lu applies to standard LLE only (it factorizes I - W): use automatic or supernodal");
#if defined(NLDR_HAVE_SUITESPARSE)
  if (takes_supernodal(options, n)) {
    ShiftInvert<SupernodalFactor> op(lower);
    return shift_invert_eigenpairs(op, nev, options, method, null_vector, supernodal_solver_name, progress);
  }
#endif
  ShiftInvert<SimplicialFactor> op(lower);
  return shift_invert_eigenpairs(op, nev, options, method, null_vector, "spectra-shift-invert-ldlt", progress);
}

/// Moves the bottom eigenpairs into `out`, dropping the first pair (the trivial, constant direction):
/// coordinates (N x (nev-1)) = eigenvectors 2..nev, each row multiplied by row_scale(i) when row_scale
/// is non-empty (Laplacian Eigenmaps' D^-1/2), signs made deterministic; eigenvalues 2..nev.
template <Real T>
void fill_spectral_embedding(Embedding<T>& out, const BottomEigenpairs& pairs, const Eigen::VectorXd& row_scale) {
  const Eigen::Index dim = pairs.vectors.cols() - 1;
  Eigen::MatrixXd coordinates = pairs.vectors.rightCols(dim);
  if (row_scale.size() > 0) coordinates = row_scale.asDiagonal() * coordinates;
  fix_signs(coordinates);
  out.coordinates = coordinates.cast<T>();
  out.eigenvalues = pairs.values.tail(dim).cast<T>();
  out.diagnostics = pairs.diagnostics;
}

}  // namespace detail
}  // namespace nldr
