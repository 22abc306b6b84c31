// nldr: the command-line tool. Generates data sets, selects neighbors, embeds and evaluates;
// docs/tool.md is its manual. Errors: one line on stderr, a non-zero exit code, no output file
// (every output path is checked before the work starts and written atomically at the end).
#include "methods.hpp"
#include "report.hpp"
#include "selection.hpp"

#include <nldr/nldr.hpp>

#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <new>
#include <optional>
#include <string>
#include <vector>

namespace {

using nldr::io::JsonValue;
using Path = std::filesystem::path;

/// Exit codes (docs/tool.md).
enum Exit : int {
  ok = 0,
  internal_error = 1,  ///< a bug: please report it
  usage_error = 2,     ///< bad command line or parameter value
  io_failure = 3,      ///< unreadable input, unwritable output, malformed CSV
  data_failure = 4,    ///< the data defeat the method: disconnected graph, no convergence, out of memory
};

/// An optional output: a path, "-" for standard output (JSON only), or nothing.
struct Output {
  std::string path;
  bool requested() const { return !path.empty(); }
  bool to_stdout() const { return path == "-"; }
};

/// Fails now, before any work, if `output` could not be written later (missing directory, a
/// directory in its place, no permission). Leaves nothing behind.
void check_writable(const Output& output) {
  if (output.requested() && !output.to_stdout()) nldr::io::AtomicFile probe(output.path);
}

void emit_json(const Output& output, const JsonValue& json) {
  if (output.to_stdout())
    std::cout << json.dump() << '\n';
  else if (output.requested())
    nldr::io::write_json(output.path, json);
}

nldr::Matrix<double> read_points(const std::string& path) { return nldr::io::read_csv<double>(path).values; }

/// One value per point (labels or colors) from a one-column CSV file.
nldr::Vector<double> read_column(const std::string& path, nldr::index_t n, const std::string& parameter) {
  const nldr::Matrix<double> values = read_points(path);
  if (values.cols() != 1 || values.rows() != n)
    nldr::throw_invalid(parameter, path, " is ", values.rows(), " x ", values.cols(), " but must hold one value per "
                        "point: ", n, " rows, 1 column");
  return values.col(0);
}

std::vector<int> read_labels(const std::string& path, nldr::index_t n) {
  const nldr::Vector<double> column = read_column(path, n, "labels");
  std::vector<int> labels(column.size());
  for (Eigen::Index i = 0; i < column.size(); ++i) {
    if (column[i] != std::round(column[i]) || std::abs(column[i]) > 1e9)
      nldr::throw_invalid("labels", path, " row ", i + 1, " holds ", column[i], ": class labels must be integers");
    labels[std::size_t(i)] = int(column[i]);
  }
  return labels;
}

// ---- nldr generate ------------------------------------------------------------------------------

struct GenerateArgs {
  std::string dataset;
  nldr::datasets::Options options;
  Output out, truth, labels, color;
};

int generate(const GenerateArgs& a) {
  for (const Output* o : {&a.out, &a.truth, &a.labels, &a.color}) check_writable(*o);
  const auto data = nldr::datasets::generate<double>(a.dataset, a.options);
  if (a.labels.requested() && data.labels.empty())
    nldr::throw_invalid("labels", "data set \"", a.dataset, "\" has no class labels (clusters-3d has): drop --labels");
  nldr::io::write_csv(a.out.path, data.points);
  if (a.truth.requested()) nldr::io::write_csv(a.truth.path, data.intrinsic);
  if (a.color.requested()) nldr::io::write_csv(a.color.path, data.parameter);
  if (a.labels.requested()) {
    nldr::io::CsvWriter labels(a.labels.path);
    for (int label : data.labels) labels.write_row(label);
    labels.commit();
  }
  return ok;
}

// ---- nldr neighbors -----------------------------------------------------------------------------

struct NeighborsArgs {
  std::string in;
  nldr_tool::SelectorSettings selector;
  Output out, json;
};

int neighbors(const NeighborsArgs& a) {
  for (const Output* o : {&a.out, &a.json}) check_writable(*o);
  nldr::StageTimes times;
  nldr::Stopwatch clock;
  const nldr::Matrix<double> X = read_points(a.in);
  times.add("read", clock.seconds());
  clock.restart();
  const auto graph = nldr_tool::select_neighbors(a.selector, X);
  times.add("neighbors", clock.seconds());
  clock.restart();
  nldr::io::CsvWriter edges(a.out.path);
  for (nldr::index_t i = 0; i < graph.size(); ++i) {
    const auto list = graph.neighbors(i);
    const auto distances = graph.distances(i);
    for (std::size_t e = 0; e < list.size(); ++e) edges.write_row(i, list[e], distances[e]);
  }
  edges.commit();
  times.add("write", clock.seconds());

  JsonValue report;
  report["command"] = "neighbors";
  report["input"] = a.in;
  report["graph"] = nldr_tool::graph_json(graph);
  nldr_tool::add_resources(report, times);
  emit_json(a.json, report);
  return ok;
}

// ---- nldr embed ---------------------------------------------------------------------------------

struct EmbedArgs {
  std::string in;
  nldr_tool::MethodSettings method;
  nldr_tool::SelectorSettings selector;
  std::optional<nldr::index_t> min_neighbors;
  Output out, json, plot, color;
};

int embed(EmbedArgs a) {
  nldr_tool::check_method_name(a.method.name);
  for (const Output* o : {&a.out, &a.json, &a.plot}) check_writable(*o);
  if (a.plot.requested() && a.method.dim < 2)
    nldr::throw_invalid("plot", "--plot draws the first two coordinates but --dim is ", a.method.dim,
                        ": use --dim 2 or more, or drop --plot");
  // Pruning selectors keep at least as many neighbors as the method needs, unless told otherwise.
  a.selector.min_neighbors = a.min_neighbors.value_or(nldr_tool::min_neighbors_for(a.method));
  a.selector.intrinsic_dim = a.method.dim;

  nldr::StageTimes times;
  nldr::Stopwatch clock;
  const nldr::Matrix<double> X = read_points(a.in);
  const nldr::Vector<double> color =
      a.color.requested() ? read_column(a.color.path, nldr::index_t(X.rows()), "color") : nldr::Vector<double>();
  times.add("read", clock.seconds());

  JsonValue report;
  report["command"] = "embed";
  report["input"] = a.in;
  report["n"] = X.rows();
  report["input_dim"] = X.cols();
  report["method"] = a.method.name;
  report["dim"] = a.method.dim;

  std::optional<nldr::NeighborGraph<double>> graph;
  if (nldr_tool::needs_graph(a.method.name)) {
    clock.restart();
    graph = nldr_tool::select_neighbors(a.selector, X);
    times.add("neighbors", clock.seconds());
    report["graph"] = nldr_tool::graph_json(*graph);
  }
  const nldr::Embedding<double> result = nldr_tool::run_method(a.method, X, graph ? &*graph : nullptr);
  for (const auto& [stage, seconds] : result.times.stages) times.add(stage, seconds);

  clock.restart();
  nldr::io::write_csv(a.out.path, result.coordinates);
  if (a.plot.requested()) {
    nldr::io::ScatterOptions options{.title = a.method.name + " of " + Path(a.in).filename().string()};
    if (graph) options.title += ", " + graph->selection().selector;
    nldr::io::write_scatter_svg(a.plot.path, result.coordinates.leftCols(2), color, options);
  }
  times.add("write", clock.seconds());

  JsonValue eigenvalues = JsonValue::array();
  for (double value : result.eigenvalues) eigenvalues.push_back(value);
  report["eigenvalues"] = std::move(eigenvalues);
  report["solver"]["name"] = result.solver.solver;
  report["solver"]["iterations"] = result.solver.iterations;
  report["solver"]["operations"] = result.solver.operations;
  if (result.solver.relative_gap) report["solver"]["relative_gap"] = *result.solver.relative_gap;
  nldr_tool::add_resources(report, times);
  emit_json(a.json, report);
  return ok;
}

// ---- nldr evaluate ------------------------------------------------------------------------------

struct EvaluateArgs {
  std::string in;
  std::vector<std::string> embeddings;  ///< one or more, each evaluated against `in`
  std::optional<std::string> truth, labels;
  nldr::metrics::QualityOptions options;
  Output json, plot;
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
  row("residual variance", q.residual_variance, "0 best");
  if (q.residual_variance_truth) row("residual variance, truth", *q.residual_variance_truth, "0 best");
  if (q.knn_error) row("k-NN error (labels)", *q.knn_error, "0 best");
}

int evaluate(EvaluateArgs a) {
  for (const Output* o : {&a.json, &a.plot}) check_writable(*o);
  nldr::StageTimes times;
  nldr::Stopwatch clock;
  const nldr::Matrix<double> X = read_points(a.in);
  std::vector<nldr::Matrix<double>> embeddings;
  for (const std::string& path : a.embeddings) {
    embeddings.push_back(read_points(path));
    if (embeddings.back().rows() != X.rows())
      nldr::throw_invalid("embedding", path, " has ", embeddings.back().rows(), " rows but ", a.in, " has ", X.rows(),
                          ": the embedding must hold one row per input point, in the same order");
  }
  std::optional<nldr::Matrix<double>> truth;
  if (a.truth) {
    truth = read_points(*a.truth);
    if (truth->rows() != X.rows())
      nldr::throw_invalid("truth", *a.truth, " has ", truth->rows(), " rows but ", a.in, " has ", X.rows(),
                          ": give one row of intrinsic coordinates per input point");
  }
  const std::vector<int> labels = a.labels ? read_labels(*a.labels, nldr::index_t(X.rows())) : std::vector<int>();
  times.add("read", clock.seconds());

  if (a.plot.requested()) a.options.curve = true;
  std::vector<nldr::metrics::QualityReport> reports;
  for (const auto& Y : embeddings) {
    reports.push_back(truth ? nldr::metrics::quality_report(X, Y, a.options, *truth, labels)
                            : nldr::metrics::quality_report(X, Y, a.options, nullptr, labels));
    for (const auto& [stage, seconds] : reports.back().times.stages) times.add(stage, seconds);
  }

  if (a.plot.requested()) {
    std::vector<nldr::io::LineSeries> curves;
    for (std::size_t e = 0; e < reports.size(); ++e) {
      nldr::io::LineSeries series{.name = Path(a.embeddings[e]).filename().string()};
      for (std::size_t K = 1; K <= reports[e].r_nx_curve.size(); ++K) {
        series.x.push_back(double(K));
        series.y.push_back(reports[e].r_nx_curve[K - 1]);
      }
      curves.push_back(std::move(series));
    }
    nldr::io::write_line_plot_svg(
        a.plot.path, curves,
        {.title = "Quality of embeddings of " + Path(a.in).filename().string(), .x_label = "neighborhood size K",
         .y_label = "R_NX(K)", .log_x = true});
  }
  if (!a.json.requested()) {
    for (std::size_t e = 0; e < reports.size(); ++e) {
      std::printf("%s\n", a.embeddings[e].c_str());
      print_quality(reports[e]);
    }
    return ok;
  }
  // One embedding: its measures at the top level. Several: an array of them under "embeddings".
  JsonValue report = reports.size() == 1 ? nldr_tool::quality_json(reports[0]) : JsonValue::object();
  if (reports.size() == 1) {
    report["embedding"] = a.embeddings[0];
  } else {
    JsonValue list = JsonValue::array();
    for (std::size_t e = 0; e < reports.size(); ++e) {
      JsonValue one = nldr_tool::quality_json(reports[e]);
      one["embedding"] = a.embeddings[e];
      list.push_back(std::move(one));
    }
    report["embeddings"] = std::move(list);
  }
  report["command"] = "evaluate";
  report["input"] = a.in;
  nldr_tool::add_resources(report, times);
  emit_json(a.json, report);
  return ok;
}

// ---- command line -------------------------------------------------------------------------------

/// `--json [PATH]`: PATH, or standard output when given without one.
void add_json_option(CLI::App& command, Output& json) {
  command.add_option("--json", json.path, "Write a JSON report to PATH (standard output without PATH)")
      ->expected(0, 1)
      ->type_name("[PATH]");
}

void add_threads_option(CLI::App& command, int& threads) {
  command.add_option("--threads", threads, "Worker threads (default: all cores); results do not depend on it")
      ->check(CLI::PositiveNumber);
}

void add_selector_options(CLI::App& command, nldr_tool::SelectorSettings& s) {
  command.add_option("--selector", s.name, "Neighbor selector: " + nldr_tool::joined_names(nldr_tool::selector_names))
      ->capture_default_str();
  command.add_option("--k", s.k, "Neighbors per point (candidates of the pruning selectors)")->capture_default_str();
  command.add_option("--radius", s.radius, "Ball radius of --selector epsilon");
  command.add_option("--ratio", s.ratio, "shared: keep an edge with >= ceil(ratio k) shared neighbors")
      ->capture_default_str();
  command.add_option("--z", s.z, "gaussian: keep neighbors within mean + z standard deviations")
      ->capture_default_str();
  command.add_flag("--most-probable", s.most_probable, "gaussian: the seed's literal rule, keep the 0.68 k most probable");
  command.add_option("--tolerance", s.tolerance, "curvature: relative curvature tolerance")->capture_default_str();
  command.add_option("--threshold", s.threshold, "short-circuit: prune an edge whose box holds <= threshold points")
      ->capture_default_str();
  command.add_option("--index", s.index, "short-circuit: box index, kdtree (any D) or rstar (Boost R*-tree, D <= 3)")
      ->capture_default_str();
}

/// Maps an exception to its exit code after printing "nldr <command>: error: <message>".
int report_error(const std::string& command, const std::string& message, int code) {
  std::string line = message;
  for (char& c : line)
    if (c == '\n' || c == '\r') c = ' ';
  std::cerr << "nldr" << (command.empty() ? "" : " " + command) << ": error: " << line << '\n';
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"nldr: nonlinear dimensionality reduction with swappable neighbor selection (docs/tool.md)", "nldr"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "nldr 0.1.0");
  int threads = 0;

  GenerateArgs gen;
  auto* generate_cmd = app.add_subcommand("generate", "Sample a data set with ground truth");
  generate_cmd->add_option("dataset", gen.dataset, "Data set: " + nldr_tool::joined_names(nldr::datasets::dataset_names()))
      ->required();
  generate_cmd->add_option("--n", gen.options.n, "Number of points")->capture_default_str();
  generate_cmd->add_option("--noise", gen.options.noise, "Standard deviation of Gaussian noise")->capture_default_str();
  generate_cmd->add_option("--seed", gen.options.seed, "Random seed (same seed, same data)")->capture_default_str();
  generate_cmd->add_option("--out", gen.out.path, "Points CSV (N x D)")->required();
  generate_cmd->add_option("--truth", gen.truth.path, "Intrinsic coordinates CSV (N x m)");
  generate_cmd->add_option("--labels", gen.labels.path, "Class labels CSV (clusters-3d)");
  generate_cmd->add_option("--color", gen.color.path, "Generating parameter CSV (for coloring plots)");

  NeighborsArgs nb;
  auto* neighbors_cmd = app.add_subcommand("neighbors", "Select neighbors; write the directed edges i,j,distance");
  neighbors_cmd->add_option("--in", nb.in, "Points CSV (N x D)")->required();
  add_selector_options(*neighbors_cmd, nb.selector);
  neighbors_cmd->add_option("--min-neighbors", nb.selector.min_neighbors, "Pruning selectors: neighbors kept per point")
      ->capture_default_str();
  neighbors_cmd->add_option("--intrinsic-dim", nb.selector.intrinsic_dim, "Curvature selector: manifold dimension")
      ->capture_default_str();
  neighbors_cmd->add_option("--out", nb.out.path, "Edges CSV, one directed edge i,j,distance per line (0-based)")
      ->required();
  add_json_option(*neighbors_cmd, nb.json);
  add_threads_option(*neighbors_cmd, threads);

  EmbedArgs em;
  auto* embed_cmd = app.add_subcommand("embed", "Embed points in d dimensions");
  embed_cmd->add_option("--in", em.in, "Points CSV (N x D)")->required();
  embed_cmd->add_option("--out", em.out.path, "Embedding CSV (N x d)")->required();
  embed_cmd->add_option("--method", em.method.name, "Method: " + nldr_tool::joined_names(nldr_tool::method_names))
      ->required();
  embed_cmd->add_option("--dim", em.method.dim, "Target dimension d")->capture_default_str();
  add_selector_options(*embed_cmd, em.selector);
  embed_cmd->add_option("--min-neighbors", em.min_neighbors,
                        "Pruning selectors: neighbors kept per point (default: what the method needs)");
  embed_cmd->add_option("--landmarks", em.method.landmarks, "landmark-isomap: number of landmarks")
      ->capture_default_str();
  embed_cmd->add_option("--reg", em.method.reg, "lle, modified-lle: regularization")->capture_default_str();
  embed_cmd->add_option("--heat-t", em.method.heat_t, "laplacian-eigenmaps: heat-kernel width (0 = automatic)")
      ->capture_default_str();
  embed_cmd->add_option("--factorization", em.method.factorization,
                        "lle, modified-lle, hessian-lle, ltsa, laplacian-eigenmaps: sparse factorization, automatic "
                        "(SuiteSparse's when built with it, from 5000 points), simplicial, supernodal or lu (lle only)")
      ->capture_default_str();
  embed_cmd->add_flag("--report-gap", em.method.report_gap,
                      "lle, modified-lle, hessian-lle, ltsa, laplacian-eigenmaps: solve for one more eigenpair and "
                      "report the relative gap after the last coordinate (solver.relative_gap; near 0: ill-determined)");
  embed_cmd->add_option("--plot", em.plot.path, "Scatter plot SVG of the first two coordinates");
  embed_cmd->add_option("--color", em.color.path, "Color values CSV for --plot (one per point)");
  add_json_option(*embed_cmd, em.json);
  add_threads_option(*embed_cmd, threads);

  EvaluateArgs ev;
  auto* evaluate_cmd = app.add_subcommand("evaluate", "Measure how well an embedding preserves the data");
  evaluate_cmd->add_option("--in", ev.in, "Points CSV (N x D)")->required();
  evaluate_cmd->add_option("--embedding", ev.embeddings, "Embedding CSV (N x d); several compare on one --plot")
      ->required();
  evaluate_cmd->add_option("--k", ev.options.k, "Neighborhood size of the rank measures")->capture_default_str();
  evaluate_cmd->add_option("--konig-k1", ev.options.konig_k1, "Konig's measure: k1 (0 = k)")->capture_default_str();
  evaluate_cmd->add_option("--konig-k2", ev.options.konig_k2, "Konig's measure: k2 (0 = min(2 k1, N - 1))")
      ->capture_default_str();
  evaluate_cmd->add_option("--truth", ev.truth, "Ground-truth intrinsic coordinates CSV (adds residual_variance_truth)");
  evaluate_cmd->add_option("--labels", ev.labels, "Class labels CSV (adds knn_error)");
  evaluate_cmd->add_flag("--curve", ev.options.curve, "Include the R_NX(K) curve in the JSON report");
  evaluate_cmd->add_option("--k-max", ev.options.k_max, "Largest K of the curve and its AUC (0 = N - 2)")
      ->capture_default_str();
  evaluate_cmd->add_option("--plot", ev.plot.path, "R_NX(K) curve SVG");
  add_json_option(*evaluate_cmd, ev.json);
  add_threads_option(*evaluate_cmd, threads);

  std::string command;
  try {
    // CLI11 would only say "A subcommand is required" for a misspelled command.
    const std::string first = argc > 1 ? argv[1] : "-";
    if (first[0] != '-' && app.get_subcommands([&](const CLI::App* c) { return c->check_name(first); }).empty())
      nldr::throw_invalid("command", "unknown command \"", first, "\": use generate, neighbors, embed or evaluate");
    app.parse(argc, argv);
    command = app.get_subcommands().front()->get_name();
    if (threads > 0) nldr::set_threads(threads);
    // `--json` without a path means standard output.
    const std::pair<CLI::App*, Output*> json_options[] = {
        {neighbors_cmd, &nb.json}, {embed_cmd, &em.json}, {evaluate_cmd, &ev.json}};
    for (auto [cmd, json] : json_options)
      if (cmd->parsed() && cmd->count("--json") > 0 && json->path.empty()) json->path = "-";
    if (command == "generate") return generate(gen);
    if (command == "neighbors") return neighbors(nb);
    if (command == "embed") return embed(em);
    return evaluate(ev);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    const auto subcommands = app.get_subcommands();
    const std::string where = subcommands.empty() ? "" : subcommands.front()->get_name();
    return report_error(where, std::string(e.what()) + " (see: nldr " + (where.empty() ? "" : where + " ") + "--help)",
                        usage_error);
  } catch (const nldr::invalid_argument& e) {
    return report_error(command, e.what(), usage_error);
  } catch (const nldr::io_error& e) {
    return report_error(command, e.what(), io_failure);
  } catch (const nldr::error& e) {  // disconnected_graph, convergence_error, memory_limit_exceeded
    return report_error(command, e.what(), data_failure);
  } catch (const std::bad_alloc&) {
    return report_error(command, "out of memory: use fewer points, a landmark method or a smaller k", data_failure);
  } catch (const std::exception& e) {
    return report_error(command, std::string("internal error, please report it: ") + e.what(), internal_error);
  }
}
