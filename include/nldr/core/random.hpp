// A portable, seeded random number generator.
//
// std::normal_distribution and friends produce different streams on different
// standard libraries, so data sets would not be reproducible across platforms.
// nldr uses xoshiro256** (Blackman & Vigna 2018, https://prng.di.unimi.it/),
// seeded through SplitMix64, and its own uniform/normal transforms.
#pragma once

#include <nldr/core/types.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <numeric>
#include <utility>
#include <vector>

namespace nldr {

class Random {
 public:
  using result_type = std::uint64_t;

  explicit Random(std::uint64_t seed = 0) {
    for (auto& word : state_) word = split_mix(seed);
  }

  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return ~result_type{0}; }

  /// Next 64 random bits (xoshiro256**).
  result_type operator()() {
    const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
    const std::uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
  }

  /// Uniform double in [0, 1) with 53 random bits.
  double uniform() { return double((*this)() >> 11) * 0x1.0p-53; }

  /// Uniform double in [low, high).
  double uniform(double low, double high) { return low + (high - low) * uniform(); }

  /// Uniform integer in [0, bound), bound > 0, without modulo bias (rejection sampling).
  std::uint64_t below(std::uint64_t bound) {
    const std::uint64_t threshold = (0 - bound) % bound;  // 2^64 mod bound
    for (;;) {
      const std::uint64_t r = (*this)();
      if (r >= threshold) return r % bound;
    }
  }

  /// Standard normal variate (Box-Muller; both values of a pair are used).
  double normal() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    double u = 0;
    while (u == 0) u = uniform();  // log(0) is -inf
    const double v = uniform();
    const double radius = std::sqrt(-2.0 * std::log(u));
    const double angle = 2.0 * std::numbers::pi * v;
    spare_ = radius * std::sin(angle);
    has_spare_ = true;
    return radius * std::cos(angle);
  }

  /// Normal variate with the given mean and standard deviation.
  double normal(double mean, double stddev) { return mean + stddev * normal(); }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  static std::uint64_t split_mix(std::uint64_t& x) {
    std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

  std::array<std::uint64_t, 4> state_{};
  double spare_ = 0;
  bool has_spare_ = false;
};

/// m distinct indices of [0, n), uniformly at random without replacement, in the order drawn: the
/// first m entries of a partial Fisher-Yates shuffle driven by Random(seed). 0 <= m <= n.
inline std::vector<index_t> random_subset(index_t n, index_t m, std::uint64_t seed) {
  std::vector<index_t> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), index_t{0});
  Random random(seed);
  for (index_t a = 0; a < m; ++a)
    std::swap(order[std::size_t(a)], order[std::size_t(a) + std::size_t(random.below(std::uint64_t(n - a)))]);
  order.resize(std::size_t(m));
  return order;
}

}  // namespace nldr
