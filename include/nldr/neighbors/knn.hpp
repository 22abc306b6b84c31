// KNearest: the exact k-nearest-neighbor graph (docs/algorithms.md sec. 2.1).
#pragma once

#include <nldr/core/described.hpp>
#include <nldr/core/error.hpp>
#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>
#include <nldr/neighbors/detail/exact_search.hpp>
#include <nldr/neighbors/graph.hpp>
#include <nldr/neighbors/selector.hpp>

#include <Eigen/Core>
#include <limits>
#include <utility>

namespace nldr {

/// Selects, for every point, its k nearest other points N_k(i): exact, Euclidean.
///
/// The result is a directed NeighborGraph (lists as found; is_symmetric() is false, use
/// symmetrized() for an undirected graph) with exactly k neighbors per point, each list sorted by
/// (distance, index): among points at the same distance the smaller index comes first, and at
/// the k-th distance the smaller indices are the ones kept. Exact duplicates of a point are
/// neighbors at distance 0 (only the point itself is excluded). Distances are plain Euclidean
/// (not squared), computed in the scalar type of X; the order is exact for the stored values.
/// The graph is identical for every backend and thread count.
///
/// Backends: `kdtree` (nanoflann, O(N log N) for low D), `brute_force` (blocked GEMM, O(N^2 D)
/// time, O(N D) memory; wins for high D), `automatic` = k-d tree for D <= kdtree_max_dimension.
/// Queries run in parallel (parallel_for). Memory: the graph, N k (4 + sizeof(T)) bytes, plus the
/// tree (O(N)) or a centered copy of X (N D sizeof(T)).
///
/// \code
/// nldr::Matrix<double> X = ...;                                   // N x D, one point per row
/// auto graph = nldr::KNearest{12}(X);                             // 12 neighbors per point
/// auto same = nldr::KNearest{.k = 12, .backend = nldr::SearchBackend::brute_force}(X);
/// graph.neighbors(0);  graph.distances(0);                        // nearest first
/// \endcode
struct KNearest {
  /// Neighbors per point, 1 <= k <= N - 1.
  index_t k = 10;
  /// How the search is carried out (the result does not depend on it).
  SearchBackend backend = SearchBackend::automatic;

  /// The parameters a caller names (core/described.hpp; docs/registry.md).
  template <class Visitor>
  void describe(Visitor& v) {
    v.number("k", k, {1, 2147483646}, "neighbors per point (candidates of the pruning selectors)");
  }

  /// X: N x D points (any Eigen dense expression of float or double, one point per row;
  /// finite, N >= 2). Returns the directed kNN graph with scalar type of X.
  /// \throws nldr::invalid_argument naming "X" (empty, non-finite) or "k" (k < 1 or k >= N).
  template <class Derived>
  NeighborGraph<typename Derived::Scalar> operator()(const Eigen::MatrixBase<Derived>& X) const {
    using T = typename Derived::Scalar;
    static_assert(Real<T>, "nldr::KNearest: the points must be float or double");
    validate_points(X, "X");
    validate_neighbor_count(k, X.rows(), "k");
    const PointsRef<T> points(X.derived());  // no copy for a row-major nldr::Matrix<T>
    auto lists = detail::exact_neighbors<T>(points, backend, k, std::numeric_limits<double>::infinity());
    auto graph = NeighborGraph<T>::from_sorted_csr_unchecked(std::move(lists.offsets), std::move(lists.indices),
                                                             std::move(lists.distances), false);
    SelectionReport report;
    report.selector = detail::concat("knn(k=", k, ")");
    report.search = detail::exact_search_name(backend, X.cols());
    report.candidate_edges = graph.num_edges();
    report.new_point = {NewPointRule::nearest, k, 0.0};
    graph.set_selection(std::move(report));
    return graph;
  }
};

static_assert(NeighborSelector<KNearest, float> && NeighborSelector<KNearest, double>);

/// Exact: every point nearer than the k-th neighbor is among the k.
template <>
inline constexpr bool lists_cover_their_radius<KNearest> = true;

}  // namespace nldr
