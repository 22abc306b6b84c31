// The exact k-nearest-neighbor graph of distributed points, by a ring pass of point blocks.
//
// Each rank keeps, for its own rows, the k best neighbors found so far. The blocks of points travel
// round the ring of ranks (P - 1 MPI_Sendrecv steps); at each step every rank searches its rows
// against the block it holds with the search KNearest uses for D, on that block: the blocked
// brute force (nldr/neighbors/detail/brute_force.hpp) for high D, time O(N^2 D / P) per rank, or
// a k-d tree of the block for low D, time O(N log(N / P)) per rank (every rank still queries every
// block: the spatial partition of nldr/mpi/spatial_knn.hpp makes it O((N / P) log(N / P))). Memory
// O(N D / P + N k / P): the own block, the travelling block and its receive buffer, the lists.
//
// The result equals KNearest's graph exactly: both rank the points of a query by (distance, index)
// at distances from the same squared_distance() (nldr/neighbors/detail/distance.hpp), and the
// k best by that total order of a union of blocks are the k best of the blocks' k best.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>
#include <nldr/mpi/collective.hpp>
#include <nldr/mpi/point_block.hpp>
#include <nldr/mpi/row_blocks.hpp>
#include <nldr/neighbors/detail/brute_force.hpp>
#include <nldr/neighbors/detail/distance.hpp>
#include <nldr/neighbors/detail/exact_search.hpp>
#include <nldr/neighbors/detail/nanoflann_adapter.hpp>
#include <nldr/neighbors/detail/result_sets.hpp>

#include <Eigen/Core>
#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <vector>

namespace nldr::mpi {

/// This rank's rows of a neighbor graph: row i (global row first + i) lists its neighbors
/// (global indices) and their distances in entries offsets[i] .. offsets[i+1], by (distance, index).
template <Real T>
struct GraphBlock {
  std::vector<offset_t> offsets{0};
  std::vector<index_t> indices;
  std::vector<T> distances;
  RowBlocks blocks;  ///< which rows every rank holds (those of the points)
  int rank = 0;

  index_t first() const { return blocks.first(rank); }
  index_t rows() const { return index_t(offsets.size()) - 1; }
};

/// Time and traffic of one distributed kNN search (ring or spatial), for docs/scaling.md.
struct KnnStatistics {
  std::uint64_t bytes_sent = 0;  ///< bytes this rank sent to other ranks
  double search_seconds = 0;     ///< time in the searches
  double exchange_seconds = 0;   ///< time in MPI calls (includes waiting for slower ranks)
  std::uint64_t halo_queries = 0;  ///< spatial partition: queries this rank sent to other slabs
};

/// The exact directed kNN graph of the distributed points, rows owned by the rank that owns the
/// points (a collective call). Equal, row for row, to nldr::KNearest{k}(X) of all the points.
/// \throws nldr::invalid_argument ("k") on every rank unless 1 <= k < N.
template <Real T>
GraphBlock<T> knearest(MPI_Comm comm, const PointBlock<T>& points, index_t k, KnnStatistics* statistics = nullptr) {
  validate_neighbor_count(k, points.total(), "k");  // the same N on every rank: all throw or none
  using Entry = typename nldr::detail::NearestSet<T>::Entry;
  const int parts = points.blocks.parts(), rank = points.rank;
  const Eigen::Index dim = points.rows.cols();
  const index_t local = index_t(points.rows.rows());
  const auto before = [](const Entry& a, const Entry& b) {
    return a.distance < b.distance || (a.distance == b.distance && a.index < b.index);
  };
  const index_t query_block = nldr::detail::BruteForce<T>::query_block;
  const std::int64_t query_blocks = (std::int64_t(local) + query_block - 1) / query_block;

  for (int r = 0; r < parts; ++r)  // every rank knows every block: all throw or none
    if (std::int64_t(points.blocks.count(r)) * dim > INT_MAX)
      throw_invalid("X", "the block of rank ", r, " (", points.blocks.count(r), " x ", dim,
                    " values) exceeds one MPI message of 2^31 - 1 values: use more ranks");

  std::vector<std::vector<Entry>> best(static_cast<std::size_t>(local));
  Matrix<T> travelling = points.rows, incoming;
  for (int step = 0; step < parts; ++step) {
    const int source = (rank - step + parts) % parts;  // whose block `travelling` is
    const index_t offset = points.blocks.first(source);
    Stopwatch search_clock;
    if (travelling.rows() > 0 && local > 0) {
      // The block searched with KNearest's backend for D (nldr/neighbors/detail/exact_search.hpp):
      // a k-d tree of the block for low D, the blocked brute force otherwise. Both only offer
      // candidates to each query's NearestSet, which decides at squared_distance().
      const nldr::detail::PointRows<T> rows{PointsRef<T>(travelling)};
      const bool tree = nldr::detail::uses_kdtree(SearchBackend::automatic, dim);
      std::optional<nldr::detail::KdTree<T>> kdtree;
      std::optional<nldr::detail::BruteForce<T>> brute;
      if (tree) kdtree.emplace(rows, nldr::detail::kdtree_leaf_size);
      else brute.emplace(rows);
      parallel_for(0, query_blocks, [&](std::int64_t b) {
        const index_t begin = index_t(b) * query_block, end = std::min(local, begin + query_block);
        std::vector<nldr::detail::NearestSet<T>> sets(std::size_t(end - begin),
                                                      nldr::detail::NearestSet<T>(k, std::numeric_limits<double>::infinity(), dim));
        // On the own block (step 0) each query excludes itself.
        std::vector<index_t> queries(sets.size());
        for (index_t q = begin; q < end; ++q) {
          queries[std::size_t(q - begin)] = q;
          sets[std::size_t(q - begin)].reset(step == 0 ? q : -1);
        }
        if (tree) {
          for (index_t q = begin; q < end; ++q) kdtree->search(points.rows.row(q).data(), sets[std::size_t(q - begin)]);
        } else if (step == 0) {
          brute->search(queries, sets);
        } else {
          brute->search_outside(points.rows, begin, sets);
        }
        std::vector<Entry> merged;
        for (index_t q = begin; q < end; ++q) {
          auto& found = sets[std::size_t(q - begin)];
          found.sort();
          std::vector<Entry> block_best(found.entries().begin(), found.entries().end());
          for (Entry& e : block_best) e.index += offset;  // the block's rows are consecutive: order kept
          std::vector<Entry>& mine = best[std::size_t(q)];
          merged.clear();
          std::merge(mine.begin(), mine.end(), block_best.begin(), block_best.end(), std::back_inserter(merged), before);
          if (index_t(merged.size()) > k) merged.resize(std::size_t(k));
          mine.swap(merged);
        }
      }, 1);
    }
    if (statistics) statistics->search_seconds += search_clock.seconds();
    if (step + 1 == parts) break;
    // Pass the block on to rank + 1 and take the one of rank - 1 (the block of source - 1).
    Stopwatch exchange_clock;
    const int next_source = (source - 1 + parts) % parts;
    incoming.resize(points.blocks.count(next_source), dim);
    const std::int64_t send_count = std::int64_t(travelling.size()), receive_count = std::int64_t(incoming.size());
    MPI_Sendrecv(travelling.data(), int(send_count), datatype<T>(), (rank + 1) % parts, 0, incoming.data(),
                 int(receive_count), datatype<T>(), (rank - 1 + parts) % parts, 0, comm, MPI_STATUS_IGNORE);
    travelling.swap(incoming);
    if (statistics) {
      statistics->bytes_sent += std::uint64_t(send_count) * sizeof(T);
      statistics->exchange_seconds += exchange_clock.seconds();
    }
  }

  GraphBlock<T> graph;
  graph.blocks = points.blocks;
  graph.rank = rank;
  graph.offsets.resize(std::size_t(local) + 1, 0);
  graph.indices.reserve(std::size_t(local) * std::size_t(k));
  graph.distances.reserve(graph.indices.capacity());
  for (index_t i = 0; i < local; ++i) {
    for (const Entry& e : best[std::size_t(i)]) {
      graph.indices.push_back(e.index);
      graph.distances.push_back(e.distance);
    }
    graph.offsets[std::size_t(i) + 1] = offset_t(graph.indices.size());
  }
  return graph;
}

}  // namespace nldr::mpi
