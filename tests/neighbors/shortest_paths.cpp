// Dijkstra (nldr::shortest_paths) against a literal Floyd-Warshall and closed forms.
#include "catch.hpp"

#include <nldr/core/random.hpp>
#include <nldr/neighbors/graph.hpp>
#include <nldr/neighbors/shortest_paths.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

namespace {

// A random graph on n points: each point lists `degree` distinct random others with random
// lengths in [0.1, 2). Optionally directed (lists as drawn) or symmetric (both directions).
template <class T>
nldr::NeighborGraph<T> random_graph(int n, int degree, bool symmetric, std::uint64_t seed) {
  nldr::Random random(seed);
  std::vector<std::vector<double>> length(n, std::vector<double>(n, 0));
  for (int i = 0; i < n; ++i)
    for (int e = 0; e < degree; ++e) {
      const int j = int(random.below(std::uint64_t(n)));
      if (j == i) continue;
      const double w = random.uniform(0.1, 2.0);
      length[i][j] = w;
      if (symmetric) length[j][i] = w;
    }
  std::vector<std::vector<std::pair<nldr::index_t, T>>> lists(n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (length[i][j] > 0) lists[i].emplace_back(j, T(length[i][j]));
  return nldr::NeighborGraph<T>::from_lists(lists);
}

// Literal Floyd-Warshall (Floyd 1962) on the adjacency matrix, O(n^3): the reference.
template <class T>
std::vector<std::vector<double>> floyd_warshall(const nldr::NeighborGraph<T>& graph) {
  const int n = graph.size();
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<std::vector<double>> d(n, std::vector<double>(n, inf));
  for (int i = 0; i < n; ++i) {
    d[i][i] = 0;
    const auto nb = graph.neighbors(i);
    const auto len = graph.distances(i);
    for (std::size_t e = 0; e < nb.size(); ++e) d[i][nb[e]] = double(len[e]);
  }
  for (int k = 0; k < n; ++k)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        if (d[i][k] + d[k][j] < d[i][j]) d[i][j] = d[i][k] + d[k][j];
  return d;
}

}  // namespace

TEMPLATE_TEST_CASE("all_pairs_shortest_paths equals Floyd-Warshall on random graphs", "[shortest_paths]", float,
                   double) {
  // Sums are formed in double and rounded once to T, so the only difference from the double
  // Floyd-Warshall reference is the rounding of the edge lengths to T and of the result:
  // relative 1e-6 covers float (eps 6e-8 times a few dozen edges), double agrees to 1e-12.
  const double tolerance = std::is_same_v<TestType, float> ? 1e-6 : 1e-12;
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const bool symmetric = seed % 2 == 0;
    // Sparse degree 2 leaves some points unreachable in the directed case (infinity checked too).
    const auto graph = random_graph<TestType>(40, seed <= 2 ? 2 : 4, symmetric, seed);
    const auto reference = floyd_warshall(graph);
    const auto geodesic = nldr::all_pairs_shortest_paths<TestType>(graph);
    REQUIRE(geodesic.rows() == 40);
    REQUIRE(geodesic.cols() == 40);
    for (int i = 0; i < 40; ++i)
      for (int j = 0; j < 40; ++j) {
        INFO("seed " << seed << " pair " << i << ", " << j);
        if (std::isinf(reference[i][j]))
          REQUIRE(std::isinf(geodesic(i, j)));
        else
          REQUIRE_THAT(double(geodesic(i, j)), WithinRel(reference[i][j], tolerance));
      }
  }
}

TEMPLATE_TEST_CASE("shortest_paths from chosen sources equals the matching all-pairs rows", "[shortest_paths]", float,
                   double) {
  const auto graph = random_graph<TestType>(30, 3, true, 11);
  const auto all = nldr::all_pairs_shortest_paths<double>(graph);
  const std::vector<nldr::index_t> sources{7, 0, 29, 7};
  const auto some = nldr::shortest_paths<double>(graph, sources);
  REQUIRE(some.rows() == 4);
  for (std::size_t r = 0; r < sources.size(); ++r)
    for (int j = 0; j < 30; ++j) REQUIRE(some(Eigen::Index(r), j) == all(sources[r], j));  // same computation
}

TEMPLATE_TEST_CASE("shortest paths on a path graph are sums of edge lengths", "[shortest_paths]", float, double) {
  // Path 0 - 1 - ... - 9 with edge (i, i+1) of length i + 1: d(i, j) = sum_{k=i}^{j-1} (k + 1), exact
  // in float too (small integers).
  std::vector<std::vector<std::pair<nldr::index_t, TestType>>> lists(10);
  for (int i = 0; i + 1 < 10; ++i) {
    lists[i].emplace_back(i + 1, TestType(i + 1));
    lists[i + 1].emplace_back(i, TestType(i + 1));
  }
  const auto graph = nldr::NeighborGraph<TestType>::from_lists(lists);
  const auto geodesic = nldr::all_pairs_shortest_paths<float>(graph);
  for (int i = 0; i < 10; ++i)
    for (int j = i; j < 10; ++j) {
      const int expected = (j * (j + 1) - i * (i + 1)) / 2;
      REQUIRE(geodesic(i, j) == float(expected));
      REQUIRE(geodesic(j, i) == float(expected));
    }
}

TEMPLATE_TEST_CASE("shortest_paths rejects bad sources and oversized requests", "[shortest_paths]", float, double) {
  const auto graph = random_graph<TestType>(10, 3, true, 3);
  const std::vector<nldr::index_t> bad{0, 10};
  REQUIRE_THROWS_MATCHES(nldr::shortest_paths<double>(graph, bad), nldr::invalid_argument,
                         Catch::Matchers::Predicate<nldr::invalid_argument>(
                             [](const nldr::invalid_argument& e) { return e.parameter() == "sources"; }));
  REQUIRE_THROWS_WITH(nldr::shortest_paths<double>(graph, std::vector<nldr::index_t>{-1}),
                      ContainsSubstring("sources[0] = -1"));
  // 10 x 10 doubles = 800 bytes > a 100-byte limit: refused before allocating, naming the alternative.
  REQUIRE_THROWS_AS(nldr::all_pairs_shortest_paths<double>(graph, 100), nldr::memory_limit_exceeded);
  REQUIRE_THROWS_WITH(nldr::all_pairs_shortest_paths<double>(graph, 100), ContainsSubstring("landmarks"));
}

namespace {

// A graph whose lengths come from {0.1, 0.2, 0.3, 0.7} (or small integers): many paths of equal
// length in exact arithmetic whose double sums round differently by the order of their edges, so
// the order a method forms the sums in shows in the last bits.
template <class T>
nldr::NeighborGraph<T> tied_graph(int n, int degree, bool integers, bool symmetric, std::uint64_t seed) {
  nldr::Random random(seed);
  const double fractions[] = {0.1, 0.2, 0.3, 0.7};
  std::vector<std::vector<std::pair<nldr::index_t, T>>> lists(n);
  for (int i = 0; i < n; ++i)
    for (int e = 0; e < degree; ++e) {
      const int j = int(random.below(std::uint64_t(n)));
      if (j == i) continue;
      const double w = integers ? double(1 + random.below(3)) : fractions[random.below(4)];
      lists[i].emplace_back(j, T(w));
      if (symmetric) lists[j].emplace_back(i, T(w));
    }
  for (auto& list : lists) {  // from_lists wants each neighbor once
    std::sort(list.begin(), list.end(), [](auto a, auto b) { return a.first < b.first; });
    list.erase(std::unique(list.begin(), list.end(), [](auto a, auto b) { return a.first == b.first; }), list.end());
  }
  return nldr::NeighborGraph<T>::from_lists(lists);
}

}  // namespace

TEMPLATE_TEST_CASE(
    "the batched runs give single-source Dijkstra's distances bit for bit, at any thread count and in either layout",
    "[shortest_paths]", float, double) {
  // The reference: DijkstraWorkspace, Dijkstra from one source on the graph as numbered. The batched
  // runs renumber the graph, group the sources and pass several at once (label correcting), so equal
  // bits hold only because every correct method reaches the same fixed point of fl(d(i) + w(i, j)).
  const int threads = nldr::max_threads();
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    const int n = 300 + 37 * int(seed);
    const bool symmetric = seed % 4 != 1;  // directed graphs too (some points unreachable)
    const auto graph = tied_graph<TestType>(n, seed % 2 == 0 ? 3 : 5, seed % 3 == 0, symmetric, seed);
    nldr::Random random(seed + 100);
    std::vector<nldr::index_t> sources;
    // Seeds 1-6 have fewer sources than a tenth of the points (batches of 8), seeds 7-8 more (16).
    for (int r = 0; r < 8 * int(seed) + 3; ++r) sources.push_back(nldr::index_t(random.below(std::uint64_t(n))));
    sources.push_back(sources.front());  // a repeated source
    // The point-by-point layout reorders its sources: the same multiset, each column the distances
    // from its own source.
    std::vector<nldr::index_t> reordered = sources;
    for (const int t : {1, 2}) {
      nldr::set_threads(t);
      const auto batched = nldr::shortest_paths<TestType>(graph, sources);
      reordered = sources;
      const auto by_point = nldr::shortest_paths_by_point<TestType>(graph, reordered);
      REQUIRE(std::is_permutation(reordered.begin(), reordered.end(), sources.begin()));
      REQUIRE((by_point.rows() == n && by_point.cols() == Eigen::Index(sources.size())));
      nldr::detail::DijkstraWorkspace single;
      std::vector<TestType> row(static_cast<std::size_t>(n));
      const auto require_row = [&](nldr::index_t source, auto&& distance) {
        single.run(graph, source, std::span<TestType>(row));
        INFO("seed " << seed << ", source " << source << ", threads " << t);
        for (int j = 0; j < n; ++j)
          if (!(distance(j) == row[std::size_t(j)] || (std::isinf(row[std::size_t(j)]) && std::isinf(distance(j)))))
            FAIL("distance to " << j << ": " << distance(j) << " against " << row[std::size_t(j)]);
      };
      for (std::size_t r = 0; r < sources.size(); ++r) {
        require_row(sources[r], [&](int j) { return batched(Eigen::Index(r), j); });
        require_row(reordered[r], [&](int j) { return by_point(j, Eigen::Index(r)); });
      }
    }
  }
  nldr::set_threads(threads);
}

TEST_CASE("all-pairs batches on a disconnected graph give every component its own distances", "[shortest_paths]") {
  // Two copies of a random graph side by side: no path between them, and inside each copy the
  // distances of the copy alone.
  const auto part = tied_graph<double>(150, 4, false, true, 21);
  std::vector<std::vector<std::pair<nldr::index_t, double>>> lists(300);
  for (int i = 0; i < 150; ++i) {
    const auto nb = part.neighbors(i);
    const auto len = part.distances(i);
    for (std::size_t e = 0; e < nb.size(); ++e) {
      lists[i].emplace_back(nb[e], len[e]);
      lists[i + 150].emplace_back(nb[e] + 150, len[e]);
    }
  }
  const auto whole = nldr::all_pairs_shortest_paths<double>(nldr::NeighborGraph<double>::from_lists(lists));
  const auto alone = nldr::all_pairs_shortest_paths<double>(part);
  for (int i = 0; i < 150; ++i)
    for (int j = 0; j < 150; ++j) {
      REQUIRE(whole(i, j) == alone(i, j));
      REQUIRE(whole(i + 150, j + 150) == alone(i, j));
      REQUIRE(std::isinf(whole(i, j + 150)));
      REQUIRE(std::isinf(whole(i + 150, j)));
    }
}

namespace {

// The AVX-512 relaxation of Lanes lanes against the loop on random scans: tentative distances made
// of sums of {0.1, 0.2, 0.3, 0.7}, so that candidates tie with the distances they meet (a tie
// lowers nothing), some lanes unreached (+infinity), any scan mask, heads repeated.
template <int Lanes>
void check_relax_kernels() {
#if defined(NLDR_X86_KERNELS)
  nldr::Random random(5 + Lanes);
  const double fractions[] = {0.1, 0.2, 0.3, 0.7};
  const auto tentative = [&] {
    if (random.below(5) == 0) return std::numeric_limits<double>::infinity();
    double sum = 0;
    for (std::uint64_t t = random.below(6); t > 0; --t) sum += fractions[random.below(4)];
    return sum;
  };
  constexpr int heads = 40;
  for (int trial = 0; trial < 2000; ++trial) {
    alignas(64) double from[Lanes];
    for (double& d : from) d = tentative();
    const auto scan = unsigned(random.below(1u << Lanes));
    const auto edges = nldr::offset_t(random.below(heads + 1));
    std::vector<nldr::index_t> indices(static_cast<std::size_t>(edges));
    std::vector<double> lengths(static_cast<std::size_t>(edges));
    for (nldr::offset_t e = 0; e < edges; ++e) {
      indices[std::size_t(e)] = nldr::index_t(random.below(heads));
      lengths[std::size_t(e)] = fractions[random.below(4)];
    }
    struct alignas(64) Row {
      double lane[Lanes];
    };
    std::vector<Row> loop_distance(heads);
    for (Row& row : loop_distance)
      for (double& d : row.lane) d = tentative();
    std::vector<Row> wide_distance = loop_distance;
    std::vector<std::uint16_t> loop_changed(heads), wide_changed(heads);
    for (int j = 0; j < heads; ++j)
      loop_changed[std::size_t(j)] = wide_changed[std::size_t(j)] = std::uint16_t(random.below(1u << Lanes));
    std::vector<nldr::detail::KeyedVertex> loop_list(static_cast<std::size_t>(edges) + 1),
        wide_list(static_cast<std::size_t>(edges) + 1);
    const std::size_t loop_listed = nldr::detail::relax_lanes_loop<Lanes>(
        from, scan, indices.data(), lengths.data(), edges, loop_distance[0].lane, loop_changed.data(), loop_list.data());
    const std::size_t wide_listed = nldr::detail::relax_lanes_avx512<Lanes>(
        from, scan, indices.data(), lengths.data(), edges, wide_distance[0].lane, wide_changed.data(), wide_list.data());
    INFO(Lanes << " lanes, trial " << trial);
    REQUIRE(wide_listed == loop_listed);
    REQUIRE(std::memcmp(wide_distance.data(), loop_distance.data(), sizeof(Row) * heads) == 0);
    REQUIRE(wide_changed == loop_changed);
    for (std::size_t m = 0; m < loop_listed; ++m) {
      REQUIRE(wide_list[m].vertex == loop_list[m].vertex);
      REQUIRE(std::memcmp(&wide_list[m].key, &loop_list[m].key, sizeof(double)) == 0);
    }
  }
#endif
}

}  // namespace

TEST_CASE("the AVX-512 relaxation of 8 and 16 lanes gives the loop's distances, marks and keys bit for bit",
          "[shortest_paths]") {
#if defined(NLDR_X86_KERNELS)
  if (!nldr::detail::has_avx512()) {
    SUCCEED("this CPU has no AVX-512: the loop is the only path");
    return;
  }
  check_relax_kernels<8>();
  check_relax_kernels<16>();
#else
  SUCCEED("not an x86-64 build: the loop is the only path");
#endif
}
