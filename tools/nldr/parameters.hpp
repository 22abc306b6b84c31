// The tool's flags for the registries' parameters (docs/registry.md): one flag per parameter name
// (dim -> --dim, heat_t -> --heat-t), whose help lists the methods and selectors that take it.
// Only the flags a user gives reach the method or selector, and a flag that applies to neither is
// an error naming what does apply: no option is silently ignored.
#pragma once

#include <nldr/nldr.hpp>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nldr_tool {

inline std::string flag_name(std::string_view parameter) {
  std::string flag = "--" + std::string(parameter);
  for (char& c : flag)
    if (c == '_') c = '-';
  return flag;
}

/// CLI11's name list of a parameter's flag: the long one, plus a short one for the common two.
inline std::string flag_names(std::string_view parameter) {
  if (parameter == "k") return "--k,-k";
  if (parameter == "dim") return "--dim,-d";
  return flag_name(parameter);
}

/// " --a, --b" for a spec list, or " no parameters".
inline std::string flag_list(std::span<const nldr::ParameterSpec> specs) {
  std::string text;
  for (const auto& spec : specs) text += (text.empty() ? " " : ", ") + flag_name(spec.name);
  return text.empty() ? " no parameters" : text;
}

/// The registry flags of one subcommand and the values given to them.
class RegistryFlags {
 public:
  /// Owners of parameters: (name, specs) of methods or selectors.
  using Owners = std::vector<std::pair<std::string_view, std::span<const nldr::ParameterSpec>>>;

  /// Adds a flag for every parameter of the embedders (if `methods`) and selectors (if `selectors`).
  void add_to(CLI::App& command, bool methods, bool selectors) {
    Owners owners;
    if (methods)
      for (const auto& entry : nldr::embedders()) owners.emplace_back(entry.name, entry.parameters);
    if (selectors)
      for (const auto& entry : nldr::selectors()) owners.emplace_back(entry.name, entry.parameters);
    add_to(command, owners);
  }

  /// Adds a flag for every parameter of `owners`, its help giving each owner's default.
  void add_to(CLI::App& command, const Owners& owners) {
    // name -> its first spec (kind, help) and its owners grouped by their default, in registry order
    struct Described {
      nldr::ParameterSpec spec;
      std::vector<std::pair<std::string, std::string>> defaults;  // default -> "owner, owner"
    };
    std::map<std::string, Described> specs;
    for (const auto& [owner, list] : owners) {
      for (const auto& spec : list) {
        auto& defaults = specs.try_emplace(std::string(spec.name), Described{spec, {}}).first->second.defaults;
        const std::string& value = spec.default_value;
        auto same = std::find_if(defaults.begin(), defaults.end(), [&](const auto& d) { return d.first == value; });
        if (same == defaults.end())
          defaults.emplace_back(value, std::string(owner));
        else
          same->second += ", " + std::string(owner);
      }
    }
    for (const auto& [name, described] : specs) {
      const auto& [spec, defaults] = described;
      std::string help = std::string(spec.help) + " [";
      for (std::size_t d = 0; d < defaults.size(); ++d)
        help += (d ? "; " : "") + defaults[d].second + ": default " + defaults[d].first;
      help += "]";
      if (spec.kind == nldr::ParameterKind::flag)
        options_[name] = command.add_flag(flag_names(name), flags_[name], help);
      else
        options_[name] = command.add_option(flag_names(name), texts_[name], help);
    }
  }

  /// The given flags that `specs` take, as parameter values.
  nldr::ParameterValues given(std::span<const nldr::ParameterSpec> specs) const {
    nldr::ParameterValues values;
    for (const auto& [name, option] : options_)
      if (option->count() > 0 && nldr::takes_parameter(specs, name)) values[name] = value(name);
    return values;
  }

  /// Every given flag must be taken by one of `owners` (name, specs); else an error naming what applies.
  void require_applicable(const std::vector<std::pair<std::string, std::span<const nldr::ParameterSpec>>>& owners,
                          const std::string& context) const {
    for (const auto& [name, option] : options_) {
      if (option->count() == 0) continue;
      bool taken = false;
      std::string applicable;
      for (const auto& [owner, specs] : owners) {
        taken = taken || nldr::takes_parameter(specs, name);
        applicable += "; " + owner + " takes" + flag_list(specs);
      }
      if (!taken)
        nldr::throw_invalid(name, flag_name(name), " does not apply to ", context, applicable, ": drop ",
                            flag_name(name));
    }
  }

  bool given(std::string_view name) const {
    const auto it = options_.find(std::string(name));
    return it != options_.end() && it->second->count() > 0;
  }

 private:
  std::string value(const std::string& name) const {
    const auto flag = flags_.find(name);
    return flag != flags_.end() ? (flag->second ? "true" : "false") : texts_.at(name);
  }

  std::map<std::string, CLI::Option*> options_;
  std::map<std::string, std::string> texts_;  // std::map: CLI11 keeps pointers to the values
  std::map<std::string, bool> flags_;
};

}  // namespace nldr_tool
