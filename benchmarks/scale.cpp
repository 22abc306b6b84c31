// Scale: 10^6 points in 100-D, the HNSW kNN graph and one of Laplacian Eigenmaps, UMAP or t-SNE
// (docs/benchmarks.md, "Scale: 10^6 points in 100-D"). Issue 19 asks for the graph and Laplacian
// Eigenmaps in under 10 minutes on 2 cores; the UMAP issue for the graph and UMAP in under 10; the
// t-SNE issue for t-SNE in under 20, memory O(N k).
//
//   bench_scale [--method laplacian|umap|tsne] [--n 1000000] [--ambient 100] [--k K] [--noise 0.002] [--seed 1]
//
// Data: datasets::swiss_roll_features (float; the Swiss roll carried into --ambient dimensions by
// random Fourier features, plus noise). Graph: ApproximateKNearest{k} at its defaults (deterministic
// build), whose sampled recall estimate is printed; k defaults to each method's own: 10 (Laplacian
// Eigenmaps, as before), 15 (UMAP, umap-learn's n_neighbors), 90 (t-SNE, 3 x perplexity 30).
// Embedding: the method at its defaults, to 2-D. Prints per stage the wall and CPU seconds and the
// peak resident memory so far, and how well the embedding recovers the roll: the largest |Spearman
// correlation| of either coordinate with the arc length s(t) (1 = a monotone map of the unrolled
// coordinate; UMAP and t-SNE keep neighborhoods, not the global order, so theirs is lower).
#include <nldr/core/correlation.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/datasets/high_dimensional.hpp>
#include <nldr/embed/laplacian_eigenmaps.hpp>
#include <nldr/embed/tsne.hpp>
#include <nldr/embed/umap.hpp>
#include <nldr/metrics/spearman.hpp>
#if defined(NLDR_HAVE_HNSWLIB)
#include <nldr/neighbors/approximate_knn.hpp>
#endif

#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         1e-6 * double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
}

/// Prints one stage: wall and CPU seconds since the marks, and the peak RSS so far.
struct StageClock {
  nldr::Stopwatch wall;
  double cpu = cpu_seconds();
  void print(const char* stage) {
    std::printf("%-10s wall %8.2f s  cpu %8.2f s  peak_rss %7.0f MiB\n", stage, wall.seconds(), cpu_seconds() - cpu,
                double(nldr::peak_memory_bytes()) / (1024.0 * 1024.0));
    std::fflush(stdout);
    wall.restart();
    cpu = cpu_seconds();
  }
};

/// Spearman's rank correlation of two columns: the Pearson correlation of their average ranks.
double spearman(const nldr::Vector<float>& a, const nldr::Vector<float>& b) {
  const auto ranks = [](const nldr::Vector<float>& values) {
    return nldr::metrics::detail::average_ranks(std::vector<double>(values.data(), values.data() + values.size()));
  };
  const std::vector<double> ra = ranks(a), rb = ranks(b);
  nldr::PearsonAccumulator pearson;
  for (std::size_t i = 0; i < ra.size(); ++i) pearson.add(ra[i], rb[i]);
  return pearson.correlation();
}

std::string text_option(int argc, char** argv, const char* name, const std::string& fallback) {
  for (int a = 1; a + 1 < argc; ++a)
    if (std::strcmp(argv[a], name) == 0) return argv[a + 1];
  return fallback;
}

double option(int argc, char** argv, const char* name, double fallback) {
  const std::string text = text_option(argc, argv, name, "");
  return text.empty() ? fallback : std::stod(text);
}

/// The model's 2-D coordinates, after printing its own stage times (where the embedding's time goes).
template <class Model>
nldr::Matrix<float> coordinates_of(const Model& model) {
  for (const auto& [stage, seconds] : model.times.stages) std::printf("  %-16s %8.2f s\n", stage.c_str(), seconds);
  return model.coordinates;
}

/// The method's 2-D coordinates of `points` along `graph`.
nldr::Matrix<float> embed(const std::string& method, const nldr::Matrix<float>& points,
                          const nldr::NeighborGraph<float>& graph) {
  if (method == "umap") return coordinates_of(nldr::Umap{{.dim = 2}}.fit(points, graph));
  if (method == "tsne") return coordinates_of(nldr::Tsne{{.dim = 2}}.fit(points, graph));
  return coordinates_of(nldr::LaplacianEigenmaps{{.dim = 2}}.fit(points, graph));
}

}  // namespace

int main(int argc, char** argv) {
#if defined(NLDR_HAVE_HNSWLIB)
  try {
    const std::string method = text_option(argc, argv, "--method", "laplacian");
    if (method != "laplacian" && method != "umap" && method != "tsne")
      throw std::invalid_argument("--method must be laplacian, umap or tsne, not " + method);
    const auto n = nldr::index_t(option(argc, argv, "--n", 1e6));
    const auto ambient = Eigen::Index(option(argc, argv, "--ambient", 100));
    const auto k = nldr::index_t(option(argc, argv, "--k", method == "umap" ? 15 : method == "tsne" ? 90 : 10));
    const double noise = option(argc, argv, "--noise", 0.002);
    const auto seed = std::uint64_t(option(argc, argv, "--seed", 1));
    std::printf("method %s, N = %d, D = %ld, k = %d, noise = %g, threads = %d\n", method.c_str(), int(n),
                long(ambient), int(k), noise, nldr::max_threads());
    StageClock clock;
    const auto data = nldr::datasets::swiss_roll_features<float>({.n = n, .noise = noise, .seed = seed}, ambient);
    clock.print("generate");
    const auto graph = nldr::ApproximateKNearest{.k = k}(data.points);
    clock.print("graph");
    std::printf("graph: %s, estimated recall %.4f\n", graph.selection().selector.c_str(),
                graph.selection().estimated_recall.value_or(-1));
    const nldr::Matrix<float> coordinates = embed(method, data.points, graph);
    clock.print("embed");
    double best = 0;
    for (Eigen::Index c = 0; c < 2; ++c)
      best = std::max(best, std::abs(spearman(nldr::Vector<float>(coordinates.col(c)),
                                              nldr::Vector<float>(data.intrinsic.col(0)))));
    std::printf("max |Spearman(coordinate, s(t))| = %.4f\n", best);
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "bench_scale: " << e.what() << "\n";
    return 1;
  }
#else
  std::cerr << "bench_scale needs hnswlib (nldr::hnswlib)\n";
  return 2;
#endif
}
