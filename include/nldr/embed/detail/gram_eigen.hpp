// Standard LLE's bottom eigenpairs without forming M = A^T A (A = I - W): Lanczos on the
// pseudo-inverse M^+ restricted to 1^perp, applied through one sparse LU of (a pinned copy of) A.
//
// Why: M has the 2-hop pattern of the neighbor graph and fills in heavily when factorized; A has
// the graph's own pattern. On a Swiss roll with k = 10 and N = 2 * 10^5 the LU of A needs 2.4e9
// flops against 1.4e10 for the Cholesky factor of M, and half its non-zeros. A product with M^+
// costs two LU solves, about what one Cholesky solve of M costs.
//
// How (A 1 = 0 since the weights of every row sum to 1; the graph is connected, so A has rank
// N - 1, with a left null vector z, A^T z = 0, computed here):
//   K = A with column s replaced by e_s, which is non-singular iff z_s != 0 (u_s != 0 holds for
//   u = 1). For x orthogonal to 1, M^+ x = A^+ A^+T x in two consistent singular solves:
//   1. K^T w = x with x_s := 0 gives A^T w = x with w_s = 0 (row s of A^T w = x follows from the
//      others, because 1^T A^T = 0); then w -= z (z.w), the minimum-norm solution;
//   2. K y = w gives A y = w with y_s = 0 (w lies in range(A) = z^perp); then y -= 1 mean(y).
//   z itself is K^-T e_s = z / z_s. Its entries vary by orders of magnitude (z_s = 0 exactly for a
//   point no other point lists as a neighbor), so s is the point most often listed, and when
//   |z_s| is still below 1e-12 max |z| the LU is redone with s = argmax |z|.
// The eigenvalues of M^+ on 1^perp are 1 / lambda: LLE's bottom eigenvalues, 1e-13 .. 1e-10 and
// 10x or more apart, become the top ones and are well separated, so no shift is needed and
// Lanczos converges in one restart (13 products for d = 2).
#pragma once

#if !defined(NLDR_HAVE_SUITESPARSE)
#error "nldr/embed/detail/gram_eigen.hpp needs SuiteSparse: link the CMake target nldr::suitesparse"
#endif

#include <nldr/core/error.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/core/types.hpp>
#include <nldr/embed/detail/reporting_operator.hpp>
#include <nldr/embed/detail/sparse_eigen.hpp>
#include <nldr/embed/detail/umfpack_factor.hpp>

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <Spectra/SymEigsSolver.h>

#include <algorithm>
#include <cmath>
#include <concepts>
#include <optional>
#include <string>

namespace nldr::detail {

/// Square column-major sparse matrix (all entries stored).
using SparseSquare = Eigen::SparseMatrix<double, Eigen::ColMajor, int>;

/// x -> M^+ x on 1^perp for M = A^T A (see the file comment): the operator Spectra's SymEigsSolver
/// needs (Scalar, rows, cols, perform_op). Holds the pinned copy of A, which UMFPACK refers to, so it
/// is neither copied nor moved.
class GramPseudoInverse {
 public:
  using Scalar = double;

  explicit GramPseudoInverse(const SparseSquare& A) : A_(A) {}
  GramPseudoInverse(const GramPseudoInverse&) = delete;
  GramPseudoInverse& operator=(const GramPseudoInverse&) = delete;

  /// Factorizes A pinned at point s and finds z; false when UMFPACK fails or |z_s| < 1e-12 max |z|
  /// (then peak() names where |z| is largest, the pin to try instead).
  bool factorize(index_t s) {
    s_ = s;
    pinned_ = A_;
    pinned_.col(s) *= 0.0;
    pinned_.coeffRef(s, s) = 1.0;
    pinned_.prune(0.0);
    pinned_.makeCompressed();
    lu_.compute(pinned_);
    if (lu_.info() != Eigen::Success) return false;
    Eigen::VectorXd e = Eigen::VectorXd::Zero(A_.rows());
    e[s] = 1;
    z_.resize(A_.rows());
    if (!lu_.solve(true, e.data(), z_.data())) return false;
    const double largest = z_.cwiseAbs().maxCoeff(&peak_);  // = max |z| / |z_s|
    if (!(std::isfinite(largest) && largest < 1e12)) return false;
    z_.normalize();
    return true;
  }
  /// Where |z| peaked in the last factorize().
  index_t peak() const { return index_t(peak_); }

  Eigen::Index rows() const { return A_.rows(); }
  Eigen::Index cols() const { return A_.cols(); }

  void perform_op(const double* x_in, double* y_out) const {
    const Eigen::Index n = rows();
    Eigen::Map<const Eigen::VectorXd> x(x_in, n);
    Eigen::VectorXd rhs = x.array() - x.mean();
    rhs[s_] = 0;
    Eigen::VectorXd w(n), y(n);
    if (!lu_.solve(true, rhs.data(), w.data())) throw convergence_error("LLE: UMFPACK's transposed solve failed");
    w -= z_ * z_.dot(w);
    if (!lu_.solve(false, w.data(), y.data())) throw convergence_error("LLE: UMFPACK's solve failed");
    Eigen::Map<Eigen::VectorXd>(y_out, n) = y.array() - y.mean();
  }

  /// The point with the most entries in its column of A (the most often listed neighbor), ties by index.
  static index_t most_listed(const SparseSquare& A) {
    index_t best = 0;
    for (index_t j = 1; j < A.cols(); ++j)
      if (A.col(j).nonZeros() > A.col(best).nonZeros()) best = j;
    return best;
  }

 private:
  const SparseSquare& A_;
  SparseSquare pinned_;  // K; UMFPACK refers to it
  index_t s_ = 0;
  Eigen::Index peak_ = -1;
  UmfpackLu<SparseSquare> lu_;
  Eigen::VectorXd z_;  // unit left null vector of A
};

/// The nev smallest eigenpairs of M = A^T A for A (N x N, A 1 = 0, rank N - 1: I - W of a connected
/// graph), values ascending, vectors orthonormal; the first pair is the constant vector. Nothing
/// when the LU fails (A singular beyond its null vector, or too ill-conditioned at both pins): the
/// caller then factorizes M instead. Requires 2 <= nev and 2 nev + 1 < N.
/// `progress` (optional) hears 0.2 after the LU, then 0.2 + 0.8 k / (k + ncv) after the k-th product
/// (reporting_operator.hpp); the caller reports the end.
/// \throws nldr::convergence_error when Lanczos does not converge, saying what to try.
/// (A template only so that a unit instantiates the solver where it calls it: docs/building.md, "Compile time".)
std::optional<BottomEigenpairs> gram_bottom_eigenpairs(const std::same_as<SparseSquare> auto& A, int nev,
                                                       const BottomEigenOptions& options, const std::string& method,
                                                       const ProgressCallback& progress = {}) {
  validate_solver_options(options);
  const Eigen::Index n = A.rows();
  if (options.report_gap)
    return solve_reporting_gap(options, n, nev, [&](const BottomEigenOptions& inner, int count) {
      return gram_bottom_eigenpairs(A, count, inner, method, progress);
    });
  BottomEigenpairs result;
  Stopwatch factor_clock;
  GramPseudoInverse op(A);
  const index_t first_pin = GramPseudoInverse::most_listed(A);
  bool factorized = op.factorize(first_pin);
  if (!factorized && op.peak() >= 0 && op.peak() != first_pin) factorized = op.factorize(op.peak());
  result.diagnostics.factorization_seconds = factor_clock.seconds();
  if (!factorized) return std::nullopt;
  report_progress(progress, 0.2, method + ": the eigensolver");

  const int wanted = nev - 1;
  const Eigen::Index ncv = lanczos_vector_count(options, wanted, n);
  OpenEndedProgress products(progress_part(progress, 0.2, 1), double(ncv), method + ": the eigensolver");
  ReportingOperator<GramPseudoInverse> reporting(op, products);
  Spectra::SymEigsSolver<ReportingOperator<GramPseudoInverse>> solver(reporting, wanted, ncv);
  solver.init();  // Spectra's fixed-seed start vector: deterministic
  solver.compute(Spectra::SortRule::LargestAlge, options.max_iterations, options.tolerance);
  result.diagnostics.solver = "spectra-pseudo-inverse-umfpack-lu";
  result.diagnostics.iterations = int(solver.num_iterations());
  result.diagnostics.operations = int(solver.num_operations());
  if (solver.info() != Spectra::CompInfo::Successful || !(solver.eigenvalues().array() > 0).all())
    throw convergence_error(detail::concat(
        method, ": the Lanczos iteration on the pseudo-inverse of M did not converge in ", options.max_iterations,
        " restarts (", solver.num_operations(), " products): raise eigen.max_iterations or eigen.lanczos_vectors, "
        "loosen eigen.tolerance, or use eigen.factorization = supernodal"));
  // theta = 1 / lambda, descending, so lambda comes out ascending; the constant pair first.
  const Eigen::VectorXd u = Eigen::VectorXd::Constant(n, 1.0 / std::sqrt(double(n)));
  result.values.resize(nev);
  result.vectors.resize(n, nev);
  result.values[0] = (A * u).squaredNorm();
  result.vectors.col(0) = u;
  result.values.tail(wanted) = solver.eigenvalues().cwiseInverse();
  result.vectors.rightCols(wanted) = solver.eigenvectors();
  return result;
}

}  // namespace nldr::detail
