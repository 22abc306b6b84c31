// Swiss roll, Swiss hole and the non-uniform Swiss roll against the closed-form surface,
// numerical integration and path lengths measured in 3-D.
#include <nldr/datasets/swiss_roll.hpp>

#include "catch.hpp"
#include "chord_check.hpp"

#include <cmath>
#include <numbers>
#include <type_traits>

namespace {

namespace ds = nldr::datasets;
using std::numbers::pi;

// Composite Simpson rule for int_0^t sqrt(1 + x^2) dx, the spiral's speed (independent of the
// closed form): error ~ t h^4 max|f''''| / 180 < 1e-11 with h = t / 4000.
double simpson_arc_length(double t) {
  const int intervals = 4000;
  const double h = t / intervals;
  const auto speed = [](double x) { return std::sqrt(1 + x * x); };
  double sum = speed(0) + speed(t);
  for (int i = 1; i < intervals; ++i) sum += (i % 2 ? 4 : 2) * speed(i * h);
  return sum * h / 3;
}

// t with s(t) = s on the roll, by bisection (s is increasing).
double roll_angle(double s) {
  double lo = 0, hi = 5 * pi;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (ds::swiss_roll_arc_length(mid) < s ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

// Length in 3-D of the image of the straight segment between two intrinsic points (s, h),
// sampled at 4000 points: chords miss the arc by ~ l^2 / (24 R^2) relative, R >= 4.6, l <= 0.03.
double roll_segment_length(double s0, double h0, double s1, double h1) {
  const int steps = 4000;
  double length = 0, px = 0, py = 0, pz = 0;
  for (int k = 0; k <= steps; ++k) {
    const double f = double(k) / steps;
    const double t = roll_angle(s0 + f * (s1 - s0)), h = h0 + f * (h1 - h0);
    const double x = t * std::cos(t), y = h, z = t * std::sin(t);
    if (k > 0) length += std::sqrt((x - px) * (x - px) + (y - py) * (y - py) + (z - pz) * (z - pz));
    px = x, py = y, pz = z;
  }
  return length;
}

template <class T>
constexpr double roll_tol = std::is_same_v<T, float> ? 1e-4 : 1e-10;  // float keeps ~7 digits of values up to ~15

}  // namespace

TEST_CASE("swiss_roll_arc_length matches Simpson integration of the spiral's speed", "[datasets][swiss_roll]") {
  for (const double t : {0.5, 1.5 * pi, 7.0, 4.5 * pi, 20.0})
    CHECK(ds::swiss_roll_arc_length(t) == Approx(simpson_arc_length(t)).epsilon(1e-10));
  CHECK(ds::swiss_roll_arc_length(0) == 0);
}

TEMPLATE_TEST_CASE("swiss_roll: points on the surface, intrinsic = (arc length, height)", "[datasets][swiss_roll]",
                   float, double) {
  const auto data = ds::swiss_roll<TestType>({.n = 500, .seed = 2});
  for (int i = 0; i < data.size(); ++i) {
    const double t = data.parameter(i), h = data.intrinsic(i, 1);
    REQUIRE(t >= 1.5 * pi);
    REQUIRE(t <= 4.5 * pi);
    REQUIRE(h >= 0);
    REQUIRE(h <= 21);
    CHECK(std::abs(data.points(i, 0) - t * std::cos(t)) < roll_tol<TestType>);
    CHECK(std::abs(data.points(i, 1) - h) < roll_tol<TestType>);
    CHECK(std::abs(data.points(i, 2) - t * std::sin(t)) < roll_tol<TestType>);
    CHECK(std::abs(data.intrinsic(i, 0) - simpson_arc_length(t)) < roll_tol<TestType> * 10);
  }
}

TEST_CASE("swiss_roll: manifold distance = 3-D length of the unrolled straight path", "[datasets][swiss_roll]") {
  const auto data = ds::swiss_roll({.n = 200, .seed = 6});
  for (int i = 0; i < 10; ++i) {
    const int j = 199 - 7 * i;
    const double along = roll_segment_length(data.intrinsic(i, 0), data.intrinsic(i, 1), data.intrinsic(j, 0),
                                               data.intrinsic(j, 1));
    CHECK(data.manifold_distance(i, j) == Approx(along).epsilon(1e-5));
  }
}

TEMPLATE_TEST_CASE("swiss_roll: close pairs are as far apart in 3-D as in intrinsic coordinates",
                   "[datasets][swiss_roll]", float, double) {
  const auto data = ds::swiss_roll<TestType>({.n = 800, .seed = 3});
  // A chord of arc l on a curve of radius R >= 4.6 is short by l^2 / (24 R^2) < 0.2%.
  CHECK(dataset_test::check_close_pair_deficits(data, 1.0) > 200);
}

TEMPLATE_TEST_CASE("swiss_hole: the hole t in (9, 12), h in (9, 14) is empty, its rim populated",
                   "[datasets][swiss_roll]", float, double) {
  const auto data = ds::swiss_hole<TestType>({.n = 3000, .seed = 5});
  CHECK_FALSE(data.intrinsic_is_isometric);
  int around = 0;
  for (int i = 0; i < data.size(); ++i) {
    const double t = data.parameter(i), h = data.intrinsic(i, 1);
    if (t > 9 && t < 12 && h > 9 && h < 14) FAIL_CHECK("point " << i << " in the hole: t " << t << ", h " << h);
    if (t > 8 && t < 13 && h > 8 && h < 15) ++around;
    CHECK(std::abs(data.points(i, 0) - t * std::cos(t)) < roll_tol<TestType>);
    CHECK(std::abs(data.points(i, 2) - t * std::sin(t)) < roll_tol<TestType>);
  }
  // Expected about 3000 * (5 * 7 - 3 * 5) / (3 pi * 21 - 15) = 325 points in the frame.
  CHECK(around > 200);
}

TEMPLATE_TEST_CASE("nonuniform_swiss_roll: strip empty, density falling along the roll", "[datasets][swiss_roll]",
                   float, double) {
  const auto data = ds::nonuniform_swiss_roll<TestType>({.n = 2000, .seed = 7});
  const auto& strip = std::get<ds::RectangularHoleGeodesic>(data.geodesic);
  CHECK(strip.lower()[0] == Approx(ds::swiss_roll_arc_length(2.9 * pi)));
  CHECK(strip.upper()[0] == Approx(ds::swiss_roll_arc_length(3.1 * pi)));
  int inner = 0, outer = 0;
  for (int i = 0; i < data.size(); ++i) {
    const double t = data.parameter(i), h = data.intrinsic(i, 1);
    REQUIRE(t >= 1.5 * pi);
    REQUIRE(t <= 4.5 * pi);
    if (t > 2.9 * pi && t < 3.1 * pi && h > 3 && h < 18) FAIL_CHECK("point " << i << " in the strip");
    if (t < 2.5 * pi) ++inner;
    if (t > 3.5 * pi) ++outer;
    CHECK(std::abs(data.points(i, 0) - t * std::cos(t)) < roll_tol<TestType>);
  }
  // Truncated exponential with an 8x drop: P(inner third) / P(outer third) = (1 - 8^(-1/3)) /
  // (8^(-2/3) - 8^(-1)) = 4 (the strip lies in the middle third). With ~1040 and ~260 points
  // the ratio's standard error is ~0.28; the bound is over 3.5 of them.
  CHECK(double(inner) / outer == Approx(4.0).margin(1.0));
}
