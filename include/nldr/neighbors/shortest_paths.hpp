// Shortest-path (graph geodesic) distances on a NeighborGraph: Dijkstra (1959) with a binary heap
// from each source, O(E log N) per source, sources in parallel on the CSR arrays. Never
// Floyd-Warshall (O(N^3)); Isomap needs all sources, Landmark Isomap only a few.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/core/types.hpp>
#include <nldr/neighbors/graph.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <numeric>
#include <span>
#include <utility>
#include <vector>

namespace nldr {

namespace detail {

/// Scratch space of one Dijkstra run, reused across sources by one thread.
struct DijkstraWorkspace {
  std::vector<double> distance;
  std::vector<std::pair<double, index_t>> heap;
};

/// Shortest-path lengths from `source` along the edges of `graph` (list i holds the edges
/// leaving i), written to `out` (N entries, +infinity where unreachable). Path lengths are summed
/// in double and rounded to S once.
template <Real S, Real T>
void dijkstra(const NeighborGraph<T>& graph, index_t source, std::span<S> out, DijkstraWorkspace& work) {
  const index_t n = graph.size();
  constexpr double infinity = std::numeric_limits<double>::infinity();
  work.distance.assign(std::size_t(n), infinity);
  work.heap.clear();
  const auto offsets = graph.offsets();
  const auto indices = graph.indices();
  const auto lengths = graph.distances();
  const std::greater<> later;  // min-heap on (distance, index)
  work.distance[source] = 0;
  work.heap.emplace_back(0.0, source);
  while (!work.heap.empty()) {
    std::pop_heap(work.heap.begin(), work.heap.end(), later);
    const auto [d, i] = work.heap.back();
    work.heap.pop_back();
    if (d > work.distance[i]) continue;  // stale entry (lazy deletion)
    for (offset_t e = offsets[i]; e < offsets[i + 1]; ++e) {
      const index_t j = indices[e];
      const double candidate = d + double(lengths[e]);
      if (candidate < work.distance[j]) {
        work.distance[j] = candidate;
        work.heap.emplace_back(candidate, j);
        std::push_heap(work.heap.begin(), work.heap.end(), later);
      }
    }
  }
  for (index_t j = 0; j < n; ++j) out[j] = S(work.distance[j]);
}

}  // namespace detail

/// Shortest-path distances from each of `sources` to every point: a |sources| x N matrix whose row
/// r holds the distances from sources[r] (+infinity where unreachable). Edges are followed as the
/// lists hold them (symmetrize a directed graph first for undirected geodesics). S is the storage
/// type of the result (float halves the memory; sums are formed in double). Sources run in
/// parallel; the result does not depend on the thread count.
/// Cost: O(|sources| E log N) time, |sources| N sizeof(S) bytes, checked before allocation
/// against `memory_limit` bytes (0: the memory available now).
/// \throws nldr::invalid_argument ("sources": index out of range), nldr::memory_limit_exceeded.
///
/// \code
/// auto graph = nldr::KNearest{12}(X).symmetrized();
/// std::vector<nldr::index_t> sources{0, 5};
/// nldr::Matrix<float> g = nldr::shortest_paths<float>(graph, sources);   // 2 x N
/// \endcode
template <Real S = double, Real T>
Matrix<S> shortest_paths(const NeighborGraph<T>& graph, std::span<const index_t> sources,
                         std::uint64_t memory_limit = 0) {
  const index_t n = graph.size();
  for (std::size_t r = 0; r < sources.size(); ++r)
    if (sources[r] < 0 || sources[r] >= n)
      throw_invalid("sources", "sources[", r, "] = ", sources[r], " is not a point of the graph: it must lie in [0, ",
                    n, ")");
  const std::int64_t rows = std::int64_t(sources.size());
  check_memory(std::uint64_t(rows) * std::uint64_t(n) * sizeof(S),
               detail::concat("shortest paths (", rows, " x ", n, " matrix)"),
               "use fewer sources (e.g. landmarks) or float storage", memory_limit);
  Matrix<S> result(rows, n);
  std::vector<detail::DijkstraWorkspace> workspaces(std::size_t(std::max(1, max_threads())));
  parallel_for(
      0, rows,
      [&](std::int64_t r) {
        detail::dijkstra(graph, sources[r], std::span<S>(result.row(r).data(), std::size_t(n)),
                         workspaces[std::size_t(thread_index())]);
      },
      4);
  return result;
}

/// All-pairs shortest-path distances (N x N, row i from point i); see shortest_paths().
template <Real S = double, Real T>
Matrix<S> all_pairs_shortest_paths(const NeighborGraph<T>& graph, std::uint64_t memory_limit = 0) {
  std::vector<index_t> sources(std::size_t(graph.size()));
  std::iota(sources.begin(), sources.end(), index_t{0});
  return shortest_paths<S>(graph, std::span<const index_t>(sources), memory_limit);
}

}  // namespace nldr
