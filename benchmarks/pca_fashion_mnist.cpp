// PCA of Fashion-MNIST (docs/methods/pca.md, "Speed"): one fit of nldr::Pca, timed, in this process.
//
//   bench_pca_fashion_mnist [--n 60000] [--dim 50] [--dtype float|double]
//                           [--algorithm automatic|covariance|randomized] [--dir DIR]
//
// Reads the first N training images (benchmarks/idx_reader.hpp; pixels / 255), fits PCA to dim
// components (the coordinates of the N images included, as scikit-learn's fit_transform) and prints
// one line of key=value: seconds, the path taken, the explained-variance ratio of the dim
// components and the last component's variance (for accuracy against the exact path), the peak
// memory and the load average. benchmarks/pca_compare.py runs it beside scikit-learn's randomized
// PCA, each in its own process, and prints the ratio.
#include <nldr/core/resources.hpp>
#include <nldr/embed/pca.hpp>

#include "idx_reader.hpp"
#include "load_average.hpp"

#include <cstdio>
#include <map>
#include <string>

namespace {

template <class T>
void run(const std::map<std::string, std::string>& options) {
  const auto get = [&](const std::string& key, const std::string& fallback) {
    const auto it = options.find(key);
    return it == options.end() ? fallback : it->second;
  };
  const long n = std::stol(get("n", "60000"));
  const auto dim = nldr::index_t(std::stol(get("dim", "50")));
  const std::string algorithm_name = get("algorithm", "automatic");
  const auto algorithm = algorithm_name == "covariance"   ? nldr::PcaAlgorithm::covariance
                         : algorithm_name == "randomized" ? nldr::PcaAlgorithm::randomized
                                                          : nldr::PcaAlgorithm::automatic;
  const std::string dir = get("dir", "/usr/share/datasets/fashion-mnist");
  const nldr::Matrix<T> X = bench_idx::read_images<T>(dir + "/train-images-idx3-ubyte.gz", n);
  const nldr::Stopwatch clock;
  const auto pca = nldr::Pca{{.dim = dim, .algorithm = algorithm}}.fit(X);
  const double seconds = clock.seconds();
  std::printf("seconds=%.3f solver=%s n=%ld d=%ld dim=%d dtype=%s explained=%.6f last_variance=%.6g", seconds,
              pca.diagnostics.solver.c_str(), long(X.rows()), long(X.cols()), int(dim),
              sizeof(T) == 4 ? "float32" : "float64", double(pca.explained_variance_ratio.sum()),
              double(pca.explained_variance[dim - 1]));
  for (const auto& [stage, stage_seconds] : pca.times.stages) std::printf(" %s=%.3f", stage.c_str(), stage_seconds);
  std::printf(" rss_mib=%.0f load=%s\n", double(nldr::peak_memory_bytes()) / (1 << 20),
              [] { auto s = load_average(); s[s.find(' ')] = ','; return s; }().c_str());
}

}  // namespace

int main(int argc, char** argv) {
  std::map<std::string, std::string> options;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string key = argv[i];
    if (key.rfind("--", 0) != 0) {
      std::fprintf(stderr, "usage: bench_pca_fashion_mnist [--n 60000] [--dim 50] [--dtype float|double] "
                           "[--algorithm automatic|covariance|randomized] [--dir DIR]\n");
      return 2;
    }
    options[key.substr(2)] = argv[i + 1];
  }
  if (options.count("dtype") && options["dtype"] == "double")
    run<double>(options);
  else
    run<float>(options);
}
