// Properties every data set shares: names, shapes, reproducibility, validation, noise,
// and the metric axioms of the exact manifold distances.
#include <nldr/datasets/registry.hpp>

#include "catch.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace ds = nldr::datasets;

// What the documentation promises per set, written out independently of the code.
struct Expected {
  std::string_view name;
  Eigen::Index intrinsic_dim;
  bool labels, isometric, distances;
};
const std::vector<Expected> expected = {
    {"swiss-roll", 2, false, true, true},        {"s-curve", 2, false, true, true},
    {"swiss-hole", 2, false, false, true},       {"punctured-sphere", 2, false, false, true},
    {"twin-peaks", 2, false, false, false},      {"gaussian", 2, false, false, false},
    {"clusters-3d", 3, true, false, false},      {"toroidal-helix", 1, false, false, true},
    {"mobius", 2, false, false, false},          {"broken-s-curve", 2, false, true, true},
    {"nonuniform-swiss-roll", 2, false, false, true},
};

// float stores the double computation rounded: coordinates up to ~15 keep ~1e-6 absolute accuracy.
template <class T>
constexpr double coordinate_tolerance = std::is_same_v<T, float> ? 1e-4 : 1e-10;

}  // namespace

TEST_CASE("dataset_names lists the 11 sets of docs/algorithms.md sec. 5", "[datasets]") {
  const auto names = ds::dataset_names();
  REQUIRE(names.size() == expected.size());
  for (const auto& e : expected) CHECK(std::find(names.begin(), names.end(), e.name) != names.end());
}

TEMPLATE_TEST_CASE("generate: shapes, finiteness and documented ground truth of every set", "[datasets]", float,
                   double) {
  for (const auto& e : expected) {
    INFO(e.name);
    const auto data = ds::generate<TestType>(e.name, {.n = 250, .seed = 3});
    CHECK(data.name == e.name);
    REQUIRE(data.points.rows() == 250);
    CHECK(data.points.cols() == 3);
    CHECK(data.intrinsic.rows() == 250);
    CHECK(data.intrinsic.cols() == e.intrinsic_dim);
    CHECK(data.parameter.size() == 250);
    CHECK(data.labels.size() == (e.labels ? 250u : 0u));
    CHECK(data.intrinsic_is_isometric == e.isometric);
    CHECK(data.has_manifold_distances() == e.distances);
    CHECK(data.points.allFinite());
    CHECK(data.intrinsic.allFinite());
    CHECK(data.parameter.allFinite());
  }
}

TEMPLATE_TEST_CASE("generate: same seed gives identical data, another seed different data", "[datasets]", float,
                   double) {
  for (const auto name : ds::dataset_names()) {
    INFO(name);
    const ds::Options options{.n = 200, .noise = 0.05, .seed = 11};
    const auto a = ds::generate<TestType>(name, options);
    const auto b = ds::generate<TestType>(name, options);
    CHECK(a.points == b.points);
    CHECK(a.intrinsic == b.intrinsic);
    CHECK(a.parameter == b.parameter);
    CHECK(a.labels == b.labels);
    auto other_options = options;
    other_options.seed = 12;
    const auto c = ds::generate<TestType>(name, other_options);
    CHECK(a.points != c.points);
    CHECK(a.intrinsic != c.intrinsic);
  }
}

TEST_CASE("generate<float> is generate<double> rounded", "[datasets]") {
  for (const auto name : ds::dataset_names()) {
    INFO(name);
    const ds::Options options{.n = 150, .noise = 0.1, .seed = 5};
    const auto f = ds::generate<float>(name, options);
    const auto d = ds::generate<double>(name, options);
    CHECK((f.points.cast<double>() - d.points).cwiseAbs().maxCoeff() < 1e-4);
    CHECK((f.intrinsic.cast<double>() - d.intrinsic).cwiseAbs().maxCoeff() < 1e-4);
    CHECK(f.labels == d.labels);
  }
}

TEMPLATE_TEST_CASE("noise has the requested stddev and leaves the ground truth alone", "[datasets]", float, double) {
  const double sigma = 0.5;
  for (const auto name : ds::dataset_names()) {
    INFO(name);
    const auto clean = ds::generate<TestType>(name, {.n = 2000, .noise = 0, .seed = 9});
    const auto noisy = ds::generate<TestType>(name, {.n = 2000, .noise = sigma, .seed = 9});
    CHECK(noisy.intrinsic == clean.intrinsic);
    CHECK(noisy.parameter == clean.parameter);
    CHECK(noisy.labels == clean.labels);
    const Eigen::ArrayXXd diff = (noisy.points - clean.points).template cast<double>().array();
    const double count = double(diff.size());  // 6000 draws
    const double mean = diff.sum() / count;
    const double sd = std::sqrt((diff - mean).square().sum() / (count - 1));
    // Standard errors at 6000 draws: mean sigma/77 = 0.013 sigma; sd sigma/sqrt(2*6000) = 0.0091 sigma.
    // Bounds of 0.07 sigma and 5% are over 5 standard errors.
    CHECK(std::abs(mean) < 0.07 * sigma);
    CHECK(std::abs(sd / sigma - 1) < 0.05);
  }
}

TEMPLATE_TEST_CASE("bad options raise invalid_argument naming the parameter", "[datasets]", float, double) {
  for (const auto name : ds::dataset_names()) {
    INFO(name);
    const auto parameter_of = [&](const ds::Options& options) {
      try {
        (void)ds::generate<TestType>(name, options);
      } catch (const nldr::invalid_argument& e) {
        return e.parameter();
      }
      return std::string("(no exception)");
    };
    CHECK(parameter_of({.n = 0}) == "n");
    CHECK(parameter_of({.n = -5}) == "n");
    CHECK(parameter_of({.n = 100, .noise = -0.1}) == "noise");
    CHECK(parameter_of({.n = 100, .noise = std::numeric_limits<double>::quiet_NaN()}) == "noise");
    CHECK(parameter_of({.n = 100, .noise = std::numeric_limits<double>::infinity()}) == "noise");
  }
  CHECK_THROWS_WITH(ds::generate<TestType>("clusters-3d", {.n = 20}), ContainsSubstring(">= 21"));
  CHECK_NOTHROW(ds::generate<TestType>("clusters-3d", {.n = 21}));
  CHECK_NOTHROW(ds::generate<TestType>("swiss-roll", {.n = 1}));
}

TEST_CASE("an unknown name lists the valid ones and the nearest; names are case-insensitive", "[datasets]") {
  try {
    (void)ds::generate("swiss_roll");
    FAIL("no exception");
  } catch (const nldr::invalid_argument& e) {
    CHECK(e.parameter() == "name");
    const std::string message = e.what();
    CHECK_THAT(message, ContainsSubstring("unknown data set \"swiss_roll\" (did you mean \"swiss-roll\"?)"));
    for (const auto name : ds::dataset_names()) CHECK_THAT(message, ContainsSubstring(std::string(name)));
  }
  const ds::Options options{.n = 50, .seed = 4};
  CHECK(ds::generate("Swiss-Roll", options).points == ds::generate("swiss-roll", options).points);
}

TEMPLATE_TEST_CASE("manifold distances are a metric that bounds the 3-D distance from above", "[datasets]", float,
                   double) {
  for (const auto& e : expected) {
    INFO(e.name);
    const auto data = ds::generate<TestType>(e.name, {.n = 60, .seed = 21});
    if (!e.distances) {
      CHECK_THROWS_AS(data.manifold_distances(), nldr::error);
      CHECK_THROWS_WITH(data.manifold_distance(0, 1), ContainsSubstring(std::string(e.name)));
      continue;
    }
    const auto dm = data.manifold_distances();
    REQUIRE(dm.rows() == 60);
    REQUIRE(dm.cols() == 60);
    const double scale = dm.template cast<double>().maxCoeff();
    const double tol = coordinate_tolerance<TestType> * std::max(1.0, scale);
    CHECK(dm == dm.transpose());
    CHECK(dm.diagonal().cwiseAbs().maxCoeff() == 0);
    for (int i = 0; i < 60; ++i)
      for (int j = 0; j < 60; ++j) {
        CHECK(dm(i, j) == data.manifold_distance(i, j));
        // A path on the surface is never shorter than the straight chord (noise-free points).
        const double chord = (data.points.row(i) - data.points.row(j)).template cast<double>().norm();
        if (double(dm(i, j)) < chord - tol) FAIL_CHECK("geodesic " << dm(i, j) << " < chord " << chord);
        if (i != j && !(dm(i, j) > 0)) FAIL_CHECK("zero distance between distinct points " << i << ", " << j);
        for (int k = 0; k < 60; ++k)
          if (double(dm(i, k)) > double(dm(i, j)) + double(dm(j, k)) + tol)
            FAIL_CHECK("triangle inequality fails at " << i << ", " << j << ", " << k);
      }
    CHECK_THROWS_AS(data.manifold_distance(0, 60), nldr::invalid_argument);
    CHECK_THROWS_AS(data.manifold_distance(-1, 0), nldr::invalid_argument);
  }
}

TEST_CASE("manifold distances refuse intrinsic coordinates that do not fit the model", "[datasets]") {
  auto data = ds::punctured_sphere({.n = 10, .seed = 1});
  data.intrinsic.conservativeResize(10, 1);
  CHECK_THROWS_WITH(data.manifold_distances(), ContainsSubstring("needs 2"));
  auto helix = ds::toroidal_helix({.n = 10, .seed = 1});
  helix.intrinsic.conservativeResize(9, 1);
  CHECK_THROWS_AS(helix.manifold_distance(0, 1), nldr::invalid_argument);
}
