// Isomap where users wait (issue 32): the many-source shortest paths and the model file, old vs new.
//
//   bench_isomap_speed paths N            all N sources on a Swiss roll's kNN graph (k = 10): one
//                                         Dijkstra per source (DijkstraWorkspace, the previous
//                                         shortest_paths) vs the batched runs (shortest_paths), then
//                                         the whole exact Isomap fit (float storage) with its stages
//   bench_isomap_speed landmarks N M      the same for M random landmarks (Landmark Isomap's step)
//   bench_isomap_speed model N            an Isomap model's file (N training points, double): bytes,
//                                         the previous read (buffered copy + FNV-1a, format 2) vs
//                                         the new one (memory map + XXH3-64, format 3)
// Every new result is checked equal to the old one, bit for bit. The whole `nldr transform`
// process against scikit-learn's transform: benchmarks/transform_compare.py speed.
#include "load_average.hpp"

#include <nldr/core/resources.hpp>
#include <nldr/core/random.hpp>
#include <nldr/datasets/swiss_roll.hpp>
#include <nldr/embed/isomap.hpp>
#include <nldr/io/atomic_file.hpp>
#include <nldr/io/mapped_file.hpp>
#include <nldr/neighbors/knn.hpp>
#include <nldr/neighbors/shortest_paths.hpp>
#include <nldr/registry/model_format.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

/// The previous shortest_paths: one Dijkstra per source, sources in parallel.
nldr::Matrix<float> one_source_at_a_time(const nldr::NeighborGraph<double>& graph, const std::vector<nldr::index_t>& sources) {
  nldr::Matrix<float> result(nldr::index_t(sources.size()), graph.size());
  std::vector<nldr::detail::DijkstraWorkspace> workspaces(std::size_t(nldr::max_threads()));
  nldr::parallel_for(0, std::int64_t(sources.size()), [&](std::int64_t r) {
    workspaces[std::size_t(nldr::thread_index())].run(graph, sources[std::size_t(r)],
                                                       std::span<float>(result.row(r).data(), std::size_t(graph.size())));
  }, 4);
  return result;
}

void compare_paths(const nldr::NeighborGraph<double>& graph, const std::vector<nldr::index_t>& sources) {
  nldr::Stopwatch clock;
  const nldr::Matrix<float> old = one_source_at_a_time(graph, sources);
  const double old_s = clock.seconds();
  clock.restart();
  const nldr::Matrix<float> now = nldr::shortest_paths<float>(graph, sources);
  const double new_s = clock.seconds();
  std::printf("shortest paths, %zu sources, N = %d, %lld edges: one at a time %.2f s, batched %.2f s, %.2fx, %s\n",
              sources.size(), graph.size(), static_cast<long long>(graph.num_edges()), old_s, new_s, old_s / new_s,
              (old.array() == now.array()).all() ? "equal bit for bit" : "DIFFERENT");
}

void model_file(nldr::index_t n) {
  const auto roll = nldr::datasets::swiss_roll<double>({.n = n, .seed = 1});
  auto model = nldr::Isomap{{.dim = 2}}.fit(roll.points, nldr::KNearest{10}(roll.points));
  nldr::detail::ModelWriter writer;
  model.visit(writer);
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("nldr-bench-isomap-" + std::to_string(::getpid()) + ".bin")).string();
  {
    nldr::io::AtomicFile file(path);
    file.write(writer.bytes);
    file.commit();
  }
  const std::size_t bytes = writer.bytes.size();
  writer.bytes = {};
  // Previous read: 64 KiB freads appended to a string, then FNV-1a over it.
  nldr::Stopwatch clock;
  std::string copy;
  copy.reserve(bytes);
  std::FILE* file = std::fopen(path.c_str(), "rb");
  char buffer[1 << 16];
  for (std::size_t got; (got = std::fread(buffer, 1, sizeof buffer, file)) > 0;) copy.append(buffer, got);
  std::fclose(file);
  const double old_read = clock.seconds();
  clock.restart();
  const std::uint64_t old_sum = nldr::detail::model_checksum(2, copy);
  const double old_check = clock.seconds();
  copy = {};
  clock.restart();
  const nldr::io::MappedFile mapped(path);
  const double new_read = clock.seconds();
  clock.restart();
  const std::uint64_t new_sum = nldr::detail::model_checksum(3, mapped.bytes());
  const double new_check = clock.seconds();
  std::printf("Isomap model, N = %d: %.0f MB (%s geodesics)\n", n, double(bytes) / 1e6, model.geodesic_storage.c_str());
  std::printf("  previous (copy + FNV-1a): read %.3f s + checksum %.3f s = %.3f s\n", old_read, old_check,
              old_read + old_check);
  std::printf("  new (map + XXH3-64):      read %.3f s + checksum %.3f s = %.3f s   %.1fx  (sums %016llx %016llx)\n",
              new_read, new_check, new_read + new_check, (old_read + old_check) / (new_read + new_check),
              static_cast<unsigned long long>(old_sum), static_cast<unsigned long long>(new_sum));
  std::filesystem::remove(path);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 2 ? argv[1] : "";
  if (mode != "paths" && mode != "landmarks" && mode != "model") {
    std::fprintf(stderr, "usage: bench_isomap_speed paths N | landmarks N M | model N\n");
    return 2;
  }
  const auto n = nldr::index_t(std::atoi(argv[2]));
  std::printf("%d thread(s), load average %s\n", nldr::max_threads(), load_average().c_str());
  if (mode == "model") {
    model_file(n);
    return 0;
  }
  const auto roll = nldr::datasets::swiss_roll<double>({.n = n, .seed = 1});
  const auto graph = nldr::KNearest{10}(roll.points).symmetrized();
  std::vector<nldr::index_t> sources;
  if (mode == "paths") {
    for (nldr::index_t i = 0; i < n; ++i) sources.push_back(i);
  } else {
    nldr::Random random(3);
    for (int a = 0; a < std::atoi(argv[3]); ++a) sources.push_back(nldr::index_t(random.below(std::uint64_t(n))));
  }
  compare_paths(graph, sources);
  if (mode == "paths") {
    nldr::Stopwatch clock;
    const auto model = nldr::Isomap{{.dim = 2, .storage = nldr::GeodesicStorage::single}}.fit(
        roll.points, nldr::KNearest{10}(roll.points));
    std::printf("exact Isomap, N = %d, float geodesics (%.2f GB): %.2f s; stages:", n,
                double(model.geodesic_bytes) / 1e9, clock.seconds());
    for (const auto& [stage, seconds] : model.times.stages) std::printf(" %s %.2f s;", stage.c_str(), seconds);
    std::printf("\n");
  }
  return 0;
}
