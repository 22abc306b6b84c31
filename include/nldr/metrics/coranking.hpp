// Co-ranking criteria of K-ary neighborhood preservation, for every K at once, without the N x N
// co-ranking matrix: Q_NX, R_NX, LCMC, B_NX, the area under R_NX, trustworthiness and continuity.
//
// References: Lee & Verleysen 2009, "Quality assessment of dimensionality reduction: Rank-based
// criteria", Neurocomputing 72 (co-ranking matrix, Q_NX, B_NX); Chen & Buja 2009, JASA 104 (LCMC);
// Lee, Renard & Verleysen 2013 / Lee, Peluffo-Ordonez & Verleysen 2015, Neurocomputing 169 (R_NX and
// its log-K area); Venna & Kaski 2001/2006 (trustworthiness, continuity); Dupere et al. 2022, eq. 1.1-1.5.
//
// The trick (docs/algorithms.md sec. 4): the pair (i, j) is in both K-neighborhoods exactly when
// K >= max(rho_ij, r_ij), so a histogram of that maximum, prefix-summed, gives Q_NX(K) for every K.
// Intrusions, extrusions and the trustworthiness/continuity penalties are histograms and difference
// arrays over K in the same way. Time O(N^2 log N) (full curve) or about O(N^2) (K <= k_max << N),
// memory O(N) per thread; all counts are integers, so the result is exact and thread-count independent.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/core/types.hpp>
#include <nldr/metrics/input.hpp>
#include <nldr/metrics/ranks.hpp>

#include <Eigen/Core>
#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <utility>
#include <vector>

namespace nldr::metrics {

namespace detail {
class CoRankingBuilder;
}

/// What the co-ranking matrix Q says about K-ary neighborhoods, for K = 1..k_max (k_max <= N - 2):
/// Q_NX and the measures derived from it, which count only pairs with both ranks <= K, stored as
/// O(k_max) integer prefix sums. Ranks follow ranks.hpp (ties by the smaller index). Built by
/// coranking_summary() or, from neighbor lists alone, neighborhood_curves() (neighborhood_curves.hpp).
/// All queries are O(1) except auc_rnx() and the curves (O(k_max)).
class NeighborhoodCurves {
 public:
  /// Number of points N (>= 3).
  index_t n() const { return n_; }
  /// Largest K covered (1 <= k_max <= N - 2).
  index_t k_max() const { return k_max_; }

  /// Q_NX(K) = (1/(K N)) #{(i, j): rho_ij <= K and r_ij <= K}, in [0, 1]; 1 = every K-neighborhood kept.
  double q_nx(index_t K) const { return double(at(both_, K)) / (double(K) * n_); }
  /// R_NX(K) = ((N - 1) Q_NX(K) - K) / (N - 1 - K): 1 perfect, about 0 for a random embedding.
  double r_nx(index_t K) const { return ((n_ - 1.0) * q_nx(K) - K) / (n_ - 1.0 - K); }
  /// LCMC(K) = Q_NX(K) - K / (N - 1) (Chen & Buja 2009): in [-K/(N-1), 1 - K/(N-1)].
  double lcmc(index_t K) const { return q_nx(K) - double(K) / (n_ - 1.0); }
  /// B_NX(K) = (#{r_ij < rho_ij <= K} - #{rho_ij < r_ij <= K}) / (K N): mild intrusions minus mild
  /// extrusions; > 0 means an intrusive embedding. R's coRanking package uses the opposite sign.
  double b_nx(index_t K) const { return double(at(intrusions_, K) - at(extrusions_, K)) / (double(K) * n_); }

  /// Area under R_NX with a log K axis: sum_K R_NX(K)/K / sum_K 1/K over K = 1..k_max (Lee et al.
  /// 2015): 1 perfect, about 0 for a random embedding; the usual AUC when k_max = N - 2.
  double auc_rnx() const {
    double num = 0, den = 0;
    for (index_t K = 1; K <= k_max_; ++K) {
      num += r_nx(K) / K;
      den += 1.0 / K;
    }
    return num / den;
  }
  /// R_NX(K) for K = 1..k_max (element K - 1).
  std::vector<double> r_nx_curve() const { return curve(&NeighborhoodCurves::r_nx); }
  /// Q_NX(K) for K = 1..k_max (element K - 1).
  std::vector<double> q_nx_curve() const { return curve(&NeighborhoodCurves::q_nx); }

 protected:
  friend class detail::CoRankingBuilder;

  std::int64_t at(const std::vector<std::int64_t>& cumulative, index_t K) const {
    if (K < 1 || K > k_max_)
      throw_invalid("K", "K = ", K, " is outside 1..k_max = ", k_max_,
                    ": compute the summary with a larger k_max (at most N - 2 = ", n_ - 2, ")");
    return cumulative[std::size_t(K)];
  }

  index_t n_ = 0, k_max_ = 0;
  std::vector<std::int64_t> both_, intrusions_, extrusions_;

 private:
  std::vector<double> curve(double (NeighborhoodCurves::*measure)(index_t) const) const {
    std::vector<double> values(static_cast<std::size_t>(k_max_));
    for (index_t K = 1; K <= k_max_; ++K) values[std::size_t(K - 1)] = (this->*measure)(K);
    return values;
  }
};

/// The neighborhood curves plus trustworthiness and continuity, whose penalties need the ranks of
/// pairs beyond K as well. Built by coranking_summary().
class CoRankingSummary : public NeighborhoodCurves {
 public:
  /// Trustworthiness T(K) = 1 - (2 / G_K) sum_i sum_{j in M_K(i) \ N_K(i)} (rho_ij - K) (Venna & Kaski
  /// 2001), G_K as in docs/algorithms.md sec. 4 (both branches). In [0, 1]; 1 = no false neighbors in Y.
  double trustworthiness(index_t K) const { return 1.0 - 2.0 * double(penalty(trust_, K)) / normalizer(K); }
  /// Continuity C(K): trustworthiness with X and Y swapped (neighbors of X missing from Y's).
  double continuity(index_t K) const { return 1.0 - 2.0 * double(penalty(cont_, K)) / normalizer(K); }

 private:
  friend class detail::CoRankingBuilder;

  /// Cumulative difference arrays of a trustworthiness-type penalty: count and rank sum over K.
  struct Penalty {
    std::vector<std::int64_t> count, rank_sum;
  };

  std::int64_t penalty(const Penalty& p, index_t K) const { return at(p.rank_sum, K) - std::int64_t(K) * at(p.count, K); }
  double normalizer(index_t K) const {
    const double N = n_;
    return 2 * K < n_ ? N * K * (2 * N - 3.0 * K - 1) : N * (N - K) * (N - K - 1.0);
  }

  Penalty trust_, cont_;
};

namespace detail {

/// Builds a CoRankingSummary from rank rows (see coranking_summary()).
class CoRankingBuilder {
 public:
  /// Per-thread integer histograms over K = 0..k_max + 1; summed in any order, they are exact.
  struct Histograms {
    std::vector<std::int64_t> both, intrusions, extrusions, trust_count, trust_sum, cont_count, cont_sum;
    explicit Histograms(std::size_t size)
        : both(size), intrusions(size), extrusions(size), trust_count(size), trust_sum(size), cont_count(size),
          cont_sum(size) {}
  };

  CoRankingBuilder(index_t n, index_t k_max) : n_(n), k_max_(k_max) {
    threads_.assign(std::size_t(max_threads()), Histograms(std::size_t(k_max) + 2));
  }

  void add(index_t, std::span<const RankPair> row, int thread) {
    Histograms& h = threads_[std::size_t(thread)];
    const index_t cap = k_max_, end = k_max_ + 1;
    for (const auto& [j, rho, r] : row) {
      const index_t both = std::max(rho, r);
      if (both <= cap) ++h.both[std::size_t(both)];
      if (r < rho && rho <= cap) ++h.intrusions[std::size_t(rho)];
      if (rho < r && r <= cap) ++h.extrusions[std::size_t(r)];
      // j is a false neighbor (in Y's K-neighborhood, not in X's) for r <= K < rho, penalty rho - K.
      if (r < rho && r <= cap) {
        ++h.trust_count[std::size_t(r)];
        h.trust_sum[std::size_t(r)] += rho;
        --h.trust_count[std::size_t(std::min(rho, end))];
        h.trust_sum[std::size_t(std::min(rho, end))] -= rho;
      }
      // j is a missing neighbor (in X's, not in Y's) for rho <= K < r, penalty r - K.
      if (rho < r && rho <= cap) {
        ++h.cont_count[std::size_t(rho)];
        h.cont_sum[std::size_t(rho)] += r;
        --h.cont_count[std::size_t(std::min(r, end))];
        h.cont_sum[std::size_t(std::min(r, end))] -= r;
      }
    }
  }

  /// Every measure; the rows added must follow visit_rank_rows()'s rule.
  CoRankingSummary finish() const {
    CoRankingSummary s;
    fill(s, {{&s.both_, &Histograms::both},
             {&s.intrusions_, &Histograms::intrusions},
             {&s.extrusions_, &Histograms::extrusions},
             {&s.trust_.count, &Histograms::trust_count},
             {&s.trust_.rank_sum, &Histograms::trust_sum},
             {&s.cont_.count, &Histograms::cont_count},
             {&s.cont_.rank_sum, &Histograms::cont_sum}});
    return s;
  }

  /// The neighborhood curves only; enough that the rows added hold every pair with both ranks <= k_max.
  NeighborhoodCurves finish_curves() const {
    NeighborhoodCurves s;
    fill(s, {{&s.both_, &Histograms::both}, {&s.intrusions_, &Histograms::intrusions}, {&s.extrusions_, &Histograms::extrusions}});
    return s;
  }

 private:
  using Histogram = std::vector<std::int64_t> Histograms::*;

  /// Sets N and k_max of `s`, and each target to its histogram summed over threads and prefix-summed over K.
  void fill(NeighborhoodCurves& s,
            std::initializer_list<std::pair<std::vector<std::int64_t>*, Histogram>> targets) const {
    s.n_ = n_;
    s.k_max_ = k_max_;
    const std::size_t size = std::size_t(k_max_) + 2;
    for (const auto& [target, histogram] : targets) {
      target->assign(size, 0);
      for (const Histograms& h : threads_)
        for (std::size_t K = 0; K < size; ++K) (*target)[K] += (h.*histogram)[K];
      for (std::size_t K = 1; K < size; ++K) (*target)[K] += (*target)[K - 1];
    }
  }

  index_t n_, k_max_;
  std::vector<Histograms> threads_;
};

/// The summary for K <= k_max (nullopt: N - 2); k_max is validated under the name `k_name`.
template <MetricInput A, MetricInput B>
CoRankingSummary coranking_summary(const A& X, const B& Y, std::optional<index_t> k_max, const char* k_name,
                                   RankMode mode) {
  check_scalars<A, B>();
  using T = input_scalar_t<A>;
  const InputView<T> x(X, "X"), y(Y, "Y");
  const index_t n = validate_pair(x, y);
  const index_t cap = k_max.value_or(n - 2);
  validate_rank_k(cap, n, k_name);
  CoRankingBuilder builder(n, cap);
  accumulate_ranks(x, y, cap, mode, {}, builder);
  return builder.finish();
}

}  // namespace detail

/// The co-ranking summary of X (N x D points, or precomputed(N x N distances)) and Y (N x d, or
/// precomputed) for K = 1..k_max; k_max = 0 (default) means N - 2, the whole curve.
/// Cost: O(N^2 log N) time for the whole curve; about O(N^2 (D + d)) for k_max << N (partial
/// selection, exact ranks counted); O(N + k_max) memory per thread. Parallel; thread-count independent.
/// \throws nldr::invalid_argument for non-finite or empty inputs ("X"/"Y"), different N ("Y"),
/// N < 3 ("X"), k_max outside 0..N-2 ("k_max").
///
/// \code
/// auto s = nldr::metrics::coranking_summary(X, Y);          // X: N x D, Y: N x 2
/// double r10 = s.r_nx(10), t10 = s.trustworthiness(10), auc = s.auc_rnx();
/// auto fast = nldr::metrics::coranking_summary(X, Y, 100);  // K <= 100 only, large N
/// \endcode
template <MetricInput A, MetricInput B>
CoRankingSummary coranking_summary(const A& X, const B& Y, index_t k_max = 0,
                                   detail::RankMode mode = detail::RankMode::automatic) {
  return detail::coranking_summary(X, Y, k_max == 0 ? std::nullopt : std::optional<index_t>(k_max), "k_max", mode);
}

/// The whole R_NX(K) curve, K = 1..N-2 (element K - 1), for plots: see coranking_summary().
template <MetricInput A, MetricInput B>
std::vector<double> rnx_curve(const A& X, const B& Y) {
  return coranking_summary(X, Y).r_nx_curve();
}

/// The explicit (N-1) x (N-1) co-ranking matrix, Q(k-1, l-1) = #{(i, j): rho_ij = k, r_ij = l}
/// (Lee & Verleysen 2009, eq. 1; Dupere et al. 2022, eq. 1.2), for small N and plots. Memory: (N-1)^2 int64
/// per thread; refused with nldr::memory_limit_exceeded when that exceeds `memory_limit_bytes`
/// (0: the available memory). Use coranking_summary() for the criteria at large N.
template <MetricInput A, MetricInput B>
Eigen::Matrix<std::int64_t, Eigen::Dynamic, Eigen::Dynamic> coranking_matrix(const A& X, const B& Y,
                                                                             std::uint64_t memory_limit_bytes = 0) {
  detail::check_scalars<A, B>();
  using T = input_scalar_t<A>;
  using Counts = Eigen::Matrix<std::int64_t, Eigen::Dynamic, Eigen::Dynamic>;
  const detail::InputView<T> x(X, "X"), y(Y, "Y");
  const index_t n = detail::validate_pair(x, y);
  const auto threads = std::uint64_t(max_threads());
  check_memory(threads * std::uint64_t(n - 1) * std::uint64_t(n - 1) * sizeof(std::int64_t),
               "the explicit co-ranking matrix", "use coranking_summary(), which needs O(N) memory",
               memory_limit_bytes);
  std::vector<Counts> per_thread(threads, Counts::Zero(n - 1, n - 1));
  detail::visit_rank_rows(x, y, n - 1, detail::RankMode::full,
                          [&](index_t, std::span<const detail::RankPair> row, int thread) {
                            Counts& q = per_thread[std::size_t(thread)];
                            for (const auto& pair : row) ++q(pair.rho - 1, pair.r - 1);
                          });
  Counts q = Counts::Zero(n - 1, n - 1);
  for (const Counts& part : per_thread) q += part;
  return q;
}

}  // namespace nldr::metrics
