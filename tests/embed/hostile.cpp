// Hostile input for every embedder and every selector (docs/errors.md): each call either returns
// finite coordinates of the right shape or throws an nldr::error; never a crash, a hang or NaN.
// Where the outcome is determined (a disconnected graph, all points identical, d >= N) the test
// asserts the exact exception type.
#include "catch.hpp"
#include "graph_embedders.hpp"

#include <nldr/nldr.hpp>

#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace {

using embed_test::graph_embedders;

/// The call returns finite N x dim coordinates, or throws an nldr::error (anything else fails).
void finite_or_nldr_error(const std::function<nldr::Matrix<double>()>& call, Eigen::Index n, Eigen::Index dim) {
  try {
    const nldr::Matrix<double> Y = call();
    CHECK(Y.rows() == n);
    CHECK(Y.cols() == dim);
    CHECK(Y.allFinite());
  } catch (const nldr::error& e) {
    CHECK(std::string(e.what()).size() > 20);  // a message that explains, not a bare code
  }
}

nldr::Matrix<double> grid(int side, double scale = 1) {
  nldr::Matrix<double> X(side * side, 3);
  for (int i = 0; i < side * side; ++i) X.row(i) << scale * (i % side), scale * (i / side), 0.1 * scale * ((i * 7) % 5);
  return X;
}

}  // namespace

TEST_CASE("every graph embedder: hostile inputs end in finite output or an nldr::error", "[hostile]") {

  for (const auto& [name, embed] : graph_embedders<double>(2)) {
    CAPTURE(name);
    SECTION("disconnected graph: disconnected_graph naming the components, " + name) {
      nldr::Matrix<double> X = grid(6);
      X.bottomRows(18).array() += 1000.0;  // two far-apart halves of 18 points
      const auto graph = nldr::KNearest{7}(X);  // enough neighbors for every method, none across
      if (name == "umap" || name == "tsne") {
        // UMAP lays out each component on its own, as umap-learn does (docs/methods/umap.md); t-SNE's P
        // is block-diagonal and its repulsion acts between all points: finite, and the two halves
        // apart (every point's nearest embedded neighbor from its own half).
        const nldr::Matrix<double> Y = embed(X, graph);
        REQUIRE(Y.allFinite());
        for (Eigen::Index i = 0; i < Y.rows(); ++i) {
          Eigen::Index nearest = -1;
          double best = std::numeric_limits<double>::infinity();
          for (Eigen::Index j = 0; j < Y.rows(); ++j)
            if (j != i && (Y.row(i) - Y.row(j)).squaredNorm() < best) best = (Y.row(i) - Y.row(nearest = j)).squaredNorm();
          CHECK((nearest >= 18) == (i >= 18));
        }
      } else {
        CHECK_THROWS_AS(embed(X, graph), nldr::disconnected_graph);
        CHECK_THROWS_WITH(embed(X, graph), ContainsSubstring("components"));
      }
    }
    SECTION("all points identical: invalid_argument naming X, " + name) {
      const nldr::Matrix<double> X = nldr::Matrix<double>::Ones(30, 3);
      const auto graph = nldr::KNearest{6}(X);
      CHECK_THROWS_AS(embed(X, graph), nldr::invalid_argument);
      CHECK_THROWS_WITH(embed(X, graph), ContainsSubstring("identical"));
    }
    SECTION("inputs a method may or may not handle: never NaN, never a crash, " + name) {
      std::vector<std::pair<std::string, nldr::Matrix<double>>> inputs;
      nldr::Matrix<double> duplicated = grid(6);
      duplicated.bottomRows(12) = duplicated.topRows(12);  // 12 exact duplicates
      inputs.emplace_back("duplicates", duplicated);
      nldr::Matrix<double> collinear(40, 3);
      for (int i = 0; i < 40; ++i) collinear.row(i) << i, 2.0 * i, -1.0 * i;
      inputs.emplace_back("collinear", collinear);
      // Squared distances of 1e-150 and 1e150 still fit a double; those of 1e-300 and 1e300 do not.
      for (const double scale : {1e-150, 1e150, 1e-300, 1e300})
        inputs.emplace_back("scale " + std::to_string(scale), grid(6, scale));
      inputs.emplace_back("few points", grid(3));
      for (const auto& [what, X] : inputs) {
        CAPTURE(what);
        std::optional<nldr::NeighborGraph<double>> graph;
        try {
          graph = nldr::KNearest{std::min<nldr::index_t>(6, nldr::index_t(X.rows()) - 1)}(X);
        } catch (const nldr::error&) {
          continue;  // refused already at the selector: fine
        }
        // Named references: clang 14 cannot capture structured bindings in a lambda (C++20 can).
        const auto& method = embed;
        const auto& points = X;
        finite_or_nldr_error([&] { return method(points, *graph); }, X.rows(), 2);
      }
    }
    SECTION("d >= N and d = 0: invalid_argument naming dim, " + name) {
      const nldr::Matrix<double> X = grid(2);  // 4 points
      const auto graph = nldr::KNearest{3}(X);
      for (const nldr::index_t dim : {0, 4, 7}) {
        const auto& bad = graph_embedders<double>(dim);
        for (const auto& candidate : bad)
          if (candidate.name == name) CHECK_THROWS_AS(candidate.fit(X, graph), nldr::invalid_argument);
      }
    }
    SECTION("graph of another size: invalid_argument, " + name) {
      const nldr::Matrix<double> X = grid(6);
      const auto graph = nldr::KNearest{5}(grid(5));
      CHECK_THROWS_AS(embed(X, graph), nldr::invalid_argument);
    }
  }
}

TEST_CASE("PCA and MDS at extreme scales: finite output or an nldr::error", "[hostile]") {
  for (const double scale : {1e-300, 1e-150, 1e150, 1e300}) {
    CAPTURE(scale);
    const nldr::Matrix<double> X = grid(6, scale);
    finite_or_nldr_error([&] { return nldr::Pca{{.dim = 2}}.fit(X).transform(X); }, X.rows(), 2);
    finite_or_nldr_error([&] { return nldr::ClassicalMds{{.dim = 2}}.fit(X).coordinates; }, X.rows(), 2);
  }
  // At 1e300 the covariance and the Gram matrix would overflow: refused up front, naming the fix.
  const nldr::Matrix<double> huge = grid(6, 1e300);
  CHECK_THROWS_CONTAINING(nldr::Pca{{.dim = 2}}.fit(huge), nldr::invalid_argument, "rescale X");
  CHECK_THROWS_CONTAINING(nldr::ClassicalMds{{.dim = 2}}.fit(huge), nldr::invalid_argument, "rescale X");
  const nldr::Matrix<float> distances = nldr::Matrix<float>::Constant(4, 4, 1e30f) - 1e30f * nldr::Matrix<float>::Identity(4, 4);
  CHECK_THROWS_CONTAINING(nldr::ClassicalMds{{.dim = 2}}.fit(nldr::precomputed(distances)), nldr::invalid_argument,
                          "rescale the distances");
}

TEST_CASE("every embedder rejects NaN and Inf input naming X", "[hostile]") {
  for (const double bad : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    nldr::Matrix<double> X = grid(6);
    const auto graph = nldr::KNearest{5}(X);
    X(7, 1) = bad;
    for (const auto& [name, embed] : graph_embedders<double>(2)) {
      CAPTURE(name);
      CHECK_THROWS_AS(embed(X, graph), nldr::invalid_argument);
    }
    CHECK_THROWS_AS(nldr::Pca{{.dim = 2}}.fit(X), nldr::invalid_argument);
    CHECK_THROWS_AS(nldr::ClassicalMds{{.dim = 2}}.fit(X), nldr::invalid_argument);
    CHECK_THROWS_AS(nldr::KNearest{5}(X), nldr::invalid_argument);
    CHECK_THROWS_AS(nldr::metrics::trustworthiness(X, grid(6), 5), nldr::invalid_argument);
    CHECK_THROWS_AS(nldr::EpsilonBall{.radius = 1.0}(X), nldr::invalid_argument);
  }
}

TEST_CASE("every selector: bad parameters and degenerate data end in a graph or an nldr::error", "[hostile]") {
  const nldr::Matrix<double> X = grid(6);
  const auto selectors = std::vector<std::function<nldr::NeighborGraph<double>(const nldr::Matrix<double>&)>>{
      [](const auto& P) { return nldr::KNearest{5}(P); },
      [](const auto& P) { return nldr::EpsilonBall{.radius = 1.5}(P); },
      [](const auto& P) { return nldr::SharedNeighbors{nldr::KNearest{5}}(P); },
      [](const auto& P) { return nldr::GaussianPruned{nldr::KNearest{5}}(P); },
      [](const auto& P) { return nldr::CurvatureAdaptive{nldr::KNearest{8}}(P); },
      [](const auto& P) { return nldr::ShortCircuitPruned{nldr::KNearest{8}}(P); },
  };
  for (std::size_t s = 0; s < selectors.size(); ++s) {
    CAPTURE(s);
    // k >= N, too few points, identical points, empty input.
    for (const nldr::Matrix<double>& P : {nldr::Matrix<double>(grid(2)), nldr::Matrix<double>(nldr::Matrix<double>::Zero(12, 3)),
                                          nldr::Matrix<double>(0, 3)}) {
      try {
        const auto graph = selectors[s](P);
        CHECK(graph.size() == P.rows());
        for (nldr::index_t i = 0; i < graph.size(); ++i)
          for (const auto j : graph.neighbors(i)) CHECK((j >= 0 && j < graph.size() && j != i));
      } catch (const nldr::error&) {
      }
    }
    // On a well-behaved grid every selector gives a valid graph.
    const auto graph = selectors[s](X);
    CHECK(graph.size() == X.rows());
  }
  CHECK_THROWS_AS(nldr::KNearest{0}(X), nldr::invalid_argument);
  CHECK_THROWS_AS(nldr::KNearest{36}(X), nldr::invalid_argument);
  CHECK_THROWS_AS(nldr::EpsilonBall{.radius = 0.0}(X), nldr::invalid_argument);
  CHECK_THROWS_AS(nldr::EpsilonBall{.radius = -1.0}(X), nldr::invalid_argument);
}

TEST_CASE("user-built graphs with out-of-range indices, self loops or bad distances are refused", "[hostile]") {
  using Lists = std::vector<std::vector<std::pair<nldr::index_t, double>>>;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (const Lists& lists : {Lists{{{1, 1.0}}, {{2, 1.0}}, {{7, 1.0}}},     // index out of range
                             Lists{{{1, 1.0}}, {{1, 1.0}}, {{0, 1.0}}},     // self loop
                             Lists{{{1, 1.0}}, {{2, -1.0}}, {{0, 1.0}}},    // negative distance
                             Lists{{{1, 1.0}}, {{2, nan}}, {{0, 1.0}}}})    // NaN distance
    CHECK_THROWS_AS(nldr::NeighborGraph<double>::from_lists(lists), nldr::invalid_argument);
}
