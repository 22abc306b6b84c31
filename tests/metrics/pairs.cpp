// Spearman's rho, residual variance and Kruskal stress against literal brute force and closed forms.
#include "catch.hpp"
#include "data.hpp"
#include "reference.hpp"

#include <nldr/core/parallel.hpp>
#include <nldr/metrics/residual_variance.hpp>
#include <nldr/metrics/spearman.hpp>
#include <nldr/metrics/stress.hpp>

#include <cmath>
#include <numbers>
#include <type_traits>
#include <utility>
#include <vector>

namespace metrics = nldr::metrics;

// Sums over at most N^2/2 = 800 terms in double: the library and the reference differ only in the
// summation order, far below 1e-12. Distances are computed identically on both sides (reference.hpp).
constexpr double summation_tol = 1e-12;

TEMPLATE_TEST_CASE("Spearman's rho equals the average-rank Pearson brute force", "[metrics][spearman]", float,
                   double) {
  const auto X = test_data::uniform<TestType>(40, 3, 81);
  const auto Y = test_data::distorted(X, 0.1, 82);
  const auto dx = reference::pair_distances(X), dy = reference::pair_distances(Y);
  const auto s = metrics::spearman_rho(X, Y);
  CHECK(s.pairs == 780);
  CHECK_FALSE(s.sampled);
  CHECK_THAT(s.rho, WithinAbs(reference::pearson(reference::average_ranks(dx), reference::average_ranks(dy)), summation_tol));
  // No ties here, so Roy 2015, eq. 4.1 applies: 1 - 6 sum d^2 / (T^3 - T).
  const auto ra = reference::average_ranks(dx), rb = reference::average_ranks(dy);
  double d2 = 0;
  for (std::size_t p = 0; p < ra.size(); ++p) d2 += (ra[p] - rb[p]) * (ra[p] - rb[p]);
  const double t = double(ra.size());
  CHECK_THAT(s.rho, WithinAbs(1 - 6 * d2 / (t * t * t - t), 1e-12));
}

TEMPLATE_TEST_CASE("Spearman's rho gives tied distances their average rank", "[metrics][spearman]", float, double) {
  // Grid points: many equal distances in X and in Y.
  nldr::Matrix<TestType> X(16, 2), Y(16, 1);
  for (int i = 0; i < 16; ++i) {
    X.row(i) << TestType(i % 4), TestType(i / 4);
    Y(i, 0) = TestType(i % 4 + (i / 4) % 2);
  }
  const auto dx = reference::pair_distances(X), dy = reference::pair_distances(Y);
  CHECK_THAT(metrics::spearman_rho(X, Y).rho,
             WithinAbs(reference::pearson(reference::average_ranks(dx), reference::average_ranks(dy)), summation_tol));
}

TEST_CASE("Spearman's rho: ideal, reversed, and a seeded subsample of pairs", "[metrics][spearman]") {
  const auto X = test_data::uniform<double>(60, 3, 83);
  CHECK(metrics::spearman_rho(X, X).rho == 1.0);
  // Scaling preserves every rank.
  nldr::Matrix<double> scaled = 2.5 * X;
  CHECK_THAT(metrics::spearman_rho(X, scaled).rho, WithinAbs(1.0, summation_tol));
  // Precomputed: distances D' = 10 - D reverse the order of every pair, rho = -1.
  nldr::Matrix<double> D(60, 60), R(60, 60);
  for (int i = 0; i < 60; ++i)
    for (int j = 0; j < 60; ++j) {
      D(i, j) = (X.row(i) - X.row(j)).norm();
      R(i, j) = i == j ? 0 : 10 - D(i, j);
    }
  CHECK_THAT(metrics::spearman_rho(metrics::precomputed(D), metrics::precomputed(R)).rho, WithinAbs(-1.0, summation_tol));
  // Subsample: 500 of the 1770 pairs; reproducible with the seed; close to the exact value.
  const auto Y = test_data::distorted(X, 0.2, 84);
  const double exact = metrics::spearman_rho(X, Y).rho;
  const auto a = metrics::spearman_rho(X, Y, {.max_pairs = 500, .seed = 5});
  const auto b = metrics::spearman_rho(X, Y, {.max_pairs = 500, .seed = 5});
  const auto c = metrics::spearman_rho(X, Y, {.max_pairs = 500, .seed = 6});
  CHECK(a.sampled);
  CHECK(a.pairs == 500);
  CHECK(a.rho == b.rho);
  CHECK(a.rho != c.rho);
  // Standard error of a rank correlation from 500 pairs is about (1 - rho^2)/sqrt(500) < 0.05.
  CHECK(std::abs(a.rho - exact) < 0.1);
}

TEMPLATE_TEST_CASE("residual variance equals 1 - r^2 of the brute-force distances", "[metrics][residual_variance]",
                   float, double) {
  const auto X = test_data::uniform<TestType>(40, 3, 91);
  const auto Y = test_data::distorted(X, 0.1, 92);
  const double r = reference::pearson(reference::pair_distances(X), reference::pair_distances(Y));
  const auto rv = metrics::residual_variance(X, Y);
  CHECK_THAT(rv.value, WithinAbs(1 - r * r, summation_tol));
  CHECK_THAT(rv.correlation, WithinAbs(r, summation_tol));
  CHECK(rv.pairs == 780);
  CHECK(metrics::residual_variance(X, X).value == Approx(0.0).margin(summation_tol));
}

TEST_CASE("residual variance against geodesics and ground truth: points on an arc", "[metrics][residual_variance]") {
  // 30 points on a half circle of radius 1 at angles t_i: the manifold (geodesic) distance is |t_i - t_j|.
  // The 1-D embedding Y = t reproduces it exactly (residual variance 0 against the truth, both as the
  // coordinates and as a precomputed geodesic matrix) but not the chords, 2 sin(|dt|/2) (> 0 there).
  const int n = 30;
  nldr::Matrix<double> X(n, 2), Y(n, 1), G(n, n);
  for (int i = 0; i < n; ++i) {
    const double t = std::numbers::pi * i / (n - 1.0) + 0.01 * std::sin(3.0 * i);
    X.row(i) << std::cos(t), std::sin(t);
    Y(i, 0) = t;
  }
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) G(i, j) = std::abs(Y(i, 0) - Y(j, 0));
  CHECK_THAT(metrics::residual_variance(Y, Y).value, WithinAbs(0.0, summation_tol));
  CHECK_THAT(metrics::residual_variance(metrics::precomputed(G), Y).value, WithinAbs(0.0, summation_tol));
  const double chord = metrics::residual_variance(X, Y).value;
  CHECK(chord > 0.005);
  const double r = reference::pearson(reference::pair_distances(X), reference::pair_distances(Y));
  CHECK_THAT(chord, WithinAbs(1 - r * r, summation_tol));
}

TEMPLATE_TEST_CASE("Kruskal stress equals the brute force, and the scaled form removes the scale",
                   "[metrics][stress]", float, double) {
  const auto X = test_data::uniform<TestType>(40, 3, 101);
  const auto Y = test_data::distorted(X, 0.1, 102);
  const auto dx = reference::pair_distances(X), dy = reference::pair_distances(Y);
  double num = 0, den = 0, xy = 0, yy = 0;
  for (std::size_t p = 0; p < dx.size(); ++p) {
    num += (dx[p] - dy[p]) * (dx[p] - dy[p]);
    den += dx[p] * dx[p];
    xy += dx[p] * dy[p];
    yy += dy[p] * dy[p];
  }
  const double alpha = xy / yy;
  double scaled = 0;
  for (std::size_t p = 0; p < dx.size(); ++p) scaled += (dx[p] - alpha * dy[p]) * (dx[p] - alpha * dy[p]);
  const auto s = metrics::kruskal_stress(X, Y);
  CHECK_THAT(s.plain, WithinAbs(std::sqrt(num / den), summation_tol));
  CHECK_THAT(s.alpha, WithinAbs(alpha, summation_tol));
  CHECK_THAT(s.scaled, WithinAbs(std::sqrt(scaled / den), summation_tol));
  CHECK(s.scaled <= s.plain);

  // Closed forms: Y = X gives 0 and 0; Y = 3 X gives plain sqrt(sum (d - 3d)^2 / sum d^2) = 2,
  // scaled 0 with alpha = 1/3 (up to the float rounding of 3 X: 1e-6 for float).
  const double ftol = std::is_same_v<TestType, float> ? 1e-6 : summation_tol;
  const auto same = metrics::kruskal_stress(X, X);
  CHECK(same.plain == 0.0);
  CHECK(same.scaled == 0.0);
  nldr::Matrix<TestType> triple = TestType(3) * X;
  const auto t = metrics::kruskal_stress(X, triple);
  CHECK_THAT(t.plain, WithinAbs(2.0, ftol));
  CHECK_THAT(t.scaled, WithinAbs(0.0, ftol));
  CHECK_THAT(t.alpha, WithinAbs(1.0 / 3.0, ftol));
}

TEMPLATE_TEST_CASE("local Kruskal stress over neighbors plus random pairs", "[metrics][stress]", float, double) {
  const auto X = test_data::uniform<TestType>(40, 3, 111);
  const auto Y = test_data::distorted(X, 0.1, 112);
  // Without random pairs Omega_i is exactly the k nearest of i in X: the literal sum.
  const auto rho = reference::ranks(reference::squared_distances(X));
  const auto dx = reference::squared_distances(X), dy = reference::squared_distances(Y);
  double num = 0, den = 0;
  for (std::size_t i = 0; i < 40; ++i)
    for (std::size_t j = 0; j < 40; ++j)
      if (j != i && rho[i][j] <= 6) {
        const double a = std::sqrt(double(dx[i][j])), b = std::sqrt(double(dy[i][j]));
        num += (a - b) * (a - b);
        den += a * a;
      }
  const auto local = metrics::local_kruskal_stress(X, Y, {.k = 6, .random_pairs = 0});
  CHECK(local.pairs == 240);
  CHECK_THAT(local.plain, WithinAbs(std::sqrt(num / den), summation_tol));
  // With random pairs: at least the neighbors, at most neighbors + draws per point; seeded.
  const auto a = metrics::local_kruskal_stress(X, Y, {.k = 6, .random_pairs = 5, .seed = 3});
  const auto b = metrics::local_kruskal_stress(X, Y, {.k = 6, .random_pairs = 5, .seed = 3});
  CHECK(a.pairs > 240);
  CHECK(a.pairs <= 40 * 11);
  CHECK(a.plain == b.plain);
  nldr::Matrix<TestType> triple = TestType(3) * X;
  const double ftol = std::is_same_v<TestType, float> ? 1e-6 : summation_tol;
  CHECK_THAT(metrics::local_kruskal_stress(X, triple, {.k = 6, .random_pairs = 5}).plain, WithinAbs(2.0, ftol));
  CHECK(metrics::local_kruskal_stress(X, X).plain == 0.0);
}

TEST_CASE("pair measures are thread-count independent, also when sampled", "[metrics][pairs]") {
  const auto X = test_data::uniform<double>(300, 3, 121);
  const auto Y = test_data::distorted(X, 0.1, 122);
  const metrics::PairSampling sample{.max_pairs = 100'000 / 3, .seed = 9};
  const int saved = nldr::max_threads();
  nldr::set_threads(1);
  const auto s1 = metrics::kruskal_stress(X, Y, sample);
  const auto r1 = metrics::residual_variance(X, Y);
  const auto p1 = metrics::spearman_rho(X, Y, sample);
  nldr::set_threads(2);
  const auto s2 = metrics::kruskal_stress(X, Y, sample);
  const auto r2 = metrics::residual_variance(X, Y);
  const auto p2 = metrics::spearman_rho(X, Y, sample);
  nldr::set_threads(saved);
  CHECK(s1.sampled);
  CHECK(s1.plain == s2.plain);
  CHECK(s1.scaled == s2.scaled);
  CHECK(r1.value == r2.value);
  CHECK(p1.rho == p2.rho);
}

TEST_CASE("pair measures reject bad input", "[metrics][pairs]") {
  const auto X = test_data::uniform<double>(10, 3, 131);
  const auto Y = test_data::uniform<double>(10, 2, 132);
  CHECK_THROWS_WITH(metrics::spearman_rho(X, Y, {.max_pairs = 0}), ContainsSubstring("max_pairs"));
  CHECK_THROWS_WITH(metrics::residual_variance(X, test_data::uniform<double>(8, 2, 1)), ContainsSubstring("Y has 8"));
  nldr::Matrix<double> inf = Y;
  inf(2, 0) = INFINITY;
  CHECK_THROWS_WITH(metrics::kruskal_stress(X, inf), ContainsSubstring("Y(2, 0)"));
  CHECK_THROWS_WITH(metrics::kruskal_stress(nldr::Matrix<double>::Zero(10, 2), Y), ContainsSubstring("stress is undefined"));
  CHECK_THROWS_WITH(metrics::local_kruskal_stress(X, Y, {.k = 10}), ContainsSubstring("k = 10"));
  CHECK_THROWS_WITH(metrics::local_kruskal_stress(X, Y, {.k = 3, .random_pairs = -1}), ContainsSubstring("random_pairs"));
}

TEMPLATE_TEST_CASE("metrics refuse distances that overflow, underflow or do not vary, naming the input",
                   "[metrics][hostile]", float, double) {
  const auto X = test_data::uniform<TestType>(30, 3, 111);
  const auto Y = test_data::distorted(X, 0.1, 112);
  // Coordinates whose squared distances overflow T, or all underflow to 0 (as 1e-300 does in double).
  const TestType huge = std::is_same_v<TestType, float> ? TestType(1e20) : TestType(1e300);
  const TestType tiny = std::is_same_v<TestType, float> ? TestType(1e-30) : TestType(1e-300);
  for (const auto& [scaled, fix] : {std::pair{nldr::Matrix<TestType>(X * huge), "overflow"},
                                    std::pair{nldr::Matrix<TestType>(X * tiny), "underflows"}}) {
    CAPTURE(fix);
    CHECK_THROWS_CONTAINING(metrics::trustworthiness(scaled, Y, 5), nldr::invalid_argument, fix);
    CHECK_THROWS_CONTAINING(metrics::spearman_rho(Y, scaled), nldr::invalid_argument, "rescale Y");
    CHECK_THROWS_CONTAINING(metrics::residual_variance(scaled, Y), nldr::invalid_argument, "rescale reference");
    CHECK_THROWS_CONTAINING(metrics::kruskal_stress(scaled, Y), nldr::invalid_argument, fix);
    CHECK_THROWS_CONTAINING(metrics::mrre(scaled, Y, 5), nldr::invalid_argument, fix);
  }
  // A collapsed embedding: every pair distance is 0, so a correlation with it is undefined (not NaN).
  const nldr::Matrix<TestType> collapsed = nldr::Matrix<TestType>::Ones(30, 2);
  CHECK_THROWS_CONTAINING(metrics::spearman_rho(X, collapsed), nldr::invalid_argument, "every pair distance of Y");
  CHECK_THROWS_CONTAINING(metrics::residual_variance(collapsed, Y), nldr::invalid_argument,
                          "every pair distance of reference");
}

TEST_CASE("all_pairs means every pair at any N", "[metrics][pairs]") {
  const metrics::PairPlan huge(200'000, {.max_pairs = metrics::all_pairs});
  CHECK_FALSE(huge.sampled());
  CHECK(huge.count() == 200'000ull * 199'999 / 2);
  CHECK(huge.blocks() == 199'999);
  // Spearman's rho sorts pair indices of 32 bits: beyond 2^32 - 1 pairs it asks for a sample.
  const nldr::Matrix<double> line = Eigen::VectorXd::LinSpaced(92'700, 0, 1);
  CHECK_THROWS_WITH(metrics::spearman_rho(line, line, {.max_pairs = metrics::all_pairs}),
                    ContainsSubstring("at most 2^32 - 1"));
}
