// Reading numeric CSV files: one point per row (docs/io.md describes the accepted format).
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/types.hpp>
#include <nldr/io/detail/csv_format.hpp>

#include <Eigen/Core>
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <vector>

namespace nldr::io {

/// How cells are separated.
enum class CsvSeparator {
  automatic,  ///< comma if the first non-comment line contains a ',', else whitespace
  comma,      ///< one ',' between cells; blanks around cells are ignored
  whitespace  ///< runs of spaces and tabs
};

/// Whether the first non-comment line is a header (column names).
enum class CsvHeader {
  automatic,  ///< a header if no cell of the first line is an unquoted number; a line mixing
              ///< numbers and text is read as data (and rejected), never silently dropped
  present,
  absent
};

/// Options of read_csv / parse_csv. Designated initializers: `{.header = CsvHeader::absent}`.
struct CsvOptions {
  CsvSeparator separator = CsvSeparator::automatic;
  CsvHeader header = CsvHeader::automatic;
  /// Skip lines whose first non-blank character is '#' (numpy.savetxt writes its header so).
  bool comments = true;
  /// Accept nan / inf cells. Off by default: every nldr method rejects them anyway, and the
  /// error names the line and column to clean.
  bool allow_non_finite = false;
};

/// A numeric table: values (N x D, one row per data line, in file order) and the header's
/// column names (empty when the input has no header line).
template <Real T>
struct CsvTable {
  Matrix<T> values;
  std::vector<std::string> header;
};

namespace detail {

/// The cell for an error message: quoted, at most 40 bytes, non-printable bytes as \xNN.
inline std::string quote_cell(std::string_view cell) {
  constexpr std::size_t shown = 40;
  std::string out = "'";
  for (std::size_t i = 0; i < cell.size() && i < shown; ++i) {
    const auto c = static_cast<unsigned char>(cell[i]);
    if (c >= 0x20 && c < 0x7F) {
      out += static_cast<char>(c);
    } else {
      static constexpr char hex[] = "0123456789ABCDEF";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  out += "'";
  if (cell.size() > shown) out += nldr::detail::concat(" (first ", shown, " of ", cell.size(), " bytes)");
  return out;
}

/// One line of `text` at a time, with its number; strips a trailing '\r' (CRLF files).
class LineCursor {
 public:
  explicit LineCursor(std::string_view text) : text_(text) {}
  bool next(std::string_view& line) {
    if (position_ >= text_.size()) return false;
    std::size_t end = text_.find('\n', position_);
    if (end == std::string_view::npos) end = text_.size();
    line = text_.substr(position_, end - position_);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    position_ = end + 1;
    ++number_;
    return true;
  }
  std::size_t number() const { return number_; }
  std::size_t remaining_bytes() const { return position_ >= text_.size() ? 0 : text_.size() - position_; }

 private:
  std::string_view text_;
  std::size_t position_ = 0;
  std::size_t number_ = 0;
};

inline bool is_skipped_line(std::string_view line, bool comments) {
  std::size_t i = 0;
  while (i < line.size() && is_blank(line[i])) ++i;
  return i == line.size() || (comments && line[i] == '#');
}

inline const char* scalar_name(float) { return "float"; }
inline const char* scalar_name(double) { return "double"; }

/// Hint appended to a non-numeric cell error when the cell suggests another dialect.
inline std::string_view dialect_hint(std::string_view cell, bool comma) {
  if (cell.find(';') != std::string_view::npos)
    return " (semicolon-separated files with decimal commas are not supported: export with ',' between "
           "cells and '.' as the decimal point)";
  if (!comma && cell.find(',') != std::string_view::npos)
    return " (the separator was detected as whitespace from the first line: use CsvSeparator::comma "
           "if the file is comma separated)";
  return "";
}

}  // namespace detail

/// Parses CSV `text` into a numeric table (format: docs/io.md). `source_name` prefixes error
/// messages ("points.csv:7:3: ..."). Rules: a UTF-8 byte order mark is skipped; CRLF or LF line
/// ends; blank lines, and '#' comment lines when options.comments, are skipped anywhere; every
/// data row has the same number of cells; every cell is a number (std::from_chars, locale-free;
/// finite unless options.allow_non_finite).
/// Throws nldr::io_error "source:line:column: what is wrong and the fix" for: no data (empty
/// input, only a header), a row with a different number of cells, an empty cell, a cell that is
/// not a number, a number out of T's range, a nan/inf cell, a header whose number of names
/// differs from the data's columns, a quoting error.
template <Real T>
CsvTable<T> parse_csv(std::string_view text, const CsvOptions& options = {},
                      std::string_view source_name = "<input>") {
  using detail::CsvCell;
  using detail::NumberStatus;
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);  // UTF-8 byte order mark

  detail::LineCursor lines(text);
  detail::CsvPosition at{source_name, 0};
  std::string_view line;
  const auto next_content_line = [&] {
    while (lines.next(line)) {
      if (!detail::is_skipped_line(line, options.comments)) {
        at.line = lines.number();
        return true;
      }
    }
    return false;
  };

  if (!next_content_line())
    throw io_error(nldr::detail::concat(
        source_name, ": no data: the input is empty or has only blank", options.comments ? " or comment" : "",
        " lines: supply one point per line, values separated by commas or blanks"));

  bool comma = options.separator == CsvSeparator::comma;
  if (options.separator == CsvSeparator::automatic) comma = line.find(',') != std::string_view::npos;

  bool header_line = options.header == CsvHeader::present;
  if (options.header == CsvHeader::automatic) {
    bool any_number = false;
    detail::for_each_csv_cell(line, comma, at, [&](const CsvCell& cell) {
      T ignored;
      if (!cell.quoted && detail::parse_number(cell.text, ignored) != NumberStatus::not_a_number) any_number = true;
    });
    header_line = !any_number;
  }
  const std::string_view header_text = header_line ? line : std::string_view{};
  const std::size_t header_line_number = at.line;
  if (header_line && !next_content_line())
    throw_csv_error(at, 1, "only a header line, no data rows: add the points below it, one per line");

  std::size_t columns = 0, rows = 0, first_data_line = at.line;
  std::vector<T> values;
  do {
    std::size_t first_extra_column = line.size() + 1;  // where the row goes wrong, for the message
    std::size_t counted = 0;
    const std::size_t cells = detail::for_each_csv_cell(line, comma, at, [&](const CsvCell& cell) {
      if (rows != 0 && counted++ == columns) first_extra_column = cell.column;
    });
    if (rows == 0) {
      columns = cells;
      // Reserve for the whole file, estimated from the first row's length (no regrowth copies).
      const double estimated_rows = 1.0 + static_cast<double>(lines.remaining_bytes()) / double(line.size() + 1);
      values.reserve(static_cast<std::size_t>(std::min(estimated_rows * 1.05 + 1, 1e9)) * columns);
    } else if (cells != columns) {
      throw_csv_error(at, first_extra_column, "line ", at.line, " has ", cells, " column", cells == 1 ? "" : "s", ", expected ",
                      columns, " as on line ", first_data_line,
                      ": every row must hold the same number of values (check for a missing or extra separator)");
    }
    // On the first line of the input a text cell may mean an undetected header: say how to read one.
    const std::string header_hint =
        rows != 0 || header_line ? std::string()
        : options.header == CsvHeader::absent
            ? nldr::detail::concat(", or read with CsvHeader::present if line ", at.line, " is a header")
            : nldr::detail::concat(", or read with CsvHeader::present if line ", at.line,
                                   " is a header (a header is detected only when none of its cells is a number)");
    detail::for_each_csv_cell(line, comma, at, [&](const CsvCell& cell) {
      if (cell.text.empty() && !cell.quoted)
        throw_csv_error(at, cell.column, "empty cell (a missing value): fill it in or drop the row", header_hint);
      T value{};
      switch (detail::parse_number(cell.text, value)) {
        case NumberStatus::not_a_number:
          throw_csv_error(at, cell.column, "cell ", detail::quote_cell(cell.text), " is not a number",
                          detail::dialect_hint(cell.text, comma), ": write numbers like 1.5, -2e-3 or 7",
                          header_hint);
        case NumberStatus::out_of_range:
          throw_csv_error(at, cell.column, "cell ", detail::quote_cell(cell.text), " is outside the range of ",
                          detail::scalar_name(T{}), ": rescale the data",
                          std::is_same_v<T, float> ? " or read it as double" : "");
        case NumberStatus::ok:
          break;
      }
      if (!options.allow_non_finite && !std::isfinite(value))
        throw_csv_error(at, cell.column, "cell ", detail::quote_cell(cell.text),
                        " is not finite: remove or impute rows with NaN/Inf before export (e.g. "
                        "pandas dropna()), or set CsvOptions::allow_non_finite");
      values.push_back(value);
    });
    ++rows;
  } while (next_content_line());

  CsvTable<T> table;
  if (header_line) {
    at.line = header_line_number;
    table.header.reserve(columns);
    const std::size_t names = detail::for_each_csv_cell(header_text, comma, at, [&](const CsvCell& cell) {
      if (table.header.size() < columns) table.header.push_back(detail::unescape_csv_cell(cell));
    });
    if (names != columns)
      throw_csv_error(at, 1, "the header has ", names, " name", names == 1 ? "" : "s", " but the data has ", columns,
                      " column", columns == 1 ? "" : "s", " (line ", first_data_line,
                      "): give one name per column, or read with CsvHeader::absent if line ", header_line_number,
                      " is data");
  }
  table.values = Eigen::Map<const Matrix<T>>(values.data(), static_cast<Eigen::Index>(rows),
                                             static_cast<Eigen::Index>(columns));
  return table;
}

/// Reads the CSV file at `path` into a numeric table; see parse_csv for the format and the
/// errors. Throws nldr::io_error "path: cannot read: <system reason>" if the file cannot be
/// opened or read. The whole file is held in memory while it is parsed (about the file's size
/// plus the values).
template <Real T>
CsvTable<T> read_csv(const std::filesystem::path& path, const CsvOptions& options = {}) {
  const std::string name = path.string();
  const auto fail = [&](int error_number) {
    throw io_error(nldr::detail::concat(name, ": cannot read: ", std::strerror(error_number),
                                        error_number == ENOENT ? ": check the path and the working directory" : ""));
  };
  if (std::filesystem::is_directory(path)) fail(EISDIR);
  struct Closer {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };
  const std::unique_ptr<std::FILE, Closer> file(std::fopen(path.c_str(), "rb"));
  if (!file) fail(errno);
  std::string text;
  std::error_code ec;
  if (const auto size = std::filesystem::file_size(path, ec); !ec) text.reserve(size);
  char buffer[1 << 16];
  std::size_t got = 0;
  while ((got = std::fread(buffer, 1, sizeof buffer, file.get())) > 0) text.append(buffer, got);
  if (std::ferror(file.get()) != 0) fail(errno);
  return parse_csv<T>(text, options, name);
}

}  // namespace nldr::io
