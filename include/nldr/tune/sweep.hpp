// nldr::tune: a sweep over the neighborhood size k that scores every embedding with every criterion of
// criteria.hpp and picks k by one of them (docs/tuning.md, "The sweep").
//
// One exact kNN search at k_max; the graph for each smaller k is the prefix of every list (knn_prefix.hpp),
// which is exactly KNearest{k}. The embedding is the caller's: any callable taking the directed kNN graph
// for one k and returning N x d coordinates, so the sweep serves every graph-based method without
// depending on the embedders.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/progress.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>
#include <nldr/neighbors/graph.hpp>
#include <nldr/neighbors/intrinsic_dimension.hpp>
#include <nldr/neighbors/knn.hpp>
#include <nldr/tune/criteria.hpp>
#include <nldr/tune/knn_prefix.hpp>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <concepts>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace nldr {

/// Options of nldr::tune().
struct TuneOptions {
  /// The values k = k_min, k_min + k_step, ... <= k_max; 1 <= k_min <= k_max <= N - 1, k_step >= 1.
  index_t k_min = 5, k_max = 30, k_step = 1;
  /// The criterion that picks best_k (every criterion is computed and reported).
  TuneCriterion criterion = TuneCriterion::auc_rnx;
  /// How the criteria are computed (curve length, sources, pair samples, seed).
  CriteriaOptions criteria{};
  /// Also estimate the intrinsic dimension (both estimators, default options) and suggest d.
  bool suggest_dimension = true;
  /// How the one kNN search runs (the result does not depend on it).
  SearchBackend backend = SearchBackend::automatic;
  /// Called with the fraction of k values done; returning false cancels (nldr::cancelled).
  ProgressCallback progress{};
};

/// The scores of one k.
struct TuneScore {
  index_t k = 0;
  /// Every criterion (NaN where the embedding failed).
  CriteriaValues values{};
  /// Empty, or why the embedding failed at this k (a disconnected graph, a solver that did not converge).
  std::string failure{};
};

/// What nldr::tune() found.
struct TuneResult {
  /// The k of the best criterion value among the k that did not fail (the smaller k on ties).
  index_t best_k = 0;
  /// The criterion that chose best_k.
  TuneCriterion criterion = TuneCriterion::auc_rnx;
  /// One row per k, in increasing k.
  std::vector<TuneScore> scores{};
  /// The intrinsic-dimension estimates (with suggest_dimension), or why they failed.
  std::optional<MleDimension> mle{};
  std::optional<TwoNnDimension> twonn{};
  std::string dimension_failure{};
  /// round(mle.estimate), at least 1 (0 when not estimated): a target dimension to try.
  index_t suggested_dim = 0;
  /// Wall time: "knn", "embed" and "criteria" (summed over k), "intrinsic_dimension".
  StageTimes times{};
};

/// Sweeps k over [k_min, k_max] in steps of k_step: for each k, embed(graph) with `graph` the directed
/// KNearest{k} graph of X (cut from one search at k_max), then every criterion of the coordinates it
/// returns (evaluate_criteria); best_k optimizes options.criterion. An embedding that throws
/// nldr::disconnected_graph or nldr::convergence_error marks its k as failed and the sweep goes on;
/// any other exception propagates. The progress callback is called after each k.
/// Cost: one kNN search, plus per k the embedding and the criteria (the R_NX curve: O(N^2 log N) unless
/// rank_k_max bounds it; geodesics: O(sources E log N)). Criteria are parallel inside; k runs in sequence.
/// \throws nldr::invalid_argument naming "X" or an option; nldr::cancelled when the callback returns false;
/// nldr::error when every k failed (the message quotes the first failure).
///
/// \code
/// auto result = nldr::tune(X, {.k_min = 5, .k_max = 30, .criterion = nldr::TuneCriterion::auc_rnx},
///                          [](const nldr::NeighborGraph<double>& graph) {
///                            return nldr::Isomap{{.dim = 2}}.fit(X, graph).coordinates;
///                          });
/// result.best_k; result.scores[0].values.geodesic_rv; result.suggested_dim;
/// \endcode
template <class Derived, class EmbedFn>
TuneResult tune(const Eigen::MatrixBase<Derived>& X, const TuneOptions& options, EmbedFn&& embed) {
  using T = typename Derived::Scalar;
  static_assert(Real<T>, "nldr::tune: the points must be float or double");
  static_assert(std::is_invocable_v<EmbedFn&, const NeighborGraph<T>&>,
                "nldr::tune: embed must be callable with the kNN graph (const nldr::NeighborGraph<T>&)");
  validate_points(X, "X", 4);
  if (options.k_min < 1) throw_invalid("k_min", "k_min = ", options.k_min, " must be >= 1");
  if (options.k_max < options.k_min)
    throw_invalid("k_max", "k_max = ", options.k_max, " must be >= k_min = ", options.k_min);
  validate_neighbor_count(options.k_max, X.rows(), "k_max");
  if (options.k_step < 1) throw_invalid("k_step", "k_step = ", options.k_step, " must be >= 1");

  TuneResult result;
  result.criterion = options.criterion;
  const Matrix<T> points = X;
  Stopwatch watch;
  const NeighborGraph<T> widest = KNearest{.k = options.k_max, .backend = options.backend}(points);
  result.times.add("knn", watch.seconds());

  std::vector<index_t> ks;
  for (index_t k = options.k_min; k <= options.k_max; k += options.k_step) ks.push_back(k);
  report_progress(options.progress, 0, "nldr::tune");
  double embed_seconds = 0, criteria_seconds = 0;
  for (std::size_t step = 0; step < ks.size(); ++step) {
    TuneScore score;
    score.k = ks[step];
    const NeighborGraph<T> graph = knn_prefix(widest, score.k);
    watch.restart();
    std::optional<Matrix<T>> Y;
    try {
      Y = Matrix<T>(embed(graph));
    } catch (const disconnected_graph& failure) {
      score.failure = failure.what();
    } catch (const convergence_error& failure) {
      score.failure = failure.what();
    }
    embed_seconds += watch.seconds();
    watch.restart();
    if (Y) {
      validate_same_rows(points.rows(), Y->rows(), "X", "the embedding");
      score.values = evaluate_criteria(points, graph, *Y, options.criteria);
    } else {
      constexpr double nan = std::numeric_limits<double>::quiet_NaN();
      score.values = {nan, nan, 0, nan, 0, nan};
    }
    criteria_seconds += watch.seconds();
    result.scores.push_back(std::move(score));
    report_progress(options.progress, double(step + 1) / double(ks.size()), "nldr::tune");
  }
  result.times.add("embed", embed_seconds);
  result.times.add("criteria", criteria_seconds);

  const TuneScore* best = nullptr;
  for (const TuneScore& score : result.scores) {
    if (!score.failure.empty()) continue;
    const double value = score.values.value(options.criterion), incumbent = best ? best->values.value(options.criterion) : 0;
    if (!best || (higher_is_better(options.criterion) ? value > incumbent : value < incumbent)) best = &score;
  }
  if (!best)
    throw error(detail::concat("nldr::tune: the embedding failed for every k in [", options.k_min, ", ", options.k_max,
                               "]; at k = ", result.scores.front().k, ": ", result.scores.front().failure));
  result.best_k = best->k;

  if (options.suggest_dimension) {
    watch.restart();
    try {
      result.mle = mle_intrinsic_dimension(points, {.backend = options.backend});
      result.suggested_dim = std::max<index_t>(1, index_t(std::lround(result.mle->estimate)));
      result.twonn = twonn_intrinsic_dimension(points, {.seed = options.criteria.seed, .backend = options.backend});
    } catch (const invalid_argument& failure) {  // e.g. too few distinct points for k = 20, a lattice
      result.dimension_failure = failure.what();
    }
    result.times.add("intrinsic_dimension", watch.seconds());
  }
  return result;
}

}  // namespace nldr
