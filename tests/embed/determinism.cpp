// Determinism: the same input gives bit-identical output on every run and for 1, 2 or 3 threads,
// for every selector and every embedder (docs/errors.md; the rule in include/nldr/core/parallel.hpp).
#include "catch.hpp"

#include <nldr/nldr.hpp>

#include "graph_embedders.hpp"

#include <functional>
#include <string>
#include <vector>

namespace {

using Run = std::function<nldr::Matrix<double>(const nldr::Matrix<double>&)>;

/// A graph's edge lengths in CSR order, as a column: equal iff the lists and distances are equal.
nldr::Matrix<double> edge_lengths(const nldr::NeighborGraph<double>& graph) {
  const auto d = graph.distances();
  return Eigen::Map<const Eigen::VectorXd>(d.data(), Eigen::Index(d.size()));
}

/// Every selector of the registry (on candidate lists of 12; epsilon with a radius that keeps the
/// roll connected) and every embedder on the kNN graph, through fit and through transform.
std::vector<std::pair<std::string, Run>> pipelines() {
  const auto knn = [](const auto& X) { return nldr::KNearest{10}(X); };
  std::vector<std::pair<std::string, Run>> all;
  for (const auto& entry : nldr::selectors()) {
    const nldr::ParameterValues values =
        entry.name == "epsilon" ? nldr::ParameterValues{{"radius", "4"}} : nldr::ParameterValues{{"k", "12"}};
    all.emplace_back(std::string(entry.name), [&entry, values](const auto& X) { return edge_lengths(entry.select(X, values)); });
  }
  for (const auto& entry : nldr::embedders()) {
    const nldr::ParameterValues values = embed_test::quick_fit_parameters(entry, 2);
    // The fitted coordinates above the transform of points between the training points (shifted
    // by a fraction of the roll's spacing): one fit checks both.
    all.emplace_back(std::string(entry.name), [&entry, values, knn](const nldr::Matrix<double>& X) {
      const auto graph = knn(X);
      const auto model = entry.fit(nldr::FitInput<double>{.points = &X, .graph = &graph}, values);
      const nldr::Matrix<double> placed = model.transform(nldr::Matrix<double>(X.array() + 0.01));
      nldr::Matrix<double> both(X.rows() + placed.rows(), placed.cols());
      both << model.coordinates(), placed;
      return both;
    });
  }
  // SuiteSparse's factorizations, when built with them. nldr's thread count is what varies here; the
  // BLAS under them keeps its own (docs/spectral-solver.md: bits may change with OPENBLAS_NUM_THREADS).
  if (nldr::have_suitesparse())
    for (const auto factorization : {nldr::Factorization::supernodal, nldr::Factorization::lu})
      all.emplace_back(factorization == nldr::Factorization::lu ? "lle-lu" : "lle-supernodal", [=](const auto& X) {
        const nldr::BottomEigenOptions solver{.factorization = factorization};
        return nldr::LocallyLinearEmbedding{{.dim = 2, .eigen = solver}}.fit(X, knn(X)).coordinates;
      });
  return all;
}

}  // namespace

TEST_CASE("every selector and embedder is bit-identical across runs and thread counts", "[determinism]") {
  // 600 points: above the dense-solver threshold, so the sparse Lanczos path is the one tested.
  const auto data = nldr::datasets::generate<double>("swiss-roll", {.n = 600, .noise = 0.05, .seed = 3});
  const int threads_before = nldr::max_threads();
  for (const auto& [name, run] : pipelines()) {
    CAPTURE(name);
    nldr::set_threads(1);
    const nldr::Matrix<double> reference = run(data.points);
    REQUIRE(reference.allFinite());
    for (const int threads : {1, 2, 3}) {
      CAPTURE(threads);
      nldr::set_threads(threads);
      const nldr::Matrix<double> again = run(data.points);
      REQUIRE(again.rows() == reference.rows());
      CHECK((again.array() == reference.array()).all());  // bitwise: no tolerance
    }
  }
  nldr::set_threads(threads_before);
}
