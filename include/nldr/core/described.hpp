// The parameters an Options struct lets a caller set by name, listed once (docs/registry.md,
// "Parameters"). Each such struct has
//
//   template <class Visitor> void describe(Visitor& v) {
//     v.number("perplexity", perplexity, {1e-3, 1e9}, "effective neighbors of each point's Gaussian");
//     v.choice("init", init, tsne_inits, "starting layout");
//     v.flag("report_gap", report_gap, "also report the eigengap");
//     v.flag("most_probable", rule, {GaussianRule::spread, GaussianRule::most_probable}, "...");
//   }
//
// naming each parameter, its field, its range or choices and a one-line help (a flag may switch
// an enum field between two values: {off, on}). The registry
// (registry/described_parameters.hpp) walks it twice: over Options{} to write the parameter specs
// (defaults read from the fields, so they cannot drift from what a library user gets), and over
// the Options of a fit to set the fields from named values. The tool's flags and help and Python's
// keywords come from those specs. A describe() may depend on fields a caller does not name (LLE's
// variant decides whether `reg` or `hessian_tol` applies).
#pragma once

#include <limits>
#include <string_view>

namespace nldr {

/// Inclusive range of a number parameter.
struct Range {
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
};

/// One choice of an enum parameter: the name a caller writes and the value it stands for.
template <class Enum>
struct Choice {
  std::string_view name;
  Enum value;
};

/// Seeds: every integer a double holds exactly (the tool and Python pass numbers as doubles).
inline constexpr Range seed_range{0, 9007199254740992.0};

}  // namespace nldr
