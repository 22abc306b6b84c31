// Mean relative rank errors, both directions (Lee & Verleysen 2007, "Nonlinear Dimensionality
// Reduction", Springer, sec. 6.2 eqs. 6.3-6.4; Lee & Verleysen 2009, Neurocomputing 72, sec. 4.2).
//
// Which rank divides: in the papers the sum over the K-neighborhood of one space is divided by the
// rank in the OTHER space: over X's neighborhood N_K(i) by r_ij (rank in Y), over Y's M_K(i) by rho_ij
// (rank in X). An earlier draft of the specification wrote the own-space rank; we follow the papers
// as we read them (docs/algorithms.md sec. 4),
// and an independent implementation of the book's eqs. 6.3-6.4 (tensorflow-projection-qm) agrees.
// Normalization H_K = N sum_{k=1}^{K} |N - 2k| / k as in Lee & Verleysen 2009 (ranks 1..N-1).
#pragma once

#include <nldr/core/types.hpp>
#include <nldr/metrics/input.hpp>
#include <nldr/metrics/ranks.hpp>

#include <cstdlib>
#include <span>
#include <vector>

namespace nldr::metrics {

/// Both mean relative rank errors at one K. 0 is ideal (all ranks kept); larger is worse.
struct Mrre {
  /// MRRE_X(K) = (1/H_K) sum_i sum_{j in N_K(i)} |rho_ij - r_ij| / r_ij: X's neighbors, moved in Y.
  double x = 0;
  /// MRRE_Y(K) = (1/H_K) sum_i sum_{j in M_K(i)} |rho_ij - r_ij| / rho_ij: Y's neighbors, from where in X.
  double y = 0;
};

namespace detail {

/// H_K = N sum_{k=1}^{K} |N - 2k| / k.
inline double mrre_normalizer(index_t n, index_t K) {
  double sum = 0;
  for (index_t k = 1; k <= K; ++k) sum += std::abs(double(n) - 2.0 * k) / k;
  return double(n) * sum;
}

/// Per-point relative rank errors at K, summed serially in point order at the end.
class MrreAccumulator {
 public:
  MrreAccumulator(index_t n, index_t K) : K_(K), x_(std::size_t(n)), y_(std::size_t(n)) {}
  void add(index_t i, std::span<const RankPair> row, int) {
    double sx = 0, sy = 0;
    for (const auto& [j, rho, r] : row) {
      const double error = std::abs(double(rho) - double(r));
      if (rho <= K_) sx += error / r;
      if (r <= K_) sy += error / rho;
    }
    x_[std::size_t(i)] = sx;
    y_[std::size_t(i)] = sy;
  }
  Mrre finish() const {
    Mrre result;
    for (std::size_t i = 0; i < x_.size(); ++i) {
      result.x += x_[i];
      result.y += y_[i];
    }
    const double h = mrre_normalizer(index_t(x_.size()), K_);
    result.x /= h;
    result.y /= h;
    return result;
  }

 private:
  index_t K_;
  std::vector<double> x_, y_;
};

}  // namespace detail

/// MRRE_X(k) and MRRE_Y(k) of the embedding Y (N x d, or precomputed) of X (N x D, or precomputed),
/// 1 <= k <= N - 2. About O(N^2 (D + d)) time, O(N) memory per thread.
/// \throws nldr::invalid_argument naming "X", "Y" or "k".
///
/// \code
/// auto e = nldr::metrics::mrre(X, Y, 10);   // e.x, e.y
/// \endcode
template <MetricInput A, MetricInput B>
Mrre mrre(const A& X, const B& Y, index_t k) {
  detail::check_scalars<A, B>();
  using T = input_scalar_t<A>;
  const detail::InputView<T> x(X, "X"), y(Y, "Y");
  const index_t n = detail::validate_pair(x, y);
  detail::validate_rank_k(k, n, "k");
  detail::MrreAccumulator accumulator(n, k);
  detail::accumulate_ranks(x, y, k, detail::RankMode::automatic, accumulator);
  return accumulator.finish();
}

}  // namespace nldr::metrics
