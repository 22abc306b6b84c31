// Float end to end: every graph embedder, fed by a library selector on float points, gives float
// coordinates as trustworthy as the same pipeline in double. Each step has its own tests against
// independent references (the embedders' float tests use a test-built kNN graph); this one runs the
// chain selector -> embedder in float as a user would, with kNN and with a pruning selector. PCA and
// classical MDS take no graph; their float tests are in pca.cpp and mds.cpp.
#include "catch.hpp"
#include "graph_embedders.hpp"

#include <nldr/datasets/swiss_roll.hpp>
#include <nldr/metrics/trustworthiness.hpp>
#include <nldr/neighbors/knn.hpp>
#include <nldr/neighbors/shared_neighbors.hpp>

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace {

/// A selector applied the same way to float and to double points.
struct NamedSelector {
  std::string name;
  std::function<nldr::NeighborGraph<float>(const nldr::Matrix<float>&)> on_float;
  std::function<nldr::NeighborGraph<double>(const nldr::Matrix<double>&)> on_double;
};

template <class Selector>
NamedSelector both_types(std::string name, Selector selector) {
  return {std::move(name), [=](const auto& X) { return selector(X); }, [=](const auto& X) { return selector(X); }};
}

}  // namespace

TEST_CASE("every graph embedder from a float selector is as trustworthy as in double", "[float]") {
  // 800 points of a Swiss roll, made in double and rounded to float. min_neighbors 6 is what
  // Hessian LLE needs in 2-D (1 + d + d(d+1)/2). Measured (trustworthiness, k = 10): float equals
  // double to 10 digits for every method but t-SNE and UMAP, whose float and double runs part ways
  // (float within 0.0033 of double); kNN 0.854 (LTSA) to 0.996 (UMAP), shared-neighbor pruning 0.936
  // to 0.996. A scrambled embedding scores about 0.5.
  const auto data = nldr::datasets::swiss_roll<double>({.n = 800, .seed = 11});
  const nldr::Matrix<float> X = data.points.cast<float>();
  const std::vector<NamedSelector> selectors{
      both_types("knn", nldr::KNearest{10}),
      both_types("shared", nldr::SharedNeighbors{nldr::KNearest{12}, {.min_neighbors = 6}}),
  };
  // t-SNE and UMAP with quick_fit_parameters' shorter runs, alike in both types: at their defaults
  // they took 95% of this test (56 s under the sanitizers).
  const auto in_float = embed_test::graph_embedders<float>(2, embed_test::quick_fit_parameters);
  const auto in_double = embed_test::graph_embedders<double>(2, embed_test::quick_fit_parameters);
  for (const auto& selector : selectors) {
    const auto graph = selector.on_float(X);
    const auto reference_graph = selector.on_double(data.points);
    for (std::size_t m = 0; m < in_float.size(); ++m) {
      CAPTURE(selector.name, in_float[m].name);
      const nldr::Matrix<float> Y = in_float[m].fit(X, graph);
      REQUIRE(Y.rows() == X.rows());
      REQUIRE(Y.cols() == 2);
      REQUIRE(Y.allFinite());
      const double trust = nldr::metrics::trustworthiness(data.points, Y.cast<double>().eval(), 10);
      const double reference =
          nldr::metrics::trustworthiness(data.points, in_double[m].fit(data.points, reference_graph), 10);
      CAPTURE(trust, reference);
      CHECK(trust > reference - 0.01);
      CHECK(trust > 0.8);
    }
  }
}
