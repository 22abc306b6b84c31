// Named parameters of the registries (docs/registry.md): what each method and selector accepts,
// with defaults and ranges, and the values a caller gives by name (the tool's flags, the Python
// package's keyword arguments). Values are text, checked against the spec once, then read typed.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/names.hpp>
#include <nldr/core/types.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nldr {

enum class ParameterKind { integer, real, choice, flag };

/// One parameter: its name (as the library spells it; the tool writes it with '-' for '_'), kind,
/// default (as text), inclusive range for numbers, '|'-separated choices, and a one-line help.
/// Written from an Options struct's describe() (registry/described_parameters.hpp).
struct ParameterSpec {
  std::string_view name;
  ParameterKind kind = ParameterKind::real;
  std::string default_value;
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
  std::string choices;
  std::string_view help;
};

/// Whether the spec list has a parameter called `name`.
inline bool takes_parameter(std::span<const ParameterSpec> specs, std::string_view name) {
  for (const auto& spec : specs)
    if (spec.name == name) return true;
  return false;
}

/// Whether `specs` has a choice parameter `name` that offers `choice` (e.g. init offers "given").
inline bool offers_choice(std::span<const ParameterSpec> specs, std::string_view name, std::string_view choice) {
  for (const auto& spec : specs) {
    if (spec.name != name || spec.kind != ParameterKind::choice) continue;
    for (std::string_view rest = spec.choices; !rest.empty();) {
      const std::size_t bar = rest.find('|');
      if (rest.substr(0, bar) == choice) return true;
      rest = bar == std::string_view::npos ? std::string_view{} : rest.substr(bar + 1);
    }
  }
  return false;
}

/// Parameter values by name, as text ("dim" -> "2"). Checked against a spec list by resolve().
using ParameterValues = std::map<std::string, std::string, std::less<>>;

/// The values of every parameter of one spec list, defaults filled in, each checked once.
class Arguments {
 public:
  Arguments() = default;

  /// Checks `given` against `specs`: an unknown name is an error naming `owner` and the names it
  /// accepts; a value of the wrong kind or out of range names the parameter and its range.
  Arguments(std::span<const ParameterSpec> specs, const ParameterValues& given, std::string_view owner)
      : specs_(specs.begin(), specs.end()) {
    std::vector<std::string_view> names;
    for (const auto& spec : specs) names.push_back(spec.name);
    for (const auto& [name, given_value] : given) {
      std::string value = given_value;
      const ParameterSpec* spec = find(name);
      if (spec == nullptr)
        throw_invalid(name, "parameter \"", name, "\" does not apply to ", owner,
                      detail::did_you_mean(name, names), ": ", owner, " takes ",
                      names.empty() ? std::string("no parameters") : detail::joined(names));
      check(*spec, value);
      values_[std::string(spec->name)] = value;
    }
    for (const auto& spec : specs)
      if (!values_.count(spec.name)) values_[std::string(spec.name)] = std::string(spec.default_value);
  }

  /// Every value, defaults included (as text), e.g. for a report or a model file.
  const ParameterValues& values() const { return values_; }

  std::int64_t integer(std::string_view name) const { return std::int64_t(std::llround(number(name))); }
  index_t index(std::string_view name) const { return index_t(integer(name)); }
  double real(std::string_view name) const { return number(name); }
  bool flag(std::string_view name) const { return text(name) == "true"; }
  const std::string& text(std::string_view name) const {
    const auto it = values_.find(name);
    if (it == values_.end()) throw std::logic_error(detail::concat("nldr: no parameter \"", name, "\" in this spec"));
    return it->second;
  }

 private:
  const ParameterSpec* find(std::string_view name) const {
    for (const auto& spec : specs_)
      if (spec.name == name) return &spec;
    return nullptr;
  }

  double number(std::string_view name) const { return parse_number(text(name)); }

  static double parse_number(const std::string& value) {
    if (value == "inf" || value == "infinity") return std::numeric_limits<double>::infinity();
    double number = 0;
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
    if (error != std::errc() || end != value.data() + value.size()) return std::numeric_limits<double>::quiet_NaN();
    return number;
  }

  static void check(const ParameterSpec& spec, std::string& value) {
    switch (spec.kind) {
      case ParameterKind::flag:
        if (value == "1" || value == "on" || value == "yes") value = "true";
        if (value == "0" || value == "off" || value == "no") value = "false";
        if (value != "true" && value != "false")
          throw_invalid(std::string(spec.name), spec.name, " = \"", value, "\" must be true or false");
        return;
      case ParameterKind::choice: {
        const std::string_view offered = spec.choices;
        std::vector<std::string_view> choices;
        for (std::size_t start = 0; start <= offered.size();) {
          const std::size_t bar = std::min(offered.find('|', start), offered.size());
          choices.push_back(offered.substr(start, bar - start));
          start = bar + 1;
        }
        for (const auto choice : choices)
          if (detail::same_name(choice, value)) {
            value = std::string(choice);
            return;
          }
        throw_invalid(std::string(spec.name), spec.name, " = \"", value, "\" is not one of ", detail::joined(choices),
                      detail::did_you_mean(value, choices));
      }
      case ParameterKind::integer:
      case ParameterKind::real: {
        const double number = parse_number(value);
        const bool integral = spec.kind == ParameterKind::integer;
        if (std::isnan(number) || (integral && (number != std::round(number) || !std::isfinite(number))))
          throw_invalid(std::string(spec.name), spec.name, " = \"", value, "\" is not ", integral ? "an integer" : "a number");
        if (number < spec.min || number > spec.max)
          throw_invalid(std::string(spec.name), spec.name, " = ", value, " must lie in ", range(spec));
        return;
      }
    }
  }

  static std::string range(const ParameterSpec& spec) {
    const auto end = [](double x) {
      if (std::isinf(x)) return std::string(x < 0 ? "-inf" : "inf");
      return detail::concat(x);
    };
    return detail::concat("[", end(spec.min), ", ", end(spec.max), "]");
  }

  std::vector<ParameterSpec> specs_;
  ParameterValues values_;
};

}  // namespace nldr
