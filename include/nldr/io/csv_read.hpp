// Reading numeric CSV files: one point per row (docs/io.md describes the accepted format).
// read_matrix (matrix_file.hpp) reads the same text with pandas' conventions, .npy and stdin.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/types.hpp>
#include <nldr/io/detail/delimited_table.hpp>
#include <nldr/io/detail/file_bytes.hpp>
#include <nldr/io/read_options.hpp>

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace nldr::io {

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

/// Parses CSV `text` into a numeric table (format: docs/io.md). `source_name` prefixes error
/// messages ("points.csv:7:3: ..."). Rules: a UTF-8 byte order mark is skipped; CRLF or LF line
/// ends; blank lines, and '#' comment lines when options.comments, are skipped anywhere; every
/// data row has the same number of cells; every cell is a number (std::from_chars, locale-free;
/// finite unless options.allow_non_finite). No pandas conventions: read_matrix has them.
/// Throws nldr::io_error "source:line:column: what is wrong and the fix" for: no data (empty
/// input, only a header), a row with a different number of cells, an empty cell, a cell that is
/// not a number, a number out of T's range, a nan/inf cell, a header whose number of names
/// differs from the data's columns, a quoting error.
template <Real T>
CsvTable<T> parse_csv(std::string_view text, const CsvOptions& options = {},
                      std::string_view source_name = "<input>") {
  detail::TableRules rules;
  rules.separator = options.separator;
  rules.header = options.header;
  rules.comments = options.comments;
  rules.allow_non_finite = options.allow_non_finite;
  auto table = detail::read_delimited<T>(text, source_name, rules);
  return {std::move(table.values), std::move(table.header)};
}

/// Reads the CSV file at `path` into a numeric table; see parse_csv for the format and the
/// errors. Throws nldr::io_error "path: cannot read: <system reason>" if the file cannot be
/// opened or read. The whole file is held in memory while it is parsed (about the file's size
/// plus the values).
template <Real T>
CsvTable<T> read_csv(const std::filesystem::path& path, const CsvOptions& options = {}) {
  return parse_csv<T>(detail::read_file_bytes(path), options, path.string());
}

}  // namespace nldr::io
