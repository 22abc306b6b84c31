// The CSV dialect nldr reads and writes (docs/io.md): cells separated by one comma, one tab or by
// runs of blanks; blanks around a cell are ignored; a cell may be double-quoted ("a ""b""" is a "b"),
// without line breaks inside.
#pragma once

#include <nldr/core/error.hpp>

#include <charconv>
#include <cstddef>
#include <string>
#include <string_view>
#include <system_error>

namespace nldr::io::detail {

inline bool is_blank(char c) { return c == ' ' || c == '\t'; }

/// One cell of a line: its text without the quotes (escaped quotes still doubled), where it
/// starts (1-based byte column) and whether it was quoted.
struct CsvCell {
  std::string_view text;
  std::size_t column = 0;
  bool quoted = false;
};

/// Where an error is reported: "source:line:column: ".
struct CsvPosition {
  std::string_view source;
  std::size_t line = 0;
};

template <class... Parts>
[[noreturn]] void throw_csv_error(const CsvPosition& at, std::size_t column, const Parts&... parts) {
  throw io_error(nldr::detail::concat(at.source, ":", at.line, ":", column, ": ", parts...));
}

/// The whitespace "delimiter" of for_each_csv_cell: runs of blanks separate cells.
inline constexpr char blank_runs = ' ';

/// Calls visit(CsvCell) for each cell of `line` (no line terminator) and returns the number of
/// cells. delimiter ',' or '\t': every delimiter outside quotes ends a cell, so "1,,2" has an
/// empty middle cell and an empty line has one empty cell; blank_runs: runs of blanks separate
/// cells. Blanks other than the delimiter around a cell are ignored. Throws io_error for an
/// unterminated quote or text after a closing quote.
template <class Visit>
std::size_t for_each_csv_cell(std::string_view line, char delimiter, const CsvPosition& at, Visit&& visit) {
  const bool single = delimiter != blank_runs;
  const auto padding = [&](char c) { return is_blank(c) && c != delimiter; };
  const auto ends_cell = [&](char c) { return single ? c == delimiter : is_blank(c); };
  std::size_t count = 0, i = 0;
  const std::size_t n = line.size();
  while (true) {
    const std::size_t start = i;
    while (i < n && (single ? padding(line[i]) : is_blank(line[i]))) ++i;
    if (!single && i == n) return count;
    CsvCell cell{{}, i + 1, false};
    std::size_t end = i;  // one past the cell's text
    if (i < n && line[i] == '"') {
      cell.quoted = true;
      std::size_t j = i + 1;
      while (true) {
        j = line.find('"', j);
        if (j == std::string_view::npos)
          throw_csv_error(at, i + 1, "unterminated quoted cell: add the closing '\"' (quotes inside a cell are "
                                     "written twice, line breaks inside a cell are not supported)");
        if (j + 1 < n && line[j + 1] == '"') {
          j += 2;
          continue;
        }
        break;
      }
      cell.text = line.substr(i + 1, j - i - 1);
      i = j + 1;
      if (single)
        while (i < n && padding(line[i])) ++i;
      if (i < n && !ends_cell(line[i]))
        throw_csv_error(at, i + 1, "unexpected text after a closing quote: put the whole cell in quotes "
                                   "and double any quote inside it");
    } else {
      while (i < n && !ends_cell(line[i])) ++i;
      end = i;
      while (end > cell.column - 1 && padding(line[end - 1])) --end;
      cell.text = line.substr(cell.column - 1, end - (cell.column - 1));
      if (cell.text.empty()) cell.column = start + 1;  // an empty cell is where its separator left off
    }
    visit(cell);
    ++count;
    if (single) {
      if (i == n) return count;
      ++i;  // the delimiter
    }
  }
}

enum class NumberStatus { ok, not_a_number, out_of_range };

/// Parses the whole cell as a number with std::from_chars (locale-independent); a leading '+'
/// is accepted. Quoted cells are parsed the same way.
template <class T>
NumberStatus parse_number(std::string_view text, T& value) {
  if (text.empty()) return NumberStatus::not_a_number;
  if (text.size() > 1 && text[0] == '+' && text[1] != '-' && text[1] != '+') text.remove_prefix(1);
  const char* last = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), last, value);
  if (ec == std::errc::result_out_of_range && ptr == last) return NumberStatus::out_of_range;
  if (ec != std::errc() || ptr != last) return NumberStatus::not_a_number;
  return NumberStatus::ok;
}

/// Removes the doubling of escaped quotes from a quoted cell's text.
inline std::string unescape_csv_cell(const CsvCell& cell) {
  if (!cell.quoted) return std::string(cell.text);
  std::string out;
  out.reserve(cell.text.size());
  for (std::size_t i = 0; i < cell.text.size(); ++i) {
    out += cell.text[i];
    if (cell.text[i] == '"') ++i;  // skip the second quote of a pair
  }
  return out;
}

}  // namespace nldr::io::detail
