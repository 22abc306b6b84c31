// nldr::tune with stand-in embedders: the graphs it hands out (k and radius sweeps), the scores it records,
// the choice of best_k / best_value, failures, cancellation and validation; the t sweep against independent
// Laplacian Eigenmaps fits. (Real embedders over k: examples/tune_study.cpp.)
#include <nldr/core/error.hpp>
#include <nldr/core/progress.hpp>
#include <nldr/datasets/swiss_roll.hpp>
#include <nldr/embed/laplacian_eigenmaps.hpp>
#include <nldr/neighbors/epsilon_ball.hpp>
#include <nldr/neighbors/knn.hpp>
#include <nldr/tune/sweep.hpp>

#include "catch.hpp"
#include "metrics/data.hpp"

#include <algorithm>
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
  CHECK(result.best_value == 9);
  CHECK(result.parameter == nldr::TuneParameter::k);
  CHECK(result.scores[1].value == 6);
  CHECK(result.scores[1].mean_degree == 6);
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

TEMPLATE_TEST_CASE("tune with a stand-in scores every k with it and fits the exact method once, at the pick",
                   "[tune][sweep]", float, double) {
  using T = TestType;
  const auto X = test_data::uniform<T>(120, 3, 5);
  const nldr::TuneOptions options{.k_min = 3, .k_max = 15, .k_step = 3, .criteria = {.geodesic_sources = 20, .seed = 2},
                                  .suggest_dimension = false};
  const auto stand_in = [&](const nldr::NeighborGraph<T>& graph) {
    return sweep_test::k_dependent_embedding(X, graph.degree(0));
  };
  std::vector<nldr::index_t> exact_ks;
  const auto exact = [&](const nldr::NeighborGraph<T>& graph) {
    exact_ks.push_back(graph.degree(0));
    const auto direct = nldr::KNearest{graph.degree(0)}(X);
    CHECK(std::vector<nldr::index_t>(graph.indices().begin(), graph.indices().end()) ==
          std::vector<nldr::index_t>(direct.indices().begin(), direct.indices().end()));
    return nldr::Matrix<T>(X.leftCols(2));
  };
  std::vector<double> fractions;
  auto reporting = options;
  reporting.progress = [&](double f) {
    fractions.push_back(f);
    return true;
  };
  const auto scored = nldr::tune(X, reporting, stand_in, exact);
  const auto alone = nldr::tune(X, options, stand_in);
  CHECK(exact_ks == std::vector<nldr::index_t>{9});  // once, at the stand-in's least noisy k
  // Progress counts the exact fit as one more unit after the 5 values.
  REQUIRE(fractions.size() == 7);
  CHECK(fractions[5] == Approx(5.0 / 6.0));
  CHECK(fractions.back() == 1.0);
  CHECK(scored.best_k == 9);
  REQUIRE(scored.scores.size() == alone.scores.size());
  for (std::size_t i = 0; i < alone.scores.size(); ++i) CHECK(scored.scores[i].values.auc_rnx == alone.scores[i].values.auc_rnx);
  CHECK_FALSE(alone.exact_at_best);
  REQUIRE(scored.exact_at_best);
  CHECK(scored.exact_at_best->k == 9);
  CHECK(scored.exact_at_best->failure.empty());
  const auto expected = nldr::evaluate_criteria(X, nldr::KNearest{9}(X), nldr::Matrix<T>(X.leftCols(2)), options.criteria);
  CHECK(scored.exact_at_best->values.auc_rnx == expected.auc_rnx);
  CHECK(scored.exact_at_best->values.geodesic_rv == expected.geodesic_rv);
  CHECK(scored.exact_at_best->values.auc_rnx != scored.scores[2].values.auc_rnx);  // not the stand-in's
  const auto& stages = scored.times.stages;
  CHECK(std::find_if(stages.begin(), stages.end(), [](const auto& s) { return s.first == "exact_fit"; }) != stages.end());

  // An exact fit that fails leaves the pick standing and says why.
  const auto failing = nldr::tune(X, options, stand_in, [](const nldr::NeighborGraph<T>&) -> nldr::Matrix<T> {
    throw nldr::convergence_error("the eigensolver did not converge");
  });
  CHECK(failing.best_k == 9);
  REQUIRE(failing.exact_at_best);
  CHECK(failing.exact_at_best->failure == "the eigensolver did not converge");
  CHECK(std::isnan(failing.exact_at_best->values.auc_rnx));
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
  CHECK_THROWS_CONTAINING(nldr::tune(X, {.values = {1, 2}}, embed), nldr::invalid_argument, "k_min, k_max and k_step");
  const auto radius = nldr::TuneParameter::radius;
  CHECK_THROWS_CONTAINING(nldr::tune(X, {.parameter = radius}, embed), nldr::invalid_argument, "needs values");
  CHECK_THROWS_CONTAINING(nldr::tune(X, {.parameter = radius, .values = {0.5, 0.4}}, embed), nldr::invalid_argument,
                          "increase strictly: 0.5 then 0.4");
  CHECK_THROWS_CONTAINING(nldr::tune(X, {.parameter = radius, .values = {0.5, INFINITY}}, embed),
                          nldr::invalid_argument, "radius = inf must be finite");
  CHECK_THROWS_CONTAINING(nldr::tune(X, {.parameter = nldr::TuneParameter::t, .values = {1}}, embed),
                          nldr::invalid_argument, "nldr::tune(X, graph, options, embed)");
  const auto graph = nldr::KNearest{5}(X);
  const auto embed_t = [&](const nldr::NeighborGraph<double>&, double) { return nldr::Matrix<double>(X.leftCols(2)); };
  CHECK_THROWS_CONTAINING(nldr::tune(X, graph, {.values = {1}}, embed_t), nldr::invalid_argument, "set parameter");
  CHECK_THROWS_CONTAINING(nldr::tune(X, graph, {.parameter = nldr::TuneParameter::t, .values = {0, 1}}, embed_t),
                          nldr::invalid_argument, "t = 0 must be > 0");
  CHECK_THROWS_CONTAINING(nldr::tune(X.topRows(20).eval(), graph, {.parameter = nldr::TuneParameter::t, .values = {1}},
                                     embed_t),
                          nldr::invalid_argument, "graph");
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

TEMPLATE_TEST_CASE("tune over the radius hands out EpsilonBall{radius} and records failures", "[tune][sweep]", float,
                   double) {
  using T = TestType;
  const auto X = test_data::uniform<T>(150, 3, 21);
  const std::vector<double> radii{0.05, 0.3, 0.4, 0.5};
  const nldr::TuneOptions options{.parameter = nldr::TuneParameter::radius, .values = radii,
                                  .criterion = nldr::TuneCriterion::geodesic_rv,
                                  .criteria = {.geodesic_sources = 20, .seed = 3}, .suggest_dimension = false};
  // A stand-in embedder that refuses graphs with isolated points (as the embedders refuse disconnected ones)
  // and otherwise returns X's first two coordinates perturbed by noise, smallest for the ball of radius 0.4.
  const auto edges_at_best = nldr::EpsilonBall{.radius = 0.4}(X).num_edges();
  const auto noisy = [&](const nldr::NeighborGraph<T>& graph) {
    for (nldr::index_t i = 0; i < graph.size(); ++i)
      if (graph.degree(i) == 0) throw nldr::disconnected_graph("point " + std::to_string(i) + " is isolated");
    nldr::Random random{std::uint64_t(graph.num_edges())};
    nldr::Matrix<T> Y = X.leftCols(2);
    const double scale = graph.num_edges() == edges_at_best ? 0.005 : 0.05;
    for (Eigen::Index c = 0; c < Y.size(); ++c) Y.data()[c] += T(scale * random.normal());
    return Y;
  };
  std::vector<std::vector<nldr::index_t>> handed_out;
  const auto result = nldr::tune(X, options, [&](const nldr::NeighborGraph<T>& graph) {
    handed_out.emplace_back(graph.indices().begin(), graph.indices().end());
    return noisy(graph);
  });
  REQUIRE(result.scores.size() == radii.size());
  CHECK(result.parameter == nldr::TuneParameter::radius);
  REQUIRE(handed_out.size() == radii.size());
  for (std::size_t i = 0; i < radii.size(); ++i) {
    INFO("radius = " << radii[i]);
    const auto direct = nldr::EpsilonBall{.radius = radii[i]}(X);
    CHECK(handed_out[i] == std::vector<nldr::index_t>(direct.indices().begin(), direct.indices().end()));
    const auto& score = result.scores[i];
    CHECK(score.value == radii[i]);
    CHECK(score.k == 0);
    CHECK(score.mean_degree == double(direct.num_edges()) / 150.0);
    if (i == 0) {  // 150 points in the unit cube: some have no other point within 0.05
      CHECK_THAT(score.failure, ContainsSubstring("is isolated"));
      CHECK(std::isnan(score.values.geodesic_rv));
      continue;
    }
    REQUIRE(score.failure.empty());
    const auto expected = nldr::evaluate_criteria(X, direct, noisy(direct), options.criteria);
    CHECK(score.values.auc_rnx == expected.auc_rnx);
    CHECK(score.values.geodesic_rv == expected.geodesic_rv);
    CHECK(score.values.euclidean_rv == expected.euclidean_rv);
  }
  CHECK(result.best_value == 0.4);
  CHECK(result.best_k == 0);
  CHECK(result.times.stages.front().first == "epsilon_ball");
}

TEMPLATE_TEST_CASE("tune over t on a fixed graph scores what independent Laplacian Eigenmaps fits score",
                   "[tune][sweep]", float, double) {
  using T = TestType;
  const auto roll = nldr::datasets::swiss_roll<T>({.n = 300, .seed = 4});
  const nldr::Matrix<T>& X = roll.points;
  const auto graph = nldr::KNearest{10}(X);
  const std::vector<double> ts{1.0, 10.0, 100.0, INFINITY};
  const nldr::TuneOptions options{.parameter = nldr::TuneParameter::t, .values = ts,
                                  .criterion = nldr::TuneCriterion::auc_rnx, .criteria = {.geodesic_sources = 30},
                                  .suggest_dimension = false};
  std::vector<double> seen;
  const auto result = nldr::tune(X, graph, options, [&](const nldr::NeighborGraph<T>& g, double t) {
    seen.push_back(t);
    CHECK(std::vector<nldr::index_t>(g.indices().begin(), g.indices().end()) ==
          std::vector<nldr::index_t>(graph.indices().begin(), graph.indices().end()));
    return nldr::LaplacianEigenmaps{{.dim = 2, .t = t}}.fit(X, g).coordinates;
  });
  CHECK(seen == ts);
  CHECK(result.parameter == nldr::TuneParameter::t);
  REQUIRE(result.scores.size() == ts.size());
  double best = -1, best_t = 0;
  std::vector<double> aucs;
  for (std::size_t i = 0; i < ts.size(); ++i) {
    INFO("t = " << ts[i]);
    const auto fit = nldr::LaplacianEigenmaps{{.dim = 2, .t = ts[i]}}.fit(X, nldr::KNearest{10}(X));
    CHECK(fit.t == ts[i]);
    const auto expected = nldr::evaluate_criteria(X, graph, fit.coordinates, options.criteria);
    const auto& score = result.scores[i];
    CHECK(score.value == ts[i]);
    CHECK(score.mean_degree == 10);
    CHECK(score.values.auc_rnx == expected.auc_rnx);
    CHECK(score.values.lcmc == expected.lcmc);
    CHECK(score.values.geodesic_rv == expected.geodesic_rv);
    CHECK(score.values.euclidean_rv == expected.euclidean_rv);
    if (expected.auc_rnx > best) best = expected.auc_rnx, best_t = ts[i];
    aucs.push_back(expected.auc_rnx);
  }
  CHECK(result.best_value == best_t);
  // The weights matter: t changes the embedding and so the scores.
  CHECK(*std::max_element(aucs.begin(), aucs.end()) > *std::min_element(aucs.begin(), aucs.end()) + 1e-3);
}
