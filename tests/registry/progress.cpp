// The progress and cancel hook (core/progress.hpp) of the long stages: shortest paths and Isomap
// directly, and every method of the registry through FitInput::progress, on each code path its
// choice parameters select (eigensolver, landmark selection, PCA algorithm, ...).
#include "catch.hpp"

#include <nldr/core/iteration.hpp>
#include <nldr/core/progress.hpp>
#include <nldr/datasets/swiss_roll.hpp>
#include <nldr/embed/isomap.hpp>
#include <nldr/metrics/quality_report.hpp>
#include <nldr/neighbors/curvature_adaptive.hpp>
#include <nldr/neighbors/gaussian_pruned.hpp>
#include <nldr/neighbors/knn.hpp>
#include <nldr/neighbors/shared_neighbors.hpp>
#include <nldr/neighbors/short_circuit_pruned.hpp>
#include <nldr/neighbors/shortest_paths.hpp>
#include <nldr/registry/embedders.hpp>

#include <algorithm>
#include <optional>
#include <string>
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

/// Runs compute(callback) with a recording callback, checks the fractions (at least `at_least`: the
/// fewest reports the computation can make, its blocks growing when they run fast) and that the
/// result equals compute({}) (`same`), then with callbacks that say stop at the first and at a later
/// report: each must throw nldr::cancelled right at that report.
template <class Compute, class Same>
void check_reporting(Compute&& compute, Same&& same, std::size_t at_least) {
  const auto plain = compute(nldr::ProgressCallback{});
  std::vector<double> fractions;
  const auto reported = compute([&](double f) { return fractions.push_back(f), true; });
  require_increasing_to_one(fractions, at_least);
  CHECK(same(plain, reported));
  for (const std::size_t stop_at : {std::size_t(1), std::min(fractions.size() / 2 + 1, at_least)}) {
    std::size_t calls = 0;
    CHECK_THROWS_AS(compute([&](double) { return ++calls < stop_at; }), nldr::cancelled);
    CHECK(calls == stop_at);
  }
}

template <class T>
bool same_graph(const nldr::NeighborGraph<T>& a, const nldr::NeighborGraph<T>& b) {
  return std::ranges::equal(a.offsets(), b.offsets()) && std::ranges::equal(a.indices(), b.indices()) &&
         std::ranges::equal(a.distances(), b.distances());
}

/// The N x N Euclidean distances of X (brute force).
template <class T>
nldr::Matrix<T> distances_of(const nldr::Matrix<T>& X) {
  nldr::Matrix<T> D(X.rows(), X.rows());
  for (Eigen::Index i = 0; i < X.rows(); ++i)
    for (Eigen::Index j = 0; j < X.rows(); ++j) D(i, j) = (X.row(i) - X.row(j)).norm();
  return D;
}

/// The defaults, then each value of each choice parameter alone: every code path the registry offers.
/// Short iteration budgets keep this test fast: the stress-majorization methods' (their reports are
/// per iteration either way) and the eigensolvers' (the diagnostic bottom solve of MDS on a rank-3
/// Gram matrix would otherwise run its 1000 restarts before reporting "not converging").
std::vector<nldr::ParameterValues> configurations(const nldr::EmbedderInfo& entry) {
  nldr::ParameterValues base;
  for (const auto& spec : entry.parameters) {
    if (spec.name == "max_iterations") base.emplace("max_iterations", "20");
    if (spec.name == "eigen_max_iterations") base.emplace("eigen_max_iterations", "20");
    if (spec.name == "perplexity") base.emplace("perplexity", "3");  // t-SNE: below the graph's k = 10
    if (spec.name == "exaggeration_iterations") base.emplace("exaggeration_iterations", "10");
  }
  std::vector<nldr::ParameterValues> all{base};
  for (const auto& spec : entry.parameters) {
    if (spec.kind != nldr::ParameterKind::choice) continue;
    std::string_view rest = spec.choices;
    while (!rest.empty()) {
      const auto bar = rest.find('|');
      const std::string value(rest.substr(0, bar));
      if (value != spec.default_value) {
        all.push_back(base);
        all.back().emplace(std::string(spec.name), value);
      }
      rest = bar == std::string_view::npos ? std::string_view() : rest.substr(bar + 1);
    }
  }
  return all;
}

}  // namespace progress_test


TEMPLATE_TEST_CASE("shortest paths report their sources done and stop when told", "[progress]", float, double) {
  using T = TestType;
  const auto roll = nldr::datasets::swiss_roll<T>({.n = 1000, .seed = 2});
  const auto graph = nldr::KNearest{10}(roll.points).symmetrized();
  std::vector<double> fractions;
  const nldr::ProgressCallback record = [&](double f) { return fractions.push_back(f), true; };
  const auto with = nldr::all_pairs_shortest_paths<T>(graph, 0, record);
  progress_test::require_increasing_to_one(fractions, 5);  // blocks of 64, 128, ... of the 1000 sources
  CHECK(with == nldr::all_pairs_shortest_paths<T>(graph));  // reporting changes nothing

  std::vector<double> heard;
  const nldr::ProgressCallback stop = [&](double f) { return heard.push_back(f), f < 0.3; };
  CHECK_THROWS_CONTAINING(nldr::all_pairs_shortest_paths<T>(graph, 0, stop), nldr::cancelled, "shortest paths");
  REQUIRE_FALSE(heard.empty());
  REQUIRE(heard.size() >= 2);
  CHECK(heard.back() >= 0.3);
  CHECK(heard[heard.size() - 2] < 0.3);  // it stopped at the first report past 0.3, not at the end
  CHECK(heard.back() < 1);
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
  progress_test::require_increasing_to_one(through_registry, 10);  // (block sizes follow the machine's speed)
  const nldr::ProgressCallback cancel = [](double) { return false; };
  input.progress = &cancel;
  CHECK_THROWS_AS(nldr::find_embedder("isomap").fit(input, {}), nldr::cancelled);
}

TEMPLATE_TEST_CASE("every registered method reports progress, stops when told, and reports without changing its result",
                   "[progress]", float, double) {
  using T = TestType;
  // N = 250 runs the iterative eigensolvers (the dense fallbacks are for N below 100 and 200).
  const auto roll = nldr::datasets::swiss_roll<T>({.n = 250, .seed = 4});
  const nldr::Matrix<T> X = roll.points;
  const nldr::Matrix<T> D = progress_test::distances_of(X);
  const auto graph = nldr::KNearest{10}(roll.points);
  for (const auto& entry : nldr::embedders()) {
    std::vector<nldr::FitInput<T>> inputs{{.points = &X, .graph = entry.accepts(nldr::needs_graph) ? &graph : nullptr}};
    if (entry.accepts(nldr::from_distances)) inputs.push_back({.distances = &D});
    const auto configurations = progress_test::configurations(entry);
    for (const auto& values : configurations)
      for (auto input : inputs) {
        std::string setting;
        for (const auto& [name, value] : values) setting += name + " = " + value;
        CAPTURE(entry.name, setting, input.distances != nullptr);
        std::optional<nldr::AnyModel<T>> plain;
        try {
          plain = entry.fit(input, values);
        } catch (const nldr::invalid_argument&) {
          if (&values == &configurations.front()) throw;  // the defaults always apply
          continue;  // a choice that does not apply here (e.g. factorization = lu for LTSA)
        }
        std::vector<double> fractions;
        const nldr::ProgressCallback record = [&](double f) { return fractions.push_back(f), true; };
        input.progress = &record;
        const auto reported = entry.fit(input, values);
        progress_test::require_increasing_to_one(fractions, 2);
        CHECK(reported.coordinates() == plain->coordinates());  // bitwise: reporting changes nothing

        // Stopped at the first report, and at the middle one: cancelled, and no report after the "no".
        for (const std::size_t stop_at : {std::size_t(1), fractions.size() / 2 + 1}) {
          std::size_t calls = 0;
          const nldr::ProgressCallback stop = [&](double) { return ++calls < stop_at; };
          input.progress = &stop;
          CHECK_THROWS_AS(entry.fit(input, values), nldr::cancelled);
          CHECK(calls == stop_at);
        }
      }
  }
}

TEMPLATE_TEST_CASE("the Lanczos eigensolvers report their products", "[progress]", float, double) {
  using T = TestType;
  const auto roll = nldr::datasets::swiss_roll<T>({.n = 400, .seed = 5});
  const nldr::Matrix<T> X = roll.points;
  const auto graph = nldr::KNearest{10}(roll.points);
  // Laplacian Eigenmaps reports 0.1 (the Laplacian), 0.1 + 0.9 * 0.2 (the factorization) and 1 of its
  // own; MDS 0 .. 0.3 by blocks of 64 rows and 1. Everything else heard comes from the products.
  const auto heard = [&](std::string_view method) {
    std::vector<double> fractions;
    const nldr::ProgressCallback record = [&](double f) { return fractions.push_back(f), true; };
    nldr::FitInput<T> input{.points = &X, .graph = &graph};
    input.progress = &record;
    (void)nldr::find_embedder(method).fit(input, {});
    return fractions;
  };
  const auto laplacian = heard("laplacian-eigenmaps");
  CHECK(std::count_if(laplacian.begin(), laplacian.end(), [](double f) { return f > 0.28 && f < 1; }) >= 5);
  const auto mds = heard("mds");
  CHECK(std::count_if(mds.begin(), mds.end(), [](double f) { return f > 0.3 && f < 1; }) >= 5);
}

TEMPLATE_TEST_CASE("the pruning selectors report progress, stop when told, and select the same graph", "[progress]",
                   float, double) {
  using T = TestType;
  const auto roll = nldr::datasets::swiss_roll<T>({.n = 2000, .seed = 6});
  const nldr::Matrix<T> X = roll.points;
  const auto graph_same = [](const auto& a, const auto& b) { return progress_test::same_graph(a, b); };
  // 0.5, then blocks of 64, 128, ... of the 2000 points (doubling at most), then 1: at least 8 reports.
  const auto select = [&](auto selector) {
    return [&X, selector](nldr::ProgressCallback callback) mutable {
      selector.options.progress = std::move(callback);
      return selector(X);
    };
  };
  progress_test::check_reporting(select(nldr::SharedNeighbors{nldr::KNearest{10}}), graph_same, 8);
  progress_test::check_reporting(select(nldr::GaussianPruned{nldr::KNearest{10}}), graph_same, 8);
  progress_test::check_reporting(select(nldr::CurvatureAdaptive{nldr::KNearest{12}}), graph_same, 8);
  progress_test::check_reporting(select(nldr::ShortCircuitPruned{nldr::KNearest{10}}), graph_same, 8);
}

TEMPLATE_TEST_CASE("quality_report reports its measures, stops when told, and reports the same numbers", "[progress]",
                   float, double) {
  using T = TestType;
  const auto roll = nldr::datasets::swiss_roll<T>({.n = 1000, .seed = 7});
  const nldr::Matrix<T> Y = roll.intrinsic;
  std::vector<int> labels(1000);
  for (std::size_t i = 0; i < labels.size(); ++i) labels[i] = int(i % 3);
  const auto report = [&](nldr::ProgressCallback callback) {
    return nldr::metrics::quality_report(roll.points, Y, {.k = 10, .progress = std::move(callback)}, nullptr,
                                         std::span<const int>(labels));
  };
  const auto same = [](const nldr::metrics::QualityReport& a, const nldr::metrics::QualityReport& b) {
    return a.trustworthiness == b.trustworthiness && a.continuity == b.continuity && a.auc_rnx == b.auc_rnx &&
           a.mrre_x == b.mrre_x && a.konig == b.konig && a.spearman_rho == b.spearman_rho &&
           a.kruskal_stress == b.kruskal_stress && a.residual_variance == b.residual_variance &&
           a.knn_error == b.knn_error;
  };
  // Blocks of 64, 128, ... of the 1000 points for the ranks (doubling at most), then 0.7, 0.8, 0.9 and 1.
  progress_test::check_reporting(report, same, 9);
}

TEMPLATE_TEST_CASE("every iterative method tells its observer each iteration and stops where it is told",
                   "[progress][iteration]", float, double) {
  using T = TestType;
  const auto roll = nldr::datasets::swiss_roll<T>({.n = 150, .seed = 6});
  const nldr::Matrix<T> X = roll.points;
  const auto graph = nldr::KNearest{12}(roll.points);
  std::size_t iterative = 0;
  for (const auto& entry : nldr::embedders()) {
    CAPTURE(entry.name);
    nldr::FitInput<T> input{.points = &X, .graph = entry.accepts(nldr::needs_graph) ? &graph : nullptr};
    std::vector<nldr::Matrix<double>> seen;
    const nldr::IterationCallback record = [&](const nldr::IterationReport& report) {
      CHECK(report.iteration >= 1);
      CHECK(report.iteration <= report.total_iterations);
      return seen.push_back(report.coordinates()), true;
    };
    input.on_iteration = &record;
    nldr::ParameterValues values;
    if (nldr::takes_parameter(entry.parameters, "perplexity")) values["perplexity"] = "3";  // t-SNE: below k = 12
    const auto observed = entry.fit(input, values);
    if (!entry.iterative) {
      CHECK(seen.empty());  // the eigen methods ignore the observer
      continue;
    }
    ++iterative;
    REQUIRE(seen.size() >= 3);
    // What the observer saw last is the fit's answer (or, with several runs, one of them).
    CHECK(seen.back().cast<T>().isApprox(observed.coordinates(), T(1e-5)));
    // Told to stop after the second iteration: the fit ends there with the coordinates of that moment.
    std::size_t calls = 0;
    const nldr::IterationCallback stop = [&](const nldr::IterationReport&) { return ++calls < 2; };
    input.on_iteration = &stop;
    const auto stopped = entry.fit(input, values);
    CHECK(calls == 2);
    CHECK(stopped.coordinates().template cast<double>().isApprox(seen[1], 1e-5));
  }
  CHECK(iterative >= 3);  // SMACOF, non-metric MDS, Sammon (and the gradient methods)
}
