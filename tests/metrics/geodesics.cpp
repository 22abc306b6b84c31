// kNN-graph geodesics and the geodesic residual variance of the quality report: against
// Floyd-Warshall on the brute-force kNN graph, a closed form on an arc, and a disconnected graph,
// whose geodesic measure is unavailable while every other measure is unchanged.
#include "catch.hpp"
#include "data.hpp"
#include "reference.hpp"

#include <nldr/metrics/metrics.hpp>

#include <cmath>
#include <numbers>
#include <type_traits>
#include <vector>

namespace metrics = nldr::metrics;

namespace {

/// Three clusters of `per` uniform points in unit cubes 100 apart: every kNN graph with k < per is
/// disconnected (no point has a neighbor in another cluster).
template <class T>
nldr::Matrix<T> three_blobs(int per, std::uint64_t seed) {
  nldr::Matrix<T> X = test_data::uniform<T>(3 * per, 3, seed);
  for (int i = 0; i < 3 * per; ++i) X(i, 0) += T(100 * (i / per));
  return X;
}

}  // namespace

TEMPLATE_TEST_CASE("kNN geodesics equal Floyd-Warshall on the brute-force kNN graph", "[metrics][geodesics]", float,
                   double) {
  const auto X = test_data::uniform<TestType>(50, 3, 301);
  const auto squared = reference::squared_distances(X);
  const int k = 6;
  const auto expected = reference::knn_geodesics(squared, k);
  const auto g = metrics::knn_geodesics(X, k);
  REQUIRE(g.available());
  REQUIRE(g.distances.rows() == 50);
  // Float: every edge length rounded to float, paths of up to ~10 edges.
  const double tolerance = std::is_same_v<TestType, float> ? 1e-5 : 1e-12;
  for (int i = 0; i < 50; ++i)
    for (int j = 0; j < 50; ++j) {
      REQUIRE(std::isfinite(expected[i][j]));  // connected at this k
      CHECK_THAT(double(g.distances(i, j)), WithinRel(expected[i][j], tolerance));
    }
  // The same distances given as a precomputed matrix: the same graph and geodesics.
  nldr::Matrix<TestType> D(50, 50);
  for (int i = 0; i < 50; ++i)
    for (int j = 0; j < 50; ++j) D(i, j) = TestType(std::sqrt(double(squared[i][j])));
  CHECK(metrics::knn_geodesics(metrics::precomputed(D), k).distances == g.distances);
}

TEST_CASE("geodesic residual variance is about 0 for an arc unrolled to its arc length", "[metrics][geodesics]") {
  // 40 equally spaced points on a half circle, k = 2: an inner point's neighbors are the adjacent
  // ones, so the geodesic between i and j is |i - j| chords, an affine function of the arc-length
  // embedding t, except through the two end points, whose second neighbor is two steps away (a
  // shortcut shorter by 4 sin(dt/2) - 2 sin(dt) ~ dt^3/4 = 1.3e-4: residual variance 2.6e-9). The
  // straight-line chords 2 sin(|t_i - t_j|/2) are far from affine in t (> 0.005).
  const int n = 40;
  nldr::Matrix<double> X(n, 2), Y(n, 1);
  for (int i = 0; i < n; ++i) {
    const double t = std::numbers::pi * i / (n - 1.0);
    X.row(i) << std::cos(t), std::sin(t);
    Y(i, 0) = t;
  }
  const auto q = metrics::quality_report(X, Y, {.k = 5, .geodesic_k = 2});
  CHECK(q.geodesic_k == 2);
  REQUIRE(q.residual_variance_geodesic);
  CHECK(q.geodesic_unavailable.empty());
  CHECK(*q.residual_variance_geodesic < 1e-8);
  CHECK(q.residual_variance > 0.005);
}

TEMPLATE_TEST_CASE("geodesic residual variance equals 1 - r^2 against Floyd-Warshall geodesics", "[metrics][geodesics]",
                   float, double) {
  const auto X = test_data::uniform<TestType>(60, 3, 311);
  const auto Y = test_data::distorted(X, 0.05, 312);
  const auto geodesics = reference::knn_geodesics(reference::squared_distances(X), 7);
  const double r = reference::pearson(reference::upper_triangle(geodesics), reference::pair_distances(Y));
  const auto q = metrics::quality_report(X, Y, {.k = 8, .geodesic_k = 7});
  REQUIRE(q.residual_variance_geodesic);
  const double tolerance = std::is_same_v<TestType, float> ? 1e-5 : 1e-12;
  CHECK_THAT(*q.residual_variance_geodesic, WithinAbs(1 - r * r, tolerance));
  // Not the Euclidean one: the geodesics are a different reference.
  CHECK(std::abs(*q.residual_variance_geodesic - q.residual_variance) > 1e-4);
}

TEMPLATE_TEST_CASE("a disconnected geodesic graph leaves the geodesic measure unavailable, the others as usual",
                   "[metrics][geodesics]", float, double) {
  const auto X = three_blobs<TestType>(30, 321);
  const auto Y = test_data::distorted(X, 0.05, 322);
  const auto g = metrics::knn_geodesics(X, 5);
  CHECK_FALSE(g.available());
  CHECK(g.distances.size() == 0);
  CHECK_THAT(g.unavailable, ContainsSubstring("3 connected components (sizes 30, 30, 30)"));

  const std::vector<int> labels = [] {
    std::vector<int> l(90);
    for (int i = 0; i < 90; ++i) l[std::size_t(i)] = i / 30;
    return l;
  }();
  const metrics::QualityOptions plain{.k = 6, .curve = true};
  metrics::QualityOptions geodesic = plain;
  geodesic.geodesic_k = 5;
  const auto without = metrics::quality_report(X, Y, plain, nullptr, labels);
  const auto with = metrics::quality_report(X, Y, geodesic, nullptr, labels);
  CHECK_FALSE(with.residual_variance_geodesic);
  CHECK(with.geodesic_k == 5);
  CHECK_THAT(with.geodesic_unavailable, ContainsSubstring("geodesic_k = 5 nearest-neighbor graph has 3 connected "
                                                          "components (sizes 30, 30, 30)"));
  CHECK_THAT(with.geodesic_unavailable, ContainsSubstring("raise geodesic_k"));
  // Every other measure: present, and the individual measures' values.
  CHECK(with.trustworthiness == metrics::trustworthiness(X, Y, 6));
  CHECK(with.continuity == metrics::continuity(X, Y, 6));
  CHECK(with.r_nx_curve == metrics::coranking_summary(X, Y).r_nx_curve());
  CHECK(with.spearman_rho == metrics::spearman_rho(X, Y).rho);
  CHECK(with.kruskal_stress_scaled == metrics::kruskal_stress(X, Y).scaled);
  CHECK(with.residual_variance == metrics::residual_variance(X, Y).value);
  REQUIRE(with.knn_error);
  CHECK(*with.knn_error == metrics::knn_error(Y, labels).error);
  for (const auto& [a, b] : {std::pair{with.q_nx, without.q_nx}, std::pair{with.b_nx, without.b_nx},
                             std::pair{with.lcmc, without.lcmc}, std::pair{with.auc_rnx, without.auc_rnx},
                             std::pair{with.mrre_x, without.mrre_x}, std::pair{with.mrre_y, without.mrre_y},
                             std::pair{with.konig, without.konig}, std::pair{with.kruskal_stress, without.kruskal_stress}})
    CHECK(a == b);
  // A k that connects the clusters gives the measure.
  geodesic.geodesic_k = 40;
  CHECK(metrics::quality_report(X, Y, geodesic).residual_variance_geodesic);
}

TEST_CASE("geodesics that exceed the memory limit are unavailable, not an error", "[metrics][geodesics]") {
  const auto X = test_data::uniform<double>(30, 2, 341);
  const auto g = metrics::knn_geodesics(X, 8, 30 * 30 * sizeof(double) - 1);
  CHECK_FALSE(g.available());
  CHECK_THAT(g.unavailable, ContainsSubstring("the 30 x 30 geodesic matrix needs"));
  CHECK(metrics::knn_geodesics(X, 8, 30 * 30 * sizeof(double)).available());
}

TEST_CASE("geodesic_k is validated like a neighbor count", "[metrics][geodesics]") {
  const auto X = test_data::uniform<double>(30, 2, 331);
  CHECK_THROWS_WITH(metrics::quality_report(X, X, {.k = 5, .geodesic_k = 30}), ContainsSubstring("geodesic_k = 30"));
  CHECK_THROWS_WITH(metrics::knn_geodesics(X, 0), ContainsSubstring("k = 0"));
}
