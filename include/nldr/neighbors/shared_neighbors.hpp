// SharedNeighbors: keep a candidate edge when its endpoints share enough neighbors
// (docs/algorithms.md sec. 2.3; Roy 2015, sec. 3.3, Algorithm 4; Jarvis & Patrick 1973).
#pragma once

#include <nldr/core/described.hpp>
#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/precompiled.hpp>
#include <nldr/core/progress.hpp>
#include <nldr/core/types.hpp>
#include <nldr/neighbors/detail/pruning.hpp>
#include <nldr/neighbors/graph.hpp>
#include <nldr/neighbors/knn.hpp>
#include <nldr/neighbors/selector.hpp>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace nldr {

/// Options of SharedNeighbors (defaults of Roy 2015).
struct SharedNeighborsOptions {
  /// threshold = ceil(ratio * k); 0 < ratio < 1. The seed argues 0.39 k < threshold < k
  /// (the overlap of two disks whose centers are one radius apart is 39% of a disk).
  double ratio = 0.4;
  /// Neighbors every point keeps at least (nearest candidates first), >= 1.
  index_t min_neighbors = 1;
  /// Re-add the shortest pruned candidates that rejoin components split by pruning.
  bool reconnect = true;
  /// Optional progress and cancel hook (core/progress.hpp): 0.5 once the candidate lists are
  /// found, 0.5 .. 0.95 from the rule by blocks of ~1% of the points, 1 when the graph is assembled.
  ProgressCallback progress{};

  /// The parameters a caller names (core/described.hpp; docs/registry.md).
  template <class Visitor>
  void describe(Visitor& v) {
    v.number("ratio", ratio, {1e-9, 1 - 1e-9}, "keep an edge with >= ceil(ratio k) shared neighbors");
    v.number("min_neighbors", min_neighbors, {1, 2147483646}, "neighbors every point keeps when pruning");
  }
};

namespace detail {

/// SharedNeighbors's rule on its candidates (compiled once in nldr::registry: core/precompiled.hpp).
template <Real T>
NeighborGraph<T> shared_neighbors_rule(const CandidateGraph<T>& cand, const SharedNeighborsOptions& options) {
  const NeighborGraph<T>& graph = cand.graph;
  const index_t n = graph.size();
  const auto offsets = graph.offsets();
  const auto indices = graph.indices();
  index_t k = 0;
  for (index_t i = 0; i < n; ++i) k = std::max(k, graph.degree(i));
  const index_t threshold = detail::ceil_fraction(options.ratio, k);

  // S(i, j) by marks: N(i) is marked in a per-thread bit set (N / 8 bytes: in L1 for N up to
  // a few 1e5), then the members of N(j) are looked up. Branch-free, no sorted copies. S is
  // symmetric, so each pair is counted once, from its entry with i < j (or its only entry),
  // and the decision is written to both entries.
  std::vector<std::vector<std::uint64_t>> marks(std::size_t(max_threads()),
                                                std::vector<std::uint64_t>(std::size_t(n) / 64 + 1, 0));
  std::vector<unsigned char> keep(indices.size(), 0);
  cand.for_each_point([&](index_t i) {
    std::uint64_t* marked = marks[std::size_t(thread_index())].data();
    const auto list = graph.neighbors(i);
    for (const index_t m : list) marked[m / 64] |= std::uint64_t(1) << (m % 64);
    for (offset_t e = offsets[i]; e < offsets[i + 1]; ++e) {
      const index_t j = indices[e];
      const offset_t twin = cand.reverse[e];
      if (twin >= 0 && j < i) continue;  // decided from j's list
      index_t shared = 0;
      for (const index_t m : graph.neighbors(j)) shared += index_t((marked[m / 64] >> (m % 64)) & 1);
      keep[e] = shared >= threshold;
      if (twin >= 0) keep[twin] = keep[e];
    }
    for (const index_t m : list) marked[m / 64] = 0;
  });
  return detail::assemble_pruned(cand, std::move(keep), {options.min_neighbors, options.reconnect},
                                 detail::concat("shared_neighbors(ratio=", options.ratio, ", threshold=", threshold,
                                                ") on ", graph.selection().selector));
}

NLDR_PRECOMPILED(NeighborGraph<float> shared_neighbors_rule<float>(
    const CandidateGraph<float>&, const SharedNeighborsOptions&))
NLDR_PRECOMPILED(NeighborGraph<double> shared_neighbors_rule<double>(
    const CandidateGraph<double>&, const SharedNeighborsOptions&))

}  // namespace detail

/// Shared-nearest-neighbor pruning. Candidates: the lists N(i) of `candidates` (kNN(k) by
/// default); k = the longest candidate list (k for kNN). For every candidate entry (i -> j),
/// S(i, j) = |N(i) ∩ N(j)| (neither point counts as its own neighbor), and the pair is kept iff
/// S(i, j) >= ceil(ratio * k). S is symmetric, so a kept pair goes both ways, as Roy 2015 says
/// ("newneighborhood(x_j) should contain x_i; newneighborhood(x_i) should contain x_j").
/// Then the min_neighbors fallback and the reconnection of detail::assemble_pruned.
///
/// Result: a symmetric NeighborGraph (subgraph of the union of the candidate lists); selection()
/// reports candidate entries, pruned entries, fallback points and re-added pairs; use
/// graph_statistics() for the degree histogram and the components.
/// Cost: O(N k^2) bit lookups, k per candidate pair (never all N^2 pairs), plus O(N k) for the
/// lists' twins and the assembly; N / 8 bytes of marks per thread; parallel over points.
///
/// \code
/// nldr::Matrix<double> X = ...;                                       // N x D, one point per row
/// auto graph = nldr::SharedNeighbors{nldr::KNearest{12}}(X);          // threshold ceil(0.4 * 12) = 5
/// auto strict = nldr::SharedNeighbors{nldr::KNearest{12}, {.ratio = 0.6}}(X);
/// graph.selection().pruned_edges;                                     // candidate entries the rule removed
/// \endcode
template <class Candidates = KNearest>
struct SharedNeighbors {
  Candidates candidates{};
  SharedNeighborsOptions options{};

  /// X: N x D points (float or double, finite, N >= 2). Returns the symmetric pruned graph.
  /// \throws nldr::invalid_argument naming "ratio", "min_neighbors", "X" or the candidate's parameters.
  template <class Derived>
  NeighborGraph<typename Derived::Scalar> operator()(const Eigen::MatrixBase<Derived>& X) const {
    using T = typename Derived::Scalar;
    if (!(options.ratio > 0 && options.ratio < 1))
      throw_invalid("ratio", "ratio = ", options.ratio,
                    " must lie in (0, 1): the threshold ceil(ratio * k) must be between 1 and k (Roy 2015 uses 0.4)");
    detail::validate_min_neighbors(options.min_neighbors);
    return detail::shared_neighbors_rule<T>(detail::candidate_graph(candidates, X, options.progress), options);
  }
};

template <class Candidates>
SharedNeighbors(Candidates) -> SharedNeighbors<Candidates>;
template <class Candidates>
SharedNeighbors(Candidates, SharedNeighborsOptions) -> SharedNeighbors<Candidates>;

static_assert(NeighborSelector<SharedNeighbors<>, float> && NeighborSelector<SharedNeighbors<>, double>);

}  // namespace nldr
