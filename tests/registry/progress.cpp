// The progress and cancel hook (core/progress.hpp) of the long stages: shortest paths and Isomap,
// directly and through the registry's FitInput.
#include "catch.hpp"

#include <nldr/core/progress.hpp>
#include <nldr/datasets/swiss_roll.hpp>
#include <nldr/embed/isomap.hpp>
#include <nldr/neighbors/knn.hpp>
#include <nldr/neighbors/shortest_paths.hpp>
#include <nldr/registry/embedders.hpp>

#include <vector>

namespace progress_test {

/// Fractions must lie in [0, 1], never decrease, and end at 1.
void require_increasing_to_one(const std::vector<double>& fractions, std::size_t at_least) {
  REQUIRE(fractions.size() >= at_least);
  for (std::size_t i = 0; i < fractions.size(); ++i) {
    CHECK(fractions[i] >= 0);
    CHECK(fractions[i] <= 1);
    if (i > 0) CHECK(fractions[i] >= fractions[i - 1]);
  }
  CHECK(fractions.back() == 1);
}

}  // namespace progress_test

TEMPLATE_TEST_CASE("shortest paths report their sources done and stop when told", "[progress]", float, double) {
  using T = TestType;
  const auto roll = nldr::datasets::swiss_roll<T>({.n = 1000, .seed = 2});
  const auto graph = nldr::KNearest{10}(roll.points).symmetrized();
  std::vector<double> fractions;
  const nldr::ProgressCallback record = [&](double f) { return fractions.push_back(f), true; };
  const auto with = nldr::all_pairs_shortest_paths<T>(graph, 0, record);
  progress_test::require_increasing_to_one(fractions, 10);  // blocks of 64 of the 1000 sources
  CHECK(with == nldr::all_pairs_shortest_paths<T>(graph));  // reporting changes nothing

  std::vector<double> heard;
  const nldr::ProgressCallback stop = [&](double f) { return heard.push_back(f), f < 0.3; };
  CHECK_THROWS_CONTAINING(nldr::all_pairs_shortest_paths<T>(graph, 0, stop), nldr::cancelled, "shortest paths");
  REQUIRE_FALSE(heard.empty());
  CHECK(heard.back() >= 0.3);
  CHECK(heard.back() < 0.5);  // it stopped at the first report past 0.3, not at the end
}

TEMPLATE_TEST_CASE("Isomap reports its stages through its options and through the registry", "[progress]", float,
                   double) {
  using T = TestType;
  const auto roll = nldr::datasets::swiss_roll<T>({.n = 800, .seed = 3});
  const auto graph = nldr::KNearest{10}(roll.points);
  std::vector<double> fractions;
  nldr::IsomapOptions options{.dim = 2};
  options.progress = [&](double f) { return fractions.push_back(f), true; };
  const auto model = nldr::Isomap{options}.fit(roll.points, graph);
  progress_test::require_increasing_to_one(fractions, 10);
  CHECK(model.coordinates == nldr::Isomap{{.dim = 2}}.fit(roll.points, graph).coordinates);

  options.progress = [](double f) { return f < 0.85; };  // after the shortest paths, before the eigensolve
  CHECK_THROWS_AS(nldr::Isomap{options}.fit(roll.points, graph), nldr::cancelled);

  std::vector<double> through_registry;
  const nldr::ProgressCallback record = [&](double f) { return through_registry.push_back(f), true; };
  const nldr::Matrix<T> X = roll.points;
  nldr::FitInput<T> input{.points = &X, .graph = &graph};
  input.progress = &record;
  (void)nldr::find_embedder("isomap").fit(input, {});
  CHECK(through_registry == fractions);
  const nldr::ProgressCallback cancel = [](double) { return false; };
  input.progress = &cancel;
  CHECK_THROWS_AS(nldr::find_embedder("isomap").fit(input, {}), nldr::cancelled);
}
