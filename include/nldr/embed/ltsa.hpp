// Local Tangent Space Alignment (Zhang & Zha 2004; docs/algorithms.md sec. 3.8).
//
// Per point i, its neighborhood with the point itself (m = k_i + 1 members), centered; the top-d
// left singular vectors V_i of that m x D matrix are the local tangent coordinates. With
// G_i = [1/sqrt(m), V_i] (orthonormal columns), the alignment matrix is
//   B = sum_i S_i (I - G_i G_i^T) S_i^T,
// sparse, symmetric PSD, with the constant vector in its null space; the embedding is its bottom
// d+1 eigenvectors without the first. The graph is used as given (variable neighbor counts are fine).
// Out of sample (docs/methods/ltsa.md): the new point's local tangent coordinates, from the PCA of its
// k nearest training points, mapped by the affine map that takes those points' tangent coordinates
// to their embedding (least squares): LTSA's own model of a neighborhood (Zhang & Zha 2004, sec. 5),
// exact where the neighborhood is affine, which the barycentric weights of LLE are not for k > d + 1.
#pragma once

#include <nldr/core/described.hpp>
#include <nldr/core/error.hpp>
#include <nldr/core/precompiled.hpp>
#include <nldr/core/progress.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>
#include <nldr/embed/detail/connectivity.hpp>
#include <nldr/embed/detail/local_blocks.hpp>
#include <nldr/embed/detail/local_tangent.hpp>
#include <nldr/embed/detail/sparse_eigen.hpp>
#include <nldr/embed/eigen_options.hpp>
#include <nldr/embed/embedder.hpp>
#include <nldr/embed/embedding.hpp>
#include <nldr/embed/model_fields.hpp>
#include <nldr/embed/routines/out_of_sample.hpp>
#include <nldr/embed/routines/spectral_fit.hpp>
#include <nldr/neighbors/graph.hpp>
#include <nldr/neighbors/point_index.hpp>

#include <Eigen/Core>
#include <Eigen/QR>
#include <type_traits>

#include <cmath>
#include <string>

namespace nldr {

/// Options of Ltsa.
struct LtsaOptions {
  index_t dim = 2;                 ///< target dimension d, 1 <= d <= D and d + 1 < N
  BottomEigenOptions eigen{};  ///< bottom-eigenpair solver settings
  /// Optional progress and cancel hook (core/progress.hpp): the local bases report 0 .. 0.5 by
  /// blocks of ~1% of the points, the eigensolver 0.5 .. 1 (docs/tool.md, "Progress and logging").
  ProgressCallback progress{};

  /// The parameters a caller names (core/described.hpp; docs/registry.md).
  template <class Visitor>
  void describe(Visitor& v) {
    v.number("dim", dim, {1, 1e9}, "target dimension d");
    eigen.describe(v);
  }
};

/// A fitted LTSA: N x d coordinates (unit-norm orthogonal columns), the d eigenvalues of the
/// alignment matrix behind them, and what transform needs.
template <Real T>
struct LtsaModel : Embedding<T>, routines::PlacesByTrainingNeighbors<LtsaModel<T>> {
  /// Training points, their search index and the rule that gives a new point its neighbors (>= d + 1).
  routines::TrainingNeighbors<T> training;

  /// Throws invalid_argument("model") unless the fields fit together (e.g. after a model file).
  void check_state() const {
    check_embedding_state(*this);
    training.check_state(this->coordinates.rows());
    require_state(training.minimum > this->coordinates.cols(), "new points get more than d neighbors");
  }

  template <class Visitor>
  void visit(Visitor& v) {
    training.visit(v);
  }

 private:
  friend routines::PlacesByTrainingNeighbors<LtsaModel<T>>;

  /// What transform(X_new[, k]) (routines::PlacesByTrainingNeighbors) does with the neighbors it finds:
  /// Places new points (P x D, finite, same D) from the training points the graph's selector
  /// would join them to (docs/models.md, "What a new point gets") and the tangent
  /// space of its k neighbors (a new point equal to a training point gets that point's
  /// coordinates). O(P (k^2 D + k^3)).
  /// \throws nldr::invalid_argument naming "X_new".
  Matrix<T> place(const detail::NeighborLists<T>& neighbors, const PointsRef<T>& X_new) const;
};

template <Real T>
Matrix<T> LtsaModel<T>::place(const detail::NeighborLists<T>& neighbors, const PointsRef<T>& X_new) const {
  const Eigen::Index d = this->coordinates.cols();
  const Matrix<T>& points = training.points.points();
  return routines::place_by_neighbors(
      neighbors, this->coordinates, X_new, [&](const Eigen::RowVectorXd& x, auto members, auto) {
        const auto k = index_t(members.size());
        Eigen::MatrixXd Z = detail::neighborhood(points.template cast<double>(), members,
                                                 Eigen::RowVectorXd::Zero(points.cols()));
        const Eigen::RowVectorXd mean = Z.colwise().mean();
        Z.rowwise() -= mean;
        const detail::LocalSpectrum local = detail::gram_spectrum(Z);
        // Tangent directions in input space: Z^T u_a / sigma_a (unit); a degenerate direction stays 0.
        Eigen::MatrixXd tangent = Eigen::MatrixXd::Zero(points.cols(), d);
        for (Eigen::Index a = 0; a < d; ++a)
          if (local.values[a] > 0) tangent.col(a) = Z.transpose() * local.vectors.col(a) / std::sqrt(local.values[a]);
        Eigen::MatrixXd design(k, d + 1);
        design.col(0).setOnes();
        design.rightCols(d) = Z * tangent;
        Eigen::MatrixXd targets(k, d);
        for (index_t a = 0; a < k; ++a) targets.row(a) = this->coordinates.row(members[a]).template cast<double>();
        const Eigen::MatrixXd affine = design.colPivHouseholderQr().solve(targets);  // (d + 1) x d
        Eigen::RowVectorXd local_x(d + 1);
        local_x << 1.0, (x - mean) * tangent;
        return Eigen::RowVectorXd(local_x * affine);
      });
}

NLDR_PRECOMPILED(Matrix<float> LtsaModel<float>::place(
    const detail::NeighborLists<float>&, const PointsRef<float>&) const)
NLDR_PRECOMPILED(Matrix<double> LtsaModel<double>::place(
    const detail::NeighborLists<double>&, const PointsRef<double>&) const)

namespace detail {

/// Why LTSA needs d neighbors per point, for the error message.
inline constexpr const char* ltsa_min_neighbors_reason = "d, so that the d + 1 members span d tangent directions";

/// LTSA's block of one neighborhood, the rows `members` of `points` (the point itself first):
/// I - G G^T with G = [1/sqrt(m), the top-d local PCA coordinates]. Shared with the distributed
/// LTSA (nldr/mpi/ltsa.hpp).
template <class Points, class Members>
void ltsa_block(const Points& points, const Members& members, index_t dim, Eigen::Map<Eigen::MatrixXd>& block) {
  const Eigen::Index m = Eigen::Index(members.size()), d = dim;
  const LocalSpectrum local = gram_spectrum(centered_neighborhood(points, members));
  Eigen::MatrixXd G(m, d + 1);
  G.col(0).setConstant(1.0 / std::sqrt(double(m)));
  G.rightCols(d) = local.vectors.leftCols(d);
  block = -G * G.transpose();
  block.diagonal().array() += 1.0;
}

/// The LTSA alignment matrix B (lower triangle, N x N) for points (N x D) and the graph's lists, with
/// d tangent directions per neighborhood. Records the "weights" and "assembly" stages; `progress`
/// hears the local bases done.
template <Real T>
SparseLower ltsa_matrix(const Matrix<double>& points, const NeighborGraph<T>& graph, index_t dim, StageTimes& times,
                        const ProgressCallback& progress = {}) {
  const IndexSets sets = index_sets(graph, true);
  return assemble_blocks(
      sets, [&](index_t i, Eigen::Map<Eigen::MatrixXd>& block) { ltsa_block(points, sets.set(i), dim, block); },
      times, progress);
}

}  // namespace detail

/// LTSA. Usage: `Ltsa{{.dim = 2}}.fit(X, graph)`.
struct Ltsa {
  LtsaOptions options;

  /// Embeds X (N x D, finite) with the neighbor lists of `graph` (N points, connected, every point with
  /// at least d neighbors). Result: N x d coordinates (unit-norm orthogonal columns), the d eigenvalues
  /// of B behind them, timings ("weights", "assembly", "eigensolve"), solver diagnostics. Runs in double.
  /// Cost: O(N (k^2 D + k^3)) for the local bases, then one sparse LDLT of B.
  /// \throws nldr::invalid_argument, nldr::disconnected_graph, nldr::convergence_error.
  template <Real T>
  LtsaModel<T> fit(const PointsArg<T>& X, const NeighborGraph<T>& graph) const;
};

template <Real T>
LtsaModel<T> Ltsa::fit(const PointsArg<T>& X, const NeighborGraph<T>& graph) const {
  routines::validate_graph_fit(X, graph, options.dim);
  validate_dim_within_input(options.dim, X.cols());
  detail::require_min_degree(graph, options.dim, "ltsa", detail::ltsa_min_neighbors_reason);
  detail::require_connected(graph, "ltsa");

  const Matrix<double> points = X.template cast<double>();
  LtsaModel<T> result;
  const detail::SparseLower B =
      detail::ltsa_matrix(points, graph, options.dim, result.times, progress_part(options.progress, 0, 0.5));
  // Each block I - G G^T has the constant vector in G's span, so B 1 = 0: deflate it.
  routines::spectral_embedding(result, B, options.dim, options.eigen, "ltsa", Eigen::VectorXd::Ones(B.rows()),
                               Eigen::VectorXd(), progress_part(options.progress, 0.5, 1));
  routines::keep_training_points(result, X, graph, options.dim + 1);
  report_progress(options.progress, 1, "ltsa");
  return result;
}

NLDR_GRAPH_EMBEDDER_FIT(Ltsa, LtsaModel)

}  // namespace nldr
