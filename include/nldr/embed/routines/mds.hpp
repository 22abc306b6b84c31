// Classical-scaling routines shared by classical MDS, Isomap and Landmark Isomap (Torgerson 1952;
// Gower 1966; docs/algorithms.md sec. 3): double centering of squared distances, the top-d
// eigenpairs of the centered matrix turned into coordinates, and the distance-based triangulation
// that places a point from its squared distances to the points of the scaling (de Silva &
// Tenenbaum 2004, eq. 3), which is how every one of them transforms new points.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/progress.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>
#include <nldr/embed/detail/dense_top_eigen.hpp>
#include <nldr/embed/detail/signs.hpp>
#include <nldr/embed/eigen_options.hpp>
#include <nldr/embed/embedding.hpp>
#include <nldr/embed/model_fields.hpp>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace nldr::routines {

/// In place: squared distances D^2 (N x N, symmetric) become B = -1/2 J D^2 J (Torgerson 1952).
/// Row means are accumulated in double; each row is rewritten by one thread.
template <Real S>
void double_center_squared(Matrix<S>& squared) {
  const Eigen::Index n = squared.rows();
  Eigen::VectorXd row_mean(n);
  parallel_for(0, n, [&](std::int64_t i) { row_mean[i] = squared.row(i).template cast<double>().sum() / double(n); });
  const double total_mean = row_mean.sum() / double(n);
  parallel_for(
      0, n,
      [&](std::int64_t i) {
        const double ri = row_mean[i];
        for (Eigen::Index j = 0; j < n; ++j)
          squared(i, j) = S(-0.5 * (double(squared(i, j)) - ri - row_mean[j] + total_mean));
      },
      16);
}

/// Checks dim and the negative-eigenvalue count against the size n of the scaling.
inline void validate_scaling_sizes(index_t dim, index_t negative, Eigen::Index n, const char* size_name = "N") {
  validate_dimension(dim, n, size_name);
  if (negative < 0 || negative > n - dim)
    throw_invalid("negative_eigenvalues", "negative_eigenvalues = ", negative, " must lie in [0, ", size_name,
                  " - dim = ", n - dim, "]");
}

/// The classical scaling of a centered matrix B: coordinates V sqrt(max(lambda, 0)) and what a
/// triangulation needs.
struct Scaling {
  Eigen::MatrixXd coordinates;  ///< n x d
  Eigen::VectorXd values;       ///< top d eigenvalues of B, descending
  Eigen::MatrixXd vectors;      ///< n x d unit eigenvectors (deterministic signs)
  /// Most negative eigenvalues found (ascending, only values below -1e-6 lambda_1) and how they were found.
  Eigen::VectorXd negative_eigenvalues;
  SolverStatus negative_status = SolverStatus::not_computed;
  double trace = 0;  ///< trace(B): the total (signed) variance
  EigenDiagnostics diagnostics;
};

/// The results of a scaling in a model of classical scaling (MdsModel, IsomapModel, LandmarkIsomapModel):
/// coordinates, eigenvalues, the negative eigenvalues found, trace(B) and the solver's diagnostics.
template <class Model>
void fill_scaling_results(Model& model, const Scaling& scaling) {
  using T = typename decltype(model.coordinates)::Scalar;
  model.coordinates = scaling.coordinates.template cast<T>();
  model.eigenvalues = scaling.values.template cast<T>();
  model.negative_eigenvalues = scaling.negative_eigenvalues;
  model.negative_status = scaling.negative_status;
  model.trace = scaling.trace;
  model.diagnostics = scaling.diagnostics;
}

/// The model fields of fill_scaling_results beyond Embedding's, for the model's visit (model_fields.hpp).
template <class Visitor, class Model>
void visit_scaling_results(Visitor& v, Model& model) {
  v("negative_eigenvalues", model.negative_eigenvalues, FieldRole::result);
  v("negative_status", model.negative_status, FieldRole::result);
  v("trace", model.trace, FieldRole::result);
}

/// Top-d eigenpairs of the doubly centered B (n x n, any storage S); records "eigensolve". `progress`
/// hears the eigensolver's fractions (dense_top_eigenpairs) and 1 at the end.
template <Real S>
Scaling scale_centered(const Matrix<S>& centered, index_t dim, index_t negative, const TopEigenOptions& eigen,
                       const std::string& method, StageTimes& times, const ProgressCallback& progress = {}) {
  Stopwatch watch;
  auto pairs = detail::dense_top_eigenpairs(centered, dim, negative, eigen, method, progress);
  detail::fix_signs(pairs.vectors);
  Scaling scaling;
  scaling.coordinates = pairs.vectors * pairs.values.cwiseMax(0.0).cwiseSqrt().asDiagonal();
  scaling.values = pairs.values;
  scaling.vectors = std::move(pairs.vectors);
  // Eigenvalues within the diagnostic's accuracy of zero (1e-6 |lambda_1|) are no sign of
  // non-Euclidean dissimilarities.
  const double rounding = detail::smallest_tolerance * std::abs(pairs.values[0]);
  Eigen::Index count = 0;
  while (count < pairs.smallest.size() && pairs.smallest[count] < -rounding) ++count;
  scaling.negative_eigenvalues = pairs.smallest.head(count);
  scaling.negative_status = pairs.smallest_status;
  for (Eigen::Index i = 0; i < centered.rows(); ++i) scaling.trace += double(centered(i, i));
  scaling.diagnostics = pairs.diagnostics;
  times.add("eigensolve", watch.seconds());
  report_progress(progress, 1, method + ": the eigensolver");
  return scaling;
}

/// Distance-based triangulation (de Silva & Tenenbaum 2004, eq. 3): a point with squared
/// distances delta (m values) to the m points of a scaling lands at y = -1/2 L# (delta - delta_mean),
/// L# = diag(lambda^-1/2) V^T, delta_mean(a) = mean squared distance from point a to the others.
/// A point of the scaling itself lands exactly on its coordinates (V lambda^1/2) since B's rows sum
/// to zero.
struct Triangulation {
  Eigen::MatrixXd pseudo_inverse;  ///< d x m: L#
  Eigen::VectorXd mean_squared;    ///< m: delta_mean

  /// From a scaling and the mean squared distances. An axis whose eigenvalue is <= 0 (an empty
  /// axis) gets a zero row of L#: every point lands at 0 on it, as the scaling's own points do.
  static Triangulation of(const Scaling& scaling, Eigen::VectorXd mean_squared) {
    const Eigen::VectorXd inverse_root =
        scaling.values.unaryExpr([](double l) { return l > 0 ? 1.0 / std::sqrt(l) : 0.0; });
    return {inverse_root.asDiagonal() * scaling.vectors.transpose(), std::move(mean_squared)};
  }

  /// Row p of `squared` (P x m): the squared distances of point p; returns P x d.
  template <Real T>
  Matrix<T> place(const Eigen::MatrixXd& squared) const {
    return place_each<T>(squared.rows(),
                         [&](std::int64_t p, Eigen::VectorXd& delta) { delta = squared.row(p).transpose(); });
  }

  /// The same for `points` points whose squared distances squared_of(p, delta) writes into delta
  /// (m values), so that a caller holding the distances in another layout (Landmark Isomap's m x N
  /// geodesics) need not copy them into a P x m matrix of doubles first.
  template <Real T, class SquaredOf>
  Matrix<T> place_each(std::int64_t points, SquaredOf&& squared_of) const {
    Matrix<T> Y(points, pseudo_inverse.rows());
    std::vector<Eigen::VectorXd> deltas(std::size_t(std::max(1, max_threads())), Eigen::VectorXd(mean_squared.size()));
    parallel_for(0, points, [&](std::int64_t p) {
      Eigen::VectorXd& centered = deltas[std::size_t(thread_index())];
      squared_of(p, centered);
      centered -= mean_squared;
      Y.row(p) = (-0.5 * (pseudo_inverse * centered)).transpose().template cast<T>();
    });
    return Y;
  }
};

}  // namespace nldr::routines
