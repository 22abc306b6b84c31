// The set of point pairs a distance-based measure (Spearman's rho, Kruskal stress, residual
// variance) runs over: all N(N-1)/2 pairs when there are at most `max_pairs` of them, otherwise
// `max_pairs` pairs drawn uniformly at random (with replacement, i != j) from a seeded generator.
// Pairs come in fixed blocks with their own generator, so a measure computed block by block in
// parallel and reduced in block order is identical for every thread count. The one pair sampler of
// the library: Isomap's reported residual variance draws its pairs here too.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/random.hpp>
#include <nldr/core/types.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>

namespace nldr::metrics {

/// A max_pairs that always means every pair, N(N-1)/2, whatever N (no sampling).
inline constexpr std::uint64_t all_pairs = std::numeric_limits<std::uint64_t>::max();

/// How many pairs a pair measure may use, and the seed of the subsample above that.
struct PairSampling {
  /// Use all pairs when N(N-1)/2 <= max_pairs (always with all_pairs), else a seeded sample of
  /// max_pairs pairs (>= 1).
  std::uint64_t max_pairs = 50'000'000;
  /// Seed of the pair sample (ignored when all pairs are used).
  std::uint64_t seed = 0;
};

/// Enumerates the pairs of a PairSampling for N points in blocks (see the file comment).
class PairPlan {
 public:
  /// Pairs per block of the sampled mode.
  static constexpr std::uint64_t block_size = 1u << 16;

  PairPlan(index_t n, const PairSampling& sampling, const char* parameter = "max_pairs")
      : n_(n), seed_(sampling.seed) {
    if (sampling.max_pairs < 1)
      throw_invalid(parameter, parameter, " = 0 must be >= 1: allow at least one pair (all_pairs: every pair)");
    const std::uint64_t all = std::uint64_t(n) * std::uint64_t(n - 1) / 2;
    sampled_ = all > sampling.max_pairs;
    count_ = sampled_ ? sampling.max_pairs : all;
  }

  /// True when a random subsample is used.
  bool sampled() const { return sampled_; }
  /// Number of pairs enumerated.
  std::uint64_t count() const { return count_; }
  /// Number of blocks (rows i = 0..N-2 when all pairs are used).
  std::int64_t blocks() const {
    return sampled_ ? std::int64_t((count_ + block_size - 1) / block_size) : std::int64_t(n_) - 1;
  }
  /// Calls f(p, i, j) for every pair of block b, p being its position 0..count()-1 overall.
  template <class F>
  void for_each(std::int64_t b, F&& f) const {
    if (!sampled_) {
      const auto i = index_t(b);
      std::uint64_t p = std::uint64_t(i) * std::uint64_t(2 * std::int64_t(n_) - i - 1) / 2;
      for (index_t j = i + 1; j < n_; ++j) f(p++, i, j);
      return;
    }
    Random random(seed_ ^ (0x9e3779b97f4a7c15ULL * std::uint64_t(b + 1)));
    const std::uint64_t begin = std::uint64_t(b) * block_size, end = std::min(count_, begin + block_size);
    for (std::uint64_t p = begin; p < end; ++p) {
      const auto i = index_t(random.below(std::uint64_t(n_)));
      auto j = index_t(random.below(std::uint64_t(n_ - 1)));
      if (j >= i) ++j;
      f(p, i, j);
    }
  }

 private:
  index_t n_;
  std::uint64_t seed_;
  bool sampled_ = false;
  std::uint64_t count_ = 0;
};

}  // namespace nldr::metrics
