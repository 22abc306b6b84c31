// Assembly of the sparse alignment matrices of LLE (all variants) and LTSA: each is a sum of
// small dense symmetric blocks, one per point, on that point's index set,
//   M = sum_i S_i B_i S_i^T        (S_i selects the rows in the index set of point i),
// e.g. B_i = (e_1 - [0; w_i])(e_1 - [0; w_i])^T on {i} u N(i) gives LLE's M = (I - W)^T (I - W).
// Blocks are computed in parallel (each writes only its own slot), then summed serially in point
// order, so M is identical for any thread count.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/progress.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/core/types.hpp>
#include <nldr/embed/detail/sparse_eigen.hpp>
#include <nldr/neighbors/graph.hpp>

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace nldr::detail {

/// Per point, the ordered index set its block acts on (CSR): set i is indices[offsets[i] .. offsets[i+1]).
struct IndexSets {
  std::vector<offset_t> offsets{0};
  std::vector<index_t> indices;
  index_t size() const { return index_t(offsets.size() - 1); }
  std::span<const index_t> set(index_t i) const {
    return {indices.data() + offsets[i], std::size_t(offsets[i + 1] - offsets[i])};
  }
};

/// Requires point i, with `degree` neighbors, to have at least `min_degree` (`why` explains the bound).
inline void require_degree(index_t i, index_t degree, index_t min_degree, const std::string& method,
                           const std::string& why) {
  if (degree < min_degree)
    throw_invalid("graph", method, ": point ", i, " has ", degree, " neighbor(s) but needs at least ", min_degree,
                  " (", why, "): increase k, or set the selector's min_neighbors to ", min_degree);
}

/// Requires every point of `graph` to have at least `min_degree` neighbors (`why` explains the bound).
template <Real T>
void require_min_degree(const NeighborGraph<T>& graph, index_t min_degree, const std::string& method,
                        const std::string& why) {
  for (index_t i = 0; i < graph.size(); ++i) require_degree(i, graph.degree(i), min_degree, method, why);
}

/// Index sets [i, neighbors(i)...] (with_self) or [neighbors(i)...] from a neighbor graph.
template <Real T>
IndexSets index_sets(const NeighborGraph<T>& graph, bool with_self) {
  IndexSets sets;
  const index_t n = graph.size();
  sets.offsets.resize(std::size_t(n) + 1);
  sets.offsets[0] = 0;
  for (index_t i = 0; i < n; ++i) sets.offsets[i + 1] = sets.offsets[i] + graph.degree(i) + (with_self ? 1 : 0);
  sets.indices.resize(std::size_t(sets.offsets.back()));
  parallel_for(0, n, [&](std::int64_t i) {
    offset_t e = sets.offsets[i];
    if (with_self) sets.indices[e++] = index_t(i);
    for (index_t j : graph.neighbors(index_t(i))) sets.indices[e++] = j;
  });
  return sets;
}

/// Lower triangle of M = sum_i S_i B_i S_i^T. `local(i, block)` fills the m_i x m_i block B_i of point i
/// (m_i = size of set i; block arrives zeroed); it runs in parallel and may write per-point side outputs.
/// Stages timed into `times`: "weights" (the parallel local blocks) and "assembly" (the sparse sum).
/// `progress` (optional) hears the fraction of the local blocks done, by blocks of ~1% of the points.
template <class Local>
SparseLower assemble_blocks(const IndexSets& sets, Local&& local, StageTimes& times,
                            const ProgressCallback& progress = {}) {
  Stopwatch clock;
  const index_t n = sets.size();
  std::vector<offset_t> block_offsets(std::size_t(n) + 1, 0);
  for (index_t i = 0; i < n; ++i) {
    const offset_t m = sets.offsets[i + 1] - sets.offsets[i];
    block_offsets[i + 1] = block_offsets[i] + m * m;
  }
  std::vector<double> values(std::size_t(block_offsets.back()), 0.0);
  parallel_for_reporting(
      0, n,
      [&](std::int64_t i) {
        const Eigen::Index m = sets.offsets[i + 1] - sets.offsets[i];
        Eigen::Map<Eigen::MatrixXd> block(values.data() + block_offsets[i], m, m);
        local(index_t(i), block);
      },
      progress, "the local blocks");

  times.add("weights", clock.seconds());
  clock.restart();

  std::vector<Eigen::Triplet<double, int>> triplets;
  offset_t lower_entries = 0;
  for (index_t i = 0; i < n; ++i) {
    const offset_t m = sets.offsets[i + 1] - sets.offsets[i];
    lower_entries += m * (m + 1) / 2;
  }
  triplets.reserve(std::size_t(lower_entries));
  for (index_t i = 0; i < n; ++i) {
    const auto set = sets.set(i);
    const Eigen::Index m = Eigen::Index(set.size());
    const double* block = values.data() + block_offsets[i];  // column-major m x m
    for (Eigen::Index c = 0; c < m; ++c)
      for (Eigen::Index r = 0; r < m; ++r)
        if (set[r] >= set[c] && block[c * m + r] != 0.0) triplets.emplace_back(set[r], set[c], block[c * m + r]);
  }
  values = {};
  SparseLower lower(n, n);
  lower.setFromTriplets(triplets.begin(), triplets.end());  // sums duplicates
  times.add("assembly", clock.seconds());
  return lower;
}

}  // namespace nldr::detail
