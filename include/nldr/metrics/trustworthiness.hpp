// Trustworthiness and continuity at one neighborhood size (Venna & Kaski 2001, "Neighborhood
// preservation in nonlinear projection methods: an experimental study", ICANN; Venna & Kaski 2006,
// Neural Networks 19). Computed by the shared rank engine with a K-bounded selection, so a call costs
// about O(N^2 (D + d)) time and O(N) memory per thread, whatever the size of N.
//
// Convention vs scikit-learn 1.2 (sklearn.manifold.trustworthiness): the same formula and ranks
// (1..N-1, self excluded) with the normalization G_K = N K (2N - 3K - 1), which sklearn only
// allows for K < N/2; for K >= N/2 we use the other branch G_K = N (N - K)(N - K - 1) (Venna &
// Kaski 2006). sklearn breaks distance ties by whatever np.argsort (quicksort) and NearestNeighbors
// return; nldr breaks them by the smaller index. Without ties, the values agree to rounding.
#pragma once

#include <nldr/core/types.hpp>
#include <nldr/metrics/coranking.hpp>
#include <nldr/metrics/input.hpp>

namespace nldr::metrics {

/// Trustworthiness T(k) of the embedding Y of X: 1 - (2/G_k) sum_i sum_{j in M_k(i) \ N_k(i)}
/// (rho_ij - k), where M_k(i) / N_k(i) are the k nearest of i in Y / X and rho_ij the rank of j in X.
/// In [0, 1]; 1 = every neighbor in Y is a neighbor in X (no "false neighbors"); about 0.5 random.
/// X: N x D points or precomputed(N x N); Y: N x d points or precomputed; 1 <= k <= N - 2.
/// \throws nldr::invalid_argument naming "X", "Y" or "k".
///
/// \code
/// double t = nldr::metrics::trustworthiness(X, Y, 12);
/// \endcode
template <MetricInput A, MetricInput B>
double trustworthiness(const A& X, const B& Y, index_t k) {
  return detail::coranking_summary(X, Y, k, "k", detail::RankMode::automatic).trustworthiness(k);
}

/// Continuity C(k): trustworthiness with the roles of X and Y swapped, i.e. penalizes neighbors in
/// X that are missing from the k-neighborhood in Y by their excess rank r_ij - k. Same ranges.
template <MetricInput A, MetricInput B>
double continuity(const A& X, const B& Y, index_t k) {
  return detail::coranking_summary(X, Y, k, "k", detail::RankMode::automatic).continuity(k);
}

}  // namespace nldr::metrics
