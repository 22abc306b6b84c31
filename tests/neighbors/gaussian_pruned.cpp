#include <nldr/neighbors/gaussian_pruned.hpp>

#include "catch.hpp"
#include "pruning_fixtures.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <set>

using test_pruning::BruteCandidates;
using test_pruning::Pair;

namespace {

template <class T>
double dist(const nldr::Matrix<T>& X, int a, int b) {
  double s = 0;
  for (int c = 0; c < int(X.cols()); ++c) s += (double(X(a, c)) - double(X(b, c))) * (double(X(a, c)) - double(X(b, c)));
  return std::sqrt(s);
}

/// Literal Algorithm 5 (Roy 2015) per point: fit N(mu, sigma) by maximum likelihood to the
/// k(k-1)/2 distances among N_k(i); `literal` = keep the ceil(0.68 k) candidates of highest
/// density phi((d - mu) / sigma) / sigma, else keep d <= mu + z sigma. A pair is kept when
/// either endpoint keeps the other. Returns kept pairs and rejected directed entries.
template <class T>
std::pair<std::set<Pair>, long> literal_gaussian_fit(const nldr::Matrix<T>& X, int k, double z, bool literal, int k_kept) {
  const auto lists = test_pruning::nearest(X, k);
  std::set<Pair> kept;
  long rejected = 0;
  for (int i = 0; i < int(X.rows()); ++i) {
    std::vector<double> pairwise;
    for (int a = 0; a < k; ++a)
      for (int b = a + 1; b < k; ++b) pairwise.push_back(dist(X, lists[i][a], lists[i][b]));
    double mu = 0, var = 0;
    for (double d : pairwise) mu += d;
    mu /= double(pairwise.size());
    for (double d : pairwise) var += (d - mu) * (d - mu);
    const double sigma = std::sqrt(var / double(pairwise.size()));
    std::vector<std::pair<double, int>> by_density;  // (-density, rank in list)
    for (int a = 0; a < k; ++a) {
      const double u = (dist(X, i, lists[i][a]) - mu) / sigma;
      by_density.push_back({-std::exp(-0.5 * u * u) / (sigma * std::sqrt(2 * std::numbers::pi)), a});
    }
    std::sort(by_density.begin(), by_density.end());
    for (int a = 0; a < k; ++a) {
      const int j = lists[i][a];
      bool keep = dist(X, i, j) <= mu + z * sigma;
      if (literal)
        keep = std::find_if(by_density.begin(), by_density.begin() + k_kept, [&](auto& p) { return p.second == a; }) !=
               by_density.begin() + k_kept;
      if (keep)
        kept.insert({std::min(i, j), std::max(i, j)});
      else
        ++rejected;
    }
  }
  return {kept, rejected};
}

}  // namespace

TEMPLATE_TEST_CASE("GaussianPruned's default rule keeps exactly the pairs of a literal reference",
                   "[neighbors][gaussian]", float, double) {
  const auto X = test_pruning::clustered_points<TestType>(150, 5);
  for (double z : {1.0, 0.0, -0.5}) {
    INFO("z = " << z);
    const auto graph = nldr::GaussianPruned{BruteCandidates{10}, {.z = z, .reconnect = false}}(X);
    const auto [expected, rejected] = literal_gaussian_fit(X, 10, z, false, 0);
    CHECK(test_pruning::kept_pairs(graph) == test_pruning::with_fallback(expected, test_pruning::nearest(X, 10)));
    CHECK(graph.selection().pruned_edges == rejected);
    CHECK(rejected > 0);
  }
}

TEMPLATE_TEST_CASE("GaussianPruned's literal k' = 0.68 k variant matches a density-ranking reference",
                   "[neighbors][gaussian]", float, double) {
  const auto X = test_pruning::clustered_points<TestType>(150, 8);
  // k = 10: k' = ceil(6.8) = 7 kept per point, so exactly 3 of every 10 entries are rejected.
  const auto graph =
      nldr::GaussianPruned{BruteCandidates{10}, {.rule = nldr::GaussianRule::most_probable, .reconnect = false}}(X);
  const auto [expected, rejected] = literal_gaussian_fit(X, 10, 0, true, 7);
  CHECK(rejected == 150 * 3);
  CHECK(graph.selection().pruned_edges == rejected);
  CHECK(test_pruning::kept_pairs(graph) == expected);
  // k = 25: 0.68 * 25 = 17.000000000000004 in binary; k' must be 17, not 18.
  const auto g25 = nldr::GaussianPruned{nldr::KNearest{25}, {.rule = nldr::GaussianRule::most_probable}}(X);
  CHECK(g25.selection().pruned_edges == 150 * 8);
}

TEMPLATE_TEST_CASE("GaussianPruned matches the reference in 2 and 5 dimensions", "[neighbors][gaussian]", float,
                   double) {
  // The distances run through a kernel with D fixed at compile time for D = 2, 3 and a general
  // one otherwise (3-D: the tests above).
  const auto X3 = test_pruning::clustered_points<TestType>(150, 9);
  nldr::Matrix<TestType> X5(150, 5);
  X5 << X3, X3.col(0).cwiseProduct(X3.col(1)), X3.col(2).cwiseAbs2();
  for (const nldr::Matrix<TestType>& X : {nldr::Matrix<TestType>(X3.leftCols(2)), X5}) {
    INFO("D = " << X.cols());
    for (const bool literal : {false, true}) {
      const auto rule = literal ? nldr::GaussianRule::most_probable : nldr::GaussianRule::spread;
      const auto graph = nldr::GaussianPruned{BruteCandidates{10}, {.rule = rule, .z = 0.0, .reconnect = false}}(X);
      const auto [expected, rejected] = literal_gaussian_fit(X, 10, 0.0, literal, 7);
      CHECK(test_pruning::kept_pairs(graph) == test_pruning::with_fallback(expected, test_pruning::nearest(X, 10)));
      CHECK(graph.selection().pruned_edges == rejected);
      CHECK(rejected > 0);
    }
  }
}

TEST_CASE("GaussianPruned rejects bad options and too short candidate lists", "[neighbors][gaussian]") {
  const auto X = test_pruning::clustered_points<double>(40, 2);
  CHECK_THROWS_WITH(nldr::GaussianPruned{BruteCandidates{1}}(X), ContainsSubstring("needs >= 2 neighbors"));
  CHECK_THROWS_WITH((nldr::GaussianPruned{BruteCandidates{5}, {.z = std::numeric_limits<double>::infinity()}}(X)),
                    ContainsSubstring("z = inf"));
  for (double f : {0.0, 1.5})
    CHECK_THROWS_WITH((nldr::GaussianPruned{BruteCandidates{5}, {.keep_fraction = f}}(X)),
                      ContainsSubstring("keep_fraction ="));
  nldr::Matrix<double> bad = X;
  bad(0, 0) = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH(nldr::GaussianPruned{BruteCandidates{5}}(bad), ContainsSubstring("not finite"));
}
