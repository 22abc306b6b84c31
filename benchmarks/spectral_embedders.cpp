// Spectral embedders benchmark (docs/benchmarks.md, "Spectral embedders").
//
//   bench_spectral_embedders run --method lle|modified-lle|hessian-lle|ltsa|laplacian --n N [--k 10]
//                                [--seed 0] [--shift SIGMA] [--factorization automatic|simplicial|supernodal|lu]
//                                [--out PREFIX]
//       Generates nldr::datasets::swiss_roll({.n = N, .seed}), builds KNearest{k}, embeds in 2-D and prints
//       one line: total=<s> neighbors=<s> weights=<s> assembly=<s> eigensolve=<s> factorization=<s>
//       iterations=<n> solver=<name> peak_rss_mib=<peak RSS of this process>. With --out it writes
//       PREFIX.X.f64 (N x 3), PREFIX.truth.f64 (N x 2 intrinsic) and PREFIX.Y.f64 (N x 2), little-endian
//       float64 row-major (numpy's tofile), for spectral_compare.py. One case per process.
//   bench_spectral_embedders crossover [--k 10]
//       Times the dense and the sparse shift-invert eigensolver on the same LLE and Laplacian matrices
//       for a range of N, to place BottomEigenOptions::dense_below. Prints a markdown table.
//   bench_spectral_embedders factorizations [--k 10]
//       Times the eigensolve of the same LLE and Laplacian matrices for a range of N with Eigen's simplicial
//       LDLT, CHOLMOD's supernodal LL^T and (LLE) UMFPACK's LU of I - W, given the matrix each one takes
//       (needs SuiteSparse), to place BottomEigenOptions::suitesparse_from. Prints a markdown table.
#include <nldr/core/resources.hpp>
#include <nldr/datasets/swiss_roll.hpp>
#include <nldr/embed/laplacian_eigenmaps.hpp>
#include <nldr/embed/lle.hpp>
#include <nldr/embed/ltsa.hpp>
#include <nldr/neighbors/knn.hpp>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <stdexcept>
#include <string>

namespace {

std::map<std::string, std::string> parse(int argc, char** argv, int first) {
  std::map<std::string, std::string> options;
  for (int a = first; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg.size() < 3 || arg.rfind("--", 0) != 0 || a + 1 >= argc)
      throw std::runtime_error("expected --key value, got " + arg);
    options.insert_or_assign(arg.substr(2), std::string(argv[++a]));
  }
  return options;
}

std::string get(const std::map<std::string, std::string>& options, const std::string& key, const std::string& fallback) {
  const auto found = options.find(key);
  return found == options.end() ? fallback : found->second;
}

template <class Derived>
void write_f64(const std::string& path, const Eigen::MatrixBase<Derived>& m) {
  const nldr::Matrix<double> rows = m.template cast<double>();
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(rows.data()), std::streamsize(rows.size() * sizeof(double)));
  if (!out) throw std::runtime_error("cannot write " + path);
}

// Peak resident memory of this process in MiB (VmHWM on Linux: starts afresh at exec).
double peak_rss_mib() { return double(nldr::peak_memory_bytes()) / (1024.0 * 1024.0); }

double stage(const nldr::StageTimes& times, const std::string& name) {
  double sum = 0;
  for (const auto& [stage_name, seconds] : times.stages)
    if (stage_name == name) sum += seconds;
  return sum;
}

nldr::Factorization factorization(const std::string& name) {
  if (name == "automatic") return nldr::Factorization::automatic;
  if (name == "simplicial") return nldr::Factorization::simplicial;
  if (name == "supernodal") return nldr::Factorization::supernodal;
  if (name == "lu") return nldr::Factorization::lu;
  throw std::runtime_error("unknown factorization " + name + " (automatic, simplicial, supernodal, lu)");
}

template <class Result>
Result embed(const std::string& method, const nldr::Matrix<double>& X, const nldr::NeighborGraph<double>& graph,
             const nldr::BottomEigenOptions& solver) {
  if constexpr (std::is_same_v<Result, nldr::LleModel<double>>) {
    const nldr::LleVariant variant = method == "lle"            ? nldr::LleVariant::standard
                                     : method == "modified-lle" ? nldr::LleVariant::modified
                                                                : nldr::LleVariant::hessian;
    return nldr::LocallyLinearEmbedding{{.dim = 2, .variant = variant, .eigen = solver}}.fit(X, graph);
  } else if constexpr (std::is_same_v<Result, nldr::LaplacianEigenmapsModel<double>>) {
    return nldr::LaplacianEigenmaps{{.dim = 2, .eigen = solver}}.fit(X, graph);
  } else {
    return nldr::Ltsa{{.dim = 2, .eigen = solver}}.fit(X, graph);
  }
}

template <class Result>
void run_case(const std::string& method, const std::map<std::string, std::string>& options) {
  const nldr::index_t n = std::stoi(get(options, "n", "2000"));
  const nldr::index_t k = std::stoi(get(options, "k", "10"));
  const auto data = nldr::datasets::swiss_roll<double>({.n = n, .seed = std::stoull(get(options, "seed", "0"))});
  nldr::Stopwatch clock;
  const auto graph = nldr::KNearest{k}(data.points);
  const double neighbors = clock.seconds();
  const Result result = embed<Result>(method, data.points, graph,
                                      {.factorization = factorization(get(options, "factorization", "automatic")),
                                       .shift = std::stod(get(options, "shift", "0"))});
  const double total = clock.seconds();
  std::printf("total=%.4f neighbors=%.4f weights=%.4f assembly=%.4f eigensolve=%.4f factorization=%.4f "
              "iterations=%d solver=%s peak_rss_mib=%.1f\n",
              total, neighbors, stage(result.times, "weights"), stage(result.times, "assembly"),
              stage(result.times, "eigensolve"), result.diagnostics.factorization_seconds, result.diagnostics.iterations,
              result.diagnostics.solver.c_str(), peak_rss_mib());
  if (const std::string prefix = get(options, "out", ""); !prefix.empty()) {
    write_f64(prefix + ".X.f64", data.points);
    write_f64(prefix + ".truth.f64", data.intrinsic);
    write_f64(prefix + ".Y.f64", result.coordinates);
  }
}

/// A matrix of the spectral layer and its known null vector.
struct TestMatrix {
  nldr::detail::SparseLower lower;
  Eigen::VectorXd null_vector;
};

/// The LLE and normalized-Laplacian matrices of a Swiss roll of n points (kNN(k) graph, seed 1).
struct TestMatrices {
  nldr::Matrix<double> points;
  nldr::NeighborGraph<double> graph;
  TestMatrix lle, laplacian;
};

TestMatrices test_matrices(nldr::index_t n, nldr::index_t k) {
  TestMatrices m;
  m.points = nldr::datasets::swiss_roll<double>({.n = n, .seed = 1}).points;
  m.graph = nldr::KNearest{k}(m.points);
  nldr::StageTimes ignored;
  std::vector<double> errors(std::size_t(n), 0.0);
  auto laplacian = nldr::detail::normalized_laplacian(m.graph, 0.0, ignored);
  m.lle = {nldr::detail::lle_matrix(m.points, m.graph, nldr::LleOptions{}, errors, ignored), Eigen::VectorXd::Ones(n)};
  m.laplacian = {std::move(laplacian.lower), laplacian.inv_sqrt_degree.cwiseInverse()};
  return m;
}

/// Best of 3 wall seconds of solve().
template <class Solve>
double best_of_3(Solve&& solve) {
  double best = 1e300;
  for (int repeat = 0; repeat < 3; ++repeat) {
    nldr::Stopwatch clock;
    solve();
    best = std::min(best, clock.seconds());
  }
  return best;
}

/// Best of 3 wall seconds of the bottom 3 eigenpairs of `matrix` with `options`, its null vector deflated
/// as the embedders do.
double best_solve_seconds(const TestMatrix& matrix, const nldr::BottomEigenOptions& options) {
  return best_of_3([&] { (void)nldr::detail::bottom_eigenpairs(matrix.lower, 3, options, "benchmark", matrix.null_vector); });
}

void crossover(const std::map<std::string, std::string>& options) {
  const nldr::index_t k = std::stoi(get(options, "k", "10"));
  std::printf("| N | LLE dense (s) | LLE sparse (s) | Laplacian dense (s) | Laplacian sparse (s) |\n|---|---|---|---|---|\n");
  for (const nldr::index_t n : {25, 50, 100, 200, 400, 800, 1200}) {
    const auto m = test_matrices(n, k);
    std::printf("| %d", n);
    for (const auto* matrix : {&m.lle, &m.laplacian})
      for (const nldr::index_t dense_below : {n + 1, 0})
        std::printf(" | %.4f", best_solve_seconds(*matrix, {.dense_below = dense_below}));
    std::printf(" |\n");
  }
}

void factorizations(const std::map<std::string, std::string>& options) {
#if defined(NLDR_HAVE_SUITESPARSE)
  const nldr::index_t k = std::stoi(get(options, "k", "10"));
  std::printf("| N | LLE simplicial (s) | LLE supernodal (s) | LLE lu (s) | Laplacian simplicial (s) | "
              "Laplacian supernodal (s) |\n|---|---|---|---|---|---|\n");
  for (const nldr::index_t n : {500, 1000, 2000, 5000, 10000, 20000, 50000, 100000}) {
    const auto m = test_matrices(n, k);
    nldr::StageTimes ignored;
    std::vector<double> errors(std::size_t(n), 0.0);
    const auto weights = nldr::detail::lle_weight_matrix(m.points, m.graph, 1e-3, errors, ignored);
    std::printf("| %d", n);
    for (const auto factorization : {nldr::Factorization::simplicial, nldr::Factorization::supernodal})
      std::printf(" | %.4f", best_solve_seconds(m.lle, {.dense_below = 0, .factorization = factorization}));
    std::printf(" | %.4f", best_of_3([&] { (void)nldr::detail::gram_bottom_eigenpairs(weights, 3, {}, "benchmark"); }));
    for (const auto factorization : {nldr::Factorization::simplicial, nldr::Factorization::supernodal})
      std::printf(" | %.4f", best_solve_seconds(m.laplacian, {.dense_below = 0, .factorization = factorization}));
    std::printf(" |\n");
  }
#else
  (void)options;
  throw std::runtime_error("built without SuiteSparse: nothing to compare");
#endif
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::string command = argc > 1 ? argv[1] : "";
    const auto options = parse(argc, argv, 2);
    if (command == "crossover" || command == "factorizations") {
      (command == "crossover" ? crossover : factorizations)(options);
      return 0;
    }
    if (command != "run")
      throw std::runtime_error("usage: bench_spectral_embedders run|crossover|factorizations [--key value]...");
    const std::string method = get(options, "method", "lle");
    if (method == "lle" || method == "modified-lle" || method == "hessian-lle")
      run_case<nldr::LleModel<double>>(method, options);
    else if (method == "laplacian")
      run_case<nldr::LaplacianEigenmapsModel<double>>(method, options);
    else if (method == "ltsa")
      run_case<nldr::Embedding<double>>(method, options);
    else
      throw std::runtime_error("unknown method " + method);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_spectral_embedders: %s\n", e.what());
    return 1;
  }
}
