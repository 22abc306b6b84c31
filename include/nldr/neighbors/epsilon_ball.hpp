// EpsilonBall: all points within a fixed radius (docs/algorithms.md sec. 2.2).
#pragma once

#include <nldr/core/described.hpp>
#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>
#include <nldr/neighbors/detail/exact_search.hpp>
#include <nldr/neighbors/graph.hpp>
#include <nldr/neighbors/selector.hpp>

#include <Eigen/Core>
#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace nldr {

namespace detail {

/// Whether every entry i -> j (distance d) of CSR lists sorted by (distance, index) has its
/// reverse j -> i. The distance of a pair is bitwise the same both ways (squared_distance), so
/// the reverse entry is found by binary search for (d, i) in list j.
template <Real T>
bool lists_symmetric(const NeighborLists<T>& lists) {
  const index_t n = index_t(lists.offsets.size() - 1);
  std::vector<char> ok(std::size_t(n), 1);
  parallel_for(0, n, [&](std::int64_t i) {
    for (offset_t e = lists.offsets[i]; e < lists.offsets[i + 1]; ++e) {
      const index_t j = lists.indices[e];
      const T d = lists.distances[e];
      const offset_t lo = lists.offsets[j], hi = lists.offsets[j + 1];
      // First entry of list j not before (d, i).
      offset_t a = lo, b = hi;
      while (a < b) {
        const offset_t mid = a + (b - a) / 2;
        if (lists.distances[mid] < d || (lists.distances[mid] == d && lists.indices[mid] < index_t(i)))
          a = mid + 1;
        else
          b = mid;
      }
      if (a == hi || lists.indices[a] != index_t(i)) {
        ok[i] = 0;
        return;
      }
    }
  });
  return std::all_of(ok.begin(), ok.end(), [](char c) { return c != 0; });
}

}  // namespace detail

/// Selects, for every point i, all other points j with ||x_i - x_j|| <= radius (inclusive; seed
/// 002 writes the squared form, nldr takes the plain distance), optionally only the nearest
/// `max_neighbors` of them. Exact, Euclidean.
///
/// Inclusion is decided on the distance as stored in the graph (computed in the scalar type of
/// X): a pair whose stored distance equals the radius is an edge. Lists are sorted by
/// (distance, index). Without a cap the graph is symmetric and marked so; with a cap a point may
/// keep j while j drops it, and is_symmetric() tells whether that happened.
///
/// A point with no other point inside the radius is kept, with no neighbors. Such isolated points
/// are not an error here (the embedders reject disconnected graphs themselves) but they are
/// visible: graph_statistics(graph).degree_histogram[0] counts them, and components.hpp reports
/// them as components of size 1.
///
/// Backends and cost as for KNearest; the tree visits O(log N + m) nodes per query for m
/// neighbors, so the total cost grows with the number of edges the radius admits.
///
/// \code
/// auto graph = nldr::EpsilonBall{.radius = 0.5}(X);               // X: N x D
/// auto capped = nldr::EpsilonBall{.radius = 0.5, .max_neighbors = 20}(X);
/// auto isolated = nldr::graph_statistics(graph).degree_histogram[0];
/// \endcode
struct EpsilonBall {
  /// Radius of the ball, finite and > 0 (same units as X).
  double radius = 1.0;
  /// 0 = keep every point inside the radius; > 0 = keep only the nearest max_neighbors of them.
  index_t max_neighbors = 0;
  /// How the search is carried out (the result does not depend on it).
  SearchBackend backend = SearchBackend::automatic;

  /// The parameters a caller names (core/described.hpp; docs/registry.md).
  template <class Visitor>
  void describe(Visitor& v) {
    v.number("radius", radius, {0, std::numeric_limits<double>::max()}, "ball radius in input units (> 0)");
  }

  /// X: N x D points (any Eigen dense expression of float or double, one point per row;
  /// finite, N >= 1). Returns the epsilon-ball graph with the scalar type of X.
  /// \throws nldr::invalid_argument naming "X", "radius" or "max_neighbors" (< 0).
  template <class Derived>
  NeighborGraph<typename Derived::Scalar> operator()(const Eigen::MatrixBase<Derived>& X) const {
    using T = typename Derived::Scalar;
    static_assert(Real<T>, "nldr::EpsilonBall: the points must be float or double");
    validate_points(X, "X");
    validate_positive(radius, "radius");
    if (max_neighbors < 0)
      throw_invalid("max_neighbors", "max_neighbors = ", max_neighbors,
                    " must be >= 0 (0 keeps every point inside the radius)");
    const PointsRef<T> points(X.derived());  // no copy for a row-major nldr::Matrix<T>
    auto lists = detail::exact_neighbors<T>(points, backend, max_neighbors, radius);
    const bool symmetric = max_neighbors == 0 || detail::lists_symmetric(lists);
    auto graph = NeighborGraph<T>::from_sorted_csr_unchecked(std::move(lists.offsets), std::move(lists.indices),
                                                             std::move(lists.distances), symmetric);
    SelectionReport report;
    report.selector = max_neighbors == 0
                          ? detail::concat("epsilon_ball(radius=", radius, ")")
                          : detail::concat("epsilon_ball(radius=", radius, ", max_neighbors=", max_neighbors, ")");
    report.search = detail::exact_search_name(backend, X.cols());
    report.candidate_edges = graph.num_edges();
    report.new_point = {NewPointRule::within_radius, max_neighbors, radius};
    graph.set_selection(std::move(report));
    return graph;
  }
};

static_assert(NeighborSelector<EpsilonBall, float> && NeighborSelector<EpsilonBall, double>);

}  // namespace nldr
