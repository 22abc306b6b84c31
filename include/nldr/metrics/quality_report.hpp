// Every quality measure of an embedding in one call, with one pass of the rank engine: what the
// `nldr evaluate` tool prints. The field names are the tool's JSON keys.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/progress.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/core/types.hpp>
#include <nldr/metrics/coranking.hpp>
#include <nldr/metrics/geodesics.hpp>
#include <nldr/metrics/input.hpp>
#include <nldr/metrics/knn_error.hpp>
#include <nldr/metrics/konig.hpp>
#include <nldr/metrics/mrre.hpp>
#include <nldr/metrics/pairs.hpp>
#include <nldr/metrics/ranks.hpp>
#include <nldr/metrics/residual_variance.hpp>
#include <nldr/metrics/spearman.hpp>
#include <nldr/metrics/stress.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace nldr::metrics {

/// Options of quality_report().
struct QualityOptions {
  /// Neighborhood size of the rank measures, 1 <= k <= N - 2.
  index_t k = 10;
  /// Konig's k1 (0: k) and k2 (0: min(2 k1, N - 1)); 1 <= k1 <= N - 2, k1 <= k2 <= N - 1.
  index_t konig_k1 = 0, konig_k2 = 0;
  /// Fill QualityReport::r_nx_curve.
  bool curve = false;
  /// Largest K of the R_NX curve and of auc_rnx: 0 = N - 2, the whole curve (O(N^2 log N) time);
  /// a smaller value (>= k and >= k1) takes the faster bounded path, for large N.
  index_t k_max = 0;
  /// Pairs for Spearman's rho (about 40 bytes each): all up to this many, else a seeded sample;
  /// all_pairs (pairs.hpp): always every pair, the exact value.
  std::uint64_t spearman_max_pairs = 1'000'000;
  /// Pairs for Kruskal stress and the residual variances (no memory cost): all up to this, else
  /// sampled; all_pairs: always every pair.
  std::uint64_t distance_max_pairs = 50'000'000;
  /// k of the kNN graph whose geodesics residual_variance_geodesic is measured against (0: not
  /// computed; 1 <= geodesic_k <= N - 1). Costs an N x N matrix and N Dijkstra runs.
  index_t geodesic_k = 0;
  /// Which rank divides the MRRE's rank errors (default: Lee & Verleysen 2007's, the same space's).
  MrreDenominator mrre_denominator = MrreDenominator::same_space;
  /// k-NN classifier (used with labels): neighbors and folds (Roy 2015, sec. 4.2: 7-NN, 5-fold).
  index_t knn_k = 7, knn_folds = 5;
  /// Seed of every subsample (pairs) and of the cross-validation folds.
  std::uint64_t seed = 0;
  /// Optional progress and cancel hook (core/progress.hpp): the rank measures report 0 .. 0.6 by
  /// blocks of ~1% of the points; then 0.7 after Spearman's rho, 0.8 after the stresses, 0.8 .. 0.9
  /// from the geodesics' shortest paths (with geodesic_k; the residual variances come first), 0.9
  /// after the geodesic residual variance, 1 at the end (after the k-NN error when labels are given).
  ProgressCallback progress{};
};

/// All measures at the options' k; see docs/metrics.md for definitions, ranges and references.
struct QualityReport {
  std::int64_t n = 0;                ///< number of points
  index_t k = 0;                     ///< neighborhood size used
  double trustworthiness = 0;        ///< T(k), [0, 1], 1 best
  double continuity = 0;             ///< C(k), [0, 1], 1 best
  double q_nx = 0;                   ///< Q_NX(k), [0, 1], 1 best
  double b_nx = 0;                   ///< B_NX(k), > 0 intrusive, < 0 extrusive
  double r_nx = 0;                   ///< R_NX(k), 1 best, ~0 random
  double lcmc = 0;                   ///< LCMC(k), 1 - k/(N-1) best
  double auc_rnx = 0;                ///< area under R_NX(K), log K, K = 1..k_max
  double mrre_x = 0;                 ///< MRRE over X-neighborhoods, 0 best
  double mrre_y = 0;                 ///< MRRE over Y-neighborhoods, 0 best
  double konig = 0;                  ///< KM(konig_k1, konig_k2), [0, 1], 1 best
  double spearman_rho = 0;           ///< rank correlation of pairwise distances, 1 best
  double kruskal_stress = 0;         ///< plain stress-1 (David 2015), 0 best
  double kruskal_stress_scaled = 0;  ///< stress-1 after optimal scaling, 0 best
  /// Sammon's stress (Sammon 1969; MASS::sammon's `stress`), 0 best; empty where two input points
  /// coincide, since it divides by every input distance.
  std::optional<double> sammon_stress;
  double residual_variance = 0;      ///< 1 - r^2 against the input distances, 0 best
  std::optional<double> residual_variance_truth;  ///< against the ground truth, when given
  /// Against the geodesics of the geodesic_k-NN graph of X (Tenenbaum et al. 2000), when asked for
  /// and available: empty with geodesic_unavailable saying why (a disconnected graph, memory).
  std::optional<double> residual_variance_geodesic;
  std::string geodesic_unavailable;
  std::optional<double> knn_error;                ///< k-NN CV error, when labels are given
  std::vector<double> r_nx_curve;                 ///< R_NX(K), K = 1..k_max, when options.curve

  index_t konig_k1 = 0, konig_k2 = 0;  ///< Konig parameters used
  index_t k_max = 0;                   ///< largest K of r_nx_curve and auc_rnx
  index_t geodesic_k = 0;              ///< k of the geodesic graph (0: none asked for)
  std::uint64_t spearman_pairs = 0;    ///< pairs used by Spearman's rho
  std::uint64_t distance_pairs = 0;    ///< pairs used by stress and residual variance
  bool pairs_sampled = false;          ///< true when any pair measure used a seeded subsample
  StageTimes times;                    ///< wall time of each part

  /// Calls v(name, value) for every field under its name in docs/metrics.md (the tool's --json
  /// keys and Python's dict keys, which are made from this one list): the optional measures only
  /// when computed, the geodesic one (possibly empty, with the reason) only when asked for, the
  /// curve only when filled. Values: integers, doubles, bool, std::optional<double> (empty: null),
  /// std::string, const std::vector<double>&.
  template <class Visitor>
  void visit(Visitor&& v) const {
    v("n", n);
    v("k", k);
    v("trustworthiness", trustworthiness);
    v("continuity", continuity);
    v("q_nx", q_nx);
    v("b_nx", b_nx);
    v("r_nx", r_nx);
    v("lcmc", lcmc);
    v("auc_rnx", auc_rnx);
    v("mrre_x", mrre_x);
    v("mrre_y", mrre_y);
    v("konig", konig);
    v("konig_k1", konig_k1);
    v("konig_k2", konig_k2);
    v("spearman_rho", spearman_rho);
    v("kruskal_stress", kruskal_stress);
    v("kruskal_stress_scaled", kruskal_stress_scaled);
    v("sammon_stress", sammon_stress);
    v("residual_variance", residual_variance);
    if (residual_variance_truth) v("residual_variance_truth", *residual_variance_truth);
    if (geodesic_k > 0) {
      v("residual_variance_geodesic", residual_variance_geodesic);
      if (!geodesic_unavailable.empty()) v("geodesic_unavailable", geodesic_unavailable);
      v("geodesic_k", geodesic_k);
    }
    if (knn_error) v("knn_error", *knn_error);
    v("k_max", k_max);
    v("spearman_pairs", spearman_pairs);
    v("distance_pairs", distance_pairs);
    v("pairs_sampled", pairs_sampled);
    if (!r_nx_curve.empty()) v("r_nx_curve", r_nx_curve);
  }
};

/// Computes every measure of the embedding Y (N x d points or precomputed) of X (N x D points or
/// precomputed) in one pass of the rank engine. `truth` (optional: N x m ground-truth manifold
/// coordinates, or precomputed(N x N) manifold/geodesic distances; pass nullptr for none) adds
/// residual_variance_truth; `labels` (optional, one per point) adds knn_error; options.geodesic_k
/// adds residual_variance_geodesic, or geodesic_unavailable (never an exception) when the graph is
/// disconnected or its geodesics do not fit in memory.
/// Thread-count independent. \throws nldr::invalid_argument naming the offending input or option.
///
/// \code
/// auto q = nldr::metrics::quality_report(X, Y, {.k = 12, .curve = true}, truth, labels);
/// // q.trustworthiness, q.r_nx, q.r_nx_curve, *q.residual_variance_truth, ...
/// \endcode
template <MetricInput A, MetricInput B, class Truth = std::nullptr_t>
QualityReport quality_report(const A& X, const B& Y, const QualityOptions& options = {},
                             const Truth& truth = nullptr, std::span<const int> labels = {}) {
  detail::check_scalars<A, B>();
  using T = input_scalar_t<A>;
  QualityReport report;
  Stopwatch watch;
  const detail::InputView<T> x(X, "X"), y(Y, "Y");
  const index_t n = detail::validate_pair(x, y);
  detail::validate_rank_k(options.k, n, "k");
  report.n = n;
  report.k = options.k;
  report.konig_k1 = options.konig_k1 ? options.konig_k1 : options.k;
  report.konig_k2 = options.konig_k2 ? options.konig_k2 : std::min<index_t>(2 * report.konig_k1, n - 1);
  detail::validate_konig(report.konig_k1, report.konig_k2, n);
  report.k_max = options.k_max ? options.k_max : n - 2;
  detail::validate_rank_k(report.k_max, n, "k_max");
  if (report.k_max < std::max(options.k, report.konig_k1))
    throw_invalid("k_max", "k_max = ", report.k_max, " must be >= k = ", options.k, " and >= konig_k1 = ",
                  report.konig_k1, ": raise k_max or use 0 (the whole curve)");
  if (options.geodesic_k) validate_neighbor_count(options.geodesic_k, n, "geodesic_k");
  report.geodesic_k = options.geodesic_k;
  if (!labels.empty() && std::int64_t(labels.size()) != n)
    throw_invalid("labels", "labels has ", labels.size(), " entries but N = ", n, ": one label per point");

  // The rank measures: one engine pass.
  detail::CoRankingBuilder coranking(n, report.k_max);
  detail::MrreAccumulator mrre_acc(n, options.k, options.mrre_denominator);
  detail::KonigAccumulator konig_acc(n, report.konig_k1, report.konig_k2);
  detail::accumulate_ranks(x, y, report.k_max, detail::RankMode::automatic, progress_part(options.progress, 0, 0.6),
                           coranking, mrre_acc, konig_acc);
  const CoRankingSummary summary = coranking.finish();
  report.trustworthiness = summary.trustworthiness(options.k);
  report.continuity = summary.continuity(options.k);
  report.q_nx = summary.q_nx(options.k);
  report.b_nx = summary.b_nx(options.k);
  report.r_nx = summary.r_nx(options.k);
  report.lcmc = summary.lcmc(options.k);
  report.auc_rnx = summary.auc_rnx();
  if (options.curve) report.r_nx_curve = summary.r_nx_curve();
  const Mrre m = mrre_acc.finish();
  report.mrre_x = m.x;
  report.mrre_y = m.y;
  report.konig = konig_acc.finish();
  report.times.add("ranks", watch.seconds());

  // The pair measures.
  watch.restart();
  const PairSampling spearman_pairs{options.spearman_max_pairs, options.seed};
  const SpearmanResult spearman = spearman_rho(X, Y, spearman_pairs);
  report.spearman_rho = spearman.rho;
  report.spearman_pairs = spearman.pairs;
  report_progress(options.progress, 0.7, "quality_report");
  const PairSampling distance_pairs{options.distance_max_pairs, options.seed};
  const Stress stress = kruskal_stress(X, Y, distance_pairs);
  report.kruskal_stress = stress.plain;
  report.kruskal_stress_scaled = stress.scaled;
  try {
    report.sammon_stress = sammon_stress(X, Y, distance_pairs).stress;
  } catch (const invalid_argument&) {  // two input points coincide: Sammon's sum divides by 0
  }
  report_progress(options.progress, 0.8, "quality_report");
  const ResidualVariance rv = residual_variance(X, Y, distance_pairs);
  report.residual_variance = rv.value;
  report.distance_pairs = rv.pairs;
  report.pairs_sampled = spearman.sampled || rv.sampled;
  if constexpr (!std::is_same_v<Truth, std::nullptr_t>) {
    const ResidualVariance truth_rv = residual_variance(truth, Y, distance_pairs);
    report.residual_variance_truth = truth_rv.value;
  }
  report.times.add("pairs", watch.seconds());
  if (options.geodesic_k) {
    watch.restart();
    const Geodesics<T> geodesics =
        detail::knn_geodesics(x, options.geodesic_k, "geodesic_k", 0, progress_part(options.progress, 0.8, 0.9));
    if (geodesics.available())
      report.residual_variance_geodesic = residual_variance(precomputed(geodesics.distances), Y, distance_pairs).value;
    else
      report.geodesic_unavailable = geodesics.unavailable;
    report.times.add("geodesics", watch.seconds());
  }
  report_progress(options.progress, 0.9, "quality_report");
  if (!labels.empty()) {
    watch.restart();
    report.knn_error = knn_error(Y, labels, {options.knn_k, options.knn_folds, options.seed}).error;
    report.times.add("knn_error", watch.seconds());
  }
  report_progress(options.progress, 1, "quality_report");
  return report;
}

}  // namespace nldr::metrics
