// The NeighborSelector concept: anything that turns points into a NeighborGraph.
//
// A selector is a small value type (options fixed at construction) whose call
// operator takes N x D points of either scalar type and returns the graph:
//   NeighborGraph<double> g = KNearest{12}(X);
// Pruning selectors wrap a candidate selector and satisfy the same concept.
#pragma once

#include <nldr/core/types.hpp>
#include <nldr/neighbors/graph.hpp>

#include <concepts>

namespace nldr {

template <class S, class T>
concept NeighborSelector = Real<T> && requires(const S& selector, const Matrix<T>& points) {
  { selector(points) } -> std::same_as<NeighborGraph<T>>;
};

/// Whether every list selector S returns holds every other point strictly nearer (by stored
/// distance) than the list's last entry. Pruning rules then answer "which points lie within r
/// of x_i?" from i's list alone when r is below that distance. False by default (a pruned graph,
/// for one, does not); true for KNearest. Specialize it as true only for a selector that
/// guarantees it.
template <class S>
inline constexpr bool lists_cover_their_radius = false;

/// How exact neighbor searches are carried out.
enum class SearchBackend {
  automatic,    ///< k-d tree up to kdtree_max_dimension, brute force above
  kdtree,       ///< nanoflann k-d tree (best for low D)
  brute_force,  ///< blocked GEMM distances (best for high D, where trees degenerate)
};

/// Dimension above which `automatic` switches from the k-d tree to brute force. Measured with
/// `bench_knn crossover` (docs/benchmarks.md): on uniform data the brute force wins from D ~ 12
/// (4x at D = 20, N = 10^4), on a 2-D manifold in R^D the tree wins at every D up to 64 (7-10x)
/// and scales as N log N instead of N^2; 20 bounds the loss on the first kind of data.
inline constexpr Eigen::Index kdtree_max_dimension = 20;

}  // namespace nldr
