// Shortest-path (graph geodesic) distances on a NeighborGraph: Dijkstra (1959) with an indexed 4-ary heap,
// O(E log N) per source. Many sources run in batches of 8 or 16 through one pass of the graph,
// renumbered for locality (detail/batched_dijkstra.hpp), batches in parallel; one source runs
// through DijkstraWorkspace, the plain single-source form (and the tests' reference). Never
// Floyd-Warshall (O(N^3)); Isomap needs all sources, Landmark Isomap only a few.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/progress.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/core/types.hpp>
#include <nldr/neighbors/detail/batched_dijkstra.hpp>
#include <nldr/neighbors/detail/vertex_heap.hpp>
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

/// Scratch space of one Dijkstra run, reused across sources by one thread: tentative distances and
/// the heap of the vertices whose distance is tentative (detail/vertex_heap.hpp).
class DijkstraWorkspace {
 public:
  /// Shortest-path lengths from `source` along the edges of `graph` (list i holds the edges
  /// leaving i), written to `out` (N entries, +infinity where unreachable). Path lengths are summed
  /// in double and rounded to S once.
  template <Real S, Real T>
  void run(const NeighborGraph<T>& graph, index_t source, std::span<S> out) {
    const index_t n = graph.size();
    distance_.assign(std::size_t(n), std::numeric_limits<double>::infinity());
    heap_.reset(n);
    const auto offsets = graph.offsets();
    const auto indices = graph.indices();
    const auto lengths = graph.distances();
    distance_[source] = 0;
    heap_.offer(source, 0);
    while (!heap_.empty()) {
      const index_t i = heap_.pop();
      const double d = distance_[i];
      for (offset_t e = offsets[i]; e < offsets[i + 1]; ++e) {
        const index_t j = indices[e];
        const double candidate = d + double(lengths[e]);
        if (candidate < distance_[j]) {
          distance_[j] = candidate;
          heap_.offer(j, candidate);
        }
      }
    }
    for (index_t j = 0; j < n; ++j) out[j] = S(distance_[j]);
  }

 private:
  std::vector<double> distance_;
  VertexHeap heap_;
};

/// How a many-source result is laid out.
enum class PathsLayout {
  by_source,  ///< |sources| x N: row r from sources[r]
  by_point,   ///< N x |sources|: row j to point j, column r from sources[r]
};

/// The distances from `sources` (local numbers of `graph`, grouped by `batches` of at most `Lanes`)
/// into `result`, laid out as `layout` says.
template <int Lanes, Real S>
void batched_shortest_paths(const LocalGraph& graph, const std::vector<index_t>& sources,
                            const SourceBatches& batches, PathsLayout layout, Matrix<S>& result,
                            const ProgressCallback& progress) {
  const std::int64_t rows = std::int64_t(sources.size());
  const std::int64_t stride = layout == PathsLayout::by_point ? result.cols() : 1;
  // The loop runs over the rows, so that progress comes in steps of about 1% of the sources; the
  // row that starts a batch runs it, the others nothing.
  std::vector<std::int64_t> batch_starting_at(std::size_t(rows), -1);
  for (std::size_t b = 0; b + 1 < batches.begin.size(); ++b) batch_starting_at[batches.begin[b]] = std::int64_t(b);
  std::vector<BatchedDijkstra<Lanes>> workspaces(std::size_t(std::max(1, max_threads())));
  parallel_for_reporting(
      0, rows,
      [&](std::int64_t row) {
        const std::int64_t b = batch_starting_at[std::size_t(row)];
        if (b < 0) return;
        index_t batch[Lanes];
        S* batch_out[Lanes];
        const std::size_t first = batches.begin[std::size_t(b)];
        const int used = int(batches.begin[std::size_t(b) + 1] - first);
        for (int l = 0; l < used; ++l) {
          const std::int64_t r = batches.rows[first + std::size_t(l)];
          batch[l] = sources[std::size_t(r)];
          batch_out[l] = layout == PathsLayout::by_point ? result.data() + r : result.row(r).data();
        }
        const std::size_t count = std::size_t(used);
        workspaces[std::size_t(thread_index())].template run<S>(graph, std::span<const index_t>(batch, count),
                                                                std::span<S* const>(batch_out, count), stride);
      },
      progress, "shortest paths", Lanes);
}

/// shortest_paths() and shortest_paths_by_point(): `sources` checked, then run in batches; under
/// `by_point` reordered first into the order of the batches.
template <Real S, Real T>
Matrix<S> laid_out_shortest_paths(const NeighborGraph<T>& graph, std::vector<index_t>& sources, PathsLayout layout,
                                  std::uint64_t memory_limit, const ProgressCallback& progress) {
  const index_t n = graph.size();
  for (std::size_t r = 0; r < sources.size(); ++r)
    if (sources[r] < 0 || sources[r] >= n)
      throw_invalid("sources", "sources[", r, "] = ", sources[r], " is not a point of the graph: it must lie in [0, ",
                    n, ")");
  const std::int64_t rows = std::int64_t(sources.size());
  check_memory(std::uint64_t(rows) * std::uint64_t(n) * sizeof(S),
               concat("shortest paths (", rows, " x ", n, " matrix)"),
               "use fewer sources (e.g. landmarks) or float storage", memory_limit);
  Matrix<S> result = layout == PathsLayout::by_point ? Matrix<S>(n, rows) : Matrix<S>(rows, n);
  if (rows == 0) return result;
  const LocalGraph local = LocalGraph::of(graph);
  std::vector<index_t> local_sources(sources.size());
  for (std::size_t r = 0; r < sources.size(); ++r) local_sources[r] = local.local[sources[r]];
  // Sixteen lanes when the sources are dense (at least a tenth of the points: Isomap's all, Landmark
  // Isomap's many landmarks on a small set), whose batches' fronts move together; eight when they
  // are spread, where a batch of sixteen spans twice the area and scans each vertex more often
  // (docs/methods/isomap.md, "Shortest paths", has the measurements).
  const int lanes = 10 * rows >= std::int64_t(n) ? 16 : 8;
  SourceBatches batches = batch_sources(local, local_sources, lanes);
  if (layout == PathsLayout::by_point) {
    // A batch's sources in adjacent columns: a point's distances from one batch are one run of memory.
    std::vector<index_t> in_order(sources.size()), local_in_order(sources.size());
    for (std::size_t i = 0; i < sources.size(); ++i) {
      in_order[i] = sources[std::size_t(batches.rows[i])];
      local_in_order[i] = local_sources[std::size_t(batches.rows[i])];
    }
    sources = std::move(in_order);
    local_sources = std::move(local_in_order);
    std::iota(batches.rows.begin(), batches.rows.end(), std::int64_t{0});
  }
  if (lanes == 16)
    batched_shortest_paths<16>(local, local_sources, batches, layout, result, progress);
  else
    batched_shortest_paths<8>(local, local_sources, batches, layout, result, progress);
  return result;
}

}  // namespace detail

/// Shortest-path distances from each of `sources` to every point: a |sources| x N matrix whose row
/// r holds the distances from sources[r] (+infinity where unreachable). Edges are followed as the
/// lists hold them (symmetrize a directed graph first for undirected geodesics). S is the storage
/// type of the result (float halves the memory; sums are formed in double). The sources run in
/// batches of 16 (when they are at least a tenth of the points) or 8 sources that lie near each
/// other (detail/batched_dijkstra.hpp), batches in parallel; each distance is the one Dijkstra from
/// that source alone gives, bit for bit, whatever the thread count.
/// Cost: O(|sources| E log N) time at worst (each vertex is scanned at most once per source of a
/// batch; about once or twice per batch when the sources are neighbors), |sources| N sizeof(S)
/// bytes for the result, checked before allocation against `memory_limit` bytes (0: the memory
/// available now), plus 16 N doubles per thread and the renumbered graph.
/// `progress` (optional, core/progress.hpp) hears the fraction of sources done after each block of
/// about 1% of them, from the calling thread.
/// \throws nldr::invalid_argument ("sources": index out of range), nldr::memory_limit_exceeded,
/// nldr::cancelled when `progress` returns false.
///
/// \code
/// auto graph = nldr::KNearest{12}(X).symmetrized();
/// std::vector<nldr::index_t> sources{0, 5};
/// nldr::Matrix<float> g = nldr::shortest_paths<float>(graph, sources);   // 2 x N
/// \endcode
template <Real S = double, Real T>
Matrix<S> shortest_paths(const NeighborGraph<T>& graph, std::span<const index_t> sources,
                         std::uint64_t memory_limit = 0, const ProgressCallback& progress = {}) {
  std::vector<index_t> copy(sources.begin(), sources.end());
  return detail::laid_out_shortest_paths<S>(graph, copy, detail::PathsLayout::by_source, memory_limit, progress);
}

/// The same distances point by point: an N x |sources| matrix whose row j holds point j's distances
/// to the sources (Landmark Isomap's layout, which its triangulation and transform read). `sources`
/// is first reordered in place, into the order in which the batches run, so that each batch's
/// distances fill adjacent columns: column r then holds the distances from the reordered
/// sources[r]. Written in the batches' order, a point's distances from one batch are one run of
/// memory; columns in the callers' order would scatter each point's over up to 16 cache lines.
/// Cost, errors and `progress` as shortest_paths().
///
/// \code
/// std::vector<nldr::index_t> landmarks{7, 0, 42};
/// nldr::Matrix<double> g = nldr::shortest_paths_by_point(graph, landmarks);  // N x 3
/// // g(j, r): from landmarks[r] (the reordered vector) to point j
/// \endcode
template <Real S = double, Real T>
Matrix<S> shortest_paths_by_point(const NeighborGraph<T>& graph, std::vector<index_t>& sources,
                                  std::uint64_t memory_limit = 0, const ProgressCallback& progress = {}) {
  return detail::laid_out_shortest_paths<S>(graph, sources, detail::PathsLayout::by_point, memory_limit, progress);
}

/// All-pairs shortest-path distances (N x N, row i from point i); see shortest_paths().
template <Real S = double, Real T>
Matrix<S> all_pairs_shortest_paths(const NeighborGraph<T>& graph, std::uint64_t memory_limit = 0,
                                   const ProgressCallback& progress = {}) {
  std::vector<index_t> sources(std::size_t(graph.size()));
  std::iota(sources.begin(), sources.end(), index_t{0});
  return shortest_paths<S>(graph, std::span<const index_t>(sources), memory_limit, progress);
}

}  // namespace nldr
