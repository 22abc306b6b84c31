// Sammon's stress (Sammon 1969) against a brute-force double loop written from the formula, for points
// and precomputed distances, float and double; MASS::sammon's value on R's eurodist is in
// tests/embed/sammon.cpp.
#include "brute_force.hpp"
#include "catch.hpp"

#include <nldr/core/random.hpp>
#include <nldr/metrics/stress.hpp>

#include <cmath>
#include <type_traits>

namespace sammon_stress_test {

using brute_force::distances;

/// E = sum_{i<j} (delta - d)^2 / delta / sum_{i<j} delta, literally.
template <class T>
double brute_force_sammon(const nldr::Matrix<T>& X, const nldr::Matrix<T>& Y) {
  double numerator = 0, denominator = 0;
  for (Eigen::Index i = 0; i < X.rows(); ++i)
    for (Eigen::Index j = i + 1; j < X.rows(); ++j) {
      const double delta = (X.row(i).template cast<double>() - X.row(j).template cast<double>()).norm();
      const double d = (Y.row(i).template cast<double>() - Y.row(j).template cast<double>()).norm();
      numerator += (delta - d) * (delta - d) / delta;
      denominator += delta;
    }
  return numerator / denominator;
}

}  // namespace sammon_stress_test

TEMPLATE_TEST_CASE("sammon_stress equals the brute-force formula", "[stress][sammon]", float, double) {
  using namespace sammon_stress_test;
  const auto X = brute_force::gaussian<TestType>(50, 5, 3);
  const auto Y = brute_force::gaussian<TestType>(50, 2, 4);
  const double expected = brute_force_sammon(X, Y);
  const double tolerance = std::is_same_v<TestType, float> ? 1e-5 : 1e-12;
  const auto from_points = nldr::metrics::sammon_stress(X, Y);
  CHECK_THAT(from_points.stress, WithinRel(expected, tolerance));
  CHECK(from_points.pairs == 50 * 49 / 2);
  CHECK_FALSE(from_points.sampled);
  const auto DX = distances(X), DY = distances(Y);
  CHECK_THAT(nldr::metrics::sammon_stress(nldr::metrics::precomputed(DX), nldr::metrics::precomputed(DY)).stress,
             WithinRel(expected, tolerance));
  // An exact copy has stress 0; a uniform scaling by c has E = (1 - c)^2 sum delta / sum delta = (1 - c)^2.
  CHECK(nldr::metrics::sammon_stress(X, X).stress == 0);
  const nldr::Matrix<TestType> scaled = TestType(1.5) * X;
  CHECK_THAT(nldr::metrics::sammon_stress(X, scaled).stress, WithinRel(0.25, tolerance));
  // A seeded subsample of pairs estimates it.
  const auto sampled = nldr::metrics::sammon_stress(X, Y, {.max_pairs = 1000, .seed = 1});
  CHECK(sampled.sampled);
  CHECK(sampled.pairs == 1000);
  CHECK_THAT(sampled.stress, WithinRel(expected, 0.15));
}

TEST_CASE("sammon_stress refuses coincident reference points and mismatched inputs", "[stress][sammon]") {
  using namespace sammon_stress_test;
  auto X = brute_force::gaussian<double>(10, 3, 5);
  const auto Y = brute_force::gaussian<double>(10, 2, 6);
  X.row(7) = X.row(2);
  CHECK_THROWS_CONTAINING(nldr::metrics::sammon_stress(X, Y), nldr::invalid_argument, "points 2 and 7");
  CHECK_THROWS_AS(nldr::metrics::sammon_stress(brute_force::gaussian<double>(9, 3, 1), Y), nldr::invalid_argument);
}
