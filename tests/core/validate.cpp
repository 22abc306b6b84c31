#include <nldr/core/validate.hpp>

#include "catch.hpp"

#include <limits>

using nldr::Matrix;

TEST_CASE("validate_points rejects empty, too small and non-finite input", "[core][validate]") {
  Matrix<double> empty(0, 3);
  CHECK_THROWS_WITH(nldr::validate_points(empty), ContainsSubstring("X is empty"));
  Matrix<double> two = Matrix<double>::Random(2, 3);
  CHECK_THROWS_WITH(nldr::validate_points(two, "X", 5), ContainsSubstring("N = 2"));
  Matrix<float> bad = Matrix<float>::Zero(4, 2);
  bad(2, 1) = std::numeric_limits<float>::quiet_NaN();
  CHECK_THROWS_WITH(nldr::validate_points(bad), ContainsSubstring("X(2, 1)"));
  bad(2, 1) = std::numeric_limits<float>::infinity();
  CHECK_THROWS_AS(nldr::validate_points(bad), nldr::invalid_argument);
  Matrix<double> good = Matrix<double>::Random(5, 2);
  CHECK_NOTHROW(nldr::validate_points(good, "X", 5));
}

TEST_CASE("validate_neighbor_count names k, its value and N", "[core][validate]") {
  CHECK_THROWS_WITH(nldr::validate_neighbor_count(40, 30), ContainsSubstring("k = 40 must be < N = 30"));
  CHECK_THROWS_WITH(nldr::validate_neighbor_count(0, 30), ContainsSubstring("k = 0 must be >= 1"));
  CHECK_NOTHROW(nldr::validate_neighbor_count(29, 30));
  try {
    nldr::validate_neighbor_count(30, 30);
  } catch (const nldr::invalid_argument& e) {
    CHECK(e.parameter() == "k");
  }
}

TEST_CASE("validate_same_rows and validate_positive", "[core][validate]") {
  CHECK_THROWS_WITH(nldr::validate_same_rows(10, 9, "X", "Y"), ContainsSubstring("Y has 9"));
  CHECK_THROWS_AS(nldr::validate_positive(0.0, "radius"), nldr::invalid_argument);
  CHECK_THROWS_AS(nldr::validate_positive(-1.0, "radius"), nldr::invalid_argument);
  CHECK_THROWS_AS(nldr::validate_positive(std::numeric_limits<double>::quiet_NaN(), "radius"), nldr::invalid_argument);
  CHECK_NOTHROW(nldr::validate_positive(0.5, "radius"));
}
