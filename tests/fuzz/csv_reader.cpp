// libFuzzer target: nldr::io::parse_csv and parse_matrix on arbitrary bytes (docs/errors.md,
// "Fuzzing"). The input is the CSV text itself, so every seed and every saved crash is a plain CSV
// file. Each input is parsed as float and as double under option sets that together cover every
// separator and header mode, comments on and off, non-finite cells allowed or not; and by
// parse_matrix (pandas' conventions) as a .csv and as a .tsv file.
// Contract: nldr::io_error, or a table with at least one row and one column, one header name per
// column or none (as the header option demands), one row per content line (counted here
// independently), finite values unless allowed; and whatever float reads, double reads too, with
// the same shape and the same values up to float rounding. parse_matrix: io_error, or a finite
// matrix of at least 1 x 1 with one name per column or none, one source column per column, and one
// row per content line but the header.
#include "fuzz_check.hpp"

#include <nldr/io/csv_read.hpp>
#include <nldr/io/matrix_file.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>

namespace {

using nldr::io::CsvHeader;
using nldr::io::CsvOptions;
using nldr::io::CsvSeparator;
using nldr::io::CsvTable;

constexpr CsvOptions option_sets[] = {
    {},
    {.separator = CsvSeparator::comma, .header = CsvHeader::present, .comments = false, .allow_non_finite = true},
    {.separator = CsvSeparator::whitespace, .header = CsvHeader::absent},
    {.separator = CsvSeparator::automatic, .header = CsvHeader::absent, .comments = false},
    {.separator = CsvSeparator::tab, .header = CsvHeader::present},
};

/// Lines that are neither blank nor (with comments) '#' comments, after an optional BOM; a line
/// ends at LF, and one CR before the LF belongs to the line end.
std::size_t content_lines(std::string_view text, bool comments) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  std::size_t count = 0;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
    if (line.ends_with('\r')) line.remove_suffix(1);
    const std::size_t first = line.find_first_not_of(" \t");
    if (first != std::string_view::npos && !(comments && line[first] == '#')) ++count;
  }
  return count;
}

template <class T>
std::optional<CsvTable<T>> parse(std::string_view text, const CsvOptions& options) {
  try {
    return nldr::io::parse_csv<T>(text, options, "fuzz.csv");
  } catch (const nldr::io_error&) {
    return std::nullopt;
  }
}

template <class T>
void check_table(const CsvTable<T>& table, std::string_view text, const CsvOptions& options) {
  const auto rows = std::size_t(table.values.rows()), columns = std::size_t(table.values.cols());
  NLDR_FUZZ_REQUIRE(rows >= 1 && columns >= 1);
  NLDR_FUZZ_REQUIRE(table.header.empty() || table.header.size() == columns);
  if (options.header == CsvHeader::present) NLDR_FUZZ_REQUIRE(!table.header.empty());
  if (options.header == CsvHeader::absent) NLDR_FUZZ_REQUIRE(table.header.empty());
  NLDR_FUZZ_REQUIRE(rows + (table.header.empty() ? 0 : 1) == content_lines(text, options.comments));
  if (!options.allow_non_finite) NLDR_FUZZ_REQUIRE(table.values.allFinite());
}

/// A number read as float is the one read as double, rounded once (double rounding may land on
/// the neighboring float, and FLT_MAX's neighbor is infinity).
bool same_number(float as_float, double as_double) {
  const float rounded = static_cast<float>(as_double);
  if (std::isnan(as_float) || std::isnan(rounded)) return std::isnan(as_float) && std::isnan(rounded);
  return as_float == rounded || std::nextafter(as_float, rounded) == rounded;
}

void check_one(std::string_view text, const CsvOptions& options) {
  const auto as_float = parse<float>(text, options);
  const auto as_double = parse<double>(text, options);
  if (as_double) check_table(*as_double, text, options);
  if (!as_float) return;
  check_table(*as_float, text, options);
  NLDR_FUZZ_REQUIRE(as_double.has_value());
  NLDR_FUZZ_REQUIRE(as_float->values.rows() == as_double->values.rows());
  NLDR_FUZZ_REQUIRE(as_float->values.cols() == as_double->values.cols());
  NLDR_FUZZ_REQUIRE(as_float->header == as_double->header);
  for (Eigen::Index i = 0; i < as_float->values.size(); ++i)
    NLDR_FUZZ_REQUIRE(same_number(as_float->values.data()[i], as_double->values.data()[i]));
}

void check_matrix(std::string_view text, std::string_view name) {
  nldr::io::MatrixRead<double> read;
  try {
    read = nldr::io::parse_matrix<double>(text, name);
  } catch (const nldr::io_error&) {
    return;
  }
  const auto rows = std::size_t(read.values.rows()), columns = std::size_t(read.values.cols());
  NLDR_FUZZ_REQUIRE(rows >= 1 && columns >= 1);
  NLDR_FUZZ_REQUIRE(read.column_names.empty() || read.column_names.size() == columns);
  NLDR_FUZZ_REQUIRE(read.source_columns.size() == columns);
  NLDR_FUZZ_REQUIRE(rows + (read.column_names.empty() ? 0 : 1) == content_lines(text, true));
  NLDR_FUZZ_REQUIRE(read.values.allFinite());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  nldr_fuzz::expect_no_foreign_exception([&] {
    for (const CsvOptions& options : option_sets) check_one(text, options);
    if (!text.starts_with(nldr::io::npy_magic))
      for (const char* name : {"fuzz.csv", "fuzz.tsv"}) check_matrix(text, name);
  });
  return 0;
}
