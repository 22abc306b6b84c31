// Konig's measure KM(k1, k2) of topology preservation (Konig 2000, "Interactive visualization and
// analysis of hierarchical neural projections for data mining", IEEE Trans. Neural Networks 11(3);
// Roy 2015, eq. 4.2, docs/algorithms.md sec. 4).
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/types.hpp>
#include <nldr/metrics/input.hpp>
#include <nldr/metrics/ranks.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace nldr::metrics::detail {

/// Requires 1 <= k1 <= N - 2 and k1 <= k2 <= N - 1.
inline void validate_konig(index_t k1, index_t k2, index_t n) {
  validate_rank_k(k1, n, "k1");
  if (k2 < k1 || k2 > n - 1)
    throw_invalid("k2", "k2 = ", k2, " must satisfy k1 = ", k1, " <= k2 <= N - 1 = ", n - 1,
                  ": choose k2 between k1 and N - 1 (2 k1 is usual)");
}

/// Per-point Konig scores (integers: exact in any order).
class KonigAccumulator {
 public:
  KonigAccumulator(index_t n, index_t k1, index_t k2) : k1_(k1), k2_(k2), score_(std::size_t(n)) {}
  void add(index_t i, std::span<const RankPair> row, int) {
    std::int64_t score = 0;
    for (const auto& [j, rho, r] : row) {
      if (rho > k1_) continue;
      score += r == rho ? 3 : r <= k1_ ? 2 : r <= k2_ ? 1 : 0;
    }
    score_[std::size_t(i)] = score;
  }
  double finish() const {
    std::int64_t total = 0;
    for (const auto s : score_) total += s;
    return double(total) / (3.0 * k1_ * double(score_.size()));
  }

 private:
  index_t k1_, k2_;
  std::vector<std::int64_t> score_;
};

}  // namespace nldr::metrics::detail

namespace nldr::metrics {

/// Konig's measure: for each i and each j among the k1 nearest of i in X (rho_ij <= k1), score 3 if
/// r_ij == rho_ij (same rank in Y), 2 if r_ij <= k1, 1 if k1 < r_ij <= k2, else 0;
/// KM = total / (3 k1 N). In [0, 1]; 1 = every k1-neighborhood kept with its exact order.
/// X: N x D or precomputed; Y: N x d or precomputed; 1 <= k1 <= N - 2, k1 <= k2 <= N - 1.
/// About O(N^2 (D + d)) time, O(N) memory per thread.
/// \throws nldr::invalid_argument naming "X", "Y", "k1" or "k2".
template <MetricInput A, MetricInput B>
double konig(const A& X, const B& Y, index_t k1, index_t k2) {
  detail::check_scalars<A, B>();
  using T = input_scalar_t<A>;
  const detail::InputView<T> x(X, "X"), y(Y, "Y");
  const index_t n = detail::validate_pair(x, y);
  detail::validate_konig(k1, k2, n);
  detail::KonigAccumulator accumulator(n, k1, k2);
  detail::accumulate_ranks(x, y, k1, detail::RankMode::automatic, {}, accumulator);
  return accumulator.finish();
}

}  // namespace nldr::metrics
