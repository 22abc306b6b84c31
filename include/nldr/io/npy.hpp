// NumPy's .npy format (numpy.lib.format, NEP 1 "A simple file format for NumPy arrays", versions
// 1.0, 2.0 and 3.0): reading 1-D and 2-D numeric arrays into a Matrix<T>, writing float/double
// matrices. docs/io.md lists what is accepted and every error.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/types.hpp>
#include <nldr/io/atomic_file.hpp>

#include <Eigen/Core>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace nldr::io {

/// The first six bytes of every .npy file.
inline constexpr std::string_view npy_magic = "\x93NUMPY";

/// What a .npy header said.
struct NpyHeader {
  int major_version = 0, minor_version = 0;
  std::string descr;  ///< the dtype string, e.g. "<f8", ">i4", "|u1"
  bool fortran_order = false;
  std::vector<std::uint64_t> shape;
  std::size_t data_offset = 0;  ///< bytes before the first value
};

/// A .npy array read as a matrix: N x D for shape (N, D), N x 1 for shape (N,); `notes` says in
/// words what was converted (dtype, order, byte order), for the tool to print.
template <Real T>
struct NpyArray {
  Matrix<T> values;
  NpyHeader header;
  std::vector<std::string> notes;
};

namespace detail {

template <class... Parts>
[[noreturn]] void throw_npy_error(std::string_view source, const Parts&... parts) {
  throw io_error(nldr::detail::concat(source, ": ", parts...));
}

/// A reader of the header's Python dict literal, e.g.
/// {'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }
/// Only what numpy writes there: string literals, True/False and tuples of integers.
class NpyDictReader {
 public:
  NpyDictReader(std::string_view text, std::string_view source) : text_(text), source_(source) {}

  NpyHeader read(NpyHeader header) {
    bool have_descr = false, have_order = false, have_shape = false;
    expect('{');
    while (!peek('}')) {
      const std::string key = string_literal();
      expect(':');
      if (key == "descr") {
        if (peek('['))
          throw_npy_error(source_, "a structured dtype (named fields, a record array): save a plain numeric array instead, e.g. "
               "np.save(path, np.column_stack([X[name] for name in X.dtype.names]).astype(np.float64))");
        header.descr = string_literal();
        have_descr = true;
      } else if (key == "fortran_order") {
        header.fortran_order = boolean();
        have_order = true;
      } else if (key == "shape") {
        header.shape = integer_tuple();
        have_shape = true;
      } else {
        fail("the header has an unknown key '", key, "' (expected descr, fortran_order and shape)");
      }
      if (!peek('}')) expect(',');
    }
    expect('}');
    skip_blanks();
    if (position_ != text_.size()) fail("the header has text after its closing '}'");
    if (!have_descr || !have_order || !have_shape)
      fail("the header lacks ", !have_descr ? "'descr'" : !have_order ? "'fortran_order'" : "'shape'",
           ": not a file written by numpy.save");
    return header;
  }

 private:
  template <class... Parts>
  [[noreturn]] void fail(const Parts&... parts) const {
    throw_npy_error(source_, "bad .npy header: ", parts...);
  }

  void skip_blanks() {
    while (position_ < text_.size() && (text_[position_] == ' ' || text_[position_] == '\n' ||
                                        text_[position_] == '\t' || text_[position_] == '\r'))
      ++position_;
  }
  bool peek(char c) {
    skip_blanks();
    return position_ < text_.size() && text_[position_] == c;
  }
  void expect(char c) {
    if (!peek(c)) fail("expected '", std::string(1, c), "' at byte ", position_, " of the header dictionary");
    ++position_;
  }
  std::string string_literal() {
    skip_blanks();
    if (position_ >= text_.size() || (text_[position_] != '\'' && text_[position_] != '"'))
      fail("expected a quoted string at byte ", position_, " of the header dictionary");
    const char quote = text_[position_++];
    const std::size_t end = text_.find(quote, position_);
    if (end == std::string_view::npos) fail("unterminated string in the header dictionary");
    std::string value(text_.substr(position_, end - position_));
    position_ = end + 1;
    return value;
  }
  bool boolean() {
    skip_blanks();
    for (const auto& [word, value] : {std::pair<std::string_view, bool>{"True", true}, {"False", false}}) {
      if (text_.substr(position_).starts_with(word)) {
        position_ += word.size();
        return value;
      }
    }
    fail("fortran_order must be True or False");
  }
  std::vector<std::uint64_t> integer_tuple() {
    expect('(');
    std::vector<std::uint64_t> values;
    while (!peek(')')) {
      if (values.size() == 32) fail("the shape has more than 32 dimensions");
      skip_blanks();
      std::uint64_t value = 0;
      const std::size_t start = position_;
      while (position_ < text_.size() && text_[position_] >= '0' && text_[position_] <= '9') {
        const unsigned digit = unsigned(text_[position_++] - '0');
        if (value > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) fail("a shape entry overflows 64 bits");
        value = value * 10 + digit;
      }
      if (position_ == start) fail("the shape must be a tuple of non-negative integers");
      if (position_ < text_.size() && text_[position_] == 'L') ++position_;  // Python 2 long
      values.push_back(value);
      if (!peek(')')) expect(',');
    }
    expect(')');
    return values;
  }

  std::string_view text_, source_;
  std::size_t position_ = 0;
};

/// Why a dtype kind cannot be read, with the numpy call that converts it.
inline std::string npy_unsupported_kind(char kind) {
  const std::string to_float = "convert with X.astype(np.float64) before np.save";
  switch (kind) {
    case 'O': return "an object array (Python objects, e.g. from a pandas frame with text columns): keep the numeric "
                     "columns and " + to_float;
    case 'c': return "complex values: save the real part (X.real) or both parts side by side "
                     "(np.hstack([X.real, X.imag]))";
    case 'U': case 'S': case 'a': return "text (a string array): only numbers can be embedded";
    case 'M': case 'm': return "dates or time spans: " + to_float + " (e.g. seconds)";
    case 'b': return "booleans: " + to_float;
    case 'V': return "raw or structured records: save a plain numeric array";
    default: return "this dtype: " + to_float;
  }
}

/// Loads element `index` (of `size` bytes, swapping bytes when the file's order differs from the
/// machine's) as an unsigned integer of that size.
template <class U>
U load_swapped(const char* data, std::size_t index, bool swap) {
  U bits;
  std::memcpy(&bits, data + index * sizeof(U), sizeof(U));
  if (swap) {
    U swapped = 0;
    for (std::size_t b = 0; b < sizeof(U); ++b) swapped = U((swapped << 8) | ((bits >> (8 * b)) & 0xFF));
    bits = swapped;
  }
  return bits;
}

template <class Source, class U>
Source load_value(const char* data, std::size_t index, bool swap) {
  return std::bit_cast<Source>(load_swapped<U>(data, index, swap));
}

}  // namespace detail

/// Parses the header of the .npy `bytes` (magic, version, header length, the dict). Throws
/// nldr::io_error "source: ..." for a missing magic, an unknown version, a header running past
/// the end, or a dict numpy would not write.
inline NpyHeader parse_npy_header(std::string_view bytes, std::string_view source = "<input>") {
  using detail::throw_npy_error;
  if (!bytes.starts_with(npy_magic))
    throw_npy_error(source, "not a .npy file: it does not start with \\x93NUMPY (write it with numpy.save)");
  if (bytes.size() < 10) throw_npy_error(source, "truncated .npy file: ", bytes.size(), " bytes, not even a header");
  NpyHeader header;
  header.major_version = static_cast<unsigned char>(bytes[6]);
  header.minor_version = static_cast<unsigned char>(bytes[7]);
  if (header.major_version < 1 || header.major_version > 3)
    throw_npy_error(source, ".npy format version ", header.major_version, ".", header.minor_version,
                    " is not supported (1.0, 2.0 and 3.0 are)");
  const std::size_t length_bytes = header.major_version == 1 ? 2 : 4;
  if (bytes.size() < 8 + length_bytes) throw_npy_error(source, "truncated .npy file: the header length is cut off");
  std::uint64_t header_length = 0;
  for (std::size_t b = 0; b < length_bytes; ++b)
    header_length |= std::uint64_t(static_cast<unsigned char>(bytes[8 + b])) << (8 * b);
  header.data_offset = 8 + length_bytes + header_length;
  if (header.data_offset > bytes.size())
    throw_npy_error(source, "truncated .npy file: the header says it is ", header_length, " bytes long but only ",
                    bytes.size() - 8 - length_bytes, " follow");
  std::string_view dict = bytes.substr(8 + length_bytes, header_length);
  if (dict.empty() || dict.back() != '\n') throw_npy_error(source, "bad .npy header: it does not end with a newline");
  return detail::NpyDictReader(dict, source).read(std::move(header));
}

/// How the values of a .npy file are laid out, from its header (npy_layout).
struct NpyLayout {
  char kind = 'f';             ///< 'f' (float), 'i' (signed) or 'u' (unsigned integer)
  std::size_t item_size = 0;   ///< bytes per value
  bool file_little = true;     ///< the file's byte order
  bool swap = false;           ///< the file's byte order differs from the machine's
  std::uint64_t rows = 0, cols = 0;
  bool fortran_order = false;
};

namespace detail {

inline std::string npy_shape_text(const NpyHeader& h) {
  std::string text = "(";
  for (std::size_t i = 0; i < h.shape.size(); ++i) text += nldr::detail::concat(i ? ", " : "", h.shape[i]);
  return text + (h.shape.size() == 1 ? ",)" : ")");
}

}  // namespace detail

/// Checks the dtype and shape of `h` (the rules of parse_npy) and returns the layout of its values.
/// \throws nldr::io_error "source: ..." as parse_npy does for a dtype or shape it refuses.
inline NpyLayout npy_layout(const NpyHeader& h, std::string_view source = "<input>") {
  using detail::throw_npy_error;
  const std::string& descr = h.descr;
  if (descr.size() < 2 || std::string_view("<>|=").find(descr[0]) == std::string_view::npos)
    throw_npy_error(source, "bad .npy header: the dtype '", descr, "' does not start with a byte order (<, >, | or =)");
  NpyLayout layout;
  layout.kind = descr[1];
  std::size_t item_size = 0;
  for (std::size_t i = 2; i < descr.size() && item_size <= 1000; ++i)
    item_size = descr[i] >= '0' && descr[i] <= '9' ? item_size * 10 + std::size_t(descr[i] - '0') : 1001;
  const char kind = layout.kind;
  const bool supported = (kind == 'f' && (item_size == 4 || item_size == 8)) ||
                         ((kind == 'i' || kind == 'u') &&
                          (item_size == 1 || item_size == 2 || item_size == 4 || item_size == 8));
  if (!supported) {
    if (kind == 'f')
      throw_npy_error(source, "floating-point dtype '", descr,
                      "' is not supported (float32 and float64 are): convert with X.astype(np.float64) before np.save");
    throw_npy_error(source, "cannot read ", detail::npy_unsupported_kind(kind), " (dtype '", descr, "')");
  }
  if (descr[0] == '|' && item_size != 1)
    throw_npy_error(source, "bad .npy header: dtype '", descr, "' has no byte order");
  layout.item_size = item_size;
  layout.file_little = descr[0] == '<' || (descr[0] != '>' && std::endian::native == std::endian::little);
  layout.swap = item_size > 1 && layout.file_little != (std::endian::native == std::endian::little);

  if (h.shape.empty())
    throw_npy_error(source, "a 0-dimensional array (a single number): save a 2-D array of points, one per row");
  if (h.shape.size() > 2)
    throw_npy_error(source, "a ", h.shape.size(), "-D array of shape ", detail::npy_shape_text(h),
                    ": save a 2-D array of points, one per row, e.g. X.reshape(len(X), -1)");
  layout.rows = h.shape[0];
  layout.cols = h.shape.size() == 2 ? h.shape[1] : 1;
  layout.fortran_order = h.fortran_order;
  if (layout.rows == 0 || layout.cols == 0)
    throw_npy_error(source, "no data: the array has shape ", detail::npy_shape_text(h));
  return layout;
}

/// Decodes `count` consecutive rows of the array `layout` describes from `data` into `out`,
/// converting to T: for C order their count x cols values as in the file, for Fortran order the
/// count values of each column one column after the other (all of the file's data when
/// count = layout.rows). Rows are numbered first_row + i in error messages. Returns whether an integer
/// was rounded to T. \throws nldr::io_error for a non-finite value (unless allow_non_finite) or
/// a value beyond float's range when T is float.
template <Real T>
bool decode_npy_rows(const char* data, const NpyLayout& layout, std::uint64_t first_row, std::uint64_t count,
                     Matrix<T>& out, std::string_view source = "<input>", bool allow_non_finite = false) {
  using detail::throw_npy_error;
  const std::uint64_t rows = count, cols = layout.cols;
  const bool fortran = layout.fortran_order, swap = layout.swap;
  out.resize(Eigen::Index(rows), Eigen::Index(cols));
  bool rounded = false;
  const auto store = [&]<class Source, class U>(std::type_identity<Source>, std::type_identity<U>) {
    const std::size_t values = std::size_t(rows * cols);
    for (std::size_t k = 0; k < values; ++k) {
      const Source value = detail::load_value<Source, U>(data, k, swap);
      const Eigen::Index i = fortran ? Eigen::Index(k % rows) : Eigen::Index(k / cols);
      const Eigen::Index j = fortran ? Eigen::Index(k / rows) : Eigen::Index(k % cols);
      if constexpr (std::is_floating_point_v<Source>) {
        if (!std::isfinite(value)) {
          if (!allow_non_finite)
            throw_npy_error(source, "value (row ", first_row + std::uint64_t(i), ", column ", j, ") is not finite (", value,
                            "): remove or impute rows with NaN/Inf before saving, e.g. X[np.isfinite(X).all(axis=1)]");
        } else if (std::abs(value) > Source(std::numeric_limits<T>::max())) {
          throw_npy_error(source, "value (row ", first_row + std::uint64_t(i), ", column ", j, ") = ", value,
                          " is outside the range of float: rescale the data or read it as double");
        }
      } else {
        // T holds an integer exactly when its odd part fits T's significand (24 or 53 bits).
        const bool negative = std::is_signed_v<Source> && value < 0;
        const std::uint64_t magnitude = negative ? std::uint64_t(0) - std::uint64_t(value) : std::uint64_t(value);
        if (magnitude != 0 && std::bit_width(magnitude >> std::countr_zero(magnitude)) > std::numeric_limits<T>::digits)
          rounded = true;
      }
      out(i, j) = static_cast<T>(value);
    }
  };
  const auto tag = [](auto t) { return std::type_identity<decltype(t)>{}; };
  const std::size_t item_size = layout.item_size;
  if (layout.kind == 'f') {
    if (item_size == 4) store(tag(float{}), tag(std::uint32_t{}));
    else store(tag(double{}), tag(std::uint64_t{}));
  } else if (layout.kind == 'i') {
    if (item_size == 1) store(tag(std::int8_t{}), tag(std::uint8_t{}));
    else if (item_size == 2) store(tag(std::int16_t{}), tag(std::uint16_t{}));
    else if (item_size == 4) store(tag(std::int32_t{}), tag(std::uint32_t{}));
    else store(tag(std::int64_t{}), tag(std::uint64_t{}));
  } else {
    if (item_size == 1) store(tag(std::uint8_t{}), tag(std::uint8_t{}));
    else if (item_size == 2) store(tag(std::uint16_t{}), tag(std::uint16_t{}));
    else if (item_size == 4) store(tag(std::uint32_t{}), tag(std::uint32_t{}));
    else store(tag(std::uint64_t{}), tag(std::uint64_t{}));
  }
  return rounded;
}

/// Parses a whole .npy file held in `bytes` into a matrix of T (format: docs/io.md):
/// - dtypes float32, float64 and the integers int8..int64, uint8..uint64 (converted to T; notes
///   say when an integer beyond T's exact range was rounded), either byte order;
/// - C and Fortran order; shape (N, D) gives N x D, shape (N,) one column of N rows.
/// Throws nldr::io_error "source: ..." naming the problem and the numpy call that fixes it for:
/// a bad magic or header, object, complex, text, boolean, date, structured or half/long-double
/// dtypes, 0-D or more than 2-D arrays, no values (a 0 in the shape), data shorter or longer than
/// the shape says, a float64 value outside float's range when T is float, and NaN/Inf values
/// unless allow_non_finite (with the row and column of the first one).
template <Real T>
NpyArray<T> parse_npy(std::string_view bytes, std::string_view source = "<input>", bool allow_non_finite = false) {
  using detail::throw_npy_error;
  NpyArray<T> array;
  array.header = parse_npy_header(bytes, source);
  const NpyHeader& h = array.header;
  const NpyLayout layout = npy_layout(h, source);
  const std::uint64_t rows = layout.rows, cols = layout.cols, item_size = layout.item_size;
  const std::string& descr = h.descr;
  const std::uint64_t available = bytes.size() - h.data_offset;
  const std::uint64_t max_index = std::uint64_t(std::numeric_limits<Eigen::Index>::max());
  if (rows > max_index || cols > max_index / rows || rows * cols > available / item_size ||
      rows * cols * item_size != available) {
    if (rows <= max_index && cols <= max_index / rows && rows * cols <= available / item_size)
      throw_npy_error(source, available - rows * cols * item_size, " bytes follow the ", rows * cols,
                      " values of shape ", detail::npy_shape_text(h),
                      ": the file holds more than its header says (several arrays saved into one file?)");
    throw_npy_error(source, "truncated .npy file: shape ", detail::npy_shape_text(h), " of '", descr, "' needs ",
                    cols <= max_index / rows && rows * cols <= max_index / item_size
                        ? nldr::detail::concat(rows * cols * item_size, " bytes of data")
                        : std::string("more bytes than a file can hold"),
                    " but only ", available, " follow the header");
  }
  const bool rounded =
      decode_npy_rows<T>(bytes.data() + h.data_offset, layout, 0, rows, array.values, source, allow_non_finite);

  const char kind = layout.kind;
  const char* type_name = std::is_same_v<T, float> ? "float32" : "float64";
  const std::string dtype_name = nldr::detail::concat(kind == 'f' ? "float" : kind == 'i' ? "int" : "uint", 8 * item_size);
  array.notes.push_back(nldr::detail::concat(
      ".npy version ", h.major_version, ".", h.minor_version, ": ", dtype_name,
      item_size > 1 ? (layout.file_little ? " little-endian" : " big-endian") : "", ", ",
      h.fortran_order ? "Fortran" : "C", " order, shape ", detail::npy_shape_text(h),
      dtype_name == type_name ? "" : nldr::detail::concat(", converted to ", type_name)));
  if (h.shape.size() == 1) array.notes.push_back(nldr::detail::concat("a 1-D array: read as ", rows, " rows of one column"));
  if (rounded)
    array.notes.push_back(nldr::detail::concat("some integers need more than ", std::numeric_limits<T>::digits,
                                               " significant bits and were rounded to the nearest ", type_name));
  return array;
}

/// The header of a .npy file (format 1.0) of little-endian float32 (Scalar float) or float64 values
/// in C order, shape (rows, cols), byte for byte what numpy.save writes; the rows follow it.
template <Real Scalar>
std::string npy_header_bytes(Eigen::Index rows, Eigen::Index cols) {
  std::string dict = nldr::detail::concat("{'descr': '<f", sizeof(Scalar), "', 'fortran_order': False, 'shape': (",
                                          rows, ", ", cols, "), }");
  // The whole header (magic, version, 2 length bytes, dict, '\n') is padded with blanks to a
  // multiple of 64 bytes, as numpy pads it, so that the data is aligned.
  dict.append((64 - (10 + dict.size() + 1) % 64) % 64, ' ');
  dict += '\n';
  std::string out(npy_magic);
  out += '\x01';
  out += '\x00';
  out += char(dict.size() & 0xFF);
  out += char(dict.size() >> 8);
  out += dict;
  return out;
}

/// The rows of `values` as the data of a .npy file of npy_header_bytes: little-endian, C order.
template <class Derived>
  requires Real<typename Derived::Scalar>
void append_npy_rows(const Eigen::MatrixBase<Derived>& values, std::string& out) {
  using Scalar = typename Derived::Scalar;
  out.reserve(out.size() + std::size_t(values.size()) * sizeof(Scalar));
  using Bits = std::conditional_t<sizeof(Scalar) == 4, std::uint32_t, std::uint64_t>;
  for (Eigen::Index i = 0; i < values.rows(); ++i) {
    for (Eigen::Index j = 0; j < values.cols(); ++j) {
      const Bits bits = std::bit_cast<Bits>(static_cast<Scalar>(values(i, j)));
      for (std::size_t b = 0; b < sizeof(Bits); ++b) out += char((bits >> (8 * b)) & 0xFF);  // little-endian
    }
  }
}

/// The .npy file (format 1.0) holding `values` as little-endian float32 or float64 in C order,
/// shape (rows, cols), byte for byte what numpy.save writes for that array.
template <class Derived>
  requires Real<typename Derived::Scalar>
std::string npy_bytes(const Eigen::MatrixBase<Derived>& values) {
  std::string out = npy_header_bytes<typename Derived::Scalar>(values.rows(), values.cols());
  append_npy_rows(values, out);
  return out;
}

/// Writes `values` (float or double) as a .npy file (npy_bytes) through an AtomicFile.
/// Throws nldr::invalid_argument for an empty matrix, nldr::io_error if the file cannot be written.
template <class Derived>
  requires Real<typename Derived::Scalar>
void write_npy(const std::filesystem::path& path, const Eigen::MatrixBase<Derived>& values) {
  if (values.rows() == 0 || values.cols() == 0)
    throw_invalid("values", "values is empty (", values.rows(), " x ", values.cols(), "): nothing to write to ",
                  path.string());
  write_file_atomically(path, npy_bytes(values));
}

}  // namespace nldr::io
