// Dijkstra (1959) from several sources in one pass over the graph (docs/methods/isomap.md,
// "Shortest paths"). Two things make the many-source runs of Isomap and Landmark Isomap
// cache-friendly:
//   - LocalGraph renumbers the vertices in breadth-first order, so that a vertex's neighbors lie
//     near it in memory (the points of a kNN graph come in random order: without it, almost every
//     relaxation misses the cache once N no longer fits);
//   - BatchedDijkstra runs `lanes` sources at once: each vertex holds its `lanes` tentative
//     distances side by side (one 64-byte line for 8 doubles), and one heap orders the vertices by
//     the smallest distance among the lanes that changed since the vertex was last scanned.
//     batch_sources() groups the sources that lie near each other (by hops), so that a batch's
//     search fronts move together and one scan of a vertex and its edges serves several sources.
// A scan finalizes at least the lane that gave the vertex its key (Dijkstra's argument, lane by
// lane), so a vertex is scanned at most `lanes` times; other changed lanes it passes on may improve
// again later and are passed on again (label correcting). Every lane ends at the fixed point
// d(j) = min over edges (i, j) of fl(d(i) + w(i, j)), d(source) = 0, which is unique for positive
// lengths because rounding is monotone: the same bits the single-source DijkstraWorkspace gives.
#pragma once

#include <nldr/core/types.hpp>
#include <nldr/neighbors/detail/locality_order.hpp>
#include <nldr/neighbors/graph.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
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

/// Scratch space of batched runs, reused across batches by one thread.
class BatchedDijkstra {
 public:
  static constexpr int lanes = 8;

  /// Shortest-path lengths from sources[l] (local numbers, 1 <= sources.size() <= lanes) along
  /// `graph`; out[l] receives those from sources[l] in the graph's original numbering (N entries
  /// each, +infinity where unreachable), sums in double rounded to S once.
  template <Real S>
  void run(const LocalGraph& graph, std::span<const index_t> sources, std::span<S* const> out) {
    const index_t n = graph.size();
    const int used = int(sources.size());
    distance_.assign(std::size_t(n) * lanes, std::numeric_limits<double>::infinity());
    changed_.assign(std::size_t(n), 0);
    position_.assign(std::size_t(n), not_queued);
    heap_.clear();
    for (int l = 0; l < used; ++l) {
      const index_t s = sources[l];
      distance_[std::size_t(s) * lanes + l] = 0;
      changed_[s] |= std::uint8_t(1u << l);
      offer(s, 0);
    }
    const offset_t* offsets = graph.offsets.data();
    const index_t* indices = graph.indices.data();
    const double* lengths = graph.lengths.data();
    while (!heap_.empty()) {
      const index_t i = pop();
      const unsigned scan = changed_[i];
      changed_[i] = 0;
      const double* from = &distance_[std::size_t(i) * lanes];
      for (offset_t e = offsets[i]; e < offsets[i + 1]; ++e) {
        const index_t j = indices[e];
        const double length = lengths[e];
        double* to = &distance_[std::size_t(j) * lanes];
        unsigned improved = 0;
        double key = std::numeric_limits<double>::infinity();
        for (int l = 0; l < lanes; ++l) {
          const double candidate = from[l] + length;
          if ((scan >> l & 1u) && candidate < to[l]) {
            to[l] = candidate;
            improved |= 1u << l;
            key = std::min(key, candidate);
          }
        }
        if (improved == 0) continue;
        changed_[j] |= std::uint8_t(improved);
        offer(j, key);
      }
    }
    // In the original order: the rows are written in sequence, the lanes read at random.
    for (index_t j = 0; j < n; ++j) {
      const double* d = &distance_[std::size_t(graph.local[j]) * lanes];
      for (int l = 0; l < used; ++l) out[l][j] = S(d[l]);
    }
  }

 private:
  static constexpr index_t not_queued = -1;
  static constexpr std::size_t arity = 4;
  /// A heap entry: the vertex's key (its smallest changed distance) kept beside it, so that sifting
  /// compares within the heap's own memory.
  struct Entry {
    double key;
    index_t vertex;
  };
  /// Smaller key first, the smaller vertex on ties (deterministic).
  static bool before(const Entry& a, const Entry& b) {
    return a.key < b.key || (a.key == b.key && a.vertex < b.vertex);
  }

  /// Queues `vertex` with `key`, or lowers its key if it is queued with a larger one.
  void offer(index_t vertex, double key) {
    if (position_[vertex] == not_queued) {
      heap_.push_back({key, vertex});
      sift_up(heap_.size() - 1);
    } else if (key < heap_[std::size_t(position_[vertex])].key) {
      heap_[std::size_t(position_[vertex])].key = key;
      sift_up(std::size_t(position_[vertex]));
    }
  }
  void place(std::size_t slot, const Entry& entry) {
    heap_[slot] = entry;
    position_[entry.vertex] = index_t(slot);
  }
  void sift_up(std::size_t slot) {
    const Entry entry = heap_[slot];
    while (slot > 0) {
      const std::size_t parent = (slot - 1) / arity;
      if (!before(entry, heap_[parent])) break;
      place(slot, heap_[parent]);
      slot = parent;
    }
    place(slot, entry);
  }
  index_t pop() {
    const index_t top = heap_.front().vertex;
    position_[top] = not_queued;
    const Entry last = heap_.back();
    heap_.pop_back();
    if (heap_.empty()) return top;
    std::size_t slot = 0;
    for (;;) {
      const std::size_t first = arity * slot + 1;
      if (first >= heap_.size()) break;
      std::size_t best = first;
      for (std::size_t c = first + 1; c < std::min(first + arity, heap_.size()); ++c)
        if (before(heap_[c], heap_[best])) best = c;
      if (!before(heap_[best], last)) break;
      place(slot, heap_[best]);
      slot = best;
    }
    place(slot, last);
    return top;
  }

  std::vector<double> distance_;      ///< N x lanes, vertex-major
  std::vector<std::uint8_t> changed_;  ///< lanes changed since the vertex was last scanned
  std::vector<Entry> heap_;
  std::vector<index_t> position_;
};

static_assert(BatchedDijkstra::lanes <= 8, "changed_ holds one bit per lane in a byte");

}  // namespace nldr::detail
