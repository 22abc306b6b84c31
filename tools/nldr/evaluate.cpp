// nldr evaluate: every quality measure of one or more embeddings of the same points (docs/metrics.md).
#include "cli.hpp"
#include "report.hpp"

#include <cstdio>
#include <filesystem>

namespace nldr_tool {
namespace {

struct EvaluateArgs {
  std::string in;
  std::vector<std::string> embeddings;  ///< one or more, each evaluated against `in`
  std::optional<std::string> truth, labels;
  std::string pairs;  ///< --pairs: N or "all", the budget of every pair measure; empty: the library's defaults
  nldr::metrics::QualityOptions options;
  Output json;
  PlotFlags plot;
};

void print_quality(const nldr::metrics::QualityReport& q) {
  std::printf("n = %lld, k = %d\n", static_cast<long long>(q.n), int(q.k));
  const auto row = [](const char* name, double value, const char* best) {
    std::printf("  %-24s %10.4f   (%s)\n", name, value, best);
  };
  row("trustworthiness", q.trustworthiness, "1 best");
  row("continuity", q.continuity, "1 best");
  row("R_NX(k)", q.r_nx, "1 best, 0 random");
  row("AUC of R_NX (log K)", q.auc_rnx, "1 best");
  row("LCMC(k)", q.lcmc, "higher better");
  row("MRRE (X neighborhoods)", q.mrre_x, "0 best");
  row("MRRE (Y neighborhoods)", q.mrre_y, "0 best");
  row("Konig", q.konig, "1 best");
  row("Spearman's rho", q.spearman_rho, "1 best");
  row("Kruskal stress (scaled)", q.kruskal_stress_scaled, "0 best");
  row("residual variance, input", q.residual_variance, "0 best; against Euclidean input distances");
  if (q.residual_variance_truth) row("residual variance, truth", *q.residual_variance_truth, "0 best");
  if (q.residual_variance_geodesic)
    std::printf("  %-24s %10.4f   (0 best; against kNN-graph geodesics, k = %d)\n", "residual variance, geodesic",
                *q.residual_variance_geodesic, int(q.geodesic_k));
  else if (q.geodesic_k > 0)
    std::printf("  %-24s %10s   (%s)\n", "residual variance, geodesic", "n/a", q.geodesic_unavailable.c_str());
  if (q.sammon_stress) row("Sammon's stress", *q.sammon_stress, "0 best");
  if (q.knn_error) row("k-NN error (labels)", *q.knn_error, "0 best");
}

int evaluate(EvaluateArgs a, const Session& session) {
  a.plot.check();
  if (!a.pairs.empty()) {
    std::uint64_t budget = nldr::metrics::all_pairs;
    if (a.pairs != "all") {
      const bool digits = a.pairs.find_first_not_of("0123456789") == std::string::npos && a.pairs.size() <= 19;
      budget = digits ? std::stoull(a.pairs) : 0;
      if (budget < 1)
        nldr::throw_invalid("pairs", "--pairs ", a.pairs, " must be a number of pairs >= 1, or all (every pair: the "
                            "exact values, O(N^2) time; Spearman's rho also about 40 bytes a pair)");
    }
    a.options.spearman_max_pairs = a.options.distance_max_pairs = budget;
  }
  for (const Output* o : {&a.json, &a.plot.plot}) check_writable(*o);
  Console console = session.console();
  nldr::StageTimes times;
  nldr::Stopwatch clock;
  const nldr::Matrix<double> X = session.read_points(a.in);
  std::vector<nldr::Matrix<double>> embeddings;
  for (const std::string& path : a.embeddings) {
    embeddings.push_back(session.read_points(path));
    if (embeddings.back().rows() != X.rows())
      nldr::throw_invalid("embedding", path, " has ", embeddings.back().rows(), " rows but ", a.in, " has ", X.rows(),
                          ": the embedding must hold one row per input point, in the same order");
  }
  std::optional<nldr::Matrix<double>> truth;
  if (a.truth) {
    truth = session.read_points(*a.truth);
    if (truth->rows() != X.rows())
      nldr::throw_invalid("truth", *a.truth, " has ", truth->rows(), " rows but ", a.in, " has ", X.rows(),
                          ": give one row of intrinsic coordinates per input point");
  }
  const std::vector<int> labels = a.labels ? session.read_labels(*a.labels, nldr::index_t(X.rows())) : std::vector<int>();
  console.stage(times, "read", clock.seconds());

  if (a.plot.plot.requested()) a.options.curve = true;
  std::vector<nldr::metrics::QualityReport> reports;
  for (std::size_t e = 0; e < embeddings.size(); ++e) {
    const auto& Y = embeddings[e];
    a.options.progress = console.progress(nldr::detail::concat("evaluate ", a.embeddings[e]));
    reports.push_back(truth ? nldr::metrics::quality_report(X, Y, a.options, *truth, labels)
                            : nldr::metrics::quality_report(X, Y, a.options, nullptr, labels));
    for (const auto& [stage, seconds] : reports.back().times.stages) console.stage(times, stage, seconds);
  }
  const auto add_reference = [](JsonValue& json) {
    json["residual_variance_reference"] = "input Euclidean distances";
  };

  if (a.plot.plot.requested()) {
    std::vector<nldr::io::LineSeries> curves;
    for (std::size_t e = 0; e < reports.size(); ++e) {
      nldr::io::LineSeries series{.name = std::filesystem::path(a.embeddings[e]).filename().string()};
      for (std::size_t K = 1; K <= reports[e].r_nx_curve.size(); ++K) {
        series.x.push_back(double(K));
        series.y.push_back(reports[e].r_nx_curve[K - 1]);
      }
      curves.push_back(std::move(series));
    }
    nldr::io::LinePlotOptions options{.log_x = true};
    a.plot.apply(options, "Quality of embeddings of " + std::filesystem::path(a.in).filename().string(), "neighborhood size K", "R_NX(K)");
    nldr::io::write_line_plot(a.plot.plot.path, curves, options);
  }
  if (!a.json.requested()) {
    for (std::size_t e = 0; e < reports.size(); ++e) {
      std::printf("%s\n", a.embeddings[e].c_str());
      print_quality(reports[e]);
    }
    return ok;
  }
  // One embedding: its measures at the top level. Several: an array of them under "embeddings".
  JsonValue report = reports.size() == 1 ? quality_json(reports[0]) : JsonValue::object();
  if (reports.size() == 1) {
    report["embedding"] = a.embeddings[0];
    add_reference(report);
  } else {
    JsonValue list = JsonValue::array();
    for (std::size_t e = 0; e < reports.size(); ++e) {
      JsonValue one = quality_json(reports[e]);
      one["embedding"] = a.embeddings[e];
      add_reference(one);
      list.push_back(std::move(one));
    }
    report["embeddings"] = std::move(list);
  }
  report["command"] = "evaluate";
  report["input"] = a.in;
  add_resources(report, times);
  emit_json(a.json, report);
  return ok;
}

}  // namespace

std::function<int()> add_evaluate(CLI::App& command, Session& session) {
  auto a = std::make_shared<EvaluateArgs>();
  command.add_option("--in,-i", a->in, "Points CSV (N x D)")->required();
  command.add_option("--embedding", a->embeddings, "Embedding CSV (N x d); several compare on one --plot")
      ->required();
  command.add_option("--k", a->options.k, "Neighborhood size of the rank measures")->capture_default_str();
  command.add_option("--konig-k1", a->options.konig_k1, "Konig's measure: k1 (0 = k)")->capture_default_str();
  command.add_option("--konig-k2", a->options.konig_k2, "Konig's measure: k2 (0 = min(2 k1, N - 1))")
      ->capture_default_str();
  command.add_option("--truth", a->truth, "Ground-truth intrinsic coordinates CSV (adds residual_variance_truth)");
  command.add_option("--labels", a->labels, "Class labels CSV (adds knn_error)");
  command.add_flag("--curve", a->options.curve, "Include the R_NX(K) curve in the JSON report");
  command.add_option("--k-max", a->options.k_max, "Largest K of the curve and its AUC (0 = N - 2)")
      ->capture_default_str();
  command.add_option("--geodesic-k", a->options.geodesic_k,
                     "Also residual_variance_geodesic: against geodesics along the kNN graph of --in with this k "
                     "(null, with geodesic_unavailable saying why, when that graph is disconnected)")
      ->check(CLI::Range(1, 1 << 30));
  command.add_option("--pairs", a->pairs,
                     "Pairs of Spearman's rho, the stresses and the residual variances: a number (a seeded sample "
                     "above it), or all for the exact values (default: all up to 10^6 pairs for Spearman, 5 x 10^7 "
                     "for the others; pairs_sampled in --json says which)");
  a->plot.add_to(command, false, "R_NX(K) curves");
  add_json_option(command, a->json);
  add_input_options(command, session);
  add_threads_option(command, session);

  return [a, &session] { return evaluate(*a, session); };
}

}  // namespace nldr_tool
