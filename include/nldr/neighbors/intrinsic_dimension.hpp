// Intrinsic dimension from nearest-neighbor distances: the Levina-Bickel maximum-likelihood estimator
// with MacKay & Ghahramani's correction, and TwoNN (Facco et al. 2017). docs/tuning.md, "Intrinsic
// dimension", has the derivations in brief, the known biases and the failure modes.
//
// Both estimators model the points near x as a Poisson process of constant density on a d-dimensional
// manifold, so that distance ratios to the nearest neighbors depend on d only. Exact duplicate points
// violate the model (a distance of 0 makes the log ratios infinite) and carry no information about d:
// both estimators drop every repeated row first and report how many they dropped.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/random.hpp>
#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>
#include <nldr/neighbors/graph.hpp>
#include <nldr/neighbors/knn.hpp>
#include <nldr/neighbors/selector.hpp>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

namespace nldr {

/// Options of mle_intrinsic_dimension().
struct MleDimensionOptions {
  /// Neighborhood sizes averaged over: k = k_min..k_max, 2 <= k_min <= k_max <= (distinct points) - 1.
  /// Levina & Bickel (2005) use 10..20: small k suffers from variance, large k from curvature and
  /// density changes (both bias the estimate down on curved or bounded manifolds).
  index_t k_min = 10, k_max = 20;
  /// How the k_max-nearest-neighbor search runs (the result does not depend on it).
  SearchBackend backend = SearchBackend::automatic;
};

/// The maximum-likelihood intrinsic dimension and what it was computed from.
struct MleDimension {
  /// Mean of per_k over k = k_min..k_max, as Levina & Bickel (2005) average over a range of k.
  double estimate = 0;
  /// The k values, k_min..k_max.
  std::vector<index_t> k{};
  /// m_k for each k: the inverse of the mean over points of the inverse local estimates
  /// (MacKay & Ghahramani 2005), each inverse (1/(k-1)) sum_{j<k} log(T_k / T_j).
  std::vector<double> per_k{};
  /// Distinct points the estimate used.
  index_t points_used = 0;
  /// Rows of X dropped as exact repeats of an earlier row.
  index_t duplicates_removed = 0;
};

/// Options of twonn_intrinsic_dimension().
struct TwoNnOptions {
  /// Fraction of the largest ratios mu = T_2 / T_1 left out of the fit, in [0, 1): Facco et al. (2017)
  /// discard 10%, where the ratios come from neighbors far enough to feel curvature and density changes.
  /// The largest ratio is always left out (its empirical distribution value is 1, log(1 - 1) infinite).
  double discard_fraction = 0.1;
  /// Coverage of the confidence interval, in (0, 1).
  double confidence = 0.95;
  /// Bootstrap replicates of the interval (>= 10): resampled points, the same fit, percentile interval.
  index_t bootstrap = 500;
  /// Seed of the bootstrap; the interval is identical for every thread count.
  std::uint64_t seed = 0;
  /// How the 2-nearest-neighbor search runs (the result does not depend on it).
  SearchBackend backend = SearchBackend::automatic;
};

/// The TwoNN intrinsic dimension with its bootstrap confidence interval.
struct TwoNnDimension {
  /// The slope of -log(1 - F(mu)) against log(mu) through the origin (Facco et al. 2017).
  double estimate = 0;
  /// Percentile bootstrap interval [lower, upper] of the estimate at `confidence`.
  double lower = 0, upper = 0;
  double confidence = 0;
  /// Distinct points (ratios) computed, and how many of the largest ratios the fit left out.
  index_t points_used = 0, discarded = 0;
  /// Rows of X dropped as exact repeats of an earlier row.
  index_t duplicates_removed = 0;
};

namespace detail {

/// X without the rows that repeat an earlier row (first occurrences kept, in their order), and how
/// many were dropped. O(N log N D).
template <Real T, class Derived>
std::pair<Matrix<T>, index_t> distinct_rows(const Eigen::MatrixBase<Derived>& X) {
  const index_t n = index_t(X.rows());
  std::vector<index_t> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), index_t{0});
  const auto row_less = [&](index_t a, index_t b) {
    for (Eigen::Index c = 0; c < X.cols(); ++c)
      if (X(a, c) != X(b, c)) return X(a, c) < X(b, c);
    return a < b;  // equal rows: the earlier one first, so it is the one kept
  };
  std::sort(order.begin(), order.end(), row_less);
  std::vector<index_t> kept;
  for (std::size_t p = 0; p < order.size(); ++p)
    if (p == 0 || X.row(order[p]) != X.row(order[p - 1])) kept.push_back(order[p]);
  std::sort(kept.begin(), kept.end());
  Matrix<T> distinct(Eigen::Index(kept.size()), X.cols());
  for (std::size_t p = 0; p < kept.size(); ++p) distinct.row(Eigen::Index(p)) = X.row(kept[p]);
  return {std::move(distinct), n - index_t(kept.size())};
}

/// The k-nearest-neighbor graph of the distinct rows of X, refusing zero distances between distinct
/// rows (they underflow in T) since every log ratio needs T_1 > 0. `min_k` names what k the caller needs.
template <Real T>
NeighborGraph<T> distinct_neighbors(const Matrix<T>& distinct, index_t k, SearchBackend backend, const char* k_name) {
  if (distinct.rows() < 3)
    throw_invalid("X", "X has ", distinct.rows(), " distinct point(s): intrinsic dimension needs at least 3 distinct points");
  if (k >= distinct.rows())
    throw_invalid(k_name, k_name, " = ", k, " must be < the number of distinct points, ", distinct.rows(),
                  ": lower ", k_name, " or supply more points");
  NeighborGraph<T> graph = KNearest{.k = k, .backend = backend}(distinct);
  for (index_t i = 0; i < graph.size(); ++i)
    if (graph.distances(i)[0] == T(0))
      throw_invalid("X", "distinct points ", i, " and ", graph.neighbors(i)[0], " (after removing repeated rows) are at",
                    " distance 0 in the ", sizeof(T) * 8, "-bit scalar type: rescale X (e.g. standardize it) or use double");
  return graph;
}

/// Facco et al.'s fit on ascending ratios: slope through the origin of y_i = -log(1 - i/n) against
/// x_i = log mu_(i), i = 1..kept, where mu_(i) is the i-th smallest and `count[p]` says how often the
/// p-th smallest occurs (1 each for the sample itself, bootstrap multiplicities otherwise).
inline double twonn_slope(const std::vector<double>& log_mu, const std::vector<index_t>* count, index_t kept) {
  const double n = double(log_mu.size());
  double sxy = 0, sxx = 0;
  index_t position = 0;
  for (std::size_t p = 0; p < log_mu.size() && position < kept; ++p) {
    const index_t copies = count ? (*count)[p] : 1;
    for (index_t c = 0; c < copies && position < kept; ++c) {
      ++position;
      const double y = -std::log1p(-double(position) / n);
      sxy += log_mu[p] * y;
      sxx += log_mu[p] * log_mu[p];
    }
  }
  return sxx > 0 ? sxy / sxx : std::numeric_limits<double>::infinity();  // every ratio 1: no finite slope
}

}  // namespace detail

/// Levina & Bickel's (2005) maximum-likelihood intrinsic dimension with MacKay & Ghahramani's (2005)
/// correction, from the distances T_1 <= ... <= T_k of every distinct point to its k nearest others:
/// m_k = [ (1/n) sum_i (1/(k-1)) sum_{j<k} log(T_k(i) / T_j(i)) ]^(-1), averaged over k = k_min..k_max.
/// Averaging the inverses (each an unbiased estimate of 1/d under the Poisson model) instead of the
/// local estimates removes the upward bias of Levina & Bickel's original average. Known bias: down
/// for large d at fixed N (the neighbors reach the boundary or the curvature), a few percent at d <= 5.
/// Cost: one exact kNN search at k_max plus O(N k_max). Thread-count independent.
/// \throws nldr::invalid_argument naming "X" (empty, non-finite, fewer than 3 distinct points,
/// distinct points at distance 0 in T, all neighbors of every point equidistant), "k_min" or "k_max".
///
/// \code
/// auto mle = nldr::mle_intrinsic_dimension(X);            // k = 10..20
/// mle.estimate; mle.per_k; mle.duplicates_removed;
/// \endcode
template <class Derived>
MleDimension mle_intrinsic_dimension(const Eigen::MatrixBase<Derived>& X, const MleDimensionOptions& options = {}) {
  using T = typename Derived::Scalar;
  static_assert(Real<T>, "nldr::mle_intrinsic_dimension: the points must be float or double");
  validate_points(X, "X");
  if (options.k_min < 2)
    throw_invalid("k_min", "k_min = ", options.k_min, " must be >= 2: the estimator compares the k-th distance with the nearer ones");
  if (options.k_max < options.k_min)
    throw_invalid("k_max", "k_max = ", options.k_max, " must be >= k_min = ", options.k_min);
  validate_distance_range<T>(X, 1, "X");
  auto [distinct, duplicates] = detail::distinct_rows<T>(X);
  const NeighborGraph<T> graph = detail::distinct_neighbors(distinct, options.k_max, options.backend, "k_max");
  const index_t n = graph.size(), span = options.k_max - options.k_min + 1;

  // inverse_sum[k - k_min] = sum over points of (1/(k-1)) sum_{j<k} log(T_k / T_j), in point order.
  std::vector<double> inverse_sum(std::size_t(span), 0.0);
  for (index_t i = 0; i < n; ++i) {
    const auto t = graph.distances(i);
    double log_sum = 0;  // sum_{j < k} log T_j
    for (index_t k = 1; k <= options.k_max; ++k) {
      const double log_tk = std::log(double(t[std::size_t(k - 1)]));
      if (k >= options.k_min) inverse_sum[std::size_t(k - options.k_min)] += log_tk - log_sum / double(k - 1);
      log_sum += log_tk;
    }
  }
  MleDimension result;
  result.points_used = n;
  result.duplicates_removed = duplicates;
  for (index_t k = options.k_min; k <= options.k_max; ++k) {
    const double mean_inverse = inverse_sum[std::size_t(k - options.k_min)] / double(n);
    if (!(mean_inverse > 0))
      throw_invalid("X", "the ", k, " nearest neighbors of every point of X are equidistant (a lattice?), so the ",
                    "likelihood has no finite maximum at k = ", k, ": use larger k or TwoNN");
    result.k.push_back(k);
    result.per_k.push_back(1.0 / mean_inverse);
  }
  result.estimate = std::accumulate(result.per_k.begin(), result.per_k.end(), 0.0) / double(span);
  return result;
}

/// TwoNN (Facco, d'Errico, Rodriguez & Laio 2017, Sci. Rep. 7:12140): the ratio mu = T_2 / T_1 of each
/// distinct point's two nearest distances follows F(mu) = 1 - mu^(-d) under a locally constant density,
/// so -log(1 - F(mu)) = d log(mu); d is the least-squares slope through the origin over the smallest
/// (1 - discard_fraction) of the ratios, F taken as the empirical distribution. The interval resamples
/// the points (percentile bootstrap, seeded). Needs only the 2 nearest neighbors: insensitive to
/// density changes and curvature beyond them, sensitive to noise at that scale (noise of dimension D
/// raises the estimate towards D). Cost: one 2-NN search, O(N log N), O(bootstrap N) for the interval.
/// \throws nldr::invalid_argument naming "X" (as mle_intrinsic_dimension), "discard_fraction",
/// "confidence" or "bootstrap".
///
/// \code
/// auto two = nldr::twonn_intrinsic_dimension(X, {.discard_fraction = 0.1, .seed = 7});
/// two.estimate; two.lower; two.upper;
/// \endcode
template <class Derived>
TwoNnDimension twonn_intrinsic_dimension(const Eigen::MatrixBase<Derived>& X, const TwoNnOptions& options = {}) {
  using T = typename Derived::Scalar;
  static_assert(Real<T>, "nldr::twonn_intrinsic_dimension: the points must be float or double");
  validate_points(X, "X");
  if (!(options.discard_fraction >= 0 && options.discard_fraction < 1))
    throw_invalid("discard_fraction", "discard_fraction = ", options.discard_fraction,
                  " must lie in [0, 1): it is the fraction of the largest ratios left out (Facco et al.: 0.1)");
  if (!(options.confidence > 0 && options.confidence < 1))
    throw_invalid("confidence", "confidence = ", options.confidence, " must lie in (0, 1), e.g. 0.95");
  if (options.bootstrap < 10)
    throw_invalid("bootstrap", "bootstrap = ", options.bootstrap, " replicates are too few for an interval: use >= 10 (default 500)");
  validate_distance_range<T>(X, 1, "X");
  auto [distinct, duplicates] = detail::distinct_rows<T>(X);
  const NeighborGraph<T> graph = detail::distinct_neighbors(distinct, 2, options.backend, "X");
  const index_t n = graph.size();

  std::vector<double> log_mu(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) log_mu[std::size_t(i)] = std::log(double(graph.distances(i)[1]) / double(graph.distances(i)[0]));
  std::sort(log_mu.begin(), log_mu.end());
  const index_t kept = std::min<index_t>(n - 1, index_t(std::floor((1 - options.discard_fraction) * double(n))));
  if (log_mu[std::size_t(kept - 1)] <= 0)
    throw_invalid("X", "the two nearest neighbors of at least ", kept, " of the ", n, " distinct points are equidistant ",
                  "(a lattice?), so TwoNN has no slope to fit: use the maximum-likelihood estimator with larger k");

  TwoNnDimension result;
  result.estimate = detail::twonn_slope(log_mu, nullptr, kept);
  result.confidence = options.confidence;
  result.points_used = n;
  result.discarded = n - kept;
  result.duplicates_removed = duplicates;

  // Bootstrap: replicate b draws n points with replacement from its own generator, as multiplicities
  // of the sorted ratios, so the fit walks them in order without sorting again.
  std::vector<double> replicates(std::size_t(options.bootstrap));
  std::vector<std::vector<index_t>> counts(std::size_t(std::max(1, max_threads())));
  parallel_for(
      0, options.bootstrap,
      [&](std::int64_t b) {
        std::vector<index_t>& count = counts[std::size_t(thread_index())];
        count.assign(std::size_t(n), 0);
        Random random(options.seed ^ (0x9e3779b97f4a7c15ULL * std::uint64_t(b + 1)));
        for (index_t draw = 0; draw < n; ++draw) ++count[std::size_t(random.below(std::uint64_t(n)))];
        replicates[std::size_t(b)] = detail::twonn_slope(log_mu, &count, kept);
      },
      8);
  std::sort(replicates.begin(), replicates.end());
  const auto quantile = [&](double q) {  // linear interpolation between order statistics
    const double position = q * double(replicates.size() - 1);
    const auto low = std::size_t(std::floor(position));
    const std::size_t high = std::min(low + 1, replicates.size() - 1);
    return replicates[low] + (position - double(low)) * (replicates[high] - replicates[low]);
  };
  result.lower = quantile((1 - options.confidence) / 2);
  result.upper = quantile((1 + options.confidence) / 2);
  return result;
}

}  // namespace nldr
