// What nldr::tune's one neighbor search saves: a sweep over k against independent runs (a kNN search and
// an embedding per k), on the Swiss roll. The sweep's stages are timed separately (its criteria are extra
// work that the independent runs do not do); both sides produce the same embeddings.
//
//   bench_tune_sweep isomap|lle N K_MIN K_MAX [RANK_K_MAX]    e.g. isomap 5000 5 24; lle 50000 5 24 50
#include <nldr/core/resources.hpp>
#include <nldr/datasets/swiss_roll.hpp>
#include <nldr/embed/isomap.hpp>
#include <nldr/embed/lle.hpp>
#include <nldr/neighbors/knn.hpp>
#include <nldr/tune/sweep.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: bench_tune_sweep isomap|lle N K_MIN K_MAX [RANK_K_MAX]\n");
    return 2;
  }
  const std::string method = argv[1];
  const auto n = nldr::index_t(std::atoi(argv[2]));
  const auto k_min = nldr::index_t(std::atoi(argv[3])), k_max = nldr::index_t(std::atoi(argv[4]));
  const auto rank_k_max = argc > 5 ? nldr::index_t(std::atoi(argv[5])) : nldr::index_t(0);
  const auto data = nldr::datasets::swiss_roll<double>({.n = n, .seed = 1});
  const auto& X = data.points;
  const auto embed = [&](const nldr::NeighborGraph<double>& graph) -> nldr::Matrix<double> {
    if (method == "isomap") return nldr::Isomap{{.dim = 2}}.embed(X, graph).coordinates;
    return nldr::LocallyLinearEmbedding{{.dim = 2}}.embed(X, graph).coordinates;
  };

  // Independent runs before and after the sweep: on a shared machine the spread between the two says how
  // far the timings can be trusted.
  const auto independent_runs = [&] {
    nldr::Stopwatch clock;
    double knn_s = 0, embed_s = 0;
    for (nldr::index_t k = k_min; k <= k_max; ++k) {
      clock.restart();
      const auto graph = nldr::KNearest{k}(X);
      knn_s += clock.seconds();
      clock.restart();
      const auto Y = embed(graph);
      embed_s += clock.seconds();
    }
    std::printf("independent runs: knn %.2f s + embed %.2f s = %.2f s\n", knn_s, embed_s, knn_s + embed_s);
    return knn_s + embed_s;
  };
  std::printf("%s N = %d, k = %d..%d (%d values), %d thread(s)\n", method.c_str(), n, k_min, k_max, k_max - k_min + 1,
              nldr::max_threads());
  const double before = independent_runs();
  const auto result = nldr::tune(X, {.k_min = k_min, .k_max = k_max, .criteria = {.rank_k_max = rank_k_max},
                                     .suggest_dimension = false},
                                 embed);
  double sweep_knn = 0, sweep_embed = 0, sweep_criteria = 0;
  for (const auto& [stage, seconds] : result.times.stages) {
    if (stage == "knn") sweep_knn = seconds;
    if (stage == "embed") sweep_embed = seconds;
    if (stage == "criteria") sweep_criteria = seconds;
  }
  const double after = independent_runs();
  std::printf("sweep: knn %.2f s + embed %.2f s = %.2f s (ratio to the independent runs %.2f and %.2f); criteria %.2f s more\n",
              sweep_knn, sweep_embed, sweep_knn + sweep_embed, (sweep_knn + sweep_embed) / before,
              (sweep_knn + sweep_embed) / after, sweep_criteria);
  std::printf("best k by %s: %d\n", std::string(nldr::criterion_name(result.criterion)).c_str(), result.best_k);
  return 0;
}
