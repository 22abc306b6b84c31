// Residual variance of an embedding against reference distances (Tenenbaum, de Silva & Langford
// 2000, fig. 2): 1 - r^2, r the Pearson correlation between the reference distances and the
// embedding distances of the same pairs. The embedders that report it (Isomap, Landmark Isomap)
// measure it against their geodesics on a seeded pair sample; the metric
// (metrics/residual_variance.hpp) uses the same accumulator and residual_variance_of
// (core/correlation.hpp).
#pragma once

#include <nldr/core/correlation.hpp>
#include <nldr/core/error.hpp>
#include <nldr/core/random.hpp>
#include <nldr/core/types.hpp>

#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

namespace nldr::routines {

/// Pairs (i, j), i != j, over which residual variance is measured: all i < j when there are at
/// most `limit`, else `limit` pairs drawn uniformly (with replacement) with `seed`.
inline std::vector<std::pair<index_t, index_t>> residual_pair_sample(index_t n, std::int64_t limit,
                                                                     std::uint64_t seed) {
  if (limit < 1) throw_invalid("residual_pairs", "residual_pairs = ", limit, " must be >= 1");
  std::vector<std::pair<index_t, index_t>> pairs;
  const std::int64_t all = std::int64_t(n) * (n - 1) / 2;
  if (all <= limit) {
    pairs.reserve(std::size_t(all));
    for (index_t i = 0; i < n; ++i)
      for (index_t j = i + 1; j < n; ++j) pairs.emplace_back(i, j);
    return pairs;
  }
  Random random(seed);
  pairs.reserve(std::size_t(limit));
  for (std::int64_t p = 0; p < limit; ++p) {
    const auto i = index_t(random.below(std::uint64_t(n)));
    auto j = index_t(random.below(std::uint64_t(n - 1)));
    if (j >= i) ++j;
    pairs.emplace_back(i, j);
  }
  return pairs;
}

}  // namespace nldr::routines
