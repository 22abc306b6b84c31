// The registry's two readings of an Options struct's describe() (core/described.hpp): the
// parameter specs with the defaults of a default-made Options, and the fields of an Options set
// from checked named values. Every method's and selector's parameters come from here, so a
// default is stated once, in its Options struct (docs/registry.md, "Parameters").
#pragma once

#include <nldr/core/described.hpp>
#include <nldr/io/detail/number_format.hpp>
#include <nldr/registry/parameters.hpp>

#include <array>
#include <concepts>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace nldr {
namespace detail {

/// The shortest text that reads back to `value` (io's writers' form), exponent without padding
/// ("1e-4", "0.5", "30", "inf").
inline std::string parameter_text(double value) {
  std::string text;
  io::detail::append_number(text, value);
  const std::size_t e = text.find('e');
  if (e == std::string::npos) return text;
  std::string exponent = text.substr(e + 1);
  const bool negative = exponent.front() == '-';
  exponent.erase(0, exponent.find_first_not_of("+-0"));
  return text.substr(0, e + 1) + (negative ? "-" : "") + exponent;
}

/// Writes one ParameterSpec per described parameter, its default the field's current value.
class SpecWriter {
 public:
  template <class Number>
    requires std::integral<Number> || std::floating_point<Number>
  void number(std::string_view name, const Number& field, Range range, std::string_view help) {
    const bool integral = std::integral<Number>;
    specs_.push_back({name, integral ? ParameterKind::integer : ParameterKind::real,
                      integral ? std::to_string(field) : parameter_text(double(field)), range.min, range.max, {},
                      help});
  }

  void flag(std::string_view name, const bool& field, std::string_view help) {
    specs_.push_back({name, ParameterKind::flag, field ? "true" : "false", 0, 0, {}, help});
  }

  template <class Enum>
  void flag(std::string_view name, const Enum& field, std::array<Enum, 2> off_on, std::string_view help) {
    flag(name, field == off_on[1], help);
  }

  template <class Enum, class Choices>
  void choice(std::string_view name, const Enum& field, const Choices& choices, std::string_view help) {
    ParameterSpec spec{name, ParameterKind::choice, {}, 0, 0, {}, help};
    for (const auto& choice : choices) {
      spec.choices += (spec.choices.empty() ? "" : "|") + std::string(choice.name);
      if (choice.value == field) spec.default_value = choice.name;
    }
    if (spec.default_value.empty())
      throw std::logic_error(concat("nldr: the default of \"", name, "\" is none of its choices"));
    specs_.push_back(std::move(spec));
  }

  std::vector<ParameterSpec> specs() && { return std::move(specs_); }

 private:
  std::vector<ParameterSpec> specs_;
};

/// Sets each described field from checked arguments (every parameter has a value: the given one or
/// its default, Arguments' constructor filled them in).
class ArgumentReader {
 public:
  explicit ArgumentReader(const Arguments& arguments) : arguments_(arguments) {}

  template <class Number>
    requires std::integral<Number> || std::floating_point<Number>
  void number(std::string_view name, Number& field, Range, std::string_view) {
    if constexpr (std::integral<Number>)
      field = Number(arguments_.integer(name));
    else
      field = Number(arguments_.real(name));
  }

  void flag(std::string_view name, bool& field, std::string_view) { field = arguments_.flag(name); }

  template <class Enum>
  void flag(std::string_view name, Enum& field, std::array<Enum, 2> off_on, std::string_view) {
    field = off_on[arguments_.flag(name) ? 1 : 0];
  }

  template <class Enum, class Choices>
  void choice(std::string_view name, Enum& field, const Choices& choices, std::string_view) {
    for (const auto& choice : choices)
      if (choice.name == arguments_.text(name)) field = choice.value;
  }

 private:
  const Arguments& arguments_;
};

}  // namespace detail

/// The parameter specs `options.describe` lists, with the values of `options` as defaults.
template <class Options>
std::vector<ParameterSpec> described_parameters(Options options) {
  detail::SpecWriter writer;
  options.describe(writer);
  return std::move(writer).specs();
}

/// Sets the fields `options.describe` lists from `arguments` (checked against its specs).
template <class Options>
void set_described(Options& options, const Arguments& arguments) {
  detail::ArgumentReader reader(arguments);
  options.describe(reader);
}

}  // namespace nldr
