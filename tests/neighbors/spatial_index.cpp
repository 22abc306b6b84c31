#include <nldr/core/random.hpp>
#include <nldr/neighbors/kdtree_box_index.hpp>
#include <nldr/neighbors/rstar_box_index.hpp>

#include "catch.hpp"
#include "exact_reference.hpp"

#include <span>
#include <vector>

namespace {

/// Literal count: every point, every coordinate, lo <= p <= hi.
template <class T>
int brute_count(const nldr::Matrix<T>& X, const std::vector<T>& lo, const std::vector<T>& hi) {
  int count = 0;
  for (int i = 0; i < int(X.rows()); ++i) {
    bool inside = true;
    for (int c = 0; c < int(X.cols()); ++c) inside = inside && lo[c] <= X(i, c) && X(i, c) <= hi[c];
    count += inside;
  }
  return count;
}

/// Random boxes: half of them centered on a data point with a half-width equal to that point's
/// offset to another data point in some coordinate, so data points sit exactly on box faces
/// (the closed-box boundary rule is exercised); the rest arbitrary.
template <class T>
std::vector<std::pair<std::vector<T>, std::vector<T>>> random_boxes(const nldr::Matrix<T>& X, int count,
                                                                     std::uint64_t seed) {
  nldr::Random rng(seed);
  std::vector<std::pair<std::vector<T>, std::vector<T>>> boxes;
  const int n = int(X.rows()), d = int(X.cols());
  for (int b = 0; b < count; ++b) {
    std::vector<T> lo(d), hi(d);
    if (b % 2 == 0) {
      const int i = int(rng.below(n)), j = int(rng.below(n)), c0 = int(rng.below(d));
      const T half = std::abs(X(j, c0) - X(i, c0));
      for (int c = 0; c < d; ++c) {
        lo[c] = X(i, c) - half;
        hi[c] = X(i, c) + half;
      }
      lo[c0] = std::min(X(i, c0), X(j, c0));  // X(j, c0) lies exactly on this face
    } else {
      for (int c = 0; c < d; ++c) {
        const double mid = rng.uniform(), half = rng.uniform(0, 0.3);
        lo[c] = T(mid - half);
        hi[c] = T(mid + half);
      }
    }
    boxes.emplace_back(lo, hi);
  }
  return boxes;
}

template <class T, class Index>
void require_brute_counts(const nldr::Matrix<T>& X, const Index& index, std::uint64_t seed) {
  REQUIRE(index.size() == X.rows());
  int nonzero = 0;
  for (const auto& [lo, hi] : random_boxes(X, 400, seed)) {
    const int expected = brute_count(X, lo, hi);
    nonzero += expected > 0;
    const auto got = index.count_in_box(std::span<const T>(lo), std::span<const T>(hi), nldr::index_t(X.rows()));
    REQUIRE(got == expected);
    // cap: the count is clipped, never exceeded.
    REQUIRE(index.count_in_box(std::span<const T>(lo), std::span<const T>(hi), 2) == std::min(expected, 2));
  }
  CHECK(nonzero > 100);
}

}  // namespace

TEMPLATE_TEST_CASE("KdTreeBoxIndex counts equal a brute-force closed-box count", "[neighbors][spatial_index]", float,
                   double) {
  for (int d : {1, 2, 3, 5, 8}) {
    INFO("D = " << d);
    const auto X = test_exact::uniform_points<TestType>(1500, d, 40 + d);
    require_brute_counts(X, nldr::KdTreeBoxIndex<TestType>(X), 7 + d);
  }
  // Ties: integer grid with duplicates, boxes whose faces pass through many points at once.
  const auto grid = test_exact::grid_with_duplicates<TestType>(9, 3, 50, 3);
  require_brute_counts(grid, nldr::KdTreeBoxIndex<TestType>(grid), 12);
}

#if defined(NLDR_HAVE_BOOST)
TEMPLATE_TEST_CASE("RStarBoxIndex and KdTreeBoxIndex return identical counts", "[neighbors][spatial_index]", float,
                   double) {
  const auto X = test_exact::uniform_points<TestType>(2000, 3, 77);
  const nldr::KdTreeBoxIndex<TestType> kd(X);
  const nldr::RStarBoxIndex<TestType, 3> rstar(X);
  require_brute_counts(X, rstar, 5);
  for (const auto& [lo, hi] : random_boxes(X, 500, 99)) {
    const std::span<const TestType> l(lo), h(hi);
    REQUIRE(kd.count_in_box(l, h, 2000) == rstar.count_in_box(l, h, 2000));
  }
  const auto X5 = test_exact::uniform_points<TestType>(800, 5, 78);
  require_brute_counts(X5, nldr::RStarBoxIndex<TestType, 5>(X5), 6);
  const auto grid = test_exact::grid_with_duplicates<TestType>(9, 3, 50, 3);
  require_brute_counts(grid, nldr::RStarBoxIndex<TestType, 3>(grid), 12);
}

TEST_CASE("RStarBoxIndex refuses points of another dimension", "[neighbors][spatial_index]") {
  const auto X = test_exact::uniform_points<double>(50, 4, 1);
  CHECK_THROWS_WITH((nldr::RStarBoxIndex<double, 3>(X)), ContainsSubstring("compiled for Dim = 3"));
}
#endif

TEST_CASE("Box queries with corners of the wrong size are rejected", "[neighbors][spatial_index]") {
  const auto X = test_exact::uniform_points<double>(50, 3, 1);
  const nldr::KdTreeBoxIndex<double> index(X);
  const std::vector<double> lo{0, 0}, hi{1, 1};
  CHECK_THROWS_WITH((index.count_in_box(std::span<const double>(lo), std::span<const double>(hi), 10)),
                    ContainsSubstring("D = 3"));
  const std::vector<double> lo3{0, 0, 0}, hi3{1, 1, 1};
  CHECK_THROWS_WITH((index.count_in_box(std::span<const double>(lo3), std::span<const double>(hi3), -1)),
                    ContainsSubstring("cap = -1"));
  CHECK(index.count_in_box(std::span<const double>(hi3), std::span<const double>(lo3), 10) == 0);  // lo > hi: empty
}
