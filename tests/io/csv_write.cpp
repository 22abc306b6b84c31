// write_csv / CsvWriter: exact round trip through read_csv, quoting, and refused input.
#include "catch.hpp"
#include "scratch_dir.hpp"

#include <nldr/core/random.hpp>
#include <nldr/io/csv.hpp>

#include <bit>
#include <cstdint>
#include <limits>
#include <string>

namespace {

template <class T>
auto bits(T value) {
  if constexpr (sizeof(T) == 4)
    return std::bit_cast<std::uint32_t>(value);
  else
    return std::bit_cast<std::uint64_t>(value);
}

}  // namespace

TEMPLATE_TEST_CASE("write_csv then read_csv gives bit-identical values", "[io][csv]", float, double) {
  using T = TestType;
  nldr_test::ScratchDir dir;
  // Values over many magnitudes and the hard cases: subnormal, extremes, signed zero.
  nldr::Random rng(42);
  nldr::Matrix<T> X(60, 4);
  for (Eigen::Index i = 0; i < X.rows(); ++i)
    for (Eigen::Index j = 0; j < X.cols(); ++j)
      X(i, j) = static_cast<T>(rng.normal() * std::pow(10.0, rng.uniform(-36, 36)));  // finite in float
  X(0, 0) = std::numeric_limits<T>::denorm_min();
  X(0, 1) = std::numeric_limits<T>::max();
  X(0, 2) = std::numeric_limits<T>::lowest();
  X(0, 3) = T(-0.0);
  X(1, 0) = std::numeric_limits<T>::min();
  X(1, 1) = std::nextafter(T(1), T(2));
  X(1, 2) = T(0.1);

  const auto path = dir / "x.csv";
  nldr::io::write_csv(path, X, {"a", "b", "c", "d"});
  const auto back = nldr::io::read_csv<T>(path);
  CHECK(back.header == std::vector<std::string>{"a", "b", "c", "d"});
  REQUIRE(back.values.rows() == X.rows());
  REQUIRE(back.values.cols() == X.cols());
  for (Eigen::Index i = 0; i < X.rows(); ++i)
    for (Eigen::Index j = 0; j < X.cols(); ++j) REQUIRE(bits(back.values(i, j)) == bits(X(i, j)));
  // Shortest round-trip text: 0.1 is written as "0.1", not "0.10000000000000001".
  CHECK_THAT(nldr_test::read_file(path), ContainsSubstring(",0.1,"));
}

TEST_CASE("write_csv accepts any Eigen expression and a fixed precision", "[io][csv]") {
  nldr_test::ScratchDir dir;
  Eigen::MatrixXd column_major(2, 2);  // not nldr's row-major Matrix
  column_major << 1.0 / 3.0, 2, 3, 4;
  nldr::io::write_csv(dir / "a.csv", column_major.transpose(), {}, 4);
  CHECK(nldr_test::read_file(dir / "a.csv") == "0.3333,3\n2,4\n");
  nldr::io::write_csv(dir / "b.csv", nldr::Matrix<float>::Constant(1, 2, 0.1f));
  CHECK(nldr_test::read_file(dir / "b.csv") == "0.1,0.1\n");
}

TEST_CASE("CsvWriter writes mixed rows and quotes text that needs it", "[io][csv]") {
  nldr_test::ScratchDir dir;
  const auto path = dir / "edges.csv";
  {
    nldr::io::CsvWriter edges(path, {"i", "j", "distance"});
    edges.write_row(0, 1, 0.5);
    edges.write_row(std::int64_t{1}, 2u, 0.25f);
    edges.cell("a,b").cell("say \"hi\"").cell(" pad").end_row();
    edges.write_row("", "12", "# x");
    CHECK(edges.rows() == 5);
    edges.commit();
  }
  CHECK(nldr_test::read_file(path) ==
        "i,j,distance\n0,1,0.5\n1,2,0.25\n\"a,b\",\"say \"\"hi\"\"\",\" pad\"\n\"\",\"12\",\"# x\"\n");

  nldr::io::CsvWriter numbers(dir / "n.csv", {"1", "nan"});  // number-like names stay a header
  numbers.write_row(1, 2);
  numbers.commit();
  const auto table = nldr::io::read_csv<double>(dir / "n.csv");
  CHECK(table.header == std::vector<std::string>{"1", "nan"});
  CHECK(table.values.rows() == 1);
}

TEST_CASE("CSV writers refuse bad input and leave no file", "[io][csv]") {
  nldr_test::ScratchDir dir;
  const auto path = dir / "out.csv";
  CHECK_THROWS_AS(nldr::io::write_csv(path, nldr::Matrix<double>(0, 3)), nldr::invalid_argument);
  CHECK_THROWS_WITH(nldr::io::write_csv(path, nldr::Matrix<double>::Zero(2, 3), {"a", "b"}),
                    ContainsSubstring("header has 2 names but values has 3 columns"));
  CHECK_THROWS_AS(nldr::io::write_csv(path, nldr::Matrix<double>::Zero(2, 3), {}, 61), nldr::invalid_argument);
  {
    nldr::io::CsvWriter writer(path, {"i", "j"});
    CHECK_THROWS_WITH(writer.write_row(1, 2, 3), ContainsSubstring("has 3 cells but the first row has 2"));
    CHECK_THROWS_WITH(nldr::io::CsvWriter(dir / "x.csv").write_row("two\nlines"), ContainsSubstring("line break"));
  }  // never committed
  CHECK(dir.listing().empty());
}
