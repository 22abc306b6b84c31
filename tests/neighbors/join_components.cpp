// join_components against brute force: the added edges must be exactly the minimum spanning tree of
// the complete distance graph contracted by the input graph's components, found here by Kruskal's
// algorithm over all O(N^2) pairs between components.
#include <nldr/core/parallel.hpp>
#include <nldr/core/random.hpp>
#include <nldr/neighbors/components.hpp>
#include <nldr/neighbors/join_components.hpp>
#include <nldr/neighbors/knn.hpp>

#include "catch.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <tuple>
#include <vector>

namespace join_components_test {

template <class T>
using Edge = std::tuple<T, int, int>;  // (distance, smaller index, larger index)

/// Kruskal over every pair of points in different components of `graph`, distances summed in
/// coordinate order in T (the library's documented definition), ties by (smaller, larger) index.
template <class T>
std::vector<Edge<T>> contracted_mst(const nldr::Matrix<T>& X, const nldr::NeighborGraph<T>& graph) {
  const nldr::Components components = nldr::connected_components(graph);
  const int n = int(X.rows());
  std::vector<Edge<T>> pairs;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      if (components.label[i] == components.label[j]) continue;
      T sum = 0;
      for (int c = 0; c < int(X.cols()); ++c) sum += (X(i, c) - X(j, c)) * (X(i, c) - X(j, c));
      pairs.emplace_back(std::sqrt(sum), i, j);
    }
  std::sort(pairs.begin(), pairs.end());
  std::vector<int> parent(std::size_t(components.count()));
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](int x) {
    while (parent[x] != x) x = parent[x];
    return x;
  };
  std::vector<Edge<T>> tree;
  for (const auto& [d, i, j] : pairs) {
    const int a = find(components.label[i]), b = find(components.label[j]);
    if (a != b) parent[a] = b, tree.emplace_back(d, i, j);
  }
  return tree;
}

template <class T>
std::vector<Edge<T>> added(const nldr::JoinedGraph<T>& joined) {
  std::vector<Edge<T>> edges;
  for (const auto& e : joined.edges) edges.emplace_back(e.distance, e.a, e.b);
  return edges;
}

/// `clusters` Gaussian blobs of `per_cluster` points in `dim` dimensions, centers far apart.
template <class T>
nldr::Matrix<T> blobs(int clusters, int per_cluster, int dim, std::uint64_t seed) {
  nldr::Random random(seed);
  nldr::Matrix<T> X(clusters * per_cluster, dim);
  for (int c = 0; c < clusters; ++c) {
    std::vector<double> center(static_cast<std::size_t>(dim));
    for (auto& x : center) x = random.uniform(-30, 30);
    for (int p = 0; p < per_cluster; ++p)
      for (int d = 0; d < dim; ++d) X(c * per_cluster + p, d) = T(center[std::size_t(d)] + random.normal());
  }
  return X;
}

/// Every list of `original` is kept, and each joining edge is in both lists at its distance.
template <class T>
void require_original_plus_joins(const nldr::NeighborGraph<T>& original, const nldr::JoinedGraph<T>& joined) {
  const auto& g = joined.graph;
  REQUIRE(g.num_edges() == original.num_edges() + 2 * nldr::offset_t(joined.edges.size()));
  const auto has = [&](int i, int j, T d) {
    const auto list = g.neighbors(i);
    const auto it = std::find(list.begin(), list.end(), j);
    return it != list.end() && g.distances(i)[std::size_t(it - list.begin())] == d;
  };
  for (int i = 0; i < original.size(); ++i)
    for (std::size_t e = 0; e < original.neighbors(i).size(); ++e)
      REQUIRE(has(i, original.neighbors(i)[e], original.distances(i)[e]));
  for (const auto& e : joined.edges) {
    REQUIRE(has(e.a, e.b, e.distance));
    REQUIRE(has(e.b, e.a, e.distance));
  }
  CHECK(nldr::connected_components(g).connected());
  CHECK(g.selection().joined_edges == nldr::offset_t(joined.edges.size()));
}

}  // namespace join_components_test

using namespace join_components_test;

TEMPLATE_TEST_CASE("join_components joins two clusters by their known closest pair", "[neighbors][join]", float,
                   double) {
  using T = TestType;
  // Two 3 x 3 grids with spacing 1, the left one at x = 0..2, the right one at x = 9..11. Point 7,
  // (2, 1), moves to (2.5, 0.75): the unique closest pair is then point 7 and point 10, (9, 1).
  nldr::Matrix<T> X(18, 2);
  int row = 0;
  for (int side = 0; side < 2; ++side)
    for (int x = 0; x < 3; ++x)
      for (int y = 0; y < 3; ++y) X.row(row++) << T(side * 9 + x), T(y);
  X.row(7) << T(2.5), T(0.75);
  const auto graph = nldr::KNearest{3}(X);
  REQUIRE(nldr::connected_components(graph).count() == 2);
  const auto joined = nldr::join_components(X, graph);
  CHECK(joined.components == 2);
  REQUIRE(joined.edges.size() == 1);
  CHECK(joined.edges[0].a == 7);
  CHECK(joined.edges[0].b == 10);
  CHECK(joined.edges[0].distance == Approx(std::sqrt(6.5 * 6.5 + 0.25 * 0.25)).epsilon(1e-6));
  require_original_plus_joins(graph, joined);
  CHECK_FALSE(joined.graph.is_symmetric());  // a directed kNN graph stays directed
  const auto symmetric = nldr::join_components(X, graph.symmetrized());
  CHECK(symmetric.graph.is_symmetric());
  CHECK(added(symmetric) == added(joined));
}

TEMPLATE_TEST_CASE("join_components adds exactly the minimum spanning tree between components", "[neighbors][join]",
                   float, double) {
  using T = TestType;
  for (const int dim : {2, 3, 12}) {  // 12: beyond the k-d tree's comfort, the same answer
    for (const int k : {1, 2, 4}) {
      const auto X = blobs<T>(7, 40, dim, 100 + std::uint64_t(dim) * 10 + std::uint64_t(k));
      const auto graph = nldr::KNearest{k}(X);
      const auto expected = contracted_mst(X, graph);
      const auto joined = nldr::join_components(X, graph);
      CAPTURE(dim, k);
      CHECK(joined.components == nldr::connected_components(graph).count());
      REQUIRE(expected.size() == std::size_t(joined.components - 1));
      CHECK(added(joined) == expected);
      require_original_plus_joins(graph, joined);
    }
  }
}

TEMPLATE_TEST_CASE("join_components on a graph with no edges is the Euclidean minimum spanning tree",
                   "[neighbors][join]", float, double) {
  using T = TestType;
  auto X = blobs<T>(3, 30, 3, 7);
  X.row(5) = X.row(4);  // duplicates: ties at distance 0, broken by index
  X.row(60) = X.row(4);
  const auto empty = nldr::NeighborGraph<T>::from_lists(std::vector<std::vector<std::pair<nldr::index_t, T>>>(90));
  const auto joined = nldr::join_components(X, empty);
  CHECK(joined.components == 90);
  CHECK(added(joined) == contracted_mst(X, empty));
  require_original_plus_joins(empty, joined);
  CHECK(joined.graph.is_symmetric());
}

TEST_CASE("join_components does not depend on the thread count", "[neighbors][join]") {
  const auto X = blobs<double>(9, 200, 3, 11);
  const auto graph = nldr::KNearest{2}(X);
  nldr::set_threads(1);
  const auto one = nldr::join_components(X, graph);
  nldr::set_threads(4);
  const auto four = nldr::join_components(X, graph);
  nldr::set_threads(0);
  CHECK(added(one) == added(four));
  CHECK(added(one) == contracted_mst(X, graph));
}

TEST_CASE("join_components leaves a connected graph alone and checks its input", "[neighbors][join]") {
  const auto X = blobs<double>(1, 50, 2, 3);
  const auto graph = nldr::KNearest{8}(X);
  REQUIRE(nldr::connected_components(graph).connected());
  const auto joined = nldr::join_components(X, graph);
  CHECK(joined.edges.empty());
  CHECK(joined.components == 1);
  CHECK(joined.graph.num_edges() == graph.num_edges());
  CHECK_THROWS_WITH(nldr::join_components(nldr::Matrix<double>(X.topRows(49)), graph), ContainsSubstring("49 rows"));
  auto bad = blobs<double>(2, 10, 2, 5);
  const auto split = nldr::KNearest{2}(bad);
  bad(3, 1) = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_AS(nldr::join_components(bad, split), nldr::invalid_argument);
}
