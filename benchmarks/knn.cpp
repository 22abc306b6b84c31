// kNN graph construction benchmark (docs/benchmarks.md, "kNN graph construction").
//
//   bench_knn run --data X.f64 --n N --d D [--k 10] [--backend automatic|kdtree|brute_force] [--float]
//       Reads N x D little-endian float64 values (row-major, as numpy's tofile writes them), builds
//       KNearest{k} once and prints one line: seconds=<wall time of the graph construction>
//       cpu_seconds=<user + system CPU time of it, all threads> peak_rss_mib=<peak resident
//       memory of this process (VmHWM)> checksum=<sum of every k-th distance>.
//       One case per process, so the peak memory is that case's. run_knn.py drives it.
//   bench_knn crossover [--n 20000] [--k 10]
//       Times the k-d tree against the brute force for a range of D, to place kdtree_max_dimension
//       (selector.hpp), on two kinds of data: uniform in [0,1)^D (intrinsic dimension D, the worst
//       case for a tree) and a Swiss roll (intrinsic dimension 2) isometrically embedded in R^D by a
//       random orthonormal map, plus N(0, 0.01^2) noise on every coordinate. Prints a markdown table.
#include <nldr/core/parallel.hpp>
#include <nldr/core/random.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/neighbors/knn.hpp>

#include <Eigen/QR>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <sys/resource.h>
#include <stdexcept>
#include <string>

namespace {

std::map<std::string, std::string> parse(int argc, char** argv, int first) {
  std::map<std::string, std::string> options;
  for (int a = first; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg.size() < 3 || arg[0] != '-' || arg[1] != '-') throw std::runtime_error("unexpected argument " + arg);
    const std::string key(arg.begin() + 2, arg.end());
    if (key == "float")
      options.insert_or_assign(key, std::string(1, '1'));
    else if (a + 1 < argc)
      options.insert_or_assign(key, std::string(argv[++a]));
    else
      throw std::runtime_error("--" + key + " needs a value");
  }
  return options;
}

nldr::SearchBackend backend_named(const std::string& name) {
  if (name == "kdtree") return nldr::SearchBackend::kdtree;
  if (name == "brute_force") return nldr::SearchBackend::brute_force;
  if (name == "automatic") return nldr::SearchBackend::automatic;
  throw std::runtime_error("unknown backend " + name);
}

template <class T>
double kth_distance_sum(const nldr::NeighborGraph<T>& graph, int k) {
  double sum = 0;
  for (nldr::index_t i = 0; i < graph.size(); ++i) sum += graph.distances(i)[std::size_t(k - 1)];
  return sum;
}

// Peak resident memory of this process in MiB (VmHWM on Linux: starts afresh at exec).
double peak_rss_mib() { return double(nldr::peak_memory_bytes()) / (1024.0 * 1024.0); }

double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         1e-6 * double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
}

template <class T>
int run_case(const nldr::Matrix<T>& X, int k, nldr::SearchBackend backend) {
  const double cpu_start = cpu_seconds();
  nldr::Stopwatch watch;
  const auto graph = nldr::KNearest{.k = k, .backend = backend}(X);
  const double seconds = watch.seconds();
  std::printf("seconds=%.6f cpu_seconds=%.6f peak_rss_mib=%.1f checksum=%.12g\n", seconds, cpu_seconds() - cpu_start, peak_rss_mib(), kth_distance_sum(graph, k));
  return 0;
}

int run(const std::map<std::string, std::string>& options) {
  const long n = std::stol(options.at("n")), d = std::stol(options.at("d"));
  const int k = options.count("k") ? std::stoi(options.at("k")) : 10;
  const auto backend = backend_named(options.count("backend") ? options.at("backend") : "automatic");
  nldr::Matrix<double> data(n, d);
  std::ifstream in(options.at("data"), std::ios::binary);
  in.read(reinterpret_cast<char*>(data.data()), std::streamsize(sizeof(double) * std::size_t(n * d)));
  if (!in) throw std::runtime_error("cannot read " + std::to_string(n * d) + " doubles from " + options.at("data"));
  // The float copy is made only when asked for: the double case reads no more than it needs.
  if (options.count("float")) return run_case<float>(nldr::Matrix<float>(data.cast<float>()), k, backend);
  return run_case<double>(data, k, backend);
}

double best_of(int repeats, const nldr::Matrix<double>& X, int k, nldr::SearchBackend backend) {
  double best = 1e300;
  for (int r = 0; r < repeats; ++r) {
    nldr::Stopwatch watch;
    const auto graph = nldr::KNearest{.k = k, .backend = backend}(X);
    best = std::min(best, watch.seconds());
    if (graph.num_edges() == 0) std::abort();
  }
  return best;
}

// Swiss roll (t in [1.5 pi, 4.5 pi], height in [0, 21]) mapped into R^D by a random orthonormal
// D x 3 matrix, plus noise of standard deviation 0.01 on each of the D coordinates.
nldr::Matrix<double> embedded_swiss_roll(long n, int d, nldr::Random& rng) {
  Eigen::MatrixXd gaussian(d, 3);
  for (Eigen::Index i = 0; i < gaussian.size(); ++i) gaussian.data()[i] = rng.normal();
  const Eigen::MatrixXd basis = Eigen::HouseholderQR<Eigen::MatrixXd>(gaussian).householderQ() * Eigen::MatrixXd::Identity(d, 3);
  nldr::Matrix<double> X(n, d);
  for (long i = 0; i < n; ++i) {
    const double t = 1.5 * M_PI * (1.0 + 2.0 * rng.uniform());
    const Eigen::Vector3d roll(t * std::cos(t), 21.0 * rng.uniform(), t * std::sin(t));
    X.row(i) = (basis * roll).transpose();
    for (int c = 0; c < d; ++c) X(i, c) += 0.01 * rng.normal();
  }
  return X;
}

int crossover(const std::map<std::string, std::string>& options) {
  const long n = options.count("n") ? std::stol(options.at("n")) : 20000;
  const int k = options.count("k") ? std::stoi(options.at("k")) : 10;
  std::printf("N = %ld, k = %d, %d threads, best of 3 (seconds)\n\n", n, k, nldr::max_threads());
  std::printf("| D | uniform: k-d tree | uniform: brute force | Swiss roll in R^D: k-d tree | Swiss roll: brute force |\n");
  std::printf("|---|---|---|---|---|\n");
  for (int d : {3, 5, 8, 12, 16, 20, 24, 32, 48, 64}) {
    nldr::Random rng{std::uint64_t(d)};
    nldr::Matrix<double> uniform(n, d);
    for (long i = 0; i < n * d; ++i) uniform.data()[i] = rng.uniform();
    const nldr::Matrix<double> roll = embedded_swiss_roll(n, d, rng);
    std::printf("| %d | %.4f | %.4f | %.4f | %.4f |\n", d, best_of(3, uniform, k, nldr::SearchBackend::kdtree),
                best_of(3, uniform, k, nldr::SearchBackend::brute_force), best_of(3, roll, k, nldr::SearchBackend::kdtree),
                best_of(3, roll, k, nldr::SearchBackend::brute_force));
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "run") return run(parse(argc, argv, 2));
    if (mode == "crossover") return crossover(parse(argc, argv, 2));
    std::cerr << "usage: bench_knn run --data FILE --n N --d D [--k 10] [--backend B] [--float]\n"
                 "       bench_knn crossover [--n 20000] [--k 10]\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "bench_knn: " << e.what() << "\n";
    return 1;
  }
}
