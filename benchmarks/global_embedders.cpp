// Global embedders benchmark: Isomap, Landmark Isomap and PCA on seeded data, one run per
// process (so the peak resident memory belongs to that run), one JSON line on stdout.
// benchmarks/global_compare.py runs it side by side with scikit-learn on the same data.
//
//   bench_global_embedders data swiss N SEED OUT.csv      write the Swiss roll (for scikit-learn)
//   bench_global_embedders data gauss N D SEED OUT.csv    write N x D correlated Gaussian data
//   bench_global_embedders isomap N SEED [K] [float]      kNN(K = 12) + exact Isomap
//   bench_global_embedders landmark N SEED M [K] [REF]    kNN + Landmark Isomap with M random landmarks;
//                                                         REF > 0: residual variance of this embedding
//                                                         and of exact Isomap's (when it fits) over the
//                                                         pairs (s, j) of REF random sources s
//   bench_global_embedders pca N D SEED                   PCA (automatic path), dim 2
#include <nldr/core/random.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/datasets/swiss_roll.hpp>
#include <nldr/embed/isomap.hpp>
#include <nldr/embed/landmark_isomap.hpp>
#include <nldr/embed/pca.hpp>
#include <nldr/neighbors/knn.hpp>
#include <nldr/neighbors/shortest_paths.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

namespace {

using Points = nldr::Matrix<double>;

Points gaussian(int n, int d, std::uint64_t seed) {
  // Digits-like: a few strong directions and a long tail (variance of latent axis a ~ 1/(1+a)).
  nldr::Random random(seed);
  Points latent(n, d), mixing(d, d);
  for (int i = 0; i < n; ++i)
    for (int a = 0; a < d; ++a) latent(i, a) = random.normal() / (1.0 + a);
  for (int a = 0; a < d; ++a)
    for (int b = 0; b < d; ++b) mixing(a, b) = random.normal();
  return latent * mixing;
}

void write_csv(const Points& X, const std::string& path) {
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

// 1 - r^2 between exact geodesics from `sources` and embedding distances, over all (s, j).
double reference_residual(const nldr::NeighborGraph<double>& symmetric, const std::vector<nldr::index_t>& sources,
                          const Points& Y) {
  const auto geodesic = nldr::shortest_paths<double>(symmetric, sources);
  nldr::PearsonAccumulator accumulator;
  for (std::size_t r = 0; r < sources.size(); ++r)
    for (Eigen::Index j = 0; j < Y.rows(); ++j)
      if (j != sources[r]) accumulator.add(geodesic(Eigen::Index(r), j), (Y.row(sources[r]) - Y.row(j)).norm());
  const double r = accumulator.correlation();
  return 1 - r * r;
}

int usage() {
  std::cerr << "usage: see the comment at the top of benchmarks/global_embedders.cpp\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() < 3) return usage();
  const auto arg = [&](std::size_t i, long fallback) { return i < args.size() ? std::atol(args[i].c_str()) : fallback; };
  try {
    if (args[0] == "data" && args[1] == "swiss" && args.size() == 5) {
      write_csv(nldr::datasets::swiss_roll<double>({.n = nldr::index_t(arg(2, 0)), .seed = std::uint64_t(arg(3, 0))})
                    .points,
                args[4]);
      return 0;
    }
    if (args[0] == "data" && args[1] == "gauss" && args.size() == 6) {
      write_csv(gaussian(int(arg(2, 0)), int(arg(3, 0)), std::uint64_t(arg(4, 0))), args[5]);
      return 0;
    }
    const auto n = nldr::index_t(arg(1, 0));
    if (args[0] == "pca") {
      const Points X = gaussian(n, int(arg(2, 0)), std::uint64_t(arg(3, 0)));
      nldr::Stopwatch watch;
      const auto pca = nldr::Pca{{.dim = 2}}.fit(X);
      std::printf("{\"method\": \"pca\", \"n\": %d, \"d\": %ld, \"solver\": \"%s\", \"seconds\": %.4f, "
                  "\"stages\": %s, \"peak_mb\": %.1f, \"ratio\": [%.6f, %.6f]}\n",
                  n, long(X.cols()), pca.diagnostics.solver.c_str(), watch.seconds(), stages_json(pca.times).c_str(),
                  double(nldr::peak_memory_bytes()) / 1048576.0, double(pca.explained_variance_ratio[0]),
                  double(pca.explained_variance_ratio[1]));
      return 0;
    }
    const auto data = nldr::datasets::swiss_roll<double>({.n = n, .seed = std::uint64_t(arg(2, 0))});
    if (args[0] == "isomap") {
      const auto k = nldr::index_t(arg(3, 12));
      const bool single = args.size() > 4 && args[4] == "float";
      nldr::Stopwatch watch;
      const auto graph = nldr::KNearest{k}(data.points);
      const double neighbors = watch.seconds();
      const auto iso =
          nldr::Isomap{{.dim = 2, .storage = single ? nldr::GeodesicStorage::single : nldr::GeodesicStorage::input}}
              .fit(data.points, graph);
      std::printf("{\"method\": \"isomap\", \"n\": %d, \"k\": %d, \"storage\": \"%s\", \"seconds\": %.4f, "
                  "\"neighbors\": %.4f, \"stages\": %s, \"peak_mb\": %.1f, \"residual_variance\": %.6f, "
                  "\"residual_pairs\": %lld, \"solver\": \"%s\", \"matvecs\": %d}\n",
                  n, k, iso.geodesic_storage.c_str(), watch.seconds(), neighbors, stages_json(iso.times).c_str(),
                  double(nldr::peak_memory_bytes()) / 1048576.0, iso.residual_variance,
                  static_cast<long long>(iso.residual_pairs), iso.diagnostics.solver.c_str(), iso.diagnostics.operations);
      return 0;
    }
    if (args[0] == "landmark") {
      const auto m = nldr::index_t(arg(3, 100));
      const auto k = nldr::index_t(arg(4, 12));
      const long reference_sources = arg(5, 0);
      nldr::Stopwatch watch;
      const auto graph = nldr::KNearest{k}(data.points);
      const double neighbors = watch.seconds();
      const auto model = nldr::LandmarkIsomap{{.dim = 2, .landmarks = m}}.fit(data.points, graph);
      const double seconds = watch.seconds();
      const double peak = double(nldr::peak_memory_bytes()) / 1048576.0;
      std::string compare;
      if (reference_sources > 0) {
        // Same reference pairs for both embeddings: exact geodesics from random sources.
        const auto symmetric = nldr::routines::geodesic_graph<double>(data.points, graph, nldr::EdgeLengths::euclidean);
        nldr::Random random(99);
        std::vector<nldr::index_t> sources;
        for (long s = 0; s < reference_sources; ++s) sources.push_back(nldr::index_t(random.below(std::uint64_t(n))));
        compare = ", \"reference_residual_landmark\": " +
                  std::to_string(reference_residual(symmetric, sources, model.coordinates));
        const auto iso = nldr::Isomap{{.dim = 2, .storage = nldr::GeodesicStorage::single}}.fit(data.points, graph);
        compare += ", \"reference_residual_isomap\": " +
                   std::to_string(reference_residual(symmetric, sources, iso.coordinates));
      }
      std::printf("{\"method\": \"landmark-isomap\", \"n\": %d, \"k\": %d, \"landmarks\": %d, \"seconds\": %.4f, "
                  "\"neighbors\": %.4f, \"stages\": %s, \"peak_mb\": %.1f, \"residual_variance\": %.6f%s}\n",
                  n, k, m, seconds, neighbors, stages_json(model.times).c_str(), peak, model.residual_variance,
                  compare.c_str());
      return 0;
    }
  } catch (const nldr::error& e) {
    std::cerr << "error: " << e.what() << '\n';
    return 1;
  }
  return usage();
}
