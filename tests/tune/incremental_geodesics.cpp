// extend_geodesics against recomputation with Dijkstra: growing k, a graph that gets connected, bad input.
#include <nldr/core/error.hpp>
#include <nldr/datasets/swiss_roll.hpp>
#include <nldr/neighbors/knn.hpp>
#include <nldr/neighbors/shortest_paths.hpp>
#include <nldr/tune/incremental_geodesics.hpp>
#include <nldr/tune/knn_prefix.hpp>

#include "catch.hpp"
#include "metrics/data.hpp"

#include <cmath>

namespace incremental_test {

/// Largest |a - b| / max(1, |b|) over the entries, both infinite counting as equal.
template <class S>
double max_relative_difference(const nldr::Matrix<S>& a, const nldr::Matrix<S>& b) {
  double worst = 0;
  for (Eigen::Index c = 0; c < a.size(); ++c) {
    const double x = a.data()[c], y = b.data()[c];
    if (std::isinf(x) || std::isinf(y)) {
      if (x != y) return INFINITY;
      continue;
    }
    worst = std::max(worst, std::abs(x - y) / std::max(1.0, std::abs(y)));
  }
  return worst;
}

}  // namespace incremental_test

TEMPLATE_TEST_CASE("extend_geodesics equals recomputing the geodesics as k grows", "[tune][incremental]", float, double) {
  using T = TestType;
  const auto roll = nldr::datasets::swiss_roll<T>({.n = 300, .seed = 2});
  const auto widest = nldr::KNearest{14}(roll.points);
  auto before = nldr::knn_prefix(widest, 5).symmetrized();
  nldr::Matrix<double> geodesics = nldr::all_pairs_shortest_paths<double>(before);
  for (nldr::index_t k : {6, 7, 10, 14}) {  // steps of 1 and of several
    INFO("k = " << k);
    const auto after = nldr::knn_prefix(widest, k).symmetrized();
    const auto update = nldr::extend_geodesics(geodesics, before, after);
    const auto expected = nldr::all_pairs_shortest_paths<double>(after);
    // Sums of the same edge lengths in another order: rounding only.
    CHECK(incremental_test::max_relative_difference(geodesics, expected) < 1e-12);
    CHECK(update.added_edges == after.num_edges() - before.num_edges());
    CHECK(update.shortened_pairs > 0);
    before = after;
  }
}

TEST_CASE("extend_geodesics connects components and refuses removed edges", "[tune][incremental]") {
  // Two clusters: at k = 3 the graph has two components, at k = 35 they are joined.
  nldr::Matrix<double> X = test_data::uniform<double>(60, 2, 3);
  X.bottomRows(30).array() += 1.5;
  const auto widest = nldr::KNearest{35}(X);
  const auto small = nldr::knn_prefix(widest, 3).symmetrized(), large = widest.symmetrized();
  nldr::Matrix<double> geodesics = nldr::all_pairs_shortest_paths<double>(small);
  REQUIRE(std::isinf(geodesics(0, 59)));
  nldr::extend_geodesics(geodesics, small, large);
  CHECK(incremental_test::max_relative_difference(geodesics, nldr::all_pairs_shortest_paths<double>(large)) < 1e-12);
  CHECK(std::isfinite(geodesics(0, 59)));

  nldr::Matrix<double> wrong = nldr::all_pairs_shortest_paths<double>(large);
  CHECK_THROWS_CONTAINING(nldr::extend_geodesics(wrong, large, small), nldr::invalid_argument, "added edges only");
  nldr::Matrix<double> square(10, 10);
  CHECK_THROWS_CONTAINING(nldr::extend_geodesics(square, small, large), nldr::invalid_argument, "same N points");
}
