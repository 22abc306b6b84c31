// PointIndex::nearest (the search behind every model's transform) against the literal O(N P)
// reference: new points at low D (k-d tree) and high D (the blocked GEMM filter), with ties,
// duplicates, training points queried as new points, and queries far outside the data.
#include <nldr/neighbors/point_index.hpp>

#include "catch.hpp"
#include "neighbors/exact_reference.hpp"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace point_index_test {

/// The k nearest rows of `training` to each row of `queries` as (reference_distance, index), sorted.
template <class T>
std::vector<std::vector<std::pair<T, int>>> reference(const nldr::Matrix<T>& training, const nldr::Matrix<T>& queries,
                                                      int k) {
  std::vector<std::vector<std::pair<T, int>>> all(std::size_t(queries.rows()));
  for (int q = 0; q < int(queries.rows()); ++q) {
    for (int j = 0; j < int(training.rows()); ++j)
      all[q].emplace_back(test_exact::reference_distance(queries, q, training, j), j);
    std::sort(all[q].begin(), all[q].end());
    all[q].resize(std::size_t(k));
  }
  return all;
}

template <class T>
void require_nearest(const nldr::Matrix<T>& training, const nldr::Matrix<T>& queries, int k) {
  const nldr::PointIndex<T> index(training);
  const auto lists = index.nearest(queries, k);
  const auto expected = reference(training, queries, k);
  REQUIRE(lists.offsets.size() == std::size_t(queries.rows()) + 1);
  for (int q = 0; q < int(queries.rows()); ++q) {
    std::vector<std::pair<T, int>> got;
    for (auto e = lists.offsets[q]; e < lists.offsets[q + 1]; ++e) got.emplace_back(lists.distances[e], lists.indices[e]);
    INFO("query " << q);
    REQUIRE(got == expected[std::size_t(q)]);
  }
}

}  // namespace point_index_test

TEMPLATE_TEST_CASE("PointIndex finds the exact nearest training points of new points, ties by index", "[neighbors][transform]",
                   float, double) {
  using T = TestType;
  for (const int d : {3, 40}) {  // k-d tree, and the GEMM filter (D > kdtree_max_dimension)
    INFO("D = " << d);
    // Uniform data, queries beyond the data's box on one side (new points need not lie inside).
    const auto training = test_exact::uniform_points<T>(700, d, 1);
    const auto queries = test_exact::uniform_points<T>(300, d, 2, 1.5, -0.25);
    point_index_test::require_nearest(training, queries, 12);
    // Training points as new points: each finds itself at distance 0, then its neighbors.
    point_index_test::require_nearest(training, nldr::Matrix<T>(training.topRows(40)), 12);
  }
  // An integer grid with duplicates: ties at every rank and zero distances, queries on the grid.
  const auto grid = test_exact::grid_with_duplicates<T>(5, 3, 30, 3);
  point_index_test::require_nearest(grid, nldr::Matrix<T>(grid.topRows(60)), 20);
  nldr::Matrix<T> grid_wide = nldr::Matrix<T>::Zero(grid.rows(), 24);  // the same ties at D = 24
  grid_wide.leftCols(3) = grid;
  point_index_test::require_nearest(grid_wide, nldr::Matrix<T>(grid_wide.topRows(60)), 20);
  // More queries than one GEMM block (256), and k = N.
  const auto wide = test_exact::uniform_points<T>(300, 30, 4);
  point_index_test::require_nearest(wide, test_exact::uniform_points<T>(600, 30, 5), 300);
}

TEST_CASE("PointIndex answers queries too far out for a float GEMM on double data", "[neighbors][transform]") {
  // Double training data in a range the float filter takes; queries whose centered squared norm
  // exceeds float's safe range (coordinates ~1e16) are compared exactly instead.
  const auto training = test_exact::uniform_points<double>(200, 30, 6);
  nldr::Matrix<double> queries = test_exact::uniform_points<double>(5, 30, 7);
  queries.row(1).array() += 1e16;
  queries(3, 0) = -3e17;
  point_index_test::require_nearest(training, queries, 10);
}
