// nldr: the command-line tool. Generates data sets, selects neighbors, embeds and evaluates;
// docs/tool.md is its manual. Errors: one line on stderr, a non-zero exit code, no output file
// (every output path is checked before the work starts and written atomically at the end).
#include "console.hpp"
#include "disconnected.hpp"
#include "parameters.hpp"
#include "report.hpp"

#include <nldr/nldr.hpp>
#include <nldr/version.hpp>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <initializer_list>
#include <iostream>
#include <map>
#include <new>
#include <optional>
#include <regex>
#include <span>
#include <utility>
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
  interrupted = 130,   ///< stopped by Ctrl-C (128 + SIGINT, the shell's convention); nothing written
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

/// Refuses output paths that name the same file as another output or as an input (generate --out X
/// --truth X would overwrite the points with the truth).
void check_distinct(const std::vector<std::pair<std::string, std::string>>& outputs,
                    const std::vector<std::string>& inputs = {}) {
  namespace fs = std::filesystem;
  const auto same = [](const std::string& a, const std::string& b) {
    std::error_code ec;
    return a == b || (fs::exists(a, ec) && fs::exists(b, ec) && fs::equivalent(a, b, ec)) ||
           fs::weakly_canonical(a, ec) == fs::weakly_canonical(b, ec);
  };
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const auto& [flag, path] = outputs[i];
    if (path.empty() || path == "-") continue;
    for (std::size_t j = i + 1; j < outputs.size(); ++j)
      if (!outputs[j].second.empty() && same(path, outputs[j].second))
        nldr::throw_invalid(flag, flag, " and ", outputs[j].first, " both name ", path, ": give each output its own file");
    for (const auto& input : inputs)
      if (!input.empty() && input != "-" && same(path, input))
        nldr::throw_invalid(flag, flag, " ", path, " is also an input: write the output to another file");
  }
}

void emit_json(const Output& output, const JsonValue& json) {
  if (output.to_stdout())
    std::cout << json.dump() << '\n';
  else if (output.requested())
    nldr::io::write_json(output.path, json);
}

/// How input tables are read (--header, --index-col, --columns; docs/io.md) and whether notes are
/// printed (--quiet). Set once from the command line.
struct InputSettings {
  std::string header = "auto", index_col, columns;
  bool quiet = false, verbose = false;
  nldr::io::ReadOptions options() const {
    nldr::io::ReadOptions o;
    if (header == "yes") o.header = nldr::io::CsvHeader::present;
    else if (header == "no") o.header = nldr::io::CsvHeader::absent;
    if (index_col == "none") o.index_col = nldr::io::IndexColumn::none();
    else if (!index_col.empty()) o.index_col = nldr::io::ColumnRef::parse(index_col);
    for (std::size_t start = 0; start < columns.size();) {
      const std::size_t comma = std::min(columns.find(',', start), columns.size());
      o.columns.push_back(nldr::io::ColumnRef::parse(columns.substr(start, comma - start)));
      start = comma + 1;
    }
    return o;
  }
};
InputSettings input_settings;

/// A table of points (CSV, TSV, whitespace, .npy, or "-" for standard input), reporting on stderr
/// what was detected or left out (a pandas index column, a header) so nothing happens silently.
nldr::Matrix<double> read_points(const std::string& path, bool data_columns = true) {
  nldr::io::ReadOptions options = data_columns ? input_settings.options() : nldr::io::ReadOptions{};
  auto read = nldr::io::read_matrix<double>(path, options);
  if (!input_settings.quiet)
    for (const auto& note : read.notes) std::cerr << "nldr: " << nldr::io::input_name(path) << ": " << note << '\n';
  return std::move(read.values);
}

/// --out-header: a first line d1,...,dd (CSV); none for .npy.
bool out_header = false;

/// Says on stderr which neighbor search built `graph`: with --verbose always, otherwise (unless
/// --quiet) when the graph is approximate, so that no one gets an approximate graph unawares.
void note_search(const nldr::SelectionReport& selection) {
  const bool approximate = selection.search == nldr::search_name(nldr::NeighborSearch::hnsw);
  const std::string note = nldr_tool::search_note(selection);
  if (!note.empty() && (input_settings.verbose || (approximate && !input_settings.quiet))) std::cerr << note << '\n';
}

void write_points(const std::string& path, const nldr::Matrix<double>& Y, const std::string& prefix = "d") {
  nldr::io::WriteOptions options;
  if (out_header)
    for (Eigen::Index c = 0; c < Y.cols(); ++c) options.header.push_back(prefix + std::to_string(c + 1));
  nldr::io::write_matrix(path, Y, options);
}

/// One value per point (class labels) from a one-column CSV file.
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

/// --plot and the flags that style it (docs/figures.md). A style flag without --plot is an error.
struct PlotFlags {
  Output plot;
  std::string title, x_label, y_label, color_label, color_kind = "auto", aspect = "auto";
  int width = 0, height = 0;  ///< 0: the library's default
  std::vector<CLI::Option*> style;

  /// --plot and its style flags; `scatter` adds the scatter plot's --color-label, --color-kind, --aspect.
  void add_to(CLI::App& command, bool scatter, const std::string& what) {
    command.add_option("--plot", plot.path, what + ": .svg, .png or .pdf by the extension");
    style = {command.add_option("--title", title, "Plot title (default: names the method and the input)"),
             command.add_option("--x-label", x_label, "Plot x-axis label"),
             command.add_option("--y-label", y_label, "Plot y-axis label"),
             command.add_option("--width", width, "Plot width in pixels (PDF: 0.75 pt each)")->check(CLI::Range(200, 10000)),
             command.add_option("--height", height, "Plot height in pixels")->check(CLI::Range(200, 10000))};
    if (!scatter) return;
    style.push_back(command.add_option("--color-label", color_label,
                                       "Title of the color bar or legend (default: the color column's name)"));
    style.push_back(command.add_option("--color-kind", color_kind,
                                       "auto (categories for <= 12 integer values or text), categorical, continuous")
                        ->check(CLI::IsMember({"auto", "categorical", "continuous"}))
                        ->capture_default_str());
    style.push_back(command.add_option("--aspect", aspect,
                                       "auto (equal scales unless the data would fill < 1/3 of the plot), equal, fill")
                        ->check(CLI::IsMember({"auto", "equal", "fill"}))
                        ->capture_default_str());
  }

  /// Before any work: a style flag needs --plot, and the plot's extension must name a format this build writes.
  void check() const {
    for (const CLI::Option* option : style)
      if (option->count() > 0 && !plot.requested())
        nldr::throw_invalid("plot", option->get_name(), " styles the --plot: add --plot Y.svg (or .png, .pdf) or drop ",
                            option->get_name());
    if (plot.requested()) nldr::io::plot_format(plot.path);
  }

  template <class Options>
  void apply(Options& options, const std::string& default_title, const std::string& default_x,
             const std::string& default_y) const {
    options.title = title.empty() ? default_title : title;
    options.x_label = x_label.empty() ? default_x : x_label;
    options.y_label = y_label.empty() ? default_y : y_label;
    if (width > 0) options.width = width;
    if (height > 0) options.height = height;
  }
};

/// What colors a scatter plot: one value or category per point, and its name (the default label).
struct PlotColors {
  nldr::io::ColumnValues column;
  std::string source;  ///< "--color C.csv" or "--color-column NAME", for messages
};

/// The colors of `embed --color FILE`: a one-column file of numbers or text (categories), one row per point.
PlotColors read_color_file(const std::string& path, nldr::index_t n) {
  nldr::io::ReadOptions options = input_settings.options();
  options.columns.clear();
  options.index_col = nldr::io::IndexColumn::none();
  PlotColors colors{nldr::io::read_column(path, nldr::io::ColumnRef(std::size_t(0)), options), "--color " + path};
  // A headerless column of class names ("setosa" on every line of the first class) looks like a header
  // to the automatic rule; one row short of one per point means the first line was a label after all.
  if (options.header == nldr::io::CsvHeader::automatic && colors.column.values.size() + 1 == n) {
    options.header = nldr::io::CsvHeader::absent;
    colors.column = nldr::io::read_column(path, nldr::io::ColumnRef(std::size_t(0)), options);
  }
  if (colors.column.input_columns != 1 || colors.column.values.size() != n)
    nldr::throw_invalid("color", path, " is ", colors.column.values.size(), " x ", colors.column.input_columns,
                        " but must hold one value per point: ", n, " rows, 1 column (to color by a column of the "
                        "--in file, use --color-column)");
  if (colors.column.name == "column 0") colors.column.name = Path(path).stem().string();
  return colors;
}

/// The points of `embed --in FILE --color-column C`: every data column but C, and C as the colors.
std::pair<nldr::Matrix<double>, PlotColors> read_points_and_colors(const std::string& path, const std::string& column) {
  const nldr::io::ColumnRef ref = nldr::io::ColumnRef::parse(column);
  nldr::io::ReadOptions options = input_settings.options();
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
  if (!input_settings.quiet) {
    for (const auto& note : read.notes) std::cerr << "nldr: " << name << ": " << note << '\n';
    std::cerr << "nldr: " << name << ": column '" << colors.column.name << "' colors the plot and is not embedded";
    if (!colors.column.numeric) std::cerr << " (" << colors.column.categories.size() << " categories)";
    std::cerr << '\n';
  }
  return {std::move(read.values), std::move(colors)};
}

/// The registry's methods, or those that accept `input` (e.g. nldr::from_distances).
std::string method_names(std::optional<nldr::EmbedderInput> input = std::nullopt) {
  std::vector<std::string_view> names;
  for (const auto& entry : nldr::embedders())
    if (!input || entry.accepts(*input)) names.push_back(entry.name);
  return nldr::detail::joined(names);
}

std::string selector_names() {
  std::vector<std::string_view> names;
  for (const auto& entry : nldr::selectors()) names.push_back(entry.name);
  return nldr::detail::joined(names);
}

/// The embedding's dimension from a method's given parameters: --dim, 2 by default.
nldr::index_t embedding_dim(const nldr::ParameterValues& values) {
  const auto given = values.find("dim");
  return given != values.end() ? nldr::index_t(std::stol(given->second)) : 2;
}

/// --pca P (docs/tool.md, "PCA before the graph"): replaces X by its first P principal components
/// (nldr::Pca: randomized SVD for large D), before anything else sees the points. Records the stage
/// and the explained variance (report["pca"]; stderr with --verbose) and returns the projection,
/// which a saved model keeps so that transform projects new points the same way. `dim` is the
/// embedding's dimension (the graph alone: 1).
nldr::InputProjection<double> reduce_by_pca(nldr::Matrix<double>& X, nldr::index_t p, nldr::index_t dim,
                                            nldr_tool::Console& console, nldr::StageTimes& times, JsonValue& report) {
  if (p >= X.cols())
    nldr::throw_invalid("pca", "--pca ", p, " must be below the input's D = ", X.cols(), " columns (PCA to ", p,
                        " dimensions would keep them all): lower --pca or drop it");
  if (p >= X.rows())
    nldr::throw_invalid("pca", "--pca ", p, " must be below the number of points N = ", X.rows(),
                        " (N points span at most N - 1 dimensions): lower --pca");
  if (p < dim)
    nldr::throw_invalid("pca", "--pca ", p, " is below --dim ", dim, ": the embedding cannot have more dimensions "
                        "than the points it is computed from; raise --pca or lower --dim");
  nldr::Stopwatch clock;
  const auto pca = nldr::Pca{{.dim = p, .progress = console.progress("PCA")}}.fit(X);
  console.stage(times, "pca", clock.seconds());
  const double kept = pca.explained_variance_ratio.sum();
  JsonValue json = JsonValue::object();
  json["dim"] = p;
  json["input_dim"] = X.cols();
  json["explained_variance_ratio"] = kept;
  json["solver"] = pca.diagnostics.solver;
  report["pca"] = std::move(json);
  if (input_settings.verbose && !input_settings.quiet)
    std::fprintf(stderr, "nldr: PCA from D = %lld to %d dimensions keeps %.1f%% of the variance (%s)\n",
                 static_cast<long long>(X.cols()), int(p), 100 * kept, pca.diagnostics.solver.c_str());
  X = pca.coordinates;
  return {pca.mean, pca.components};
}

/// The --pca flag of a command that builds a neighbor graph.
CLI::Option* add_pca_option(CLI::App& command, nldr::index_t& p) {
  return command
      .add_option("--pca", p,
                  "Reduce the points to their first P principal components before the neighbor graph (randomized "
                  "SVD for large D); the kept variance goes to --json and, with --verbose, to stderr")
      ->check(CLI::Range(1, 1 << 30));
}

// ---- nldr generate ------------------------------------------------------------------------------

struct GenerateArgs {
  std::string dataset;
  nldr::datasets::Options options;
  Output out, truth, labels, color;
};

int generate(const GenerateArgs& a) {
  check_distinct({{"--out", a.out.path}, {"--truth", a.truth.path}, {"--labels", a.labels.path}, {"--color", a.color.path}});
  for (const Output* o : {&a.out, &a.truth, &a.labels, &a.color}) check_writable(*o);
  const auto data = nldr::datasets::generate<double>(a.dataset, a.options);
  if (a.labels.requested() && data.labels.empty())
    nldr::throw_invalid("labels", "data set \"", a.dataset, "\" has no class labels (clusters-3d has): drop --labels");
  write_points(a.out.path, data.points, "x");
  if (a.truth.requested()) write_points(a.truth.path, data.intrinsic, "t");
  if (a.color.requested()) write_points(a.color.path, nldr::Matrix<double>(data.parameter), "color");
  if (a.labels.requested()) {
    nldr::io::CsvWriter labels(a.labels.path);
    for (int label : data.labels) labels.write_row(label);
    labels.commit();
  }
  return ok;
}

// ---- nldr neighbors -----------------------------------------------------------------------------

struct NeighborsArgs {
  std::string in, selector = "knn";
  nldr::index_t pca = 0;  ///< --pca P; 0: none
  nldr_tool::RegistryFlags flags;
  Output out, json;
};

int neighbors(const NeighborsArgs& a) {
  const nldr::SelectorInfo& selector = nldr::find_selector(a.selector);
  a.flags.require_applicable({{"--selector " + std::string(selector.name), selector.parameters}},
                             "--selector " + std::string(selector.name));
  check_distinct({{"--out", a.out.path}, {"--json", a.json.path}}, {a.in});
  for (const Output* o : {&a.out, &a.json}) check_writable(*o);
  nldr_tool::Console console(input_settings.quiet, input_settings.verbose);
  nldr::StageTimes times;
  nldr::Stopwatch clock;
  nldr::Matrix<double> X = read_points(a.in);
  console.stage(times, "read", clock.seconds());
  JsonValue report;
  if (a.pca > 0) reduce_by_pca(X, a.pca, 1, console, times, report);
  clock.restart();
  const auto graph =
      selector.select(X, a.flags.given(selector.parameters), console.progress(std::string(selector.name)));
  console.stage(times, "neighbors", clock.seconds());
  note_search(graph.selection());
  clock.restart();
  nldr::io::CsvWriter edges(a.out.path);
  for (nldr::index_t i = 0; i < graph.size(); ++i) {
    const auto list = graph.neighbors(i);
    const auto distances = graph.distances(i);
    for (std::size_t e = 0; e < list.size(); ++e) edges.write_row(i, list[e], distances[e]);
  }
  edges.commit();
  console.stage(times, "write", clock.seconds());

  report["command"] = "neighbors";
  report["input"] = a.in;
  report["graph"] = nldr_tool::graph_json(graph);
  nldr_tool::add_resources(report, times);
  emit_json(a.json, report);
  return ok;
}

// ---- nldr embed ---------------------------------------------------------------------------------

struct EmbedArgs {
  std::string in, graph_file, distances_file, method, selector = "knn";
  std::string disconnected = "join";  ///< --disconnected: join or error
  bool geodesics = false;             ///< --geodesics: dissimilarities along the neighbor graph
  nldr::index_t pca = 0;              ///< --pca P; 0: none
  nldr_tool::RegistryFlags flags;
  CLI::Option* selector_option = nullptr;
  CLI::Option* disconnected_option = nullptr;
  Output out, json, color, model;
  std::string color_column;
  PlotFlags plot;
};

/// A directed graph on n points from an edges CSV (i,j,distance per line, 0-based) as `nldr
/// neighbors` writes it.
nldr::NeighborGraph<double> read_graph(const std::string& path, nldr::index_t n) {
  const nldr::Matrix<double> edges = read_points(path, false);
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

int embed(EmbedArgs& a) {
  const nldr::EmbedderInfo& method = nldr::find_embedder(a.method);
  const bool from_distances = !a.distances_file.empty();
  const bool from_graph_file = !a.graph_file.empty();
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
  nldr::ParameterValues method_values = a.flags.given(method.parameters);
  const nldr::index_t dim = embedding_dim(method_values);
  check_distinct({{"--out", a.out.path}, {"--json", a.json.path}, {"--plot", a.plot.plot.path}, {"--save-model", a.model.path}},
                 {a.in, a.distances_file, a.graph_file, a.color.path});
  for (const Output* o : {&a.out, &a.json, &a.plot.plot, &a.model}) check_writable(*o);
  if (a.plot.plot.requested() && dim < 2)
    nldr::throw_invalid("plot", "--plot draws the first two coordinates but --dim is ", dim,
                        ": use --dim 2 or more, or drop --plot");

  nldr_tool::Console console(input_settings.quiet, input_settings.verbose);
  nldr::StageTimes times;
  nldr::Stopwatch clock;
  std::optional<PlotColors> colors;
  nldr::Matrix<double> X;
  if (a.color_column.empty()) {
    X = read_points(from_distances ? a.distances_file : a.in);
  } else {
    auto [points, column] = read_points_and_colors(a.in, a.color_column);
    X = std::move(points);
    colors = std::move(column);
  }
  if (a.color.requested()) colors = read_color_file(a.color.path, nldr::index_t(X.rows()));
  if (colors && !colors->column.numeric && a.plot.color_kind == "continuous")
    nldr::throw_invalid("color-kind", colors->source, " holds text (", colors->column.categories.size(),
                        " categories), which cannot be colored continuously: drop --color-kind continuous");
  console.stage(times, "read", clock.seconds());

  JsonValue report;
  report["command"] = "embed";
  report["version"] = nldr::version;
  report["input"] = from_distances ? a.distances_file : a.in;
  report["n"] = X.rows();
  if (!from_distances) report["input_dim"] = X.cols();
  report["method"] = std::string(method.name);
  std::optional<nldr::InputProjection<double>> projection;
  if (a.pca > 0) projection = reduce_by_pca(X, a.pca, dim, console, times, report);

  nldr::FitInput<double> input;
  (from_distances ? input.distances : input.points) = &X;
  std::optional<nldr::NeighborGraph<double>> graph;
  if (from_graph_file) {
    clock.restart();
    graph = read_graph(a.graph_file, nldr::index_t(X.rows()));
    input.graph_lengths_given = true;
    console.stage(times, "read graph", clock.seconds());
    report["graph_file"] = a.graph_file;
  } else if (selector) {
    nldr::ParameterValues selector_values = a.flags.given(selector->parameters);
    // Pruning selectors keep at least as many neighbors as the method needs, unless told otherwise.
    if (selector->prunes && !selector_values.count("min_neighbors"))
      selector_values["min_neighbors"] = std::to_string(method.min_neighbors(dim));
    if (nldr::takes_parameter(selector->parameters, "intrinsic_dim") && !selector_values.count("intrinsic_dim"))
      selector_values["intrinsic_dim"] = std::to_string(dim);
    clock.restart();
    graph = selector->select(X, selector_values, console.progress(std::string(selector->name)));
    console.stage(times, "neighbors", clock.seconds());
    note_search(graph->selection());
    report["selector"] = std::string(selector->name);
    report["selector_parameters"] = nldr_tool::parameters_json(nldr::Arguments(selector->parameters, selector_values,
                                                                               selector->name).values());
  }
  if (graph) {
    report["graph"] = nldr_tool::graph_json(*graph);
    const nldr::Components components = nldr::connected_components(*graph);
    report["disconnected"] = a.disconnected;
    if (!components.connected()) {
      if (a.disconnected == "error") {
        const bool knn = selector && selector->name == "knn";
        nldr_tool::refuse_disconnected(std::string(method.name), components, X,
                                       knn ? nldr::index_t(nldr::Arguments(selector->parameters,
                                                                           a.flags.given(selector->parameters),
                                                                           selector->name).integer("k"))
                                           : 0,
                                       selector != nullptr);
      }
      clock.restart();
      const double median = nldr_tool::median_edge(*graph);
      auto joined = nldr::join_components(X, *graph);
      graph = std::move(joined.graph);
      console.stage(times, "join components", clock.seconds());
      const double longest = joined.edges.empty() ? 0.0 : joined.edges.back().distance;
      report["joined_components"] = joined.components;
      report["joining_edge_count"] = std::int64_t(joined.edges.size());
      JsonValue edges = JsonValue::array();
      for (std::size_t e = joined.edges.size() > 100 ? joined.edges.size() - 100 : 0; e < joined.edges.size(); ++e) {
        JsonValue edge = JsonValue::object();
        edge["a"] = joined.edges[e].a;
        edge["b"] = joined.edges[e].b;
        edge["distance"] = joined.edges[e].distance;
        edges.push_back(std::move(edge));
      }
      report["joining_edges"] = std::move(edges);  // the longest 100, shortest first
      report["longest_joining_edge"] = longest;
      report["median_edge"] = median;
      if (!input_settings.quiet)
        std::cerr << "nldr: the neighbor graph has " << nldr::describe_components(components) << ": joined them by "
                  << joined.edges.size() << " shortest connecting edge" << (joined.edges.size() == 1 ? "" : "s")
                  << " (longest " << longest << ", " << (median > 0 ? longest / median : 0.0)
                  << " x the median edge " << median << "); raise -k to connect it, or --disconnected error to refuse\n";
      report["graph"] = nldr_tool::graph_json(*graph);
    }
    input.graph = &*graph;
  }
  nldr::Matrix<double> geodesics;
  if (a.geodesics) {
    // Shortest paths along the union-symmetrized graph: its edge lengths as the selector or the --graph
    // file gave them (Tenenbaum et al. 2000). The method then fits them as its dissimilarities.
    clock.restart();
    geodesics = nldr::all_pairs_shortest_paths<double>(graph->symmetrized(), 0, console.progress("geodesics"));
    console.stage(times, "geodesics", clock.seconds());
    input = nldr::FitInput<double>{.distances = &geodesics};
    report["dissimilarities"] = "geodesic";
  }
  const nldr::ProgressCallback progress = console.progress(std::string(method.name));
  input.progress = &progress;
  nldr::AnyModel<double> model = method.fit(input, method_values);
  // A model fit on geodesics places new points from their dissimilarities, which no projection applies to.
  if (projection && !a.geodesics) model.set_input_projection(std::move(*projection));
  for (const auto& [stage, seconds] : model.embedding().times.stages) console.stage(times, stage, seconds);
  report["dim"] = model.coordinates().cols();
  report["parameters"] = nldr_tool::parameters_json(model.parameters());
  report["results"] = nldr_tool::results_json(model.results());

  clock.restart();
  write_points(a.out.path, model.coordinates());
  if (a.model.requested()) nldr::save_model(model, a.model.path);
  if (a.plot.plot.requested()) {
    std::string title = std::string(method.name) + " of " + Path(from_distances ? a.distances_file : a.in).filename().string();
    if (graph) title += ", " + graph->selection().selector;
    nldr::io::ScatterOptions options;
    a.plot.apply(options, title, "coordinate 1", "coordinate 2");
    options.color_kind = a.plot.color_kind == "categorical"  ? nldr::io::ColorKind::categorical
                         : a.plot.color_kind == "continuous" ? nldr::io::ColorKind::continuous
                                                             : nldr::io::ColorKind::automatic;
    options.aspect = a.plot.aspect == "equal" ? nldr::io::Aspect::equal
                     : a.plot.aspect == "fill" ? nldr::io::Aspect::fill
                                               : nldr::io::Aspect::automatic;
    nldr::Vector<double> values;
    if (colors) {
      values = colors->column.values;
      options.category_names = colors->column.categories;
      options.color_label = a.plot.color_label.empty() ? colors->column.name : a.plot.color_label;
      report["color"] = colors->column.name;
    }
    nldr::io::write_scatter_plot(a.plot.plot.path, model.coordinates().leftCols(2), values, options);
  }
  console.stage(times, "write", clock.seconds());
  nldr_tool::add_resources(report, times);
  emit_json(a.json, report);
  return ok;
}

// ---- nldr transform -----------------------------------------------------------------------------

struct TransformArgs {
  std::string model, in;
  Output out, json;
};

int transform(const TransformArgs& a) {
  check_distinct({{"--out", a.out.path}, {"--json", a.json.path}}, {a.model, a.in});
  for (const Output* o : {&a.out, &a.json}) check_writable(*o);
  nldr_tool::Console console(input_settings.quiet, input_settings.verbose);
  nldr::StageTimes times;
  nldr::Stopwatch clock;
  const nldr::AnyModel<double> model = nldr::load_model<double>(a.model);
  console.stage(times, "load model", clock.seconds());
  clock.restart();
  const nldr::Matrix<double> X = read_points(a.in);
  console.stage(times, "read", clock.seconds());
  clock.restart();
  const nldr::Matrix<double> Y = model.transform(X);
  console.stage(times, "transform", clock.seconds());
  clock.restart();
  write_points(a.out.path, Y);
  console.stage(times, "write", clock.seconds());
  JsonValue report;
  report["command"] = "transform";
  report["version"] = nldr::version;
  report["model"] = a.model;
  report["method"] = model.method();
  report["input"] = a.in;
  report["n"] = X.rows();
  report["dim"] = Y.cols();
  report["parameters"] = nldr_tool::parameters_json(model.parameters());
  nldr_tool::add_resources(report, times);
  emit_json(a.json, report);
  return ok;
}

// ---- nldr tune ----------------------------------------------------------------------------------

struct TuneArgs {
  std::string in, method, criterion = "auc-rnx";
  std::string scoring = "exact";        ///< --scoring: exact or landmarks
  nldr::index_t scoring_landmarks = 0;  ///< --scoring-landmarks; 0: nldr::default_scoring_landmarks
  nldr::index_t k_min = 5, k_max = 30, k_step = 1;
  nldr::index_t pca = 0;  ///< --pca P; 0: none
  nldr::index_t curve_k = 0;  ///< --curve-k: largest K of the R_NX curve; 0: N - 2
  double radius_min = 0, radius_max = 0;
  int radius_steps = 10;
  std::string t_values;
  double t_min = 0, t_max = 0;
  int t_steps = 9;
  /// The knn selector's default k.
  nldr::index_t graph_k = nldr::index_t(std::stoi(std::string(nldr::detail::k_parameter.default_value)));
  /// The sweep flags by name, to tell which were given.
  std::map<std::string, CLI::Option*, std::less<>> sweep_flags;
  nldr_tool::RegistryFlags flags;
  Output json;
  PlotFlags plot;

  bool given(std::string_view flag) const { return sweep_flags.find(flag)->second->count() > 0; }
  /// The first of `flags` that was given ("" if none).
  std::string first_given(std::initializer_list<std::string_view> names) const {
    for (std::string_view name : names)
      if (given(name)) return std::string(name);
    return "";
  }
};

JsonValue dimension_json(const nldr::TuneResult& result) {
  JsonValue json = JsonValue::object();
  if (result.mle) {
    json["mle"] = result.mle->estimate;
    json["mle_points"] = result.mle->points_used;
  }
  if (result.twonn) {
    json["twonn"] = result.twonn->estimate;
    json["twonn_interval"] = JsonValue::array();
    json["twonn_interval"].push_back(result.twonn->lower);
    json["twonn_interval"].push_back(result.twonn->upper);
  }
  if (!result.dimension_failure.empty()) json["failure"] = result.dimension_failure;
  json["suggested_dim"] = result.suggested_dim;
  return json;
}

/// `steps` values from `low` to `high`, evenly spaced on a linear or a log scale (steps >= 2, low < high).
std::vector<double> spaced_values(double low, double high, int steps, bool log_scale) {
  std::vector<double> values;
  for (int i = 0; i < steps; ++i) {
    const double f = double(i) / double(steps - 1);
    values.push_back(log_scale ? low * std::pow(high / low, f) : low + (high - low) * f);
  }
  values.back() = high;  // exactly, whatever the rounding of the last step
  return values;
}

/// A comma-separated list of numbers ("inf" allowed), as given to `flag`.
std::vector<double> parse_number_list(const std::string& text, std::string_view flag) {
  std::vector<double> values;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, end - start);
    char* stop = nullptr;
    const double v = std::strtod(item.c_str(), &stop);
    if (item.empty() || *stop != '\0')
      nldr::throw_invalid(std::string(flag), flag, " takes numbers separated by commas (e.g. 0.5,1,2,inf): \"",
                          item, "\" is not one");
    values.push_back(v);
    start = end + 1;
  }
  return values;
}

/// A swept value for the JSON report: t may be +infinity (0/1 weights), which JSON numbers cannot hold.
JsonValue swept_json(double value) { return std::isfinite(value) ? JsonValue(value) : JsonValue("inf"); }

/// Which parameter the flags sweep, after refusing flags that belong to another sweep or a missing bound.
nldr::TuneParameter sweep_parameter(const TuneArgs& a) {
  const std::string k_flag = a.first_given({"--k-min", "--k-max", "--k-step"});
  const std::string radius_flag = a.first_given({"--radius-min", "--radius-max", "--radius-steps"});
  const std::string t_flag = a.first_given({"--t-values", "--t-min", "--t-max", "--t-steps"});
  const auto refuse_pair = [](const std::string& one, const std::string& other) {
    if (!one.empty() && !other.empty())
      nldr::throw_invalid(one, one, " and ", other, " sweep different parameters: give the flags of one sweep "
                          "(k: --k-min/--k-max/--k-step; radius: --radius-min/--radius-max/--radius-steps; "
                          "t: --t-values or --t-min/--t-max/--t-steps)");
  };
  refuse_pair(k_flag, radius_flag);
  refuse_pair(k_flag, t_flag);
  refuse_pair(radius_flag, t_flag);
  if (a.given("--k") && t_flag.empty())
    nldr::throw_invalid("--k", "--k fixes the graph of a t sweep (--t-values or --t-min/--t-max); to sweep k give "
                        "--k-min and --k-max");
  if (!radius_flag.empty()) {
    for (std::string_view bound : {"--radius-min", "--radius-max"})
      if (!a.given(bound))
        nldr::throw_invalid(std::string(bound), "the radius sweep needs --radius-min and --radius-max: give ", bound);
    return nldr::TuneParameter::radius;
  }
  if (!t_flag.empty()) {
    if (a.given("--t-values")) {
      const std::string range_flag = a.first_given({"--t-min", "--t-max", "--t-steps"});
      if (!range_flag.empty())
        nldr::throw_invalid(range_flag, range_flag, " and --t-values both give the t values: give one of them");
    } else {
      for (std::string_view bound : {"--t-min", "--t-max"})
        if (!a.given(bound))
          nldr::throw_invalid(std::string(bound), "the t sweep needs --t-min and --t-max (or --t-values): give ", bound);
    }
    return nldr::TuneParameter::t;
  }
  return nldr::TuneParameter::k;
}

/// The radius or t values the flags give (parameter radius or t).
std::vector<double> sweep_values(const TuneArgs& a, nldr::TuneParameter parameter) {
  if (parameter == nldr::TuneParameter::t && a.given("--t-values")) return parse_number_list(a.t_values, "--t-values");
  const bool radius = parameter == nldr::TuneParameter::radius;
  const double low = radius ? a.radius_min : a.t_min, high = radius ? a.radius_max : a.t_max;
  const std::string min_flag = radius ? "--radius-min" : "--t-min", max_flag = radius ? "--radius-max" : "--t-max";
  if (!(std::isfinite(low) && low > 0))
    nldr::throw_invalid(min_flag, min_flag, " = ", low, " must be finite and > 0");
  if (!(std::isfinite(high) && high > low))
    nldr::throw_invalid(max_flag, max_flag, " = ", high, " must be finite and > ", min_flag, " = ", low);
  return spaced_values(low, high, radius ? a.radius_steps : a.t_steps, !radius);
}

/// Sweeps k, the epsilon-ball radius or Laplacian Eigenmaps' t for one method (docs/tuning.md): every
/// criterion for every value, the best value by --criterion.
int tune(const TuneArgs& a) {
  const nldr::EmbedderInfo& method = nldr::find_embedder(a.method);
  if (!method.accepts(nldr::needs_graph))
    nldr::throw_invalid("method", method.name, " uses no neighbor graph, so it has nothing to tune: choose a graph method");
  a.flags.require_applicable({{std::string(method.name), method.parameters}}, std::string(method.name));
  const nldr::TuneParameter parameter = sweep_parameter(a);
  if (parameter == nldr::TuneParameter::t) {
    const std::string t_flag = a.given("--t-values") ? "--t-values" : "--t-min";
    if (!nldr::takes_parameter(method.parameters, "heat_t")) {
      std::string takers;
      for (const auto& entry : nldr::embedders())
        if (nldr::takes_parameter(entry.parameters, "heat_t")) takers += (takers.empty() ? "" : ", ") + std::string(entry.name);
      nldr::throw_invalid(t_flag, t_flag, " sweeps the heat-kernel width heat_t, which ", method.name,
                          " does not take: use it with ", takers);
    }
    if (a.flags.given("heat_t"))
      nldr::throw_invalid("heat_t", "--heat-t is what ", t_flag, " sweeps: drop --heat-t");
  }
  const nldr::TuneCriterion criterion = nldr::parse_criterion(a.criterion);
  a.plot.check();
  check_distinct({{"--json", a.json.path}, {"--plot", a.plot.plot.path}}, {a.in});
  for (const Output* o : {&a.json, &a.plot.plot}) check_writable(*o);
  nldr_tool::Console console(input_settings.quiet, input_settings.verbose);
  nldr::Matrix<double> X = read_points(a.in);
  const nldr::ParameterValues values = a.flags.given(method.parameters);
  JsonValue report;
  nldr::StageTimes pca_times;
  if (a.pca > 0) {
    reduce_by_pca(X, a.pca, embedding_dim(values), console, pca_times, report);
  }
  // The sweep draws the progress line (one step per value); each fit only answers Ctrl-C.
  const nldr::ProgressCallback fit_cancel = console.cancel_only();
  const auto fit_with = [&](const nldr::EmbedderInfo& entry, const nldr::NeighborGraph<double>& graph,
                            const nldr::ParameterValues& given) {
    return nldr::Matrix<double>(
        entry.fit(nldr::FitInput<double>{.points = &X, .graph = &graph, .progress = &fit_cancel}, given).coordinates());
  };
  const auto fit = [&](const nldr::NeighborGraph<double>& graph, const nldr::ParameterValues& given) {
    return fit_with(method, graph, given);
  };
  const auto n = nldr::index_t(X.rows());
  if (a.curve_k > n - 2)
    nldr::throw_invalid("--curve-k", "--curve-k = ", a.curve_k, " exceeds N - 2 = ", n - 2,
                        ": give at most that, or 0 for the whole curve");
  // --scoring landmarks: a cheaper stand-in scores every value, the method itself runs once at the best.
  std::optional<nldr::LandmarkScoring> stand_in;
  if (a.scoring == "landmarks") {
    if (a.scoring_landmarks > n)
      nldr::throw_invalid("--scoring-landmarks", "--scoring-landmarks = ", a.scoring_landmarks, " exceeds N = ", n,
                          ": give at most N, or 0 for the default");
    if (a.scoring_landmarks > 0 && a.scoring_landmarks <= embedding_dim(values))
      nldr::throw_invalid("--scoring-landmarks", "--scoring-landmarks = ", a.scoring_landmarks, " must exceed --dim ",
                          embedding_dim(values), ": give more landmarks, or 0 for the default");
    try {
      stand_in = nldr::landmark_scoring(method, values,
                                        a.scoring_landmarks > 0 ? a.scoring_landmarks : nldr::default_scoring_landmarks(n));
    } catch (const nldr::invalid_argument& e) {
      nldr::throw_invalid("--scoring", "--scoring landmarks: ", e.what(), " (--scoring exact)");
    }
  } else if (a.scoring_landmarks > 0) {
    nldr::throw_invalid("--scoring-landmarks", "--scoring-landmarks applies to --scoring landmarks: add it, or drop "
                        "--scoring-landmarks");
  }
  nldr::TuneOptions options{.parameter = parameter, .criterion = criterion,
                            .criteria = {.rank_k_max = a.curve_k},
                            .progress = console.progress("tune " + std::string(method.name))};
  std::optional<nldr::TuneResult> result;
  if (parameter != nldr::TuneParameter::t) {
    if (parameter == nldr::TuneParameter::k)
      options.k_min = a.k_min, options.k_max = a.k_max, options.k_step = a.k_step;
    else
      options.values = sweep_values(a, parameter);
    const auto exact = [&](const nldr::NeighborGraph<double>& graph) { return fit(graph, values); };
    result = stand_in ? nldr::tune(X, options,
                                   [&](const nldr::NeighborGraph<double>& graph) {
                                     return fit_with(*stand_in->method, graph, stand_in->values);
                                   },
                                   exact)
                      : nldr::tune(X, options, exact);
  } else {
    options.values = sweep_values(a, parameter);
    const auto graph = nldr::KNearest{a.graph_k}(X);
    result = nldr::tune(X, graph, options, [&](const nldr::NeighborGraph<double>& g, double t) {
      nldr::ParameterValues with_t = values;
      with_t["heat_t"] = nldr::detail::concat(t);
      return fit(g, with_t);
    });
  }
  const std::string name(nldr::parameter_name(parameter));
  report["command"] = "tune";
  report["version"] = nldr::version;
  report["input"] = a.in;
  report["method"] = std::string(method.name);
  auto fixed = nldr::Arguments(method.parameters, values, method.name).values();
  if (parameter == nldr::TuneParameter::t) fixed.erase("heat_t");  // swept, not fixed
  report["parameters"] = nldr_tool::parameters_json(fixed);
  report["criterion"] = std::string(nldr::criterion_name(result->criterion));
  report["parameter"] = name;
  if (parameter == nldr::TuneParameter::t) report["graph_k"] = a.graph_k;
  report["curve_k"] = a.curve_k > 0 ? a.curve_k : n - 2;
  report["best_value"] = swept_json(result->best_value);
  if (parameter == nldr::TuneParameter::k) report["best_k"] = result->best_k;
  const auto score_json = [&](const nldr::TuneScore& score) {
    JsonValue row = JsonValue::object();
    if (parameter == nldr::TuneParameter::k)
      row["k"] = score.k;
    else
      row[name] = swept_json(score.value);
    row["mean_degree"] = score.mean_degree;
    for (const auto c : nldr::all_tune_criteria) {
      const double v = score.values.value(c);
      row[std::string(nldr::criterion_name(c))] = std::isfinite(v) ? JsonValue(v) : JsonValue(nullptr);
    }
    if (!score.failure.empty()) row["failure"] = score.failure;
    return row;
  };
  JsonValue scoring = JsonValue::object();
  scoring["by"] = a.scoring;
  if (stand_in) {
    scoring["method"] = std::string(stand_in->method->name);
    scoring["landmarks"] = std::stoi(stand_in->values.at("landmarks"));
  }
  report["scoring"] = std::move(scoring);
  if (result->exact_at_best) report["exact_at_best"] = score_json(*result->exact_at_best);
  JsonValue scores = JsonValue::array();
  nldr::io::LineSeries curve{.name = std::string(nldr::criterion_name(criterion))};
  for (const auto& score : result->scores) {
    scores.push_back(score_json(score));
    const double v = score.values.value(criterion);
    if (std::isfinite(v) && std::isfinite(score.value)) curve.x.push_back(score.value), curve.y.push_back(v);
  }
  report["scores"] = std::move(scores);
  report["dimension"] = dimension_json(*result);
  const std::string scored_by = stand_in ? " (scored by " + std::string(stand_in->method->name) + ", m = " +
                                               stand_in->values.at("landmarks") + ")"
                                         : "";
  if (a.plot.plot.requested()) {
    nldr::io::LinePlotOptions plot_options;
    plot_options.log_x = parameter == nldr::TuneParameter::t;
    const std::string axis = parameter == nldr::TuneParameter::k        ? "neighbors k"
                             : parameter == nldr::TuneParameter::radius ? "radius"
                                                                        : "heat-kernel width t";
    a.plot.apply(plot_options,
                 std::string(method.name) + " on " + Path(a.in).filename().string() + ": " + curve.name + " over " +
                     name + scored_by,
                 axis, curve.name);
    nldr::io::write_line_plot(a.plot.plot.path, {curve}, plot_options);
  }
  console.print(result->times);
  for (const auto& [stage, seconds] : result->times.stages) pca_times.add(stage, seconds);
  nldr_tool::add_resources(report, pca_times);  // --pca's stage first, then the sweep's
  if (a.json.requested())
    emit_json(a.json, report);
  else
    std::printf("best %s = %g by %s%s\n", name.c_str(), result->best_value, curve.name.c_str(), scored_by.c_str());
  return ok;
}

// ---- nldr intrinsic-dim -------------------------------------------------------------------------

struct DimensionArgs {
  std::string in;
  Output json;
};

int intrinsic_dim(const DimensionArgs& a) {
  check_writable(a.json);
  nldr_tool::Console console(input_settings.quiet, input_settings.verbose);
  const nldr::Matrix<double> X = read_points(a.in);
  nldr::StageTimes times;
  nldr::Stopwatch clock;
  const auto mle = nldr::mle_intrinsic_dimension(X);
  console.stage(times, "mle", clock.seconds());
  clock.restart();
  const auto twonn = nldr::twonn_intrinsic_dimension(X);
  console.stage(times, "twonn", clock.seconds());
  JsonValue report;
  report["command"] = "intrinsic-dim";
  report["version"] = nldr::version;
  report["input"] = a.in;
  report["mle"] = mle.estimate;
  JsonValue per_k = JsonValue::object();
  for (std::size_t i = 0; i < mle.k.size(); ++i) per_k[std::to_string(mle.k[i])] = mle.per_k[i];
  report["mle_per_k"] = std::move(per_k);
  report["twonn"] = twonn.estimate;
  report["twonn_interval"] = JsonValue::array();
  report["twonn_interval"].push_back(twonn.lower);
  report["twonn_interval"].push_back(twonn.upper);
  report["twonn_confidence"] = twonn.confidence;
  report["duplicates_removed"] = mle.duplicates_removed;
  nldr_tool::add_resources(report, times);
  if (a.json.requested())
    emit_json(a.json, report);
  else
    std::printf("intrinsic dimension: MLE %.2f, TwoNN %.2f (%.0f%% interval %.2f..%.2f)\n", mle.estimate,
                twonn.estimate, 100 * twonn.confidence, twonn.lower, twonn.upper);
  return ok;
}

// ---- nldr evaluate ------------------------------------------------------------------------------

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

int evaluate(EvaluateArgs a) {
  a.plot.check();
  for (const Output* o : {&a.json, &a.plot.plot}) check_writable(*o);
  nldr_tool::Console console(input_settings.quiet, input_settings.verbose);
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
      nldr::io::LineSeries series{.name = Path(a.embeddings[e]).filename().string()};
      for (std::size_t K = 1; K <= reports[e].r_nx_curve.size(); ++K) {
        series.x.push_back(double(K));
        series.y.push_back(reports[e].r_nx_curve[K - 1]);
      }
      curves.push_back(std::move(series));
    }
    nldr::io::LinePlotOptions options{.log_x = true};
    a.plot.apply(options, "Quality of embeddings of " + Path(a.in).filename().string(), "neighborhood size K", "R_NX(K)");
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
  JsonValue report = reports.size() == 1 ? nldr_tool::quality_json(reports[0]) : JsonValue::object();
  if (reports.size() == 1) {
    report["embedding"] = a.embeddings[0];
    add_geodesic(report, 0);
  } else {
    JsonValue list = JsonValue::array();
    for (std::size_t e = 0; e < reports.size(); ++e) {
      JsonValue one = nldr_tool::quality_json(reports[e]);
      one["embedding"] = a.embeddings[e];
      add_geodesic(one, e);
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

/// --header, --index-col, --columns, --quiet: how the input tables are read (docs/io.md).
void add_input_options(CLI::App& command) {
  command.add_option("--header", input_settings.header,
                     "Input header line: auto (recognizes a non-numeric first line and pandas' defaults), yes, no")
      ->check(CLI::IsMember({"auto", "yes", "no"}))
      ->capture_default_str();
  command.add_option("--index-col", input_settings.index_col,
                     "Input row-index column to leave out: a name or 0-based position, or none (default: pandas' "
                     "unnamed 0..N-1 index is recognized and left out, with a note)");
  command.add_option("--columns", input_settings.columns, "Input data columns, comma-separated names or positions");
  command.add_flag("--quiet,-q", input_settings.quiet, "Print no notes and no progress on stderr");
  command.add_flag("--verbose,-v", input_settings.verbose, "Print each stage's wall time on stderr as it finishes");
}

void add_output_options(CLI::App& command) {
  command.add_flag("--out-header", out_header, "Write a first line of column names (d1, d2, ...) to CSV outputs");
}

void add_threads_option(CLI::App& command, int& threads) {
  command.add_option("--threads", threads, "Worker threads (default: all cores); results do not depend on it")
      ->check(CLI::Range(1, 4096));
}

/// The library names a registry parameter as `name = value` (and eigensolver settings as
/// `eigen.name`); the tool user sets it as a flag, so the message says `--name value`.
std::string in_flags(std::string message) {
  std::vector<std::string_view> names;
  for (const auto& entry : nldr::embedders())
    for (const auto& spec : entry.parameters) names.push_back(spec.name);
  for (const auto& entry : nldr::selectors())
    for (const auto& spec : entry.parameters) names.push_back(spec.name);
  std::sort(names.begin(), names.end(), [](auto a, auto b) { return a.size() > b.size(); });
  for (const auto name : names) {
    const std::string setting = name.starts_with("eigen_") ? "eigen." + std::string(name.substr(6))
                                                           : "eigen." + std::string(name);
    const std::regex patterns[] = {std::regex("(^|[^A-Za-z0-9_.-])" + std::string(name) + " = "),
                                   std::regex("(^|[^A-Za-z0-9_-])" + std::regex_replace(setting, std::regex("\\."),
                                                                                          "\\.") + "\\b")};
    message = std::regex_replace(message, patterns[0], "$1" + nldr_tool::flag_name(name) + " ");
    message = std::regex_replace(message, patterns[1], "$1" + nldr_tool::flag_name(name));
  }
  // "(nldr::Smacof, method smacof)": the library names a registry method, the tool its flag.
  for (const auto& entry : nldr::embedders())
    message = std::regex_replace(message, std::regex("(^|[^A-Za-z0-9_-])method " + std::string(entry.name) + "\\b"),
                                 "$1--method " + std::string(entry.name));
  return message;
}

/// Maps an exception to its exit code after printing "nldr <command>: error: <message>".
int report_error(const std::string& command, const std::string& message, int code) {
  std::string line = in_flags(message);
  for (char& c : line)
    if (c == '\n' || c == '\r') c = ' ';
  std::cerr << "nldr" << (command.empty() ? "" : " " + command) << ": error: " << line << '\n';
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"nldr: nonlinear dimensionality reduction with swappable neighbor selection (docs/tool.md)", "nldr"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("nldr ") + nldr::version);
  int threads = 0;

  GenerateArgs gen;
  auto* generate_cmd = app.add_subcommand("generate", "Sample a data set with ground truth");
  generate_cmd->add_option("dataset", gen.dataset, "Data set: " + nldr::detail::joined(nldr::datasets::dataset_names()))
      ->required();
  generate_cmd->add_option("--n", gen.options.n, "Number of points")->capture_default_str();
  generate_cmd->add_option("--noise", gen.options.noise, "Standard deviation of Gaussian noise")->capture_default_str();
  generate_cmd->add_option("--seed", gen.options.seed, "Random seed (same seed, same data)")->capture_default_str();
  generate_cmd->add_option("--out,-o", gen.out.path, "Points CSV (N x D)")->required();
  generate_cmd->add_option("--truth", gen.truth.path, "Intrinsic coordinates CSV (N x m)");
  generate_cmd->add_option("--labels", gen.labels.path, "Class labels CSV (clusters-3d)");
  generate_cmd->add_option("--color", gen.color.path, "Generating parameter CSV (for coloring plots)");

  NeighborsArgs nb;
  auto* neighbors_cmd = app.add_subcommand("neighbors", "Select neighbors; write the directed edges i,j,distance");
  neighbors_cmd->add_option("--in,-i", nb.in, "Points CSV (N x D)")->required();
  neighbors_cmd->add_option("--selector", nb.selector, "Neighbor selector: " + selector_names())->capture_default_str();
  nb.flags.add_to(*neighbors_cmd, false, true);
  add_pca_option(*neighbors_cmd, nb.pca);
  neighbors_cmd->add_option("--out,-o", nb.out.path, "Edges CSV, one directed edge i,j,distance per line (0-based)")
      ->required();
  add_json_option(*neighbors_cmd, nb.json);
  add_input_options(*neighbors_cmd);
  add_threads_option(*neighbors_cmd, threads);

  EmbedArgs em;
  auto* embed_cmd = app.add_subcommand("embed", "Embed points in d dimensions");
  embed_cmd->add_option("--in,-i", em.in, "Points CSV (N x D)");
  embed_cmd->add_option("--out,-o", em.out.path, "Embedding CSV (N x d)")->required();
  embed_cmd->add_option("--method,-m", em.method, "Method: " + method_names())->required();
  em.selector_option =
      embed_cmd->add_option("--selector", em.selector, "Neighbor selector: " + selector_names())->capture_default_str();
  embed_cmd->add_option("--graph", em.graph_file,
                        "Neighbor graph CSV (i,j,distance per line, as nldr neighbors writes it) instead of --selector; "
                        "its distances are used as given");
  embed_cmd->add_option("--distances", em.distances_file,
                        "N x N dissimilarity CSV instead of --in [" + method_names(nldr::from_distances) + "]");
  embed_cmd->add_flag("--geodesics", em.geodesics,
                      "Fit shortest-path lengths along the neighbor graph (--selector and its flags, or --graph) as the "
                      "dissimilarities [" + method_names(nldr::from_distances) + "]");
  em.flags.add_to(*embed_cmd, true, true);
  add_pca_option(*embed_cmd, em.pca);
  embed_cmd->add_option("--save-model", em.model.path, "Write the fitted model (for nldr transform) to PATH");
  em.plot.add_to(*embed_cmd, true, "Scatter plot of the first two coordinates");
  embed_cmd->add_option("--color", em.color.path, "Colors for --plot: a one-column file, numbers or text, one per point");
  embed_cmd->add_option("--color-column", em.color_column,
                        "Color --plot by this column of --in (name or 0-based position); it is not embedded");
  em.disconnected_option =
      embed_cmd
          ->add_option("--disconnected", em.disconnected,
                       "A disconnected neighbor graph: join its components by their shortest connecting edges "
                       "(with a note), or error")
          ->check(CLI::IsMember({"join", "error"}))
          ->capture_default_str();
  add_json_option(*embed_cmd, em.json);
  add_input_options(*embed_cmd);
  add_output_options(*embed_cmd);
  add_threads_option(*embed_cmd, threads);

  TransformArgs tr;
  auto* transform_cmd = app.add_subcommand("transform", "Place new points with a model saved by embed --save-model");
  transform_cmd->add_option("--model", tr.model, "Model file written by nldr embed --save-model")->required();
  transform_cmd->add_option("--in,-i", tr.in,
                            "New points CSV (P x D; for a model fit on --distances: P x N distances to the training "
                            "points)")
      ->required();
  transform_cmd->add_option("--out,-o", tr.out.path, "Embedding CSV of the new points (P x d)")->required();
  add_json_option(*transform_cmd, tr.json);
  add_input_options(*transform_cmd);
  add_output_options(*transform_cmd);
  add_threads_option(*transform_cmd, threads);

  EvaluateArgs ev;
  auto* evaluate_cmd = app.add_subcommand("evaluate", "Measure how well an embedding preserves the data");
  evaluate_cmd->add_option("--in,-i", ev.in, "Points CSV (N x D)")->required();
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
  evaluate_cmd->add_option("--geodesic-k", ev.geodesic_k,
                           "Also residual_variance_geodesic: against geodesics along the kNN graph of --in with this k")
      ->check(CLI::Range(1, 1 << 30));
  ev.plot.add_to(*evaluate_cmd, false, "R_NX(K) curves");
  add_json_option(*evaluate_cmd, ev.json);
  add_input_options(*evaluate_cmd);
  add_threads_option(*evaluate_cmd, threads);

  TuneArgs tu;
  auto* tune_cmd = app.add_subcommand(
      "tune", "Choose k, the radius or t for a method: every criterion without ground truth over a sweep");
  tune_cmd->add_option("--in,-i", tu.in, "Points CSV (N x D)")->required();
  tune_cmd->add_option("--method,-m", tu.method, "Method: " + method_names())->required();
  const auto sweep_flag = [&](std::string name, CLI::Option* option) { tu.sweep_flags[std::move(name)] = option; };
  sweep_flag("--k-min", tune_cmd->add_option("--k-min", tu.k_min, "k sweep: smallest k")->capture_default_str()
                            ->check(CLI::Range(1, 1 << 30)));
  sweep_flag("--k-max", tune_cmd->add_option("--k-max", tu.k_max, "k sweep: largest k")->capture_default_str()
                            ->check(CLI::Range(1, 1 << 30)));
  sweep_flag("--k-step", tune_cmd->add_option("--k-step", tu.k_step, "k sweep: step of k")->capture_default_str()
                             ->check(CLI::Range(1, 1 << 30)));
  sweep_flag("--radius-min", tune_cmd->add_option("--radius-min", tu.radius_min,
                                                  "Radius sweep (epsilon-ball graphs): smallest radius"));
  sweep_flag("--radius-max", tune_cmd->add_option("--radius-max", tu.radius_max, "Radius sweep: largest radius"));
  sweep_flag("--radius-steps", tune_cmd->add_option("--radius-steps", tu.radius_steps,
                                                    "Radius sweep: radii, evenly spaced from min to max")
                                   ->capture_default_str()->check(CLI::Range(2, 1 << 20)));
  sweep_flag("--t-values", tune_cmd->add_option("--t-values", tu.t_values,
                                                "t sweep (heat-kernel width, e.g. laplacian-eigenmaps): the t values, "
                                                "comma-separated, increasing (inf: 0/1 weights)"));
  sweep_flag("--t-min", tune_cmd->add_option("--t-min", tu.t_min, "t sweep: smallest t"));
  sweep_flag("--t-max", tune_cmd->add_option("--t-max", tu.t_max, "t sweep: largest t"));
  sweep_flag("--t-steps", tune_cmd->add_option("--t-steps", tu.t_steps, "t sweep: values, evenly spaced on a log scale")
                              ->capture_default_str()->check(CLI::Range(2, 1 << 20)));
  sweep_flag("--k", tune_cmd->add_option("--k", tu.graph_k, "t sweep: k of the fixed kNN graph")
                        ->capture_default_str()->check(CLI::Range(1, 1 << 30)));
  tune_cmd->add_option("--criterion", tu.criterion, "What picks the best value: auc-rnx, lcmc, geodesic-rv, euclidean-rv")
      ->capture_default_str();
  tune_cmd->add_option("--curve-k", tu.curve_k,
                       "Largest K of the R_NX curve behind auc-rnx and lcmc; 0 = N - 2, the whole curve, O(N^2 log N) "
                       "per value. Below N/8, two neighbor searches per value suffice: e.g. 100 for N >= 10^4")
      ->capture_default_str()->check(CLI::Range(0, 1 << 30));
  std::string approximations;
  for (const auto& entry : nldr::embedders())
    if (!entry.landmark_approximation.empty())
      approximations += (approximations.empty() ? "" : ", ") + std::string(entry.name) + ": " +
                        std::string(entry.landmark_approximation);
  tune_cmd->add_option("--scoring", tu.scoring,
                       "exact: fit the method at every value; landmarks: score every value with the method's "
                       "landmark approximation (" + approximations + ") and fit the method once, at the best")
      ->capture_default_str()->check(CLI::IsMember({"exact", "landmarks"}));
  tune_cmd->add_option("--scoring-landmarks", tu.scoring_landmarks,
                       "Landmarks of --scoring landmarks; 0 = the default (docs/tuning.md, \"Scoring through landmarks\")")
      ->capture_default_str()->check(CLI::Range(0, 1 << 30));
  tu.flags.add_to(*tune_cmd, true, false);
  add_pca_option(*tune_cmd, tu.pca);
  tu.plot.add_to(*tune_cmd, false, "The criterion over the swept parameter");
  add_json_option(*tune_cmd, tu.json);
  add_input_options(*tune_cmd);
  add_threads_option(*tune_cmd, threads);

  DimensionArgs di;
  auto* dimension_cmd = app.add_subcommand("intrinsic-dim", "Estimate the intrinsic dimension (MLE, TwoNN)");
  dimension_cmd->add_option("--in,-i", di.in, "Points CSV (N x D)")->required();
  add_json_option(*dimension_cmd, di.json);
  add_input_options(*dimension_cmd);
  add_threads_option(*dimension_cmd, threads);

  std::string command;
  try {
    // CLI11 would only say "A subcommand is required" for a misspelled command.
    const std::string first = argc > 1 ? argv[1] : "-";
    if (first[0] != '-' && app.get_subcommands([&](const CLI::App* c) { return c->check_name(first); }).empty())
      nldr::throw_invalid("command", "unknown command \"", first, "\": use generate, neighbors, embed, transform, evaluate, tune or intrinsic-dim");
    app.parse(argc, argv);
    command = app.get_subcommands().front()->get_name();
    if (threads > 0) nldr::set_threads(threads);
    // `--json` without a path means standard output.
    const std::pair<CLI::App*, Output*> json_options[] = {
        {neighbors_cmd, &nb.json}, {embed_cmd, &em.json},   {transform_cmd, &tr.json},
        {evaluate_cmd, &ev.json},  {tune_cmd, &tu.json},     {dimension_cmd, &di.json}};
    for (auto [cmd, json] : json_options)
      if (cmd->parsed() && cmd->count("--json") > 0 && json->path.empty()) json->path = "-";
    if (command == "generate") return generate(gen);
    if (command == "neighbors") return neighbors(nb);
    if (command == "embed") return embed(em);
    if (command == "transform") return transform(tr);
    if (command == "tune") return tune(tu);
    if (command == "intrinsic-dim") return intrinsic_dim(di);
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
  } catch (const nldr::cancelled& e) {
    return report_error(command, e.what(), interrupted);
  } catch (const nldr::error& e) {  // disconnected_graph, convergence_error, memory_limit_exceeded
    return report_error(command, e.what(), data_failure);
  } catch (const std::bad_alloc&) {
    return report_error(command, "out of memory: use fewer points, a landmark method or a smaller k", data_failure);
  } catch (const std::exception& e) {
    return report_error(command, std::string("internal error, please report it: ") + e.what(), internal_error);
  }
}
