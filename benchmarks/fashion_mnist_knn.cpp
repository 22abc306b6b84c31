// kNN graph of Fashion-MNIST: exact search and ApproximateKNearest (docs/benchmarks.md,
// "High-dimensional kNN: Fashion-MNIST"). run_fashion_mnist_knn.py drives it against scikit-learn.
//
//   bench_fashion_mnist_knn exact --n N [--k 15] [--float] [--dims D] [--truth-out FILE]
//       KNearest{k} with the brute force (blocked GEMM) on the first N of the 70,000 images
//       (60,000 training then 10,000 test images, pixels / 255). With --truth-out, writes the
//       neighbor indices (N x k int32) for the recall of the approximate runs.
//   bench_fashion_mnist_knn hnsw --n N [--k 15] [--ef 0] [--M 12] [--ef-construction 64]
//                                [--parallel-build] [--float] [--dims D] [--truth FILE]
//       ApproximateKNearest on the same data; with --truth, the recall against those lists.
//   --dims D projects the 784 pixels on D seeded Gaussian directions (scaled by 1/sqrt(D)), for the
//   exact/approximate crossover in D. --dir names the folder of the IDX files
//   (default /usr/share/datasets/fashion-mnist, Debian's dataset-fashion-mnist).
// Prints one line: seconds=<graph construction wall time> cpu_seconds=<user + system, all threads>
// peak_rss_mib=<VmHWM> checksum=<sum of every k-th distance> [recall=<vs truth>]
// [estimated_recall=<the selector's own sampled estimate>].
#include <nldr/core/parallel.hpp>
#include <nldr/core/random.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/neighbors/knn.hpp>
#if defined(NLDR_HAVE_HNSWLIB)
#include <nldr/neighbors/approximate_knn.hpp>
#endif

#include "idx_reader.hpp"

#include <sys/resource.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <stdexcept>
#include <string>

namespace {

std::map<std::string, std::string> parse(int argc, char** argv, int first) {
  std::map<std::string, std::string> options;
  for (int a = first; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg.size() < 3 || arg[0] != '-' || arg[1] != '-') throw std::runtime_error("unexpected argument " + arg);
    const std::string key(arg.begin() + 2, arg.end());
    if (key == "float" || key == "parallel-build")
      options.insert_or_assign(key, std::string(1, '1'));
    else if (a + 1 < argc)
      options.insert_or_assign(key, std::string(argv[++a]));
    else
      throw std::runtime_error("--" + key + " needs a value");
  }
  return options;
}

std::string option(const std::map<std::string, std::string>& options, const std::string& key, const std::string& fallback) {
  const auto found = options.find(key);
  return found == options.end() ? fallback : found->second;
}

double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         1e-6 * double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
}

// The first n images of train then test, optionally projected to `dims` Gaussian directions.
template <class T>
nldr::Matrix<T> load(const std::string& dir, long n, long dims) {
  nldr::Matrix<T> train = bench_idx::read_images<T>(dir + "/train-images-idx3-ubyte.gz", n);
  nldr::Matrix<T> images = train;
  if (train.rows() < n) {
    const nldr::Matrix<T> test = bench_idx::read_images<T>(dir + "/t10k-images-idx3-ubyte.gz", n - train.rows());
    images.resize(train.rows() + test.rows(), train.cols());
    images << train, test;
  }
  if (dims <= 0) return images;
  nldr::Random rng(dims);
  nldr::Matrix<T> directions(images.cols(), dims);
  for (Eigen::Index i = 0; i < directions.size(); ++i) directions.data()[i] = T(rng.normal() / std::sqrt(double(dims)));
  return images * directions;
}

template <class T>
void report(const nldr::NeighborGraph<T>& graph, int k, double seconds, double cpu) {
  double checksum = 0;
  for (nldr::index_t i = 0; i < graph.size(); ++i) checksum += graph.distances(i)[std::size_t(k - 1)];
  std::printf("seconds=%.6f cpu_seconds=%.6f peak_rss_mib=%.1f checksum=%.12g", seconds, cpu,
              double(nldr::peak_memory_bytes()) / (1024.0 * 1024.0), checksum);
}

template <class T>
int run(const std::string& mode, const std::map<std::string, std::string>& options) {
  const long n = std::stol(options.at("n"));
  const int k = std::stoi(option(options, "k", "15"));
  const nldr::Matrix<T> X = load<T>(option(options, "dir", "/usr/share/datasets/fashion-mnist"), n,
                                    std::stol(option(options, "dims", "0")));
  if (mode == "exact") {
    const double cpu_start = cpu_seconds();
    nldr::Stopwatch watch;
    const auto graph = nldr::KNearest{.k = k, .backend = nldr::SearchBackend::brute_force}(X);
    report(graph, k, watch.seconds(), cpu_seconds() - cpu_start);
    std::printf("\n");
    if (options.count("truth-out")) {
      std::ofstream out(options.at("truth-out"), std::ios::binary);
      out.write(reinterpret_cast<const char*>(graph.indices().data()),
                std::streamsize(graph.indices().size() * sizeof(nldr::index_t)));
    }
    return 0;
  }
#if defined(NLDR_HAVE_HNSWLIB)
  if (mode == "hnsw") {
    const nldr::ApproximateKNearest select{.k = k,
                                           .ef = std::stoi(option(options, "ef", "0")),
                                           .M = std::stoi(option(options, "M", "12")),
                                           .ef_construction = std::stoi(option(options, "ef-construction", "64")),
                                           .deterministic = !options.count("parallel-build")};
    const double cpu_start = cpu_seconds();
    nldr::Stopwatch watch;
    const auto graph = select(X);
    report(graph, k, watch.seconds(), cpu_seconds() - cpu_start);
    if (options.count("truth")) {
      std::vector<nldr::index_t> truth(std::size_t(n) * std::size_t(k));
      std::ifstream in(options.at("truth"), std::ios::binary);
      in.read(reinterpret_cast<char*>(truth.data()), std::streamsize(truth.size() * sizeof(nldr::index_t)));
      if (!in) throw std::runtime_error("cannot read " + std::to_string(truth.size()) + " indices from " + options.at("truth"));
      double hits = 0;
      for (nldr::index_t i = 0; i < graph.size(); ++i) {
        const auto found = graph.neighbors(i);
        const std::set<nldr::index_t> listed(found.begin(), found.end());
        for (int a = 0; a < k; ++a) hits += listed.count(truth[std::size_t(i) * std::size_t(k) + std::size_t(a)]) ? 1 : 0;
      }
      std::printf(" recall=%.4f", hits / double(truth.size()));
    }
    std::printf(" estimated_recall=%.4f\n", graph.selection().estimated_recall.value_or(-1));
    return 0;
  }
#endif
  throw std::runtime_error("unknown mode " + mode + " (hnsw needs nldr::hnswlib)");
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode != "exact" && mode != "hnsw") {
      std::cerr << "usage: bench_fashion_mnist_knn exact|hnsw --n N [--k 15] [--float] [--dims D] [--dir DIR]\n"
                   "         exact: [--truth-out FILE]   hnsw: [--ef 0] [--M 12] [--ef-construction 64]"
                   " [--parallel-build] [--truth FILE]\n";
      return 2;
    }
    const auto options = parse(argc, argv, 2);
    return options.count("float") ? run<float>(mode, options) : run<double>(mode, options);
  } catch (const std::exception& e) {
    std::cerr << "bench_fashion_mnist_knn: " << e.what() << "\n";
    return 1;
  }
}
