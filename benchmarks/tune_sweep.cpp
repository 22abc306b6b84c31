// What a sweep over k costs against independent runs (the target: 20 values of k in at most 1/3 of
// the time of 20 independent runs; docs/tuning.md, "Sweep cost"), on the Swiss roll.
//
//   bench_tune_sweep isomap|lle N K_MIN K_MAX [RANK_K_MAX [LANDMARKS]]   e.g. isomap 5000 5 24; lle 50000 5 24 30
//
// The driver re-executes itself once per side, so no side inherits another's heap or warm caches:
//   independent  a user's 20 runs: KNearest{k} + fit, for every k;
//   sweep        nldr::tune's embedding path: one KNearest{k_max}, then knn_prefix + fit for every k;
//   criteria     nldr::tune's own extra work, per k: evaluate_criteria of one embedding (k = K_MIN), timed
//                once and multiplied by the number of k (the criteria do not depend on k beyond the graph's
//                geodesics, and at N = 50,000 running them 20 times would take longer than the embeddings);
//   landmarks    (isomap) nldr::tune scoring through landmarks, whole: one KNearest{k_max}, per k Landmark Isomap
//                (LANDMARKS, 0 = nldr::default_scoring_landmarks) and every criterion, then Isomap once at the
//                pick and its criteria (docs/tuning.md, "Scoring through landmarks");
// and runs the independent side again after the others: on a shared machine the spread between the two
// says how far the timings can be trusted. Each side prints its figures and the load average.
#include "load_average.hpp"

#include <nldr/core/resources.hpp>
#include <nldr/datasets/swiss_roll.hpp>
#include <nldr/embed/isomap.hpp>
#include <nldr/embed/lle.hpp>
#include <nldr/embed/landmark_isomap.hpp>
#include <nldr/neighbors/knn.hpp>
#include <nldr/registry/embedders.hpp>
#include <nldr/tune/criteria.hpp>
#include <nldr/tune/knn_prefix.hpp>
#include <nldr/tune/sweep.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Setup {
  std::string method;
  nldr::index_t n = 0, k_min = 0, k_max = 0, rank_k_max = 0, landmarks = 0;
};

/// The method's stage times (shortest paths, eigensolve, ...) summed over the fits of one side.
using StageSums = std::map<std::string, double>;

nldr::Matrix<double> fit(const Setup& s, const nldr::Matrix<double>& X, const nldr::NeighborGraph<double>& graph,
                         StageSums& stages) {
  const auto add = [&](const nldr::StageTimes& times) {
    for (const auto& [stage, seconds] : times.stages) stages[stage] += seconds;
  };
  if (s.method == "isomap") {
    auto model = nldr::Isomap{{.dim = 2}}.fit(X, graph);
    add(model.times);
    return model.coordinates;
  }
  auto model = nldr::LocallyLinearEmbedding{{.dim = 2}}.fit(X, graph);
  add(model.times);
  return model.coordinates;
}

/// One side in this process; prints "key value" lines for the driver.
int run_side(const std::string& side, const Setup& s) {
  const auto X = nldr::datasets::swiss_roll<double>({.n = s.n, .seed = 1}).points;
  std::printf("load_before %s\n", load_average().c_str());
  nldr::Stopwatch clock;
  double knn = 0, prefix = 0, embed = 0;
  StageSums stages;
  if (side == "independent") {
    for (nldr::index_t k = s.k_min; k <= s.k_max; ++k) {
      clock.restart();
      const auto graph = nldr::KNearest{k}(X);
      knn += clock.seconds();
      clock.restart();
      fit(s, X, graph, stages);
      embed += clock.seconds();
    }
  } else if (side == "sweep") {
    clock.restart();
    const auto widest = nldr::KNearest{s.k_max}(X);
    knn = clock.seconds();
    for (nldr::index_t k = s.k_min; k <= s.k_max; ++k) {
      clock.restart();
      const auto graph = nldr::knn_prefix(widest, k);
      prefix += clock.seconds();
      clock.restart();
      fit(s, X, graph, stages);
      embed += clock.seconds();
    }
  } else if (side == "criteria") {
    const auto graph = nldr::KNearest{s.k_min}(X);
    const auto Y = fit(s, X, graph, stages);
    stages.clear();
    clock.restart();
    nldr::evaluate_criteria(X, graph, Y, {.rank_k_max = s.rank_k_max});
    std::printf("criteria_per_k %.4f\n", clock.seconds());
  } else if (side == "landmarks") {
    const nldr::index_t m = s.landmarks > 0 ? s.landmarks : nldr::default_scoring_landmarks(s.n);
    const auto result = nldr::tune(
        X, {.k_min = s.k_min, .k_max = s.k_max, .criteria = {.rank_k_max = s.rank_k_max}, .suggest_dimension = false},
        [&](const nldr::NeighborGraph<double>& graph) {
          auto model = nldr::LandmarkIsomap{{.dim = 2, .landmarks = m}}.fit(X, graph);
          for (const auto& [stage, seconds] : model.times.stages) stages[stage] += seconds;
          return model.coordinates;
        },
        [&](const nldr::NeighborGraph<double>& graph) { return nldr::Isomap{{.dim = 2}}.fit(X, graph).coordinates; });
    for (const auto& [stage, seconds] : result.times.stages) {
      std::printf("tune:%s %.4f\n", stage.c_str(), seconds);
      (stage == "knn" ? knn : embed) += seconds;  // embed: the stand-in fits, the criteria and the exact fit
    }
    std::printf("landmarks %d\nbest_k %d\n", m, result.best_k);
  } else {
    std::fprintf(stderr, "bench_tune_sweep: unknown side %s\n", side.c_str());
    return 2;
  }
  std::printf("knn %.4f\nprefix %.4f\nembed %.4f\n", knn, prefix, embed);
  for (const auto& [stage, seconds] : stages) {
    std::string key = stage;
    std::replace(key.begin(), key.end(), ' ', '_');  // one word per key
    std::printf("stage:%s %.4f\n", key.c_str(), seconds);
  }
  std::printf("load_after %s\n", load_average().c_str());
  return 0;
}

/// Runs one side as a child process and reads its "key value" lines.
std::map<std::string, std::string> child(const std::string& self, const std::string& side, const std::string& args) {
  const std::string command = "'" + self + "' --side " + side + " " + args;
  std::map<std::string, std::string> values;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return values;
  char line[512];
  while (std::fgets(line, sizeof line, pipe)) {
    std::istringstream in(line);
    std::string key, rest;
    in >> key;
    std::getline(in >> std::ws, rest);
    values[key] = rest;
  }
  if (pclose(pipe) != 0) std::fprintf(stderr, "bench_tune_sweep: side %s failed\n", side.c_str());
  return values;
}

std::string text(const std::map<std::string, std::string>& values, const std::string& key) {
  const auto it = values.find(key);
  return it == values.end() ? "?" : it->second;
}

double number(const std::map<std::string, std::string>& values, const std::string& key) {
  return std::atof(text(values, key).c_str());
}

void print_stages(const char* title, const std::map<std::string, std::string>& values) {
  std::printf("  %s stages:", title);
  for (const auto& [key, value] : values)
    if (key.rfind("stage:", 0) == 0) std::printf(" %s %.2f s;", key.substr(6).c_str(), std::atof(value.c_str()));
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  const bool is_side = argc > 2 && std::string(argv[1]) == "--side";
  const int first = is_side ? 3 : 1;
  if (argc < first + 4 || (std::string(argv[first]) != "isomap" && std::string(argv[first]) != "lle")) {
    std::fprintf(stderr, "usage: bench_tune_sweep isomap|lle N K_MIN K_MAX [RANK_K_MAX [LANDMARKS]]\n");
    return 2;
  }
  const auto argument = [&](int i) { return argc > first + i ? nldr::index_t(std::atoi(argv[first + i])) : 0; };
  const Setup s{argv[first], argument(1), argument(2), argument(3), argument(4), argument(5)};
  if (is_side) return run_side(argv[2], s);

  std::string args;
  for (int i = 1; i < argc; ++i) args += std::string(argv[i]) + " ";
  const int count = s.k_max - s.k_min + 1;
  std::printf("%s, Swiss roll N = %d, k = %d..%d (%d values), %d thread(s), criteria rank_k_max = %d\n",
              s.method.c_str(), s.n, s.k_min, s.k_max, count, nldr::max_threads(), s.rank_k_max);
  const auto total = [&](const auto& v) { return number(v, "knn") + number(v, "prefix") + number(v, "embed"); };
  // Each side is printed as soon as it ends (a long run stopped early keeps what it measured).
  const auto side = [&](const char* name, const char* which) {
    auto v = child(argv[0], which, args);
    std::printf("%-18s knn %8.2f s  prefix %6.2f s  embed %8.2f s  total %8.2f s   load %s -> %s\n", name,
                number(v, "knn"), number(v, "prefix"), number(v, "embed"), total(v), text(v, "load_before").c_str(),
                text(v, "load_after").c_str());
    print_stages(name, v);
    std::fflush(stdout);
    return v;
  };
  const auto before = side("independent (1st)", "independent");
  const auto sweep = side("sweep", "sweep");
  const auto criteria = child(argv[0], "criteria", args);
  const double per_k = number(criteria, "criteria_per_k");
  std::printf("criteria (the sweep's extra work): %.2f s per k, %.2f s for %d values\n", per_k, per_k * count, count);
  std::printf("sweep / independent (1st), embedding work: %.2f; with the criteria: %.2f  (target <= 0.33)\n",
              total(sweep) / total(before), (total(sweep) + per_k * count) / total(before));
  std::fflush(stdout);
  std::optional<std::map<std::string, std::string>> landmarks;
  if (s.method == "isomap") {
    landmarks = side("landmarks (all)", "landmarks");
    std::printf("  landmarks %s, best k %s; tune stages:", text(*landmarks, "landmarks").c_str(),
                text(*landmarks, "best_k").c_str());
    for (const auto& [key, value] : *landmarks)
      if (key.rfind("tune:", 0) == 0) std::printf(" %s %.2f s;", key.substr(5).c_str(), std::atof(value.c_str()));
    std::printf("\nlandmarks (with criteria and the exact fit) / independent (1st): %.2f  (target <= 0.33)\n",
                total(*landmarks) / total(before));
    std::fflush(stdout);
  }
  const auto after = side("independent (2nd)", "independent");
  std::printf("sweep / independent (2nd), embedding work: %.2f; with the criteria: %.2f\n", total(sweep) / total(after),
              (total(sweep) + per_k * count) / total(after));
  if (landmarks)
    std::printf("landmarks (with criteria and the exact fit) / independent (2nd): %.2f\n", total(*landmarks) / total(after));
  return 0;
}
