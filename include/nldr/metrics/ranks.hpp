// The one rank engine behind every rank-based quality measure (co-ranking criteria, trustworthiness,
// continuity, MRRE, Konig's measure): per point, the ranks of the other points in X and in Y.
//
// Rank rule (docs/algorithms.md sec. 4): for point i, rho_ij is the rank of j among the N - 1 other
// points by distance in X (1 = nearest), r_ij the same in Y; ties of the distance are broken by the
// smaller index. The distance compared is the squared Euclidean distance computed in the input's
// scalar type (monotone in the distance, no sqrt rounding), or the given value for a precomputed
// matrix. Exact duplicate points therefore get distinct, index-ordered ranks.
//
// No measure sorts anything itself: they are accumulators fed with the rank rows this engine
// produces, so one pass serves them all (see quality_report.hpp).
#pragma once

#include <nldr/core/parallel.hpp>
#include <nldr/core/progress.hpp>
#include <nldr/core/types.hpp>
#include <nldr/metrics/input.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <limits>
#include <span>
#include <tuple>
#include <utility>
#include <vector>

namespace nldr::metrics::detail {

/// Ranks of point j seen from point i: rho in X, r in Y, both in 1..N-1.
struct RankPair {
  index_t j;
  index_t rho;
  index_t r;
};

/// How the engine finds the ranks; the result is the same for every mode.
enum class RankMode {
  automatic,  ///< full sort when k_cap is a sizable fraction of N, bounded otherwise
  full,       ///< radix-sort all N - 1 distances in X and in Y (sort_row)
  bounded,    ///< select the k_cap nearest in X and in Y, count the other ranks: O(N) per point typically
};

/// A distance with its index, ordered by (distance, index): the tie rule of every rank.
template <Real T>
struct RankKey {
  T value;
  index_t index;
  friend bool operator<(const RankKey& a, const RankKey& b) {
    return a.value < b.value || (a.value == b.value && a.index < b.index);
  }
};

/// The `count` smallest keys of row[0..n) other than `self`, sorted ascending, into `out`.
/// Candidates at or below the current count-th smallest value are buffered; when the buffer holds
/// 2 count of them, nth_element keeps the best count and lowers the threshold: one comparison per
/// element, amortized O(1) per candidate (a heap costs O(log count) per candidate).
template <Real T>
void select_smallest(const T* row, index_t n, index_t self, index_t count, std::vector<RankKey<T>>& out) {
  out.clear();
  const auto keep = std::size_t(count);
  T threshold = std::numeric_limits<T>::infinity();
  const auto shrink = [&] {
    std::nth_element(out.begin(), out.begin() + std::ptrdiff_t(keep - 1), out.end());
    out.resize(keep);
    threshold = out.back().value;
  };
  for (index_t l = 0; l < n; ++l) {
    if (row[l] > threshold || l == self) continue;  // the common case: one comparison
    out.push_back({row[l], l});
    if (out.size() == 2 * keep) shrink();
  }
  if (out.size() > keep) shrink();
  std::sort(out.begin(), out.end());
}

/// Calls visit(i, nearest) for every point i of `view`, in parallel, with its k nearest other points
/// (select_smallest on the rank engine's keys, so the same tie rule). exclude(i, row), called on i's
/// row of keys first, may set entries to +infinity: points i must not choose.
template <Real T, class Visit, class Exclude>
void for_each_nearest(const InputView<T>& view, index_t k, Visit&& visit, Exclude&& exclude) {
  const index_t n = view.rows();
  struct Scratch {
    std::vector<T> row;
    std::vector<RankKey<T>> nearest;
  };
  std::vector<Scratch> scratch(static_cast<std::size_t>(max_threads()));
  parallel_for(0, n, [&](std::int64_t point) {
    const auto i = index_t(point);
    Scratch& s = scratch[std::size_t(thread_index())];
    s.row.resize(std::size_t(n));
    view.ranking_row(i, s.row.data());
    exclude(i, std::span<T>(s.row));
    select_smallest(s.row.data(), n, i, k, s.nearest);
    visit(i, std::span<const RankKey<T>>(s.nearest));
  });
}

/// for_each_nearest with every other point a candidate.
template <Real T, class Visit>
void for_each_nearest(const InputView<T>& view, index_t k, Visit&& visit) {
  for_each_nearest(view, k, visit, [](index_t, std::span<T>) {});
}

/// Scratch of count_ranks().
template <Real T>
struct CountScratch {
  static constexpr std::size_t buckets = 4096;
  std::vector<index_t> histogram, within;
  std::vector<std::uint32_t> first_query, end_query;  // queries of a bucket: [first, end)
};

/// Exact ranks of the keys `queries` (sorted ascending, all from this row) among row[0..n)
/// without `self`: rank = 1 + #{l != self : (row[l], l) < query}, written to ranks[m].
/// One pass: values up to the largest query fall into 4096 value buckets (monotone in the value);
/// a query's rank is the count of the buckets below its own plus an exact comparison with the few
/// elements that share its bucket. O(N + buckets) instead of a binary search per element.
template <Real T>
void count_ranks(const T* row, index_t n, index_t self, std::span<const RankKey<T>> queries, CountScratch<T>& s,
                 std::vector<index_t>& ranks) {
  constexpr std::size_t B = CountScratch<T>::buckets;
  ranks.assign(queries.size(), 0);
  if (queries.empty()) return;
  const T last = queries.back().value;
  const double scale = last > 0 ? double(B) / double(last) : 0.0;
  const auto bucket = [&](T value) { return std::min<std::size_t>(B - 1, std::size_t(double(value) * scale)); };
  s.histogram.assign(B, 0);
  s.within.assign(queries.size(), 0);
  s.first_query.assign(B, 0);
  s.end_query.assign(B, 0);
  for (std::size_t m = queries.size(); m-- > 0;) {  // sorted queries: each bucket's queries are contiguous
    const std::size_t b = bucket(queries[m].value);
    if (s.end_query[b] == 0) s.end_query[b] = std::uint32_t(m + 1);
    s.first_query[b] = std::uint32_t(m);
  }
  for (index_t l = 0; l < n; ++l) {
    const T value = row[l];
    if (value > last || l == self) continue;  // the common case: one comparison
    const std::size_t b = bucket(value);
    ++s.histogram[b];
    for (std::uint32_t m = s.first_query[b]; m < s.end_query[b]; ++m)
      if (RankKey<T>{value, l} < queries[m]) ++s.within[m];
  }
  // Buckets are monotone in the value, so every element of a lower bucket ranks before the query.
  std::size_t b = 0;
  index_t below = 0;
  for (std::size_t m = 0; m < queries.size(); ++m) {
    for (const std::size_t target = bucket(queries[m].value); b < target; ++b) below += s.histogram[b];
    // An element of the query's own bucket counts only through `within`.
    ranks[m] = 1 + below + s.within[m];
  }
}

/// A distance as an unsigned integer with the same order (IEEE bits of a non-negative value; -0 is
/// mapped to +0), and its point index.
struct RadixItem {
  std::uint64_t key;
  index_t index;
};

template <Real T>
std::uint64_t order_bits(T value) {
  value += T(0);  // -0 + 0 = +0: both zeros get the same key
  if constexpr (sizeof(T) == 8)
    return std::bit_cast<std::uint64_t>(value);
  else
    return std::bit_cast<std::uint32_t>(value);
}

/// Sorts row[0..n) without `self` by (value, index) into `out` (values >= 0, as every distance).
/// LSD radix sort, 8 bits per pass, skipping the passes whose byte is the same for all: O(N) per
/// row instead of std::sort's O(N log N) unpredictable comparisons, which dominated the whole-curve
/// cost. Stable passes over items that start in index order keep ties in index order.
template <Real T>
void sort_row(const T* row, index_t n, index_t self, std::vector<RadixItem>& out, std::vector<RadixItem>& buffer) {
  out.clear();
  for (index_t l = 0; l < n; ++l)
    if (l != self) out.push_back({order_bits(row[l]), l});
  if (out.empty()) return;
  constexpr int passes = int(sizeof(T));
  std::array<std::array<std::uint32_t, 256>, passes> histogram{};
  for (const auto& item : out)
    for (int p = 0; p < passes; ++p) ++histogram[std::size_t(p)][(item.key >> (8 * p)) & 0xff];
  buffer.resize(out.size());
  for (int p = 0; p < passes; ++p) {
    auto& count = histogram[std::size_t(p)];
    if (count[(out.front().key >> (8 * p)) & 0xff] == out.size()) continue;  // one bucket: nothing to do
    std::uint32_t offset = 0;
    for (auto& c : count) offset += std::exchange(c, offset);
    for (const auto& item : out) buffer[count[(item.key >> (8 * p)) & 0xff]++] = item;
    out.swap(buffer);
  }
}

/// Per-thread working memory of the engine: O(N).
template <Real T>
struct RankScratch {
  std::vector<T> dx, dy;
  std::vector<RankKey<T>> kx, ky, queries;
  std::vector<RadixItem> sorted, radix_buffer;
  std::vector<index_t> rank_x, rank_y, counts;
  CountScratch<T> count_scratch;
  std::vector<RankPair> row;
};

/// Calls visit(i, row, thread) for every point i, in parallel, where `row` holds, in increasing j,
/// every j with min(rho_ij, r_ij) <= k_cap with both exact ranks (k_cap = N - 1: all j != i).
/// That is all a measure at any K <= k_cap needs: a pair with both ranks above K counts nowhere.
/// visit may only write per-point outputs or per-thread integer sums (`thread` < max_threads()),
/// so results are identical for every thread count. Requires N >= 2, 1 <= k_cap <= N - 1.
/// `progress` (optional) hears the fraction of the points done, by blocks of ~1% of them.
template <Real T, class Visit>
void visit_rank_rows(const InputView<T>& X, const InputView<T>& Y, index_t k_cap, RankMode mode, Visit&& visit,
                     const ProgressCallback& progress = {}) {
  const index_t n = X.rows();
  k_cap = std::clamp<index_t>(k_cap, 1, n - 1);
  if (mode == RankMode::automatic) mode = std::int64_t(k_cap) * 8 >= n ? RankMode::full : RankMode::bounded;
  std::vector<RankScratch<T>> scratch(static_cast<std::size_t>(max_threads()));
  parallel_for_reporting(
      0, n,
      [&](std::int64_t point) {
        const auto i = index_t(point);
        const int thread = thread_index();
        RankScratch<T>& s = scratch[std::size_t(thread)];
        s.dx.resize(std::size_t(n));
        s.dy.resize(std::size_t(n));
        s.rank_x.resize(std::size_t(n), 0);
        s.rank_y.resize(std::size_t(n), 0);
        X.ranking_row(i, s.dx.data());
        Y.ranking_row(i, s.dy.data());
        s.row.clear();
        if (mode == RankMode::full) {
          // All ranks: sort both rows by (distance, index).
          for (auto [d, keys, rank] : {std::tie(s.dx, s.sorted, s.rank_x), std::tie(s.dy, s.sorted, s.rank_y)}) {
            sort_row(d.data(), n, i, keys, s.radix_buffer);
            for (std::size_t p = 0; p < keys.size(); ++p) rank[std::size_t(keys[p].index)] = index_t(p + 1);
          }
          for (index_t j = 0; j < n; ++j)
            if (j != i) s.row.push_back({j, s.rank_x[std::size_t(j)], s.rank_y[std::size_t(j)]});
        } else {
          // The k_cap nearest in each space have known ranks; the others of the union are counted.
          select_smallest(s.dx.data(), n, i, k_cap, s.kx);
          select_smallest(s.dy.data(), n, i, k_cap, s.ky);
          for (std::size_t p = 0; p < s.kx.size(); ++p) s.rank_x[std::size_t(s.kx[p].index)] = index_t(p + 1);
          for (std::size_t p = 0; p < s.ky.size(); ++p) s.rank_y[std::size_t(s.ky[p].index)] = index_t(p + 1);
          // Y-neighbors without an X rank, then X-neighbors without a Y rank.
          for (auto [near, d, rank] : {std::tie(s.ky, s.dx, s.rank_x), std::tie(s.kx, s.dy, s.rank_y)}) {
            s.queries.clear();
            for (const auto& key : near)
              if (rank[std::size_t(key.index)] == 0) s.queries.push_back({d[std::size_t(key.index)], key.index});
            std::sort(s.queries.begin(), s.queries.end());
            count_ranks<T>(d.data(), n, i, s.queries, s.count_scratch, s.counts);
            for (std::size_t m = 0; m < s.queries.size(); ++m) rank[std::size_t(s.queries[m].index)] = s.counts[m];
          }
          for (const auto& key : s.kx)
            s.row.push_back({key.index, s.rank_x[std::size_t(key.index)], s.rank_y[std::size_t(key.index)]});
          for (const auto& key : s.ky)
            if (s.rank_x[std::size_t(key.index)] > k_cap)
              s.row.push_back({key.index, s.rank_x[std::size_t(key.index)], s.rank_y[std::size_t(key.index)]});
          // Same order as the full mode, so per-point floating-point sums are bitwise identical.
          std::sort(s.row.begin(), s.row.end(), [](const RankPair& a, const RankPair& b) { return a.j < b.j; });
          for (const auto& pair : s.row) s.rank_x[std::size_t(pair.j)] = s.rank_y[std::size_t(pair.j)] = 0;
        }
        visit(i, std::span<const RankPair>(s.row), thread);
      },
      progress, "the rank measures", 4);
}

/// One engine pass feeding every accumulator: each has add(i, row, thread) under the rules of
/// visit_rank_rows(); `progress` as there.
template <Real T, class... Accumulators>
void accumulate_ranks(const InputView<T>& X, const InputView<T>& Y, index_t k_cap, RankMode mode,
                      const ProgressCallback& progress, Accumulators&... accumulators) {
  visit_rank_rows(
      X, Y, k_cap, mode,
      [&](index_t i, std::span<const RankPair> row, int thread) { (accumulators.add(i, row, thread), ...); },
      progress);
}

}  // namespace nldr::metrics::detail
