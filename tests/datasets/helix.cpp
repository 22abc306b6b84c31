// Toroidal helix: the curve equations, and arc lengths against fine polylines.
#include <nldr/datasets/helix.hpp>

#include "catch.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <type_traits>

namespace {

namespace ds = nldr::datasets;
using std::numbers::pi;

std::array<double, 3> helix(double t) {
  return {(2 + std::cos(8 * t)) * std::cos(t), (2 + std::cos(8 * t)) * std::sin(t), std::sin(8 * t)};
}

// Length of the polyline through the curve with `steps` equal steps in t from t0 to t1.
double polyline(double t0, double t1, int steps) {
  double length = 0;
  auto previous = helix(t0);
  for (int k = 1; k <= steps; ++k) {
    const auto p = helix(t0 + (t1 - t0) * k / steps);
    length += std::hypot(p[0] - previous[0], p[1] - previous[1], p[2] - previous[2]);
    previous = p;
  }
  return length;
}

// Arc length from t0 to t1 > t0 by polylines: a chord of arc l is short by (kappa l)^2 / 24
// relative (speed ~8.3, curvature ~0.9: 1e-7 at steps of 2e-4 in t), so the polyline error is
// C h^2 + O(h^4) and Richardson extrapolation (4 P(h/2) - P(h)) / 3 leaves ~1e-12.
double polyline_length(double t0, double t1) {
  const int steps = std::max(1, int(std::ceil((t1 - t0) / 2e-4)));
  return (4 * polyline(t0, t1, 2 * steps) - polyline(t0, t1, steps)) / 3;
}

}  // namespace

TEST_CASE("toroidal_helix_arc_length matches the polyline length of the curve", "[datasets][helix]") {
  CHECK(ds::toroidal_helix_arc_length(0) == 0);
  for (const double t : {0.1, 0.7, 2.0, pi, 5.5})
    CHECK(ds::toroidal_helix_arc_length(t) == Approx(polyline_length(0, t)).epsilon(1e-11));
  CHECK(ds::toroidal_helix_length() == Approx(polyline_length(0, 2 * pi)).epsilon(1e-11));
}

TEMPLATE_TEST_CASE("toroidal_helix: points on the curve, intrinsic = arc length", "[datasets][helix]", float,
                   double) {
  const double tol = std::is_same_v<TestType, float> ? 1e-5 : 1e-12;
  const auto data = ds::toroidal_helix<TestType>({.n = 300, .seed = 5});
  const double length = ds::toroidal_helix_length();
  for (int i = 0; i < data.size(); ++i) {
    const double t = data.parameter(i);
    REQUIRE(t >= 0);
    REQUIRE(t < 2 * pi + 1e-6);
    const auto p = helix(t);
    for (int k = 0; k < 3; ++k) CHECK(std::abs(data.points(i, k) - p[std::size_t(k)]) < 10 * tol);
    REQUIRE(data.intrinsic(i, 0) >= 0);
    REQUIRE(data.intrinsic(i, 0) <= length * (1 + tol));
  }
  for (int i = 0; i < 8; ++i)
    CHECK(data.intrinsic(i, 0) == Approx(polyline_length(0, data.parameter(i))).epsilon(std::max(tol, 1e-10)));
}

TEST_CASE("toroidal_helix: manifold distance = the shorter arc between two points", "[datasets][helix]") {
  const auto data = ds::toroidal_helix({.n = 40, .seed = 6});
  for (int i = 0; i < 6; ++i) {
    const int j = 39 - i;
    const double a = std::min(data.parameter(i), data.parameter(j)), b = std::max(data.parameter(i), data.parameter(j));
    const double inside = polyline_length(a, b), outside = polyline_length(b, 2 * pi) + polyline_length(0, a);
    CHECK(data.manifold_distance(i, j) == Approx(std::min(inside, outside)).epsilon(1e-10));
  }
}
