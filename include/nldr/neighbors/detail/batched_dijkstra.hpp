// Dijkstra (1959) from several sources in one pass over the graph (docs/methods/isomap.md,
// "Shortest paths"). Two things make the many-source runs of Isomap and Landmark Isomap
// cache-friendly:
//   - LocalGraph renumbers the vertices in breadth-first order, so that a vertex's neighbors lie
//     near it in memory (the points of a kNN graph come in random order: without it, almost every
//     relaxation misses the cache once N no longer fits);
//   - BatchedDijkstra runs 8 or 16 sources ("lanes") at once: each vertex holds its tentative
//     distances side by side (8 doubles to a 64-byte line, the storage aligned to lines: unaligned,
//     a vertex straddled one line more), and one heap orders the vertices by the smallest
//     distance among the lanes that changed since the vertex was last scanned.
//     batch_sources() groups the sources that lie near each other (by hops), so that a batch's
//     search fronts move together and one scan of a vertex and its edges serves several sources.
//     Where the CPU has AVX-512, one instruction relaxes eight lanes along an edge (relax_lanes).
// A scan finalizes at least the lane that gave the vertex its key (Dijkstra's argument, lane by
// lane), so a vertex is scanned at most `lanes` times; other changed lanes it passes on may improve
// again later and are passed on again (label correcting). Every lane ends at the fixed point
// d(j) = min over edges (i, j) of fl(d(i) + w(i, j)), d(source) = 0, which is unique for positive
// lengths because rounding is monotone: the same bits the single-source DijkstraWorkspace gives.
#pragma once

#include <nldr/core/cpu.hpp>
#include <nldr/core/types.hpp>
#include <nldr/neighbors/detail/locality_order.hpp>
#include <nldr/neighbors/detail/vertex_heap.hpp>
#include <nldr/neighbors/graph.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <new>
#include <span>
#include <vector>

namespace nldr::detail {

/// A NeighborGraph renumbered in breadth-first order (each component from its smallest vertex,
/// neighbors in list order), with the edge lengths widened to double once.
struct LocalGraph {
  std::vector<offset_t> offsets;
  std::vector<index_t> indices;
  std::vector<double> lengths;
  std::vector<index_t> original;  ///< new number -> vertex of the graph
  std::vector<index_t> local;     ///< vertex of the graph -> new number
  offset_t widest = 0;            ///< the most edges leaving one vertex

  template <Real T>
  static LocalGraph of(const NeighborGraph<T>& graph) {
    const index_t n = graph.size();
    const auto offsets = graph.offsets();
    const auto indices = graph.indices();
    const auto lengths = graph.distances();
    LocalGraph g;
    g.original = locality_order(graph);
    g.local.resize(std::size_t(n));
    for (index_t v = 0; v < n; ++v) g.local[g.original[v]] = v;
    g.offsets.resize(std::size_t(n) + 1);
    g.indices.resize(indices.size());
    g.lengths.resize(indices.size());
    g.offsets[0] = 0;
    for (index_t v = 0; v < n; ++v) {
      const index_t i = g.original[v];
      offset_t at = g.offsets[v];
      for (offset_t e = offsets[i]; e < offsets[i + 1]; ++e, ++at) {
        g.indices[at] = g.local[indices[e]];
        g.lengths[at] = double(lengths[e]);
      }
      g.offsets[v + 1] = at;
      g.widest = std::max(g.widest, at - g.offsets[v]);
    }
    return g;
  }
  index_t size() const { return index_t(original.size()); }
};

/// Batches of at most `lanes` rows of `sources` (local numbers): batch b is rows[begin[b] ..
/// begin[b + 1]).
struct SourceBatches {
  std::vector<std::int64_t> rows;
  std::vector<std::size_t> begin{0};
};

/// The sources in batches: each batch starts at the unbatched source of smallest number and takes
/// the unbatched sources a breadth-first search from it meets first (a batch is short only when
/// its component has no more). Cost O(N + E) per batch at worst (a search that finds fewer than
/// `lanes`), about lanes N / |sources| vertices per batch when the sources are spread evenly.
inline SourceBatches batch_sources(const LocalGraph& graph, std::span<const index_t> sources, int lanes) {
  const index_t n = graph.size();
  const std::int64_t rows = std::int64_t(sources.size());
  // The rows of each vertex's source, rows_at[first[v] .. first[v + 1]).
  std::vector<std::int64_t> first(std::size_t(n) + 1, 0);
  std::vector<std::int64_t> rows_at(std::size_t(rows), 0);
  for (const index_t s : sources) ++first[std::size_t(s) + 1];
  for (index_t v = 0; v < n; ++v) first[v + 1] += first[v];
  {
    std::vector<std::int64_t> next(first.begin(), first.end() - 1);
    for (std::int64_t r = 0; r < rows; ++r) rows_at[std::size_t(next[sources[r]]++)] = r;
  }
  SourceBatches batches;
  std::vector<std::int64_t>& order = batches.rows;
  order.reserve(std::size_t(rows));
  std::vector<std::int64_t> taken(std::size_t(n), 0);   // rows of the vertex already batched
  std::vector<std::int64_t> seen(std::size_t(n), -1);   // the batch whose search met the vertex
  std::vector<index_t> queue;
  for (index_t start = 0; start < n; ++start) {
    while (taken[start] < first[start + 1] - first[start]) {  // a batch from `start`
      const auto batch = std::int64_t(batches.begin.size());
      std::int64_t room = lanes;
      queue.assign(1, start);
      seen[start] = batch;
      for (std::size_t next = 0; next < queue.size() && room > 0; ++next) {
        const index_t v = queue[next];
        for (; taken[v] < first[v + 1] - first[v] && room > 0; ++taken[v], --room)
          order.push_back(rows_at[std::size_t(first[v] + taken[v])]);
        for (offset_t e = graph.offsets[v]; e < graph.offsets[v + 1]; ++e)
          if (seen[graph.indices[e]] != batch) {
            seen[graph.indices[e]] = batch;
            queue.push_back(graph.indices[e]);
          }
      }
      batches.begin.push_back(order.size());
    }
  }
  return batches;
}

/// One scan's relaxations: the lanes `scan` of a vertex at distances `from` (Lanes of them) along
/// its `edges` edges (heads `indices`, lengths `lengths`). Lowers distance[Lanes j + l] to
/// from[l] + length where that is smaller, marks the lanes lowered in changed[j], and lists each
/// head with a lowered lane and its least lowered distance in `improved` (room for `edges`
/// entries); returns how many it listed.
template <int Lanes>
[[gnu::always_inline]] inline std::size_t relax_lanes_loop(const double* from, unsigned scan, const index_t* indices,
                                                           const double* lengths, offset_t edges, double* distance,
                                                           std::uint16_t* changed, KeyedVertex* improved) {
  std::size_t listed = 0;
  for (offset_t e = 0; e < edges; ++e) {
    const index_t j = indices[e];
    double* to = distance + std::size_t(j) * Lanes;
    unsigned lowered = 0;
    double key = std::numeric_limits<double>::infinity();
    for (int l = 0; l < Lanes; ++l) {
      const double candidate = from[l] + lengths[e];
      if ((scan >> l & 1u) && candidate < to[l]) {
        to[l] = candidate;
        lowered |= 1u << l;
        key = std::min(key, candidate);
      }
    }
    if (lowered == 0) continue;
    changed[j] |= std::uint16_t(lowered);
    improved[listed++] = {key, j};
  }
  return listed;
}

#if defined(NLDR_X86_KERNELS)
/// The same with eight lanes per AVX-512 register (`from` and `distance` 64-byte aligned): the same
/// sums and comparisons, so the same distances, lanes and keys bit for bit. A baseline build does
/// them one lane at a time, with a branch per lane that the comparisons make unpredictable; here
/// nothing branches on them (every head is written to the list, and kept only when a lane was
/// lowered).
template <int Lanes>
__attribute__((target("avx512f"))) std::size_t relax_lanes_avx512(const double* from, unsigned scan,
                                                                  const index_t* indices, const double* lengths,
                                                                  offset_t edges, double* distance,
                                                                  std::uint16_t* changed, KeyedVertex* improved) {
  constexpr int registers = Lanes / 8;
  __m512d source[registers];
  __mmask8 live[registers];
  for (int r = 0; r < registers; ++r) {
    source[r] = _mm512_load_pd(from + 8 * r);
    live[r] = __mmask8(scan >> (8 * r));
  }
  const __m512d unreached = _mm512_set1_pd(std::numeric_limits<double>::infinity());
  std::size_t listed = 0;
  for (offset_t e = 0; e < edges; ++e) {
    const index_t j = indices[e];
    double* to = distance + std::size_t(j) * Lanes;
    const __m512d length = _mm512_set1_pd(lengths[e]);
    unsigned lowered = 0;
    __m512d least = unreached;  // the least lowered distance; lanes not lowered count as unreached
    for (int r = 0; r < registers; ++r) {
      const __m512d candidate = _mm512_add_pd(source[r], length);
      const __mmask8 below = _mm512_mask_cmp_pd_mask(live[r], candidate, _mm512_load_pd(to + 8 * r), _CMP_LT_OQ);
      _mm512_mask_store_pd(to + 8 * r, below, candidate);
      lowered |= unsigned(below) << (8 * r);
      least = _mm512_mask_min_pd(least, below, least, candidate);
    }
    changed[j] |= std::uint16_t(lowered);
    improved[listed] = {_mm512_reduce_min_pd(least), j};
    listed += lowered != 0;
  }
  return listed;
}
#endif

template <int Lanes>
inline std::size_t relax_lanes(const double* from, unsigned scan, const index_t* indices, const double* lengths,
                               offset_t edges, double* distance, std::uint16_t* changed, KeyedVertex* improved) {
#if defined(NLDR_X86_KERNELS)
  if (has_avx512())
    return relax_lanes_avx512<Lanes>(from, scan, indices, lengths, edges, distance, changed, improved);
#endif
  return relax_lanes_loop<Lanes>(from, scan, indices, lengths, edges, distance, changed, improved);
}

/// Scratch space of batched runs of `Lanes` sources (8 or 16), reused across batches by one thread.
template <int Lanes>
class BatchedDijkstra {
 public:
  static_assert(Lanes == 8 || Lanes == 16, "a vertex's lanes fill whole 64-byte lines, and changed_ has 16 bits");
  static constexpr int lanes = Lanes;

  /// Shortest-path lengths from sources[l] (local numbers, 1 <= sources.size() <= lanes) along
  /// `graph`; out[l][j * stride] receives the one from sources[l] to vertex j of the graph's original
  /// numbering (+infinity where unreachable), sums in double rounded to S once.
  template <Real S>
  void run(const LocalGraph& graph, std::span<const index_t> sources, std::span<S* const> out, std::int64_t stride) {
    const index_t n = graph.size();
    const int used = int(sources.size());
    // Each vertex's lanes on whole 64-byte lines (a large std::vector's storage starts 16 bytes
    // past a page boundary, which splits every vertex over one line more).
    if (capacity_ < n) {
      distance_.reset(new (std::align_val_t(64)) double[std::size_t(n) * lanes]);
      capacity_ = n;
    }
    double* distance = distance_.get();
    std::fill(distance, distance + std::size_t(n) * lanes, std::numeric_limits<double>::infinity());
    changed_.assign(std::size_t(n), 0);
    heap_.reset(n);
    for (int l = 0; l < used; ++l) {
      const index_t s = sources[l];
      distance[std::size_t(s) * lanes + l] = 0;
      changed_[s] |= std::uint16_t(1u << l);
      heap_.offer(s, 0);
    }
    const offset_t* offsets = graph.offsets.data();
    improved_.resize(std::size_t(graph.widest));
    while (!heap_.empty()) {
      const index_t i = heap_.pop();
      const unsigned scan = changed_[i];
      changed_[i] = 0;
      const std::size_t listed =
          relax_lanes<Lanes>(distance + std::size_t(i) * lanes, scan, graph.indices.data() + offsets[i],
                             graph.lengths.data() + offsets[i], offsets[i + 1] - offsets[i], distance,
                             changed_.data(), improved_.data());
      for (std::size_t m = 0; m < listed; ++m) heap_.offer(improved_[m].vertex, improved_[m].key);
    }
    // In the original order: the output is written in sequence, the lanes read at random.
    for (index_t j = 0; j < n; ++j) {
      const double* d = distance + std::size_t(graph.local[j]) * lanes;
      for (int l = 0; l < used; ++l) out[l][j * stride] = S(d[l]);
    }
  }

 private:
  struct AlignedDelete {
    void operator()(double* p) const { ::operator delete[](p, std::align_val_t(64)); }
  };
  std::unique_ptr<double[], AlignedDelete> distance_;  ///< N x lanes, vertex-major, 64-byte aligned
  index_t capacity_ = 0;                               ///< vertices distance_ has room for
  std::vector<KeyedVertex> improved_;                  ///< one scan's improved vertices
  std::vector<std::uint16_t> changed_;  ///< lanes changed since the vertex was last scanned
  VertexHeap heap_;  ///< queued vertices, each keyed by its smallest changed distance
};

}  // namespace nldr::detail
