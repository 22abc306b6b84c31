// Neighborhood-selector benchmark (docs/benchmarks.md, "Neighborhood selectors").
//
//   bench_selectors [--n 100000] [--repeats 3]
// On a Swiss roll (datasets::swiss_roll, seed 7, no noise) of N points, times the plain kNN graph
// (KNearest) and each pruning selector with the same candidates, and prints a markdown table:
// median CPU seconds (all threads) and median wall seconds over the repeats, each with its ratio to
// the kNN build with the same k. Run with OMP_WAIT_POLICY=passive for honest CPU figures: by default
// an idle OpenMP thread spins after a parallel region, and that counts as CPU time.
// Then, on 2000 points with K = 40 (the setting of Xia et al. 2008): the short-circuit pruning pass
// alone (candidates precomputed), and the R*-tree build and per-query times that Xia et al. 2008 report
// (250 ms build, 0.4 ms per query on a Pentium 4).
#include <nldr/core/resources.hpp>
#include <nldr/datasets/swiss_roll.hpp>
#include <nldr/neighbors/curvature_adaptive.hpp>
#include <nldr/neighbors/gaussian_pruned.hpp>
#include <nldr/neighbors/rstar_box_index.hpp>
#include <nldr/neighbors/shared_neighbors.hpp>
#include <nldr/neighbors/short_circuit_pruned.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <sys/resource.h>
#include <vector>

namespace {

using Graph = nldr::NeighborGraph<double>;

/// User + system CPU seconds of this process so far (all threads).
double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + 1e-6 * double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
}

struct Seconds {
  double cpu;   ///< user + system, all threads
  double wall;
};

/// Median CPU and median wall seconds of `repeats` runs. Both: CPU time says what the work costs
/// on a shared machine, wall time what a user waits for on an idle one.
template <class F>
Seconds median_seconds(int repeats, F&& run) {
  std::vector<double> cpu, wall;
  for (int r = 0; r < repeats; ++r) {
    const double start = cpu_seconds();
    const nldr::Stopwatch clock;
    const Graph graph = run();
    wall.push_back(clock.seconds());
    cpu.push_back(cpu_seconds() - start);
    if (graph.size() == 0) std::abort();  // keep the result alive
  }
  std::sort(cpu.begin(), cpu.end());
  std::sort(wall.begin(), wall.end());
  return {cpu[cpu.size() / 2], wall[wall.size() / 2]};
}

/// Candidate "selector" handing out a graph computed beforehand: times a pruning pass alone.
struct Precomputed {
  const Graph* graph;
  template <class Derived>
  Graph operator()(const Eigen::MatrixBase<Derived>&) const {
    return *graph;
  }
};

}  // namespace

int main(int argc, char** argv) {
  int n = 100000, repeats = 3;
  for (int a = 1; a + 1 < argc; a += 2) {
    const std::string key = argv[a];
    if (key == "--n") n = std::atoi(argv[a + 1]);
    if (key == "--repeats") repeats = std::atoi(argv[a + 1]);
  }
  const auto data = nldr::datasets::swiss_roll<double>({.n = n, .noise = 0.0, .seed = 7});
  const auto& X = data.points;
  std::printf("Swiss roll N = %d, %d threads, medians of %d runs\n\n", n, nldr::max_threads(), repeats);
  std::printf("| selector | k | CPU s | / kNN(k) | wall s | / kNN(k) | pruned | re-added | fallback |\n"
              "|---|---|---|---|---|---|---|---|---|\n");
  for (int k : {12, 40}) {
    const Seconds knn = median_seconds(repeats, [&] { return nldr::KNearest{k}(X); });
    std::printf("| KNearest | %d | %.3f | 1.00 | %.3f | 1.00 | - | - | - |\n", k, knn.cpu, knn.wall);
    auto row = [&](const char* name, auto selector) {
      Graph last;
      const Seconds t = median_seconds(repeats, [&] { return last = selector(X); });
      const auto& r = last.selection();
      std::printf("| %s | %d | %.3f | %.2f | %.3f | %.2f | %.1f%% | %ld | %d |\n", name, k, t.cpu, t.cpu / knn.cpu,
                  t.wall, t.wall / knn.wall,
                  100.0 * double(r.pruned_edges) / double(r.candidate_edges), long(r.reconnected_edges),
                  r.fallback_points);
    };
    const nldr::KNearest c{k};
    row("SharedNeighbors", nldr::SharedNeighbors{c});
    row("GaussianPruned (spread)", nldr::GaussianPruned{c});
    row("GaussianPruned (most_probable)", nldr::GaussianPruned{c, {.rule = nldr::GaussianRule::most_probable}});
    row("CurvatureAdaptive", nldr::CurvatureAdaptive{c});
    row("ShortCircuitPruned (k-d tree)", nldr::ShortCircuitPruned{c});
#if defined(NLDR_HAS_RSTAR_BOX_INDEX)
    row("ShortCircuitPruned (R*-tree)", nldr::ShortCircuitPruned<nldr::KNearest, nldr::RStarBoxes<3>>{c});
#endif
  }

  // The setting of Xia et al. 2008: 2000 points, K = 40.
  const auto small = nldr::datasets::swiss_roll<double>({.n = 2000, .noise = 0.0, .seed = 7});
  const Graph candidates = nldr::KNearest{40}(small.points);
  const int small_repeats = 21;
  const double copy = median_seconds(small_repeats, [&] { return Precomputed{&candidates}(small.points); }).cpu;
  const double kd_pass =
      median_seconds(small_repeats, [&] { return nldr::ShortCircuitPruned{Precomputed{&candidates}}(small.points); }).cpu;
  std::printf("\nN = 2000, K = 40, median of %d: short-circuit pruning pass (candidates given) k-d tree %.2f ms",
              small_repeats, 1e3 * (kd_pass - copy));
#if defined(NLDR_HAS_RSTAR_BOX_INDEX)
  const double rs_pass = median_seconds(small_repeats, [&] {
    return nldr::ShortCircuitPruned<Precomputed, nldr::RStarBoxes<3>>{Precomputed{&candidates}}(small.points);
  }).cpu;
  std::printf(", R*-tree %.2f ms\n", 1e3 * (rs_pass - copy));
  std::vector<double> builds;
  for (int r = 0; r < small_repeats; ++r) {
    const double start = cpu_seconds();
    const nldr::RStarBoxIndex<double, 3> index(small.points);
    builds.push_back(cpu_seconds() - start);
    if (index.size() != 2000) std::abort();
  }
  std::sort(builds.begin(), builds.end());
  const nldr::RStarBoxIndex<double, 3> index(small.points);
  const double start = cpu_seconds();
  long found = 0;
  for (int i = 0; i < 2000; ++i) {
    std::vector<double> lo(3), hi(3);
    for (int c = 0; c < 3; ++c) {
      lo[c] = small.points(i, c) - 1.0;
      hi[c] = small.points(i, c) + 1.0;
    }
    found += index.count_in_box(std::span<const double>(lo), std::span<const double>(hi), 2000);
  }
  std::printf("R*-tree on 2000 points: build %.3f ms, box query (half-width 1, %.1f points found on average) %.2f us\n",
              1e3 * builds[builds.size() / 2], double(found) / 2000, 1e6 * (cpu_seconds() - start) / 2000);
#else
  std::printf("\n");
#endif
  return 0;
}
