// nldr::tune: a sweep over one parameter (the neighborhood size k, the epsilon-ball radius, or Laplacian
// Eigenmaps' heat-kernel width t) that scores every embedding with every criterion of criteria.hpp and picks
// the value by one of them (docs/tuning.md, "The sweep").
//
// k: one exact kNN search at k_max; the graph for each smaller k is the prefix of every list (knn_prefix.hpp),
// which is exactly KNearest{k}. Radius: one EpsilonBall search at the largest radius; each smaller radius's
// graph is again a prefix of every list (radius_prefix.hpp). t: the graph is fixed and only the weights
// change, so the caller passes the graph and the embedding receives t. The embedding is the caller's (any
// callable returning N x d coordinates), so the sweep serves every graph-based method without depending on
// the embedders.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/progress.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>
#include <nldr/neighbors/epsilon_ball.hpp>
#include <nldr/neighbors/graph.hpp>
#include <nldr/neighbors/intrinsic_dimension.hpp>
#include <nldr/neighbors/knn.hpp>
#include <nldr/tune/criteria.hpp>
#include <nldr/tune/knn_prefix.hpp>
#include <nldr/tune/radius_prefix.hpp>

#include <Eigen/Core>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace nldr {

/// What nldr::tune() sweeps.
enum class TuneParameter {
  k,       ///< neighbors per point (KNearest{k}); TuneOptions::k_min, k_max, k_step
  radius,  ///< the epsilon-ball radius (EpsilonBall{radius}); TuneOptions::values
  t        ///< Laplacian Eigenmaps' heat-kernel width on a fixed graph; TuneOptions::values
};

/// The name of a swept parameter, as the tool's JSON writes it: "k", "radius", "t".
inline std::string_view parameter_name(TuneParameter parameter) {
  switch (parameter) {
    case TuneParameter::k: return "k";
    case TuneParameter::radius: return "radius";
    case TuneParameter::t: return "t";
  }
  return "?";
}

/// Options of nldr::tune().
struct TuneOptions {
  /// What is swept. k and radius: tune(X, options, embed(graph)); t: tune(X, graph, options, embed(graph, t)).
  TuneParameter parameter = TuneParameter::k;
  /// parameter k: the values k = k_min, k_min + k_step, ... <= k_max; 1 <= k_min <= k_max <= N - 1, k_step >= 1.
  index_t k_min = 5, k_max = 30, k_step = 1;
  /// parameter radius or t: the values, strictly increasing (radius: finite and > 0; t: > 0, may be +infinity,
  /// Laplacian Eigenmaps' 0/1 weights). Must be empty for a k sweep.
  std::vector<double> values{};
  /// The criterion that picks the best value (every criterion is computed and reported).
  TuneCriterion criterion = TuneCriterion::auc_rnx;
  /// How the criteria are computed (curve length, sources, pair samples, seed).
  CriteriaOptions criteria{};
  /// Also estimate the intrinsic dimension (both estimators, default options) and suggest d.
  bool suggest_dimension = true;
  /// How the one neighbor search runs (the result does not depend on it).
  SearchBackend backend = SearchBackend::automatic;
  /// Called with the fraction of values done; returning false cancels (nldr::cancelled).
  ProgressCallback progress{};
};

/// The scores of one value of the swept parameter.
struct TuneScore {
  /// The swept value (k as a number for a k sweep, the radius, or t).
  double value = 0;
  /// k sweep: the k (== value); 0 for the radius and t sweeps.
  index_t k = 0;
  /// Directed edges of the graph over N: k for a kNN graph; what a radius admits on average.
  double mean_degree = 0;
  /// Every criterion (NaN where the embedding failed).
  CriteriaValues values{};
  /// Empty, or why the embedding failed at this value (a disconnected graph, a solver that did not converge).
  std::string failure{};
};

/// What nldr::tune() found.
struct TuneResult {
  /// What was swept.
  TuneParameter parameter = TuneParameter::k;
  /// The value with the best criterion among those that did not fail (the smaller value on ties).
  double best_value = 0;
  /// k sweep: best_value as a k; 0 for the radius and t sweeps.
  index_t best_k = 0;
  /// The criterion that chose best_value.
  TuneCriterion criterion = TuneCriterion::auc_rnx;
  /// One row per value, in increasing order.
  std::vector<TuneScore> scores{};
  /// The intrinsic-dimension estimates (with suggest_dimension), or why they failed.
  std::optional<MleDimension> mle{};
  std::optional<TwoNnDimension> twonn{};
  std::string dimension_failure{};
  /// round(mle.estimate), at least 1 (0 when not estimated): a target dimension to try.
  index_t suggested_dim = 0;
  /// When a cheaper stand-in scored the values (tune with an `exact` fit): the exact method fit once at
  /// best_value, with its criteria (or its failure); empty otherwise.
  std::optional<TuneScore> exact_at_best{};
  /// Wall time: "knn" (k sweep) or "epsilon_ball" (radius sweep), "embed" and "criteria" (summed over the
  /// values), "exact_fit" (with a stand-in: the exact fit and its criteria), "intrinsic_dimension".
  StageTimes times{};
};

namespace detail {

/// Refuses a values list that is empty, not strictly increasing, or outside what `parameter` admits.
inline void validate_sweep_values(const std::vector<double>& values, TuneParameter parameter) {
  const std::string name(parameter_name(parameter));
  if (values.empty())
    throw_invalid("values", "the ", name, " sweep needs values: give the values of ", name,
                  " to try, in increasing order");
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double v = values[i];
    const bool admitted = parameter == TuneParameter::t ? (v > 0 && !std::isnan(v)) : (std::isfinite(v) && v > 0);
    if (!admitted)
      throw_invalid("values", name, " = ", v, " must be ",
                    parameter == TuneParameter::t ? "> 0 (+infinity: 0/1 weights)" : "finite and > 0");
    if (i > 0 && !(v > values[i - 1]))
      throw_invalid("values", "the values of ", name, " must increase strictly: ", values[i - 1], " then ", v);
  }
}

/// The criteria of a value whose embedding failed: NaN.
inline CriteriaValues failed_values() {
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  return {nan, nan, 0, nan, 0, nan};
}

/// The loop every sweep shares: for each value, graph_at(step) and embed_at(step, graph), then every
/// criterion; failures recorded, progress reported, the best value chosen; then, unless exact_at is
/// nullptr, exact_at(graph) once at the best value (TuneResult::exact_at_best).
template <Real T, class GraphAt, class EmbedAt, class ExactAt = std::nullptr_t>
void run_sweep(const Matrix<T>& points, const TuneOptions& options, const std::vector<double>& values,
               GraphAt&& graph_at, EmbedAt&& embed_at, TuneResult& result, ExactAt&& exact_at = nullptr) {
  constexpr bool with_exact_fit = !std::is_same_v<std::decay_t<ExactAt>, std::nullptr_t>;
  const double units = double(values.size()) + (with_exact_fit ? 1 : 0);  // progress: values, then the exact fit
  const std::string name(parameter_name(options.parameter));
  report_progress(options.progress, 0, "nldr::tune");
  double embed_seconds = 0, criteria_seconds = 0;
  Stopwatch watch;
  // X's side of a short R_NX curve is the same for every value: searched once.
  std::optional<NeighborGraph<T>> x_neighbors;
  if (curve_from_neighbor_lists(options.criteria, index_t(points.rows())))
    x_neighbors = KNearest{.k = int(metrics::curve_neighbors(options.criteria.rank_k_max, index_t(points.rows()))),
                           .backend = options.backend}(points);
  criteria_seconds += watch.seconds();
  // A fit that fails the way a value of a sweep can (a disconnected graph, a solver that did not
  // converge) is recorded in `failure` and the sweep goes on; its criteria are then NaN.
  auto attempt = [](auto&& fit, std::string& failure) -> std::optional<Matrix<T>> {
    try {
      return Matrix<T>(fit());
    } catch (const disconnected_graph& caught) {
      failure = caught.what();
    } catch (const convergence_error& caught) {
      failure = caught.what();
    }
    return std::nullopt;
  };
  auto criteria_of = [&](const NeighborGraph<T>& graph, const std::optional<Matrix<T>>& Y) {
    if (!Y) return failed_values();
    validate_same_rows(points.rows(), Y->rows(), "X", "the embedding");
    return evaluate_criteria(points, graph, *Y, options.criteria, x_neighbors ? &*x_neighbors : nullptr);
  };
  for (std::size_t step = 0; step < values.size(); ++step) {
    TuneScore score;
    score.value = values[step];
    if (options.parameter == TuneParameter::k) score.k = index_t(values[step]);
    const NeighborGraph<T> graph = graph_at(step);
    score.mean_degree = double(graph.num_edges()) / double(graph.size());
    watch.restart();
    const auto Y = attempt([&] { return embed_at(step, graph); }, score.failure);
    embed_seconds += watch.seconds();
    watch.restart();
    score.values = criteria_of(graph, Y);
    criteria_seconds += watch.seconds();
    result.scores.push_back(std::move(score));
    report_progress(options.progress, double(step + 1) / units, "nldr::tune");
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
    throw error(concat("nldr::tune: the embedding failed for every ", name, " in [", values.front(), ", ", values.back(),
                       "]; at ", name, " = ", result.scores.front().value, ": ", result.scores.front().failure));
  result.best_value = best->value;
  result.best_k = best->k;
  if constexpr (with_exact_fit) {
    watch.restart();
    TuneScore exact = *best;
    const NeighborGraph<T> graph = graph_at(std::size_t(best - result.scores.data()));
    // A failure is reported, and the choice stands.
    exact.values = criteria_of(graph, attempt([&] { return exact_at(graph); }, exact.failure));
    result.exact_at_best = std::move(exact);
    result.times.add("exact_fit", watch.seconds());
    report_progress(options.progress, 1, "nldr::tune");
  }

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
}

}  // namespace detail

/// Sweeps k (options.parameter == k, the default) or the epsilon-ball radius (radius): for each value,
/// embed(graph) with `graph` the directed KNearest{k} graph of X (cut from one search at k_max), or the
/// symmetric EpsilonBall{radius} graph (cut from one search at the largest radius); then every criterion
/// of the coordinates it returns (evaluate_criteria); the best value optimizes options.criterion.
/// An embedding that throws nldr::disconnected_graph or nldr::convergence_error marks its value as failed
/// (small radii leave points isolated) and the sweep goes on; any other exception propagates. The progress
/// callback is called after each value.
/// Cost: one neighbor search, plus per value the embedding and the criteria (the R_NX curve: O(N^2 log N)
/// unless rank_k_max bounds it; geodesics: O(sources E log N)). Criteria are parallel inside; values run in
/// sequence.
/// \throws nldr::invalid_argument naming "X", "parameter" (t: use the overload with a graph) or an option;
/// nldr::cancelled when the callback returns false; nldr::error when every value failed (the message quotes
/// the first failure).
///
/// With `exact` (callable like embed), `embed` is a cheaper stand-in that scores every value (Landmark
/// Isomap for Isomap: docs/tuning.md, "Scoring through landmarks") and `exact(graph)` runs once, at the
/// best value; its criteria, or why it failed, land in TuneResult::exact_at_best.
///
/// \code
/// auto result = nldr::tune(X, {.k_min = 5, .k_max = 30, .criterion = nldr::TuneCriterion::geodesic_rv},
///                          [&](const nldr::NeighborGraph<double>& graph) {
///                            return nldr::Isomap{{.dim = 2}}.fit(X, graph).coordinates;
///                          });
/// result.best_k; result.scores[0].values.geodesic_rv; result.suggested_dim;
/// auto by_radius = nldr::tune(X, {.parameter = nldr::TuneParameter::radius, .values = {0.5, 1, 1.5, 2}},
///                             isomap_of_graph);
/// by_radius.best_value;
/// \endcode
template <class Derived, class EmbedFn, class ExactFn = std::nullptr_t>
TuneResult tune(const Eigen::MatrixBase<Derived>& X, const TuneOptions& options, EmbedFn&& embed,
                ExactFn&& exact = nullptr) {
  using T = typename Derived::Scalar;
  static_assert(Real<T>, "nldr::tune: the points must be float or double");
  static_assert(std::is_invocable_v<EmbedFn&, const NeighborGraph<T>&>,
                "nldr::tune: embed must be callable with the graph (const nldr::NeighborGraph<T>&)");
  static_assert(std::is_same_v<std::decay_t<ExactFn>, std::nullptr_t> ||
                    std::is_invocable_v<ExactFn&, const NeighborGraph<T>&>,
                "nldr::tune: exact must be callable with the graph (const nldr::NeighborGraph<T>&)");
  validate_points(X, "X", 4);
  if (options.parameter == TuneParameter::t)
    throw_invalid("parameter", "the t sweep keeps one graph and changes only the weights: call "
                  "nldr::tune(X, graph, options, embed) with embed(graph, t)");
  const Matrix<T> points = X;
  TuneResult result;
  result.parameter = options.parameter;
  result.criterion = options.criterion;
  Stopwatch watch;
  if (options.parameter == TuneParameter::k) {
    if (!options.values.empty())
      throw_invalid("values", "values are the radius and t sweeps'; a k sweep takes k_min, k_max and k_step");
    if (options.k_min < 1) throw_invalid("k_min", "k_min = ", options.k_min, " must be >= 1");
    if (options.k_max < options.k_min)
      throw_invalid("k_max", "k_max = ", options.k_max, " must be >= k_min = ", options.k_min);
    validate_neighbor_count(options.k_max, X.rows(), "k_max");
    if (options.k_step < 1) throw_invalid("k_step", "k_step = ", options.k_step, " must be >= 1");
    std::vector<double> ks;
    for (index_t k = options.k_min; k <= options.k_max; k += options.k_step) ks.push_back(double(k));
    const NeighborGraph<T> widest = KNearest{.k = options.k_max, .backend = options.backend}(points);
    result.times.add("knn", watch.seconds());
    detail::run_sweep(points, options, ks, [&](std::size_t step) { return knn_prefix(widest, index_t(ks[step])); },
                      [&](std::size_t, const NeighborGraph<T>& graph) { return embed(graph); }, result,
                      std::forward<ExactFn>(exact));
  } else {
    detail::validate_sweep_values(options.values, options.parameter);
    const NeighborGraph<T> widest = EpsilonBall{.radius = options.values.back(), .backend = options.backend}(points);
    result.times.add("epsilon_ball", watch.seconds());
    detail::run_sweep(points, options, options.values,
                      [&](std::size_t step) { return radius_prefix(widest, options.values[step]); },
                      [&](std::size_t, const NeighborGraph<T>& graph) { return embed(graph); }, result,
                      std::forward<ExactFn>(exact));
  }
  return result;
}

/// Sweeps Laplacian Eigenmaps' heat-kernel width t (options.parameter must be t) over options.values on one
/// fixed graph of X: embed(graph, t) for each t, then every criterion (their geodesic reference is the same
/// graph for every t, so the values compare the weights alone). Failures, progress and the choice as above.
/// \throws nldr::invalid_argument naming "X", "graph" (not one vertex per row), "parameter" or "values".
///
/// \code
/// auto graph = nldr::KNearest{10}(X);
/// auto result = nldr::tune(X, graph, {.parameter = nldr::TuneParameter::t, .values = {0.1, 1, 10}},
///                          [&](const nldr::NeighborGraph<double>& g, double t) {
///                            return nldr::LaplacianEigenmaps{{.dim = 2, .t = t}}.fit(X, g).coordinates;
///                          });
/// result.best_value;   // the t the criterion picks
/// \endcode
template <class Derived, class EmbedFn>
TuneResult tune(const Eigen::MatrixBase<Derived>& X, const NeighborGraph<typename Derived::Scalar>& graph,
                const TuneOptions& options, EmbedFn&& embed) {
  using T = typename Derived::Scalar;
  static_assert(Real<T>, "nldr::tune: the points must be float or double");
  static_assert(std::is_invocable_v<EmbedFn&, const NeighborGraph<T>&, double>,
                "nldr::tune: embed must be callable with the graph and t (const nldr::NeighborGraph<T>&, double)");
  validate_points(X, "X", 4);
  validate_same_rows(X.rows(), graph.size(), "X", "graph");
  if (options.parameter != TuneParameter::t)
    throw_invalid("parameter", "nldr::tune(X, graph, options, embed) sweeps t on a fixed graph: set parameter = "
                  "TuneParameter::t, or sweep k or the radius with nldr::tune(X, options, embed)");
  detail::validate_sweep_values(options.values, options.parameter);
  const Matrix<T> points = X;
  TuneResult result;
  result.parameter = options.parameter;
  result.criterion = options.criterion;
  detail::run_sweep(points, options, options.values, [&](std::size_t) { return graph; },
                    [&](std::size_t step, const NeighborGraph<T>& g) { return embed(g, options.values[step]); },
                    result);
  return result;
}

}  // namespace nldr
