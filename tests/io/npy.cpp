// parse_npy / npy_bytes against files numpy wrote (tests/data/npy, made by
// tests/data/make_io_files.py): every supported dtype x C/Fortran order x byte order, versions
// 2.0 and 3.0, and every refused kind. Expected values are the literal matrices of that script.
#include "catch.hpp"
#include "scratch_dir.hpp"

#include <nldr/core/random.hpp>
#include <nldr/io/npy.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace npy_test {

std::string fixture(const std::string& name) { return nldr_test::read_file(nldr_test::data_dir() / "npy" / name); }

/// The script's U = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 100]], then U - 6 for signed and
/// U / 8 - 0.375 for floating-point dtypes.
template <class T>
nldr::Matrix<T> expected(char kind) {
  nldr::Matrix<T> u(3, 4);
  u << 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 100;
  if (kind == 'i') return u.array() - T(6);
  if (kind == 'f') return u.array() / T(8) - T(0.375);
  return u;
}

template <class T>
std::string error_of(const std::string& bytes) {
  try {
    nldr::io::parse_npy<T>(bytes, "x.npy");
  } catch (const nldr::io_error& e) {
    return e.what();
  }
  FAIL("no nldr::io_error");
  return {};
}

}  // namespace npy_test

TEMPLATE_TEST_CASE("parse_npy reads every dtype, order and byte order numpy writes", "[io][npy]", float, double) {
  using T = TestType;
  int files = 0;
  for (const char kind : {'f', 'i', 'u'}) {
    for (const int size : {1, 2, 4, 8}) {
      if (kind == 'f' && size < 4) continue;
      for (const std::string& endian : size == 1 ? std::vector<std::string>{"1b"} : std::vector<std::string>{"le", "be"}) {
        for (const char* order : {"C", "F"}) {
          const std::string name = std::string(1, kind) + std::to_string(size) + "_" + order + "_" + endian + ".npy";
          INFO(name);
          const auto array = nldr::io::parse_npy<T>(npy_test::fixture(name), name);
          CHECK(array.values == npy_test::expected<T>(kind));
          CHECK(array.header.fortran_order == (order[0] == 'F'));
          REQUIRE(!array.notes.empty());
          CHECK_THAT(array.notes[0], ContainsSubstring(order[0] == 'F' ? "Fortran order" : "C order"));
          if (size > 1) CHECK_THAT(array.notes[0], ContainsSubstring(endian == "le" ? "little-endian" : "big-endian"));
          ++files;
        }
      }
    }
  }
  CHECK(files == 36);
}

TEST_CASE("parse_npy reads 1-D arrays, format versions 2.0 and 3.0, and rounds big integers", "[io][npy]") {
  const auto column = nldr::io::parse_npy<double>(npy_test::fixture("f8_1d.npy"));
  REQUIRE(column.values.cols() == 1);
  CHECK(column.values.col(0) == npy_test::expected<double>('f').col(0));
  CHECK_THAT(column.notes.back(), ContainsSubstring("1-D array: read as 3 rows of one column"));
  for (const char* name : {"f8_v2.npy", "f8_v3.npy"}) {
    const auto array = nldr::io::parse_npy<double>(npy_test::fixture(name));
    CHECK(array.header.major_version == (name[4] == '2' ? 2 : 3));
    CHECK(array.values == npy_test::expected<double>('f'));
  }
  // [[2^53 + 1, -2^62], [3, 4]] as int64: 2^53 + 1 has no double, -2^62 has one.
  const auto big = nldr::io::parse_npy<double>(npy_test::fixture("i8_big.npy"));
  CHECK(big.values(0, 0) == 9007199254740992.0);
  CHECK(big.values(0, 1) == -4611686018427387904.0);
  CHECK_THAT(big.notes.back(), ContainsSubstring("rounded to the nearest float64"));
  CHECK(nldr::io::parse_npy<double>(npy_test::fixture("i4_C_le.npy")).notes.size() == 1);  // exact: no rounding note
}

TEST_CASE("parse_npy refuses what it cannot read, naming the numpy call that converts it", "[io][npy]") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"bad_object.npy", "an object array"},
      {"bad_complex.npy", "complex values: save the real part (X.real)"},
      {"bad_structured.npy", "a structured dtype"},
      {"bad_3d.npy", "a 3-D array of shape (2, 3, 4): save a 2-D array"},
      {"bad_float16.npy", "floating-point dtype '<f2' is not supported"},
      {"bad_bool.npy", "booleans: convert with X.astype(np.float64)"},
      {"bad_text.npy", "text (a string array)"},
      {"bad_scalar.npy", "a 0-dimensional array"},
      {"bad_empty.npy", "no data: the array has shape (0, 3)"},
      {"bad_nan.npy", "value (row 1, column 0) is not finite (nan)"},
      {"bad_truncated.npy", "truncated .npy file: shape (3, 4) of '<f8' needs 96 bytes of data but only 91 follow"},
      {"bad_two_arrays.npy", "160 bytes follow the 4 values of shape (2, 2)"},
  };
  for (const auto& [name, message] : cases) {
    INFO(name);
    CHECK_THAT(npy_test::error_of<double>(npy_test::fixture(name)), ContainsSubstring("x.npy: " ) && ContainsSubstring(message));
  }
  // NaN is accepted on request.
  CHECK(std::isnan(nldr::io::parse_npy<double>(npy_test::fixture("bad_nan.npy"), "x", true).values(1, 0)));
  // float64 beyond float's range.
  nldr::Matrix<double> huge(1, 1);
  huge << 1e300;
  CHECK_THAT(npy_test::error_of<float>(nldr::io::npy_bytes(huge)), ContainsSubstring("outside the range of float"));
}

TEST_CASE("parse_npy refuses damaged headers", "[io][npy]") {
  const std::string good = npy_test::fixture("f8_C_le.npy");
  const auto with_dict = [&](const std::string& dict) {
    std::string bytes = "\x93NUMPY\x01";
    bytes += '\0';
    bytes += char(dict.size() & 0xFF);
    bytes += char(dict.size() >> 8);
    return bytes + dict;
  };
  using npy_test::error_of;
  CHECK_THAT(error_of<double>("a,b\n1,2\n"), ContainsSubstring("not a .npy file"));
  CHECK_THAT(error_of<double>("\x93NUMPY"), ContainsSubstring("truncated .npy file"));
  CHECK_THAT(error_of<double>(std::string("\x93NUMPY\x04\x00\x10\x00", 10)), ContainsSubstring("version 4.0 is not supported"));
  CHECK_THAT(error_of<double>(good.substr(0, 60)), ContainsSubstring("the header says it is 118 bytes long but only 50 follow"));
  CHECK_THAT(error_of<double>(with_dict("{'descr': '<f8', 'fortran_order': False, 'shape': (1, 1), }")),
             ContainsSubstring("does not end with a newline"));
  CHECK_THAT(error_of<double>(with_dict("{'descr': '<f8', 'shape': (1, 1), }\n")), ContainsSubstring("lacks 'fortran_order'"));
  CHECK_THAT(error_of<double>(with_dict("{'descr': '<f8', 'fortran_order': Maybe, 'shape': (1,), }\n")),
             ContainsSubstring("fortran_order must be True or False"));
  CHECK_THAT(error_of<double>(with_dict("{'descr': '<f8', 'fortran_order': False, 'shape': (1, -1), }\n")),
             ContainsSubstring("tuple of non-negative integers"));
  CHECK_THAT(error_of<double>(with_dict("{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999,), }\n")),
             ContainsSubstring("overflows 64 bits"));
  CHECK_THAT(error_of<double>(with_dict("{'descr': 'f8', 'fortran_order': False, 'shape': (1,), }\n")),
             ContainsSubstring("does not start with a byte order"));
  CHECK_THAT(error_of<double>(with_dict("{'descr': '<f8', 'fortran_order': False, 'shape': (1,), 'x': 1}\n")),
             ContainsSubstring("unknown key 'x'"));
  // A shape whose element count overflows is "truncated", not a crash or a huge allocation.
  CHECK_THAT(error_of<double>(with_dict("{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296), }\n")),
             ContainsSubstring("more bytes than a file can hold"));
}

TEMPLATE_TEST_CASE("npy_bytes writes what numpy.save writes, and reads back bit-identical", "[io][npy]", float, double) {
  using T = TestType;
  // Byte for byte numpy's own file of the same float32/float64 C-order matrix.
  const std::string numpy_file = npy_test::fixture(sizeof(T) == 8 ? "f8_C_le.npy" : "f4_C_le.npy");
  CHECK(nldr::io::npy_bytes(npy_test::expected<T>('f')) == numpy_file);

  nldr::Random rng(5);
  nldr::Matrix<T> X(7, 3);
  for (Eigen::Index i = 0; i < X.size(); ++i) X.data()[i] = T(rng.normal() * std::pow(10.0, rng.uniform(-30, 30)));
  X(0, 0) = std::numeric_limits<T>::denorm_min();
  X(0, 1) = T(-0.0);
  nldr_test::ScratchDir dir;
  nldr::io::write_npy(dir / "x.npy", X.transpose().transpose());
  const auto back = nldr::io::parse_npy<T>(nldr_test::read_file(dir / "x.npy"));
  CHECK(back.values == X);
  CHECK(std::signbit(back.values(0, 1)));
  CHECK_THROWS_AS(nldr::io::write_npy(dir / "e.npy", nldr::Matrix<T>(0, 2)), nldr::invalid_argument);
}
