// Exact geodesic models against hand-computed cases and brute-force shortest paths.
#include <nldr/datasets/geodesic.hpp>
#include <nldr/datasets/surfaces.hpp>
#include <nldr/datasets/swiss_roll.hpp>

#include "catch.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

namespace {

namespace ds = nldr::datasets;
using Point2 = std::array<double, 2>;
using std::numbers::pi;

double call(const auto& model, const Point2& a, const Point2& b) { return model(a, b); }

// Brute-force reference for a rectangle hole: shortest path over the graph {p, q, M points
// around the hole's perimeter (corners included)}, where p/q connect to every perimeter point
// whose segment misses the open hole (checked by sampling 500 points, not by clipping), and
// perimeter points connect to their perimeter neighbors (a segment between two boundary
// points of a convex set either runs along an edge or cuts through the interior).
double hole_reference(const Point2& lo, const Point2& hi, const Point2& p, const Point2& q) {
  const auto inside = [&](double x, double y) {
    const double m = 1e-9;
    return x > lo[0] + m && x < hi[0] - m && y > lo[1] + m && y < hi[1] - m;
  };
  const auto clear = [&](const Point2& a, const Point2& b) {
    for (int s = 0; s <= 500; ++s) {
      const double f = s / 500.0;
      if (inside(a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1]))) return false;
    }
    return true;
  };
  const auto dist = [](const Point2& a, const Point2& b) { return std::hypot(a[0] - b[0], a[1] - b[1]); };
  if (clear(p, q)) return dist(p, q);
  // 100 points per edge, starting at each corner, walking counter-clockwise.
  const std::array<Point2, 5> corner{Point2{lo[0], lo[1]}, Point2{hi[0], lo[1]}, Point2{hi[0], hi[1]},
                                     Point2{lo[0], hi[1]}, Point2{lo[0], lo[1]}};
  std::vector<Point2> ring;
  std::vector<double> at;  // perimeter coordinate
  double walked = 0;
  for (int e = 0; e < 4; ++e)
    for (int s = 0; s < 100; ++s) {
      const double f = s / 100.0;
      ring.push_back({corner[e][0] + f * (corner[e + 1][0] - corner[e][0]),
                      corner[e][1] + f * (corner[e + 1][1] - corner[e][1])});
      at.push_back(walked + f * dist(corner[e], corner[e + 1]));
      if (s == 99) walked += dist(corner[e], corner[e + 1]);
    }
  const double perimeter = walked;
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> from_p(ring.size(), inf), to_q(ring.size(), inf);
  for (std::size_t a = 0; a < ring.size(); ++a) {
    if (clear(p, ring[a])) from_p[a] = dist(p, ring[a]);
    if (clear(ring[a], q)) to_q[a] = dist(ring[a], q);
  }
  double best = inf;
  for (std::size_t a = 0; a < ring.size(); ++a) {
    if (from_p[a] == inf) continue;
    for (std::size_t b = 0; b < ring.size(); ++b) {
      const double around = std::abs(at[a] - at[b]);
      best = std::min(best, from_p[a] + std::min(around, perimeter - around) + to_q[b]);
    }
  }
  return best;
}

std::array<double, 3> on_sphere(const Point2& uv) { return ds::PuncturedSphereGeodesic::from_stereographic(uv[0], uv[1]); }

double great_circle(const std::array<double, 3>& p, const std::array<double, 3>& q) {
  return std::acos(std::clamp(p[0] * q[0] + p[1] * q[1] + p[2] * q[2], -1.0, 1.0));
}

// Brute-force reference for the punctured sphere: p -> rim point a -> along the rim -> rim
// point b -> q over M = 720 rim points, the arcs p-a and b-q being minor great-circle arcs
// checked by sampling to stay below the cap; or the direct arc when it stays below.
double sphere_reference(double z_max, const std::array<double, 3>& p, const std::array<double, 3>& q) {
  const auto clear = [&](const std::array<double, 3>& a, const std::array<double, 3>& b) {
    for (int s = 1; s < 400; ++s) {  // slerp-free: normalize the chord point (same great circle)
      const double f = s / 400.0;
      std::array<double, 3> x{a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1]), a[2] + f * (b[2] - a[2])};
      const double norm = std::sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
      if (x[2] / norm > z_max + 1e-12) return false;
    }
    return true;
  };
  if (clear(p, q)) return great_circle(p, q);
  const int m = 720;
  const double rho = std::sqrt(1 - z_max * z_max);
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> from_p(m, inf), to_q(m, inf);
  for (int a = 0; a < m; ++a) {
    const double phi = 2 * pi * a / m;
    const std::array<double, 3> r{rho * std::cos(phi), rho * std::sin(phi), z_max};
    if (clear(p, r)) from_p[std::size_t(a)] = great_circle(p, r);
    if (clear(r, q)) to_q[std::size_t(a)] = great_circle(r, q);
  }
  double best = inf;
  for (int a = 0; a < m; ++a) {
    if (from_p[std::size_t(a)] == inf) continue;
    for (int b = 0; b < m; ++b) {
      const int steps = std::abs(a - b);
      best = std::min(best, from_p[std::size_t(a)] + rho * 2 * pi * std::min(steps, m - steps) / m + to_q[std::size_t(b)]);
    }
  }
  return best;
}

}  // namespace

TEST_CASE("RectangularHoleGeodesic: hand-computed paths", "[datasets][geodesic]") {
  const ds::RectangularHoleGeodesic hole({0, 0}, {2, 1});
  // Straight line clear of the hole, or running along its edge.
  CHECK(call(hole, {-1, 2}, {3, 2}) == Approx(4.0));
  CHECK(call(hole, {-1, 1}, {3, 1}) == Approx(4.0));
  // Blocked: over the top, via corners (0, 1) and (2, 1): 2 sqrt(1 + 1/4) + 2.
  CHECK(call(hole, {-1, 0.5}, {3, 0.5}) == Approx(2 * std::sqrt(1.25) + 2).epsilon(1e-12));
  // Blocked and lopsided: below is shorter, via (0, 0) and (2, 0).
  CHECK(call(hole, {-1, 0.2}, {3, 0.2}) == Approx(2 * std::hypot(1.0, 0.2) + 2).epsilon(1e-12));
  // Around a corner: from the left side to the top side, via (0, 1).
  CHECK(call(hole, {-0.5, 0.5}, {1, 1.5}) == Approx(std::hypot(0.5, 0.5) + std::hypot(1.0, 0.5)).epsilon(1e-12));
  // Opposite sides across the short way (top to bottom), via two corners on one side.
  CHECK(call(hole, {0.5, 1.5}, {0.5, -0.5}) == Approx(2 * std::hypot(0.5, 0.5) + 1).epsilon(1e-12));
  CHECK(hole.in_hole(1, 0.5));
  CHECK_FALSE(hole.in_hole(2, 0.5));
  CHECK_THROWS_AS(ds::RectangularHoleGeodesic({0, 0}, {0, 1}), nldr::invalid_argument);
}

TEST_CASE("RectangularHoleGeodesic: Swiss hole distances match a brute-force shortest path", "[datasets][geodesic]") {
  const auto data = ds::swiss_hole({.n = 400, .seed = 4});
  const auto& hole = std::get<ds::RectangularHoleGeodesic>(data.geodesic);
  // The hole of the documented definition: t in (9, 12), h in (9, 14), unrolled by s(t).
  CHECK(hole.lower()[0] == Approx(ds::swiss_roll_arc_length(9)));
  CHECK(hole.upper()[0] == Approx(ds::swiss_roll_arc_length(12)));
  CHECK(hole.lower()[1] == 9);
  CHECK(hole.upper()[1] == 14);
  // Pairs across the hole (left and right of it, in its height band) and arbitrary pairs.
  std::vector<int> left, right;
  for (int i = 0; i < data.size(); ++i) {
    const double s = data.intrinsic(i, 0), h = data.intrinsic(i, 1);
    if (h > 8 && h < 15 && s < hole.lower()[0] && s > hole.lower()[0] - 15) left.push_back(i);
    if (h > 8 && h < 15 && s > hole.upper()[0] && s < hole.upper()[0] + 15) right.push_back(i);
  }
  REQUIRE(left.size() >= 5);
  REQUIRE(right.size() >= 5);
  int bent = 0;
  const auto check_pair = [&](int i, int j) {
    const Point2 p{data.intrinsic(i, 0), data.intrinsic(i, 1)}, q{data.intrinsic(j, 0), data.intrinsic(j, 1)};
    const double reference = hole_reference(hole.lower(), hole.upper(), p, q);
    const double exact = data.manifold_distance(i, j);
    INFO("pair " << i << ", " << j);
    // The reference is exact up to its sampled visibility test (500 samples per segment).
    CHECK(exact == Approx(reference).epsilon(1e-7));
    if (exact > std::hypot(p[0] - q[0], p[1] - q[1]) + 1e-6) ++bent;
  };
  for (std::size_t a = 0; a < 5; ++a)
    for (std::size_t b = 0; b < 5; ++b) check_pair(left[a], right[b]);
  for (int i = 0; i < 15; ++i) check_pair(i, 399 - i);
  CHECK(bent >= 10);
}

TEST_CASE("PuncturedSphereGeodesic: hand-computed paths and the stereographic chart", "[datasets][geodesic]") {
  const double z_max = 0.75, rho = std::sqrt(1 - z_max * z_max);
  const ds::PuncturedSphereGeodesic sphere(z_max);
  const auto uv = [](double x, double y, double z) {
    const auto c = ds::PuncturedSphereGeodesic::to_stereographic({x, y, z});
    return Point2{c[0], c[1]};
  };
  // Round trip through the chart.
  const auto back = on_sphere(uv(0.6, 0, -0.8));
  CHECK(back[0] == Approx(0.6));
  CHECK(std::abs(back[1]) < 1e-15);
  CHECK(back[2] == Approx(-0.8));
  // Antipodal rim points: half the rim (the great circle over the pole crosses the cap).
  CHECK(call(sphere, uv(rho, 0, z_max), uv(-rho, 0, z_max)) == Approx(rho * pi).epsilon(1e-12));
  // On the equator: the equator arc, which the cap does not touch.
  CHECK(call(sphere, uv(1, 0, 0), uv(0, 1, 0)) == Approx(pi / 2).epsilon(1e-12));
  // Antipodal equator points: pi (half a great circle avoids the cap).
  CHECK(call(sphere, uv(1, 0, 0), uv(-1, 0, 0)) == Approx(pi).epsilon(1e-12));
  // South pole to a rim point: along the meridian, pi - acos(z_max)... from the south pole.
  CHECK(call(sphere, uv(0, 0, -1), uv(rho, 0, z_max)) == Approx(pi - std::acos(z_max)).epsilon(1e-12));
  CHECK_THROWS_AS(ds::PuncturedSphereGeodesic(0.0), nldr::invalid_argument);
  CHECK_THROWS_AS(ds::PuncturedSphereGeodesic(1.0), nldr::invalid_argument);
}

TEST_CASE("PuncturedSphereGeodesic: distances match a brute-force path around the cap", "[datasets][geodesic]") {
  const auto data = ds::punctured_sphere({.n = 300, .seed = 8});
  const double z_max = ds::punctured_sphere_z_max;
  std::vector<int> high, any;
  for (int i = 0; i < data.size(); ++i) (data.points(i, 2) > 0.3 ? high : any).push_back(i);
  REQUIRE(high.size() >= 20);
  int wrapped = 0;
  const auto check_pair = [&](int i, int j) {
    const Point2 a{data.intrinsic(i, 0), data.intrinsic(i, 1)}, b{data.intrinsic(j, 0), data.intrinsic(j, 1)};
    const auto p = on_sphere(a), q = on_sphere(b);
    const double reference = sphere_reference(z_max, p, q);
    const double exact = data.manifold_distance(i, j);
    INFO("pair " << i << ", " << j << ": z " << p[2] << ", " << q[2]);
    // The reference path is feasible, so never shorter than the exact geodesic; it is
    // longer only by its rim discretization (0.5 degree steps: second order, < 1e-3).
    CHECK(exact <= reference + 1e-9);
    CHECK(reference - exact < 1e-3);
    if (exact > great_circle(p, q) + 1e-6) ++wrapped;
  };
  for (std::size_t k = 0; k + 1 < 40; k += 2) check_pair(high[k], high[k + 1]);
  for (std::size_t k = 0; k < 10; ++k) check_pair(high[k], any[k]);
  CHECK(wrapped >= 5);
}

TEST_CASE("ClosedCurveGeodesic: the shorter way round", "[datasets][geodesic]") {
  const ds::ClosedCurveGeodesic loop{10.0};
  const std::array<double, 1> a{1.0}, b{4.0}, c{9.5};
  CHECK(loop(a, b) == Approx(3.0));
  CHECK(loop(a, c) == Approx(1.5));
  CHECK(loop(c, a) == Approx(1.5));
  CHECK(loop(a, a) == 0.0);
}
