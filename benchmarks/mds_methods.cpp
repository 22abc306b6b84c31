// SMACOF, Sammon's mapping and diffusion maps, one run per process, one JSON line on stdout
// (benchmarks/mds_compare.py runs the SMACOF and Sammon modes beside scikit-learn and R's MASS).
//
//   bench_mds_methods smacof IN.csv metric|nonmetric N_INIT MAX_ITER TOL OUT.csv
//   bench_mds_methods sammon IN.csv MAX_ITER TOL OUT.csv
//        IN.csv: N x D points (no header); OUT.csv: the N x 2 configuration (for the driver's stress)
//   bench_mds_methods diffusion N SEED K ALPHA [nonuniform]
//        Swiss roll (seed's definition, docs/datasets.md), kNN(K), diffusion maps d = 2, t = 1; prints
//        the times and the residual variance of (y_1, y_2) against (arc length, height)
#include <nldr/core/resources.hpp>
#include <nldr/datasets/swiss_roll.hpp>
#include <nldr/embed/diffusion_maps.hpp>
#include <nldr/embed/sammon.hpp>
#include <nldr/embed/smacof.hpp>
#include <nldr/io/csv_read.hpp>
#include <nldr/metrics/residual_variance.hpp>
#include <nldr/neighbors/knn.hpp>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>

namespace {

void write_csv(const nldr::Matrix<double>& X, const std::string& path) {
  std::ofstream out(path);
  out.precision(17);
  for (Eigen::Index i = 0; i < X.rows(); ++i) {
    for (Eigen::Index j = 0; j < X.cols(); ++j) out << (j ? "," : "") << X(i, j);
    out << '\n';
  }
}

std::string stages_json(const nldr::StageTimes& times) {
  std::string text = "{";
  for (std::size_t s = 0; s < times.stages.size(); ++s)
    text += (s ? ", \"" : "\"") + times.stages[s].first + "\": " + std::to_string(times.stages[s].second);
  return text + "}";
}

nldr::Matrix<double> read_points(const std::string& path) {
  return nldr::io::read_csv<double>(path, {.header = nldr::io::CsvHeader::absent}).values;
}

int usage() {
  std::cerr << "usage: bench_mds_methods smacof IN.csv metric|nonmetric N_INIT MAX_ITER TOL OUT.csv\n"
               "       bench_mds_methods sammon IN.csv MAX_ITER TOL OUT.csv\n"
               "       bench_mds_methods diffusion N SEED K ALPHA [nonuniform]\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage();
  const std::string mode = argv[1];
  if (mode == "smacof" && argc == 8) {
    const auto X = read_points(argv[2]);
    nldr::Stopwatch clock;
    const auto model = nldr::Smacof{{.dim = 2, .metric = std::string(argv[3]) == "metric", .n_init = std::stoi(argv[4]),
                                     .max_iterations = std::stoi(argv[5]), .tolerance = std::stod(argv[6])}}
                           .fit(X);
    const double seconds = clock.seconds();
    write_csv(model.coordinates, argv[7]);
    std::printf("{\"seconds\": %.6f, \"stress\": %.17g, \"normalized_stress\": %.17g, \"kruskal_stress\": %.17g, "
                "\"iterations\": %d, \"converged\": %s, \"best_run\": %d, \"peak_mb\": %.1f}\n",
                seconds, model.stress, model.normalized_stress, model.kruskal_stress, model.iterations,
                model.status == nldr::MajorizationStatus::converged ? "true" : "false", model.best_run,
                double(nldr::peak_memory_bytes()) / 1048576.0);
    return 0;
  }
  if (mode == "sammon" && argc == 6) {
    const auto X = read_points(argv[2]);
    nldr::Stopwatch clock;
    const auto model =
        nldr::Sammon{{.dim = 2, .max_iterations = std::stoi(argv[3]), .tolerance = std::stod(argv[4])}}.fit(X);
    const double seconds = clock.seconds();
    write_csv(model.coordinates, argv[5]);
    std::printf("{\"seconds\": %.6f, \"stress\": %.17g, \"iterations\": %d, \"converged\": %s, \"peak_mb\": %.1f}\n",
                seconds, model.stress, model.iterations,
                model.status == nldr::MajorizationStatus::converged ? "true" : "false",
                double(nldr::peak_memory_bytes()) / 1048576.0);
    return 0;
  }
  if (mode == "diffusion" && (argc == 6 || argc == 7)) {
    const nldr::datasets::Options options{.n = std::stoi(argv[2]), .seed = std::stoull(argv[3])};
    const auto data = argc == 7 ? nldr::datasets::nonuniform_swiss_roll<double>(options)
                                : nldr::datasets::swiss_roll<double>(options);
    nldr::Stopwatch clock;
    const auto graph = nldr::KNearest{std::stoi(argv[4])}(data.points);
    const double neighbors = clock.seconds();
    clock.restart();
    const auto model = nldr::DiffusionMaps{{.dim = 2, .alpha = std::stod(argv[5])}}.fit(data.points, graph);
    const double fit = clock.seconds();
    const double rv = nldr::metrics::residual_variance(data.intrinsic, model.coordinates).value;
    std::printf("{\"neighbors\": %.3f, \"fit\": %.3f, \"seconds\": %.3f, \"stages\": %s, \"solver\": \"%s\", "
                "\"factorization\": %.3f, \"restarts\": %d, \"solves\": %d, \"eigenvalues\": [%.10f, %.10f], "
                "\"bandwidth\": %.6g, \"residual_variance\": %.6f, \"peak_mb\": %.1f}\n",
                neighbors, fit, neighbors + fit, stages_json(model.times).c_str(), model.diagnostics.solver.c_str(),
                model.diagnostics.factorization_seconds, model.diagnostics.iterations, model.diagnostics.operations,
                double(model.eigenvalues[0]), double(model.eigenvalues[1]), model.bandwidth, rv,
                double(nldr::peak_memory_bytes()) / 1048576.0);
    return 0;
  }
  return usage();
}
