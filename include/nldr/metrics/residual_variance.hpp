// Residual variance 1 - r^2 of an embedding (Tenenbaum, de Silva & Langford 2000, Science 290,
// fig. 2; Xia et al. 2008, eq. 5): r is the Pearson correlation between the pairwise distances of a
// reference and of Y. The reference is what the embedding should reproduce: the input distances
// (points X), graph geodesic distances (precomputed(G), computed by the caller), or ground-truth
// manifold coordinates (points; e.g. the Swiss roll's (arc length, height)).
#pragma once

#include <nldr/core/correlation.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/types.hpp>
#include <nldr/metrics/input.hpp>
#include <nldr/metrics/pairs.hpp>

#include <cstdint>
#include <vector>

namespace nldr::metrics {

/// Residual variance with the number of pairs it used.
struct ResidualVariance {
  /// 1 - r^2 in [0, 1]; 0 = distances of Y are an exact affine function of the reference's.
  /// NaN when all distances of one side are equal (r undefined).
  double value = 0;
  /// Pearson r of the distances, in [-1, 1].
  double correlation = 0;
  /// Pairs used: N(N-1)/2, or max_pairs when sampled.
  std::uint64_t pairs = 0;
  /// True when a seeded random subsample of pairs was used.
  bool sampled = false;
};

/// Residual variance of Y (N x d points or precomputed) against `reference` (N x D points, or
/// precomputed(N x N) e.g. geodesics). All pairs when N(N-1)/2 <= sampling.max_pairs (default 5e7,
/// N up to about 10^4), else a seeded sample. O(1) extra memory per block; parallel; the
/// per-block sums are merged in block order (thread-count independent).
/// \throws nldr::invalid_argument naming "reference", "Y" or "max_pairs".
///
/// \code
/// double rv = nldr::metrics::residual_variance(truth, Y).value;       // truth: N x 2 coordinates
/// double rg = nldr::metrics::residual_variance(nldr::metrics::precomputed(G), Y).value;
/// \endcode
template <MetricInput A, MetricInput B>
ResidualVariance residual_variance(const A& reference, const B& Y, const PairSampling& sampling = {}) {
  detail::check_scalars<A, B>();
  using T = input_scalar_t<A>;
  const detail::InputView<T> ref(reference, "reference"), y(Y, "Y");
  validate_same_rows(ref.rows(), y.rows(), "reference", "Y");
  if (ref.rows() < 3)
    throw_invalid("reference", "residual variance needs N >= 3 points, got N = ", ref.rows(), ": supply more points");
  const PairPlan plan(ref.rows(), sampling);
  std::vector<PearsonAccumulator> blocks(static_cast<std::size_t>(plan.blocks()));
  parallel_for(0, plan.blocks(), [&](std::int64_t b) {
    PearsonAccumulator& acc = blocks[std::size_t(b)];
    plan.for_each(b, [&](std::uint64_t, index_t i, index_t j) { acc.add(ref.distance(i, j), y.distance(i, j)); });
  });
  PearsonAccumulator total;
  for (const auto& block : blocks) total.merge(block);
  detail::validate_correlated(total, "reference", "Y", "the residual variance");
  const double r = total.correlation();
  return {residual_variance_of(total), r, plan.count(), plan.sampled()};
}

}  // namespace nldr::metrics
