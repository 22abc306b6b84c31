#include <nldr/neighbors/shared_neighbors.hpp>

#include "catch.hpp"
#include "pruning_fixtures.hpp"

#include <cmath>
#include <limits>
#include <set>

using test_pruning::BruteCandidates;
using test_pruning::Pair;

namespace {

/// Literal Algorithm 4 (Roy 2015): every pair of points is examined; a pair that is a kNN
/// candidate (either lists the other) is kept iff |N_k(i) ∩ N_k(j)| >= threshold.
/// Returns the kept pairs and the number of directed candidate entries the rule rejects.
template <class T>
std::pair<std::set<Pair>, long> literal_shared_neighbors(const nldr::Matrix<T>& X, int k, int threshold) {
  const auto lists = test_pruning::nearest(X, k);
  std::set<Pair> kept;
  long rejected_entries = 0;
  for (int i = 0; i < int(X.rows()); ++i)
    for (int j = i + 1; j < int(X.rows()); ++j) {
      const bool i_lists_j = test_pruning::contains(lists[i], j), j_lists_i = test_pruning::contains(lists[j], i);
      if (!i_lists_j && !j_lists_i) continue;
      int shared = 0;
      for (int m : lists[i]) shared += test_pruning::contains(lists[j], m);
      if (shared >= threshold)
        kept.insert({i, j});
      else
        rejected_entries += int(i_lists_j) + int(j_lists_i);
    }
  return {kept, rejected_entries};
}

}  // namespace

TEMPLATE_TEST_CASE("SharedNeighbors keeps exactly the pairs of a literal O(N^2) Algorithm 4", "[neighbors][shared]",
                   float, double) {
  const auto X = test_pruning::clustered_points<TestType>(160, 11);
  // k = 10: ratio 0.4 gives threshold ceil(4.0) = 4, ratio 0.7 gives 7 (integers by hand).
  for (const auto& [ratio, threshold] : {std::pair{0.4, 4}, std::pair{0.7, 7}}) {
    INFO("ratio " << ratio);
    const auto graph = nldr::SharedNeighbors{BruteCandidates{10}, {.ratio = ratio, .reconnect = false}}(X);
    const auto [expected, rejected] = literal_shared_neighbors(X, 10, threshold);
    CHECK(test_pruning::kept_pairs(graph) == test_pruning::with_fallback(expected, test_pruning::nearest(X, 10)));
    CHECK(graph.selection().pruned_edges == rejected);
    CHECK(graph.selection().candidate_edges == 160 * 10);
    CHECK(rejected > 0);  // the rule did prune something: the comparison is not vacuous
  }
}

TEMPLATE_TEST_CASE("SharedNeighbors with the default kNN candidates equals the brute-force candidates",
                   "[neighbors][shared]", float, double) {
  const auto X = test_pruning::clustered_points<TestType>(200, 3);
  const auto a = nldr::SharedNeighbors{nldr::KNearest{12}}(X);
  const auto b = nldr::SharedNeighbors{BruteCandidates{12}}(X);
  CHECK(test_pruning::kept_pairs(a) == test_pruning::kept_pairs(b));
  CHECK(a.selection().pruned_edges == b.selection().pruned_edges);
  CHECK_THAT(a.selection().selector, ContainsSubstring("threshold=5"));  // ceil(0.4 * 12) = 5
}

TEST_CASE("SharedNeighbors rejects bad options and input", "[neighbors][shared]") {
  const auto X = test_pruning::clustered_points<double>(40, 1);
  for (double ratio : {0.0, 1.0, -0.5, std::numeric_limits<double>::quiet_NaN()})
    CHECK_THROWS_WITH((nldr::SharedNeighbors{BruteCandidates{5}, {.ratio = ratio}}(X)), ContainsSubstring("ratio ="));
  CHECK_THROWS_WITH((nldr::SharedNeighbors{BruteCandidates{5}, {.min_neighbors = 0}}(X)),
                    ContainsSubstring("min_neighbors = 0"));
  nldr::Matrix<double> bad = X;
  bad(3, 1) = std::numeric_limits<double>::infinity();
  CHECK_THROWS_AS(nldr::SharedNeighbors{nldr::KNearest{5}}(bad), nldr::invalid_argument);
  CHECK_THROWS_WITH(nldr::SharedNeighbors{nldr::KNearest{40}}(X), ContainsSubstring("k = 40"));
  // min_neighbors above the candidate count cannot be honoured: say so instead of returning less.
  CHECK_THROWS_WITH((nldr::SharedNeighbors{BruteCandidates{3}, {.ratio = 0.99, .min_neighbors = 5}}(X)),
                    ContainsSubstring("min_neighbors = 5"));
}
