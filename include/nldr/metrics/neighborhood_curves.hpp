// Q_NX, R_NX, LCMC and B_NX for K <= k_max << N from the nearest neighbors in X and in Y alone.
//
// These measures count a pair only when both of its ranks are <= K (docs/algorithms.md sec. 4), so
// the k_max nearest neighbors in each space hold everything they need: an exact neighbor search (a
// k-d tree in low D) replaces the rank engine's O(N^2 (D + d)) rows. The numbers equal
// coranking_summary(X, Y, k_max)'s exactly (tests/metrics/neighborhood_curves.cpp).
//
// Why the lists are searched a little longer than k_max: the rank rule orders by squared distance,
// KNearest by its square root rounded to T (then both by index), and the two orders differ where
// square roots of different squares round alike. Each list is re-sorted by (squared distance,
// index) and trusted only when its k_max-th entry is strictly nearer than the last point found: no
// point outside the list can then rank within k_max. A point whose list fails that falls back to
// the rank engine's selection over all N.
#pragma once

#include <nldr/core/parallel.hpp>
#include <nldr/core/types.hpp>
#include <nldr/metrics/coranking.hpp>
#include <nldr/metrics/input.hpp>
#include <nldr/metrics/ranks.hpp>
#include <nldr/neighbors/detail/distance.hpp>
#include <nldr/neighbors/graph.hpp>
#include <nldr/neighbors/knn.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

namespace nldr::metrics {

/// How many neighbors per point neighborhood_curves() searches for K <= k_max among N points.
inline index_t curve_neighbors(index_t k_max, index_t n) {
  return std::min<index_t>(n - 1, k_max + std::max<index_t>(4, k_max / 8));
}

namespace detail {

/// The `count` nearest points to i by the rank rule (ranks.hpp), from `graph`'s list of i when it
/// certifies them (see the file comment), else from all N distances of the input `view`.
template <Real T>
void nearest_by_rank_rule(const NeighborGraph<T>& graph, const nldr::detail::PointRows<T>& rows, const InputView<T>& view,
                          index_t i, index_t count, std::vector<T>& row_scratch, std::vector<RankKey<T>>& out) {
  const auto list = graph.neighbors(i);
  out.clear();
  for (index_t j : list) out.push_back({nldr::detail::squared_distance(rows.row(i), rows.row(j), rows.cols), j});
  std::sort(out.begin(), out.end());
  const bool whole = index_t(list.size()) == rows.rows - 1;
  if (whole || T(std::sqrt(out[std::size_t(count - 1)].value)) < graph.distances(i).back()) {
    out.resize(std::size_t(count));
    return;
  }
  row_scratch.resize(std::size_t(rows.rows));
  view.ranking_row(i, row_scratch.data());
  select_smallest(row_scratch.data(), rows.rows, i, count, out);
}

}  // namespace detail

/// The neighborhood curves of Y (N x d) against X (N x D), K = 1..k_max, given `x_neighbors` =
/// KNearest{curve_neighbors(k_max, N)}(X) (a sweep over embeddings of one X computes it once).
/// Equal to coranking_summary(X, Y, k_max) restricted to NeighborhoodCurves. Cost: one kNN search
/// of Y plus O(N k_max log k_max); memory O(N k_max). Parallel; thread-count independent.
/// \throws nldr::invalid_argument for non-finite inputs ("X"/"Y"), different N ("Y"), N < 3 ("X"),
/// k_max outside 1..N-2 ("k_max"), or `x_neighbors` not of that size ("x_neighbors").
template <Real T>
NeighborhoodCurves neighborhood_curves(const Matrix<T>& X, const NeighborGraph<T>& x_neighbors, const Matrix<T>& Y,
                                       index_t k_max) {
  const detail::InputView<T> x(X, "X"), y(Y, "Y");
  const index_t n = detail::validate_pair(x, y);
  detail::validate_rank_k(k_max, n, "k_max");
  const index_t searched = curve_neighbors(k_max, n);
  if (x_neighbors.size() != n || x_neighbors.num_edges() != offset_t(n) * searched)
    throw_invalid("x_neighbors", "x_neighbors must be KNearest{curve_neighbors(k_max, N) = ", searched,
                  "}(X) of the same X (N = ", n, ")");
  const NeighborGraph<T> y_neighbors = KNearest{.k = int(searched)}(Y);
  const nldr::detail::PointRows<T> x_rows(X), y_rows(Y);

  struct Scratch {
    std::vector<T> row;
    std::vector<detail::RankKey<T>> kx, ky;
    std::vector<index_t> rank_x;
    std::vector<detail::RankPair> pairs;
  };
  std::vector<Scratch> scratch(static_cast<std::size_t>(max_threads()));
  detail::CoRankingBuilder builder(n, k_max);
  parallel_for(0, n, [&](std::int64_t point) {
    const auto i = index_t(point);
    const int thread = thread_index();
    Scratch& s = scratch[std::size_t(thread)];
    s.rank_x.resize(std::size_t(n), 0);
    detail::nearest_by_rank_rule(x_neighbors, x_rows, x, i, k_max, s.row, s.kx);
    detail::nearest_by_rank_rule(y_neighbors, y_rows, y, i, k_max, s.row, s.ky);
    for (std::size_t p = 0; p < s.kx.size(); ++p) s.rank_x[std::size_t(s.kx[p].index)] = index_t(p + 1);
    s.pairs.clear();
    for (std::size_t q = 0; q < s.ky.size(); ++q)
      if (const index_t rho = s.rank_x[std::size_t(s.ky[q].index)]; rho > 0) s.pairs.push_back({s.ky[q].index, rho, index_t(q + 1)});
    for (const auto& key : s.kx) s.rank_x[std::size_t(key.index)] = 0;
    builder.add(i, s.pairs, thread);
  });
  return builder.finish_curves();
}

/// As above, searching X's neighbors too.
template <Real T>
NeighborhoodCurves neighborhood_curves(const Matrix<T>& X, const Matrix<T>& Y, index_t k_max) {
  detail::validate_rank_k(k_max, index_t(X.rows()), "k_max");
  const index_t searched = curve_neighbors(k_max, index_t(X.rows()));
  return neighborhood_curves(X, KNearest{.k = int(searched)}(X), Y, k_max);
}

}  // namespace nldr::metrics
