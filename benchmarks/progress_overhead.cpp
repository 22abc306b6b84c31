// What progress reporting costs (docs/tool.md, "Progress and logging"): one registry method fit
// on the Swiss roll with and without a progress callback, alternating, in one process; the
// callback does what the tool's does when stderr is not a terminal (reads a flag). Prints the
// median of each, their ratio and how many reports a fit makes.
//
//   bench_progress_overhead METHOD N [K] [REPEATS]    e.g. lle 20000 10 5; isomap 3000 10 5
#include <nldr/core/resources.hpp>
#include <nldr/datasets/swiss_roll.hpp>
#include <nldr/neighbors/knn.hpp>
#include <nldr/registry/embedders.hpp>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: bench_progress_overhead METHOD N [K] [REPEATS]\n");
    return 2;
  }
  const auto& method = nldr::find_embedder(argv[1]);
  const auto n = nldr::index_t(std::atoi(argv[2]));
  const auto k = nldr::index_t(argc > 3 ? std::atoi(argv[3]) : 10);
  const int repeats = argc > 4 ? std::atoi(argv[4]) : 5;
  const auto data = nldr::datasets::swiss_roll<double>({.n = n, .seed = 1});
  const nldr::Matrix<double> X = data.points;
  const auto graph = nldr::KNearest{k}(X);

  std::atomic<bool> stop{false};
  std::size_t reports = 0;
  const nldr::ProgressCallback callback = [&](double) { return ++reports, !stop.load(std::memory_order_relaxed); };
  const auto fit_seconds = [&](const nldr::ProgressCallback* progress) {
    nldr::FitInput<double> input{.points = &X, .graph = method.accepts(nldr::needs_graph) ? &graph : nullptr};
    input.progress = progress;
    nldr::Stopwatch clock;
    (void)method.fit(input, {});
    return clock.seconds();
  };
  std::vector<double> without, with;
  for (int r = 0; r < repeats; ++r) {
    without.push_back(fit_seconds(nullptr));
    reports = 0;
    with.push_back(fit_seconds(&callback));
  }
  const auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  std::printf("%s N = %d k = %d, %d repeats: without %.3f s, with %.3f s (median), ratio %.4f, %zu reports per fit\n",
              argv[1], int(n), int(k), repeats, median(without), median(with), median(with) / median(without),
              reports);
  return 0;
}
