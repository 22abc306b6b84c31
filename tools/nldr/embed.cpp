// nldr embed: the command line of nldr::fit_pipeline (docs/tool.md, docs/pipeline.md): reads the
// input, runs the pipeline, writes the embedding, the model, the plot and the report.
#include "cli.hpp"
#include "parameters.hpp"
#include "report.hpp"

#include <cmath>
#include <filesystem>
#include <iostream>

namespace nldr_tool {
namespace {

struct EmbedArgs {
  std::string in, graph_file, distances_file, method, selector = "knn";
  std::string initial_file;           ///< --initial: starting coordinates of an iterative method
  std::string labels_file;            ///< --labels: one class per point for a supervised fit
  std::string disconnected = "join";  ///< --disconnected: join or error
  bool geodesics = false;             ///< --geodesics: dissimilarities along the neighbor graph
  nldr::index_t pca = 0;              ///< --pca P; 0: none
  RegistryFlags flags;
  CLI::Option* selector_option = nullptr;
  CLI::Option* disconnected_option = nullptr;
  Output out, json, color, model;
  std::string color_column;
  PlotFlags plot;
};

/// What colors a scatter plot: one value or category per point, and its name (the default label).
struct PlotColors {
  nldr::io::ColumnValues column;
  std::string source;  ///< "--color C.csv" or "--color-column NAME", for messages
};

/// The colors of `embed --color FILE`: a one-column file of numbers or text (categories), one row per
/// point, with a header line only in a file of n + 1 rows (Session::header_of_per_point_file).
/// Category names may hold spaces ("Ankle boot"): in a file without commas or tabs whose reading by
/// whitespace fails or finds text in several columns, each whole line is one value. Numbers in
/// several columns are still refused below.
PlotColors read_color_file(const Session& session, const std::string& path, nldr::index_t n) {
  const std::string bytes = nldr::io::read_bytes(path);
  nldr::io::ReadOptions options;
  options.header = session.header_of_per_point_file(bytes, n, path, "color");
  options.index_col = nldr::io::IndexColumn::none();
  const auto read = [&](nldr::io::CsvSeparator separator) {
    options.separator = separator;
    return nldr::io::parse_column(bytes, nldr::io::input_name(path), nldr::io::ColumnRef(std::size_t(0)), options);
  };
  const bool one_value_per_line = bytes.find_first_of(",\t") == std::string::npos;
  nldr::io::ColumnValues column;
  try {
    column = read(nldr::io::CsvSeparator::automatic);
  } catch (const nldr::io_error&) {
    if (!one_value_per_line) throw;
    column = read(nldr::io::CsvSeparator::comma);
  }
  if (one_value_per_line && column.input_columns > 1 && !column.numeric) column = read(nldr::io::CsvSeparator::comma);
  PlotColors colors{std::move(column), "--color " + path};
  if (colors.column.input_columns != 1 || colors.column.values.size() != n)
    nldr::throw_invalid("color", path, " is ", colors.column.values.size(), " x ", colors.column.input_columns,
                        " but must hold one value per point: ", n, " rows (or a header line and ", n,
                        " rows), 1 column (to color by a column of the --in file, use --color-column)");
  if (colors.column.name == "column 0") colors.column.name = std::filesystem::path(path).stem().string();
  return colors;
}

/// The points of `embed --in FILE --color-column C`: every data column but C, and C as the colors.
std::pair<nldr::Matrix<double>, PlotColors> read_points_and_colors(const Session& session, const std::string& path,
                                                                   const std::string& column) {
  const nldr::io::ColumnRef ref = nldr::io::ColumnRef::parse(column);
  nldr::io::ReadOptions options = session.read_options();
  if (options.columns.empty()) options.exclude.push_back(ref);
  const auto refuse_if = [&](bool chosen) {
    if (chosen)
      nldr::throw_invalid("color-column", "--color-column ", column, " is also a data column of --columns: leave it "
                          "out of --columns, so that it is not embedded");
  };
  for (const auto& data : options.columns)  // the same name or position: before reading (it may hold text)
    refuse_if(data.by_name() == ref.by_name() && data.name() == ref.name() && data.position() == ref.position());
  const std::string bytes = nldr::io::read_bytes(path), name = nldr::io::input_name(path);
  auto read = nldr::io::parse_matrix<double>(bytes, name, options);
  refuse_if(ref.by_name() ? std::count(read.column_names.begin(), read.column_names.end(), ref.name()) > 0
                          : std::count(read.source_columns.begin(), read.source_columns.end(), ref.position()) > 0);
  options.columns.clear();
  options.exclude.clear();
  PlotColors colors{nldr::io::parse_column(bytes, name, ref, options), "--color-column " + column};
  if (!session.quiet) {
    for (const auto& note : read.notes) std::cerr << "nldr: " << name << ": " << note << '\n';
    std::cerr << "nldr: " << name << ": column '" << colors.column.name << "' colors the plot and is not embedded";
    if (!colors.column.numeric) std::cerr << " (" << colors.column.categories.size() << " categories)";
    std::cerr << '\n';
  }
  return {std::move(read.values), std::move(colors)};
}

/// A directed graph on n points from an edges CSV (i,j,distance per line, 0-based) as `nldr
/// neighbors` writes it.
nldr::NeighborGraph<double> read_graph(const Session& session, const std::string& path, nldr::index_t n) {
  const nldr::Matrix<double> edges = session.read_points(path, false);
  if (edges.cols() != 3)
    nldr::throw_invalid("graph", path, " has ", edges.cols(), " columns: a graph file holds one edge i,j,distance "
                        "per line (as nldr neighbors writes it)");
  std::vector<std::vector<std::pair<nldr::index_t, double>>> lists(static_cast<std::size_t>(n));
  for (Eigen::Index e = 0; e < edges.rows(); ++e) {
    const double i = edges(e, 0), j = edges(e, 1);
    if (i != std::round(i) || j != std::round(j) || i < 0 || j < 0 || i >= n || j >= n)
      nldr::throw_invalid("graph", path, " row ", e + 1, ": i = ", i, ", j = ", j, " must be point indices in [0, ",
                          n - 1, "] of the --in file");
    lists[std::size_t(i)].emplace_back(nldr::index_t(j), edges(e, 2));
  }
  return nldr::NeighborGraph<double>::from_lists(lists);
}

/// The run's joining of a disconnected graph: the JSON record and the note on stderr.
void report_joining(const Session& session, const nldr::GraphConnectivity<double>& connectivity, JsonValue& report) {
  const auto& joined = connectivity.joining_edges;
  const double longest = joined.empty() ? 0.0 : joined.back().distance;
  report["joined_components"] = connectivity.components.count();
  report["joining_edge_count"] = std::int64_t(joined.size());
  JsonValue edges = JsonValue::array();
  for (std::size_t e = joined.size() > 100 ? joined.size() - 100 : 0; e < joined.size(); ++e) {
    JsonValue edge = JsonValue::object();
    edge["a"] = joined[e].a;
    edge["b"] = joined[e].b;
    edge["distance"] = joined[e].distance;
    edges.push_back(std::move(edge));
  }
  report["joining_edges"] = std::move(edges);  // the longest 100, shortest first
  report["longest_joining_edge"] = longest;
  report["median_edge"] = connectivity.median_edge;
  if (!session.quiet)
    std::cerr << "nldr: the neighbor graph has " << nldr::describe_components(connectivity.components)
              << ": joined them by " << joined.size() << " shortest connecting edge" << (joined.size() == 1 ? "" : "s")
              << " (longest " << longest << ", "
              << (connectivity.median_edge > 0 ? longest / connectivity.median_edge : 0.0) << " x the median edge "
              << connectivity.median_edge << "); raise -k to connect it, or --disconnected error to refuse\n";
}

void write_plot(const EmbedArgs& a, const nldr::PipelineResult<double>& run, const std::optional<PlotColors>& colors,
                JsonValue& report) {
  const bool from_distances = !a.distances_file.empty();
  std::string title = std::string(run.model.method()) + " of " +
                      std::filesystem::path(from_distances ? a.distances_file : a.in).filename().string();
  if (run.graph) title += ", " + run.graph->selection().selector;
  nldr::io::ScatterOptions options;
  a.plot.apply(options, title, "coordinate 1", "coordinate 2");
  options.color_kind = a.plot.color_kind == "categorical"  ? nldr::io::ColorKind::categorical
                       : a.plot.color_kind == "continuous" ? nldr::io::ColorKind::continuous
                                                           : nldr::io::ColorKind::automatic;
  options.aspect = a.plot.aspect == "equal"  ? nldr::io::Aspect::equal
                   : a.plot.aspect == "fill" ? nldr::io::Aspect::fill
                                             : nldr::io::Aspect::automatic;
  nldr::Vector<double> values;
  if (colors) {
    values = colors->column.values;
    options.category_names = colors->column.categories;
    options.color_label = a.plot.color_label.empty() ? colors->column.name : a.plot.color_label;
    report["color"] = colors->column.name;
  }
  nldr::io::write_scatter_plot(a.plot.plot.path, run.model.coordinates().leftCols(2), values, options);
}

int embed(const EmbedArgs& a, const Session& session) {
  const nldr::EmbedderInfo& method = nldr::find_embedder(a.method);
  const bool from_distances = !a.distances_file.empty();
  const bool from_graph_file = !a.graph_file.empty();
  // The command line's own mistakes first, in its flags, before anything is read.
  if (from_distances && !method.accepts(nldr::from_distances))
    nldr::throw_invalid("distances", method.name, " cannot work from --distances: give --in points instead");
  if (from_distances && (!a.in.empty() || from_graph_file))
    nldr::throw_invalid("distances", "--distances replaces --in (and --graph): give one input");
  if (!from_distances && a.in.empty()) nldr::throw_invalid("in", "give the points with --in X.csv");
  if (a.pca > 0 && (from_distances || from_graph_file))
    nldr::throw_invalid("pca", "--pca reduces the --in points before the neighbor graph, but ",
                        from_distances ? "--distances gives no points" : "the --graph file was built on the points as "
                        "they are", ": drop --pca");
  if (a.geodesics && !method.accepts(nldr::from_distances))
    nldr::throw_invalid("geodesics", "--geodesics gives a method dissimilarities, which ", method.name,
                        " does not take: use it with ", method_names(nldr::from_distances), ", or drop it");
  if (a.geodesics && from_distances)
    nldr::throw_invalid("geodesics", "--geodesics computes the dissimilarities from --in: drop --distances");
  const bool uses_graph = method.accepts(nldr::needs_graph) || a.geodesics;
  const char* no_graph = a.geodesics || !method.accepts(nldr::from_distances)
                             ? " uses no neighbor graph"
                             : " uses no neighbor graph (unless --geodesics makes its dissimilarities geodesic)";
  if (from_graph_file && !uses_graph) nldr::throw_invalid("graph", method.name, no_graph, ": drop --graph");
  const bool selects = uses_graph && !from_graph_file && !from_distances;
  if (a.selector_option->count() > 0 && !selects)
    nldr::throw_invalid("selector", "--selector does not apply: ", method.name,
                        from_graph_file ? " uses the --graph file" : no_graph, ": drop --selector");
  if (a.disconnected_option->count() > 0 && !uses_graph)
    nldr::throw_invalid("disconnected", "--disconnected does not apply: ", method.name, no_graph,
                        ": drop --disconnected");
  const nldr::SelectorInfo* selector = selects ? &nldr::find_selector(a.selector) : nullptr;
  std::vector<std::pair<std::string, std::span<const nldr::ParameterSpec>>> owners{
      {std::string(method.name), method.parameters}};
  if (selector) owners.emplace_back("--selector " + std::string(selector->name), selector->parameters);
  a.flags.require_applicable(owners, std::string(method.name) + (selector ? " with --selector " + a.selector : ""));
  if (a.color.requested() && !a.plot.plot.requested())
    nldr::throw_invalid("color", "--color colors the --plot: add --plot Y.svg or drop --color");
  if (!a.color_column.empty() && !a.plot.plot.requested())
    nldr::throw_invalid("color-column", "--color-column colors the --plot: add --plot Y.svg or drop --color-column");
  if (!a.color_column.empty() && (a.color.requested() || from_distances))
    nldr::throw_invalid("color-column", "--color-column takes the colors from a column of --in: drop ",
                        from_distances ? "it (--distances has no such column)" : "--color");
  a.plot.check();
  if (!a.color.requested() && a.color_column.empty() && (!a.plot.color_label.empty() || a.plot.color_kind != "auto"))
    nldr::throw_invalid("color-label", "--color-label and --color-kind style the colors: add --color C.csv or "
                        "--color-column NAME, or drop them");
  nldr::PipelineOptions options;
  options.method = a.method;
  options.method_parameters = a.flags.given(method.parameters);
  if (!a.initial_file.empty()) {  // --initial means --init given
    if (!nldr::offers_choice(method.parameters, "init", "given"))
      nldr::throw_invalid("initial", method.name, " takes no starting coordinates (", method_names_taking_initial(),
                          " do): drop --initial");
    auto& init = options.method_parameters["init"];
    if (!init.empty() && init != "given")
      nldr::throw_invalid("initial", "--initial gives the starting coordinates, but --init is ", init,
                          ": drop one of them");
    init = "given";
  }
  if (!a.labels_file.empty() && !nldr::takes_parameter(method.parameters, "target_weight"))
    nldr::throw_invalid("labels", method.name, " is unsupervised: drop --labels (labels are for ",
                        method_names_supervised(), ")");
  if (selector) options.selector = a.selector;
  if (selector) options.selector_parameters = a.flags.given(selector->parameters);
  options.disconnected = a.disconnected == "error" ? nldr::Disconnected::error : nldr::Disconnected::join;
  options.geodesics = a.geodesics;
  options.pca = a.pca;
  const nldr::index_t dim = nldr::detail::requested_dim(method, options.method_parameters);
  check_distinct({{"--out", a.out.path}, {"--json", a.json.path}, {"--plot", a.plot.plot.path}, {"--save-model", a.model.path}},
                 {a.in, a.distances_file, a.graph_file, a.color.path, a.labels_file});
  for (const Output* o : {&a.out, &a.json, &a.plot.plot, &a.model}) check_writable(*o);
  if (a.plot.plot.requested() && dim < 2)
    nldr::throw_invalid("plot", "--plot draws the first two coordinates but --dim is ", dim,
                        ": use --dim 2 or more, or drop --plot");

  Console console = session.console();
  nldr::StageTimes times;
  nldr::Stopwatch clock;
  std::optional<PlotColors> colors;
  nldr::Matrix<double> X;
  if (a.color_column.empty()) {
    X = session.read_points(from_distances ? a.distances_file : a.in);
  } else {
    auto [points, column] = read_points_and_colors(session, a.in, a.color_column);
    X = std::move(points);
    colors = std::move(column);
  }
  if (a.color.requested()) colors = read_color_file(session, a.color.path, nldr::index_t(X.rows()));
  if (colors && !colors->column.numeric && a.plot.color_kind == "continuous")
    nldr::throw_invalid("color-kind", colors->source, " holds text (", colors->column.categories.size(),
                        " categories), which cannot be colored continuously: drop --color-kind continuous");
  nldr::PipelineInput<double> input;
  std::optional<nldr::Matrix<double>> initial;
  if (!a.initial_file.empty()) input.initial = &initial.emplace(session.read_points(a.initial_file, false));
  (from_distances ? input.distances : input.points) = &X;
  std::optional<nldr::NeighborGraph<double>> graph_file;
  if (from_graph_file) input.graph = &graph_file.emplace(read_graph(session, a.graph_file, nldr::index_t(X.rows())));
  std::vector<nldr::index_t> labels;
  if (!a.labels_file.empty()) {
    for (const int label : session.read_labels(a.labels_file, nldr::index_t(X.rows())))
      labels.push_back(nldr::index_t(label));
    input.labels = &labels;
  }
  console.stage(times, "read", clock.seconds());

  options.progress = [&console](const std::string& stage) { return console.progress(stage); };
  options.on_iteration = console.iterations(std::string(method.name));
  options.on_stage = [&](const std::string& stage, double seconds) { console.stage(times, stage, seconds); };
  const nldr::PipelineResult<double> run = nldr::fit_pipeline(input, options);
  if (run.graph) session.note_search(run.graph->selection());

  JsonValue report;
  report["command"] = "embed";
  report["version"] = nldr::version;
  report["input"] = from_distances ? a.distances_file : a.in;
  report["n"] = X.rows();
  if (!from_distances) report["input_dim"] = X.cols();
  report["method"] = std::string(method.name);
  if (run.pca) report["pca"] = pca_json(*run.pca);
  if (run.pca) note_pca(session, *run.pca);
  if (from_graph_file) report["graph_file"] = a.graph_file;
  if (!run.selector.empty()) {
    report["selector"] = run.selector;
    report["selector_parameters"] = parameters_json(run.selector_parameters);
  }
  if (run.graph) {
    report["disconnected"] = a.disconnected;
    if (!run.connectivity->components.connected()) report_joining(session, *run.connectivity, report);
    report["graph"] = graph_json(*run.graph);
  }
  if (a.geodesics) report["dissimilarities"] = "geodesic";
  report["dim"] = run.model.coordinates().cols();
  report["parameters"] = parameters_json(run.model.parameters());
  report["results"] = results_json(run.model.results());

  clock.restart();
  session.write_points(a.out.path, run.model.coordinates());
  if (a.model.requested()) nldr::save_model(run.model, a.model.path);
  if (a.plot.plot.requested()) write_plot(a, run, colors, report);
  console.stage(times, "write", clock.seconds());
  add_resources(report, times);
  emit_json(a.json, report);
  return ok;
}

}  // namespace

std::function<int()> add_embed(CLI::App& command, Session& session) {
  auto a = std::make_shared<EmbedArgs>();
  command.add_option("--in,-i", a->in, "Points CSV (N x D)");
  command.add_option("--out,-o", a->out.path, "Embedding CSV (N x d)")->required();
  command.add_option("--method,-m", a->method, "Method: " + method_names())->required();
  a->selector_option =
      command.add_option("--selector", a->selector, "Neighbor selector: " + selector_names())->capture_default_str();
  command.add_option("--graph", a->graph_file,
                     "Neighbor graph CSV (i,j,distance per line, as nldr neighbors writes it) instead of --selector; "
                     "its distances are used as given");
  command.add_option("--distances", a->distances_file,
                     "N x N dissimilarity CSV instead of --in [" + method_names(nldr::from_distances) + "]");
  command.add_option("--initial", a->initial_file,
                     "Starting coordinates CSV (N x d) of an iterative method (--init given) [" +
                         method_names_taking_initial() + "]");
  command.add_option("--labels", a->labels_file,
                     "Class labels CSV (one integer per point, -1 unknown) for a supervised fit [" +
                         method_names_supervised() + "]");
  command.add_flag("--geodesics", a->geodesics,
                   "Fit shortest-path lengths along the neighbor graph (--selector and its flags, or --graph) as the "
                   "dissimilarities [" + method_names(nldr::from_distances) + "]");
  a->flags.add_to(command, true, true);
  add_pca_option(command, a->pca);
  command.add_option("--save-model", a->model.path, "Write the fitted model (for nldr transform) to PATH");
  a->plot.add_to(command, true, "Scatter plot of the first two coordinates");
  command.add_option("--color", a->color.path,
                     "Colors for --plot: a one-column file, numbers or text, one per point (a header line only "
                     "in a file of N + 1 rows)");
  command.add_option("--color-column", a->color_column,
                     "Color --plot by this column of --in (name or 0-based position); it is not embedded");
  a->disconnected_option = command
                               .add_option("--disconnected", a->disconnected,
                                           "A disconnected neighbor graph: join its components by their shortest "
                                           "connecting edges (with a note), or error")
                               ->check(CLI::IsMember({"join", "error"}))
                               ->capture_default_str();
  add_json_option(command, a->json);
  add_input_options(command, session);
  add_output_options(command, session);
  add_threads_option(command, session);
  return [a, &session] { return embed(*a, session); };
}

}  // namespace nldr_tool
