// Intrinsic dimension: the estimators against a literal brute force of their formulas (all pairwise
// distances, sorted), and against known geometry (uniform samples of cubes, balls and spheres of
// dimension 1..10, the Swiss roll in 3-D and linearly embedded in 100-D with noise).
#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/random.hpp>
#include <nldr/datasets/swiss_roll.hpp>
#include <nldr/neighbors/intrinsic_dimension.hpp>

#include "catch.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace intrinsic_dimension_test {

enum class Shape { cube, ball, sphere };

/// N uniform points of the unit cube [0, 1]^d, the unit d-ball, or the unit d-sphere in R^(d+1).
template <class T>
nldr::Matrix<T> uniform_sample(Shape shape, int n, int d, std::uint64_t seed) {
  nldr::Random random(seed);
  const int columns = shape == Shape::sphere ? d + 1 : d;
  nldr::Matrix<T> X(n, columns);
  Eigen::VectorXd g(columns);
  for (int i = 0; i < n; ++i) {
    if (shape == Shape::cube) {
      for (int c = 0; c < d; ++c) X(i, c) = T(random.uniform());
      continue;
    }
    for (int c = 0; c < columns; ++c) g(c) = random.normal();  // isotropic direction
    g /= g.norm();
    if (shape == Shape::ball) g *= std::pow(random.uniform(), 1.0 / d);  // P(radius <= s) = s^d
    X.row(i) = g.cast<T>().transpose();
  }
  return X;
}

/// Sorted distances (in double) from every point to the others, after dropping repeated rows.
template <class T>
std::vector<std::vector<double>> sorted_distances_of_distinct(const nldr::Matrix<T>& X) {
  std::vector<Eigen::Index> distinct;
  for (Eigen::Index i = 0; i < X.rows(); ++i) {
    bool repeat = false;
    for (Eigen::Index j : distinct) repeat = repeat || X.row(i) == X.row(j);
    if (!repeat) distinct.push_back(i);
  }
  std::vector<std::vector<double>> rows;
  for (Eigen::Index i : distinct) {
    std::vector<double> row;
    for (Eigen::Index j : distinct)
      if (j != i) row.push_back((X.row(i).template cast<double>() - X.row(j).template cast<double>()).norm());
    std::sort(row.begin(), row.end());
    rows.push_back(row);
  }
  return rows;
}

/// Levina & Bickel with MacKay & Ghahramani's average of inverses, literally.
double reference_mle(const std::vector<std::vector<double>>& distances, int k_min, int k_max) {
  double total = 0;
  for (int k = k_min; k <= k_max; ++k) {
    double mean_inverse = 0;
    for (const auto& t : distances) {
      double inverse = 0;
      for (int j = 1; j < k; ++j) inverse += std::log(t[std::size_t(k - 1)] / t[std::size_t(j - 1)]);
      mean_inverse += inverse / (k - 1);
    }
    total += double(distances.size()) / mean_inverse;
  }
  return total / (k_max - k_min + 1);
}

/// Facco et al.: least squares through the origin of -log(1 - i/n) on log mu_(i), the largest left out.
double reference_twonn(const std::vector<std::vector<double>>& distances, double discard) {
  std::vector<double> mu;
  for (const auto& t : distances) mu.push_back(t[1] / t[0]);
  std::sort(mu.begin(), mu.end());
  const double n = double(mu.size());
  const auto kept = std::min(std::size_t(mu.size() - 1), std::size_t(std::floor((1 - discard) * n)));
  double sxy = 0, sxx = 0;
  for (std::size_t i = 1; i <= kept; ++i) {
    const double x = std::log(mu[i - 1]), y = -std::log(1 - double(i) / n);
    sxy += x * y;
    sxx += x * x;
  }
  return sxy / sxx;
}

}  // namespace intrinsic_dimension_test

using intrinsic_dimension_test::Shape;

TEMPLATE_TEST_CASE("intrinsic dimension estimators equal their literal formulas; repeated rows are dropped",
                   "[neighbors][intrinsic_dimension]", float, double) {
  using T = TestType;
  // 80 points in 4-D with 7 exact repeats of earlier rows (one row three times).
  nldr::Matrix<T> X = intrinsic_dimension_test::uniform_sample<T>(Shape::cube, 80, 4, 5);
  for (int r = 0; r < 6; ++r) X.row(70 + r) = X.row(3 * r);
  X.row(76) = X.row(0);
  const auto distances = intrinsic_dimension_test::sorted_distances_of_distinct(X);
  REQUIRE(distances.size() == 73);
  // kNN distances are computed in T and the reference in double: float agrees to about 1e-6 relative.
  const double tol = std::is_same_v<T, float> ? 1e-4 : 1e-10;

  const auto mle = nldr::mle_intrinsic_dimension(X, {.k_min = 4, .k_max = 9});
  CHECK(mle.points_used == 73);
  CHECK(mle.duplicates_removed == 7);
  REQUIRE(mle.per_k.size() == 6);
  for (int k = 4; k <= 9; ++k) {
    CHECK(mle.k[std::size_t(k - 4)] == k);
    CHECK_THAT(mle.per_k[std::size_t(k - 4)], WithinRel(intrinsic_dimension_test::reference_mle(distances, k, k), tol));
  }
  CHECK_THAT(mle.estimate, WithinRel(intrinsic_dimension_test::reference_mle(distances, 4, 9), tol));

  for (double discard : {0.0, 0.1, 0.3}) {
    const auto two = nldr::twonn_intrinsic_dimension(X, {.discard_fraction = discard, .bootstrap = 200});
    CHECK_THAT(two.estimate, WithinRel(intrinsic_dimension_test::reference_twonn(distances, discard), tol));
    CHECK(two.points_used == 73);
    CHECK(two.discarded == 73 - std::min(72, int(std::floor((1 - discard) * 73))));
    CHECK(two.duplicates_removed == 7);
    CHECK(two.lower <= two.estimate);
    CHECK(two.estimate <= two.upper);
    CHECK(two.confidence == 0.95);
  }
}

TEST_CASE("the TwoNN interval is seeded and independent of the thread count", "[neighbors][intrinsic_dimension]") {
  const auto X = intrinsic_dimension_test::uniform_sample<double>(Shape::sphere, 500, 3, 9);
  const int threads = nldr::max_threads();
  nldr::set_threads(1);
  const auto one = nldr::twonn_intrinsic_dimension(X, {.seed = 4});
  nldr::set_threads(std::max(2, threads));
  const auto many = nldr::twonn_intrinsic_dimension(X, {.seed = 4});
  nldr::set_threads(threads);
  CHECK(one.lower == many.lower);
  CHECK(one.upper == many.upper);
  const auto other_seed = nldr::twonn_intrinsic_dimension(X, {.seed = 5});
  CHECK(other_seed.estimate == one.estimate);
  CHECK(other_seed.lower != one.lower);
  // A wider coverage gives a wider interval from the same replicates.
  const auto wide = nldr::twonn_intrinsic_dimension(X, {.confidence = 0.99, .seed = 4});
  CHECK(wide.lower <= one.lower);
  CHECK(wide.upper >= one.upper);
}

// Known bias (reported by Levina & Bickel 2005 and by Facco et al. 2017): at fixed N both estimators
// underestimate more as d grows, because the neighbors reach the boundary (cube, ball) or feel the
// curvature (sphere) and the sample is sparse; at N = 2000 we measured about -19% (MLE) and -15%
// (TwoNN) at d = 10 on the cube, less on the ball and the boundary-free sphere, and at most +6%
// above (TwoNN, small d: its variance). The bounds: estimate in [d (1 - 0.025 d), 1.1 d] with
// boundaries, [d (1 - 0.012 d), 1.1 d] on the sphere.
TEST_CASE("intrinsic dimension of uniform cubes, balls and spheres, d = 1..10", "[neighbors][intrinsic_dimension]") {
  for (Shape shape : {Shape::cube, Shape::ball, Shape::sphere})
    for (int d : {1, 2, 3, 4, 5, 6, 8, 10}) {
      const auto X = intrinsic_dimension_test::uniform_sample<double>(shape, 2000, d, 100 + std::uint64_t(d));
      const double slope = shape == Shape::sphere ? 0.012 : 0.025;
      const double low = d * (1 - slope * d), high = 1.1 * d;
      const auto mle = nldr::mle_intrinsic_dimension(X);
      const auto two = nldr::twonn_intrinsic_dimension(X, {.bootstrap = 100});
      INFO("shape " << int(shape) << ", d = " << d << ": MLE " << mle.estimate << ", TwoNN " << two.estimate << " ["
                    << two.lower << ", " << two.upper << "]");
      CHECK(mle.estimate >= low);
      CHECK(mle.estimate <= high);
      CHECK(two.estimate >= low);
      CHECK(two.estimate <= high);
      // Without a boundary and below the sparse regime, the 95% interval covers the truth.
      if (shape == Shape::sphere && d <= 8) {
        CHECK(two.lower <= d);
        CHECK(two.upper >= d);
      }
    }
}

TEMPLATE_TEST_CASE("intrinsic dimension of the Swiss roll in 3-D and linearly embedded in 100-D with noise",
                   "[neighbors][intrinsic_dimension]", float, double) {
  using T = TestType;
  const auto roll = nldr::datasets::swiss_roll<T>({.n = 2000, .seed = 3});
  // A random linear map R^3 -> R^100 (Gaussian, columns of norm about 1) and noise 0.01, far below
  // the neighbor distances (about 1): the sample is still a 2-manifold at the scale the estimators see.
  nldr::Random random(5);
  nldr::Matrix<T> A(3, 100);
  for (Eigen::Index c = 0; c < A.size(); ++c) A.data()[c] = T(random.normal() / std::sqrt(3.0));
  nldr::Matrix<T> wide = roll.points * A;
  for (Eigen::Index c = 0; c < wide.size(); ++c) wide.data()[c] += T(0.01 * random.normal());
  for (const nldr::Matrix<T>* X : {&roll.points, static_cast<const nldr::Matrix<T>*>(&wide)}) {
    const auto mle = nldr::mle_intrinsic_dimension(*X);
    const auto two = nldr::twonn_intrinsic_dimension(*X, {.bootstrap = 200});
    INFO("D = " << X->cols() << ": MLE " << mle.estimate << ", TwoNN " << two.estimate);
    CHECK_THAT(mle.estimate, WithinAbs(2.0, 0.1));
    CHECK_THAT(two.estimate, WithinAbs(2.0, 0.1));
    CHECK(two.lower <= 2.0);
    CHECK(two.upper >= 2.0);
  }
  // Noise at the neighbor scale is dimension D locally: TwoNN, which looks at the 2 nearest, sees it.
  nldr::Matrix<T> noisy = roll.points;
  for (Eigen::Index c = 0; c < noisy.size(); ++c) noisy.data()[c] += T(1.0 * random.normal());
  CHECK(nldr::twonn_intrinsic_dimension(noisy).estimate > 2.5);
}

TEMPLATE_TEST_CASE("intrinsic dimension refuses bad input with a clear error", "[neighbors][intrinsic_dimension]", float,
                   double) {
  using T = TestType;
  const auto X = intrinsic_dimension_test::uniform_sample<T>(Shape::cube, 30, 2, 1);
  CHECK_THROWS_CONTAINING(nldr::mle_intrinsic_dimension(nldr::Matrix<T>(0, 2)), nldr::invalid_argument, "empty");
  nldr::Matrix<T> bad = X;
  bad(4, 1) = std::numeric_limits<T>::quiet_NaN();
  CHECK_THROWS_CONTAINING(nldr::mle_intrinsic_dimension(bad), nldr::invalid_argument, "not finite");
  CHECK_THROWS_CONTAINING(nldr::twonn_intrinsic_dimension(bad), nldr::invalid_argument, "not finite");
  CHECK_THROWS_CONTAINING(nldr::mle_intrinsic_dimension(X, {.k_min = 1, .k_max = 5}), nldr::invalid_argument, "k_min = 1");
  CHECK_THROWS_CONTAINING(nldr::mle_intrinsic_dimension(X, {.k_min = 6, .k_max = 5}), nldr::invalid_argument, "k_max = 5");
  CHECK_THROWS_CONTAINING(nldr::mle_intrinsic_dimension(X, {.k_min = 5, .k_max = 30}), nldr::invalid_argument,
                          "number of distinct points, 30");
  // 40 rows, only 12 distinct: k_max is checked against the distinct points.
  nldr::Matrix<T> repeated(40, 2);
  for (int i = 0; i < 40; ++i) repeated.row(i) = X.row(i % 12);
  CHECK_THROWS_CONTAINING(nldr::mle_intrinsic_dimension(repeated, {.k_min = 5, .k_max = 15}), nldr::invalid_argument,
                          "distinct points, 12");
  nldr::Matrix<T> same = nldr::Matrix<T>::Constant(10, 3, T(2));
  CHECK_THROWS_CONTAINING(nldr::twonn_intrinsic_dimension(same), nldr::invalid_argument, "1 distinct point");
  CHECK_THROWS_CONTAINING(nldr::twonn_intrinsic_dimension(X, {.discard_fraction = 1.0}), nldr::invalid_argument,
                          "discard_fraction");
  CHECK_THROWS_CONTAINING(nldr::twonn_intrinsic_dimension(X, {.confidence = 1.0}), nldr::invalid_argument, "confidence");
  CHECK_THROWS_CONTAINING(nldr::twonn_intrinsic_dimension(X, {.bootstrap = 5}), nldr::invalid_argument, "bootstrap");
  // An integer grid: every point's two nearest neighbors are at distance 1 exactly (ratio 1, no slope).
  nldr::Matrix<T> grid(36, 2);
  for (int i = 0; i < 36; ++i) grid.row(i) << T(i % 6), T(i / 6);
  CHECK_THROWS_CONTAINING(nldr::twonn_intrinsic_dimension(grid), nldr::invalid_argument, "equidistant");
  CHECK_THROWS_CONTAINING(nldr::mle_intrinsic_dimension(grid, {.k_min = 2, .k_max = 2}), nldr::invalid_argument,
                          "equidistant");
  // Two distinct rows whose distance squares to 0 in T (1e-30 in float, 1e-200 in double).
  nldr::Matrix<T> close = X;
  close.row(0) << T(0), T(0);
  close.row(1) << (std::is_same_v<T, float> ? T(1e-30) : T(1e-200)), T(0);
  CHECK_THROWS_CONTAINING(nldr::twonn_intrinsic_dimension(close), nldr::invalid_argument, "distance 0");
}
