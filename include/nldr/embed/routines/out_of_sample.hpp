// Pieces shared by the out-of-sample transforms of the graph embedders (docs/models.md): how
// many training neighbors a new point gets, and the validation every transform starts with.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/neighbors/graph.hpp>
#include <nldr/neighbors/point_index.hpp>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <span>

namespace nldr::routines {

/// Neighbors a new point gets by default: the training graph's mean out-degree, rounded, so a
/// model fit on KNearest{k} uses k and a pruned graph its typical list length; at least `minimum`.
template <Real T>
index_t typical_degree(const NeighborGraph<T>& graph, index_t minimum) {
  const double mean = graph.size() > 0 ? double(graph.num_edges()) / double(graph.size()) : 0.0;
  return std::min<index_t>(graph.size(), std::max<index_t>(minimum, index_t(std::lround(mean))));
}

/// Checks k for a transform against the training set size: minimum <= k <= N.
inline void validate_transform_k(index_t k, index_t minimum, index_t n) {
  if (k < minimum || k > n)
    throw_invalid("k", "transform with k = ", k, " neighbors: k must lie in [", minimum, ", N = ", n,
                  "] training points");
}

/// The transform of the local methods (LLE, LTSA, Laplacian Eigenmaps): each row of X_new is
/// placed by `place(x, members, distances)` from its k nearest training points (a std::span of
/// indices and of distances, nearest first), returning its d coordinates as an Eigen::RowVectorXd;
/// a new point that equals a training point gets that point's coordinates. Rows run in parallel.
template <Real T, class Derived, class Place>
Matrix<T> place_by_neighbors(const PointIndex<T>& training, const Matrix<T>& coordinates,
                             const Eigen::MatrixBase<Derived>& X_new, index_t k, const Place& place) {
  const auto lists = training.nearest(X_new, k);
  Matrix<T> Y(X_new.rows(), coordinates.cols());
  parallel_for(0, X_new.rows(), [&](std::int64_t p) {
    const std::span<const index_t> members(lists.indices.data() + lists.offsets[p], std::size_t(k));
    const std::span<const T> distances(lists.distances.data() + lists.offsets[p], std::size_t(k));
    if (distances[0] == T(0))
      Y.row(p) = coordinates.row(members[0]);
    else
      Y.row(p) = place(X_new.row(p).template cast<double>(), members, distances).template cast<T>();
  });
  return Y;
}

}  // namespace nldr::routines
