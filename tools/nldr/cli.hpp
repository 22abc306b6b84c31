// The nldr tool's shared command-line layer (docs/tool.md): exit codes, outputs checked before the
// work and written atomically after it, how input tables are read, the flags several commands
// share, and the table of commands main() builds the tool from.
#pragma once

#include "console.hpp"

#include <nldr/nldr.hpp>
#include <nldr/version.hpp>

#include <CLI/CLI.hpp>

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace nldr_tool {

using nldr::io::JsonValue;

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
  /// --json given without a path (add_json_option): standard output.
  const CLI::Option* bare = nullptr;
  bool requested() const { return !path.empty() || given_without_path(); }
  bool to_stdout() const { return path == "-" || given_without_path(); }

 private:
  bool given_without_path() const { return bare != nullptr && bare->count() > 0 && path.empty(); }
};

/// What every command shares, set once from its command line: how input tables are read (--header,
/// --index-col, --columns; docs/io.md), --out-header, --quiet, --verbose and --threads.
struct Session {
  std::string header = "auto", index_col, columns;
  bool quiet = false, verbose = false;
  bool out_header = false;  ///< --out-header: a first line d1,...,dd (CSV); none for .npy
  int threads = 0;          ///< --threads; 0: all cores

  nldr::io::ReadOptions read_options() const;
  /// A console for this command's notes and progress (console.hpp).
  Console console() const { return Console(quiet, verbose); }

  /// A table of points (CSV, TSV, whitespace, .npy, or "-" for standard input), reporting on stderr
  /// what was detected or left out (a pandas index column, a header) so nothing happens silently.
  /// `data_columns`: --header/--index-col/--columns apply (not to a graph or label file).
  nldr::Matrix<double> read_points(const std::string& path, bool data_columns = true) const;
  void write_points(const std::string& path, const nldr::Matrix<double>& Y, const std::string& prefix = "d") const;
  /// Whether a file of one value per point for n points (--labels, --color: `flag`) has a header
  /// line: --header when given, else by its row count: n non-blank lines have none (whatever the
  /// first holds, "0" or "setosa"), n + 1 have one. \throws nldr::invalid_argument for another count.
  nldr::io::CsvHeader header_of_per_point_file(std::string_view bytes, nldr::index_t n, const std::string& path,
                                               const std::string& flag) const;
  /// One integer class label per point from a one-column file of n rows, or a header and n rows.
  std::vector<int> read_labels(const std::string& path, nldr::index_t n) const;
  /// Says on stderr which neighbor search built a graph: with --verbose always, otherwise (unless
  /// --quiet) when it is approximate, so that no one gets an approximate graph unawares.
  void note_search(const nldr::SelectionReport& selection) const;
};

/// Fails now, before any work, if `output` could not be written later (missing directory, a
/// directory in its place, no permission). Leaves nothing behind.
void check_writable(const Output& output);

/// Refuses output paths that name the same file as another output or as an input (generate --out X
/// --truth X would overwrite the points with the truth). Pairs are (flag, path).
void check_distinct(const std::vector<std::pair<std::string, std::string>>& outputs,
                    const std::vector<std::string>& inputs = {});

void emit_json(const Output& output, const JsonValue& json);

/// The registry's methods, or those that accept `input` (e.g. nldr::from_distances), comma-separated.
std::string method_names(std::optional<nldr::EmbedderInput> input = std::nullopt);
/// The methods whose init offers "given" (starting coordinates, --initial), comma-separated.
std::string method_names_taking_initial();
/// The methods that take labels for a supervised fit (those with a target_weight parameter).
std::string method_names_supervised();
std::string selector_names();

/// --pca P (docs/tool.md, "PCA before the graph"): X replaced by its first P principal components
/// (nldr::reduce_by_pca), the stage timed, the kept variance in report["pca"] (and on stderr with
/// --verbose); returns the projection for a saved model. `dim`: the embedding's dimension (1: none).
nldr::InputProjection<double> reduce_by_pca(const Session& session, nldr::Matrix<double>& X, nldr::index_t p,
                                            nldr::index_t dim, Console& console, nldr::StageTimes& times,
                                            JsonValue& report);
/// The PCA stage's part of a --json report.
JsonValue pca_json(const nldr::PcaSummary& pca);
/// With --verbose, the PCA stage's note on stderr.
void note_pca(const Session& session, const nldr::PcaSummary& pca);

// The flags several commands share.
void add_json_option(CLI::App& command, Output& json);
void add_input_options(CLI::App& command, Session& session);
void add_output_options(CLI::App& command, Session& session);
void add_threads_option(CLI::App& command, Session& session);
CLI::Option* add_pca_option(CLI::App& command, nldr::index_t& p);

/// --plot and the flags that style it (docs/figures.md). A style flag without --plot is an error.
struct PlotFlags {
  Output plot;
  std::string title, x_label, y_label, color_label, color_kind = "auto", aspect = "auto";
  int width = 0, height = 0;  ///< 0: the library's default
  std::vector<CLI::Option*> style;

  /// --plot and its style flags; `scatter` adds the scatter plot's --color-label, --color-kind, --aspect.
  void add_to(CLI::App& command, bool scatter, const std::string& what);
  /// Before any work: a style flag needs --plot, and the plot's extension must name a format this build writes.
  void check() const;

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

/// One subcommand: `add` declares its flags on `command` and returns what runs it once parsed.
struct Command {
  const char* name;
  const char* summary;
  std::function<int()> (*add)(CLI::App& command, Session& session);
};

// The subcommands, one source file each (generate.cpp, ...); main.cpp lists them once.
std::function<int()> add_generate(CLI::App& command, Session& session);
std::function<int()> add_neighbors(CLI::App& command, Session& session);
std::function<int()> add_embed(CLI::App& command, Session& session);
std::function<int()> add_transform(CLI::App& command, Session& session);
std::function<int()> add_evaluate(CLI::App& command, Session& session);
std::function<int()> add_tune(CLI::App& command, Session& session);
std::function<int()> add_intrinsic_dim(CLI::App& command, Session& session);

}  // namespace nldr_tool
