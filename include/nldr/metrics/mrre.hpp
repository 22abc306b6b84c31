// Mean relative rank errors, both directions (Lee & Verleysen 2007, "Nonlinear Dimensionality
// Reduction", Springer, sec. 6.2 eqs. 6.3-6.4; Lee & Verleysen 2009, Neurocomputing 72, sec. 4.2).
//
// Which rank divides: the book's eqs. 6.3-6.4 divide the sum over one space's K-neighborhood by the rank
// in that SAME space, as do the implementations that cite the book (tf-projection-qm, ZADU, Moor et al.'s
// topological-autoencoder evaluation). nldr first divided by the rank in the OTHER space, as its authors
// read Lee & Verleysen 2009; both are offered, named, the book's by default (docs/metrics.md, "Mean
// relative rank errors"). Normalization H_K = N sum_{k=1}^{K} |N - 2k| / k (Lee & Verleysen 2009): the
// largest same-space sum under ranks 1..N-1 (the order reversed, rank k <-> N - k), so same-space values
// lie in [0, 1]; other-space terms are at most K - 1 each, so those values stay far below 1 for K << N.
#pragma once

#include <nldr/core/types.hpp>
#include <nldr/metrics/input.hpp>
#include <nldr/metrics/ranks.hpp>

#include <cstdlib>
#include <span>
#include <vector>

namespace nldr::metrics {

/// Which rank divides each rank error |rho_ij - r_ij|.
enum class MrreDenominator {
  /// The rank in the space whose K-neighborhood is summed over: rho_ij for N_K(i), r_ij for M_K(i)
  /// (Lee & Verleysen 2007, eqs. 6.3-6.4). The default.
  same_space,
  /// The rank in the other space: r_ij for N_K(i), rho_ij for M_K(i) (nldr's reading of Lee & Verleysen
  /// 2009, sec. 4.2; what nldr computed before the default changed).
  other_space,
};

/// Both mean relative rank errors at one K, in [0, 1]. 0 is ideal (all ranks kept); larger is worse.
struct Mrre {
  /// MRRE_X(K) = (1/H_K) sum_i sum_{j in N_K(i)} |rho_ij - r_ij| / (rho_ij, or r_ij with other_space):
  /// X's neighbors, how far they moved in Y.
  double x = 0;
  /// MRRE_Y(K) = (1/H_K) sum_i sum_{j in M_K(i)} |rho_ij - r_ij| / (r_ij, or rho_ij with other_space):
  /// Y's neighbors, from how far in X they came.
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
  MrreAccumulator(index_t n, index_t K, MrreDenominator denominator)
      : K_(K), same_space_(denominator == MrreDenominator::same_space), x_(std::size_t(n)), y_(std::size_t(n)) {}
  void add(index_t i, std::span<const RankPair> row, int) {
    double sx = 0, sy = 0;
    for (const auto& [j, rho, r] : row) {
      const double error = std::abs(double(rho) - double(r));
      if (rho <= K_) sx += error / (same_space_ ? rho : r);
      if (r <= K_) sy += error / (same_space_ ? r : rho);
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
  bool same_space_;
  std::vector<double> x_, y_;
};

}  // namespace detail

/// MRRE_X(k) and MRRE_Y(k) of the embedding Y (N x d, or precomputed) of X (N x D, or precomputed),
/// 1 <= k <= N - 2, with the book's denominators unless `denominator` says otherwise.
/// About O(N^2 (D + d)) time, O(N) memory per thread.
/// \throws nldr::invalid_argument naming "X", "Y" or "k".
///
/// \code
/// auto e = nldr::metrics::mrre(X, Y, 10);   // e.x, e.y (Lee & Verleysen 2007)
/// auto p = nldr::metrics::mrre(X, Y, 10, nldr::metrics::MrreDenominator::other_space);   // 2009
/// \endcode
template <MetricInput A, MetricInput B>
Mrre mrre(const A& X, const B& Y, index_t k, MrreDenominator denominator = MrreDenominator::same_space) {
  detail::check_scalars<A, B>();
  using T = input_scalar_t<A>;
  const detail::InputView<T> x(X, "X"), y(Y, "Y");
  const index_t n = detail::validate_pair(x, y);
  detail::validate_rank_k(k, n, "k");
  detail::MrreAccumulator accumulator(n, k, denominator);
  detail::accumulate_ranks(x, y, k, detail::RankMode::automatic, {}, accumulator);
  return accumulator.finish();
}

}  // namespace nldr::metrics
