// nldr::tune with stand-in embedders: the graphs it hands out, the scores it records, the choice of
// best_k, failures, cancellation and validation. (Real embedders: examples/tune_study.cpp.)
#include <nldr/core/error.hpp>
#include <nldr/core/progress.hpp>
#include <nldr/datasets/swiss_roll.hpp>
#include <nldr/neighbors/knn.hpp>
#include <nldr/tune/sweep.hpp>

#include "catch.hpp"
#include "metrics/data.hpp"

#include <cmath>
#include <vector>

namespace sweep_test {

/// A stand-in embedder whose quality depends on k: the first two coordinates of X, perturbed by noise
/// that is smallest at k = 9 (so every criterion should prefer k near 9).
template <class T>
nldr::Matrix<T> k_dependent_embedding(const nldr::Matrix<T>& X, nldr::index_t k) {
  nldr::Random random{std::uint64_t(k)};
  nldr::Matrix<T> Y = X.leftCols(2);
  const double noise = 0.01 + 0.03 * std::abs(k - 9);
  for (Eigen::Index c = 0; c < Y.size(); ++c) Y.data()[c] += T(noise * random.normal());
  return Y;
}

}  // namespace sweep_test

TEMPLATE_TEST_CASE("tune hands out KNearest{k} for every k and records every criterion", "[tune][sweep]", float,
                   double) {
  using T = TestType;
  const auto X = test_data::uniform<T>(120, 3, 5);
  std::vector<nldr::index_t> seen;
  const nldr::TuneOptions options{.k_min = 3, .k_max = 15, .k_step = 3, .criterion = nldr::TuneCriterion::auc_rnx,
                                  .criteria = {.geodesic_sources = 20, .seed = 2}};
  const auto result = nldr::tune(X, options, [&](const nldr::NeighborGraph<T>& graph) {
    const nldr::index_t k = graph.degree(0);
    seen.push_back(k);
    const auto direct = nldr::KNearest{k}(X);
    CHECK(std::vector<nldr::index_t>(graph.indices().begin(), graph.indices().end()) ==
          std::vector<nldr::index_t>(direct.indices().begin(), direct.indices().end()));
    CHECK(std::vector<T>(graph.distances().begin(), graph.distances().end()) ==
          std::vector<T>(direct.distances().begin(), direct.distances().end()));
    return sweep_test::k_dependent_embedding(X, k);
  });
  CHECK(seen == std::vector<nldr::index_t>{3, 6, 9, 12, 15});
  REQUIRE(result.scores.size() == 5);
  double best = -1;
  nldr::index_t best_k = 0;
  for (const auto& score : result.scores) {
    INFO("k = " << score.k);
    CHECK(score.failure.empty());
    const auto expected = nldr::evaluate_criteria(X, nldr::KNearest{score.k}(X),
                                                  sweep_test::k_dependent_embedding(X, score.k), options.criteria);
    CHECK(score.values.auc_rnx == expected.auc_rnx);
    CHECK(score.values.lcmc == expected.lcmc);
    CHECK(score.values.geodesic_rv == expected.geodesic_rv);
    CHECK(score.values.euclidean_rv == expected.euclidean_rv);
    if (score.values.auc_rnx > best) best = score.values.auc_rnx, best_k = score.k;
  }
  CHECK(result.best_k == best_k);
  CHECK(result.best_k == 9);  // the stand-in's least noisy k
  CHECK(result.criterion == nldr::TuneCriterion::auc_rnx);
  // Minimizing criteria pick the smallest value.
  for (nldr::TuneCriterion criterion : {nldr::TuneCriterion::geodesic_rv, nldr::TuneCriterion::euclidean_rv}) {
    auto minimizing = options;
    minimizing.criterion = criterion;
    minimizing.suggest_dimension = false;
    const auto other = nldr::tune(X, minimizing, [&](const nldr::NeighborGraph<T>& graph) {
      return sweep_test::k_dependent_embedding(X, graph.degree(0));
    });
    const auto smallest = std::min_element(other.scores.begin(), other.scores.end(), [&](const auto& a, const auto& b) {
      return a.values.value(criterion) < b.values.value(criterion);
    });
    CHECK(other.best_k == smallest->k);
    CHECK_FALSE(other.mle);
  }
  // The suggested dimension: X is uniform in the 3-cube.
  REQUIRE(result.mle);
  REQUIRE(result.twonn);
  CHECK(result.suggested_dim == 3);
}

TEST_CASE("tune records failed k, reports progress and can be cancelled", "[tune][sweep]") {
  const auto X = test_data::uniform<double>(80, 3, 9);
  const auto embed = [&](const nldr::NeighborGraph<double>& graph) -> nldr::Matrix<double> {
    if (graph.degree(0) < 5) throw nldr::disconnected_graph("the graph has 3 components");
    return sweep_test::k_dependent_embedding(X, graph.degree(0));
  };
  std::vector<double> fractions;
  const auto result = nldr::tune(X, {.k_min = 2, .k_max = 10, .k_step = 2, .progress = [&](double f) {
                                       fractions.push_back(f);
                                       return true;
                                     }},
                                 embed);
  CHECK(fractions == std::vector<double>{0, 0.2, 0.4, 0.6, 0.8, 1.0});
  REQUIRE(result.scores.size() == 5);
  CHECK(result.scores[0].failure == "the graph has 3 components");
  CHECK(result.scores[1].failure == "the graph has 3 components");
  CHECK(std::isnan(result.scores[0].values.auc_rnx));
  CHECK(result.scores[2].failure.empty());
  CHECK(result.best_k >= 6);

  // Cancel after the second k: the embedder ran twice and no result is returned.
  int calls = 0;
  const auto counting = [&](const nldr::NeighborGraph<double>& graph) {
    ++calls;
    return sweep_test::k_dependent_embedding(X, graph.degree(0));
  };
  const nldr::TuneOptions stop_early{.k_min = 2, .k_max = 10, .k_step = 2, .progress = [](double f) { return f < 0.3; }};
  CHECK_THROWS_AS(nldr::tune(X, stop_early, counting), nldr::cancelled);
  CHECK(calls == 2);
  CHECK_THROWS_WITH(nldr::tune(X, stop_early, counting), ContainsSubstring("cancelled by the progress callback at 40%"));
  // Every k failing is an error quoting the first failure.
  CHECK_THROWS_CONTAINING(nldr::tune(X, {.k_min = 2, .k_max = 4}, embed), nldr::error, "the graph has 3 components");
  // Other exceptions are not swallowed.
  CHECK_THROWS_AS(nldr::tune(X, {.k_min = 2, .k_max = 4},
                             [](const nldr::NeighborGraph<double>&) -> nldr::Matrix<double> {
                               throw nldr::invalid_argument("dim", "dim = 5 too large");
                             }),
                  nldr::invalid_argument);
}

TEST_CASE("tune refuses bad options and inputs", "[tune][sweep]") {
  const auto X = test_data::uniform<double>(30, 3, 13);
  const auto embed = [&](const nldr::NeighborGraph<double>&) { return nldr::Matrix<double>(X.leftCols(2)); };
  CHECK_THROWS_CONTAINING(nldr::tune(X, {.k_min = 0}, embed), nldr::invalid_argument, "k_min = 0");
  CHECK_THROWS_CONTAINING(nldr::tune(X, {.k_min = 5, .k_max = 4}, embed), nldr::invalid_argument, "k_max = 4");
  CHECK_THROWS_CONTAINING(nldr::tune(X, {.k_min = 5, .k_max = 30}, embed), nldr::invalid_argument, "N = 30");
  CHECK_THROWS_CONTAINING(nldr::tune(X, {.k_min = 5, .k_max = 8, .k_step = 0}, embed), nldr::invalid_argument, "k_step");
  nldr::Matrix<double> bad = X;
  bad(2, 2) = std::nan("");
  CHECK_THROWS_CONTAINING(nldr::tune(bad, {.k_min = 5, .k_max = 8}, embed), nldr::invalid_argument, "not finite");
  const auto short_embedding = [&](const nldr::NeighborGraph<double>&) { return nldr::Matrix<double>(X.topRows(10)); };
  CHECK_THROWS_CONTAINING(nldr::tune(X, {.k_min = 5, .k_max = 8}, short_embedding), nldr::invalid_argument, "rows");
  // Too few distinct points for the dimension estimate (k = 20): reported, not thrown.
  const auto small = nldr::tune(X.topRows(15).eval(), {.k_min = 3, .k_max = 5}, [&](const nldr::NeighborGraph<double>&) {
    return nldr::Matrix<double>(X.topRows(15).leftCols(2));
  });
  CHECK_FALSE(small.mle);
  CHECK_THAT(small.dimension_failure, ContainsSubstring("k_max"));
}
