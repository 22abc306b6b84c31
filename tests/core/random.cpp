#include <nldr/core/random.hpp>

#include "catch.hpp"

#include <cmath>
#include <cstdint>
#include <vector>

TEST_CASE("Random: same seed gives the same stream, different seeds differ", "[core][random]") {
  nldr::Random a(42), b(42), c(43);
  for (int i = 0; i < 100; ++i) {
    const auto x = a();
    CHECK(x == b());
    CHECK(x != c());
  }
}

TEST_CASE("Random: uniform and normal have the right moments", "[core][random]") {
  nldr::Random rng(7);
  const int n = 200000;
  double sum = 0, sum_sq = 0, nsum = 0, nsum_sq = 0;
  for (int i = 0; i < n; ++i) {
    const double u = rng.uniform();
    REQUIRE(u >= 0.0);
    REQUIRE(u < 1.0);
    sum += u;
    sum_sq += u * u;
    const double z = rng.normal();
    nsum += z;
    nsum_sq += z * z;
  }
  // Standard errors at n = 2e5: mean of U(0,1) ~ 6.5e-4, of N(0,1) ~ 2.2e-3; 5 sigma bounds.
  CHECK(std::abs(sum / n - 0.5) < 5 * 6.5e-4);
  CHECK(std::abs(sum_sq / n - 1.0 / 3.0) < 5e-3);
  CHECK(std::abs(nsum / n) < 5 * 2.2e-3);
  CHECK(std::abs(nsum_sq / n - 1.0) < 2e-2);
}

TEST_CASE("Random: below() covers 0 .. bound - 1 evenly", "[core][random]") {
  nldr::Random rng(1);
  std::vector<int> counts(7, 0);
  for (int i = 0; i < 70000; ++i) ++counts[rng.below(7)];
  for (int c : counts) CHECK(std::abs(c - 10000) < 500);  // sd ~ 93
}

TEST_CASE("Random: the stream is fixed across platforms", "[core][random]") {
  // SplitMix64(0) seeding gives the published state e220a8397b1dcdaf, 6e789e6aa1b965f4, ...;
  // the first xoshiro256** outputs from it were computed by an independent Python
  // transcription of the reference algorithm (prng.di.unimi.it).
  nldr::Random rng(0);
  CHECK(rng() == 0x99ec5f36cb75f2b4ULL);
  CHECK(rng() == 0xbf6e1f784956452aULL);
  CHECK(rng() == 0x1a5f849d4933e6e0ULL);
}
