// Criteria that judge an embedding without ground truth, for choosing k (docs/tuning.md, "Criteria"):
// what each one rewards matters more than its formula, since each can be gamed by a different failure.
//
//   auc_rnx       area under R_NX(K) on a log K axis (Lee, Peluffo-Ordonez & Verleysen 2015): neighborhoods
//                 of every size kept, small ones weighted most. Rewards faithful neighborhoods; indifferent
//                 to distances, so it does not see a correctly ordered but stretched unrolling.
//   lcmc          Q_local (Lee & Verleysen 2009): the mean of Q_NX(K) over K = 1..K_LCMC, where K_LCMC
//                 maximizes Chen & Buja's (2009) LCMC(K) = Q_NX(K) - K / (N - 1). Rewards the local
//                 neighborhoods up to the scale at which the embedding does best.
//   geodesic_rv   1 - r^2 between graph geodesics on the kNN graph and embedding distances (Tenenbaum et
//                 al. 2000, fig. 2), on the pairs from a seeded sample of sources. Rewards an isometric
//                 unrolling of the graph at that k; a graph with short circuits has short geodesics that a
//                 folded embedding reproduces, so it can reward too large a k.
//   euclidean_rv  1 - r^2 between input Euclidean and embedding distances (Kouropteva, Okun & Pietikainen
//                 2002 for LLE; Samko, Marshall & Rosin 2006 for Isomap). For reference only: it rewards
//                 embeddings that keep the ambient shape (a folded roll), as Xia, Li, Zhang & Tang 2008 show.
#pragma once

#include <nldr/core/correlation.hpp>
#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/random.hpp>
#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>
#include <nldr/metrics/coranking.hpp>
#include <nldr/metrics/neighborhood_curves.hpp>
#include <nldr/metrics/pairs.hpp>
#include <nldr/metrics/residual_variance.hpp>
#include <nldr/neighbors/graph.hpp>
#include <nldr/neighbors/shortest_paths.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nldr {

/// The criteria nldr::tune() computes for every k; see the file comment for what each rewards.
enum class TuneCriterion { auc_rnx, lcmc, geodesic_rv, euclidean_rv };

/// Every criterion, in the order of TuneCriterion.
inline constexpr std::array<TuneCriterion, 4> all_tune_criteria{TuneCriterion::auc_rnx, TuneCriterion::lcmc,
                                                                TuneCriterion::geodesic_rv, TuneCriterion::euclidean_rv};

/// The tool's name of a criterion: "auc-rnx", "lcmc", "geodesic-rv", "euclidean-rv".
inline std::string_view criterion_name(TuneCriterion criterion) {
  switch (criterion) {
    case TuneCriterion::auc_rnx: return "auc-rnx";
    case TuneCriterion::lcmc: return "lcmc";
    case TuneCriterion::geodesic_rv: return "geodesic-rv";
    case TuneCriterion::euclidean_rv: return "euclidean-rv";
  }
  return "?";
}

/// The criterion named `name` (criterion_name's spelling). \throws nldr::invalid_argument naming "criterion".
inline TuneCriterion parse_criterion(std::string_view name) {
  for (TuneCriterion criterion : all_tune_criteria)
    if (criterion_name(criterion) == name) return criterion;
  throw_invalid("criterion", "unknown criterion '", std::string(name),
                "': use auc-rnx, lcmc, geodesic-rv or euclidean-rv");
}

/// True for the criteria where larger is better (auc_rnx, lcmc); the residual variances are minimized.
inline bool higher_is_better(TuneCriterion criterion) {
  return criterion == TuneCriterion::auc_rnx || criterion == TuneCriterion::lcmc;
}

/// Q_local with the scale it averages over.
struct QLocal {
  double value = 0;  ///< mean of Q_NX(K), K = 1..k_lcmc, in [0, 1]; 1 best
  index_t k_lcmc = 0;  ///< argmax_K LCMC(K) over the summary's K = 1..k_max (the smallest on ties)
};

/// Q_local of a co-ranking summary (Lee & Verleysen 2009): the K maximizing LCMC(K) (Chen & Buja 2009),
/// then the mean of Q_NX up to it. O(k_max).
inline QLocal q_local(const metrics::NeighborhoodCurves& summary) {
  QLocal result{0, 1};
  double best = summary.lcmc(1);
  for (index_t K = 2; K <= summary.k_max(); ++K)
    if (summary.lcmc(K) > best) {
      best = summary.lcmc(K);
      result.k_lcmc = K;
    }
  for (index_t K = 1; K <= result.k_lcmc; ++K) result.value += summary.q_nx(K);
  result.value /= double(result.k_lcmc);
  return result;
}

/// Residual variance against graph geodesics, with the pairs it used.
struct GeodesicResidualVariance {
  double value = 0;                     ///< 1 - r^2 in [0, 1], 0 best
  double correlation = 0;               ///< Pearson r of geodesic and embedding distances
  std::uint64_t pairs = 0;              ///< (source, point) pairs with a finite geodesic
  std::uint64_t unreachable_pairs = 0;  ///< pairs left out: no path in the graph (a disconnected graph)
};

/// 1 - r^2 between the geodesic distances on `graph` (lengths summed along shortest paths, edges taken both
/// ways: the union symmetrization of a directed kNN graph) and the Euclidean distances between rows of Y,
/// over the pairs (s, j), j != s, for `sources` points s drawn without replacement from a generator seeded
/// with `seed` (all points when sources >= N). Pairs without a path are left out and counted.
/// Cost: O(sources E log N) for Dijkstra, sources N doubles. Thread-count independent.
/// \throws nldr::invalid_argument naming "Y" (rows != graph size, non-finite, constant distances),
/// "sources" (< 2) or "graph" (no pair connected).
template <Real T, class DerivedY>
GeodesicResidualVariance geodesic_residual_variance(const NeighborGraph<T>& graph, const Eigen::MatrixBase<DerivedY>& Y,
                                                    index_t sources = 100, std::uint64_t seed = 0) {
  const index_t n = graph.size();
  validate_same_rows(n, Y.rows(), "graph", "Y");
  validate_points(Y, "Y", 3);
  if (sources < 2) throw_invalid("sources", "sources = ", sources, " must be >= 2");
  const index_t count = std::min(sources, n);
  std::vector<index_t> order = random_subset(n, count, seed);
  std::sort(order.begin(), order.end());
  const NeighborGraph<T> undirected = graph.symmetrized();
  const Matrix<double> geodesics = shortest_paths<double>(undirected, std::span<const index_t>(order));
  std::vector<PearsonAccumulator> rows(static_cast<std::size_t>(count));
  std::vector<std::uint64_t> unreachable(static_cast<std::size_t>(count), 0);
  parallel_for(0, count, [&](std::int64_t r) {
    const index_t s = order[std::size_t(r)];
    for (index_t j = 0; j < n; ++j) {
      if (j == s) continue;
      const double g = geodesics(r, j);
      if (!std::isfinite(g)) {
        ++unreachable[std::size_t(r)];
        continue;
      }
      rows[std::size_t(r)].add(g, (Y.row(s).template cast<double>() - Y.row(j).template cast<double>()).norm());
    }
  });
  PearsonAccumulator total;
  GeodesicResidualVariance result;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    total.merge(rows[r]);
    result.unreachable_pairs += unreachable[r];
  }
  result.pairs = total.count();
  if (result.pairs == 0)
    throw_invalid("graph", "no sampled pair of points is connected in the graph: raise k or use more sources");
  metrics::detail::validate_correlated(total, "graph", "Y", "the geodesic residual variance");
  result.correlation = total.correlation();
  result.value = 1 - result.correlation * result.correlation;
  return result;
}

/// How the criteria are computed.
struct CriteriaOptions {
  /// Largest K of the R_NX curve behind auc_rnx and lcmc: 0 = N - 2 (the whole curve, O(N^2 log N));
  /// below N / 8, two neighbor searches at about this K (O(N K log N) in low D; the same values).
  index_t rank_k_max = 0;
  /// Sources of geodesic_rv's pairs (all points when >= N).
  index_t geodesic_sources = 100;
  /// Pairs of euclidean_rv: all up to this many, else a seeded sample.
  std::uint64_t euclidean_max_pairs = 5'000'000;
  /// Seed of the source and pair samples.
  std::uint64_t seed = 0;
};

/// Every criterion of one embedding.
struct CriteriaValues {
  double auc_rnx = 0;        ///< area under R_NX(K), log K, K = 1..rank_k_max; 1 best
  double lcmc = 0;           ///< Q_local (mean Q_NX up to argmax LCMC); 1 best
  index_t lcmc_k = 0;        ///< the K maximizing LCMC(K)
  double geodesic_rv = 0;    ///< 1 - r^2 against kNN-graph geodesics; 0 best
  std::uint64_t unreachable_pairs = 0;  ///< geodesic pairs left out (disconnected graph)
  double euclidean_rv = 0;   ///< 1 - r^2 against input Euclidean distances; 0 best (reference only)

  /// The value of `criterion`.
  double value(TuneCriterion criterion) const {
    switch (criterion) {
      case TuneCriterion::auc_rnx: return auc_rnx;
      case TuneCriterion::lcmc: return lcmc;
      case TuneCriterion::geodesic_rv: return geodesic_rv;
      case TuneCriterion::euclidean_rv: return euclidean_rv;
    }
    return std::numeric_limits<double>::quiet_NaN();
  }
};

/// Whether the criteria's R_NX curve is short enough (K <= rank_k_max << N) to come from neighbor lists
/// (metrics::neighborhood_curves) rather than from the rank engine's O(N^2) rows: the same numbers.
inline bool curve_from_neighbor_lists(const CriteriaOptions& options, index_t n) {
  return options.rank_k_max > 0 && std::int64_t(options.rank_k_max) * 8 < n;
}

/// Every criterion of the embedding Y (N x d) of X (N x D) built from `graph` (the kNN graph of X that
/// produced Y; its geodesics are geodesic_rv's reference). One rank pass serves auc_rnx and lcmc; with a
/// short curve (curve_from_neighbor_lists) two neighbor searches do, and `x_neighbors`, when given, is
/// X's: KNearest{metrics::curve_neighbors(rank_k_max, N)}(X), which a sweep computes once.
/// \throws nldr::invalid_argument naming "X", "Y", "graph" or an option.
template <Real T>
CriteriaValues evaluate_criteria(const Matrix<T>& X, const NeighborGraph<T>& graph, const Matrix<T>& Y,
                                 const CriteriaOptions& options = {}, const NeighborGraph<T>* x_neighbors = nullptr) {
  validate_same_rows(X.rows(), graph.size(), "X", "graph");
  CriteriaValues values;
  const auto curves = [&]() -> metrics::NeighborhoodCurves {
    if (!curve_from_neighbor_lists(options, graph.size())) return metrics::coranking_summary(X, Y, options.rank_k_max);
    if (x_neighbors) return metrics::neighborhood_curves(X, *x_neighbors, Y, options.rank_k_max);
    return metrics::neighborhood_curves(X, Y, options.rank_k_max);
  }();
  values.auc_rnx = curves.auc_rnx();
  const QLocal local = q_local(curves);
  values.lcmc = local.value;
  values.lcmc_k = local.k_lcmc;
  const auto geodesic = geodesic_residual_variance(graph, Y, options.geodesic_sources, options.seed);
  values.geodesic_rv = geodesic.value;
  values.unreachable_pairs = geodesic.unreachable_pairs;
  values.euclidean_rv = metrics::residual_variance(X, Y, {options.euclidean_max_pairs, options.seed}).value;
  return values;
}

}  // namespace nldr
