// The registries: names (case, aliases, did-you-mean), parameter checking, and that every entry's
// defaults are valid and its fit runs on a small Swiss roll.
#include "catch.hpp"

#include <nldr/datasets/swiss_roll.hpp>
#include <nldr/neighbors/knn.hpp>
#include <nldr/registry/described_parameters.hpp>
#include <nldr/registry/embedders.hpp>
#include <nldr/registry/selectors.hpp>

#include <array>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

TEST_CASE("methods are found by name, alias and any case, and a typo gets a suggestion", "[registry]") {
  CHECK(nldr::find_embedder("Isomap").name == "isomap");
  CHECK(nldr::find_embedder("SPECTRAL").name == "laplacian-eigenmaps");
  CHECK(nldr::find_embedder("laplacian").name == "laplacian-eigenmaps");
  CHECK(nldr::find_embedder("classical-mds").name == "mds");
  CHECK_THROWS_CONTAINING(nldr::find_embedder("isomapp"), nldr::invalid_argument, "did you mean \"isomap\"");
  CHECK_THROWS_CONTAINING(nldr::find_embedder("kohonen"), nldr::invalid_argument, "use one of pca, mds");
  CHECK(nldr::find_embedder("t-SNE").name == "tsne");
  CHECK_THROWS_CONTAINING(nldr::find_selector("shard"), nldr::invalid_argument, "did you mean \"shared\"");
  std::set<std::string> names;
  for (const auto& entry : nldr::embedders()) CHECK(names.insert(std::string(entry.name)).second);
  for (const auto& entry : nldr::selectors()) CHECK(names.insert(std::string(entry.name)).second);
}

TEST_CASE("every build lists the same selectors; one whose dependency is missing refuses when used", "[registry]") {
  std::vector<std::string_view> names;
  for (const auto& entry : nldr::selectors()) names.push_back(entry.name);
  CHECK(names == std::vector<std::string_view>{"knn", "epsilon", "shared", "gaussian", "curvature", "short-circuit",
                                               "approx-knn"});
#if !defined(NLDR_HAVE_HNSWLIB)
  const nldr::Matrix<double> X = nldr::Matrix<double>::Random(20, 3);
  CHECK_THROWS_CONTAINING(nldr::find_selector("approx-knn").select(X, {}), nldr::invalid_argument,
                          "use the knn selector");
#endif
}

TEST_CASE("parameters are checked by name, kind and range", "[registry]") {
  const auto& lle = nldr::find_embedder("lle");
  CHECK_THROWS_CONTAINING(nldr::Arguments(lle.parameters, {{"heat_t", "3"}}, "lle"), nldr::invalid_argument,
                          "does not apply to lle");
  CHECK_THROWS_CONTAINING(nldr::Arguments(lle.parameters, {{"dim", "0"}}, "lle"), nldr::invalid_argument, "[1, ");
  CHECK_THROWS_CONTAINING(nldr::Arguments(lle.parameters, {{"dim", "2.5"}}, "lle"), nldr::invalid_argument,
                          "not an integer");
  CHECK_THROWS_CONTAINING(nldr::Arguments(lle.parameters, {{"reg", "abc"}}, "lle"), nldr::invalid_argument,
                          "not a number");
  CHECK_THROWS_CONTAINING(nldr::Arguments(lle.parameters, {{"factorization", "lux"}}, "lle"), nldr::invalid_argument,
                          "did you mean \"lu\"");
  CHECK_THROWS_CONTAINING(nldr::Arguments(lle.parameters, {{"dimm", "2"}}, "lle"), nldr::invalid_argument,
                          "did you mean \"dim\"");
  const nldr::Arguments a(lle.parameters, {{"factorization", "SuperNodal"}, {"report_gap", "yes"}}, "lle");
  CHECK(a.text("factorization") == "supernodal");
  CHECK(a.flag("report_gap"));
  CHECK(a.index("dim") == 2);
}

namespace {

enum class Shape { round, square };
inline constexpr std::array<nldr::Choice<Shape>, 2> shapes{{{"round", Shape::round}, {"square", Shape::square}}};

/// Every kind of parameter a describe() can list, with defaults chosen to show their text.
struct ExampleOptions {
  int count = 3;
  double width = 1e-4;
  std::uint64_t seed = 7;
  bool verbose = false;
  Shape shape = Shape::square;
  Shape corner = Shape::round;
  double not_named = 5;

  template <class Visitor>
  void describe(Visitor& v) {
    v.number("count", count, {1, 10}, "how many");
    v.number("width", width, {0, std::numeric_limits<double>::infinity()}, "how wide");
    v.number("seed", seed, nldr::seed_range, "random seed");
    v.flag("verbose", verbose, "say more");
    v.choice("shape", shape, shapes, "the shape");
    v.flag("square_corner", corner, {Shape::round, Shape::square}, "square corners");
  }
};

}  // namespace

TEST_CASE("describe() writes the specs from an Options struct's defaults and sets its fields from named values",
          "[registry][defaults]") {
  const auto specs = nldr::described_parameters(ExampleOptions{});
  REQUIRE(specs.size() == 6);
  CHECK((specs[0].name == "count" && specs[0].kind == nldr::ParameterKind::integer && specs[0].default_value == "3"));
  CHECK((specs[0].min == 1 && specs[0].max == 10 && specs[0].help == "how many"));
  CHECK((specs[1].kind == nldr::ParameterKind::real && specs[1].default_value == "1e-4"));
  CHECK((specs[2].default_value == "7" && specs[2].max == 9007199254740992.0));
  CHECK((specs[3].kind == nldr::ParameterKind::flag && specs[3].default_value == "false"));
  CHECK((specs[4].kind == nldr::ParameterKind::choice && specs[4].default_value == "square"));
  CHECK(specs[4].choices == "round|square");
  CHECK((specs[5].kind == nldr::ParameterKind::flag && specs[5].default_value == "false"));
  // A struct whose fields differ from the defaults writes its own values as the defaults.
  CHECK(nldr::described_parameters(ExampleOptions{.count = 4, .shape = Shape::round})[4].default_value == "round");

  ExampleOptions options;
  nldr::set_described(options, nldr::Arguments(specs,
                                                {{"count", "5"},
                                                 {"width", "0.25"},
                                                 {"verbose", "yes"},
                                                 {"shape", "ROUND"},
                                                 {"square_corner", "true"}},
                                                "example"));
  CHECK(options.count == 5);
  CHECK(options.width == 0.25);
  CHECK(options.seed == 7);  // not given: its default
  CHECK(options.verbose);
  CHECK(options.shape == Shape::round);
  CHECK(options.corner == Shape::square);
  CHECK(options.not_named == 5);
  CHECK_THROWS_CONTAINING(nldr::Arguments(specs, {{"count", "11"}}, "example"), nldr::invalid_argument,
                          "count = 11 must lie in [1, 10]");

  // The shortest text that reads back, exponents unpadded.
  CHECK(nldr::detail::parameter_text(1e-10) == "1e-10");
  CHECK(nldr::detail::parameter_text(0.001) == "0.001");
  CHECK(nldr::detail::parameter_text(1e21) == "1e21");
  CHECK(nldr::detail::parameter_text(0.5) == "0.5");
  CHECK(nldr::detail::parameter_text(30) == "30");
  CHECK(nldr::detail::parameter_text(std::numeric_limits<double>::infinity()) == "inf");
}

TEST_CASE("every method's and selector's defaults pass their own checks when given explicitly", "[registry][defaults]") {
  const auto check = [](std::string_view owner, std::span<const nldr::ParameterSpec> specs) {
    nldr::ParameterValues defaults;
    for (const auto& spec : specs) defaults.emplace(std::string(spec.name), spec.default_value);
    INFO(owner);
    CHECK_NOTHROW(nldr::Arguments(specs, defaults, owner));
    CHECK(nldr::Arguments(specs, defaults, owner).values() == nldr::Arguments(specs, {}, owner).values());
  };
  for (const auto& entry : nldr::embedders()) check(entry.name, entry.parameters);
  for (const auto& entry : nldr::selectors()) check(entry.name, entry.parameters);
}

TEST_CASE("every entry's defaults are valid and it fits a small Swiss roll", "[registry]") {
  const auto roll = nldr::datasets::swiss_roll<double>({.n = 300, .seed = 1});
  const auto graph = nldr::KNearest{10}(roll.points);
  for (const auto& entry : nldr::embedders()) {
    CAPTURE(entry.name);
    CHECK_NOTHROW(nldr::Arguments(entry.parameters, {}, entry.name));
    CHECK(entry.min_neighbors(2) >= 1);
    // A method that chooses its own k (t-SNE: 3 x perplexity) gets the graph it chooses.
    const auto own = entry.default_neighbors
                         ? nldr::KNearest{entry.default_neighbors(nldr::Arguments(entry.parameters, {}, entry.name), 300)}(
                               roll.points)
                         : graph;
    const auto model = entry.fit(nldr::FitInput<double>{.points = &roll.points, .graph = &own}, {});
    CHECK(model.coordinates().rows() == 300);
    CHECK(model.coordinates().cols() == 2);
    CHECK(model.coordinates().allFinite());
    if (entry.accepts(nldr::needs_graph))
      CHECK_THROWS_CONTAINING(entry.fit(nldr::FitInput<double>{.points = &roll.points}, {}), nldr::invalid_argument,
                              "needs a neighbor graph");
  }
  for (const auto& entry : nldr::selectors()) {
    CAPTURE(entry.name);
    const nldr::ParameterValues values =
        entry.name == "epsilon" ? nldr::ParameterValues{{"radius", "3"}} : nldr::ParameterValues{};
    CHECK(entry.select(roll.points, values).size() == 300);
  }
  CHECK_THROWS_CONTAINING(nldr::find_selector("epsilon").select(roll.points, {}), nldr::invalid_argument, "radius");
}

TEST_CASE("a method's landmark approximation is the method itself when every point is a landmark", "[registry]") {
  // de Silva & Tenenbaum 2004: with all N points as landmarks, landmark MDS of the geodesics is classical MDS
  // of them, so the stand-in a sweep scores with must reproduce the method (up to each axis' sign).
  const auto roll = nldr::datasets::swiss_roll<double>({.n = 200, .seed = 4});
  const auto graph = nldr::KNearest{8}(roll.points);
  int approximated = 0;
  for (const auto& entry : nldr::embedders()) {
    if (entry.landmark_approximation.empty()) continue;
    CAPTURE(entry.name);
    ++approximated;
    const nldr::ParameterValues values{{"dim", "2"}};
    const auto scoring = nldr::landmark_scoring(entry, values, 200);
    REQUIRE(scoring.method->accepts(nldr::needs_graph));
    CHECK(scoring.values.at("landmarks") == "200");
    const nldr::FitInput<double> input{.points = &roll.points, .graph = &graph};
    const nldr::Matrix<double> exact = entry.fit(input, values).coordinates();
    const nldr::Matrix<double> stand_in = scoring.method->fit(input, scoring.values).coordinates();
    for (Eigen::Index c = 0; c < 2; ++c) {
      const double sign = exact.col(c).dot(stand_in.col(c)) < 0 ? -1 : 1;
      // Both are eigenvectors of the same matrix to the solvers' 1e-10 tolerance, scaled by sqrt(lambda).
      CHECK((exact.col(c) - sign * stand_in.col(c)).cwiseAbs().maxCoeff() < 1e-6 * exact.col(c).cwiseAbs().maxCoeff());
    }
  }
  CHECK(approximated >= 1);
  // Parameters the stand-in does not take are dropped; a method without one is refused, naming those with one.
  const auto& isomap = nldr::find_embedder("isomap");
  const auto scoring = nldr::landmark_scoring(isomap, {{"storage", "float"}, {"seed", "3"}}, 50);
  CHECK(scoring.method->name == "landmark-isomap");
  CHECK(scoring.values == nldr::ParameterValues{{"landmarks", "50"}, {"seed", "3"}});
  CHECK_THROWS_CONTAINING(nldr::landmark_scoring(nldr::find_embedder("lle"), {}, 50), nldr::invalid_argument,
                          "lle has no landmark approximation (the methods with one: isomap): score with the method "
                          "itself");
  CHECK(nldr::default_scoring_landmarks(100) == 100);
  CHECK(nldr::default_scoring_landmarks(1000) == 200);
  CHECK(nldr::default_scoring_landmarks(50000) == 2500);
}

namespace {

/// The registry's default of `parameter` for a method or selector, as a number.
double registry_default(std::span<const nldr::ParameterSpec> specs, std::string_view parameter) {
  for (const auto& spec : specs)
    if (spec.name == parameter) return std::stod(std::string(spec.default_value));
  FAIL("no parameter " << parameter);
  return 0;
}
double method_default(std::string_view method, std::string_view parameter) {
  return registry_default(nldr::find_embedder(method).parameters, parameter);
}
double selector_default(std::string_view selector, std::string_view parameter) {
  return registry_default(nldr::find_selector(selector).parameters, parameter);
}

}  // namespace

// A default is stated once, in the Options struct (what a library user gets); the registry's spec (what
// the tool's help, the tool and Python get) is written from it by describe(). Each number below is read
// from both, so a describe() that names the wrong field, or a spec typed by hand again, shows (the tool
// once printed Sammon's 500 iterations as SMACOF's).
TEST_CASE("every registry default equals the Options{} default a library user gets", "[registry][defaults]") {
  for (const auto& entry : nldr::embedders())
    if (nldr::takes_parameter(entry.parameters, "dim")) CHECK(method_default(entry.name, "dim") == 2);
  CHECK(method_default("mds", "negative_eigenvalues") == nldr::MdsOptions{}.negative_eigenvalues);
  CHECK(method_default("isomap", "negative_eigenvalues") == nldr::IsomapOptions{}.negative_eigenvalues);
  CHECK(method_default("landmark-isomap", "negative_eigenvalues") == nldr::LandmarkIsomapOptions{}.negative_eigenvalues);
  CHECK(method_default("landmark-isomap", "landmarks") == nldr::LandmarkIsomapOptions{}.landmarks);
  CHECK(method_default("lle", "reg") == nldr::LleOptions{}.reg);
  CHECK(method_default("hessian-lle", "hessian_tol") == nldr::LleOptions{}.hessian_tol);
  CHECK(method_default("laplacian-eigenmaps", "heat_t") == nldr::LaplacianEigenmapsOptions{}.t);
  CHECK(method_default("diffusion-maps", "alpha") == nldr::DiffusionMapsOptions{}.alpha);
  CHECK(method_default("diffusion-maps", "diffusion_time") == nldr::DiffusionMapsOptions{}.diffusion_time);
  CHECK(method_default("diffusion-maps", "bandwidth") == nldr::DiffusionMapsOptions{}.bandwidth);
  for (std::string_view method : {"lle", "modified-lle", "hessian-lle", "ltsa", "laplacian-eigenmaps", "diffusion-maps"}) {
    CHECK(method_default(method, "eigen_max_iterations") == nldr::BottomEigenOptions{}.max_iterations);
    CHECK(method_default(method, "eigen_tolerance") == nldr::BottomEigenOptions{}.tolerance);
  }
  for (std::string_view method : {"mds", "isomap", "landmark-isomap"}) {
    CHECK(method_default(method, "eigen_max_iterations") == nldr::TopEigenOptions{}.max_iterations);
    CHECK(method_default(method, "eigen_tolerance") == nldr::TopEigenOptions{}.tolerance);
  }
  CHECK(method_default("sammon", "n_init") == nldr::SammonOptions{}.n_init);
  CHECK(method_default("sammon", "max_iterations") == nldr::SammonOptions{}.max_iterations);
  CHECK(method_default("sammon", "relative_tolerance") == nldr::SammonOptions{}.tolerance);
  for (std::string_view method : {"smacof", "nonmetric-mds"}) {
    CHECK(method_default(method, "n_init") == nldr::SmacofOptions{}.n_init);
    CHECK(method_default(method, "max_iterations") == nldr::SmacofOptions{}.max_iterations);
    CHECK(method_default(method, "relative_tolerance") == nldr::SmacofOptions{}.tolerance);
  }
  CHECK(method_default("umap", "min_dist") == nldr::UmapOptions{}.min_dist);
  CHECK(method_default("umap", "spread") == nldr::UmapOptions{}.spread);
  CHECK(method_default("umap", "n_epochs") == nldr::UmapOptions{}.n_epochs);
  CHECK(method_default("umap", "learning_rate") == nldr::UmapOptions{}.learning_rate);
  CHECK(method_default("umap", "negative_sample_rate") == nldr::UmapOptions{}.negative_sample_rate);
  CHECK(method_default("umap", "repulsion_strength") == nldr::UmapOptions{}.repulsion_strength);
  CHECK(method_default("umap", "local_connectivity") == nldr::UmapOptions{}.local_connectivity);
  CHECK(method_default("umap", "set_op_mix_ratio") == nldr::UmapOptions{}.set_op_mix_ratio);
  CHECK(method_default("umap", "target_weight") == nldr::UmapOptions{}.target_weight);
  CHECK(method_default("umap", "seed") == double(nldr::UmapOptions{}.seed));
  const nldr::TsneOptions tsne{};
  CHECK(method_default("tsne", "perplexity") == tsne.perplexity);
  CHECK(method_default("tsne", "early_exaggeration") == tsne.early_exaggeration);
  CHECK(method_default("tsne", "exaggeration_iterations") == tsne.exaggeration_iterations);
  CHECK(method_default("tsne", "late_exaggeration") == tsne.late_exaggeration);
  CHECK(method_default("tsne", "learning_rate") == tsne.learning_rate);
  CHECK(method_default("tsne", "max_iterations") == tsne.max_iterations);
  CHECK(method_default("tsne", "momentum") == tsne.momentum);
  CHECK(method_default("tsne", "final_momentum") == tsne.final_momentum);
  CHECK(method_default("tsne", "dof") == tsne.dof);
  CHECK(method_default("tsne", "theta") == tsne.theta);
  CHECK(method_default("tsne", "objective_every") == tsne.objective_every);
  CHECK(selector_default("shared", "ratio") == nldr::SharedNeighborsOptions{}.ratio);
  CHECK(selector_default("gaussian", "z") == nldr::GaussianPrunedOptions{}.z);
  CHECK(selector_default("curvature", "intrinsic_dim") == nldr::CurvatureAdaptiveOptions{}.intrinsic_dim);
  CHECK(selector_default("curvature", "tolerance") == nldr::CurvatureAdaptiveOptions{}.tolerance);
  CHECK(selector_default("short-circuit", "threshold") == nldr::ShortCircuitOptions{}.threshold);
  for (std::string_view selector : {"shared", "gaussian", "curvature", "short-circuit"})
    CHECK(selector_default(selector, "min_neighbors") == nldr::SharedNeighborsOptions{}.min_neighbors);
}

TEST_CASE("every method has its page docs/methods/<name>.md, and every page there is a method", "[registry][docs]") {
  const std::filesystem::path pages =
      std::filesystem::path(__FILE__).parent_path().parent_path().parent_path() / "docs" / "methods";
  REQUIRE(std::filesystem::is_directory(pages));
  std::set<std::string> methods, documented;
  for (const auto& entry : nldr::embedders()) methods.emplace(entry.name);
  for (const auto& file : std::filesystem::directory_iterator(pages))
    if (file.path().extension() == ".md") documented.insert(file.path().stem().string());
  CHECK(methods == documented);
}
