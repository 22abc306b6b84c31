// p-ISOMAP's idea measured: updating all-pairs geodesics as k grows (extend_geodesics, edges only added)
// against recomputing them with Dijkstra for every k, on the Swiss roll. Prints one line per k and the
// totals; every update is checked against the recomputation (largest relative difference).
//
//   bench_incremental_geodesics N K_MIN K_MAX [SEED]      e.g. 5000 5 24 1 (20 values of k)
#include <nldr/core/resources.hpp>
#include <nldr/datasets/swiss_roll.hpp>
#include <nldr/neighbors/knn.hpp>
#include <nldr/neighbors/shortest_paths.hpp>
#include <nldr/tune/incremental_geodesics.hpp>
#include <nldr/tune/knn_prefix.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: bench_incremental_geodesics N K_MIN K_MAX [SEED]\n");
    return 2;
  }
  const auto n = nldr::index_t(std::atoi(argv[1]));
  const auto k_min = nldr::index_t(std::atoi(argv[2])), k_max = nldr::index_t(std::atoi(argv[3]));
  const auto seed = argc > 4 ? std::uint64_t(std::atoll(argv[4])) : std::uint64_t(1);
  const auto roll = nldr::datasets::swiss_roll<double>({.n = n, .seed = seed});
  const auto widest = nldr::KNearest{k_max}(roll.points);
  std::printf("Swiss roll N = %d, k = %d..%d, %d thread(s)\n", n, k_min, k_max, nldr::max_threads());
  std::printf("%4s %12s %12s %10s %14s %10s %12s\n", "k", "recompute_s", "update_s", "ratio", "shortened_frac",
              "new_edges", "max_rel_diff");
  auto before = nldr::knn_prefix(widest, k_min).symmetrized();
  nldr::Stopwatch clock;
  nldr::Matrix<double> incremental = nldr::all_pairs_shortest_paths<double>(before);
  const double first = clock.seconds();
  double total_recompute = first, total_update = first, worst = 0;
  std::printf("%4d %12.3f %12.3f %10s %14s %10s %12s\n", k_min, first, first, "-", "-", "-", "-");
  for (nldr::index_t k = k_min + 1; k <= k_max; ++k) {
    const auto after = nldr::knn_prefix(widest, k).symmetrized();
    clock.restart();
    const auto update = nldr::extend_geodesics(incremental, before, after);
    const double update_s = clock.seconds();
    clock.restart();
    const nldr::Matrix<double> recomputed = nldr::all_pairs_shortest_paths<double>(after);
    const double recompute_s = clock.seconds();
    double diff = 0;
    for (Eigen::Index c = 0; c < recomputed.size(); ++c)
      diff = std::max(diff, std::abs(incremental.data()[c] - recomputed.data()[c]) / std::max(1.0, recomputed.data()[c]));
    worst = std::max(worst, diff);
    total_recompute += recompute_s;
    total_update += update_s;
    std::printf("%4d %12.3f %12.3f %10.2f %14.3f %10lld %12.1e\n", k, recompute_s, update_s, update_s / recompute_s,
                double(update.shortened_pairs) / (double(n) * n), static_cast<long long>(update.added_edges), diff);
    before = after;
  }
  std::printf("total: recompute %.2f s, incremental %.2f s, ratio %.2f, max relative difference %.1e\n",
              total_recompute, total_update, total_update / total_recompute, worst);
  return 0;
}
