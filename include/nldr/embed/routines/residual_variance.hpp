// Residual variance of an embedding against reference distances (Tenenbaum, de Silva & Langford
// 2000, fig. 2): 1 - r^2, r the Pearson correlation between the reference distances and the
// embedding distances of the same pairs. The embedders that report it (Isomap) measure it against
// their geodesics on the pairs of the metrics' PairPlan (metrics/pairs.hpp), so that
// nldr::metrics::residual_variance with the same max_pairs and seed runs over the same pairs; both
// use the same accumulator and residual_variance_of (core/correlation.hpp).
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/types.hpp>
#include <nldr/metrics/pairs.hpp>

#include <cstdint>
#include <utility>
#include <vector>

namespace nldr::routines {

/// Pairs (i, j), i != j, over which residual variance is measured, in the order of
/// metrics::PairPlan(n, {limit, seed}): all i < j when there are at most `limit`, else `limit` pairs
/// drawn uniformly (with replacement) from the plan's seeded blocks.
inline std::vector<std::pair<index_t, index_t>> residual_pair_sample(index_t n, std::int64_t limit,
                                                                     std::uint64_t seed) {
  if (limit < 1) throw_invalid("residual_pairs", "residual_pairs = ", limit, " must be >= 1");
  const metrics::PairPlan plan(n, {.max_pairs = std::uint64_t(limit), .seed = seed}, "residual_pairs");
  std::vector<std::pair<index_t, index_t>> pairs(plan.count());
  for (std::int64_t b = 0; b < plan.blocks(); ++b)
    plan.for_each(b, [&](std::uint64_t p, index_t i, index_t j) { pairs[p] = {i, j}; });
  return pairs;
}

}  // namespace nldr::routines
