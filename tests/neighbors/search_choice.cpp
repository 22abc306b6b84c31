// The automatic choice of the neighbor search (selector.hpp) against the measured crossover of
// docs/benchmarks.md, the search each selector reports in its SelectionReport, and the
// high-dimensional data of the scale benchmark.
#include "brute_force.hpp"
#include "catch.hpp"

#include <nldr/core/random.hpp>
#include <nldr/datasets/high_dimensional.hpp>
#include <nldr/neighbors/epsilon_ball.hpp>
#include <nldr/neighbors/knn.hpp>
#include <nldr/neighbors/selector.hpp>
#include <nldr/neighbors/shared_neighbors.hpp>
#if defined(NLDR_HAVE_HNSWLIB)
#include <nldr/neighbors/approximate_knn.hpp>
#endif

#include <algorithm>
#include <cmath>
#include <vector>

using nldr::NeighborSearch;

// The reference: exact CPU seconds / HNSW CPU seconds measured on Fashion-MNIST (k = 15, float,
// defaults; docs/benchmarks.md, "Automatic choice"). The model must follow them.
TEST_CASE("estimated_hnsw_speedup follows the measured exact/HNSW CPU ratios", "[neighbors][search]") {
  struct Measured {
    nldr::index_t n;
    int d;
    double ratio;
  };
  for (const Measured m : {Measured{20000, 784, 4.81}, Measured{20000, 128, 2.59}, Measured{20000, 32, 1.38},
                           Measured{40000, 784, 5.92}, Measured{70000, 784, 9.46}, Measured{70000, 128, 5.24},
                           Measured{70000, 32, 3.11}}) {
    INFO("N = " << m.n << ", D = " << m.d);
    const double estimate = nldr::estimated_hnsw_speedup(m.n, m.d);
    CHECK(estimate >= m.ratio / 1.15);
    CHECK(estimate <= m.ratio * 1.15);
  }
  // It grows with N and D (the exact search is N^2 D, the index about N^1.42 (D + c)).
  CHECK(nldr::estimated_hnsw_speedup(40000, 784) > nldr::estimated_hnsw_speedup(20000, 784));
  CHECK(nldr::estimated_hnsw_speedup(20000, 784) > nldr::estimated_hnsw_speedup(20000, 128));
  CHECK(nldr::estimated_hnsw_speedup(1, 784) == 0);
}

TEST_CASE("choose_neighbor_search: k-d tree in low D, HNSW only for large N in high D and when allowed",
          "[neighbors][search]") {
  using nldr::choose_neighbor_search;
  // Low D: the exact k-d tree at any N, even 10^6 (N log N, and exact).
  for (int d : {1, 2, 3, 10, 20}) {
    CHECK(choose_neighbor_search(1000, d, true) == NeighborSearch::kdtree);
    CHECK(choose_neighbor_search(1000000, d, true) == NeighborSearch::kdtree);
  }
  // High D, moderate N: the exact brute force, where HNSW was measured less than 5x cheaper.
  CHECK(choose_neighbor_search(21, 21, true) == NeighborSearch::brute_force);
  CHECK(choose_neighbor_search(5000, 784, true) == NeighborSearch::brute_force);
  CHECK(choose_neighbor_search(20000, 784, true) == NeighborSearch::brute_force);  // measured 4.8x
  CHECK(choose_neighbor_search(20000, 128, true) == NeighborSearch::brute_force);  // 2.6x
  CHECK(choose_neighbor_search(70000, 32, true) == NeighborSearch::brute_force);   // 3.1x
  // Large N in high D: HNSW (Fashion-MNIST's 60,000 and 70,000 images, 10^6 points in 100-D).
  CHECK(choose_neighbor_search(60000, 784, true) == NeighborSearch::hnsw);
  CHECK(choose_neighbor_search(70000, 784, true) == NeighborSearch::hnsw);  // measured 9.5x
  CHECK(choose_neighbor_search(70000, 128, true) == NeighborSearch::hnsw);  // 5.2x
  CHECK(choose_neighbor_search(1000000, 100, true) == NeighborSearch::hnsw);
  // Not allowed to approximate: always exact.
  CHECK(choose_neighbor_search(1000000, 100, false) == NeighborSearch::brute_force);
  CHECK(choose_neighbor_search(70000, 784, false) == NeighborSearch::brute_force);
  // The rule is the threshold on the estimate.
  for (nldr::index_t n : {10000, 30000, 50000, 80000})
    for (int d : {64, 128, 784}) {
      const bool cheaper = nldr::estimated_hnsw_speedup(n, d) >= nldr::hnsw_min_speedup;
      CHECK((choose_neighbor_search(n, d, true) == NeighborSearch::hnsw) == cheaper);
    }
  CHECK(nldr::search_name(NeighborSearch::kdtree) == "kdtree");
  CHECK(nldr::search_name(NeighborSearch::brute_force) == "brute-force");
  CHECK(nldr::search_name(NeighborSearch::hnsw) == "hnsw");
}

TEMPLATE_TEST_CASE("every selector reports the search that found its lists", "[neighbors][search]", float, double) {
  using T = TestType;
  const nldr::Matrix<T> low = brute_force::gaussian<T>(200, 3, 5);
  const nldr::Matrix<T> high = brute_force::gaussian<T>(200, 40, 6);
  using nldr::SearchBackend;
  CHECK(nldr::KNearest{5}(low).selection().search == "kdtree");
  CHECK(nldr::KNearest{5}(high).selection().search == "brute-force");
  CHECK(nldr::KNearest{.k = 5, .backend = SearchBackend::brute_force}(low).selection().search == "brute-force");
  CHECK(nldr::KNearest{.k = 5, .backend = SearchBackend::kdtree}(high).selection().search == "kdtree");
  CHECK(nldr::EpsilonBall{.radius = 1.0}(low).selection().search == "kdtree");
  CHECK(nldr::EpsilonBall{.radius = 8.0}(high).selection().search == "brute-force");
  // Pruning selectors pass their candidates' search on.
  CHECK(nldr::SharedNeighbors{nldr::KNearest{8}}(high).selection().search == "brute-force");
#if defined(NLDR_HAVE_HNSWLIB)
  const auto approximate = nldr::ApproximateKNearest{.k = 5}(high);
  CHECK(approximate.selection().search == "hnsw");
  CHECK(nldr::SharedNeighbors{nldr::ApproximateKNearest{.k = 8}}(high).selection().search == "hnsw");
#endif
}

// The scale benchmark's data (docs/datasets.md, "swiss_roll_features"): nearby points keep about
// their roll distance, far points saturate near length_scale sqrt 2, and the seed fixes the data.
TEMPLATE_TEST_CASE("swiss_roll_features embeds the roll nonlinearly, locally near-isometric", "[neighbors][search]",
                   float, double) {
  using T = TestType;
  namespace ds = nldr::datasets;
  const auto data = ds::swiss_roll_features<T>({.n = 3000, .seed = 3});
  REQUIRE(data.points.rows() == 3000);
  REQUIRE(data.points.cols() == 100);
  REQUIRE(data.intrinsic.cols() == 2);
  const auto roll = [&](nldr::index_t i) {
    const double t = double(data.parameter(i)), h = double(data.intrinsic(i, 1));
    return Eigen::Vector3d(t * std::cos(t), h, t * std::sin(t));
  };
  std::vector<double> near_ratio;
  double far_sum = 0;
  int far_count = 0;
  for (nldr::index_t i = 0; i < 3000; ++i)
    for (nldr::index_t j = i + 1; j < 3000; j += 7) {
      const double in_roll = (roll(i) - roll(j)).norm();
      const double embedded = (data.points.row(i) - data.points.row(j)).template cast<double>().norm();
      if (in_roll < 1.0) near_ratio.push_back(embedded / in_roll);
      if (in_roll > 20) far_sum += embedded, ++far_count;
    }
  REQUIRE(near_ratio.size() > 100);
  std::sort(near_ratio.begin(), near_ratio.end());
  CHECK(near_ratio[near_ratio.size() / 2] == Approx(1).margin(0.15));
  CHECK(far_sum / far_count == Approx(4 * std::sqrt(2.0)).epsilon(0.1));
  const auto again = ds::swiss_roll_features<T>({.n = 3000, .seed = 3});
  CHECK((again.points.array() == data.points.array()).all());
  CHECK_THROWS_AS(ds::swiss_roll_features<T>({.n = 10}, 2), nldr::invalid_argument);
  CHECK_THROWS_AS(ds::swiss_roll_features<T>({.n = 10}, 100, 0.0), nldr::invalid_argument);
}
