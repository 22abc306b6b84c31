// nldr: the command-line tool. Generates data sets, selects neighbors, embeds and evaluates;
// docs/tool.md is its manual. One source file per command (listed once, below); errors: one line on
// stderr, a non-zero exit code, no output file (every output path is checked before the work starts
// and written atomically at the end).
#include "cli.hpp"
#include "parameters.hpp"

#include <algorithm>
#include <iostream>
#include <map>
#include <new>
#include <regex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace nldr_tool;

constexpr Command commands[] = {
    {"generate", "Sample a data set with ground truth", add_generate},
    {"neighbors", "Select neighbors; write the directed edges i,j,distance", add_neighbors},
    {"embed", "Embed points in d dimensions", add_embed},
    {"transform", "Place new points with a model saved by embed --save-model", add_transform},
    {"evaluate", "Measure how well an embedding preserves the data", add_evaluate},
    {"tune", "Choose k, the radius or t for a method: every criterion without ground truth over a sweep", add_tune},
    {"intrinsic-dim", "Estimate the intrinsic dimension (MLE, TwoNN)", add_intrinsic_dim},
};

/// The library names a setting as `name = value` (registry parameters, the pipeline's options;
/// eigensolver settings as `eigen.name`), its fix as `raise name` (lower, set, give, drop), and a
/// method as `method NAME`; the tool user sets them as flags, so the message says `--name value`. The reader's settings name both (`CsvHeader::present
/// (--header yes)`): the tool keeps the flag.
std::string in_flags(std::string message) {
  std::vector<std::string_view> names{"disconnected", "pca", "geodesics", "selector"};  // nldr::PipelineOptions
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
    message = std::regex_replace(message, patterns[0], "$1" + flag_name(name) + " ");
    message = std::regex_replace(message, patterns[1], "$1" + flag_name(name));
    // The fix a message names: "raise k", "lower dim", "set disconnected".
    message = std::regex_replace(message, std::regex("\\b(raise|lower|set|give|drop) " + std::string(name) + "\\b(?!-)"),
                                 "$1 " + flag_name(name));
  }
  for (const auto& entry : nldr::embedders())
    message = std::regex_replace(message, std::regex("(^|[^A-Za-z0-9_-])method " + std::string(entry.name) + "\\b"),
                                 "$1--method " + std::string(entry.name));
  // Settings of the library's reader that the tool has no flag for: what the tool user can do instead.
  message = std::regex_replace(message, std::regex(",? or set CsvOptions::allow_non_finite"), "");
  message = std::regex_replace(message, std::regex("use CsvSeparator::([a-z]+) if"),
                               "the tool detects the separator from the first line: write the file with $1 separators if");
  message = std::regex_replace(message, std::regex(" \\((?:CsvHeader|CsvSeparator|IndexColumn)::[A-Za-z_]+(?:\\(\\))?\\)"), "");
  message = std::regex_replace(message, std::regex("(?:CsvHeader|CsvSeparator|IndexColumn)::[A-Za-z_]+(?:\\(\\))? \\((--[^)]*)\\)"), "$1");
  return message;
}

/// Prints "nldr <command>: error: <message>" on one line and returns the exit code.
int report_error(const std::string& command, const std::string& message, int code) {
  std::string line = in_flags(message);
  for (char& c : line)
    if (c == '\n' || c == '\r') c = ' ';
  std::cerr << "nldr" << (command.empty() ? "" : " " + command) << ": error: " << line << '\n';
  return code;
}

/// CLI11 would only say "A subcommand is required" for a misspelt command.
void check_command(const std::string& first) {
  std::vector<std::string_view> names;
  for (const Command& command : commands) names.push_back(command.name);
  if (first.empty() || first[0] == '-' || std::find(names.begin(), names.end(), first) != names.end()) return;
  nldr::throw_invalid("command", "unknown command \"", first, "\"", nldr::detail::did_you_mean(first, names),
                      ": use one of ", nldr::detail::joined(names));
}

/// " (did you mean ...)" for an unknown long flag `name`: the longest known flag it starts with
/// (--input: --in, which spelling alone would not pick over --init), else the nearest by spelling.
std::string nearest_flag(std::string_view name, std::span<const std::string_view> known) {
  std::string_view best;
  for (const auto flag : known)
    if (flag.size() > 3 && name.starts_with(flag) && flag.size() > best.size()) best = flag;
  if (best.empty()) return nldr::detail::did_you_mean(name, known);
  return nldr::detail::concat(" (did you mean \"", best, "\"?)");
}

/// CLI11 checks the required flags before the unknown ones, so `embed --output y.csv` would only
/// hear that --out is required: an unknown long flag is named first, with the one it was meant as.
void check_flags(const CLI::App& command, int argc, char** argv) {
  std::vector<std::string> names;
  for (const CLI::Option* option : command.get_options())
    for (const std::string& name : option->get_lnames()) names.push_back("--" + name);
  const std::vector<std::string_view> known(names.begin(), names.end());
  for (int a = 2; a < argc; ++a) {
    const std::string_view argument = argv[a];
    if (argument == "--") return;  // the rest are values
    if (!argument.starts_with("--")) continue;
    const std::string_view name = argument.substr(0, argument.find('='));
    if (std::find(known.begin(), known.end(), name) == known.end())
      nldr::throw_invalid("option", "unknown option ", name, nearest_flag(name, known), " (see: nldr ",
                          command.get_name(), " --help)");
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"nldr: nonlinear dimensionality reduction with swappable neighbor selection (docs/tool.md)", "nldr"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("nldr ") + nldr::version);
  Session session;
  std::map<std::string, std::function<int()>> run;
  for (const Command& command : commands)
    run[command.name] = command.add(*app.add_subcommand(command.name, command.summary), session);

  std::string command;
  try {
    check_command(argc > 1 ? argv[1] : "");
    if (argc > 1 && run.count(argv[1])) {
      command = argv[1];
      check_flags(*app.get_subcommand(command), argc, argv);
    }
    app.parse(argc, argv);
    CLI::App* parsed = app.get_subcommands().front();
    command = parsed->get_name();
    if (session.threads > 0) nldr::set_threads(session.threads);
    return run.at(command)();
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
