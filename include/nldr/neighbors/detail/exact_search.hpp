// The exact neighbor search behind KNearest and EpsilonBall: picks the backend, runs the queries
// in parallel blocks and assembles CSR lists sorted by (distance, index).
//
// Both backends only offer candidates; each query's NearestSet decides, at distances computed by
// one function, so the graph is the same bitwise for the k-d tree, the brute force and any
// number of threads (every block writes only its own queries' lists).
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/precompiled.hpp>
#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>
#include <nldr/neighbors/detail/brute_force.hpp>
#include <nldr/neighbors/detail/distance.hpp>
#include <nldr/neighbors/detail/nanoflann_adapter.hpp>
#include <nldr/neighbors/detail/result_sets.hpp>
#include <nldr/neighbors/selector.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <span>
#include <string>
#include <vector>

namespace nldr::detail {

template <Real T>
struct NeighborLists {
  std::vector<offset_t> offsets;
  std::vector<index_t> indices;
  std::vector<T> distances;
};

/// Whether `backend` means the k-d tree for points of dimension `dim`.
inline bool uses_kdtree(SearchBackend backend, Eigen::Index dim) {
  return backend == SearchBackend::kdtree ||
         (backend == SearchBackend::automatic && choose_neighbor_search(0, dim, false) == NeighborSearch::kdtree);
}

/// What SelectionReport::search says for an exact search with `backend` in `dim` dimensions.
inline std::string exact_search_name(SearchBackend backend, Eigen::Index dim) {
  return std::string(search_name(uses_kdtree(backend, dim) ? NeighborSearch::kdtree : NeighborSearch::brute_force));
}

/// Points per k-d tree leaf (nanoflann's leaf_max_size and default). Leaves of 8, 16 and 32
/// points were within 5% of each other on 10^6 uniform points in 3-D (benchmarks/knn.cpp).
inline constexpr std::size_t kdtree_leaf_size = 10;
/// Queries per parallel task on the k-d tree.
inline constexpr index_t kdtree_query_block = 256;

/// Runs `search(queries, sets)` over all points in blocks of `block` queries taken in `order`
/// (empty: 0..N-1) and gathers the lists. With capacity > 0 and no radius every list has exactly
/// `capacity` entries and is written in place; otherwise lists are gathered per block first.
template <Real T, class Search>
NeighborLists<T> gather_lists(index_t n, Eigen::Index dim, index_t capacity, double radius,
                              std::span<const index_t> order, index_t block, const Search& search) {
  const bool fixed_degree = capacity > 0 && !std::isfinite(radius);
  const std::int64_t blocks = (std::int64_t(n) + block - 1) / block;
  auto block_queries = [&](std::int64_t b) {
    const index_t begin = index_t(b * block), end = std::min<index_t>(n, index_t(begin + block));
    std::vector<index_t> queries(std::size_t(end - begin));
    if (order.empty())
      std::iota(queries.begin(), queries.end(), begin);
    else
      std::copy(order.begin() + begin, order.begin() + end, queries.begin());
    return queries;
  };

  NeighborLists<T> out;
  std::vector<index_t> degree(fixed_degree ? 0 : std::size_t(n));
  std::vector<std::vector<typename NearestSet<T>::Entry>> found(fixed_degree ? 0 : std::size_t(blocks));
  if (fixed_degree) {
    out.indices.resize(std::size_t(n) * std::size_t(capacity));
    out.distances.resize(out.indices.size());
  }
  parallel_for(
      0, blocks,
      [&](std::int64_t b) {
        const std::vector<index_t> queries = block_queries(b);
        auto sets = nearest_sets<T>(queries.size(), capacity, radius, dim);
        for (std::size_t q = 0; q < queries.size(); ++q) sets[q].reset(queries[q]);
        search(std::span<const index_t>(queries), std::span<NearestSet<T>>(sets));
        for (std::size_t q = 0; q < queries.size(); ++q) {
          sets[q].sort();
          const auto entries = sets[q].entries();
          if (fixed_degree) {
            std::size_t slot = std::size_t(queries[q]) * std::size_t(capacity);
            for (const auto& e : entries) {
              out.indices[slot] = e.index;
              out.distances[slot++] = e.distance;
            }
          } else {
            degree[queries[q]] = index_t(entries.size());
            found[b].insert(found[b].end(), entries.begin(), entries.end());
          }
        }
      },
      1);

  out.offsets.resize(std::size_t(n) + 1);
  out.offsets[0] = 0;
  for (index_t i = 0; i < n; ++i)
    out.offsets[i + 1] = out.offsets[i] + (fixed_degree ? offset_t(capacity) : offset_t(degree[i]));
  if (!fixed_degree) {
    out.indices.resize(std::size_t(out.offsets.back()));
    out.distances.resize(out.indices.size());
    parallel_for(
        0, blocks,
        [&](std::int64_t b) {
          std::size_t next = 0;
          for (index_t i : block_queries(b))
            for (offset_t e = out.offsets[i]; e < out.offsets[i + 1]; ++e, ++next) {
              out.indices[e] = found[b][next].index;
              out.distances[e] = found[b][next].distance;
            }
          found[b] = {};  // release as we go
        },
        1);
  }
  return out;
}

/// Exact neighbors of every row of `points` (N x D, finite, N >= 1): per point, at most
/// `capacity` (0 = no limit) other points at distance <= `radius` (infinity = no limit),
/// nearest first by (distance, index). \throws invalid_argument when N exceeds index_t or a
/// squared distance may overflow T or all underflow to 0.
template <Real T>
NeighborLists<T> exact_neighbors(const PointsRef<T>& points, SearchBackend backend, index_t capacity,
                                 double radius) {
  if (points.rows() >= Eigen::Index(std::numeric_limits<index_t>::max()))
    throw_invalid("X", "X has N = ", points.rows(), " points, more than the ",
                  std::numeric_limits<index_t>::max() - 1, " a neighbor graph can index: subsample X");
  validate_distance_range<T>(points, 1);
  const PointRows<T> rows(points);
  NeighborLists<T> lists;
  if (uses_kdtree(backend, rows.cols)) {
    const KdTree<T> tree(rows, kdtree_leaf_size);
    const auto leaves = tree.leaf_order();
    const std::vector<index_t> order(leaves.begin(), leaves.end());
    lists = gather_lists<T>(rows.rows, rows.cols, capacity, radius, order, kdtree_query_block,
                            [&](std::span<const index_t> queries, std::span<NearestSet<T>> sets) {
                              for (std::size_t q = 0; q < queries.size(); ++q)
                                tree.search(rows.row(queries[q]), sets[q]);
                            });
  } else {
    const BruteForce<T> brute(rows);
    lists = gather_lists<T>(rows.rows, rows.cols, capacity, radius, {}, BruteForce<T>::query_block,
                            [&](std::span<const index_t> queries, std::span<NearestSet<T>> sets) {
                              brute.search(queries, sets);
                            });
  }
  return lists;
}

NLDR_PRECOMPILED(NeighborLists<float> exact_neighbors<float>(const PointsRef<float>&, SearchBackend, index_t, double))
NLDR_PRECOMPILED(NeighborLists<double> exact_neighbors<double>(
    const PointsRef<double>&, SearchBackend, index_t, double))

/// Exact k nearest neighbors of the points `queries` only (k <= N - 1), each list as
/// KNearest would give it: by (distance, index), at the same distances. For checking an
/// approximate search on a sample: the same backends as exact_neighbors, queries in parallel.
template <Real T>
std::vector<std::vector<typename NearestSet<T>::Entry>> exact_neighbors_of(const PointRows<T>& rows,
                                                                          std::span<const index_t> queries,
                                                                          index_t k) {
  std::vector<std::vector<typename NearestSet<T>::Entry>> lists(queries.size());
  const double no_radius = std::numeric_limits<double>::infinity();
  auto search_blocks = [&](index_t block, const auto& search) {
    const std::int64_t blocks = (std::int64_t(queries.size()) + block - 1) / block;
    parallel_for(
        0, blocks,
        [&](std::int64_t b) {
          const std::size_t begin = std::size_t(b) * std::size_t(block);
          const auto part = queries.subspan(begin, std::min(queries.size() - begin, std::size_t(block)));
          auto sets = nearest_sets<T>(part.size(), k, no_radius, rows.cols);
          for (std::size_t q = 0; q < part.size(); ++q) sets[q].reset(part[q]);
          search(part, std::span<NearestSet<T>>(sets));
          for (std::size_t q = 0; q < part.size(); ++q) {
            sets[q].sort();
            lists[begin + q].assign(sets[q].entries().begin(), sets[q].entries().end());
          }
        },
        1);
  };
  if (uses_kdtree(SearchBackend::automatic, rows.cols)) {
    const KdTree<T> tree(rows, kdtree_leaf_size);
    search_blocks(kdtree_query_block, [&](std::span<const index_t> part, std::span<NearestSet<T>> sets) {
      for (std::size_t q = 0; q < part.size(); ++q) tree.search(rows.row(part[q]), sets[q]);
    });
  } else {
    const BruteForce<T> brute(rows);
    search_blocks(BruteForce<T>::query_block, [&](std::span<const index_t> part, std::span<NearestSet<T>> sets) {
      brute.search(part, sets);
    });
  }
  return lists;
}

}  // namespace nldr::detail
