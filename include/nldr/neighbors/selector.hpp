// The NeighborSelector concept: anything that turns points into a NeighborGraph.
//
// A selector is a small value type (options fixed at construction) whose call
// operator takes N x D points of either scalar type and returns the graph:
//   NeighborGraph<double> g = KNearest{12}(X);
// Pruning selectors wrap a candidate selector and satisfy the same concept.
#pragma once

#include <nldr/core/types.hpp>
#include <nldr/neighbors/graph.hpp>

#include <cmath>
#include <concepts>
#include <string_view>

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

/// The searches a kNN graph comes from (SelectionReport::search names them).
enum class NeighborSearch {
  kdtree,       ///< exact, nanoflann k-d tree
  brute_force,  ///< exact, blocked GEMM
  hnsw,         ///< approximate, ApproximateKNearest (hnswlib)
};

/// "kdtree", "brute-force" or "hnsw".
inline std::string_view search_name(NeighborSearch search) {
  return search == NeighborSearch::kdtree ? "kdtree" : search == NeighborSearch::brute_force ? "brute-force" : "hnsw";
}

/// The CPU time of the exact brute force over that of ApproximateKNearest at its defaults, for
/// the kNN graph of n points in `dim` dimensions: 0.0168 n^0.58 (dim + 38) / (dim + 220), fitted to
/// the seven ratios measured in docs/benchmarks.md ("Automatic choice": Fashion-MNIST, N = 20,000
/// to 70,000, D = 32 to 784, float; within 11% of each). The brute force costs n^2 (dim + 38); the
/// index about n^1.42 (dim + 220), a little more than n log n as it outgrows the caches.
inline double estimated_hnsw_speedup(index_t n, Eigen::Index dim) {
  if (n < 2) return 0;
  const double d = double(dim);
  return 0.0168 * std::pow(double(n), 0.58) * (d + 38) / (d + 220);
}

/// The automatic choice takes HNSW only where the exact search is estimated to cost this many
/// times its CPU time, i.e. where the exact search is the wall (about N >= 26,000 at dim = 784,
/// 66,000 at dim = 128, 79,000 at dim = 100): it gives up exactness only for a large gain.
inline constexpr double hnsw_min_speedup = 5;

/// The search the automatic choice makes for a kNN graph of n points in `dim` dimensions: the
/// k-d tree for dim <= kdtree_max_dimension (exact, N log N for low intrinsic dimension), else
/// HNSW when `allow_approximate` and estimated_hnsw_speedup(n, dim) >= hnsw_min_speedup, else the
/// exact brute force. Depends on n and dim only (never on the thread count).
inline NeighborSearch choose_neighbor_search(index_t n, Eigen::Index dim, bool allow_approximate) {
  if (dim <= kdtree_max_dimension) return NeighborSearch::kdtree;
  if (allow_approximate && estimated_hnsw_speedup(n, dim) >= hnsw_min_speedup) return NeighborSearch::hnsw;
  return NeighborSearch::brute_force;
}

}  // namespace nldr
