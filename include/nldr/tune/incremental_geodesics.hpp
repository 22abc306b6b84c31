// Updating all-pairs geodesics when edges are added to the graph, instead of recomputing them: the idea of
// p-ISOMAP (a sweep over growing k only adds edges, so geodesics only shrink). docs/tuning.md, "Incremental
// geodesics", has the measured saving (benchmarks/incremental_geodesics.cpp).
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/types.hpp>
#include <nldr/neighbors/graph.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

namespace nldr {

/// What extend_geodesics() changed.
struct GeodesicUpdate {
  offset_t added_edges = 0;           ///< directed entries of `after` missing from `before`
  std::uint64_t shortened_pairs = 0;  ///< matrix entries that decreased
};

/// Turns `geodesics` (N x N, row s = shortest-path lengths from s in `before`, +infinity where unreachable)
/// into those of `after`, where `after` holds every entry of `before` with the same length plus new ones
/// (as the symmetrized kNN graph for k + 1 holds that for k). Adding edges only shortens paths, and a path
/// that got shorter uses a new edge: so, per source s, the new edges (u, v) with g(s, u) + w < g(s, v) seed
/// a Dijkstra that relaxes only from the vertices whose distance decreased (the dynamic shortest-path update
/// of Ramalingam & Reps 1996 for insertions). Exact: equal to recomputing with Dijkstra up to the order in
/// which path lengths are summed (in double, stored as S). Sources run in parallel; thread-count independent.
/// Cost per source: O(new edges) plus a Dijkstra over the shortened region only; no gain when most
/// distances change (measured in benchmarks/incremental_geodesics.cpp).
/// \throws nldr::invalid_argument naming "geodesics" (not N x N) or "after" (an entry of `before` missing
/// from it, or with another length).
template <Real S, Real T>
GeodesicUpdate extend_geodesics(Matrix<S>& geodesics, const NeighborGraph<T>& before, const NeighborGraph<T>& after) {
  const index_t n = after.size();
  if (before.size() != n || geodesics.rows() != n || geodesics.cols() != n)
    throw_invalid("geodesics", "geodesics is ", geodesics.rows(), " x ", geodesics.cols(), ", `before` has ",
                  before.size(), " points and `after` ", n, ": all must describe the same N points");
  // The new entries, as (u, v, w): after's lists minus before's, matched by neighbor index.
  std::vector<index_t> from, to;
  std::vector<double> length;
  for (index_t u = 0; u < n; ++u) {
    const auto old_list = before.neighbors(u), new_list = after.neighbors(u);
    for (std::size_t e = 0; e < old_list.size(); ++e) {
      const auto found = std::find(new_list.begin(), new_list.end(), old_list[e]);
      if (found == new_list.end() || after.distances(u)[std::size_t(found - new_list.begin())] != before.distances(u)[e])
        throw_invalid("after", "edge ", u, " -> ", old_list[e], " of `before` is missing from `after` or has another ",
                      "length: extend_geodesics handles added edges only; recompute the geodesics instead");
    }
    for (std::size_t e = 0; e < new_list.size(); ++e)
      if (std::find(old_list.begin(), old_list.end(), new_list[e]) == old_list.end()) {
        from.push_back(u);
        to.push_back(new_list[e]);
        length.push_back(double(after.distances(u)[e]));
      }
  }
  GeodesicUpdate update;
  update.added_edges = offset_t(from.size());
  const auto offsets = after.offsets();
  const auto indices = after.indices();
  const auto lengths = after.distances();
  std::vector<std::uint64_t> shortened(static_cast<std::size_t>(n), 0);
  using Entry = std::pair<double, index_t>;
  parallel_for(
      0, n,
      [&](std::int64_t s) {
        std::vector<double> distance(static_cast<std::size_t>(n));
        for (index_t j = 0; j < n; ++j) distance[std::size_t(j)] = double(geodesics(s, j));
        std::vector<char> lowered(static_cast<std::size_t>(n), 0);
        std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;  // lazy deletion
        const auto lower = [&](index_t v, double candidate) {
          if (candidate < distance[std::size_t(v)]) {
            distance[std::size_t(v)] = candidate;
            lowered[std::size_t(v)] = 1;
            queue.emplace(candidate, v);
          }
        };
        for (std::size_t e = 0; e < from.size(); ++e) lower(to[e], distance[std::size_t(from[e])] + length[e]);
        while (!queue.empty()) {
          const auto [d, v] = queue.top();
          queue.pop();
          if (d > distance[std::size_t(v)]) continue;  // a stale entry
          for (offset_t e = offsets[v]; e < offsets[v + 1]; ++e) lower(indices[e], d + double(lengths[e]));
        }
        for (index_t j = 0; j < n; ++j)
          if (lowered[std::size_t(j)]) {
            geodesics(s, j) = S(distance[std::size_t(j)]);
            ++shortened[std::size_t(s)];
          }
      },
      4);
  for (std::uint64_t count : shortened) update.shortened_pairs += count;
  return update;
}

}  // namespace nldr
