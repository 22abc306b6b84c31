#include <nldr/core/correlation.hpp>
#include <nldr/core/random.hpp>

#include "catch.hpp"

#include <cmath>
#include <vector>

namespace {
// Two-pass textbook Pearson r as the independent reference.
double two_pass_r(const std::vector<double>& a, const std::vector<double>& b) {
  double ma = 0, mb = 0;
  for (std::size_t i = 0; i < a.size(); ++i) ma += a[i], mb += b[i];
  ma /= double(a.size());
  mb /= double(b.size());
  double sab = 0, saa = 0, sbb = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    sab += (a[i] - ma) * (b[i] - mb);
    saa += (a[i] - ma) * (a[i] - ma);
    sbb += (b[i] - mb) * (b[i] - mb);
  }
  return sab / std::sqrt(saa * sbb);
}
}  // namespace

TEST_CASE("PearsonAccumulator equals a two-pass reference, also when merged", "[core][correlation]") {
  nldr::Random rng(3);
  std::vector<double> a, b;
  for (int i = 0; i < 1000; ++i) {
    a.push_back(1e6 + rng.normal());  // large offset: tests the shifted sums
    b.push_back(0.5 * (a.back() - 1e6) + rng.normal());
  }
  nldr::PearsonAccumulator whole, first, second;
  for (std::size_t i = 0; i < a.size(); ++i) {
    whole.add(a[i], b[i]);
    (i < 400 ? first : second).add(a[i], b[i]);
  }
  first.merge(second);
  const double reference = two_pass_r(a, b);
  // 1e-9: both are double sums of 1000 O(1) terms after the shift; rounding is ~1e-13.
  CHECK_THAT(whole.correlation(), WithinAbs(reference, 1e-9));
  CHECK_THAT(first.correlation(), WithinAbs(reference, 1e-9));
  CHECK(first.count() == 1000);
}

TEST_CASE("PearsonAccumulator: perfect, anti and undefined correlation", "[core][correlation]") {
  nldr::PearsonAccumulator up, down, flat;
  for (int i = 0; i < 10; ++i) {
    up.add(i, 3.0 * i + 1);
    down.add(i, -2.0 * i);
    flat.add(i, 5.0);
  }
  CHECK_THAT(up.correlation(), WithinAbs(1.0, 1e-12));
  CHECK_THAT(down.correlation(), WithinAbs(-1.0, 1e-12));
  CHECK(std::isnan(flat.correlation()));
}
