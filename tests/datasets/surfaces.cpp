// Punctured sphere, twin peaks, Gaussian surface and Mobius strip against their equations.
#include <nldr/datasets/surfaces.hpp>

#include "catch.hpp"

#include <cmath>
#include <numbers>
#include <type_traits>

namespace {

namespace ds = nldr::datasets;
using std::numbers::pi;

template <class T>
constexpr double surface_tol = std::is_same_v<T, float> ? 2e-6 : 1e-13;  // values are O(1)

}  // namespace

TEMPLATE_TEST_CASE("punctured_sphere: on the unit sphere, cap z > 0.75 empty, uniform by area",
                   "[datasets][surfaces]", float, double) {
  const auto data = ds::punctured_sphere<TestType>({.n = 4000, .seed = 1});
  int south = 0;
  for (int i = 0; i < data.size(); ++i) {
    const double x = data.points(i, 0), y = data.points(i, 1), z = data.points(i, 2);
    CHECK(std::abs(std::sqrt(x * x + y * y + z * z) - 1) < 10 * surface_tol<TestType>);
    if (z > 0.75) FAIL_CHECK("point " << i << " in the puncture: z = " << z);
    if (z < 0) ++south;
    // Intrinsic = stereographic projection from the north pole, inside the disk of radius sqrt(7).
    CHECK(std::abs(data.intrinsic(i, 0) - x / (1 - z)) < 100 * surface_tol<TestType>);
    CHECK(std::abs(data.intrinsic(i, 1) - y / (1 - z)) < 100 * surface_tol<TestType>);
    CHECK(std::hypot(double(data.intrinsic(i, 0)), double(data.intrinsic(i, 1))) <= std::sqrt(7.0) + 1e-5);
    CHECK(data.parameter(i) == data.points(i, 2));
  }
  // Archimedes: area is uniform in z, so P(z < 0) = 1 / 1.75; standard error 0.0078 at n = 4000.
  CHECK(south / 4000.0 == Approx(1 / 1.75).margin(0.04));
}

TEMPLATE_TEST_CASE("twin_peaks: z = sin(pi x) tanh(3 y) on the square (-1, 1) x (-1, 1)", "[datasets][surfaces]", float, double) {
  const auto data = ds::twin_peaks<TestType>({.n = 1000, .seed = 2});
  for (int i = 0; i < data.size(); ++i) {
    const double x = data.points(i, 0), y = data.points(i, 1);
    REQUIRE(std::abs(x) <= 1);
    REQUIRE(std::abs(y) <= 1);
    CHECK(std::abs(data.points(i, 2) - std::sin(pi * x) * std::tanh(3 * y)) < 10 * surface_tol<TestType>);
    CHECK(data.intrinsic(i, 0) == data.points(i, 0));
    CHECK(data.intrinsic(i, 1) == data.points(i, 1));
  }
}

TEMPLATE_TEST_CASE("gaussian: z = exp(-(x^2 + y^2) / 2) / (2 pi) over standard normal (x, y)",
                   "[datasets][surfaces]", float, double) {
  const int n = 4000;
  const auto data = ds::gaussian<TestType>({.n = n, .seed = 3});
  double sx = 0, sy = 0, sxx = 0, syy = 0;
  for (int i = 0; i < n; ++i) {
    const double x = data.points(i, 0), y = data.points(i, 1);
    CHECK(std::abs(data.points(i, 2) - std::exp(-(x * x + y * y) / 2) / (2 * pi)) < surface_tol<TestType>);
    sx += x, sy += y, sxx += x * x, syy += y * y;
  }
  CHECK(data.labels.empty());
  // Standard errors at n = 4000: mean 0.016, second moment sqrt(2 / n) = 0.022; 5 of them.
  CHECK(std::abs(sx / n) < 0.08);
  CHECK(std::abs(sy / n) < 0.08);
  CHECK(sxx / n == Approx(1).margin(0.11));
  CHECK(syy / n == Approx(1).margin(0.11));
}

TEMPLATE_TEST_CASE("mobius: points on the strip, and (u + 2 pi, -v) is the same point", "[datasets][surfaces]", float,
                   double) {
  const auto strip = [](double u, double v) {
    const double r = 1 + 0.5 * v * std::cos(u / 2);
    return std::array<double, 3>{r * std::cos(u), r * std::sin(u), 0.5 * v * std::sin(u / 2)};
  };
  const auto data = ds::mobius<TestType>({.n = 800, .seed = 4});
  for (int i = 0; i < data.size(); ++i) {
    const double u = data.intrinsic(i, 0), v = data.intrinsic(i, 1);
    REQUIRE(u >= 0);
    REQUIRE(u < 2 * pi + 1e-6);
    REQUIRE(std::abs(v) <= 1);
    for (const auto& p : {strip(u, v), strip(u + 2 * pi, -v)})
      for (int k = 0; k < 3; ++k) CHECK(std::abs(data.points(i, k) - p[std::size_t(k)]) < 10 * surface_tol<TestType>);
  }
}
