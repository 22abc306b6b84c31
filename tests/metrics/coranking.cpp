// Co-ranking criteria, trustworthiness/continuity, MRRE and Konig's measure against the literal
// brute force of reference.hpp (explicit rank matrices, co-ranking matrix and neighborhood sets).
#include "catch.hpp"
#include "data.hpp"
#include "reference.hpp"

#include <nldr/core/parallel.hpp>
#include <nldr/metrics/coranking.hpp>
#include <nldr/metrics/konig.hpp>
#include <nldr/metrics/mrre.hpp>
#include <nldr/metrics/trustworthiness.hpp>

#include <cmath>
#include <vector>

namespace metrics = nldr::metrics;
using metrics::detail::RankMode;

// Every value is a ratio of integer counts (or, for MRRE, a sum of at most N^2 rationals in double),
// so the engine and the reference agree to rounding: 1e-12 absolute for every scalar type (the
// scalar type only changes the distances, and both sides rank the same computed distances).
constexpr double count_tol = 1e-12;

namespace {

template <class T>
void check_against_reference(const nldr::Matrix<T>& X, const nldr::Matrix<T>& Y) {
  const auto rho = reference::ranks(reference::squared_distances(X));
  const auto r = reference::ranks(reference::squared_distances(Y));
  const auto q = reference::coranking(rho, r);
  const int n = int(X.rows());

  // The explicit matrix.
  const auto matrix = metrics::coranking_matrix(X, Y);
  REQUIRE(matrix.rows() == n - 1);
  for (int k = 1; k < n; ++k)
    for (int l = 1; l < n; ++l) REQUIRE(matrix(k - 1, l - 1) == q[std::size_t(k)][std::size_t(l)]);

  // The whole curve, by the full sort and by the bounded selection (every K <= k_cap).
  for (RankMode mode : {RankMode::full, RankMode::bounded}) {
    for (int k_cap : {n - 2, 1, 3, n / 3}) {
      const auto s = metrics::coranking_summary(X, Y, k_cap, mode);
      REQUIRE(s.k_max() == k_cap);
      REQUIRE(s.n() == n);
      const auto q_curve = s.q_nx_curve();
      REQUIRE(q_curve.size() == std::size_t(k_cap));
      for (int K = 1; K <= k_cap; ++K) {
        INFO("mode " << int(mode) << " k_cap " << k_cap << " K " << K);
        CHECK_THAT(s.q_nx(K), WithinAbs(reference::q_nx(q, K), count_tol));
        CHECK(q_curve[std::size_t(K - 1)] == s.q_nx(K));
        CHECK_THAT(s.r_nx(K), WithinAbs(reference::r_nx(q, K), count_tol));
        CHECK_THAT(s.lcmc(K), WithinAbs(reference::q_nx(q, K) - K / (n - 1.0), count_tol));
        CHECK_THAT(s.b_nx(K), WithinAbs(reference::b_nx(q, K), count_tol));
        CHECK_THAT(s.trustworthiness(K), WithinAbs(reference::trustworthiness(rho, r, K), count_tol));
        CHECK_THAT(s.continuity(K), WithinAbs(reference::trustworthiness(r, rho, K), count_tol));
      }
    }
  }
  // AUC over the whole curve, from the reference R_NX.
  double num = 0, den = 0;
  for (int K = 1; K <= n - 2; ++K) num += reference::r_nx(q, K) / K, den += 1.0 / K;
  CHECK_THAT(metrics::coranking_summary(X, Y).auc_rnx(), WithinAbs(num / den, count_tol));

  for (int K : {1, 2, 5, n / 2, n - 2}) {
    INFO("K " << K);
    CHECK_THAT(metrics::trustworthiness(X, Y, K), WithinAbs(reference::trustworthiness(rho, r, K), count_tol));
    CHECK_THAT(metrics::continuity(X, Y, K), WithinAbs(reference::trustworthiness(r, rho, K), count_tol));
    for (bool same_space : {true, false}) {
      INFO("same_space " << same_space);
      const auto [mx, my] = reference::mrre(rho, r, K, same_space);
      const auto e = same_space ? metrics::mrre(X, Y, K)
                                : metrics::mrre(X, Y, K, metrics::MrreDenominator::other_space);
      CHECK_THAT(e.x, WithinAbs(mx, count_tol));
      CHECK_THAT(e.y, WithinAbs(my, count_tol));
    }
  }
  for (auto [k1, k2] : {std::pair{1, 2}, std::pair{4, 8}, std::pair{5, 5}, std::pair{n - 2, n - 1}}) {
    INFO("k1 " << k1 << " k2 " << k2);
    CHECK_THAT(metrics::konig(X, Y, k1, k2), WithinAbs(reference::konig(rho, r, k1, k2), count_tol));
  }
}

}  // namespace

TEMPLATE_TEST_CASE("rank measures equal the literal brute force on random inputs", "[metrics][coranking]", float,
                   double) {
  const auto X = test_data::uniform<TestType>(37, 4, 11);
  SECTION("a distorted embedding") { check_against_reference(X, test_data::distorted(X, 0.05, 12)); }
  SECTION("an unrelated embedding") { check_against_reference(X, test_data::uniform<TestType>(37, 2, 13)); }
}

TEMPLATE_TEST_CASE("ties and duplicate points are ranked by the smaller index", "[metrics][coranking]", float,
                   double) {
  // Integer grid points: many equal distances; and exact duplicates (rows 3 = 0, 7 = 5).
  nldr::Matrix<TestType> X(12, 2), Y(12, 1);
  for (int i = 0; i < 12; ++i) {
    X(i, 0) = TestType(i % 4);
    X(i, 1) = TestType(i / 4);
    Y(i, 0) = TestType((5 * i) % 7);
  }
  X.row(3) = X.row(0);
  X.row(7) = X.row(5);
  check_against_reference(X, Y);
  // Two groups of 6 identical points: from any point, 5 others at distance 0, so the bounded
  // path counts ranks among equal (zero) distances only.
  nldr::Matrix<TestType> twins(12, 2);
  for (int i = 0; i < 12; ++i) twins.row(i) << TestType(i % 2), TestType(0.5);
  check_against_reference(twins, Y);

  // Hand-computed: X = 0, 0, 1 and Y = 1, 0, 0 on a line. Ranks (ties by the smaller index):
  // from 0: rho(1)=1 (distance 0), rho(2)=2; r(1)=1, r(2)=2 (equal distances 1: index 1 first).
  // from 1: rho(0)=1, rho(2)=2; r(2)=1 (distance 0), r(0)=2.
  // from 2: rho(0)=1, rho(1)=2 (equal distances 1); r(1)=1 (distance 0), r(0)=2.
  // Q(rho, r): (1,1) from 0->1, (2,2) from 0->2, (1,2) from 1->0, (2,1) from 1->2, (1,2) from 2->0,
  // (2,1) from 2->1.
  nldr::Matrix<TestType> a(3, 1), b(3, 1);
  a << 0, 0, 1;
  b << 1, 0, 0;
  const auto q = metrics::coranking_matrix(a, b);
  CHECK(q(0, 0) == 1);
  CHECK(q(1, 1) == 1);
  CHECK(q(0, 1) == 2);
  CHECK(q(1, 0) == 2);
}

TEMPLATE_TEST_CASE("the identity embedding gets the ideal value of every rank measure", "[metrics][coranking]",
                   float, double) {
  const auto X = test_data::uniform<TestType>(50, 3, 21);
  const int n = 50;
  const auto s = metrics::coranking_summary(X, X);
  for (int K = 1; K <= n - 2; ++K) {
    CHECK(s.q_nx(K) == 1.0);
    CHECK_THAT(s.r_nx(K), WithinAbs(1.0, count_tol));
    CHECK_THAT(s.lcmc(K), WithinAbs(1.0 - K / (n - 1.0), count_tol));
    CHECK(s.b_nx(K) == 0.0);
    CHECK(s.trustworthiness(K) == 1.0);
    CHECK(s.continuity(K) == 1.0);
  }
  CHECK_THAT(s.auc_rnx(), WithinAbs(1.0, count_tol));
  const auto e = metrics::mrre(X, X, 7);
  CHECK(e.x == 0.0);
  CHECK(e.y == 0.0);
  CHECK(metrics::konig(X, X, 5, 10) == 1.0);
  // Rotating and translating does not change any distance rank: X in the plane, rotated by 30 deg.
  nldr::Matrix<double> P = test_data::uniform<double>(40, 2, 22), R(40, 2);
  const double c = std::cos(0.5235987755982988), sn = std::sin(0.5235987755982988);
  for (int i = 0; i < 40; ++i) {
    R(i, 0) = c * P(i, 0) - sn * P(i, 1) + 3;
    R(i, 1) = sn * P(i, 0) + c * P(i, 1) - 1;
  }
  CHECK_THAT(metrics::coranking_summary(P, R, 10).r_nx(10), WithinAbs(1.0, count_tol));
}

TEMPLATE_TEST_CASE("a random embedding has R_NX and B_NX near 0", "[metrics][coranking]", float, double) {
  // Independent uniform X (N x 3) and Y (N x 2). For K = 10, N = 400, the number of shared
  // neighbors is about Binomial(N K, K/(N-1)), standard deviation ~ sqrt(100 N/ (N-1) ... ) ~ 10
  // pairs per ... which puts the standard deviation of R_NX(10) near 0.003; 0.03 is ten of them.
  const auto X = test_data::uniform<TestType>(400, 3, 31);
  const auto Y = test_data::uniform<TestType>(400, 2, 32);
  const auto s = metrics::coranking_summary(X, Y);
  for (int K : {5, 10, 50, 200}) {
    INFO("K " << K);
    CHECK(std::abs(s.r_nx(K)) < 0.03);
    CHECK(std::abs(s.b_nx(K)) < 0.03);
    CHECK(std::abs(s.lcmc(K)) < 0.03);
  }
  CHECK(std::abs(s.auc_rnx()) < 0.03);
  // Trustworthiness of a random map: about 0.5 (Venna & Kaski 2006).
  CHECK(std::abs(s.trustworthiness(10) - 0.5) < 0.05);
}

TEST_CASE("swapping X and Y transposes Q: B_NX changes sign, T and C trade places", "[metrics][coranking]") {
  // B_NX counts r < rho as intrusions (docs/algorithms.md sign; R's coRanking uses the opposite sign), so
  // exchanging the roles of the spaces must negate it exactly (integer counts).
  const auto X = test_data::uniform<double>(80, 3, 41);
  const auto Y = test_data::distorted(X, 0.1, 42);
  const auto xy = metrics::coranking_summary(X, Y), yx = metrics::coranking_summary(Y, X);
  bool some_nonzero = false;
  for (int K = 1; K <= 78; ++K) {
    CHECK(xy.b_nx(K) == -yx.b_nx(K));
    CHECK(xy.trustworthiness(K) == yx.continuity(K));
    CHECK(xy.q_nx(K) == yx.q_nx(K));
    some_nonzero = some_nonzero || xy.b_nx(K) != 0;
  }
  CHECK(some_nonzero);
}

TEST_CASE("MRRE: swapping X and Y swaps the two directions", "[metrics][mrre]") {
  // MRRE_X sums |rho - r| / (rho, or r) over rho <= K; with the spaces exchanged that is MRRE_Y's sum of
  // |r' - rho'| / (r', or rho') over r' <= K. Same per-point terms in the same order: exactly equal.
  const auto X = test_data::uniform<double>(60, 3, 45);
  const auto Y = test_data::distorted(X, 0.1, 46);
  for (auto denominator : {metrics::MrreDenominator::same_space, metrics::MrreDenominator::other_space}) {
    const auto xy = metrics::mrre(X, Y, 7, denominator), yx = metrics::mrre(Y, X, 7, denominator);
    CHECK(xy.x == yx.y);
    CHECK(xy.y == yx.x);
    CHECK(xy.x != xy.y);
    CHECK(xy.x > 0);
  }
}

TEST_CASE("MRRE conventions by hand on four points", "[metrics][mrre]") {
  // X = 0, 1, 3, 7 and Y = 0, 3, 1, 7 on a line (points 1 and 2 exchanged), K = 1, N = 4,
  // H_1 = 4 |4 - 2| / 1 = 8. Nearest in X: 0->1, 1->0, 2->1, 3->2, each of Y-rank 2; nearest in Y:
  // 0->2, 1->2, 2->0, 3->1, each of X-rank 2. Every error |rho - r| is 1.
  // same space: MRRE_X = 4 (1/1) / 8 = 0.5 and MRRE_Y = 0.5; other space: 4 (1/2) / 8 = 0.25 each.
  nldr::Matrix<double> X(4, 1), Y(4, 1);
  X << 0, 1, 3, 7;
  Y << 0, 3, 1, 7;
  const auto same = metrics::mrre(X, Y, 1);
  CHECK_THAT(same.x, WithinAbs(0.5, 1e-15));
  CHECK_THAT(same.y, WithinAbs(0.5, 1e-15));
  const auto other = metrics::mrre(X, Y, 1, metrics::MrreDenominator::other_space);
  CHECK_THAT(other.x, WithinAbs(0.25, 1e-15));
  CHECK_THAT(other.y, WithinAbs(0.25, 1e-15));
}

TEST_CASE("results do not depend on the number of threads", "[metrics][coranking]") {
  const auto X = test_data::uniform<double>(120, 5, 51);
  const auto Y = test_data::distorted(X, 0.1, 52);
  const int saved = nldr::max_threads();
  nldr::set_threads(1);
  const auto s1 = metrics::coranking_summary(X, Y);
  const auto e1 = metrics::mrre(X, Y, 9);
  nldr::set_threads(2);
  const auto s2 = metrics::coranking_summary(X, Y);
  const auto e2 = metrics::mrre(X, Y, 9);
  nldr::set_threads(saved);
  CHECK(s1.r_nx_curve() == s2.r_nx_curve());
  CHECK(s1.trustworthiness(9) == s2.trustworthiness(9));
  CHECK(e1.x == e2.x);
  CHECK(e1.y == e2.y);
}

TEMPLATE_TEST_CASE("precomputed distance matrices give the same ranks as the points", "[metrics][coranking]", float,
                   double) {
  const auto X = test_data::uniform<TestType>(30, 3, 61);
  const auto Y = test_data::distorted(X, 0.05, 62);
  nldr::Matrix<TestType> DX(30, 30), DY(30, 30);
  for (int i = 0; i < 30; ++i)
    for (int j = 0; j < 30; ++j) {
      DX(i, j) = (X.row(i) - X.row(j)).norm();
      DY(i, j) = (Y.row(i) - Y.row(j)).norm();
    }
  // Ranks of norms and of squared distances agree except for rounding ties, which random data lacks.
  const auto a = metrics::coranking_summary(X, Y);
  const auto b = metrics::coranking_summary(metrics::precomputed(DX), metrics::precomputed(DY));
  CHECK(a.r_nx_curve() == b.r_nx_curve());
  CHECK(metrics::trustworthiness(X, metrics::precomputed(DY), 5) == a.trustworthiness(5));
}

TEST_CASE("rank measures reject bad input with a message naming the parameter", "[metrics][coranking]") {
  const auto X = test_data::uniform<double>(10, 3, 71);
  const auto Y = test_data::uniform<double>(10, 2, 72);
  nldr::Matrix<double> bad = X;
  bad(4, 1) = std::nan("");
  CHECK_THROWS_WITH(metrics::trustworthiness(bad, Y, 3), ContainsSubstring("X(4, 1)"));
  CHECK_THROWS_AS(metrics::trustworthiness(X, test_data::uniform<double>(9, 2, 1), 3), nldr::invalid_argument);
  CHECK_THROWS_WITH(metrics::trustworthiness(X, Y, 0), ContainsSubstring("k = 0"));
  CHECK_THROWS_WITH(metrics::trustworthiness(X, Y, 9), ContainsSubstring("N - 2 = 8"));
  CHECK_THROWS_WITH(metrics::coranking_summary(X, Y, 9), ContainsSubstring("k_max"));
  CHECK_THROWS_WITH(metrics::mrre(X, Y, 9), ContainsSubstring("k = 9"));
  CHECK_THROWS_WITH(metrics::konig(X, Y, 4, 3), ContainsSubstring("k2 = 3"));
  CHECK_THROWS_WITH(metrics::konig(X, Y, 4, 10), ContainsSubstring("N - 1 = 9"));
  CHECK_THROWS_WITH(metrics::coranking_summary(X.topRows(2), Y.topRows(2)), ContainsSubstring("N >= 3"));
  nldr::Matrix<double> D = nldr::Matrix<double>::Zero(10, 10);
  D(1, 2) = -1;
  CHECK_THROWS_WITH(metrics::trustworthiness(metrics::precomputed(D), Y, 3), ContainsSubstring("non-negative"));
  D(1, 2) = 0;
  D(3, 3) = 1;
  CHECK_THROWS_WITH(metrics::trustworthiness(metrics::precomputed(D), Y, 3), ContainsSubstring("must be 0"));
  CHECK_THROWS_WITH(metrics::trustworthiness(metrics::precomputed(nldr::Matrix<double>::Zero(10, 9)), Y, 3),
                    ContainsSubstring("square"));
  CHECK_THROWS_WITH(metrics::coranking_matrix(X, Y, 16), ContainsSubstring("coranking_summary"));
  const auto s = metrics::coranking_summary(X, Y, 4);
  CHECK_THROWS_WITH(s.r_nx(5), ContainsSubstring("K = 5 is outside 1..k_max = 4"));
  CHECK_THROWS_AS(s.trustworthiness(0), nldr::invalid_argument);
}
