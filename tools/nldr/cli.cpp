#include "cli.hpp"

#include "report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>

namespace nldr_tool {

nldr::io::ReadOptions Session::read_options() const {
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

nldr::Matrix<double> Session::read_points(const std::string& path, bool data_columns) const {
  nldr::io::ReadOptions options = data_columns ? read_options() : nldr::io::ReadOptions{};
  auto read = nldr::io::read_matrix<double>(path, options);
  if (!quiet)
    for (const auto& note : read.notes) std::cerr << "nldr: " << nldr::io::input_name(path) << ": " << note << '\n';
  return std::move(read.values);
}

void Session::write_points(const std::string& path, const nldr::Matrix<double>& Y, const std::string& prefix) const {
  nldr::io::WriteOptions options;
  if (out_header)
    for (Eigen::Index c = 0; c < Y.cols(); ++c) options.header.push_back(prefix + std::to_string(c + 1));
  nldr::io::write_matrix(path, Y, options);
}

nldr::io::CsvHeader Session::header_of_per_point_file(std::string_view bytes, nldr::index_t n,
                                                      const std::string& path, const std::string& flag) const {
  if (header == "yes") return nldr::io::CsvHeader::present;
  if (header == "no") return nldr::io::CsvHeader::absent;
  nldr::index_t lines = 0;
  for (std::size_t start = 0; start < bytes.size();) {
    const std::size_t end = std::min(bytes.find('\n', start), bytes.size());
    if (bytes.substr(start, end - start).find_first_not_of(" \t\r") != std::string_view::npos) ++lines;
    start = end + 1;
  }
  if (lines != n && lines != n + 1)
    nldr::throw_invalid(flag, "--", flag, " ", path, " has ", lines, " rows but must hold one value per point: ", n,
                        " rows (or a header line and ", n, " rows)");
  return lines == n ? nldr::io::CsvHeader::absent : nldr::io::CsvHeader::present;
}

std::vector<int> Session::read_labels(const std::string& path, nldr::index_t n) const {
  const std::string bytes = nldr::io::read_bytes(path);
  nldr::io::ReadOptions options;
  options.header = header_of_per_point_file(bytes, n, path, "labels");
  options.index_col = nldr::io::IndexColumn::none();
  const nldr::Matrix<double> values = nldr::io::parse_matrix<double>(bytes, nldr::io::input_name(path), options).values;
  if (values.cols() != 1 || values.rows() != n)
    nldr::throw_invalid("labels", path, " is ", values.rows(), " x ", values.cols(), " but must hold one class "
                        "label per point: ", n, " rows (or a header line and ", n, " rows), 1 column");
  std::vector<int> labels(static_cast<std::size_t>(n));
  for (Eigen::Index i = 0; i < values.rows(); ++i) {
    if (values(i, 0) != std::round(values(i, 0)) || std::abs(values(i, 0)) > 1e9)
      nldr::throw_invalid("labels", path, " row ", i + 1, " holds ", values(i, 0), ": class labels must be integers");
    labels[std::size_t(i)] = int(values(i, 0));
  }
  return labels;
}

void Session::note_search(const nldr::SelectionReport& selection) const {
  const bool approximate = selection.search == nldr::search_name(nldr::NeighborSearch::hnsw);
  const std::string note = search_note(selection);
  if (!note.empty() && (verbose || (approximate && !quiet))) std::cerr << note << '\n';
}

void check_writable(const Output& output) {
  if (output.requested() && !output.to_stdout()) nldr::io::AtomicFile probe(output.path);
}

void check_distinct(const std::vector<std::pair<std::string, std::string>>& outputs,
                    const std::vector<std::string>& inputs) {
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

std::string method_names(std::optional<nldr::EmbedderInput> input) {
  std::vector<std::string_view> names;
  for (const auto& entry : nldr::embedders())
    if (!input || entry.accepts(*input)) names.push_back(entry.name);
  return nldr::detail::joined(names);
}

std::string method_names_taking_initial() {
  std::vector<std::string_view> names;
  for (const auto& entry : nldr::embedders())
    if (nldr::offers_choice(entry.parameters, "init", "given")) names.push_back(entry.name);
  return names.empty() ? std::string("none yet") : nldr::detail::joined(names);
}

std::string method_names_supervised() {
  std::vector<std::string_view> names;
  for (const auto& entry : nldr::embedders())
    if (nldr::takes_parameter(entry.parameters, "target_weight")) names.push_back(entry.name);
  return nldr::detail::joined(names);
}

std::string selector_names() {
  std::vector<std::string_view> names;
  for (const auto& entry : nldr::selectors()) names.push_back(entry.name);
  return nldr::detail::joined(names);
}

JsonValue pca_json(const nldr::PcaSummary& pca) {
  JsonValue json = JsonValue::object();
  json["dim"] = pca.dim;
  json["input_dim"] = pca.input_dim;
  json["explained_variance_ratio"] = pca.explained_variance_ratio;
  json["solver"] = pca.solver;
  return json;
}

void note_pca(const Session& session, const nldr::PcaSummary& pca) {
  if (session.verbose && !session.quiet)
    std::fprintf(stderr, "nldr: PCA from D = %lld to %d dimensions keeps %.1f%% of the variance (%s)\n",
                 static_cast<long long>(pca.input_dim), int(pca.dim), 100 * pca.explained_variance_ratio,
                 pca.solver.c_str());
}

nldr::InputProjection<double> reduce_by_pca(const Session& session, nldr::Matrix<double>& X, nldr::index_t p,
                                            nldr::index_t dim, Console& console, nldr::StageTimes& times,
                                            JsonValue& report) {
  nldr::Stopwatch clock;
  auto reduced = nldr::reduce_by_pca(X, p, dim, console.progress("PCA"));
  console.stage(times, "pca", clock.seconds());
  report["pca"] = pca_json(reduced.summary);
  note_pca(session, reduced.summary);
  X = std::move(reduced.points);
  return std::move(reduced.projection);
}

void add_json_option(CLI::App& command, Output& json) {
  json.bare = command.add_option("--json", json.path, "Write a JSON report to PATH (standard output without PATH)")
                  ->expected(0, 1)
                  ->type_name("[PATH]");
}

void add_input_options(CLI::App& command, Session& session) {
  command.add_option("--header", session.header,
                     "Input header line: auto (recognizes a non-numeric first line and pandas' defaults), yes, no")
      ->check(CLI::IsMember({"auto", "yes", "no"}))
      ->capture_default_str();
  command.add_option("--index-col", session.index_col,
                     "Input row-index column to leave out: a name or 0-based position, or none (default: pandas' "
                     "unnamed 0..N-1 index is recognized and left out, with a note)");
  command.add_option("--columns", session.columns, "Input data columns, comma-separated names or positions");
  command.add_flag("--quiet,-q", session.quiet, "Print no notes and no progress on stderr");
  command.add_flag("--verbose,-v", session.verbose, "Print each stage's wall time on stderr as it finishes");
}

void add_output_options(CLI::App& command, Session& session) {
  command.add_flag("--out-header", session.out_header, "Write a first line of column names (d1, d2, ...) to CSV outputs");
}

void add_threads_option(CLI::App& command, Session& session) {
  command.add_option("--threads", session.threads, "Worker threads (default: all cores); results do not depend on it")
      ->check(CLI::Range(1, 4096));
}

CLI::Option* add_pca_option(CLI::App& command, nldr::index_t& p) {
  return command
      .add_option("--pca", p,
                  "Reduce the points to their first P principal components before the neighbor graph (randomized "
                  "SVD for large D); the kept variance goes to --json and, with --verbose, to stderr")
      ->check(CLI::Range(1, 1 << 30));
}

void PlotFlags::add_to(CLI::App& command, bool scatter, const std::string& what) {
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

void PlotFlags::check() const {
  for (const CLI::Option* option : style)
    if (option->count() > 0 && !plot.requested())
      nldr::throw_invalid("plot", option->get_name(), " styles the --plot: add --plot Y.svg (or .png, .pdf) or drop ",
                          option->get_name());
  if (plot.requested()) nldr::io::plot_format(plot.path);
}

}  // namespace nldr_tool
