// Options of the table readers: separator and header modes (read_csv, read_matrix), columns by
// name or position, the row-index column and the column selection (read_matrix, read_column).
#pragma once

#include <nldr/core/error.hpp>

#include <concepts>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace nldr::io {

/// How cells are separated.
enum class CsvSeparator {
  automatic,  ///< read_matrix: tab for a .tsv/.tab file; then a comma if the first non-comment line
              ///< holds one, a tab if it holds tabs and only single spaces inside cells (none at
              ///< the ends, doubled or next to a tab), else whitespace
  comma,      ///< one ',' between cells; blanks around cells are ignored
  tab,        ///< one tab between cells (TSV); spaces around cells are ignored
  whitespace  ///< runs of spaces and tabs
};

/// Whether the first non-comment line is a header (column names).
enum class CsvHeader {
  automatic,  ///< a header if no cell of the first line is an unquoted number; a line mixing
              ///< numbers and text is read as data (and rejected), never silently dropped.
              ///< read_matrix also recognizes pandas' integer names 0..D-1 (docs/io.md)
  present,
  absent
};

/// A column of a table: by 0-based position, or by its header name.
class ColumnRef {
 public:
  ColumnRef(std::size_t position) : position_(position) {}
  ColumnRef(int position) : position_(position < 0 ? 0 : std::size_t(position)) {
    if (position < 0) throw_invalid("column", "column position ", position, " is negative: positions start at 0");
  }
  ColumnRef(std::string name) : name_(std::move(name)), by_name_(true) {}
  ColumnRef(const char* name) : ColumnRef(std::string(name)) {}

  /// A command-line value: all digits is a 0-based position, anything else a name.
  static ColumnRef parse(std::string_view text) {
    const bool digits = !text.empty() && text.size() < 19 && text.find_first_not_of("0123456789") == std::string_view::npos;
    if (!digits) return ColumnRef(std::string(text));
    std::size_t position = 0;
    for (char c : text) position = position * 10 + std::size_t(c - '0');
    return ColumnRef(position);
  }

  bool by_name() const noexcept { return by_name_; }
  std::size_t position() const noexcept { return position_; }
  const std::string& name() const noexcept { return name_; }
  /// "column 'x'" or "column 3" (0-based), for messages.
  std::string describe() const {
    return by_name_ ? nldr::detail::concat("column '", name_, "'") : nldr::detail::concat("column ", position_);
  }

 private:
  std::size_t position_ = 0;
  std::string name_;
  bool by_name_ = false;
};

/// The column holding row labels (pandas' index) that read_matrix leaves out of the values.
class IndexColumn {
 public:
  /// The default: an unnamed first column (an empty first header cell, or a header with one name
  /// fewer than the data has columns) holding exactly 0..N-1 or 1..N is pandas' or R's row index
  /// and is left out; docs/io.md gives the rules and the errors for what cannot be told apart.
  static IndexColumn detect() { return IndexColumn(Mode::detect, std::size_t(0)); }
  /// No index column: every column is data.
  static IndexColumn none() { return IndexColumn(Mode::none, std::size_t(0)); }
  /// This column is the index (its cells may be anything, text included).
  template <class Column>
    requires std::constructible_from<ColumnRef, Column>
  IndexColumn(Column column) : mode_(Mode::column), column_(ColumnRef(std::move(column))) {}
  IndexColumn() : IndexColumn(detect()) {}

  bool detected() const noexcept { return mode_ == Mode::detect; }
  bool is_none() const noexcept { return mode_ == Mode::none; }
  /// The named column (only when neither detected() nor is_none()).
  const ColumnRef& column() const noexcept { return column_; }

 private:
  enum class Mode { detect, none, column };
  IndexColumn(Mode mode, ColumnRef column) : mode_(mode), column_(std::move(column)) {}
  Mode mode_;
  ColumnRef column_{std::size_t(0)};
};

/// Options of read_matrix and read_column. Designated initializers:
/// `{.header = CsvHeader::present, .index_col = 0, .columns = {"x", "y"}}`.
struct ReadOptions {
  CsvHeader header = CsvHeader::automatic;
  IndexColumn index_col = IndexColumn::detect();
  /// The data columns, in this order (by name or position in the file); empty: every column but
  /// the index column and `exclude`.
  std::vector<ColumnRef> columns = {};
  /// Columns left out when `columns` is empty, e.g. a label column read with read_column.
  std::vector<ColumnRef> exclude = {};
  CsvSeparator separator = CsvSeparator::automatic;
  /// Skip lines whose first non-blank character is '#' (numpy.savetxt writes its header so).
  bool comments = true;
  /// Accept nan / inf values (every nldr method rejects them anyway).
  bool allow_non_finite = false;
};

}  // namespace nldr::io
