// The one reader of delimited text (CSV, TSV, whitespace) behind parse_csv, read_matrix and
// read_column: separator and header detection, pandas' and R's conventions (integer column names,
// an unnamed row-index column), column selection, and every malformed-input error with
// "source:line:column". docs/io.md gives the rules.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/types.hpp>
#include <nldr/io/detail/csv_format.hpp>
#include <nldr/io/read_options.hpp>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace nldr::io::detail {

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
inline std::string_view dialect_hint(std::string_view cell, char delimiter) {
  if (cell.find(';') != std::string_view::npos)
    return " (semicolon-separated files with decimal commas are not supported: export with ',' between "
           "cells and '.' as the decimal point)";
  if (delimiter != ',' && cell.find(',') != std::string_view::npos)
    return " (the separator was not detected as a comma from the first line: use CsvSeparator::comma "
           "if the file is comma separated)";
  if (delimiter == '\t' && cell.find(' ') != std::string_view::npos)
    return " (the separator was detected as a tab from the first line: use CsvSeparator::whitespace if blanks "
           "separate the values too)";
  return "";
}

/// A first line separated by tabs, not by blanks: it holds a tab, and its spaces are single ones
/// inside cells ("sepal length\tsepal width"), none at either end, doubled or next to a tab
/// (what aligned whitespace-separated files have).
inline bool tabs_separate(std::string_view line) {
  if (line.find('\t') == std::string_view::npos || line.front() == ' ' || line.back() == ' ') return false;
  return line.find("  ") == std::string_view::npos && line.find(" \t") == std::string_view::npos &&
         line.find("\t ") == std::string_view::npos;
}

/// An optional sign, then digits only: how pandas writes integers (floats always get a '.').
inline bool is_integer_text(const CsvCell& cell) {
  std::string_view t = cell.text;
  if (!t.empty() && (t[0] == '-' || t[0] == '+')) t.remove_prefix(1);
  return !t.empty() && t.find_first_not_of("0123456789") == std::string_view::npos;
}

/// What the caller of read_delimited wants.
struct TableRules {
  CsvSeparator separator = CsvSeparator::automatic;
  CsvHeader header = CsvHeader::automatic;
  bool comments = true;
  bool allow_non_finite = false;
  /// read_matrix's conventions: pandas' integer header, the row-index column, column selection.
  /// Off (parse_csv): every column is data and the header must have one name per column.
  bool conventions = false;
  IndexColumn index_col = IndexColumn::none();
  std::vector<ColumnRef> columns = {}, exclude = {};
  /// read_column: collect this column's cells as text and parse no other column.
  std::optional<ColumnRef> text_column = {};
  /// The file name's extension (".tsv" selects tabs under CsvSeparator::automatic).
  std::string extension = {};
};

template <Real T>
struct DelimitedTable {
  Matrix<T> values;                        ///< the data columns, in the order chosen
  std::vector<std::string> header;         ///< every name of the header line (empty: no header)
  std::vector<std::size_t> source_columns; ///< the file column (0-based) of each column of values
  std::optional<std::size_t> index_column; ///< the file column left out as the row index
  std::vector<std::string> text;           ///< rules.text_column's cells
  std::size_t columns = 0;                 ///< the input's number of columns (the index included)
  std::string format;                      ///< "CSV", "TSV" or "whitespace-separated text"
  std::vector<std::string> notes;          ///< what was detected or left out, in words
};

/// Where the rows hold 0..N-1 or 1..N in one column: a row counter (an index, not a feature).
struct CounterTracker {
  bool from_zero = true, from_one = true;
  std::size_t first_other_line = 0;
  std::string first_other_cell;
  void add(std::string_view cell, std::size_t row, std::size_t line) {
    double value = 0;
    const bool number = parse_number(cell, value) == NumberStatus::ok;
    const bool zero = from_zero && number && value == double(row);
    const bool one = from_one && number && value == double(row + 1);
    if (!zero && !one && (from_zero || from_one)) {
      first_other_line = line;
      first_other_cell = std::string(cell);
    }
    from_zero = zero;
    from_one = one;
  }
  bool counts() const { return from_zero || from_one; }
  const char* range() const { return from_zero ? "0..N-1" : "1..N"; }
};

/// Reads delimited `text` (a UTF-8 BOM, CRLF, blank and comment lines allowed) by `rules`.
/// Throws nldr::io_error "source:line:column: what is wrong: the fix".
template <Real T>
DelimitedTable<T> read_delimited(std::string_view text, std::string_view source_name, const TableRules& rules) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);  // UTF-8 byte order mark
  DelimitedTable<T> table;
  LineCursor lines(text);
  CsvPosition at{source_name, 0};
  std::string_view line;
  const auto next_content_line = [&] {
    while (lines.next(line)) {
      if (!is_skipped_line(line, rules.comments)) {
        at.line = lines.number();
        return true;
      }
    }
    return false;
  };
  if (!next_content_line())
    throw io_error(nldr::detail::concat(
        source_name, ": no data: the input is empty or has only blank", rules.comments ? " or comment" : "",
        " lines: supply one point per line, values separated by commas or blanks"));

  // The separator, from the option, the extension or the first line.
  char delimiter = blank_runs;
  switch (rules.separator) {
    case CsvSeparator::comma: delimiter = ','; break;
    case CsvSeparator::tab: delimiter = '\t'; break;
    case CsvSeparator::whitespace: break;
    case CsvSeparator::automatic:
      if (rules.extension == ".tsv" || rules.extension == ".tab") delimiter = '\t';
      else if (line.find(',') != std::string_view::npos) delimiter = ',';
      else if (tabs_separate(line)) delimiter = '\t';
  }
  table.format = delimiter == ',' ? "CSV" : delimiter == '\t' ? "TSV" : "whitespace-separated text";

  // Is the first line a header? pandas_names: the names 0..D-1 of an unnamed pandas frame (after
  // an empty cell over its index), to be told from a row of integer data once all rows are read:
  // a header only if no value below it (outside the index) is written as an integer.
  std::vector<CsvCell> first_cells;
  for_each_csv_cell(line, delimiter, at, [&](const CsvCell& cell) { first_cells.push_back(cell); });
  bool header_line = rules.header == CsvHeader::present, pandas_names = false;
  if (rules.header == CsvHeader::automatic) {
    bool any_number = false;
    for (const CsvCell& cell : first_cells) {
      double ignored;
      if (!cell.quoted && parse_number(cell.text, ignored) != NumberStatus::not_a_number) any_number = true;
    }
    if (!any_number) {
      header_line = true;
    } else if (rules.conventions) {
      const std::size_t start = !first_cells[0].quoted && first_cells[0].text.empty() ? 1 : 0;
      pandas_names = first_cells.size() > start;
      for (std::size_t k = start; k < first_cells.size() && pandas_names; ++k)
        pandas_names = !first_cells[k].quoted && first_cells[k].text == std::to_string(k - start);
      header_line = pandas_names;
    }
  }
  const std::size_t header_line_number = at.line;
  if (header_line) {
    for (const CsvCell& cell : first_cells) table.header.push_back(unescape_csv_cell(cell));
    if (!next_content_line())
      throw_csv_error(at, 1, "only a header line, no data rows: add the points below it, one per line");
  }

  // The data's width, and the header against it.
  const std::size_t first_data_line = at.line;
  const std::size_t columns = for_each_csv_cell(line, delimiter, at, [](const CsvCell&) {});
  table.columns = columns;
  if (header_line && table.header.size() != columns) {
    if (rules.conventions && table.header.size() + 1 == columns) {
      table.header.insert(table.header.begin(), std::string());
      table.notes.push_back(nldr::detail::concat("the header (line ", header_line_number, ") has one name fewer than the ",
                                                 columns, " columns: the first column is taken as unnamed"));
    } else {
      at.line = header_line_number;
      throw_csv_error(at, 1, "the header has ", table.header.size(), " name", table.header.size() == 1 ? "" : "s",
                      " but the data has ", columns, " column", columns == 1 ? "" : "s", " (line ", first_data_line,
                      "): give one name per column, or read with CsvHeader::absent (--header no) if line ",
                      header_line_number, " is data");
    }
  }

  // Which file column is what.
  const auto resolve = [&](const ColumnRef& ref, std::string_view role) -> std::size_t {
    if (!ref.by_name()) {
      if (ref.position() >= columns)
        throw io_error(nldr::detail::concat(source_name, ": ", role, " ", ref.describe(), " does not exist: the data has ",
                                            columns, " column", columns == 1 ? "" : "s", " (positions 0..",
                                            columns - 1, ")"));
      return ref.position();
    }
    const auto found = std::find(table.header.begin(), table.header.end(), ref.name());
    if (found == table.header.end()) {
      std::string names;
      for (std::size_t j = 0; j < table.header.size() && j < 20; ++j)
        names += nldr::detail::concat(j ? ", " : "", quote_cell(table.header[j]));
      if (table.header.size() > 20) names += nldr::detail::concat(", ... (", table.header.size(), " names)");
      throw io_error(nldr::detail::concat(
          source_name, ": ", role, " ", ref.describe(), " does not exist: ",
          table.header.empty() ? std::string("the input has no header line, so name columns by 0-based position")
                               : nldr::detail::concat("the header names ", names)));
    }
    if (std::find(found + 1, table.header.end(), ref.name()) != table.header.end())
      throw io_error(nldr::detail::concat(source_name, ": ", role, " ", ref.describe(),
                                          " is ambiguous: the header names it twice; give its 0-based position"));
    return std::size_t(found - table.header.begin());
  };
  enum class Use : unsigned char { skip, number, text };
  std::vector<Use> use(columns, Use::skip);
  std::optional<std::size_t> index;
  bool detect_index = false;
  if (rules.conventions) {
    if (!rules.index_col.detected() && !rules.index_col.is_none()) {
      index = resolve(rules.index_col.column(), "the index column");
      table.notes.push_back(nldr::detail::concat("left out column ", *index,
                                                 header_line ? " '" + table.header[*index] + "'" : std::string(),
                                                 " as the row index (--index-col)"));
    }
    detect_index = rules.index_col.detected() && header_line && table.header[0].empty();
    if (detect_index) index = 0;
  }
  if (rules.text_column) {
    const std::size_t j = resolve(*rules.text_column, "the");
    if (index == j)
      throw io_error(nldr::detail::concat(source_name, ": ", rules.text_column->describe(),
                                          " is the row index column: name another column, or read with "
                                          "--index-col none (IndexColumn::none())"));
    use[j] = Use::text;
  } else if (!rules.columns.empty()) {
    for (const ColumnRef& ref : rules.columns) {
      const std::size_t j = resolve(ref, "the data");
      if (use[j] != Use::skip)
        throw io_error(nldr::detail::concat(source_name, ": ", ref.describe(), " is chosen twice as a data column"));
      if (index == j)
        throw io_error(nldr::detail::concat(source_name, ": ", ref.describe(),
                                            " is the row index column: leave it out of the data columns, or read "
                                            "with --index-col none (IndexColumn::none())"));
      use[j] = Use::number;
      table.source_columns.push_back(j);
    }
  } else {
    for (std::size_t j = 0; j < columns; ++j) use[j] = index == j ? Use::skip : Use::number;
    for (const ColumnRef& ref : rules.exclude) use[resolve(ref, "the excluded")] = Use::skip;
    for (std::size_t j = 0; j < columns; ++j)
      if (use[j] == Use::number) table.source_columns.push_back(j);
    if (table.source_columns.empty())
      throw io_error(nldr::detail::concat(source_name, ": no data columns are left once the index and the excluded "
                                          "columns are left out"));
  }
  // A data column 0 holding 0..N-1 is a row index without a name (df.reset_index(), or
  // df.to_csv(header=False)) unless the caller said so: refused below.
  const bool check_counter = rules.conventions && rules.index_col.detected() && !detect_index &&
                             rules.columns.empty() && !rules.text_column && use[0] == Use::number &&
                             table.source_columns.size() >= 2;
  CounterTracker counter;
  // pandas writes floats with a '.' or an exponent: integer names over such data are a header.
  bool any_integer_text = false;
  const std::size_t unnamed_first = pandas_names && first_cells[0].text.empty() ? 0 : columns;

  std::size_t rows = 0;
  std::vector<T> values;
  const std::size_t width = table.source_columns.size();
  // The values in the chosen order: position of each file column in a row of values.
  std::vector<std::size_t> slot(columns, 0);
  for (std::size_t k = 0; k < width; ++k) slot[table.source_columns[k]] = k;
  std::vector<T> row_values(width);
  do {
    std::size_t first_extra_column = line.size() + 1;  // where the row goes wrong, for the message
    std::size_t counted = 0;
    const std::size_t cells = for_each_csv_cell(line, delimiter, at, [&](const CsvCell& cell) {
      if (rows != 0 && counted++ == columns) first_extra_column = cell.column;
    });
    if (rows == 0) {
      // Reserve for the whole file, estimated from the first row's length (no regrowth copies).
      const double estimated_rows = 1.0 + static_cast<double>(lines.remaining_bytes()) / double(line.size() + 1);
      values.reserve(static_cast<std::size_t>(std::min(estimated_rows * 1.05 + 1, 1e9)) * width);
    } else if (cells != columns) {
      throw_csv_error(at, first_extra_column, "line ", at.line, " has ", cells, " column", cells == 1 ? "" : "s",
                      ", expected ", columns, " as on line ", first_data_line,
                      ": every row must hold the same number of values (check for a missing or extra separator)");
    }
    // On the first line of the input a text cell may mean an undetected header: say how to read one.
    const auto header_hint = [&] {
      if (rows != 0 || header_line) return std::string();
      return nldr::detail::concat(", or read with CsvHeader::present (--header yes) if line ", at.line, " is a header",
                                  rules.header == CsvHeader::automatic
                                      ? " (a header is detected only when none of its cells is a number)" : "");
    };
    const auto column_hint = [&](std::size_t j) {
      if (!rules.conventions) return std::string();
      return nldr::detail::concat(" (", header_line ? "column '" + table.header[j] + "'" : "column " + std::to_string(j),
                                  ": choose the numeric columns with --columns, ReadOptions::columns)");
    };
    std::size_t j = 0;
    for_each_csv_cell(line, delimiter, at, [&](const CsvCell& cell) {
      if (pandas_names && j != unnamed_first && !any_integer_text && is_integer_text(cell)) any_integer_text = true;
      if (j == 0 && (check_counter || detect_index)) counter.add(cell.text, rows, at.line);
      if (use[j] == Use::text) table.text.push_back(unescape_csv_cell(cell));
      if (use[j] == Use::number) {
        if (cell.text.empty() && !cell.quoted)
          throw_csv_error(at, cell.column, "empty cell (a missing value): fill it in or drop the row", header_hint());
        T value{};
        switch (parse_number(cell.text, value)) {
          case NumberStatus::not_a_number:
            throw_csv_error(at, cell.column, "cell ", quote_cell(cell.text), " is not a number",
                            dialect_hint(cell.text, delimiter), column_hint(j), ": write numbers like 1.5, -2e-3 or 7",
                            header_hint());
          case NumberStatus::out_of_range:
            throw_csv_error(at, cell.column, "cell ", quote_cell(cell.text), " is outside the range of ",
                            scalar_name(T{}), ": rescale the data", std::is_same_v<T, float> ? " or read it as double" : "");
          case NumberStatus::ok:
            break;
        }
        if (!rules.allow_non_finite && !std::isfinite(value))
          throw_csv_error(at, cell.column, "cell ", quote_cell(cell.text),
                          " is not finite: remove or impute rows with NaN/Inf before export (e.g. "
                          "pandas dropna()), or set CsvOptions::allow_non_finite");
        row_values[slot[j]] = value;
      }
      ++j;
    });
    values.insert(values.end(), row_values.begin(), row_values.end());
    ++rows;
  } while (next_content_line());

  // Decisions that needed every row.
  if (pandas_names) {
    std::string names;
    for (const CsvCell& cell : first_cells) names += nldr::detail::concat(names.empty() ? "" : ",", cell.text);
    if (any_integer_text)
      throw io_error(nldr::detail::concat(
          source_name, ":", header_line_number, ": line ", header_line_number, " '", names,
          "' may be pandas' default column names 0..D-1 or a row of data (values below it are written as integers, "
          "which pandas does only for integer columns): "
          "read with --header yes (CsvHeader::present) if it names the columns, --header no (CsvHeader::absent) "
          "if it is a point"));
    table.notes.push_back(nldr::detail::concat("line ", header_line_number, " '", names,
                                               "' is read as a header: pandas' default column names 0..D-1"));
  }
  if (detect_index) {
    if (!counter.counts())
      throw io_error(nldr::detail::concat(
          source_name, ":", counter.first_other_line, ": the first column has no name, as pandas and R write a row "
          "index, but its values are not 0..N-1 or 1..N (", quote_cell(counter.first_other_cell), " on line ",
          counter.first_other_line, "): read with --index-col 0 to leave it out, or --index-col none to use it as data "
          "(ReadOptions::index_col)"));
    table.notes.push_back(nldr::detail::concat("left out column 0: no name and the values ", counter.range(),
                                               ", the row index pandas' to_csv (or R's write.csv) writes; "
                                               "--index-col none keeps it"));
  }
  if (check_counter && counter.counts() && rows >= 3)
    throw io_error(nldr::detail::concat(
        source_name, ":", first_data_line, ": column 0",
        header_line ? " '" + table.header[0] + "'" : std::string(), " holds exactly ", counter.range(),
        ", like a row index rather than a feature: read with --index-col 0 to leave it out, or --index-col none "
        "to keep it as data (ReadOptions::index_col)"));
  table.index_column = index;

  table.values = Eigen::Map<const Matrix<T>>(values.data(), static_cast<Eigen::Index>(rows),
                                             static_cast<Eigen::Index>(width));
  return table;
}

}  // namespace nldr::io::detail
