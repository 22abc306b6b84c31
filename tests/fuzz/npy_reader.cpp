// libFuzzer target: nldr::io::parse_npy on arbitrary bytes (docs/errors.md, "Fuzzing"). The input
// is the .npy file itself, so every seed and every saved crash is a file numpy could load (or not).
// Each input is parsed as float and as double, with NaN/Inf refused and allowed.
// Contract: nldr::io_error, or a matrix whose shape is the header's ((N, D) -> N x D, (N,) ->
// N x 1, no zero), whose data is exactly N * D items after the header, finite unless allowed;
// float and double read the same shape and the same values up to one float rounding; and the
// double matrix, written by npy_bytes, reads back bit-identical.
#include "fuzz_check.hpp"

#include <nldr/io/npy.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace {

template <class T>
std::optional<nldr::io::NpyArray<T>> parse(std::string_view bytes, bool allow_non_finite) {
  try {
    return nldr::io::parse_npy<T>(bytes, "fuzz.npy", allow_non_finite);
  } catch (const nldr::io_error&) {
    return std::nullopt;
  }
}

/// The item size of a dtype string the reader accepted ("<f8" -> 8).
std::size_t item_size(const std::string& descr) { return std::size_t(std::stoul(descr.substr(2))); }

template <class T>
void check_array(const nldr::io::NpyArray<T>& array, std::string_view bytes, bool allow_non_finite) {
  const auto& h = array.header;
  NLDR_FUZZ_REQUIRE(h.shape.size() == 1 || h.shape.size() == 2);
  const std::uint64_t rows = h.shape[0], cols = h.shape.size() == 2 ? h.shape[1] : 1;
  NLDR_FUZZ_REQUIRE(rows >= 1 && cols >= 1);
  NLDR_FUZZ_REQUIRE(std::uint64_t(array.values.rows()) == rows && std::uint64_t(array.values.cols()) == cols);
  NLDR_FUZZ_REQUIRE(h.data_offset + rows * cols * item_size(h.descr) == bytes.size());
  if (!allow_non_finite) NLDR_FUZZ_REQUIRE(array.values.allFinite());
}

bool same_number(float as_float, double as_double) {
  const float rounded = static_cast<float>(as_double);
  if (std::isnan(as_float) || std::isnan(rounded)) return std::isnan(as_float) && std::isnan(rounded);
  return as_float == rounded || std::nextafter(as_float, rounded) == rounded;
}

void check_one(std::string_view bytes, bool allow_non_finite) {
  const auto as_float = parse<float>(bytes, allow_non_finite);
  const auto as_double = parse<double>(bytes, allow_non_finite);
  if (as_double) {
    check_array(*as_double, bytes, allow_non_finite);
    const auto back = nldr::io::parse_npy<double>(nldr::io::npy_bytes(as_double->values), "back.npy", true);
    for (Eigen::Index i = 0; i < back.values.size(); ++i) {
      const double a = back.values.data()[i], b = as_double->values.data()[i];
      NLDR_FUZZ_REQUIRE(a == b || (std::isnan(a) && std::isnan(b)));
    }
  }
  if (!as_float) return;
  check_array(*as_float, bytes, allow_non_finite);
  NLDR_FUZZ_REQUIRE(as_double.has_value());
  NLDR_FUZZ_REQUIRE(as_float->values.rows() == as_double->values.rows());
  NLDR_FUZZ_REQUIRE(as_float->values.cols() == as_double->values.cols());
  for (Eigen::Index i = 0; i < as_float->values.size(); ++i)
    NLDR_FUZZ_REQUIRE(same_number(as_float->values.data()[i], as_double->values.data()[i]));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  nldr_fuzz::expect_no_foreign_exception([&] {
    for (const bool allow_non_finite : {false, true}) check_one(bytes, allow_non_finite);
  });
  return 0;
}
