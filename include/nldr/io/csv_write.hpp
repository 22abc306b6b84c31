// Writing CSV files atomically: numeric matrices (write_csv) and rows of mixed cells (CsvWriter),
// in the dialect read_csv reads (docs/io.md).
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/types.hpp>
#include <nldr/io/atomic_file.hpp>
#include <nldr/io/detail/csv_format.hpp>
#include <nldr/io/detail/number_format.hpp>

#include <Eigen/Core>
#include <concepts>
#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace nldr::io {

/// Precision that writes each floating-point value as the shortest text reading back to the
/// identical value (float or double): exact round trip, and "0.1" rather than "0.10000000000000001".
inline constexpr int shortest_round_trip = 0;

/// Writes a CSV file row by row, comma separated, LF line ends, through an AtomicFile: the file
/// appears complete at commit() or not at all.
///
/// \code
/// nldr::io::CsvWriter edges("edges.csv", {"i", "j", "distance"});
/// for (...) edges.write_row(i, j, d);   // integers, floating-point values, text
/// edges.commit();                       // without it the destructor discards the file
/// \endcode
/// Every row must have as many cells as the header (or, without a header, as the first row).
/// Text cells are quoted when the reader would otherwise misread them (a separator, a quote, a
/// blank at either end, a leading '#', an empty or a number-like text).
class CsvWriter {
 public:
  /// Opens `path` for writing (throws nldr::io_error as AtomicFile does) and writes `header`
  /// unless it is empty. precision: shortest_round_trip (0), or 1..60 significant digits.
  /// delimiter: ',' (CSV) or '\t' (TSV).
  explicit CsvWriter(const std::filesystem::path& path, const std::vector<std::string>& header = {},
                     int precision = shortest_round_trip, char delimiter = ',')
      : file_(path), precision_(precision), delimiter_(delimiter) {
    if (delimiter != ',' && delimiter != '\t')
      throw_invalid("delimiter", "the delimiter must be ',' or a tab");
    if (precision < 0 || precision > 60)
      throw_invalid("precision", "precision = ", precision,
                    " must be 0 (shortest exact round trip) or 1..60 significant digits");
    if (!header.empty()) {
      for (const std::string& name : header) cell(std::string_view(name));
      end_row();
    }
  }

  /// Appends one cell to the current row: an integer, a floating-point value (nan, inf, -inf
  /// for non-finite ones) or text. Throws nldr::invalid_argument for text with a line break.
  template <class Cell>
  CsvWriter& cell(const Cell& value) {
    if (cells_in_row_ > 0) buffer_ += delimiter_;
    if constexpr (std::is_arithmetic_v<Cell> && !std::same_as<Cell, bool> && !std::same_as<Cell, char>) {
      detail::append_number(buffer_, value, std::is_floating_point_v<Cell> ? precision_ : 0);
    } else {
      static_assert(std::is_convertible_v<const Cell&, std::string_view>,
                    "a CSV cell is an integer, a floating-point value or text");
      append_text(std::string_view(value));
    }
    ++cells_in_row_;
    return *this;
  }

  /// Ends the current row. Throws nldr::invalid_argument if its number of cells differs from
  /// the first row's (or the header's), or if it has none.
  void end_row() {
    if (cells_in_row_ == 0) throw_invalid("row", "row ", rows_ + 1, " of ", file_.path().string(), " has no cells");
    if (columns_ == 0) columns_ = cells_in_row_;
    if (cells_in_row_ != columns_)
      throw_invalid("row", "row ", rows_ + 1, " of ", file_.path().string(), " has ", cells_in_row_,
                    " cells but the first row has ", columns_, ": every row needs the same number of cells");
    buffer_ += '\n';
    cells_in_row_ = 0;
    ++rows_;
    if (buffer_.size() >= (1u << 16)) flush();
  }

  /// Writes one whole row: write_row(i, j, distance).
  template <class... Cells>
  void write_row(const Cells&... cells) {
    (cell(cells), ...);
    end_row();
  }

  /// Rows written so far (the header counts as one).
  std::size_t rows() const noexcept { return rows_; }

  /// Writes the buffered rows and renames the file into place. Throws nldr::invalid_argument
  /// if a row is unfinished, nldr::io_error if writing fails (the file is then not created).
  void commit() {
    if (cells_in_row_ != 0)
      throw_invalid("row", "row ", rows_ + 1, " of ", file_.path().string(), " is unfinished: call end_row()");
    flush();
    file_.commit();
  }

 private:
  void flush() {
    file_.write(buffer_);
    buffer_.clear();
  }

  void append_text(std::string_view text) {
    if (text.find_first_of("\n\r") != std::string_view::npos)
      throw_invalid("cell", "a CSV cell cannot hold a line break (row ", rows_ + 1, " of ", file_.path().string(),
                    "): replace it with a space");
    double ignored;  // number-like text is quoted so that a header of such names stays a header
    const bool needs_quotes = text.empty() || text.find_first_of(",\"\t") != std::string_view::npos ||
                              detail::is_blank(text.front()) || detail::is_blank(text.back()) ||
                              text.front() == '#' ||
                              detail::parse_number(text, ignored) != detail::NumberStatus::not_a_number;
    if (!needs_quotes) {
      buffer_ += text;
      return;
    }
    buffer_ += '"';
    for (char c : text) {
      if (c == '"') buffer_ += '"';
      buffer_ += c;
    }
    buffer_ += '"';
  }

  AtomicFile file_;
  std::string buffer_;
  std::size_t columns_ = 0, cells_in_row_ = 0, rows_ = 0;
  int precision_;
  char delimiter_;
};

/// Writes `values` (N x D, any Eigen expression of float or double) as CSV to `path`, one row per
/// line, atomically. header: empty, or one name per column. precision: shortest_round_trip (the
/// default: read_csv gives back bit-identical values), or 1..60 significant digits. delimiter:
/// ',' or '\t' (TSV).
/// Throws nldr::invalid_argument for an empty matrix or a header of the wrong length,
/// nldr::io_error if the file cannot be written (missing directory, ...; nothing is left behind).
template <class Derived>
  requires Real<typename Derived::Scalar>
void write_csv(const std::filesystem::path& path, const Eigen::MatrixBase<Derived>& values,
               const std::vector<std::string>& header = {}, int precision = shortest_round_trip,
               char delimiter = ',') {
  if (values.rows() == 0 || values.cols() == 0)
    throw_invalid("values", "values is empty (", values.rows(), " x ", values.cols(), "): nothing to write to ",
                  path.string());
  if (!header.empty() && static_cast<Eigen::Index>(header.size()) != values.cols())
    throw_invalid("header", "header has ", header.size(), " names but values has ", values.cols(),
                  " columns: give one name per column, or none");
  CsvWriter writer(path, header, precision, delimiter);
  for (Eigen::Index i = 0; i < values.rows(); ++i) {
    for (Eigen::Index j = 0; j < values.cols(); ++j) writer.cell(values(i, j));
    writer.end_row();
  }
  writer.commit();
}

}  // namespace nldr::io
