// S-curve and broken S-curve against the closed-form surface and 3-D path lengths.
#include <nldr/datasets/s_curve.hpp>

#include "catch.hpp"
#include "chord_check.hpp"

#include <cmath>
#include <numbers>
#include <type_traits>

namespace {

namespace ds = nldr::datasets;
using std::numbers::pi;

std::array<double, 3> s_point(double t, double y) {
  return {std::sin(t), y, (t < 0 ? -1.0 : 1.0) * (std::cos(t) - 1)};
}

// 3-D length of the image of a straight intrinsic segment (s = t + 1.5 pi), 4000 chords.
double s_curve_segment_length(double s0, double y0, double s1, double y1) {
  double length = 0;
  auto previous = s_point(s0 - 1.5 * pi, y0);
  for (int k = 1; k <= 4000; ++k) {
    const double f = k / 4000.0;
    const auto p = s_point(s0 + f * (s1 - s0) - 1.5 * pi, y0 + f * (y1 - y0));
    length += std::hypot(p[0] - previous[0], p[1] - previous[1], p[2] - previous[2]);
    previous = p;
  }
  return length;
}

template <class T>
constexpr double s_curve_tol = std::is_same_v<T, float> ? 1e-5 : 1e-12;

}  // namespace

TEMPLATE_TEST_CASE("s_curve: points satisfy the curve equations, intrinsic = (t + 1.5 pi, y)", "[datasets][s_curve]",
                   float, double) {
  const auto data = ds::s_curve<TestType>({.n = 500, .seed = 1});
  CHECK(data.intrinsic_is_isometric);
  for (int i = 0; i < data.size(); ++i) {
    const double t = data.parameter(i), y = data.points(i, 1);
    REQUIRE(std::abs(t) <= 1.5 * pi);
    REQUIRE(y >= 0);
    REQUIRE(y <= 2);
    CHECK(std::abs(data.points(i, 0) - std::sin(t)) < s_curve_tol<TestType>);
    CHECK(std::abs(data.points(i, 2) - (t < 0 ? -1 : 1) * (std::cos(t) - 1)) < s_curve_tol<TestType>);
    CHECK(std::abs(data.intrinsic(i, 0) - (t + 1.5 * pi)) < 10 * s_curve_tol<TestType>);
    CHECK(std::abs(data.intrinsic(i, 1) - y) < s_curve_tol<TestType>);
  }
}

TEST_CASE("s_curve: the first intrinsic coordinate is the arc length of the profile", "[datasets][s_curve]") {
  const auto data = ds::s_curve({.n = 10, .seed = 4});
  for (int i = 0; i < data.size(); ++i) {
    // Polyline of 20000 chords from t = -1.5 pi (relative error ~ h^2 / 24 ~ 1e-9).
    const double t = data.parameter(i);
    double length = 0;
    for (int k = 1; k <= 20000; ++k) {
      const auto a = s_point(-1.5 * pi + (k - 1) * (t + 1.5 * pi) / 20000, 0);
      const auto b = s_point(-1.5 * pi + k * (t + 1.5 * pi) / 20000, 0);
      length += std::hypot(a[0] - b[0], a[2] - b[2]);
    }
    CHECK(data.intrinsic(i, 0) == Approx(length).epsilon(1e-7));
  }
}

TEST_CASE("s_curve: manifold distance = 3-D length of the unrolled straight path", "[datasets][s_curve]") {
  const auto data = ds::s_curve({.n = 100, .seed = 6});
  for (int i = 0; i < 10; ++i) {
    const int j = 99 - 5 * i;
    const double along = s_curve_segment_length(data.intrinsic(i, 0), data.intrinsic(i, 1), data.intrinsic(j, 0),
                                               data.intrinsic(j, 1));
    CHECK(data.manifold_distance(i, j) == Approx(along).epsilon(1e-6));
  }
}

TEMPLATE_TEST_CASE("s_curve: close pairs are as far apart in 3-D as in intrinsic coordinates", "[datasets][s_curve]",
                   float, double) {
  const auto data = ds::s_curve<TestType>({.n = 800, .seed = 3});
  // Unit-radius arcs: a chord of arc l is short by l^2 / 24 < 0.4% for l < 0.3.
  CHECK(dataset_test::check_close_pair_deficits(data, 0.3) > 500);
}

TEMPLATE_TEST_CASE("broken_s_curve: the band |t| < 0.15 pi is empty and splits the sample in two",
                   "[datasets][s_curve]", float, double) {
  const auto data = ds::broken_s_curve<TestType>({.n = 1000, .seed = 8});
  int below = 0, above = 0;
  for (int i = 0; i < data.size(); ++i) {
    const double t = data.parameter(i);
    if (std::abs(t) < 0.15 * pi) FAIL_CHECK("point " << i << " in the gap: t = " << t);
    (t < 0 ? below : above) += 1;
    CHECK(std::abs(data.points(i, 0) - std::sin(t)) < s_curve_tol<TestType>);
  }
  // Each piece holds half the length: 500 expected, sd ~16.
  CHECK(std::abs(below - 500) < 80);
  CHECK(above == 1000 - below);
  // The closest points of the two pieces are the gap's ends, sqrt((2 sin a)^2 + (2 (1 - cos a))^2)
  // = 2 sqrt(2 - 2 cos a) = 0.934 apart for a = 0.15 pi; a sample can only be farther apart.
  const nldr::Matrix<double> x = data.points.template cast<double>();
  double nearest = 1e9;
  for (int i = 0; i < data.size(); ++i)
    for (int j = 0; j < data.size(); ++j)
      if (data.parameter(i) < 0 && data.parameter(j) > 0)
        nearest = std::min(nearest, std::hypot(x(i, 0) - x(j, 0), x(i, 1) - x(j, 1), x(i, 2) - x(j, 2)));
  CHECK(nearest > 2 * std::sqrt(2 - 2 * std::cos(0.15 * pi)) - 1e-6);
  CHECK(nearest < 1.2);
}
