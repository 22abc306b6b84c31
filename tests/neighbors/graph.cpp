#include <nldr/neighbors/components.hpp>
#include <nldr/neighbors/graph.hpp>
#include <nldr/neighbors/statistics.hpp>

#include "catch.hpp"

#include <limits>
#include <set>
#include <utility>
#include <vector>

using Graph = nldr::NeighborGraph<double>;
using Lists = std::vector<std::vector<std::pair<nldr::index_t, double>>>;

namespace {
std::set<std::pair<int, int>> edge_set(const Graph& g) {
  std::set<std::pair<int, int>> edges;
  for (nldr::index_t i = 0; i < g.size(); ++i)
    for (auto j : g.neighbors(i)) edges.insert({i, j});
  return edges;
}
}  // namespace

TEST_CASE("NeighborGraph sorts lists by distance then index", "[neighbors][graph]") {
  const Graph g = Graph::from_lists({{{2, 3.0}, {1, 1.0}, {3, 1.0}}, {{0, 1.0}}, {{0, 3.0}}, {{0, 1.0}}});
  REQUIRE(g.size() == 4);
  REQUIRE(g.num_edges() == 6);
  const auto n0 = g.neighbors(0);
  CHECK(std::vector<nldr::index_t>(n0.begin(), n0.end()) == std::vector<nldr::index_t>{1, 3, 2});
  const auto d0 = g.distances(0);
  CHECK(std::vector<double>(d0.begin(), d0.end()) == std::vector<double>{1.0, 1.0, 3.0});
  CHECK(g.is_symmetric());
  CHECK(g.offsets().size() == 5);
}

TEST_CASE("NeighborGraph rejects malformed user lists", "[neighbors][graph]") {
  CHECK_THROWS_WITH(Graph::from_lists({{{1, 1.0}}, {{5, 1.0}}}), ContainsSubstring("outside [0, 2)"));
  CHECK_THROWS_WITH(Graph::from_lists({{{0, 1.0}}, {}}), ContainsSubstring("itself"));
  CHECK_THROWS_WITH(Graph::from_lists({{{1, 1.0}, {1, 2.0}}, {}}), ContainsSubstring("more than once"));
  CHECK_THROWS_WITH(Graph::from_lists({{{1, -1.0}}, {}}), ContainsSubstring("distance"));
  CHECK_THROWS_AS(Graph::from_csr(2, {0, 1}, {1}, {1.0}), nldr::invalid_argument);       // offsets too short
  CHECK_THROWS_AS(Graph::from_csr(2, {0, 2, 1}, {1, 0}, {1.0, 1.0}), nldr::invalid_argument);  // decreasing
  CHECK_THROWS_AS(Graph::from_csr(2, {0, 1, 2}, {1, 0}, {1.0}), nldr::invalid_argument);  // size mismatch
}

TEST_CASE("NeighborGraph reports the offsets size for the largest point count without overflow",
          "[neighbors][graph]") {
  // Found by tests/fuzz/graph_lists: the message computed n_points + 1 in 32 bits (signed overflow).
  CHECK_THROWS_WITH(Graph::from_csr(std::numeric_limits<nldr::index_t>::max(), {0}, {}, {}),
                    ContainsSubstring("offsets has 1 entries but must have n_points + 1 = 2147483648"));
}

TEST_CASE("Lists naming both directions at different distances are symmetric only once symmetrized",
          "[neighbors][graph]") {
  // Found by tests/fuzz/graph_lists: is_symmetric() compared the indices only, so symmetrized()
  // returned this graph unchanged, 0 -> 1 at 1.0 but 1 -> 0 at 2.0 (Laplacian Eigenmaps would weigh
  // the pair one way in W and another in the degrees).
  const Graph g = Graph::from_lists({{{1, 1.0}}, {{0, 2.0}, {2, 1.0}}, {{1, 1.0}}});
  CHECK_FALSE(g.is_symmetric());
  for (const auto rule : {nldr::Symmetrization::union_edges, nldr::Symmetrization::mutual_edges}) {
    const Graph s = g.symmetrized(rule);
    CHECK(s.is_symmetric());
    CHECK(edge_set(s) == std::set<std::pair<int, int>>{{0, 1}, {1, 0}, {1, 2}, {2, 1}});
    const auto d0 = s.distances(0), d1 = s.distances(1);
    CHECK(std::vector<double>(d0.begin(), d0.end()) == std::vector<double>{1.0});  // the smaller of 1 and 2
    CHECK(std::vector<double>(d1.begin(), d1.end()) == std::vector<double>{1.0, 1.0});
  }
  CHECK(Graph::from_lists({{{1, 2.0}}, {{0, 2.0}}}).is_symmetric());
}

TEST_CASE("Union and mutual symmetrization of a hand-built directed graph", "[neighbors][graph]") {
  // 0 -> 1, 0 -> 2, 1 -> 0, 2 -> 3, 3 -> 1 ; mutual pairs: {0,1} only.
  const Graph g = Graph::from_lists({{{1, 1.0}, {2, 2.0}}, {{0, 1.0}}, {{3, 1.5}}, {{1, 2.5}}});
  CHECK_FALSE(g.is_symmetric());
  const Graph u = g.symmetrized(nldr::Symmetrization::union_edges);
  CHECK(u.is_symmetric());
  const std::set<std::pair<int, int>> expected_union{{0, 1}, {1, 0}, {0, 2}, {2, 0}, {2, 3},
                                                     {3, 2}, {3, 1}, {1, 3}};
  CHECK(edge_set(u) == expected_union);
  const auto d1 = u.distances(1);  // neighbors of 1: 0 (1.0), 3 (2.5)
  CHECK(std::vector<double>(d1.begin(), d1.end()) == std::vector<double>{1.0, 2.5});
  const Graph m = g.symmetrized(nldr::Symmetrization::mutual_edges);
  CHECK(edge_set(m) == std::set<std::pair<int, int>>{{0, 1}, {1, 0}});
  CHECK(m.is_symmetric());
}

TEST_CASE("Connected components of hand-built graphs", "[neighbors][graph]") {
  // Components {0, 2, 4}, {1, 3}, {5}; 4 -> 2 only listed one way (weak connectivity).
  const Graph g = Graph::from_lists({{{2, 1.0}}, {{3, 1.0}}, {{0, 1.0}}, {{1, 1.0}}, {{2, 1.0}}, {}});
  const auto c = nldr::connected_components(g);
  REQUIRE(c.count() == 3);
  CHECK(c.label == std::vector<nldr::index_t>{0, 1, 0, 1, 0, 2});
  CHECK(c.sizes == std::vector<nldr::index_t>{3, 2, 1});
  CHECK_FALSE(c.connected());
  CHECK(nldr::describe_components(c) == "3 connected components (sizes 3, 2, 1)");
  const auto stats = nldr::graph_statistics(g);
  CHECK(stats.min_degree == 0);
  CHECK(stats.max_degree == 1);
  CHECK(stats.degree_histogram == std::vector<nldr::offset_t>{1, 5});
  CHECK(stats.components.count() == 3);
}

TEST_CASE("Symmetrizing a random directed graph matches a brute-force edge set", "[neighbors][graph]") {
  const int n = 60;
  Lists lists(n);
  unsigned state = 12345;
  auto next = [&] { return state = state * 1103515245u + 12345u; };
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (j != i && (next() >> 16) % 10 == 0) lists[i].push_back({j, 1.0 + std::abs(i - j)});
  const Graph g = Graph::from_lists(lists);
  std::set<std::pair<int, int>> directed = edge_set(g), want_union, want_mutual;
  for (auto [i, j] : directed) {
    want_union.insert({i, j});
    want_union.insert({j, i});
    if (directed.count({j, i})) want_mutual.insert({i, j});
  }
  CHECK(edge_set(g.symmetrized(nldr::Symmetrization::union_edges)) == want_union);
  CHECK(edge_set(g.symmetrized(nldr::Symmetrization::mutual_edges)) == want_mutual);
}
