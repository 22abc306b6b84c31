// Diffusion maps: the closed-form spectrum and coordinates of a ring; alpha = 1 recovering the arc length
// of a non-uniformly sampled curve where alpha = 0 follows the density (Coifman & Lafon 2006, sec. 2.3);
// diffusion time; the Nystrom extension reproducing training points; thread-count independence; errors.
#include "catch.hpp"

#include <nldr/core/parallel.hpp>
#include <nldr/embed/diffusion_maps.hpp>
#include <nldr/neighbors/epsilon_ball.hpp>
#include <nldr/neighbors/knn.hpp>

#include <cmath>
#include <limits>
#include <numbers>
#include <string>
#include <type_traits>

namespace diffusion_maps_test {

/// n points evenly on the unit circle, point i at angle 2 pi i / n.
template <class T>
nldr::Matrix<T> ring(int n) {
  nldr::Matrix<T> X(n, 2);
  for (int i = 0; i < n; ++i) {
    const double angle = 2 * std::numbers::pi * i / n;
    X.row(i) << T(std::cos(angle)), T(std::sin(angle));
  }
  return X;
}

/// n points on a half circle at angle theta_i = pi u_i^2, u_i = (i + 1/2) / n: ten times denser at one end.
template <class T>
nldr::Matrix<T> skewed_arc(int n, Eigen::VectorXd& theta) {
  nldr::Matrix<T> X(n, 2);
  theta.resize(n);
  for (int i = 0; i < n; ++i) {
    const double u = (i + 0.5) / n;
    theta[i] = std::numbers::pi * u * u;
    X.row(i) << T(std::cos(theta[i])), T(std::sin(theta[i]));
  }
  return X;
}

double abs_correlation(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  const Eigen::VectorXd x = a.array() - a.mean(), y = b.array() - b.mean();
  return std::abs(x.dot(y)) / (x.norm() * y.norm());
}

}  // namespace diffusion_maps_test

TEMPLATE_TEST_CASE("diffusion maps of a ring: closed-form eigenvalues and a circle of radius lambda^t sqrt(2)",
                   "[diffusion-maps]", float, double) {
  using namespace diffusion_maps_test;
  const double tolerance = std::is_same_v<TestType, float> ? 1e-4 : 1e-9;
  // N = 64: dense solver; N = 400: sparse shift-invert Lanczos.
  for (const int n : {64, 400}) {
    INFO("N = " << n);
    const auto X = ring<TestType>(n);
    const auto graph = nldr::KNearest{2}(X);  // the two neighbors on the ring, both at h = 2 sin(pi / N)
    for (const double alpha : {0.0, 0.5, 1.0}) {
      INFO("alpha = " << alpha);
      const auto model = nldr::DiffusionMaps{{.dim = 4, .alpha = alpha, .diffusion_time = 2}}.fit(X, graph);
      // Automatic bandwidth: the median squared edge, h^2, so every edge weighs w = exp(-1). The degrees are
      // uniform, whatever alpha: P = (I + w A) / (1 + 2w) with eigenvalues (1 + 2w cos(2 pi j / N)) / (1 + 2w),
      // j = 1 and N - 1 first, then 2 and N - 2.
      const double h = 2 * std::sin(std::numbers::pi / n), w = std::exp(-1.0);
      CHECK_THAT(model.bandwidth, WithinRel(h * h, tolerance));
      for (int j = 0; j < 4; ++j) {
        const double expected = (1 + 2 * w * std::cos(2 * std::numbers::pi * (j / 2 + 1) / n)) / (1 + 2 * w);
        CHECK_THAT(double(model.eigenvalues[j]), WithinAbs(expected, tolerance));
      }
      // psi_1, psi_2 span cos and sin of the angle, normalized to mean square 1: every point sits at radius
      // lambda_1^t sqrt(2) in the first two coordinates.
      const double radius = std::pow(double(model.eigenvalues[0]), 2) * std::sqrt(2.0);
      for (Eigen::Index i = 0; i < n; ++i)
        CHECK_THAT(model.coordinates.row(i).leftCols(2).template cast<double>().norm(), WithinRel(radius, 10 * tolerance));
      // Nystrom with k = 3 (the point and its two neighbors: its own kernel row) gives the coordinates back.
      const auto again = model.transform(X, 3);
      CHECK((again - model.coordinates).cwiseAbs().maxCoeff() < 10 * tolerance);
    }
  }
}

TEMPLATE_TEST_CASE("diffusion maps: alpha = 1 recovers the arc length of a non-uniformly sampled curve",
                   "[diffusion-maps]", float, double) {
  using namespace diffusion_maps_test;
  Eigen::VectorXd theta;
  const auto X = skewed_arc<TestType>(400, theta);
  // The theory's kernel: one width everywhere, truncated at 3 standard deviations (an epsilon ball).
  // (A kNN graph truncates where the density says, which is itself a density correction.)
  const double radius = 0.1;
  const auto graph = nldr::EpsilonBall{radius}(X);
  // The first non-trivial eigenfunction of the Laplace-Beltrami operator on an arc of length pi with
  // Neumann ends is cos(arc length) = cos(theta); alpha = 0 bends it toward the dense end.
  const Eigen::VectorXd truth = theta.array().cos();
  double misfit[2];  // 1 - |r|
  for (const int a : {0, 1}) {
    const auto model = nldr::DiffusionMaps{{.dim = 1, .alpha = double(a), .diffusion_time = 0,
                                            .bandwidth = radius * radius / 9}}
                           .fit(X, graph);
    misfit[a] = 1 - abs_correlation(model.coordinates.col(0).template cast<double>(), truth);
  }
  INFO("1 - |r|: alpha = 0: " << misfit[0] << ", alpha = 1: " << misfit[1]);  // measured 1.2e-3 and 1.1e-5
  CHECK(misfit[1] < 1e-4);
  CHECK(misfit[1] < 0.1 * misfit[0]);
}

TEMPLATE_TEST_CASE("diffusion maps: time t scales coordinate j by lambda_j^t; Nystrom between points",
                   "[diffusion-maps][transform]", float, double) {
  using namespace diffusion_maps_test;
  Eigen::VectorXd theta;
  const auto X = skewed_arc<TestType>(200, theta);
  const auto graph = nldr::KNearest{8}(X);
  const auto t0 = nldr::DiffusionMaps{{.dim = 2, .diffusion_time = 0}}.fit(X, graph);
  const auto t3 = nldr::DiffusionMaps{{.dim = 2, .diffusion_time = 3}}.fit(X, graph);
  for (int j = 0; j < 2; ++j) {
    const double scale = std::pow(double(t0.eigenvalues[j]), 3);
    CHECK((t3.coordinates.col(j).template cast<double>() - scale * t0.coordinates.col(j).template cast<double>())
              .cwiseAbs()
              .maxCoeff() < 1e-4 * scale);
  }
  // A point on the arc between two training points maps between their first coordinates (psi_1 is monotone
  // along the arc).
  nldr::Matrix<TestType> middle(1, 2);
  const double angle = 0.5 * (theta[100] + theta[101]);
  middle << TestType(std::cos(angle)), TestType(std::sin(angle));
  const double y = t3.transform(middle)(0, 0), a = t3.coordinates(100, 0), b = t3.coordinates(101, 0);
  CHECK(y >= std::min(a, b) - 1e-3 * std::abs(a - b));
  CHECK(y <= std::max(a, b) + 1e-3 * std::abs(a - b));
}

TEST_CASE("diffusion maps do not depend on the thread count", "[diffusion-maps][determinism]") {
  using namespace diffusion_maps_test;
  Eigen::VectorXd theta;
  const auto X = skewed_arc<double>(300, theta);
  const auto graph = nldr::KNearest{10}(X);
  const auto run = [&] {
    const auto model = nldr::DiffusionMaps{{.dim = 2, .alpha = 0.5}}.fit(X, graph);
    nldr::Matrix<double> both(300 + 300, 2);
    both << model.coordinates, model.transform(X);
    return both;
  };
  const int before = nldr::max_threads();
  nldr::set_threads(1);
  const auto one = run();
  for (const int threads : {2, 3}) {
    nldr::set_threads(threads);
    CHECK(run() == one);
  }
  nldr::set_threads(before);
}

TEST_CASE("diffusion maps refuse bad input with named errors", "[diffusion-maps][hostile]") {
  using namespace diffusion_maps_test;
  const auto X = ring<double>(40);
  const auto graph = nldr::KNearest{2}(X);
  CHECK_THROWS_CONTAINING(nldr::DiffusionMaps{{.alpha = 1.5}}.fit(X, graph), nldr::invalid_argument, "alpha");
  CHECK_THROWS_CONTAINING(nldr::DiffusionMaps{{.diffusion_time = -1}}.fit(X, graph), nldr::invalid_argument,
                          "diffusion_time");
  CHECK_THROWS_CONTAINING(nldr::DiffusionMaps{{.bandwidth = std::numeric_limits<double>::quiet_NaN()}}.fit(X, graph),
                          nldr::invalid_argument, "bandwidth");
  CHECK_THROWS_CONTAINING(nldr::DiffusionMaps{{.bandwidth = 1e-300}}.fit(X, graph), nldr::invalid_argument,
                          "bandwidth");
  CHECK_THROWS_CONTAINING(nldr::DiffusionMaps{{.dim = 39}}.fit(X, graph), nldr::invalid_argument, "dim");
  CHECK_THROWS_CONTAINING(nldr::DiffusionMaps{}.fit(X.topRows(39), graph), nldr::invalid_argument, "graph");
  // Two separate rings: no diffusion between them.
  nldr::Matrix<double> two(80, 2);
  two << X, (X.array() + 10).matrix();
  CHECK_THROWS_AS(nldr::DiffusionMaps{}.fit(two, nldr::KNearest{2}(two)), nldr::disconnected_graph);
  const auto model = nldr::DiffusionMaps{}.fit(X, graph);
  CHECK_THROWS_CONTAINING(model.transform(nldr::Matrix<double>::Zero(1, 3)), nldr::invalid_argument, "X_new");
  CHECK_THROWS_CONTAINING(model.transform(X, 41), nldr::invalid_argument, "k");
  const nldr::Matrix<double> far = nldr::Matrix<double>::Constant(1, 2, 1e3);
  CHECK_THROWS_CONTAINING(model.transform(far), nldr::invalid_argument, "underflows");
}

TEST_CASE("diffusion maps: an outlier cut off by the automatic bandwidth gets a bandwidth that works",
          "[diffusion-maps][hostile]") {
  // A ring of edge ~0.16 plus a point 20 away (as breast cancer's unscaled features give): its kernel
  // weights exp(-400 / 0.025) are 0 beside K_ii = 1. The error names a bandwidth; with it the fit works.
  using namespace diffusion_maps_test;
  nldr::Matrix<double> X(41, 2);
  X.topRows(40) = ring<double>(40);
  X.row(40) << 21, 0;
  nldr::NeighborGraph<double> graph = nldr::KNearest{3}(X);
  std::string message;
  try {
    (void)nldr::DiffusionMaps{}.fit(X, graph);
  } catch (const nldr::invalid_argument& e) {
    message = e.what();
  }
  INFO(message);
  const auto at = message.find("use bandwidth = ");
  REQUIRE(at != std::string::npos);
  const double suggested = std::stod(message.substr(at + 16));
  CHECK(suggested >= 20.0 * 20.0 / 31);  // the outlier's nearest neighbor, at squared distance >= 400
  const auto model = nldr::DiffusionMaps{{.bandwidth = suggested}}.fit(X, graph);
  CHECK(model.coordinates.allFinite());
}
