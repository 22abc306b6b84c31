// The one-pass quality report equals the individual measures.
#include "catch.hpp"
#include "data.hpp"

#include <nldr/core/parallel.hpp>
#include <nldr/metrics/metrics.hpp>

#include <cstdint>
#include <vector>

namespace metrics = nldr::metrics;

TEMPLATE_TEST_CASE("quality_report equals the individual measures", "[metrics][report]", float, double) {
  const auto X = test_data::uniform<TestType>(60, 3, 181);
  const auto Y = test_data::distorted(X, 0.05, 182);
  nldr::Matrix<TestType> truth = X.leftCols(2);
  std::vector<int> labels(60);
  for (int i = 0; i < 60; ++i) labels[std::size_t(i)] = X(i, 0) > 0.5;
  const auto q = metrics::quality_report(X, Y, {.k = 8, .curve = true}, truth, labels);
  const auto s = metrics::coranking_summary(X, Y);
  // The same integer counts and the same per-point sums in the same order: exactly equal.
  CHECK(q.n == 60);
  CHECK(q.k == 8);
  CHECK(q.trustworthiness == metrics::trustworthiness(X, Y, 8));
  CHECK(q.continuity == metrics::continuity(X, Y, 8));
  CHECK(q.q_nx == s.q_nx(8));
  CHECK(q.r_nx == s.r_nx(8));
  CHECK(q.b_nx == s.b_nx(8));
  CHECK(q.lcmc == s.lcmc(8));
  CHECK(q.auc_rnx == s.auc_rnx());
  CHECK(q.r_nx_curve == s.r_nx_curve());
  CHECK(q.k_max == 58);
  const auto e = metrics::mrre(X, Y, 8);
  CHECK(q.mrre_x == e.x);
  CHECK(q.mrre_y == e.y);
  const auto other = metrics::mrre(X, Y, 8, metrics::MrreDenominator::other_space);
  const auto q_other = metrics::quality_report(X, Y, {.k = 8, .mrre_denominator = metrics::MrreDenominator::other_space});
  CHECK(q_other.mrre_x == other.x);
  CHECK(q_other.mrre_y == other.y);
  CHECK(q_other.mrre_x != q.mrre_x);
  CHECK(q.konig_k1 == 8);
  CHECK(q.konig_k2 == 16);
  CHECK(q.konig == metrics::konig(X, Y, 8, 16));
  CHECK(q.spearman_rho == metrics::spearman_rho(X, Y).rho);
  const auto stress = metrics::kruskal_stress(X, Y);
  CHECK(q.kruskal_stress == stress.plain);
  CHECK(q.kruskal_stress_scaled == stress.scaled);
  CHECK(q.residual_variance == metrics::residual_variance(X, Y).value);
  REQUIRE(q.residual_variance_truth);
  CHECK(*q.residual_variance_truth == metrics::residual_variance(truth, Y).value);
  REQUIRE(q.knn_error);
  CHECK(*q.knn_error == metrics::knn_error(Y, labels).error);
  CHECK(q.spearman_pairs == 1770);
  CHECK(q.distance_pairs == 1770);
  CHECK_FALSE(q.pairs_sampled);

  // Without truth, labels and curve: the optional parts stay empty.
  const auto plain = metrics::quality_report(X, Y, {.k = 8});
  CHECK_FALSE(plain.residual_variance_truth);
  CHECK_FALSE(plain.knn_error);
  CHECK(plain.r_nx_curve.empty());
  CHECK(plain.r_nx == q.r_nx);
}

TEST_CASE("quality_report: identity embedding gets every ideal value", "[metrics][report]") {
  const auto X = test_data::uniform<double>(50, 2, 191);
  const auto q = metrics::quality_report(X, X, {.k = 5}, X);
  CHECK(q.trustworthiness == 1.0);
  CHECK(q.continuity == 1.0);
  CHECK(q.q_nx == 1.0);
  CHECK(q.r_nx == Approx(1.0).margin(1e-12));
  CHECK(q.b_nx == 0.0);
  CHECK(q.lcmc == Approx(1.0 - 5.0 / 49).margin(1e-12));
  CHECK(q.auc_rnx == Approx(1.0).margin(1e-12));
  CHECK(q.mrre_x == 0.0);
  CHECK(q.mrre_y == 0.0);
  CHECK(q.konig == 1.0);
  CHECK(q.spearman_rho == 1.0);
  CHECK(q.kruskal_stress == 0.0);
  CHECK(q.kruskal_stress_scaled == 0.0);
  CHECK(q.residual_variance == Approx(0.0).margin(1e-12));
  CHECK(*q.residual_variance_truth == Approx(0.0).margin(1e-12));
}

TEST_CASE("quality_report: bounded k_max, sampled pairs, thread independence, validation", "[metrics][report]") {
  const auto X = test_data::uniform<double>(150, 3, 201);
  const auto Y = test_data::distorted(X, 0.1, 202);
  const metrics::QualityOptions options{.k = 6, .curve = true, .k_max = 20, .spearman_max_pairs = 1000,
                                        .distance_max_pairs = 2000, .geodesic_k = 8, .seed = 3};
  const int saved = nldr::max_threads();
  nldr::set_threads(1);
  const auto a = metrics::quality_report(X, Y, options);
  nldr::set_threads(2);
  const auto b = metrics::quality_report(X, Y, options);
  nldr::set_threads(saved);
  CHECK(a.r_nx_curve.size() == 20);
  CHECK(a.r_nx_curve == b.r_nx_curve);
  CHECK(a.auc_rnx == b.auc_rnx);
  CHECK(a.spearman_rho == b.spearman_rho);
  CHECK(a.kruskal_stress == b.kruskal_stress);
  REQUIRE(a.residual_variance_geodesic);
  CHECK(a.residual_variance_geodesic == b.residual_variance_geodesic);
  CHECK(a.pairs_sampled);
  CHECK(a.spearman_pairs == 1000);
  CHECK(a.distance_pairs == 2000);
  // The bounded curve is the start of the whole one.
  const auto whole = metrics::coranking_summary(X, Y).r_nx_curve();
  CHECK(std::vector<double>(whole.begin(), whole.begin() + 20) == a.r_nx_curve);
  CHECK(a.trustworthiness == metrics::trustworthiness(X, Y, 6));

  CHECK_THROWS_WITH(metrics::quality_report(X, Y, {.k = 6, .k_max = 5}), ContainsSubstring("k_max = 5"));
  CHECK_THROWS_WITH(metrics::quality_report(X, Y, {.k = 149}), ContainsSubstring("k = 149"));
  CHECK_THROWS_WITH(metrics::quality_report(X, Y, {.k = 6, .konig_k1 = 6, .konig_k2 = 5}), ContainsSubstring("k2 = 5"));
  const std::vector<int> labels(10, 0);
  CHECK_THROWS_WITH(metrics::quality_report(X, Y, {.k = 6}, nullptr, labels), ContainsSubstring("labels has 10"));
}

TEST_CASE("quality_report: all_pairs gives the exact pair measures above the default budgets", "[metrics][report]") {
  // N = 1500: 1,124,250 pairs, above Spearman's default budget of 1e6 pairs.
  const auto X = test_data::uniform<double>(1500, 3, 211);
  const auto Y = test_data::distorted(X, 0.1, 212);
  const std::uint64_t all = 1500ull * 1499 / 2;
  const auto sampled = metrics::quality_report(X, Y, {.k = 5, .k_max = 10});
  CHECK(sampled.pairs_sampled);
  CHECK(sampled.spearman_pairs == 1'000'000);
  const auto exact = metrics::quality_report(
      X, Y, {.k = 5, .k_max = 10, .spearman_max_pairs = metrics::all_pairs, .distance_max_pairs = metrics::all_pairs});
  CHECK_FALSE(exact.pairs_sampled);
  CHECK(exact.spearman_pairs == all);
  CHECK(exact.distance_pairs == all);
  // The value of a budget that just covers every pair (the unsampled path, pairs.cpp's brute-force tests).
  CHECK(exact.spearman_rho == metrics::spearman_rho(X, Y, {.max_pairs = all}).rho);
  CHECK(exact.spearman_rho != sampled.spearman_rho);
  CHECK(exact.residual_variance == metrics::residual_variance(X, Y, {.max_pairs = all}).value);
}
