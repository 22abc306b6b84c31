// Spearman's rank correlation of the pairwise distances of X and of Y (Roy 2015, eq. 4.1; Spearman
// 1904): the Pearson correlation of the ranks of the N(N-1)/2 distances, ties given their average
// rank. Without ties this equals 1 - 6 sum d^2 / (T^3 - T), T = N(N-1)/2, Roy 2015's eq. 4.1;
// with ties, the average-rank Pearson form is the standard one (it is what scipy.stats.spearmanr does).
#pragma once

#include <nldr/core/correlation.hpp>
#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/core/types.hpp>
#include <nldr/metrics/input.hpp>
#include <nldr/metrics/pairs.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

namespace nldr::metrics {

/// Spearman's rho with the number of pairs it used.
struct SpearmanResult {
  /// Rank correlation in [-1, 1]; 1 = distances in Y ordered exactly like in X. NaN when all
  /// distances of one side are equal.
  double rho = 0;
  /// Pairs used: N(N-1)/2, or max_pairs when sampled.
  std::uint64_t pairs = 0;
  /// True when a seeded random subsample of pairs was used.
  bool sampled = false;
};

namespace detail {

/// Peak memory of spearman_rho per pair: two distances, then a rank and a sort index per distance.
inline constexpr std::uint64_t bytes_per_pair = 40;

/// Average ranks (1-based; ties share the mean of their positions) of values[0..M).
inline std::vector<double> average_ranks(const std::vector<double>& values) {
  std::vector<std::uint32_t> order(values.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return values[a] < values[b] || (values[a] == values[b] && a < b);
  });
  std::vector<double> ranks(values.size());
  for (std::size_t begin = 0; begin < order.size();) {
    std::size_t end = begin + 1;
    while (end < order.size() && values[order[end]] == values[order[begin]]) ++end;
    const double rank = 0.5 * double(begin + 1 + end);  // mean of positions begin+1..end
    for (std::size_t p = begin; p < end; ++p) ranks[order[p]] = rank;
    begin = end;
  }
  return ranks;
}

}  // namespace detail

/// Spearman's rho between the pairwise distances of X (N x D points or precomputed(N x N)) and Y.
/// All N(N-1)/2 pairs when that is <= sampling.max_pairs, else a seeded sample (see pairs.hpp).
/// Memory about 40 bytes per pair used (default max_pairs 1e6: 40 MB; all pairs up to N = 1414;
/// max_pairs = all_pairs for the exact value at any N), checked before allocating; time O(M log M)
/// for M pairs. \throws nldr::invalid_argument naming "X", "Y" or "max_pairs";
/// nldr::memory_limit_exceeded.
///
/// \code
/// auto s = nldr::metrics::spearman_rho(X, Y);                 // s.rho, s.pairs, s.sampled
/// auto big = nldr::metrics::spearman_rho(X, Y, {.max_pairs = 4'000'000, .seed = 1});
/// auto exact = nldr::metrics::spearman_rho(X, Y, {.max_pairs = nldr::metrics::all_pairs});
/// \endcode
template <MetricInput A, MetricInput B>
SpearmanResult spearman_rho(const A& X, const B& Y, const PairSampling& sampling = {.max_pairs = 1'000'000}) {
  detail::check_scalars<A, B>();
  using T = input_scalar_t<A>;
  const detail::InputView<T> x(X, "X"), y(Y, "Y");
  const index_t n = detail::validate_pair(x, y);
  const PairPlan plan(n, sampling);
  if (plan.count() > std::numeric_limits<std::uint32_t>::max())
    throw_invalid("max_pairs", "Spearman's rho over ", plan.count(), " pairs: at most 2^32 - 1 can be ranked; lower "
                  "max_pairs (a seeded sample)");
  check_memory(plan.count() * detail::bytes_per_pair, nldr::detail::concat("Spearman's rho over ", plan.count(), " pairs"),
               "lower max_pairs (a seeded sample)");
  std::vector<double> dx(plan.count()), dy(plan.count());
  parallel_for(0, plan.blocks(), [&](std::int64_t b) {
    plan.for_each(b, [&](std::uint64_t p, index_t i, index_t j) {
      dx[p] = x.distance(i, j);
      dy[p] = y.distance(i, j);
    });
  });
  const std::vector<double> rx = detail::average_ranks(dx);
  dx = {};
  const std::vector<double> ry = detail::average_ranks(dy);
  PearsonAccumulator pearson;
  for (std::size_t p = 0; p < rx.size(); ++p) pearson.add(rx[p], ry[p]);
  detail::validate_correlated(pearson, "X", "Y", "Spearman's rho");
  return {pearson.correlation(), plan.count(), plan.sampled()};
}

}  // namespace nldr::metrics
