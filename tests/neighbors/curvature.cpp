#include <nldr/core/random.hpp>
#include <nldr/neighbors/curvature.hpp>

#include "catch.hpp"

#include <Eigen/QR>
#include <cmath>
#include <limits>
#include <numbers>

namespace {

/// n points uniform on the sphere of radius r (normalized Gaussian vectors).
template <class T>
nldr::Matrix<T> sphere(int n, double r, std::uint64_t seed) {
  nldr::Random rng(seed);
  nldr::Matrix<T> X(n, 3);
  for (int i = 0; i < n; ++i) {
    Eigen::Vector3d v(rng.normal(), rng.normal(), rng.normal());
    X.row(i) = (r * v.normalized()).cast<T>().transpose();
  }
  return X;
}

/// n points uniform on the cylinder of radius r and height 4 around the z axis.
template <class T>
nldr::Matrix<T> cylinder(int n, double r, std::uint64_t seed) {
  nldr::Random rng(seed);
  nldr::Matrix<T> X(n, 3);
  for (int i = 0; i < n; ++i) {
    const double angle = rng.uniform(0, 2 * std::numbers::pi);
    X.row(i) << T(r * std::cos(angle)), T(r * std::sin(angle)), T(rng.uniform(0, 4));
  }
  return X;
}

/// Relative accuracy of the quadratic fit. With 3000 points on a sphere of radius 2 the 20
/// nearest neighbors lie within rho ~ 0.35 (area 50 / 3000 per point); the quartic term of the
/// height, u^4 / (8 r^3), biases the fitted curvature by O((rho / r)^2) ~ 3%. 6% leaves room
/// for the tilt of the PCA frame. float: coordinates carry 6e-8 relative error, negligible here.
constexpr double fit_tolerance = 0.06;

}  // namespace

TEMPLATE_TEST_CASE("Curvature of a sphere of radius r is K_H = 1/r, K_G = 1/r^2 at every point",
                   "[neighbors][curvature]", float, double) {
  const double r = 2.0;
  const auto X = sphere<TestType>(3000, r, 17);
  const auto curv = nldr::estimate_curvature(X, {.k = 20, .intrinsic_dim = 2});
  REQUIRE(curv.mean.size() == 3000);
  for (int i = 0; i < 3000; ++i) {
    INFO("point " << i);
    REQUIRE_THAT(double(curv.mean(i)), WithinRel(1 / r, fit_tolerance));
    REQUIRE_THAT(double(curv.gaussian(i)), WithinRel(1 / (r * r), 2 * fit_tolerance));  // product of two
  }
}

TEMPLATE_TEST_CASE("Curvature of a cylinder: K_G = 0, K_H = 1/(2r), and of a tilted plane 0, 0",
                   "[neighbors][curvature]", float, double) {
  const double r = 1.5;
  const auto X = cylinder<TestType>(3000, r, 4);
  const auto curv = nldr::estimate_curvature(X, {.k = 20});
  for (int i = 0; i < 3000; ++i) {
    INFO("cylinder point " << i);
    REQUIRE_THAT(double(curv.mean(i)), WithinRel(1 / (2 * r), fit_tolerance));
    // K_G = 0 exactly on the surface; the fit error is judged against the scale 1/r^2.
    REQUIRE_THAT(double(curv.gaussian(i)), WithinAbs(0, fit_tolerance / (r * r)));
  }
  nldr::Random rng(9);
  nldr::Matrix<TestType> P(500, 3);
  for (int i = 0; i < 500; ++i) {
    const double x = rng.uniform(-3, 3), y = rng.uniform(-3, 3);
    P.row(i) << TestType(x), TestType(y), TestType(0.3 * x - 0.2 * y + 1);
  }
  const auto flat = nldr::estimate_curvature(P, {.k = 12});
  // Only rounding: coordinates err by ~eps * 3, heights over neighborhoods of radius ~0.5,
  // curvature ~ height error / rho^2: 1e-4 bounds float, 1e-9 double, with margin.
  const double tol = std::is_same_v<TestType, float> ? 1e-4 : 1e-9;
  CHECK(flat.mean.cwiseAbs().maxCoeff() < tol);
  CHECK(flat.gaussian.cwiseAbs().maxCoeff() < tol);
}

TEST_CASE("Curvature of a sphere embedded in 30 dimensions is unchanged", "[neighbors][curvature]") {
  // An isometric embedding (orthonormal 3 -> 30 map) keeps the curvature: this runs the path
  // that works on the neighborhood Gram matrix (D = 30 > k + 1 = 16 points).
  const double r = 3.0;
  const auto X3 = sphere<double>(2000, r, 21);
  nldr::Random rng(5);
  Eigen::MatrixXd G(30, 3);
  for (int a = 0; a < 30; ++a)
    for (int b = 0; b < 3; ++b) G(a, b) = rng.normal();
  const Eigen::MatrixXd Q = Eigen::HouseholderQR<Eigen::MatrixXd>(G).householderQ() * Eigen::MatrixXd::Identity(30, 3);
  const nldr::Matrix<double> X = X3 * Q.transpose();
  const auto curv = nldr::estimate_curvature(X, {.k = 15});
  const auto reference = nldr::estimate_curvature(X3, {.k = 15});
  for (int i = 0; i < 2000; ++i) {
    REQUIRE_THAT(curv.mean(i), WithinRel(1 / r, fit_tolerance));
    // Same neighborhoods, same fit: only rounding differs from the 3-D estimate.
    REQUIRE_THAT(curv.gaussian(i), WithinAbs(reference.gaussian(i), 1e-9));
  }
}

namespace {

/// Neighborhood of point i as the fits take it: x_i and its neighbors relative to x_i, in double.
template <class T>
Eigen::MatrixXd local_coordinates(const nldr::Matrix<T>& X, const nldr::NeighborGraph<T>& graph, int i) {
  const auto list = graph.neighbors(i);
  Eigen::MatrixXd local = Eigen::MatrixXd::Zero(Eigen::Index(list.size()) + 1, X.cols());
  for (std::size_t a = 0; a < list.size(); ++a)
    local.row(Eigen::Index(a) + 1) = X.row(list[a]).template cast<double>() - X.row(i).template cast<double>();
  return local;
}

}  // namespace

TEMPLATE_TEST_CASE("The fixed-size surface fit agrees with the general fit, which takes over where it is ill-posed",
                   "[neighbors][curvature]", float, double) {
  // A surface whose curvature changes from point to point, both signs of K_G.
  nldr::Random rng(12);
  nldr::Matrix<TestType> X(400, 3);
  for (int i = 0; i < 400; ++i) {
    const double x = rng.uniform(0, 3), y = rng.uniform(0, 3);
    X.row(i) << TestType(x), TestType(y), TestType(0.5 * std::sin(2 * x) * std::cos(2 * y));
  }
  const auto graph = nldr::KNearest{14}(X);
  const auto curv = nldr::estimate_curvature(X, graph, 2, 0);
  for (int i = 0; i < 400; ++i) {
    const Eigen::MatrixXd local = local_coordinates(X, graph, i);
    const auto fast = nldr::detail::fit_surface_curvature(local);
    const auto [mean, gaussian] = nldr::detail::fit_curvature(local, 2);
    INFO("point " << i << ": K_H " << mean << ", K_G " << gaussian);
    REQUIRE(fast.has_value());  // a surface sampled with k = 14: well-posed everywhere
    REQUIRE_THAT(fast->first, WithinAbs(mean, 1e-9 * (1 + std::abs(mean))));
    REQUIRE_THAT(fast->second, WithinAbs(gaussian, 1e-9 * (1 + std::abs(gaussian))));
    REQUIRE(curv.mean(i) == TestType(fast->first));  // estimate_curvature took the fixed-size path
  }
  // A curve fitted as a surface (d = 2): the frame's normal is not determined, the fixed-size
  // fit declines and estimate_curvature returns the general fit's answer.
  nldr::Matrix<TestType> helix(300, 3);
  for (int i = 0; i < 300; ++i) {
    const double t = 0.05 * i;
    helix.row(i) << TestType(std::cos(t)), TestType(std::sin(t)), TestType(0.2 * t);
  }
  const auto helix_graph = nldr::KNearest{10}(helix);
  const auto helix_curv = nldr::estimate_curvature(helix, helix_graph, 2, 0);
  for (int i = 0; i < 300; ++i) {
    const Eigen::MatrixXd local = local_coordinates(helix, helix_graph, i);
    INFO("helix point " << i);
    REQUIRE_FALSE(nldr::detail::fit_surface_curvature(local).has_value());
    REQUIRE(helix_curv.mean(i) == TestType(nldr::detail::fit_curvature(local, 2).first));
  }
}

TEST_CASE("estimate_curvature rejects bad input", "[neighbors][curvature]") {
  const auto X = sphere<double>(100, 1.0, 2);
  CHECK_THROWS_WITH((nldr::estimate_curvature(X, {.k = 10, .intrinsic_dim = 3})), ContainsSubstring("intrinsic_dim = 3"));
  CHECK_THROWS_WITH((nldr::estimate_curvature(X, {.k = 4, .intrinsic_dim = 2})), ContainsSubstring("needs >= 5"));
  CHECK_THROWS_WITH((nldr::estimate_curvature(X, {.k = 100})), ContainsSubstring("k = 100"));
  nldr::Matrix<double> bad = X;
  bad(7, 2) = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH((nldr::estimate_curvature(bad, {.k = 10})), ContainsSubstring("not finite"));
  const auto graph = nldr::KNearest{10}(X);
  CHECK_THROWS_WITH((nldr::estimate_curvature(nldr::Matrix<double>(X.topRows(50)), graph)), ContainsSubstring("rows"));
}
