// The priority queue of nldr's Dijkstra runs (neighbors/shortest_paths.hpp, detail/batched_dijkstra.hpp):
// an indexed 4-ary min-heap of vertices with keys. Indexed, so that decrease-key keeps each vertex in
// the heap at most once (a lazy-deletion heap holds up to one entry per edge); four children per node
// halve the depth: 1.33-1.36x faster than std::push_heap with lazy deletion on Swiss-roll kNN graphs
// (bench_global_embedders isomap, N = 5000 and 10000, one thread). Each entry carries its key, so that
// sifting compares within the heap's own memory. A radix heap measured no faster
// (docs/methods/landmark-isomap.md).
#pragma once

#include <nldr/core/types.hpp>

#include <algorithm>
#include <cstddef>
#include <vector>

namespace nldr::detail {

/// A vertex with a key: a heap entry, or a vertex a scan improved with its least improved distance.
struct KeyedVertex {
  double key;
  index_t vertex;
};

/// Min-heap of vertices 0 .. n - 1 by key, the smaller vertex first on equal keys (deterministic).
class VertexHeap {
 public:
  /// Empties the heap for vertices 0 .. n - 1.
  void reset(index_t n) {
    position_.assign(std::size_t(n), not_queued);
    heap_.clear();
  }
  bool empty() const { return heap_.empty(); }

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

  /// Removes and returns the vertex of least key.
  index_t pop() {
    const index_t top = heap_.front().vertex;
    position_[top] = not_queued;
    const KeyedVertex last = heap_.back();
    heap_.pop_back();
    if (heap_.empty()) return top;
    std::size_t slot = 0;
    for (;;) {  // sift `last` down from the root
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

 private:
  static constexpr index_t not_queued = -1;
  static constexpr std::size_t arity = 4;

  static bool before(const KeyedVertex& a, const KeyedVertex& b) {
    return a.key < b.key || (a.key == b.key && a.vertex < b.vertex);
  }
  void place(std::size_t slot, const KeyedVertex& entry) {
    heap_[slot] = entry;
    position_[entry.vertex] = index_t(slot);
  }
  void sift_up(std::size_t slot) {
    const KeyedVertex entry = heap_[slot];
    while (slot > 0) {
      const std::size_t parent = (slot - 1) / arity;
      if (!before(entry, heap_[parent])) break;
      place(slot, heap_[parent]);
      slot = parent;
    }
    place(slot, entry);
  }

  std::vector<KeyedVertex> heap_;
  std::vector<index_t> position_;  ///< a vertex's slot in heap_, or not_queued
};

}  // namespace nldr::detail
