// Geodesic distances along the k-nearest-neighbor graph of a metric input (Tenenbaum, de Silva &
// Langford 2000): the reference of the geodesic residual variance, which ranks an unrolled Swiss
// roll above a flat projection (against the Euclidean input distances it is the other way round).
// A disconnected graph, or an N x N matrix that does not fit in memory, makes them unavailable
// with the reason instead of failing: they serve a diagnostic, which must not cost the caller the
// other measures. No components are joined: an invented edge would make the reference partly
// Euclidean (docs/metrics.md, "Geodesic residual variance").
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/progress.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>
#include <nldr/metrics/input.hpp>
#include <nldr/metrics/ranks.hpp>
#include <nldr/neighbors/components.hpp>
#include <nldr/neighbors/graph.hpp>
#include <nldr/neighbors/shortest_paths.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace nldr::metrics {

/// Geodesic distances, or why there are none.
template <Real T>
struct Geodesics {
  /// N x N shortest-path lengths along the union-symmetrized kNN graph (summed in double, stored
  /// as T); empty when unavailable.
  Matrix<T> distances;
  /// Empty when the distances are available; else why not (the graph's components, or memory).
  std::string unavailable;
  bool available() const { return unavailable.empty(); }
};

namespace detail {

/// knn_geodesics() on a validated input view; `name` names k in messages.
template <Real T>
Geodesics<T> knn_geodesics(const InputView<T>& x, index_t k, const std::string& name, std::uint64_t memory_limit,
                           const ProgressCallback& progress) {
  const index_t n = x.rows();
  validate_neighbor_count(k, n, name);
  // The k nearest of each point by the rank engine's keys and tie rule (the smaller index first).
  std::vector<std::vector<std::pair<index_t, T>>> lists(static_cast<std::size_t>(n));
  for_each_nearest(x, k, [&](index_t i, std::span<const RankKey<T>> nearest) {
    for (const auto& key : nearest) lists[std::size_t(i)].emplace_back(key.index, T(x.distance(i, key.index)));
  });
  const auto graph = NeighborGraph<T>::from_lists(lists).symmetrized(Symmetrization::union_edges);
  lists = {};
  Geodesics<T> result;
  const Components components = connected_components(graph);
  if (!components.connected()) {
    result.unavailable = nldr::detail::concat("the ", name, " = ", k, " nearest-neighbor graph has ", describe_components(components),
                                ", so the geodesics between them are infinite: raise ", name);
    return result;
  }
  try {
    check_memory(std::uint64_t(n) * std::uint64_t(n) * sizeof(T),
                 nldr::detail::concat("the ", n, " x ", n, " geodesic matrix"), "evaluate a subsample", memory_limit);
  } catch (const memory_limit_exceeded& e) {
    result.unavailable = e.what();
    return result;
  }
  result.distances = all_pairs_shortest_paths<T>(graph, memory_limit, progress);
  return result;
}

}  // namespace detail

/// Geodesic distances along the k-nearest-neighbor graph of X (N x D points: Euclidean edge
/// lengths; or precomputed(N x N): the given distances), union-symmetrized, by Dijkstra from every
/// point. Unavailable (Geodesics::unavailable says why) when that graph is disconnected or the
/// N x N matrix exceeds `memory_limit` bytes (0: the memory available now).
/// O(N^2 D) for the graph, O(N E log N) for the paths; thread-count independent.
/// \throws nldr::invalid_argument naming "X" or "k" (1 <= k <= N - 1); nldr::cancelled.
///
/// \code
/// const auto g = nldr::metrics::knn_geodesics(X, 10);
/// if (g.available()) rv = nldr::metrics::residual_variance(nldr::metrics::precomputed(g.distances), Y).value;
/// \endcode
template <MetricInput A>
Geodesics<input_scalar_t<A>> knn_geodesics(const A& X, index_t k, std::uint64_t memory_limit = 0,
                                           const ProgressCallback& progress = {}) {
  using T = input_scalar_t<A>;
  static_assert(Real<T>, "nldr::metrics: inputs must be float or double");
  const detail::InputView<T> x(X, "X");
  return detail::knn_geodesics(x, k, "k", memory_limit, progress);
}

}  // namespace nldr::metrics
