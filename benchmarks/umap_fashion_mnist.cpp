// nldr's side of benchmarks/umap_fashion_mnist.py: UMAP of a matrix (the driver's PCA-50 of the
// Fashion-MNIST images) in its own process, timed from the points in memory to the embedding.
//
//   bench_umap_fashion_mnist --input X.npy --output Y.npy [--k 15] [--seed 0] [--threads 2]
//                            [--graph exact|approximate] [--epochs E (0: UMAP's default)]
//                            [--optimizer adam|sgd]
//
// The graph: HNSW (ApproximateKNearest, when built with hnswlib; umap-learn and uwot search
// approximately too) or the exact kNN; then nldr::Umap with umap-learn's defaults. Prints one JSON
// line: the seconds of the graph, of the fit (and of its stages) and in all, the graph's estimated
// recall.
#include <nldr/core/parallel.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/embed/umap.hpp>
#include <nldr/io/matrix_file.hpp>
#include <nldr/io/npy.hpp>
#if defined(NLDR_HAVE_HNSWLIB)
#include <nldr/neighbors/approximate_knn.hpp>
#endif
#include <nldr/neighbors/knn.hpp>

#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>

int main(int argc, char** argv) {
  std::map<std::string, std::string> options;
  for (int a = 1; a + 1 < argc; a += 2) options[std::string(argv[a]).substr(2)] = argv[a + 1];
  auto option = [&](const std::string& key, const std::string& fallback) {
    return options.count(key) ? options[key] : fallback;
  };
  nldr::set_threads(std::stoi(option("threads", "2")));
  const nldr::Matrix<float> X = nldr::io::read_matrix<float>(option("input", "X.npy")).values;
  const auto k = nldr::index_t(std::stol(option("k", "15")));

  nldr::Stopwatch total;
  nldr::Stopwatch clock;
  std::string recall = "null";
#if defined(NLDR_HAVE_HNSWLIB)
  const bool approximate = option("graph", "approximate") == "approximate";
#else
  const bool approximate = false;
#endif
  nldr::NeighborGraph<float> graph;
  if (approximate) {
#if defined(NLDR_HAVE_HNSWLIB)
    graph = nldr::ApproximateKNearest{.k = k}(X);
    if (graph.selection().estimated_recall) recall = std::to_string(*graph.selection().estimated_recall);
#endif
  } else {
    graph = nldr::KNearest{k}(X);
  }
  const double graph_seconds = clock.seconds();
  clock.restart();
  const std::string optimizer = option("optimizer", "adam");
  if (optimizer != "adam" && optimizer != "sgd") throw std::invalid_argument("--optimizer: adam or sgd");
  const auto model = nldr::Umap{{.n_epochs = std::stoi(option("epochs", "0")),
                                 .optimizer = optimizer == "sgd" ? nldr::UmapOptimizer::sgd : nldr::UmapOptimizer::adam,
                                 .seed = std::uint64_t(std::stoull(option("seed", "0")))}}.fit(X, graph);
  const double fit_seconds = clock.seconds();
  nldr::io::write_npy(option("output", "Y.npy"), model.coordinates);
  std::string stages;  // the fit's own stages: fuzzy graph, initialization, optimization, ...
  for (const auto& [name, seconds] : model.times.stages)
    stages += (stages.empty() ? "" : ", ") + ("\"" + name + "\": " + std::to_string(seconds));
  std::printf("{\"graph\": \"%s\", \"graph_seconds\": %.3f, \"fit_seconds\": %.3f, \"seconds\": %.3f, "
              "\"estimated_recall\": %s, \"epochs\": %d, \"threads\": %d, \"fit_stages\": {%s}}\n",
              approximate ? "hnsw" : "exact", graph_seconds, fit_seconds, total.seconds(), recall.c_str(),
              int(model.n_epochs), nldr::max_threads(), stages.c_str());
  return 0;
}
