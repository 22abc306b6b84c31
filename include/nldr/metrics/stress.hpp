// Kruskal's stress-1 (Kruskal 1964, Psychometrika 29; David 2015, sec. 3.3) and its local variant over
// neighbors plus random pairs (Shi & Gu 2012, as given in David 2015, sec. 4.1.5), each in two forms:
//   plain   S = sqrt(sum (delta_ij - d_ij)^2 / sum delta_ij^2)
//   scaled  the same after the optimal scaling d -> alpha d, alpha = sum delta d / sum d^2, which
//           makes it independent of the embedding's scale (LLE, Laplacian Eigenmaps and LTSA return
//           coordinates of arbitrary scale): S_scaled = min_alpha S(alpha d) <= S.
// delta = distances of the reference X (input or ground truth), d = distances in Y. Both passes
// (sums, then the scaled residual) run over the same pairs, so an exact fit gives exactly 0.
// Also Sammon's stress (Sammon 1969) E = sum (delta_ij - d_ij)^2 / delta_ij / sum delta_ij, which
// weighs the errors of small distances up: what nldr::Sammon minimizes.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/random.hpp>
#include <nldr/core/types.hpp>
#include <nldr/metrics/input.hpp>
#include <nldr/metrics/pairs.hpp>
#include <nldr/metrics/ranks.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

namespace nldr::metrics {

/// Kruskal stress-1 in both forms, with the pairs used.
struct Stress {
  /// Plain stress-1 (David 2015, sec. 3.3), >= 0; 0 = every distance reproduced. Can exceed 1.
  double plain = 0;
  /// Scale-free stress after the optimal scaling alpha, in [0, 1].
  double scaled = 0;
  /// The optimal scale alpha = sum delta d / sum d^2 (0 when every d is 0).
  double alpha = 0;
  /// Pairs used (ordered pairs (i, j) for the local variant).
  std::uint64_t pairs = 0;
  /// True when the global variant used a seeded subsample of pairs.
  bool sampled = false;
};

namespace detail {

/// Sums over pairs (delta = reference distance, d = embedding distance).
struct StressSums {
  double delta2 = 0, d2 = 0, delta_d = 0, residual = 0, scaled_residual = 0;
  std::uint64_t pairs = 0;
};

/// Two passes over the pairs of `blocks` blocks; for_each_pair(b, f) calls f(i, j) for the pairs of
/// block b in a fixed order. Block sums are reduced in block order (thread-count independent).
template <Real T, class ForEachPair>
Stress two_pass_stress(const InputView<T>& ref, const InputView<T>& y, std::int64_t blocks,
                       ForEachPair&& for_each_pair) {
  std::vector<StressSums> sums(static_cast<std::size_t>(blocks));
  parallel_for(0, blocks, [&](std::int64_t b) {
    StressSums& s = sums[std::size_t(b)];
    for_each_pair(b, [&](index_t i, index_t j) {
      const double delta = ref.distance(i, j), d = y.distance(i, j);
      s.delta2 += delta * delta;
      s.d2 += d * d;
      s.delta_d += delta * d;
      s.residual += (delta - d) * (delta - d);
      ++s.pairs;
    });
  });
  StressSums total;
  for (const auto& s : sums) {
    total.delta2 += s.delta2;
    total.d2 += s.d2;
    total.delta_d += s.delta_d;
    total.residual += s.residual;
    total.pairs += s.pairs;
  }
  if (!(total.delta2 > 0))
    throw_invalid("X", "every reference distance of the pairs used is 0 (all points coincide): stress is undefined; "
                       "check the reference data");
  const double alpha = total.d2 > 0 ? total.delta_d / total.d2 : 0.0;
  parallel_for(0, blocks, [&](std::int64_t b) {
    StressSums& s = sums[std::size_t(b)];
    s.scaled_residual = 0;
    for_each_pair(b, [&](index_t i, index_t j) {
      const double e = ref.distance(i, j) - alpha * y.distance(i, j);
      s.scaled_residual += e * e;
    });
  });
  for (const auto& s : sums) total.scaled_residual += s.scaled_residual;
  return {std::sqrt(total.residual / total.delta2), std::sqrt(total.scaled_residual / total.delta2), alpha,
          total.pairs, false};
}

}  // namespace detail

/// Kruskal stress-1 of Y (N x d points or precomputed) against the reference X (N x D points or
/// precomputed, e.g. input or ground-truth distances), over all N(N-1)/2 pairs, or a seeded
/// sample of sampling.max_pairs pairs above that (default 5e7: all pairs up to N ~ 10^4).
/// O(pairs (D + d)) time, O(1) memory per block.
/// \throws nldr::invalid_argument naming "X", "Y" or "max_pairs"; "X" also when all reference
/// distances are 0.
///
/// \code
/// auto s = nldr::metrics::kruskal_stress(X, Y);   // s.plain (David 2015), s.scaled (scale-free)
/// \endcode
template <MetricInput A, MetricInput B>
Stress kruskal_stress(const A& X, const B& Y, const PairSampling& sampling = {}) {
  detail::check_scalars<A, B>();
  using T = input_scalar_t<A>;
  const detail::InputView<T> x(X, "X"), y(Y, "Y");
  const index_t n = detail::validate_pair(x, y);
  const PairPlan plan(n, sampling);
  Stress stress = detail::two_pass_stress(x, y, plan.blocks(), [&](std::int64_t b, auto&& f) {
    plan.for_each(b, [&](std::uint64_t, index_t i, index_t j) { f(i, j); });
  });
  stress.sampled = plan.sampled();
  return stress;
}

/// Sammon's stress with the pairs used.
struct SammonStress {
  double stress = 0;          ///< E >= 0; 0 = every distance reproduced
  std::uint64_t pairs = 0;    ///< pairs used
  bool sampled = false;       ///< true when a seeded subsample of pairs was used
};

/// Sammon's stress (Sammon 1969) E = sum (delta - d)^2 / delta / sum delta of Y (N x d points or
/// precomputed) against the reference X (N x D points or precomputed), over all N(N-1)/2 pairs, or a
/// seeded sample of sampling.max_pairs pairs above that (as kruskal_stress). Not scale-free: compare
/// configurations on the scale of X (as Sammon's mapping returns them). O(pairs (D + d)) time.
/// \throws nldr::invalid_argument naming "X" when two reference points are at distance 0 (E divides
/// by it), "X", "Y" or "max_pairs" on bad input.
///
/// \code
/// double e = nldr::metrics::sammon_stress(X, Y).stress;   // MASS::sammon's `stress`
/// \endcode
template <MetricInput A, MetricInput B>
SammonStress sammon_stress(const A& X, const B& Y, const PairSampling& sampling = {}) {
  detail::check_scalars<A, B>();
  using T = input_scalar_t<A>;
  const detail::InputView<T> x(X, "X"), y(Y, "Y");
  const index_t n = detail::validate_pair(x, y);
  const PairPlan plan(n, sampling);
  struct Sums {
    double weighted = 0, delta = 0;
    index_t zero_i = -1, zero_j = -1;  // first pair at reference distance 0
  };
  std::vector<Sums> sums(static_cast<std::size_t>(plan.blocks()));
  parallel_for(0, plan.blocks(), [&](std::int64_t b) {
    Sums& s = sums[std::size_t(b)];
    plan.for_each(b, [&](std::uint64_t, index_t i, index_t j) {
      const double delta = x.distance(i, j), d = y.distance(i, j);
      if (!(delta > 0)) {
        if (s.zero_i < 0) s.zero_i = i, s.zero_j = j;
        return;
      }
      s.weighted += (delta - d) * (delta - d) / delta;
      s.delta += delta;
    });
  });
  SammonStress result;
  double delta_sum = 0;
  for (const Sums& s : sums) {
    if (s.zero_i >= 0)
      throw_invalid("X", "reference points ", s.zero_i, " and ", s.zero_j, " are at distance 0: Sammon's stress "
                    "divides by every reference distance; remove duplicate points");
    result.stress += s.weighted;
    delta_sum += s.delta;
  }
  result.stress /= delta_sum;
  result.pairs = plan.count();
  result.sampled = plan.sampled();
  return result;
}

/// Options of the local stress: Omega_i = the k nearest of i in X plus `random_pairs` random others.
struct LocalStressOptions {
  /// Nearest neighbors of each point in the reference X, 1 <= k <= N - 1.
  index_t k = 10;
  /// Random other points per point (beta in David 2015), >= 0; duplicates of neighbors count once.
  index_t random_pairs = 10;
  /// Seed of the random pairs (point i draws from its own generator: thread-count independent).
  std::uint64_t seed = 0;
};

/// Local Kruskal stress (David 2015, sec. 4.1.5, after Shi & Gu 2012): stress-1 over the ordered pairs
/// (i, j), j in Omega_i = N_k(i) (k nearest of i in X, ties by the smaller index) united with
/// `random_pairs` uniformly drawn others. Suited to Isomap-like methods, which keep neighborhoods but
/// unfold global distances. O(N^2 D + N (k + random_pairs)(D + d)) time, O(N) memory per thread.
/// \throws nldr::invalid_argument naming "X", "Y", "k" or "random_pairs".
template <MetricInput A, MetricInput B>
Stress local_kruskal_stress(const A& X, const B& Y, const LocalStressOptions& options = {}) {
  detail::check_scalars<A, B>();
  using T = input_scalar_t<A>;
  const detail::InputView<T> x(X, "X"), y(Y, "Y");
  const index_t n = detail::validate_pair(x, y);
  validate_neighbor_count(options.k, n, "k");
  if (options.random_pairs < 0)
    throw_invalid("random_pairs", "random_pairs = ", options.random_pairs, " must be >= 0");
  // Omega_i per point, built once (N (k + random_pairs) indices) and read by both passes.
  std::vector<std::vector<index_t>> omega(static_cast<std::size_t>(n));
  detail::for_each_nearest(x, options.k, [&](index_t i, std::span<const detail::RankKey<T>> nearest) {
    std::vector<index_t>& set = omega[std::size_t(i)];
    for (const auto& key : nearest) set.push_back(key.index);
    Random random(options.seed ^ (0xd1b54a32d192ed03ULL * std::uint64_t(i + 1)));
    for (index_t t = 0; t < options.random_pairs; ++t) {
      auto j = index_t(random.below(std::uint64_t(n - 1)));
      set.push_back(j >= i ? j + 1 : j);
    }
    std::sort(set.begin(), set.end());
    set.erase(std::unique(set.begin(), set.end()), set.end());
  });
  return detail::two_pass_stress(x, y, n, [&](std::int64_t i, auto&& f) {
    for (const index_t j : omega[std::size_t(i)]) f(index_t(i), j);
  });
}

}  // namespace nldr::metrics
