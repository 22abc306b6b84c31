// radius_prefix: the prefix of every EpsilonBall{r_max} list is exactly EpsilonBall{r}, points on the radius
// and duplicates included.
#include <nldr/core/error.hpp>
#include <nldr/neighbors/epsilon_ball.hpp>
#include <nldr/neighbors/knn.hpp>
#include <nldr/tune/radius_prefix.hpp>

#include "catch.hpp"
#include "neighbors/exact_reference.hpp"

#include <cmath>
#include <vector>

TEMPLATE_TEST_CASE("radius_prefix equals EpsilonBall{radius} exactly, points on the radius included",
                   "[tune][radius_prefix]", float, double) {
  using T = TestType;
  // Integer grids with repeated rows: the radii 1, sqrt(2), 2 fall exactly on grid distances (ties at the
  // radius everywhere, zero distances); random points in 5-D with radii between their distances.
  struct Case {
    nldr::Matrix<T> X;
    std::vector<double> radii;
  };
  const std::vector<Case> cases{
      {test_exact::grid_with_duplicates<T>(9, 2, 20, 3), {0.5, 1.0, std::sqrt(2.0), 2.0, 2.5}},
      {test_exact::grid_with_duplicates<T>(5, 3, 30, 4), {1.0, std::sqrt(2.0), std::sqrt(3.0)}},
      {test_exact::uniform_points<T>(150, 5, 8), {0.2, 0.45, 0.7, 0.9}}};
  for (const auto& [X, radii] : cases)
    for (nldr::SearchBackend backend : test_exact::all_backends) {
      const auto widest = nldr::EpsilonBall{.radius = radii.back(), .backend = backend}(X);
      for (double radius : radii) {
        INFO("N = " << X.rows() << ", D = " << X.cols() << ", radius = " << radius);
        const auto prefix = nldr::radius_prefix(widest, radius);
        const auto direct = nldr::EpsilonBall{.radius = radius, .backend = backend}(X);
        REQUIRE(prefix.size() == direct.size());
        test_exact::check_same_graph(prefix, direct);
        CHECK(prefix.is_symmetric());
        CHECK(prefix.selection().selector == direct.selection().selector);
      }
    }
}

TEST_CASE("radius_prefix refuses graphs that are not a ball's and bad radii", "[tune][radius_prefix]") {
  const auto X = test_exact::uniform_points<double>(40, 3, 2);
  const auto ball = nldr::EpsilonBall{.radius = 0.5}(X);
  CHECK_THROWS_CONTAINING(nldr::radius_prefix(nldr::KNearest{4}(X), 0.3), nldr::invalid_argument, "symmetric");
  CHECK_THROWS_CONTAINING(nldr::radius_prefix(ball, 0.0), nldr::invalid_argument, "radius = 0");
  CHECK_THROWS_CONTAINING(nldr::radius_prefix(ball, std::nan("")), nldr::invalid_argument, "radius");
}
