// Finding a registered thing (a method, a selector, a data set, a command) by the name a user typed:
// case-insensitive, and where nothing matches, an error that lists the known names and the nearest
// one ("did you mean").
#pragma once

#include <nldr/core/error.hpp>

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nldr::detail {

/// Case-insensitive equality of names ("Isomap" = "isomap").
inline bool same_name(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

/// Levenshtein distance, case-insensitive: how "did you mean" finds the nearest known name.
inline std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                        std::tolower(static_cast<unsigned char>(b[j - 1]));
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

/// " (did you mean \"x\"?)" for the nearest of `known` within a third of its length, else "".
inline std::string did_you_mean(std::string_view name, std::span<const std::string_view> known) {
  std::string_view best;
  std::size_t best_distance = std::numeric_limits<std::size_t>::max();
  for (const auto candidate : known) {
    const std::size_t distance = edit_distance(name, candidate);
    if (distance < best_distance) {
      best_distance = distance;
      best = candidate;
    }
  }
  if (best.empty() || best_distance > std::max<std::size_t>(2, best.size() / 3)) return "";
  return concat(" (did you mean \"", best, "\"?)");
}

/// The names in order, `separator` between them (the "use one of ..." of an error message).
inline std::string joined(std::span<const std::string_view> names, std::string_view separator = ", ") {
  std::string text;
  for (const auto name : names) text += (text.empty() ? "" : std::string(separator)) + std::string(name);
  return text;
}

/// The entry of `table` called `name`, case-insensitive (or one of its `aliases`, for entries that
/// have them). \throws nldr::invalid_argument naming `parameter`, the known names and the nearest one.
template <class Entry>
const Entry& find_named(std::span<const Entry> table, std::string_view name, const std::string& parameter,
                        std::string_view kind) {
  std::vector<std::string_view> known;
  for (const Entry& entry : table) {
    if (same_name(entry.name, name)) return entry;
    if constexpr (requires { entry.aliases; })
      for (const auto alias : entry.aliases)
        if (same_name(alias, name)) return entry;
    known.push_back(entry.name);
  }
  throw_invalid(parameter, "unknown ", kind, " \"", name, "\"", did_you_mean(name, known), ": use one of ",
                joined(known));
}

}  // namespace nldr::detail
