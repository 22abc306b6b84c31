#include <nldr/core/random.hpp>
#include <nldr/neighbors/components.hpp>
#include <nldr/neighbors/curvature_adaptive.hpp>
#include <nldr/neighbors/detail/pruning.hpp>
#include <nldr/neighbors/gaussian_pruned.hpp>
#include <nldr/neighbors/shared_neighbors.hpp>
#include <nldr/neighbors/short_circuit_pruned.hpp>
#include <nldr/neighbors/statistics.hpp>

#include "catch.hpp"
#include "pruning_fixtures.hpp"

#include <map>
#include <numeric>
#include <set>
#include <vector>

using test_pruning::Pair;
using Lists = std::vector<std::vector<std::pair<nldr::index_t, double>>>;

namespace {

// Two triangles {0, 1, 2} and {3, 4, 5}; each point also lists one point of the other triangle.
// Cross pairs and their lengths: {0,3} 5.0, {1,4} 4.0, {2,3} 3.0, {0,5} 6.0.
const Lists two_triangles{
    {{1, 1.0}, {2, 2.0}, {3, 5.0}}, {{0, 1.0}, {2, 1.5}, {4, 4.0}}, {{1, 1.5}, {0, 2.0}, {3, 3.0}},
    {{4, 1.0}, {5, 1.2}, {2, 3.0}}, {{3, 1.0}, {5, 1.1}, {1, 4.0}}, {{4, 1.1}, {3, 1.2}, {0, 6.0}},
};

std::vector<unsigned char> keep_within_triangles(const nldr::NeighborGraph<double>& g) {
  std::vector<unsigned char> keep;
  for (int i = 0; i < g.size(); ++i)
    for (int j : g.neighbors(i)) keep.push_back((i < 3) == (j < 3));
  return keep;
}

}  // namespace

TEST_CASE("Pruning reconnects split components with the shortest crossing candidate (Kruskal)",
          "[neighbors][pruning]") {
  const nldr::detail::CandidateGraph<double> g(nldr::NeighborGraph<double>::from_lists(two_triangles));
  const auto result = nldr::detail::assemble_pruned(g, keep_within_triangles(g.graph), {1, true}, "test");
  const std::set<Pair> within{{0, 1}, {0, 2}, {1, 2}, {3, 4}, {3, 5}, {4, 5}};
  std::set<Pair> expected = within;
  expected.insert({2, 3});  // the shortest of the pruned cross pairs (3.0)
  CHECK(test_pruning::kept_pairs(result) == expected);
  CHECK(result.selection().candidate_edges == 18);
  CHECK(result.selection().pruned_edges == 6);
  CHECK(result.selection().reconnected_edges == 1);
  CHECK(result.selection().fallback_points == 0);
  CHECK(result.selection().selector == "test");
  const auto d2 = result.distances(2);
  CHECK(d2.back() == 3.0);  // lists stay sorted by distance, lengths carried over
  // reconnect = false leaves the two components apart.
  const auto apart = nldr::detail::assemble_pruned(g, keep_within_triangles(g.graph), {1, false}, "test");
  CHECK(test_pruning::kept_pairs(apart) == within);
  CHECK(nldr::connected_components(apart).count() == 2);
}

TEST_CASE("The min_neighbors fallback adds each point's nearest missing candidates", "[neighbors][pruning]") {
  const nldr::detail::CandidateGraph<double> g(nldr::NeighborGraph<double>::from_lists(two_triangles));
  // The rule keeps only 0 -> 1 and 3 -> 4. min_neighbors = 2, points in index order:
  // 0 has {1}: adds 2 (nearest missing). 1 has {0}: adds 2. 2 has {0, 1}: done.
  // 3 has {4}: adds 5. 4 has {3}: adds 5. 5 has {3, 4}: done.
  std::vector<unsigned char> keep(18, 0);
  keep[0] = 1;  // 0 -> 1
  keep[9] = 1;  // 3 -> 4
  const auto result = nldr::detail::assemble_pruned(g, keep, {2, false}, "test");
  CHECK(test_pruning::kept_pairs(result) == std::set<Pair>{{0, 1}, {0, 2}, {1, 2}, {3, 4}, {3, 5}, {4, 5}});
  CHECK(result.selection().fallback_points == 4);
  CHECK(result.selection().pruned_edges == 16);
  // min_neighbors = 4 exceeds what point 0's three candidates can give.
  CHECK_THROWS_WITH((nldr::detail::assemble_pruned(g, keep, {4, false}, "test")),
                    ContainsSubstring("min_neighbors = 4"));
  CHECK(nldr::detail::ceil_fraction(0.1, 30) == 3);  // 0.1 * 30 = 3.0000000000000004 in binary
  CHECK(nldr::detail::ceil_fraction(0.4, 12) == 5);
}

TEST_CASE("Pruning with random decisions: symmetric subgraph, min degree, candidate connectivity restored",
          "[neighbors][pruning]") {
  const auto X = test_pruning::clustered_points<double>(300, 13);
  const nldr::detail::CandidateGraph<double> candidates(test_pruning::BruteCandidates{6}(X));
  const auto& g = candidates.graph;
  // Literal check of reverse_entries: entry e = (i -> j), reverse[e] = (j -> i) or -1.
  for (int i = 0; i < g.size(); ++i)
    for (auto e = g.offsets()[i]; e < g.offsets()[i + 1]; ++e) {
      const int j = g.indices()[e];
      const auto back = g.neighbors(j);
      const auto at = std::find(back.begin(), back.end(), i);
      REQUIRE(candidates.reverse[e] == (at == back.end() ? -1 : g.offsets()[j] + (at - back.begin())));
    }
  // The locality order visits every point once.
  std::vector<nldr::index_t> visited = candidates.order;
  std::sort(visited.begin(), visited.end());
  for (int i = 0; i < g.size(); ++i) REQUIRE(visited[i] == i);

  nldr::Random rng(4);
  std::vector<unsigned char> keep(std::size_t(g.num_edges()));
  for (auto& k : keep) k = rng.uniform() < 0.1;
  const auto result = nldr::detail::assemble_pruned(candidates, keep, {2, true}, "random");
  const auto kept = test_pruning::kept_pairs(result);
  const auto pairs = test_pruning::candidate_pairs(test_pruning::nearest(X, 6));
  for (const auto& p : kept) REQUIRE(pairs.count(p) == 1);  // a subgraph of the candidates
  for (int i = 0; i < g.size(); ++i)
    for (auto e = g.offsets()[i]; e < g.offsets()[i + 1]; ++e)
      if (keep[e]) REQUIRE(kept.count({std::min(i, g.indices()[e]), std::max(i, g.indices()[e])}) == 1);
  const auto stats = nldr::graph_statistics(result);
  CHECK(stats.min_degree >= 2);
  // Reconnection restores exactly the components of the candidate graph itself.
  CHECK(stats.components.count() == nldr::connected_components(g).count());
  CHECK(result.selection().fallback_points > 0);
  CHECK(result.selection().reconnected_edges > 0);

  // The same three steps written out on sets of pairs, as the documentation states them.
  std::map<Pair, double> length;  // every candidate pair with its length
  for (int i = 0; i < g.size(); ++i)
    for (auto e = g.offsets()[i]; e < g.offsets()[i + 1]; ++e) length[{std::min(i, g.indices()[e]), std::max(i, g.indices()[e])}] = g.distances()[e];
  std::set<Pair> expected;
  long pruned = 0;
  for (int i = 0; i < g.size(); ++i)
    for (auto e = g.offsets()[i]; e < g.offsets()[i + 1]; ++e) {
      if (keep[e]) expected.insert({std::min(i, g.indices()[e]), std::max(i, g.indices()[e])});
      pruned += !keep[e];
    }
  auto degree = [&](int i) { return std::count_if(expected.begin(), expected.end(), [&](const Pair& p) { return p.first == i || p.second == i; }); };
  int fallback = 0;
  for (int i = 0; i < g.size(); ++i) {
    if (degree(i) >= 2) continue;
    ++fallback;
    for (const int j : g.neighbors(i))
      if (degree(i) < 2) expected.insert({std::min(i, j), std::max(i, j)});
  }
  std::vector<std::pair<double, Pair>> by_length;
  for (const auto& [p, d] : length)
    if (!expected.count(p)) by_length.push_back({d, p});
  std::sort(by_length.begin(), by_length.end());
  std::vector<int> component(std::size_t(g.size()));
  auto relabel = [&] {  // component[i] = smallest point reachable from i through `expected`
    std::iota(component.begin(), component.end(), 0);
    for (bool changed = true; changed;) {
      changed = false;
      for (const auto& [a, b] : expected)
        if (component[a] != component[b]) {
          component[a] = component[b] = std::min(component[a], component[b]);
          changed = true;
        }
    }
  };
  long reconnected = 0;
  relabel();
  for (const auto& [d, p] : by_length)
    if (component[p.first] != component[p.second]) {
      expected.insert(p);
      ++reconnected;
      relabel();
    }
  CHECK(kept == expected);
  CHECK(result.selection().pruned_edges == pruned);
  CHECK(result.selection().fallback_points == fallback);
  CHECK(result.selection().reconnected_edges == reconnected);
  for (int i = 0; i < result.size(); ++i) {  // rows sorted by (distance, index), lengths carried over
    const auto nbrs = result.neighbors(i);
    const auto dists = result.distances(i);
    for (std::size_t a = 0; a < nbrs.size(); ++a) {
      REQUIRE(dists[a] == length.at({std::min(i, nbrs[a]), std::max(i, nbrs[a])}));
      if (a > 0) REQUIRE(std::pair{dists[a - 1], nbrs[a - 1]} < std::pair{dists[a], nbrs[a]});
    }
  }
}

TEMPLATE_TEST_CASE("Every pruning selector honours min_neighbors and reports its fallback", "[neighbors][pruning]",
                   float, double) {
  // Settings that prune hard, so that many points would keep fewer than 4 neighbors.
  const auto X = test_pruning::clustered_points<TestType>(250, 21);
  const nldr::KNearest knn{10};
  const std::vector<nldr::NeighborGraph<TestType>> graphs{
      nldr::SharedNeighbors{knn, {.ratio = 0.95, .min_neighbors = 4}}(X),
      nldr::GaussianPruned{knn, {.z = -1.5, .min_neighbors = 4}}(X),
      nldr::CurvatureAdaptive{knn, {.tolerance = 0, .mean_floor = 0.0, .gaussian_floor = 0.0, .min_neighbors = 4}}(X),
      nldr::ShortCircuitPruned{knn, {.threshold = 3, .min_neighbors = 4}}(X),
  };
  for (const auto& graph : graphs) {
    INFO(graph.selection().selector);
    const auto stats = nldr::graph_statistics(graph);
    CHECK(stats.min_degree >= 4);
    CHECK(graph.selection().fallback_points > 0);
    CHECK(graph.selection().pruned_edges > 0);
    CHECK(graph.is_symmetric());
    // Reconnection restores the connectivity of the candidate graph.
    CHECK(stats.components.count() == nldr::connected_components(knn(X)).count());
    CHECK(stats.degree_histogram.size() > 4);
  }
}
