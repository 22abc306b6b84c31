// Benchmark of the quality metrics: the whole R_NX curve (K = 1..N-2), trustworthiness at one k,
// and the K_max-bounded co-ranking summary. One measurement per process, so that the peak resident
// memory printed belongs to that measurement alone (benchmarks/metrics_compare.py runs the grid).
//
//   bench_metrics <curve|trust|kmax> N [k] [--data DIR]
// prints: mode N k wall_s cpu_s peak_MiB working_MiB value threads
// (cpu_s = user + system time of all threads; working = peak RSS minus the RSS before the measurement)
// --data DIR writes the inputs as raw little-endian float64 (DIR/X_N.f64: N x 3, DIR/Y_N.f64: N x 2,
// row-major) for benchmarks/metrics_sklearn.py, and exits.
#include <nldr/core/parallel.hpp>
#include <nldr/core/random.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/core/types.hpp>
#include <nldr/metrics/coranking.hpp>
#include <nldr/metrics/trustworthiness.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <numbers>
#include <string>

#include <sys/resource.h>

namespace {

// A Swiss roll (Xia et al. 2008, eq. 3) and a noisy unrolled embedding of it: (arc-like angle, height) plus
// Gaussian noise, a typical "good but imperfect" embedding.
void make_data(int n, nldr::Matrix<double>& X, nldr::Matrix<double>& Y) {
  nldr::Random random(2026);
  X.resize(n, 3);
  Y.resize(n, 2);
  for (int i = 0; i < n; ++i) {
    const double t = 1.5 * std::numbers::pi * (1 + 2 * random.uniform()), h = 21 * random.uniform();
    X.row(i) << t * std::cos(t), h, t * std::sin(t);
    Y.row(i) << t + 0.3 * random.normal(), h / 3 + 0.3 * random.normal();
  }
}

void write(const std::string& path, const nldr::Matrix<double>& M) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(M.data()), std::streamsize(M.size() * sizeof(double)));
  if (!out) {
    std::fprintf(stderr, "cannot write %s\n", path.c_str());
    std::exit(1);
  }
}

double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         1e-6 * double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s <curve|trust|kmax> N [k] [--data DIR]\n", argv[0]);
    return 2;
  }
  const std::string mode = argv[1];
  const int n = std::atoi(argv[2]);
  int k = 10;
  std::string data_dir;
  for (int a = 3; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg == "--data" && a + 1 < argc)
      data_dir = argv[++a];
    else
      k = std::atoi(argv[a]);
  }
  nldr::Matrix<double> X, Y;
  make_data(n, X, Y);
  if (!data_dir.empty()) {
    write(data_dir + "/X_" + std::to_string(n) + ".f64", X);
    write(data_dir + "/Y_" + std::to_string(n) + ".f64", Y);
    return 0;
  }
  const double base_mib = double(nldr::peak_memory_bytes()) / (1024.0 * 1024.0);
  nldr::Stopwatch watch;
  const double cpu_start = cpu_seconds();
  double value = 0;
  if (mode == "curve") {
    const auto curve = nldr::metrics::rnx_curve(X, Y);
    value = curve[std::size_t(k - 1)];
  } else if (mode == "trust") {
    value = nldr::metrics::trustworthiness(X, Y, k);
  } else if (mode == "kmax") {
    value = nldr::metrics::coranking_summary(X, Y, k).auc_rnx();
  } else {
    std::fprintf(stderr, "unknown mode %s\n", mode.c_str());
    return 2;
  }
  const double seconds = watch.seconds(), cpu = cpu_seconds() - cpu_start;
  const double peak_mib = double(nldr::peak_memory_bytes()) / (1024.0 * 1024.0);
  std::printf("%s %d %d %.3f %.3f %.1f %.1f %.10f %d\n", mode.c_str(), n, k, seconds, cpu, peak_mib,
              peak_mib - base_mib, value, nldr::max_threads());
  return 0;
}
