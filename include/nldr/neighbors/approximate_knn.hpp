// ApproximateKNearest: an approximate k-nearest-neighbor graph from a hierarchical navigable
// small world index (HNSW; Malkov & Yashunin 2018) built with hnswlib. Its settings compile
// anywhere; running it needs hnswlib (Debian libhnswlib-dev) and NLDR_HAVE_HNSWLIB, which the CMake
// target nldr::hnswlib provides (the search: neighbors/detail/hnsw_knn.hpp).
// docs/selectors.md, "ApproximateKNearest", says what it guarantees and what it costs.
#pragma once

#include <nldr/core/described.hpp>
#include <nldr/core/types.hpp>
#include <nldr/neighbors/graph.hpp>
#include <nldr/neighbors/selector.hpp>
#if defined(NLDR_HAVE_HNSWLIB)
#include <nldr/neighbors/detail/hnsw_knn.hpp>
#endif

#include <Eigen/Core>
#include <cstdint>

namespace nldr {

/// Selects, for every point, k near other points found by an HNSW index (Malkov & Yashunin 2018,
/// hnswlib): approximately its k nearest, at a small fraction of the exact search's cost in high D.
///
/// The result is a directed NeighborGraph shaped like KNearest's: exactly k neighbors per point,
/// each list sorted by (distance, index), distances plain Euclidean computed in the scalar type of
/// X by the same function as KNearest's (so a neighbor both selectors find has the same distance in
/// both). Only the set is approximate: a list may miss some true neighbors and hold farther points
/// instead. The index stores the points as float (N D 4 bytes) and ranks them by float distances.
///
/// Quality: recall (the fraction of the true k nearest found) rises with `ef`, `M` and
/// `ef_construction`. With recall_sample > 0 it is estimated against the exact neighbors of a
/// seeded sample of points and reported in selection().estimated_recall.
///
/// Determinism: with `deterministic` (the default) the points are inserted in a random order drawn
/// from `seed`, in parallel waves whose links do not depend on the thread count
/// (detail/hnsw_build.hpp); queries run in parallel and do not depend on each other. The graph is
/// then bitwise identical for every thread count and run on a given machine (the distance kernel,
/// AVX-512, AVX2 or SSE2, is picked for the CPU at run time). With deterministic = false hnswlib
/// inserts the points concurrently, about as fast, but the index, and so the graph, depends on the
/// thread schedule (docs/selectors.md).
///
/// Cost: build O(N log N) distance evaluations times ~ef_construction (the dominant part), queries
/// O(N log N) times ~ef; memory: the index, N (4 D + 8 M + ~24) bytes, plus the graph.
/// Not a good choice in low D (<= ~20), where KNearest's k-d tree is exact and faster.
///
/// \code
/// nldr::Matrix<float> X = ...;                                             // N x D, one point per row
/// auto graph = nldr::ApproximateKNearest{.k = 15, .ef = 48}(X);
/// graph.selection().estimated_recall;                                      // e.g. 0.98
/// auto pruned = nldr::SharedNeighbors{nldr::ApproximateKNearest{.k = 15}}(X);
/// \endcode
struct ApproximateKNearest {
  /// Neighbors per point, 1 <= k <= N - 1.
  index_t k = 10;
  /// Candidates kept during each query (hnswlib's ef): ef >= k, or 0 = max(2 k, 32).
  /// Larger is slower and finds more of the true neighbors.
  index_t ef = 0;
  /// Links per point and layer (hnswlib's M; 2 M on the bottom layer), >= 2. Larger raises
  /// recall in high intrinsic dimension at the cost of memory and build time.
  index_t M = 12;
  /// Candidates kept while inserting a point (hnswlib's ef_construction), >= M.
  index_t ef_construction = 64;
  /// Seeds the insertion order, the index's level generator and the recall sample.
  std::uint64_t seed = 0;
  /// Insertion in parallel waves (bitwise reproducible for any thread count) or hnswlib's
  /// concurrent insertion (graph depends on the thread schedule). Queries are parallel either way.
  bool deterministic = true;
  /// Points whose exact neighbors estimate the recall (0 = no estimate); at most N are used.
  index_t recall_sample = 200;

  /// The parameters a caller names (core/described.hpp; docs/registry.md).
  template <class Visitor>
  void describe(Visitor& v) {
    v.number("k", k, {1, 2147483646}, "neighbors per point");
    v.number("ef", ef, {0, 2147483646},
             "HNSW candidates per query, >= k (0: max(2 k, 32)); more is slower and more exact");
    v.number("hnsw_m", M, {2, 2048}, "HNSW links per node (hnswlib's M)");
    v.number("ef_construction", ef_construction, {1, 2147483646}, "HNSW candidates while building the index");
  }

  /// X: N x D points (any Eigen dense expression of float or double, one point per row; finite,
  /// N >= 2). Returns the directed approximate kNN graph with the scalar type of X.
  /// \throws nldr::invalid_argument naming "X" (empty, non-finite, out of float's range), "k",
  /// "ef", "M", "ef_construction" or "recall_sample".
  template <class Derived>
  NeighborGraph<typename Derived::Scalar> operator()(const Eigen::MatrixBase<Derived>& X) const {
#if defined(NLDR_HAVE_HNSWLIB)
    return detail::hnsw_knn_graph(*this, X);
#else
    static_assert(sizeof(Derived) == 0,
                  "nldr::ApproximateKNearest needs hnswlib: link nldr::hnswlib (apt-get install libhnswlib-dev)");
#endif
  }
};

static_assert(NeighborSelector<ApproximateKNearest, float> && NeighborSelector<ApproximateKNearest, double>);

// lists_cover_their_radius<ApproximateKNearest> stays false: a list may miss a point nearer than
// its last entry, so pruning rules must not read "all points within r" from it.

}  // namespace nldr
