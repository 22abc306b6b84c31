#include <nldr/core/random.hpp>
#include <nldr/neighbors/curvature_adaptive.hpp>

#include "catch.hpp"
#include "pruning_fixtures.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

using test_pruning::BruteCandidates;
using test_pruning::Pair;

namespace {

/// Samples of the graph z = 0.5 sin(2x) cos(2y) over [0, 3]^2: curvature varies from point to
/// point (both signs of K_G), so the 10% tolerance prunes a fair share of the candidates.
template <class T>
nldr::Matrix<T> bumpy_surface(int n, std::uint64_t seed) {
  nldr::Random rng(seed);
  nldr::Matrix<T> X(n, 3);
  for (int i = 0; i < n; ++i) {
    const double x = rng.uniform(0, 3), y = rng.uniform(0, 3);
    X.row(i) << T(x), T(y), T(0.5 * std::sin(2 * x) * std::cos(2 * y));
  }
  return X;
}

}  // namespace

TEMPLATE_TEST_CASE("CurvatureAdaptive keeps exactly the pairs of a literal Algorithm 3", "[neighbors][curvature]",
                   float, double) {
  const auto X = bumpy_surface<TestType>(300, 3);
  const int k = 12;
  const double tol = 0.10, mean_floor = 0.02, gaussian_floor = 0.01;
  const auto graph = nldr::CurvatureAdaptive{
      BruteCandidates{k}, {.tolerance = tol, .mean_floor = mean_floor, .gaussian_floor = gaussian_floor, .reconnect = false}}(X);
  // Curvatures from the public estimator on the same kNN(12) lists (checked against closed forms
  // in curvature.cpp); the rule over all pairs, written out as Roy 2015 states it.
  const auto curv = nldr::estimate_curvature(X, BruteCandidates{k}(X), 2, 0);
  const auto lists = test_pruning::nearest(X, k);
  auto accepts = [&](int i, int j) {
    const double hi = curv.mean(i), hj = curv.mean(j), gi = curv.gaussian(i), gj = curv.gaussian(j);
    return std::abs(hj - hi) <= tol * std::abs(hi) + mean_floor && std::abs(gj - gi) <= tol * std::abs(gi) + gaussian_floor;
  };
  std::set<Pair> expected;
  long rejected = 0;
  for (int i = 0; i < 300; ++i)
    for (int j = 0; j < 300; ++j) {
      if (!test_pruning::contains(lists[i], j)) continue;
      if (accepts(i, j))
        expected.insert({std::min(i, j), std::max(i, j)});
      else
        ++rejected;
    }
  CHECK(rejected > 100);
  CHECK(graph.selection().pruned_edges == rejected);
  CHECK(test_pruning::kept_pairs(graph) == test_pruning::with_fallback(expected, lists));
}

TEMPLATE_TEST_CASE("CurvatureAdaptive's automatic floors follow their definition", "[neighbors][curvature]", float,
                   double) {
  const auto X = bumpy_surface<TestType>(301, 8);
  const auto curv = nldr::estimate_curvature(X, {.k = 12});
  // Literal: median of K_H by a full sort (N odd: the middle element), R = RMS distance to the centroid.
  std::vector<double> mean(curv.mean.data(), curv.mean.data() + 301);
  std::sort(mean.begin(), mean.end());
  const Eigen::MatrixXd P = X.template cast<double>();
  const Eigen::RowVectorXd centroid = P.colwise().mean();
  double sum = 0;
  for (int i = 0; i < 301; ++i) sum += (P.row(i) - centroid).squaredNorm();
  const double kappa = std::max(mean[150], 1 / std::sqrt(sum / 301));
  const auto [mean_floor, gaussian_floor] = nldr::automatic_curvature_floors(X, curv, 0.1);
  CHECK_THAT(mean_floor, WithinRel(0.1 * kappa, 1e-12));
  CHECK_THAT(gaussian_floor, WithinRel(0.1 * kappa * kappa, 1e-12));
  // A flat sample keeps its edges: curvature noise is far below the 1/R floor.
  nldr::Matrix<TestType> flat = X;
  flat.col(2).setZero();
  const auto graph = nldr::CurvatureAdaptive{nldr::KNearest{12}}(flat);
  CHECK(graph.selection().pruned_edges == 0);
}

TEST_CASE("CurvatureAdaptive rejects bad options", "[neighbors][curvature]") {
  const auto X = bumpy_surface<double>(80, 1);
  CHECK_THROWS_WITH((nldr::CurvatureAdaptive{nldr::KNearest{10}, {.tolerance = -0.1}}(X)), ContainsSubstring("tolerance = -0.1"));
  CHECK_THROWS_WITH((nldr::CurvatureAdaptive{nldr::KNearest{10}, {.mean_floor = -1.0}}(X)), ContainsSubstring("mean_floor = -1"));
  CHECK_THROWS_WITH((nldr::CurvatureAdaptive{nldr::KNearest{10}, {.gaussian_floor = std::numeric_limits<double>::quiet_NaN()}}(X)),
                    ContainsSubstring("gaussian_floor"));
  CHECK_THROWS_WITH((nldr::CurvatureAdaptive{nldr::KNearest{10}, {.intrinsic_dim = 3}}(X)), ContainsSubstring("intrinsic_dim = 3"));
  CHECK_THROWS_WITH(nldr::CurvatureAdaptive{nldr::KNearest{4}}(X), ContainsSubstring("needs >= 5"));
  CHECK_THROWS_WITH((nldr::CurvatureAdaptive{nldr::KNearest{10}, {.curvature_neighbors = -2}}(X)),
                    ContainsSubstring("curvature_neighbors = -2"));
}
