// Determinism: the same input gives bit-identical output on every run and for 1, 2 or 3 threads,
// for every selector and every embedder (docs/errors.md; the rule in include/nldr/core/parallel.hpp).
#include "catch.hpp"

#include <nldr/nldr.hpp>

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

std::vector<std::pair<std::string, Run>> pipelines() {
  const auto knn = [](const auto& X) { return nldr::KNearest{10}(X); };
  std::vector<std::pair<std::string, Run>> all{
      {"knn", [=](const auto& X) { return edge_lengths(knn(X)); }},
      {"shared", [](const auto& X) { return edge_lengths(nldr::SharedNeighbors{nldr::KNearest{12}}(X)); }},
      {"short-circuit", [](const auto& X) { return edge_lengths(nldr::ShortCircuitPruned{nldr::KNearest{20}}(X)); }},
      {"curvature", [](const auto& X) { return edge_lengths(nldr::CurvatureAdaptive{nldr::KNearest{15}}(X)); }},
      {"pca", [](const auto& X) { return nldr::Pca{{.dim = 2}}.fit(X).coordinates; }},
      {"mds", [](const auto& X) { return nldr::ClassicalMds{{.dim = 2}}.embed(X).coordinates; }},
      {"isomap", [=](const auto& X) { return nldr::Isomap{{.dim = 2}}.embed(X, knn(X)).coordinates; }},
      {"landmark-isomap",
       [=](const auto& X) { return nldr::LandmarkIsomap{{.dim = 2, .landmarks = 30}}.embed(X, knn(X)).coordinates; }},
      {"lle", [=](const auto& X) { return nldr::LocallyLinearEmbedding{{.dim = 2}}.embed(X, knn(X)).coordinates; }},
      {"modified-lle",
       [=](const auto& X) {
         return nldr::LocallyLinearEmbedding{{.dim = 2, .variant = nldr::LleVariant::modified}}.embed(X, knn(X)).coordinates;
       }},
      {"hessian-lle",
       [=](const auto& X) {
         return nldr::LocallyLinearEmbedding{{.dim = 2, .variant = nldr::LleVariant::hessian}}.embed(X, knn(X)).coordinates;
       }},
      {"ltsa", [=](const auto& X) { return nldr::Ltsa{{.dim = 2}}.embed(X, knn(X)).coordinates; }},
      {"laplacian-eigenmaps",
       [=](const auto& X) { return nldr::LaplacianEigenmaps{{.dim = 2}}.embed(X, knn(X)).coordinates; }},
  };
  // SuiteSparse's factorizations, when built with them. nldr's thread count is what varies here; the
  // BLAS under them keeps its own (docs/spectral-solver.md: bits may change with OPENBLAS_NUM_THREADS).
  if (nldr::have_suitesparse())
    for (const auto factorization : {nldr::Factorization::supernodal, nldr::Factorization::lu})
      all.emplace_back(factorization == nldr::Factorization::lu ? "lle-lu" : "lle-supernodal", [=](const auto& X) {
        const nldr::SpectralSolverOptions solver{.factorization = factorization};
        return nldr::LocallyLinearEmbedding{{.dim = 2, .solver = solver}}.embed(X, knn(X)).coordinates;
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
