// One reader and one writer for point matrices, whatever the file: read_matrix / read_column
// dispatch on the content and the name ("-" is standard input; NumPy's .npy; else CSV, TSV or
// whitespace-separated text with pandas' and R's conventions) and say what they detected and left
// out; write_matrix writes CSV (optionally with a header), .npy, or standard output.
// docs/io.md has the table of input variants and what each gives.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/types.hpp>
#include <nldr/io/csv_write.hpp>
#include <nldr/io/detail/delimited_table.hpp>
#include <nldr/io/detail/file_bytes.hpp>
#include <nldr/io/npy.hpp>
#include <nldr/io/read_options.hpp>

#include <Eigen/Core>
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nldr::io {

/// A matrix read by read_matrix, with what the reader did.
template <Real T>
struct MatrixRead {
  Matrix<T> values;                         ///< N x D, one point per row
  std::string format;                       ///< "CSV", "TSV", "whitespace-separated text" or ".npy"
  std::vector<std::string> column_names;    ///< one per column of values if the input has a header, else empty
  std::vector<std::size_t> source_columns;  ///< the input's column (0-based) of each column of values
  std::optional<std::size_t> index_column;  ///< the input's column left out as the row index
  std::vector<std::string> notes;           ///< what was detected, converted or left out, one sentence each
};

/// One column read by read_column, e.g. class labels or colour values.
struct ColumnValues {
  std::string name;                     ///< the header name, or "column j"
  bool numeric = false;                 ///< every cell is a finite number
  Vector<double> values;                ///< numeric: the numbers; else each row's index into categories
  std::vector<std::string> categories;  ///< text: the distinct cells, in order of first appearance
  std::size_t input_columns = 0;        ///< how many columns the input has (index column included)
};

/// Options of write_matrix.
struct WriteOptions {
  /// CSV: a first line with one name per column (empty: none). .npy files have no names.
  std::vector<std::string> header = {};
  /// CSV: shortest_round_trip (exact), or 1..60 significant digits.
  int precision = shortest_round_trip;
};

/// The bytes of `path`, or of standard input for "-" (read once: parse them with parse_matrix and
/// parse_column when both the points and a label column come from standard input).
inline std::string read_bytes(const std::filesystem::path& path) { return detail::read_file_bytes(path); }

/// How read_matrix names `path` in messages: "<stdin>" for "-".
inline std::string input_name(const std::filesystem::path& path) {
  return path == "-" ? std::string("<stdin>") : path.string();
}

namespace detail {

inline std::string lowercase_extension(std::string_view source_name) {
  std::string extension = std::filesystem::path(source_name).extension().string();
  for (char& c : extension) c = char(std::tolower(static_cast<unsigned char>(c)));
  return extension;
}

/// Refuses inputs that are not text nor .npy, with the command that makes them readable.
inline void refuse_other_formats(std::string_view bytes, std::string_view source, std::string_view extension) {
  if (bytes.starts_with("\x1F\x8B"))
    throw io_error(nldr::detail::concat(source, ": is gzip-compressed: decompress it and read standard input, "
                                                   "e.g. gunzip -c ", source, " | nldr embed --in - ..."));
  if (bytes.starts_with("PK\x03\x04"))
    throw io_error(nldr::detail::concat(
        source, ": is a zip archive", extension == ".npz" ? " (.npz)" : "",
        ": extract one array, e.g. in Python np.save('X.npy', np.load('", source, "')['arr_0'])"));
  if (extension == ".npy")
    throw io_error(nldr::detail::concat(source, ": does not start with \\x93NUMPY, so it is not a .npy file (write "
                                                   "it with numpy.save; text files need another extension)"));
}

/// The columns of an n-column .npy matrix that options choose (positions only: no names).
inline std::vector<std::size_t> npy_columns(std::size_t n, const ReadOptions& options, std::string_view source,
                                            std::optional<std::size_t>& index) {
  const auto position = [&](const ColumnRef& ref, std::string_view role) {
    if (ref.by_name())
      throw io_error(nldr::detail::concat(source, ": a .npy file has no column names: give the ", role, " ",
                                             ref.describe(), " by its 0-based position"));
    if (ref.position() >= n)
      throw io_error(nldr::detail::concat(source, ": the ", role, " ", ref.describe(), " does not exist: the array has ",
                                             n, " column", n == 1 ? "" : "s"));
    return ref.position();
  };
  if (options.header == CsvHeader::present)
    throw io_error(nldr::detail::concat(source, ": a .npy file has no header line: drop --header yes (CsvHeader::present)"));
  if (!options.index_col.detected() && !options.index_col.is_none()) index = position(options.index_col.column(), "index");
  std::vector<std::size_t> chosen;
  if (!options.columns.empty()) {
    for (const ColumnRef& ref : options.columns) {
      const std::size_t j = position(ref, "data");
      if (std::find(chosen.begin(), chosen.end(), j) != chosen.end() || index == j)
        throw io_error(nldr::detail::concat(source, ": ", ref.describe(), " is chosen twice, or is the index column"));
      chosen.push_back(j);
    }
    return chosen;
  }
  std::vector<bool> left_out(n, false);
  if (index) left_out[*index] = true;
  for (const ColumnRef& ref : options.exclude) left_out[position(ref, "excluded")] = true;
  for (std::size_t j = 0; j < n; ++j)
    if (!left_out[j]) chosen.push_back(j);
  if (chosen.empty()) throw io_error(nldr::detail::concat(source, ": no data columns are left"));
  return chosen;
}

inline TableRules matrix_rules(const ReadOptions& options, std::string_view source) {
  TableRules rules;
  rules.separator = options.separator;
  rules.header = options.header;
  rules.comments = options.comments;
  rules.allow_non_finite = options.allow_non_finite;
  rules.conventions = true;
  rules.index_col = options.index_col;
  rules.columns = options.columns;
  rules.exclude = options.exclude;
  rules.extension = lowercase_extension(source);
  return rules;
}

}  // namespace detail

/// Reads a point matrix from `bytes`, named `source_name` in messages (its extension picks the
/// format): .npy content (it starts with \x93NUMPY, whatever the name) by parse_npy; gzip and zip
/// content, or a .npy name on other content, is refused with the command that converts it;
/// anything else is delimited text. Text rules (docs/io.md): the separator is a tab for .tsv/.tab,
/// else a comma if the first line has one, a tab if it has tabs and no space, else blanks; with
/// header = automatic a first line without numbers is a header, and so is pandas' 0,1,..,D-1 over
/// data that is not all integers; an unnamed first column holding 0..N-1 or 1..N is pandas' or R's
/// row index and is left out (index_col = detect). What cannot be told apart is an io_error naming
/// the option that decides it (--header, --index-col, --columns), never a guess:
/// - pandas' names 0..D-1 over integer data;
/// - an unnamed first column that is not 0..N-1 or 1..N (a filtered or text index);
/// - a named or headerless first column holding exactly 0..N-1 or 1..N (N >= 3, other columns too);
/// - a text cell in a data column (a label column: choose the data columns).
/// `notes` says what was detected or left out, for the caller to print.
template <Real T>
MatrixRead<T> parse_matrix(std::string_view bytes, std::string_view source_name, const ReadOptions& options = {}) {
  const std::string extension = detail::lowercase_extension(source_name);
  MatrixRead<T> out;
  if (bytes.starts_with(npy_magic)) {
    NpyArray<T> array = parse_npy<T>(bytes, source_name, options.allow_non_finite);
    const auto chosen = detail::npy_columns(std::size_t(array.values.cols()), options, source_name, out.index_column);
    out.format = ".npy";
    out.notes = std::move(array.notes);
    if (extension != ".npy") out.notes.push_back("read as .npy: the content starts with numpy's magic bytes");
    if (chosen.size() == std::size_t(array.values.cols())) {
      out.values = std::move(array.values);
    } else {
      out.values.resize(array.values.rows(), Eigen::Index(chosen.size()));
      for (std::size_t k = 0; k < chosen.size(); ++k) out.values.col(Eigen::Index(k)) = array.values.col(Eigen::Index(chosen[k]));
      if (out.index_column) out.notes.push_back(nldr::detail::concat("left out column ", *out.index_column, " as the row index"));
    }
    out.source_columns = chosen;
    return out;
  }
  detail::refuse_other_formats(bytes, source_name, extension);
  auto table = detail::read_delimited<T>(bytes, source_name, detail::matrix_rules(options, source_name));
  out.values = std::move(table.values);
  out.format = std::move(table.format);
  if (!table.header.empty())
    for (std::size_t j : table.source_columns) out.column_names.push_back(table.header[j]);
  out.source_columns = std::move(table.source_columns);
  out.index_column = table.index_column;
  out.notes = std::move(table.notes);
  return out;
}

/// Reads a point matrix from the file at `path`, or from standard input for "-"; see parse_matrix.
/// Throws nldr::io_error "path: cannot read: <system reason>" if it cannot be read.
template <Real T>
MatrixRead<T> read_matrix(const std::filesystem::path& path, const ReadOptions& options = {}) {
  return parse_matrix<T>(read_bytes(path), input_name(path), options);
}

/// Reads one column of `bytes` (e.g. class labels for colours), with the same header and index
/// rules as parse_matrix so that its rows are the matrix's rows; `options.columns` and `exclude`
/// are not used. A column whose every cell is a finite number comes back numeric, any other as
/// categories (codes 0, 1, ... in order of first appearance). Throws nldr::io_error as parse_matrix,
/// and for a column that does not exist or is the index column.
inline ColumnValues parse_column(std::string_view bytes, std::string_view source_name, const ColumnRef& column,
                                 const ReadOptions& options = {}) {
  ColumnValues out;
  if (bytes.starts_with(npy_magic)) {
    ReadOptions one = options;
    one.columns = {column};
    one.exclude.clear();
    auto read = parse_matrix<double>(bytes, source_name, one);
    out.name = nldr::detail::concat("column ", column.position());
    const NpyHeader header = parse_npy_header(bytes, source_name);
    out.input_columns = header.shape.size() < 2 ? 1 : std::size_t(header.shape[1]);
    out.numeric = true;
    out.values = read.values.col(0);
    return out;
  }
  detail::refuse_other_formats(bytes, source_name, detail::lowercase_extension(source_name));
  detail::TableRules rules = detail::matrix_rules(options, source_name);
  rules.columns.clear();
  rules.exclude.clear();
  rules.text_column = column;
  auto table = detail::read_delimited<double>(bytes, source_name, rules);
  out.name = column.by_name() ? column.name() : nldr::detail::concat("column ", column.position());
  if (!column.by_name() && !table.header.empty() && !table.header[column.position()].empty())
    out.name = table.header[column.position()];
  out.input_columns = table.columns;
  out.values.resize(Eigen::Index(table.text.size()));
  out.numeric = true;
  for (std::size_t i = 0; i < table.text.size() && out.numeric; ++i) {
    double value = 0;
    out.numeric = detail::parse_number(table.text[i], value) == detail::NumberStatus::ok && std::isfinite(value);
    out.values(Eigen::Index(i)) = value;
  }
  if (out.numeric) return out;
  for (std::size_t i = 0; i < table.text.size(); ++i) {
    const auto found = std::find(out.categories.begin(), out.categories.end(), table.text[i]);
    out.values(Eigen::Index(i)) = double(found - out.categories.begin());
    if (found == out.categories.end()) out.categories.push_back(table.text[i]);
  }
  return out;
}

/// Reads one column of the file at `path` ("-": standard input); see parse_column.
inline ColumnValues read_column(const std::filesystem::path& path, const ColumnRef& column, const ReadOptions& options = {}) {
  return parse_column(read_bytes(path), input_name(path), column, options);
}

/// Writes `values` (float or double) to `path`: "-" is standard output (CSV text); a .npy name
/// gives a .npy file (float32/float64, C order; np.load reads it back exactly); a .tsv/.tab name
/// tab-separated text; anything else CSV (write_csv, with options.header as its first line). Files are written atomically (AtomicFile);
/// pipes, terminals and /dev/stdout directly. Throws nldr::invalid_argument for an empty matrix,
/// a header of the wrong length, or a header for a .npy file; nldr::io_error if writing fails.
template <class Derived>
  requires Real<typename Derived::Scalar>
void write_matrix(const std::filesystem::path& path, const Eigen::MatrixBase<Derived>& values,
                  const WriteOptions& options = {}) {
  if (detail::lowercase_extension(path.string()) == ".npy") {
    if (!options.header.empty())
      throw_invalid("header", "a .npy file has no column names: write ", path.string(),
                    " without a header (drop --out-header), or write CSV");
    write_npy(path, values);
    return;
  }
  const std::string extension = detail::lowercase_extension(path.string());
  const char delimiter = extension == ".tsv" || extension == ".tab" ? '\t' : ',';
  if (path == "-") std::fflush(stdout);  // what the caller printed before comes first
  write_csv(path == "-" ? std::filesystem::path("/dev/stdout") : path, values, options.header, options.precision,
            delimiter);
}

}  // namespace nldr::io
