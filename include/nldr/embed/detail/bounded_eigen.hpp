// The bottom eigenpairs of a sparse symmetric matrix M whose spectrum lies in [0, bound]: the
// normalized Laplacian of UMAP's spectral start (bound 2; routines/spectral_layout.hpp).
//
// The shift-invert of sparse_eigen.hpp converges in a few products, but each is a solve, and the
// factorization comes first; how much that costs depends on the graph. A kNN graph on a manifold of
// low dimension has small separators, so its factor stays sparse, while a graph of data of high
// intrinsic dimension fills in: CHOLMOD predicts 7.4e8 flops for the UMAP graph of 70,000 Swiss-roll
// points (k = 15) and 8.6e10 for that of 70,000 Fashion-MNIST images (docs/methods/umap.md, "Speed").
// Plain Lanczos on bound I - M needs no factorization, only products with M. It converges in a few
// hundred products when the bottom eigenvalues stand apart (Fashion-MNIST's classes), and in
// thousands when they crowd near 0 (a manifold's slowly varying modes). Which one is faster is
// therefore known only after trying; what is known before any numeric work is the factorization's
// cost, from CHOLMOD's symbolic analysis. So plain Lanczos runs first with as many products as the
// factorization would take in time, and the shift-invert, on the same analysis, if it has not
// converged by then: never much more than twice the faster of the two.
#pragma once

#include <nldr/core/progress.hpp>
#include <nldr/embed/detail/reporting_operator.hpp>
#include <nldr/embed/detail/sparse_eigen.hpp>
#include <nldr/embed/eigen_options.hpp>

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <Spectra/SymEigsSolver.h>

#include <algorithm>
#include <concepts>
#include <optional>
#include <string>

namespace nldr::detail {

/// bound I - M on the complement of the unit vector u (when given): M's bottom eigenpairs are its
/// top ones, with u, M's known null vector, deflated as in the shift-invert (sparse_eigen.hpp).
class BoundMinus {
 public:
  using Scalar = double;
  BoundMinus(const SparseLower& lower, double bound, const Eigen::VectorXd* u) : lower_(lower), bound_(bound), u_(u) {}
  Eigen::Index rows() const { return lower_.rows(); }
  Eigen::Index cols() const { return lower_.cols(); }
  void perform_op(const double* x, double* y) const {
    Eigen::Map<const Eigen::VectorXd> in(x, rows());
    Eigen::Map<Eigen::VectorXd> out(y, rows());
    if (u_ == nullptr) {
      out = bound_ * in - lower_.selfadjointView<Eigen::Lower>() * in;
      return;
    }
    const Eigen::VectorXd projected = in - *u_ * u_->dot(in);
    out = bound_ * projected - lower_.selfadjointView<Eigen::Lower>() * projected;
    out -= *u_ * u_->dot(out);
  }

 private:
  const SparseLower& lower_;
  double bound_;
  const Eigen::VectorXd* u_;
};

/// The nev bottom eigenpairs of M (spectrum in [0, bound]) by plain Lanczos on bound I - M, at most
/// about `max_products` products with M; nullopt when it has not converged by then, or when that
/// allows fewer than two restarts. Same conventions as bottom_eigenpairs (null_vector first, deflated).
/// (A template only so that a unit instantiates the solver where it calls it: docs/building.md,
/// "Compile time".)
std::optional<BottomEigenpairs> bounded_lanczos_eigenpairs(const std::same_as<SparseLower> auto& lower, double bound,
                                                           int nev, const BottomEigenOptions& options,
                                                           const Eigen::VectorXd& null_vector, double max_products,
                                                           OpenEndedProgress& products) {
  const Eigen::Index n = lower.rows();
  const bool deflate = null_vector.size() == n && nev >= 2;
  const Eigen::VectorXd u = deflate ? Eigen::VectorXd(null_vector.normalized()) : Eigen::VectorXd();
  const int wanted = deflate ? nev - 1 : nev;
  const Eigen::Index ncv = lanczos_vector_count(options, wanted, n);
  // One restart costs ncv - wanted products after the first ncv.
  const double restarts = (max_products - double(ncv)) / double(ncv - wanted);
  if (!(restarts >= 2)) return std::nullopt;
  BoundMinus op(lower, bound, deflate ? &u : nullptr);
  ReportingOperator<BoundMinus> reporting(op, products);
  Spectra::SymEigsSolver<ReportingOperator<BoundMinus>> solver(reporting, wanted, ncv);
  solver.init();  // Spectra's fixed-seed start vector: deterministic
  solver.compute(Spectra::SortRule::LargestAlge, int(std::min(restarts, double(options.max_iterations))),
                 options.tolerance, Spectra::SortRule::LargestAlge);
  if (solver.info() != Spectra::CompInfo::Successful) return std::nullopt;
  BottomEigenpairs result;
  result.diagnostics.solver = "spectra-lanczos";
  result.diagnostics.iterations = int(solver.num_iterations());
  result.diagnostics.operations = int(solver.num_operations());
  // Spectra gives bound - lambda descending: M's eigenvalues ascending.
  set_pairs(result, lower, u, (bound - solver.eigenvalues().array()).matrix(), solver.eigenvectors());
  return result;
}

/// How many times faster CHOLMOD's supernodal factorization runs per flop than a product with M per
/// flop, where the factor fills in: its dense blocks run on BLAS-3, while a product streams M from
/// memory. Measured (idle, 2 threads; docs/methods/umap.md, "Speed"): 18 on the UMAP graph of 70,000
/// Fashion-MNIST images (8.6e10 flops in 3.6 s, a product of 3.7e6 flops in 2.8 ms), but 1.4 and 2.6
/// on those of 70,000 and 200,000 Swiss-roll points, whose small supernodes gain little. So the
/// budget is about the factorization's time where the factor fills in, and a fraction of it where it
/// does not (the roll at 70,000 points: under two restarts, so Lanczos is not tried; at 10^6 it is,
/// and the failed attempt costs 22% of the factorization's time).
inline constexpr double factorization_flop_speedup = 20;

/// bottom_eigenpairs (sparse_eigen.hpp) for a matrix whose eigenvalues lie in [0, bound]: where that
/// would factorize with CHOLMOD's supernodal LL^T, plain Lanczos first, with as many products as the
/// factorization is predicted to take (see the file comment); the diagnostics name the solver that
/// gave the result ("spectra-lanczos" or the shift-invert's).
/// (A template only so that a unit instantiates the solvers where it calls it: docs/building.md,
/// "Compile time".)
BottomEigenpairs bounded_bottom_eigenpairs(const std::same_as<SparseLower> auto& lower, [[maybe_unused]] double bound,
                                           int nev,
                                           const BottomEigenOptions& options, const std::string& method,
                                           const Eigen::VectorXd& null_vector = {},
                                           const ProgressCallback& progress = {}) {
  validate_solver_options(options);
#if defined(NLDR_HAVE_SUITESPARSE)
  const Eigen::Index n = lower.rows();
  if (!options.report_gap && !takes_dense_solver(options, n, nev) && takes_supernodal(options, n)) {
    ShiftInvert<SupernodalFactor> op(lower);
    op.analyze();
    if (op.factor().analyzed()) {
      // A product with M: a multiply-add for each entry of M (two per stored off-diagonal one), and
      // the vector updates.
      const double product_flops = 4.0 * double(lower.nonZeros()) + 4.0 * double(n);
      const double budget = op.factor().predicted_flops() / factorization_flop_speedup / product_flops;
      OpenEndedProgress products(progress_part(progress, 0, 0.5), double(lanczos_vector_count(options, nev, n)),
                                 method + ": the eigensolver");
      if (auto pairs = bounded_lanczos_eigenpairs(lower, bound, nev, options, null_vector, budget, products))
        return *pairs;
    }
    return shift_invert_eigenpairs(op, nev, options, method, null_vector, supernodal_solver_name,
                                   progress_part(progress, 0.5, 1));
  }
#endif
  return bottom_eigenpairs(lower, nev, options, method, null_vector, progress);
}

}  // namespace nldr::detail
