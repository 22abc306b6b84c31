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
  std::optional<nldr::index_t> geodesic_k;  ///< also residual variance against kNN-graph geodesics
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
  if (q.knn_error) row("k-NN error (labels)", *q.knn_error, "0 best");
}

int evaluate(EvaluateArgs a, const Session& session) {
  a.plot.check();
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

  // Geodesics along the kNN graph of X (Tenenbaum et al. 2000): against Euclidean input distances,
  // residual variance ranks a flat projection above an unrolled Swiss roll.
  std::optional<nldr::Matrix<double>> geodesics;
  if (a.geodesic_k) {
    clock.restart();
    const auto graph = nldr::KNearest{*a.geodesic_k}(X);
    const auto symmetric = nldr::routines::geodesic_graph<double>(X, graph, nldr::EdgeLengths::euclidean);
    const nldr::Components components = nldr::connected_components(symmetric);
    if (!components.connected())
      throw nldr::disconnected_graph(nldr::detail::concat("the --geodesic-k ", *a.geodesic_k, " graph of ", a.in,
                                                          " has ", nldr::describe_components(components),
                                                          ", so some geodesics are infinite: raise --geodesic-k"));
    geodesics = nldr::all_pairs_shortest_paths<double>(symmetric);
    console.stage(times, "geodesics", clock.seconds());
  }

  if (a.plot.plot.requested()) a.options.curve = true;
  std::vector<nldr::metrics::QualityReport> reports;
  std::vector<double> geodesic_rv;
  for (std::size_t e = 0; e < embeddings.size(); ++e) {
    const auto& Y = embeddings[e];
    a.options.progress = console.progress(nldr::detail::concat("evaluate ", a.embeddings[e]));
    reports.push_back(truth ? nldr::metrics::quality_report(X, Y, a.options, *truth, labels)
                            : nldr::metrics::quality_report(X, Y, a.options, nullptr, labels));
    for (const auto& [stage, seconds] : reports.back().times.stages) console.stage(times, stage, seconds);
    if (geodesics) geodesic_rv.push_back(nldr::metrics::residual_variance(nldr::metrics::precomputed(*geodesics), Y).value);
  }
  // Sammon's stress (Sammon 1969) divides by every input distance: undefined (null) with duplicates.
  std::vector<std::optional<double>> sammon;
  for (const auto& Y : embeddings) {
    try {
      sammon.push_back(nldr::metrics::sammon_stress(X, Y).stress);
    } catch (const nldr::invalid_argument&) {
      sammon.push_back(std::nullopt);
    }
  }
  const auto add_geodesic = [&](JsonValue& json, std::size_t e) {
    json["sammon_stress"] = sammon[e] ? JsonValue(*sammon[e]) : JsonValue(nullptr);
    json["residual_variance_reference"] = "input Euclidean distances";
    if (!geodesics) return;
    json["residual_variance_geodesic"] = geodesic_rv[e];
    json["geodesic_k"] = *a.geodesic_k;
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
      if (sammon[e]) std::printf("  %-24s %10.4f   (0 best)\n", "Sammon's stress", *sammon[e]);
      if (geodesics)
        std::printf("  %-24s %10.4f   (0 best; against kNN-graph geodesics, k = %d)\n", "residual variance, geodesic",
                    geodesic_rv[e], int(*a.geodesic_k));
    }
    return ok;
  }
  // One embedding: its measures at the top level. Several: an array of them under "embeddings".
  JsonValue report = reports.size() == 1 ? quality_json(reports[0]) : JsonValue::object();
  if (reports.size() == 1) {
    report["embedding"] = a.embeddings[0];
    add_geodesic(report, 0);
  } else {
    JsonValue list = JsonValue::array();
    for (std::size_t e = 0; e < reports.size(); ++e) {
      JsonValue one = quality_json(reports[e]);
      one["embedding"] = a.embeddings[e];
      add_geodesic(one, e);
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
  command.add_option("--geodesic-k", a->geodesic_k,
                           "Also residual_variance_geodesic: against geodesics along the kNN graph of --in with this k")
      ->check(CLI::Range(1, 1 << 30));
  a->plot.add_to(command, false, "R_NX(K) curves");
  add_json_option(command, a->json);
  add_input_options(command, session);
  add_threads_option(command, session);

  return [a, &session] { return evaluate(*a, session); };
}

}  // namespace nldr_tool
