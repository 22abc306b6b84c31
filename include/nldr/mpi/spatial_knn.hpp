// The exact k-nearest-neighbor graph of distributed low-D points, by a spatial partition with halo
// queries (the ring pass of nldr/mpi/knn.hpp makes every rank query every block; here each rank
// searches about N / P points, time O((N / P) log(N / P)) plus the halo).
//
// 1. Partition: slabs along the axis of largest extent of all points, one per rank. A point's place
//    on the axis is its key (coordinate, global index), so equal coordinates still split evenly;
//    the P - 1 splitting keys come from a regular sample of the sorted keys of every rank (Shi and
//    Schaeffer 1992), which bounds each slab's excess over N / P (see slab_splitters). Each point
//    (coordinates + global index) goes to its slab's rank (MPI_Alltoallv).
// 2. Each rank builds the k-d tree KNearest uses (nldr/neighbors/detail/nanoflann_adapter.hpp) on
//    its slab and finds each point's k nearest in the slab; r_i = the k-th distance (infinity when
//    the slab holds no more than k points).
// 3. Halo: point i is sent as a query to every other slab whose extent along the axis lies within
//    r_i of it (widened by the rounding slack of a stored distance); that rank answers with its k
//    best within r_i, and the lists merge by (distance, index). Exact: a slab the ball misses
//    holds only points whose distance, as rounded, exceeds r_i, and r_i is at least the true k-th
//    distance, so none of them is among the k best, ties by index included.
// 4. Each finished list goes to the rank that owns its row in file order (MPI_Alltoallv).
//
// Distances come from the same squared_distance() and NearestSet as KNearest's
// (nldr/neighbors/detail/result_sets.hpp), so the graph equals KNearest{k}(X) bit for bit.
// Slabs suit a few ranks: a slab thinner than the typical r_i sends most of its points as queries
// (docs/scaling.md says when); recursive coordinate bisection would keep the halo a surface.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>
#include <nldr/mpi/all_to_all.hpp>
#include <nldr/mpi/knn.hpp>
#include <nldr/mpi/point_block.hpp>
#include <nldr/mpi/row_blocks.hpp>
#include <nldr/neighbors/detail/exact_search.hpp>
#include <nldr/neighbors/detail/nanoflann_adapter.hpp>
#include <nldr/neighbors/detail/result_sets.hpp>

#include <Eigen/Core>
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

namespace nldr::mpi {

namespace detail {

/// A point's place along the split axis: its coordinate, ties by global index.
template <Real T>
struct AxisKey {
  T value;
  index_t index;
  friend bool operator<(const AxisKey& a, const AxisKey& b) {
    return a.value < b.value || (a.value == b.value && a.index < b.index);
  }
};

/// The axis along which all ranks' points spread the most (the lowest such axis on ties).
template <Real T>
Eigen::Index widest_axis(MPI_Comm comm, const Matrix<T>& rows) {
  const Eigen::Index dim = rows.cols();
  std::vector<T> low(static_cast<std::size_t>(dim), std::numeric_limits<T>::max());
  std::vector<T> high(static_cast<std::size_t>(dim), std::numeric_limits<T>::lowest());
  for (Eigen::Index c = 0; c < dim && rows.rows() > 0; ++c) {
    low[std::size_t(c)] = rows.col(c).minCoeff();
    high[std::size_t(c)] = rows.col(c).maxCoeff();
  }
  MPI_Allreduce(MPI_IN_PLACE, low.data(), int(dim), datatype<T>(), MPI_MIN, comm);
  MPI_Allreduce(MPI_IN_PLACE, high.data(), int(dim), datatype<T>(), MPI_MAX, comm);
  Eigen::Index axis = 0;
  for (Eigen::Index c = 1; c < dim; ++c)
    if (double(high[std::size_t(c)]) - double(low[std::size_t(c)]) >
        double(high[std::size_t(axis)]) - double(low[std::size_t(axis)]))
      axis = c;
  return axis;
}

/// Samples per slab in the regular sample: each slab then holds N / P points give or take
/// 2 N / (P samples_per_slab) (under 2% more than N / P), for 8 or 16 bytes x samples_per_slab P^2
/// gathered on every rank.
inline constexpr std::int64_t samples_per_slab = 128;

/// The P - 1 keys that split all ranks' keys into P slabs of about N / P (a collective call):
/// every rank samples its sorted keys at the same stride, all samples are gathered and sorted, and
/// the splitters are every (S / P)-th of the S samples. Slab s holds the keys k with
/// splitter[s - 1] <= k < splitter[s]. With stride 1 (N <= samples_per_slab P^2) the slabs are exact.
template <Real T>
std::vector<AxisKey<T>> slab_splitters(MPI_Comm comm, const std::vector<AxisKey<T>>& sorted_keys, index_t total,
                                       int parts, std::uint64_t* bytes_sent) {
  const std::int64_t stride = std::max<std::int64_t>(1, std::int64_t(total) / (samples_per_slab * parts * parts));
  std::vector<AxisKey<T>> sample;
  for (std::int64_t p = stride / 2; p < std::int64_t(sorted_keys.size()); p += stride)
    sample.push_back(sorted_keys[std::size_t(p)]);
  const int bytes = int(sample.size() * sizeof(AxisKey<T>));
  std::vector<int> counts(static_cast<std::size_t>(parts)), offsets(static_cast<std::size_t>(parts), 0);
  MPI_Allgather(&bytes, 1, MPI_INT, counts.data(), 1, MPI_INT, comm);
  for (int r = 1; r < parts; ++r) offsets[std::size_t(r)] = offsets[std::size_t(r) - 1] + counts[std::size_t(r) - 1];
  std::vector<AxisKey<T>> all(std::size_t(offsets.back() + counts.back()) / sizeof(AxisKey<T>));
  MPI_Allgatherv(sample.data(), bytes, MPI_BYTE, all.data(), counts.data(), offsets.data(), MPI_BYTE, comm);
  if (bytes_sent) *bytes_sent += std::uint64_t(bytes) * std::uint64_t(parts - 1);
  std::sort(all.begin(), all.end());
  std::vector<AxisKey<T>> splitters;
  for (int s = 1; s < parts; ++s) splitters.push_back(all[all.size() * std::size_t(s) / std::size_t(parts)]);
  return splitters;
}

}  // namespace detail

/// The exact directed kNN graph of the distributed points by a spatial partition (a collective
/// call), for low D (each slab is searched by a k-d tree). Equal, row for row, to
/// nldr::KNearest{k}(X) of all the points, as knearest() (the ring pass) is.
/// \throws nldr::invalid_argument ("k") on every rank unless 1 <= k < N.
template <Real T>
GraphBlock<T> spatial_nearest_neighbors(MPI_Comm comm, const PointBlock<T>& points, index_t k,
                                        KnnStatistics* statistics = nullptr) {
  validate_neighbor_count(k, points.total(), "k");  // the same N on every rank: all throw or none
  using Entry = typename nldr::detail::NearestSet<T>::Entry;
  const int parts = points.blocks.parts(), rank = points.rank;
  const Eigen::Index dim = points.rows.cols();
  const index_t local = index_t(points.rows.rows()), first = points.first();
  KnnStatistics ignored;
  KnnStatistics& stats = statistics ? *statistics : ignored;
  const auto before = [](const Entry& a, const Entry& b) {
    return a.distance < b.distance || (a.distance == b.distance && a.index < b.index);
  };
  // Lists of entries per destination rank, sent as a column of distances and one of indices: an
  // Entry of float or double pads to 8 or 16 bytes, the columns take 8 or 12 (the lists are most
  // of the traffic).
  struct EntryColumns {
    std::vector<std::vector<T>> distances;
    std::vector<std::vector<index_t>> indices;
    explicit EntryColumns(int parts) : distances(std::size_t(parts)), indices(std::size_t(parts)) {}
    void append(std::size_t to, const std::vector<Entry>& list) {
      for (const Entry& e : list) {
        distances[to].push_back(e.distance);
        indices[to].push_back(e.index);
      }
    }
    std::vector<Entry> send(MPI_Comm comm, std::uint64_t* bytes_sent) const {
      const std::vector<T> d = all_to_all(comm, distances, bytes_sent).items;
      const std::vector<index_t> j = all_to_all(comm, indices, bytes_sent).items;
      std::vector<Entry> entries(d.size());
      for (std::size_t e = 0; e < d.size(); ++e) entries[e] = {d[e], j[e]};
      return entries;
    }
  };

  // 1. The partition, and each point shipped to its slab.
  Stopwatch clock;
  const Eigen::Index axis = detail::widest_axis(comm, points.rows);
  std::vector<detail::AxisKey<T>> keys(static_cast<std::size_t>(local));
  for (index_t i = 0; i < local; ++i) keys[std::size_t(i)] = {points.rows(i, axis), first + i};
  std::sort(keys.begin(), keys.end());
  const auto splitters = detail::slab_splitters(comm, keys, points.total(), parts, &stats.bytes_sent);
  keys = {};
  std::vector<std::vector<index_t>> shipped_indices(static_cast<std::size_t>(parts));
  std::vector<std::vector<T>> shipped_points(static_cast<std::size_t>(parts));
  for (index_t i = 0; i < local; ++i) {
    const detail::AxisKey<T> key{points.rows(i, axis), first + i};
    const auto slab = std::size_t(std::upper_bound(splitters.begin(), splitters.end(), key) - splitters.begin());
    shipped_indices[slab].push_back(first + i);
    shipped_points[slab].insert(shipped_points[slab].end(), points.rows.row(i).data(), points.rows.row(i).data() + dim);
  }
  // Received in source-rank order, each source's rows in order: the slab's points are in global
  // order, so ordering candidates by slab position orders them by global index.
  const std::vector<index_t> global = all_to_all(comm, shipped_indices, &stats.bytes_sent).items;
  const std::vector<T> received = all_to_all(comm, shipped_points, &stats.bytes_sent).items;
  shipped_indices = {};
  shipped_points = {};
  const index_t m = index_t(global.size());
  const Matrix<T> slab = Eigen::Map<const Matrix<T>>(received.data(), m, dim);

  // Every slab's extent along the axis (empty: low > high).
  T extent[2] = {std::numeric_limits<T>::max(), std::numeric_limits<T>::lowest()};
  if (m > 0) extent[0] = slab.col(axis).minCoeff(), extent[1] = slab.col(axis).maxCoeff();
  std::vector<T> extents(2 * std::size_t(parts));
  MPI_Allgather(extent, 2, datatype<T>(), extents.data(), 2, datatype<T>(), comm);
  stats.exchange_seconds += clock.seconds();

  // 2. Each point's k nearest in its slab, by KNearest's tree and selection.
  clock.restart();
  const nldr::detail::PointRows<T> rows{PointsRef<T>(slab)};
  std::optional<nldr::detail::KdTree<T>> tree;
  if (m > 0) tree.emplace(rows, nldr::detail::kdtree_leaf_size);
  // The k best of the slab's points within `radius` of `query` (D values), `self` excluded, by
  // (distance, global index).
  const auto nearest_in_slab = [&](const T* query, index_t self, double radius) {
    nldr::detail::NearestSet<T> found(k, radius, dim);
    found.reset(self);
    tree->search(query, found);
    found.sort();
    std::vector<Entry> list(found.entries().begin(), found.entries().end());
    for (Entry& e : list) e.index = global[std::size_t(e.index)];  // slab order is global order
    return list;
  };
  const double unlimited = std::numeric_limits<double>::infinity();
  std::vector<std::vector<Entry>> lists(static_cast<std::size_t>(m));
  if (m > 0) {
    const auto order = tree->leaf_order();  // neighbors in space close in this order: cache reuse
    const std::int64_t block = nldr::detail::kdtree_query_block, blocks = (std::int64_t(m) + block - 1) / block;
    parallel_for(0, blocks, [&](std::int64_t b) {
      const std::int64_t end = std::min<std::int64_t>(m, (b + 1) * block);
      for (std::int64_t a = b * block; a < end; ++a) {
        const auto i = index_t(order[std::size_t(a)]);
        lists[std::size_t(i)] = nearest_in_slab(rows.row(i), i, unlimited);
      }
    }, 1);
  }
  stats.search_seconds += clock.seconds();

  // 3. Halo queries to the slabs each point's ball reaches. A stored distance may fall below the
  // exact one by the rounding of squared_distance() and sqrt (a few ulps): the slack covers it.
  clock.restart();
  struct Query {
    index_t from;  // the point's position in the querying slab
    int rank;      // the querying rank
    T radius;      // its r_i
  };
  const double widening = 1.0 + double(nldr::detail::rounding_slack<T>(dim));
  std::vector<std::vector<Query>> queries(static_cast<std::size_t>(parts));
  std::vector<std::vector<T>> query_points(static_cast<std::size_t>(parts));
  for (index_t i = 0; i < m; ++i) {
    const auto& list = lists[std::size_t(i)];
    const T radius = index_t(list.size()) == k ? list.back().distance : std::numeric_limits<T>::infinity();
    const double reach = double(radius) * widening, x = double(slab(i, axis));
    for (int t = 0; t < parts; ++t) {
      const double low = double(extents[2 * std::size_t(t)]), high = double(extents[2 * std::size_t(t) + 1]);
      if (t == rank || low > high || std::max({0.0, low - x, x - high}) > reach) continue;
      queries[std::size_t(t)].push_back({i, rank, radius});
      query_points[std::size_t(t)].insert(query_points[std::size_t(t)].end(), rows.row(i), rows.row(i) + dim);
      ++stats.halo_queries;
    }
  }
  const std::vector<Query> asked = all_to_all(comm, queries, &stats.bytes_sent).items;
  const std::vector<T> asked_points = all_to_all(comm, query_points, &stats.bytes_sent).items;
  queries = {};
  query_points = {};
  stats.exchange_seconds += clock.seconds();

  clock.restart();
  std::vector<std::vector<Entry>> answers(asked.size());
  parallel_for(0, std::int64_t(asked.size()), [&](std::int64_t q) {
    // Only points within r_i can enter the querying point's list.
    answers[std::size_t(q)] = nearest_in_slab(asked_points.data() + q * dim, -1, double(asked[std::size_t(q)].radius));
  }, nldr::detail::kdtree_query_block);
  stats.search_seconds += clock.seconds();

  clock.restart();
  struct AnswerHead {
    index_t from;   // the query's position in the querying slab
    index_t count;  // entries that follow
  };
  std::vector<std::vector<AnswerHead>> heads(static_cast<std::size_t>(parts));
  EntryColumns outgoing(parts);
  for (std::size_t q = 0; q < asked.size(); ++q) {
    const auto to = std::size_t(asked[q].rank);
    heads[to].push_back({asked[q].from, index_t(answers[q].size())});
    outgoing.append(to, answers[q]);
  }
  answers = {};
  const std::vector<AnswerHead> answered = all_to_all(comm, heads, &stats.bytes_sent).items;
  const std::vector<Entry> answer_entries = outgoing.send(comm, &stats.bytes_sent);
  std::vector<Entry> merged;
  std::size_t next = 0;
  for (const AnswerHead& head : answered) {
    std::vector<Entry>& mine = lists[std::size_t(head.from)];
    const auto begin = answer_entries.begin() + std::ptrdiff_t(next);
    next += std::size_t(head.count);
    merged.clear();
    std::merge(mine.begin(), mine.end(), begin, begin + head.count, std::back_inserter(merged), before);
    if (index_t(merged.size()) > k) merged.resize(static_cast<std::size_t>(k));
    mine.swap(merged);
  }

  // 4. Each list to the rank owning its row. Every list holds k entries: the slab's and the
  // answers of all other slabs together hold all N - 1 >= k other points when r_i is infinite.
  std::vector<std::vector<index_t>> row_of(static_cast<std::size_t>(parts));
  EntryColumns row_lists(parts);
  for (index_t i = 0; i < m; ++i) {
    const auto owner = std::size_t(points.blocks.owner(global[std::size_t(i)]));
    row_of[owner].push_back(global[std::size_t(i)]);
    row_lists.append(owner, lists[std::size_t(i)]);
  }
  lists = {};
  const std::vector<index_t> my_rows = all_to_all(comm, row_of, &stats.bytes_sent).items;
  const std::vector<Entry> my_lists = row_lists.send(comm, &stats.bytes_sent);
  stats.exchange_seconds += clock.seconds();

  GraphBlock<T> graph;
  graph.blocks = points.blocks;
  graph.rank = rank;
  graph.offsets.resize(std::size_t(local) + 1);
  for (index_t i = 0; i <= local; ++i) graph.offsets[std::size_t(i)] = offset_t(i) * k;
  graph.indices.resize(std::size_t(local) * std::size_t(k));
  graph.distances.resize(graph.indices.size());
  for (std::size_t r = 0; r < my_rows.size(); ++r) {
    const std::size_t row = std::size_t(my_rows[r] - first);
    for (std::size_t a = 0; a < std::size_t(k); ++a) {
      graph.indices[row * std::size_t(k) + a] = my_lists[r * std::size_t(k) + a].index;
      graph.distances[row * std::size_t(k) + a] = my_lists[r * std::size_t(k) + a].distance;
    }
  }
  return graph;
}

}  // namespace nldr::mpi
