// The tuning criteria against literal brute force (Floyd-Warshall geodesics, the explicit co-ranking
// matrix) and known geometry.
#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/metrics/coranking.hpp>
#include <nldr/metrics/residual_variance.hpp>
#include <nldr/neighbors/knn.hpp>
#include <nldr/tune/criteria.hpp>

#include "catch.hpp"
#include "metrics/data.hpp"
#include "metrics/reference.hpp"

#include <cmath>
#include <limits>
#include <vector>

namespace criteria_test {

/// All-pairs shortest paths by Floyd-Warshall on the undirected graph of the lists (an edge in either
/// direction, the smaller length), in double.
template <class T>
std::vector<std::vector<double>> floyd_warshall(const nldr::NeighborGraph<T>& graph) {
  const auto n = std::size_t(graph.size());
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<std::vector<double>> d(n, std::vector<double>(n, inf));
  for (std::size_t i = 0; i < n; ++i) {
    d[i][i] = 0;
    for (std::size_t e = 0; e < graph.neighbors(nldr::index_t(i)).size(); ++e) {
      const auto j = std::size_t(graph.neighbors(nldr::index_t(i))[e]);
      const double length = graph.distances(nldr::index_t(i))[e];
      d[i][j] = std::min(d[i][j], length);
      d[j][i] = std::min(d[j][i], length);
    }
  }
  for (std::size_t m = 0; m < n; ++m)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) d[i][j] = std::min(d[i][j], d[i][m] + d[m][j]);
  return d;
}

/// 1 - r^2 over the ordered pairs (s, j), j != s, s in `sources`, with a finite geodesic; and how many
/// pairs had none.
template <class T>
std::pair<double, std::uint64_t> reference_geodesic_rv(const std::vector<std::vector<double>>& geodesic,
                                                        const nldr::Matrix<T>& Y, const std::vector<int>& sources) {
  std::vector<double> a, b;
  std::uint64_t unreachable = 0;
  for (int s : sources)
    for (int j = 0; j < int(Y.rows()); ++j) {
      if (j == s) continue;
      if (!std::isfinite(geodesic[std::size_t(s)][std::size_t(j)])) {
        ++unreachable;
        continue;
      }
      a.push_back(geodesic[std::size_t(s)][std::size_t(j)]);
      b.push_back((Y.row(s).template cast<double>() - Y.row(j).template cast<double>()).norm());
    }
  const double r = reference::pearson(a, b);
  return {1 - r * r, unreachable};
}

}  // namespace criteria_test

TEMPLATE_TEST_CASE("geodesic residual variance equals Floyd-Warshall and Pearson, all sources", "[tune][criteria]",
                   float, double) {
  using T = TestType;
  const auto X = test_data::uniform<T>(45, 3, 7);
  const auto Y = test_data::distorted(X, 0.05, 8);
  const auto graph = nldr::KNearest{5}(X);
  const auto geodesic = criteria_test::floyd_warshall(graph);
  std::vector<int> everyone(45);
  for (int i = 0; i < 45; ++i) everyone[std::size_t(i)] = i;
  const auto [expected, unreachable] = criteria_test::reference_geodesic_rv(geodesic, Y, everyone);
  const auto got = nldr::geodesic_residual_variance(graph, Y, 100);  // sources >= N: every point
  // Geodesic lengths are sums of the same stored edge lengths in a different order (Dijkstra vs Floyd).
  CHECK_THAT(got.value, WithinAbs(expected, 1e-12));
  CHECK(got.unreachable_pairs == unreachable);
  CHECK(got.pairs + got.unreachable_pairs == 45u * 44u);
  CHECK_THAT(got.value, WithinAbs(1 - got.correlation * got.correlation, 1e-15));
}

TEST_CASE("geodesic residual variance: sampled sources, disconnected graphs, thread independence", "[tune][criteria]") {
  // Two clusters far apart: the kNN graph is two components; the pairs between them are left out.
  nldr::Matrix<double> X = test_data::uniform<double>(60, 2, 11);
  X.bottomRows(30).array() += 50.0;
  const auto Y = test_data::distorted(X, 0.02, 12);
  const auto graph = nldr::KNearest{5}(X);
  const auto geodesic = criteria_test::floyd_warshall(graph);
  std::vector<int> everyone(60);
  for (int i = 0; i < 60; ++i) everyone[std::size_t(i)] = i;
  const auto [expected, unreachable] = criteria_test::reference_geodesic_rv(geodesic, Y, everyone);
  REQUIRE(unreachable == 2u * 30u * 30u);  // each cluster is connected, the two are not
  const auto all = nldr::geodesic_residual_variance(graph, Y, 60);
  CHECK_THAT(all.value, WithinAbs(expected, 1e-12));
  CHECK(all.unreachable_pairs == unreachable);
  // 10 seeded sources: each reaches its own cluster only, whichever they are.
  const int threads = nldr::max_threads();
  nldr::set_threads(1);
  const auto one = nldr::geodesic_residual_variance(graph, Y, 10, 3);
  nldr::set_threads(std::max(2, threads));
  const auto many = nldr::geodesic_residual_variance(graph, Y, 10, 3);
  nldr::set_threads(threads);
  CHECK(one.value == many.value);
  CHECK(one.pairs == 10u * 29u);
  CHECK(one.unreachable_pairs == 10u * 30u);
  CHECK(nldr::geodesic_residual_variance(graph, Y, 10, 4).value != one.value);
}

TEMPLATE_TEST_CASE("points on a line: graph geodesics are the distances, so the geodesic residual variance is 0",
                   "[tune][criteria]", float, double) {
  using T = TestType;
  // Irregular positions on a line: kNN edges join points in order at any k, so every geodesic equals
  // |x_i - x_j| and an embedding by the positions has r = 1; the input's Euclidean distances too.
  nldr::Matrix<T> X(50, 1);
  for (int i = 0; i < 50; ++i) X(i, 0) = T(i + 0.3 * std::sin(1.7 * i));
  for (nldr::index_t k : {2, 6}) {  // (k = 1 leaves mutual pairs disconnected)
    const auto rv = nldr::geodesic_residual_variance(nldr::KNearest{k}(X), X, 20, 1);
    CHECK(rv.value < (std::is_same_v<T, float> ? 1e-6 : 1e-12));
    CHECK(rv.unreachable_pairs == 0);
  }
  // On a circle of 40 points, the geodesic along the ring differs from the chord: an embedding that keeps
  // the chords (the circle itself) is not a perfect unrolling.
  nldr::Matrix<T> ring(40, 2);
  for (int i = 0; i < 40; ++i) ring.row(i) << T(std::cos(0.157 * i)), T(std::sin(0.157 * i));
  CHECK(nldr::geodesic_residual_variance(nldr::KNearest{2}(ring), ring, 40).value > 0.01);
}

TEMPLATE_TEST_CASE("Q_local equals the mean of Q_NX up to argmax LCMC of the explicit co-ranking matrix",
                   "[tune][criteria]", float, double) {
  using T = TestType;
  const auto X = test_data::uniform<T>(40, 4, 21);
  for (const auto& Y : {test_data::distorted(X, 0.05, 22), test_data::uniform<T>(40, 2, 23)}) {
    const auto q = reference::coranking(reference::ranks(reference::squared_distances(X)),
                                        reference::ranks(reference::squared_distances(Y)));
    int best_k = 1;
    double best = -1e300;
    for (int K = 1; K <= 38; ++K) {
      const double lcmc = reference::q_nx(q, K) - K / 39.0;
      if (lcmc > best) best = lcmc, best_k = K;
    }
    double mean = 0;
    for (int K = 1; K <= best_k; ++K) mean += reference::q_nx(q, K) / best_k;
    const auto local = nldr::q_local(nldr::metrics::coranking_summary(X, Y));
    CHECK(local.k_lcmc == best_k);
    CHECK_THAT(local.value, WithinAbs(mean, 1e-12));
  }
}

TEST_CASE("evaluate_criteria reports every criterion from the metrics", "[tune][criteria]") {
  const auto X = test_data::uniform<double>(70, 3, 31);
  const auto Y = test_data::distorted(X, 0.05, 32);
  const auto graph = nldr::KNearest{6}(X);
  const nldr::CriteriaOptions options{.geodesic_sources = 15, .euclidean_max_pairs = 1000, .seed = 4};
  const auto values = nldr::evaluate_criteria(X, graph, Y, options);
  const auto summary = nldr::metrics::coranking_summary(X, Y);
  CHECK(values.auc_rnx == summary.auc_rnx());
  CHECK(values.lcmc == nldr::q_local(summary).value);
  CHECK(values.lcmc_k == nldr::q_local(summary).k_lcmc);
  CHECK(values.geodesic_rv == nldr::geodesic_residual_variance(graph, Y, 15, 4).value);
  CHECK(values.euclidean_rv == nldr::metrics::residual_variance(X, Y, {1000, 4}).value);
  for (nldr::TuneCriterion c : nldr::all_tune_criteria) {
    CHECK(nldr::parse_criterion(nldr::criterion_name(c)) == c);
    CHECK(nldr::higher_is_better(c) == (c == nldr::TuneCriterion::auc_rnx || c == nldr::TuneCriterion::lcmc));
  }
  CHECK(values.value(nldr::TuneCriterion::geodesic_rv) == values.geodesic_rv);
  // A bounded curve: the AUC over K = 1..10 only.
  const auto bounded = nldr::evaluate_criteria(X, graph, Y, {.rank_k_max = 10});
  CHECK(bounded.auc_rnx == nldr::metrics::coranking_summary(X, Y, 10).auc_rnx());
}

TEST_CASE("criteria refuse bad input with a clear error", "[tune][criteria]") {
  const auto X = test_data::uniform<double>(30, 3, 41);
  const auto graph = nldr::KNearest{4}(X);
  CHECK_THROWS_CONTAINING(nldr::parse_criterion("stress"), nldr::invalid_argument, "unknown criterion 'stress'");
  CHECK_THROWS_CONTAINING(nldr::geodesic_residual_variance(graph, X.topRows(20)), nldr::invalid_argument, "rows");
  CHECK_THROWS_CONTAINING(nldr::geodesic_residual_variance(graph, X, 1), nldr::invalid_argument, "sources = 1");
  nldr::Matrix<double> flat = nldr::Matrix<double>::Zero(30, 2);
  CHECK_THROWS_CONTAINING(nldr::geodesic_residual_variance(graph, flat), nldr::invalid_argument, "Y");
  nldr::Matrix<double> bad = X;
  bad(3, 1) = std::nan("");
  CHECK_THROWS_CONTAINING(nldr::geodesic_residual_variance(graph, bad), nldr::invalid_argument, "not finite");
}
