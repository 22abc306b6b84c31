// t-SNE on Fashion-MNIST, nldr's side (benchmarks/tsne_fashion_mnist.py runs it beside scikit-learn's
// TSNE and Rtsne, each in its own process, and evaluates the three embeddings alike).
//
//   bench_tsne_fashion_mnist X50.npy Y.npy [repulsion auto|barnes-hut|exact|fft] [perplexity 30]
//
// Reads the N x 50 PCA of the images the driver wrote, builds the exact kNN graph with
// k = 3 x perplexity (as scikit-learn and Rtsne do), fits t-SNE with nldr's defaults (PCA start,
// learning rate auto, early exaggeration 12 for 250 of 1000 iterations) and writes the embedding.
// Prints one JSON line: the wall time of the graph and of the fit, the final KL divergence, the
// threads and the load average.
#include <nldr/core/parallel.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/embed/tsne.hpp>
#include <nldr/io/matrix_file.hpp>
#include <nldr/neighbors/knn.hpp>

#include "load_average.hpp"

#include <cmath>
#include <cstdio>
#include <exception>
#include <string>

int main(int argc, char** argv) try {
  if (argc < 3) {
    std::fprintf(stderr, "usage: bench_tsne_fashion_mnist X50.npy Y.npy [repulsion] [perplexity]\n");
    return 2;
  }
  const std::string repulsion = argc > 3 ? argv[3] : "auto";
  const double perplexity = argc > 4 ? std::stod(argv[4]) : 30.0;
  const nldr::Matrix<double> X = nldr::io::read_matrix<double>(argv[1]).values;
  nldr::Stopwatch clock;
  const auto graph = nldr::KNearest{nldr::index_t(std::ceil(3 * perplexity))}(X);
  const double graph_seconds = clock.seconds();
  clock.restart();
  nldr::TsneOptions options{.perplexity = perplexity};
  options.repulsion = repulsion == "exact"        ? nldr::TsneRepulsion::exact
                      : repulsion == "barnes-hut" ? nldr::TsneRepulsion::barnes_hut
                      : repulsion == "fft"        ? nldr::TsneRepulsion::fft
                                                  : nldr::TsneRepulsion::automatic;
  const auto model = nldr::Tsne{options}.fit(X, graph);
  const double fit_seconds = clock.seconds();
  nldr::io::write_matrix(argv[2], model.coordinates);
  std::printf("{\"side\": \"nldr\", \"n\": %ld, \"graph_seconds\": %.3f, \"fit_seconds\": %.3f, \"seconds\": %.3f, "
              "\"kl\": %.6f, \"repulsion\": \"%s\", \"threads\": %d, \"load\": \"%s\"}\n",
              long(X.rows()), graph_seconds, fit_seconds, graph_seconds + fit_seconds, model.kl_divergence,
              model.repulsion.c_str(), nldr::max_threads(), load_average().c_str());
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "bench_tsne_fashion_mnist: %s\n", e.what());
  return 1;
}
