// Top (largest algebraic) eigenpairs of a dense symmetric N x N matrix, as classical MDS
// and Isomap need them (docs/algorithms.md sec. 3.10: dense top spectra by Lanczos on a parallel dense
// mat-vec, never a full O(N^3) decomposition for large N).
//
// Small N: one full Eigen::SelfAdjointEigenSolver (cheap, and exact for every eigenvalue).
// Larger N: Spectra's implicitly restarted Lanczos (SymEigsSolver) on a parallel mat-vec that
// reads the upper triangle in its stored precision (float or double) and accumulates in double
// (symmetric_product.hpp); results do not depend on the thread count.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/progress.hpp>
#include <nldr/core/types.hpp>
#include <nldr/embed/detail/reporting_operator.hpp>
#include <nldr/embed/detail/symmetric_product.hpp>
#include <nldr/embed/eigen_options.hpp>
#include <nldr/embed/embedding.hpp>

#include <Eigen/Core>
#include <Eigen/Eigenvalues>
#include <Spectra/SymEigsSolver.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

namespace nldr {

namespace detail {

/// Spectra operator y = shift x - A x: its largest eigenvalues are shift minus A's smallest. Lanczos
/// measures convergence relative to each eigenvalue, so on A's cluster of near-zero eigenvalues (a Gram
/// matrix of rank r has N - r of them: 1700 on the digits) it asks for an absolute accuracy near 1e-20
/// and never gets it; shifted by A's largest eigenvalue, the same tolerance is relative to the scale of
/// A, which is what the negative-eigenvalue diagnostic needs.
template <Real S>
class ShiftedNegatedProduct {
 public:
  using Scalar = double;
  ShiftedNegatedProduct(const Matrix<S>& matrix, double shift) : product_(matrix), shift_(shift) {}
  Eigen::Index rows() const { return product_.rows(); }
  Eigen::Index cols() const { return product_.cols(); }
  void perform_op(const double* x_in, double* y_out) const {
    product_.perform_op(x_in, y_out);
    for (Eigen::Index i = 0; i < rows(); ++i) y_out[i] = shift_ * x_in[i] - y_out[i];
  }

 private:
  ParallelSymProduct<S> product_;
  double shift_;
};

/// Relative accuracy (to the largest eigenvalue's magnitude) of TopEigenpairs::smallest by Lanczos.
inline constexpr double smallest_tolerance = 1e-6;

/// The `top` largest eigenvalues (descending) with unit eigenvectors (N x top, columns), and the
/// `bottom` smallest eigenvalues (ascending; values only) of a symmetric matrix.
struct TopEigenpairs {
  Eigen::VectorXd values;
  Eigen::MatrixXd vectors;
  Eigen::VectorXd smallest;
  /// How the `bottom` smallest eigenvalues were found: a diagnostic, so a failure is reported here
  /// (not_converging) and never fails the top pairs. not_computed when bottom = 0.
  SolverStatus smallest_status = SolverStatus::not_computed;
  EigenDiagnostics diagnostics;
};

/// Solves for the extreme eigenpairs of the symmetric N x N `matrix`; requires
/// 1 <= top < N and 0 <= bottom <= N - top. `method` names the caller in error messages.
/// `progress` (optional) hears k / (k + ncv) after the k-th mat-vec of the top solve, and the same on
/// [1/2, 1) for the bottom one when asked for (reporting_operator.hpp); the dense decomposition
/// reports nothing before it ends, and the caller reports the end.
/// \throws nldr::convergence_error when Lanczos does not converge for the top pairs (naming nev, ncv
/// and maxit); a failure for the bottom values only sets smallest_status; nldr::cancelled.
template <Real S>
TopEigenpairs dense_top_eigenpairs(const Matrix<S>& matrix, Eigen::Index top, Eigen::Index bottom,
                                   const TopEigenOptions& options, const std::string& method,
                                   const ProgressCallback& progress = {}) {
  const Eigen::Index n = matrix.rows();
  TopEigenpairs result;
  if (n <= options.dense_below) {
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(matrix.template cast<double>());
    if (solver.info() != Eigen::Success)
      throw convergence_error(method + ": the dense symmetric eigensolver failed (N = " + std::to_string(n) +
                              "); check the input for extreme values");
    // Eigen returns ascending eigenvalues.
    result.values = solver.eigenvalues().tail(top).reverse();
    result.vectors = solver.eigenvectors().rightCols(top).rowwise().reverse();
    result.smallest = solver.eigenvalues().head(bottom);
    if (bottom > 0) result.smallest_status = SolverStatus::success;
    result.diagnostics.solver = "dense";
    return result;
  }
  if (options.max_iterations < 1)
    throw_invalid("max_iterations", "max_iterations = ", options.max_iterations, " must be >= 1");
  if (!(options.tolerance > 0 && options.tolerance < 1))
    throw_invalid("tolerance", "tolerance = ", options.tolerance, " must lie in (0, 1)");
  // Eigenvalues (and eigenvectors when `vectors` is given) of the nev largest pairs of `op`.
  const auto solve = [&]<class Operator>(Operator& op, Eigen::Index nev, double tolerance,
                                         const ProgressCallback& part, Eigen::MatrixXd* vectors) -> Eigen::VectorXd {
    // ncv: Spectra's advice is ncv >= 2 nev; 20 leaves room for a few clustered eigenvalues.
    const Eigen::Index ncv = std::min<Eigen::Index>(n, std::max<Eigen::Index>(2 * nev + 1, 20));
    OpenEndedProgress products(part, double(ncv), method + ": the eigensolver");
    ReportingOperator<Operator> reporting(op, products);
    Spectra::SymEigsSolver<ReportingOperator<Operator>> solver(reporting, nev, ncv);
    solver.init();
    solver.compute(Spectra::SortRule::LargestAlge, options.max_iterations, tolerance);
    result.diagnostics.iterations += int(solver.num_iterations());
    result.diagnostics.operations += int(solver.num_operations());
    if (solver.info() != Spectra::CompInfo::Successful)
      throw convergence_error(detail::concat(method, ": the Lanczos eigensolver did not converge (nev = ", nev,
                                             ", ncv = ", ncv, ", maxit = ", options.max_iterations,
                                             ", tol = ", tolerance,
                                             "): raise the eigensolver's max_iterations or tolerance"));
    if (vectors != nullptr) *vectors = solver.eigenvectors();
    return solver.eigenvalues();
  };
  {
    ParallelSymProduct<S> op(matrix);
    result.values =
        solve(op, top, options.tolerance, progress_part(progress, 0, bottom > 0 ? 0.5 : 1), &result.vectors);
  }
  if (bottom > 0) {
    // A diagnostic: a failure is reported in smallest_status and never fails the embedding. It needs
    // the values to a few digits of the matrix's scale, not 1e-10: next to a Gram matrix's zero
    // cluster and its smallest positive eigenvalues, 1e-10 took the digits (N = 1797) 190 restarts.
    const double shift = std::max(std::abs(result.values(0)), std::numeric_limits<double>::min());
    ShiftedNegatedProduct<S> op(matrix, shift);
    try {
      result.smallest = shift - solve(op, bottom, std::max(options.tolerance, smallest_tolerance),
                                      progress_part(progress, 0.5, 1), nullptr).array();
      result.smallest_status = SolverStatus::success;
    } catch (const convergence_error&) {
      result.smallest_status = SolverStatus::not_converging;
    }
  }
  result.diagnostics.solver = "spectra-lanczos";
  return result;
}

}  // namespace detail
}  // namespace nldr
