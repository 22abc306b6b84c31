// neighborhood_curves (Q_NX, R_NX, LCMC, B_NX from neighbor lists) against the literal brute force of
// reference.hpp and against the rank engine's coranking_summary, which it must equal exactly.
#include "catch.hpp"
#include "data.hpp"
#include "reference.hpp"

#include <nldr/metrics/coranking.hpp>
#include <nldr/metrics/neighborhood_curves.hpp>
#include <nldr/neighbors/knn.hpp>

#include <cmath>
#include <string>

namespace metrics = nldr::metrics;

namespace {

// Ratios of integer counts: 1e-12 absolute, as in coranking.cpp.
constexpr double count_tol = 1e-12;

template <class T>
void check_curves(const nldr::Matrix<T>& X, const nldr::Matrix<T>& Y, int k_max) {
  const auto q = reference::coranking(reference::ranks(reference::squared_distances(X)),
                                      reference::ranks(reference::squared_distances(Y)));
  const auto curves = metrics::neighborhood_curves(X, Y, k_max);
  const auto summary = metrics::coranking_summary(X, Y, k_max);
  REQUIRE(curves.k_max() == k_max);
  REQUIRE(curves.n() == X.rows());
  for (int K = 1; K <= k_max; ++K) {
    INFO("k_max " << k_max << " K " << K);
    CHECK_THAT(curves.q_nx(K), WithinAbs(reference::q_nx(q, K), count_tol));
    CHECK_THAT(curves.r_nx(K), WithinAbs(reference::r_nx(q, K), count_tol));
    CHECK_THAT(curves.b_nx(K), WithinAbs(reference::b_nx(q, K), count_tol));
    // The same integer counts as the rank engine, so the same doubles.
    CHECK(curves.q_nx(K) == summary.q_nx(K));
    CHECK(curves.b_nx(K) == summary.b_nx(K));
  }
  CHECK(curves.auc_rnx() == summary.auc_rnx());
}

}  // namespace

TEMPLATE_TEST_CASE("neighborhood curves equal the brute force on random points", "[metrics][coranking]", float, double) {
  const auto X = test_data::uniform<TestType>(300, 3, 21);
  const auto Y = test_data::distorted(X, 0.05, 22);
  for (int k_max : {1, 5, 20, 298}) check_curves(X, Y, k_max);
  check_curves(X, test_data::uniform<TestType>(300, 2, 23), 12);
}

TEMPLATE_TEST_CASE("neighborhood curves rank ties and duplicates as the rank engine does", "[metrics][coranking]", float,
                   double) {
  // An integer grid (ties at every distance; from an interior point the 13th to 20th nearest are all
  // at sqrt(5), so the searched list ends inside a tie and falls back to the full row) and its
  // image folded onto fewer values, plus exact duplicates.
  nldr::Matrix<TestType> X(150, 2), Y(150, 2);
  for (int i = 0; i < 150; ++i) {
    X.row(i) << TestType(i % 10), TestType((i / 10) % 10);
    Y.row(i) << TestType((3 * i) % 7), TestType((i / 10) % 5);
  }
  X.row(120) = X.row(3);  // rows 100.. repeat the grid's first rows; two more duplicates
  X.row(121) = X.row(3);
  for (int k_max : {4, 13, 20, 40}) check_curves(X, Y, k_max);

  // Points near a circle of radius 5000 about the origin with integer coordinates: distinct squared
  // distances whose square roots round to the same float, where the two orders of the file
  // comment differ.
  nldr::Matrix<TestType> circle(61, 2), line(61, 1);
  circle.row(0) << 0, 0;
  for (int j = 1; j < 61; ++j) {
    const double angle = 0.0002 * j * j;
    circle.row(j) << TestType(std::round(5000 * std::cos(angle))), TestType(std::round(5000 * std::sin(angle)));
  }
  for (int j = 0; j < 61; ++j) line(j, 0) = TestType((7 * j) % 61);
  for (int k_max : {3, 10, 30}) check_curves(circle, line, k_max);
}

TEST_CASE("neighborhood curves reject bad input naming the parameter", "[metrics][coranking]") {
  const auto X = test_data::uniform<double>(50, 3, 1);
  const auto Y = test_data::uniform<double>(50, 2, 2);
  auto message = [](auto&& call) {
    try {
      call();
    } catch (const nldr::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK_THAT(message([&] { metrics::neighborhood_curves(X, Y, 0); }), ContainsSubstring("k_max"));
  CHECK_THAT(message([&] { metrics::neighborhood_curves(X, Y, 49); }), ContainsSubstring("k_max"));
  CHECK_THAT(message([&] { metrics::neighborhood_curves(X, test_data::uniform<double>(49, 2, 3), 5); }),
             ContainsSubstring("Y"));
  const auto short_lists = nldr::KNearest{.k = 5}(X);
  CHECK_THAT(message([&] { metrics::neighborhood_curves(X, short_lists, Y, 5); }), ContainsSubstring("x_neighbors"));
}
