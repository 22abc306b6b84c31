#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/neighbors/epsilon_ball.hpp>
#include <nldr/neighbors/statistics.hpp>

#include "catch.hpp"
#include "exact_reference.hpp"

#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <utility>
#include <vector>

using nldr::EpsilonBall;
using nldr::SearchBackend;
using test_exact::all_backends;
using test_exact::require_lists;
using test_exact::sorted_pairs;

namespace {

// Reference: the pairs with distance <= radius (compared in double, as documented), at most `cap`.
template <class T>
std::vector<std::vector<std::pair<T, int>>> reference_ball(const nldr::Matrix<T>& X, double radius, int cap = 0) {
  auto all = sorted_pairs(X);
  for (auto& list : all) {
    std::size_t keep = 0;
    while (keep < list.size() && double(list[keep].first) <= radius) ++keep;
    if (cap > 0) keep = std::min(keep, std::size_t(cap));
    list.resize(keep);
  }
  return all;
}

template <class T>
bool literally_symmetric(const nldr::NeighborGraph<T>& g) {
  std::set<std::pair<int, int>> edges;
  for (int i = 0; i < g.size(); ++i)
    for (int j : g.neighbors(i)) edges.insert({i, j});
  for (const auto& [i, j] : edges)
    if (!edges.count({j, i})) return false;
  return true;
}

}  // namespace

// Bitwise comparison: the reference computes the distances the documented way (see exact_reference.hpp).
TEMPLATE_TEST_CASE("EpsilonBall equals a literal brute force for D in {2, 3, 10, 64, 784}", "[neighbors][epsilon]",
                   float, double) {
  using T = TestType;
  struct Case {
    int n, d;
    double radius;  // about 10-20 neighbors per point for uniform [0,1)^D
  };
  for (const Case c : {Case{400, 2, 0.12}, Case{400, 3, 0.2}, Case{300, 10, 0.75}, Case{200, 64, 3.0},
                       Case{120, 784, 11.3}}) {
    const nldr::Matrix<T> X = test_exact::uniform_points<T>(c.n, c.d, 5 + std::uint64_t(c.d));
    const auto expected = reference_ball(X, c.radius);
    std::size_t edges = 0;
    for (const auto& list : expected) edges += list.size();
    REQUIRE(edges > 0);  // the radius must admit edges for the test to mean anything
    for (SearchBackend backend : all_backends) {
      INFO("D = " << c.d << ", backend " << int(backend));
      const auto graph = EpsilonBall{.radius = c.radius, .backend = backend}(X);
      require_lists(graph, expected);
      CHECK(graph.is_symmetric());
      CHECK(literally_symmetric(graph));
      CHECK(graph.selection().candidate_edges == graph.num_edges());
      CHECK_THAT(graph.selection().selector, ContainsSubstring("epsilon_ball(radius="));
    }
  }
}

TEMPLATE_TEST_CASE("EpsilonBall includes points exactly on the radius", "[neighbors][epsilon]", float, double) {
  using T = TestType;
  // 6 x 6 integer grid, index 6 y + x: axis neighbors at distance exactly 1, diagonals at sqrt(2)
  // (in float sqrt(2.0f) = 1.41421354 < sqrt(2.0) = 1.41421356..., in double they are equal).
  nldr::Matrix<T> X(36, 2);
  for (int i = 0; i < 36; ++i) X.row(i) << T(i % 6), T(i / 6);
  const int interior = 14;  // (2, 2)
  for (SearchBackend backend : all_backends) {
    INFO("backend " << int(backend));
    const auto on = EpsilonBall{.radius = 1.0, .backend = backend}(X);
    const auto idx = on.neighbors(interior);
    CHECK(std::vector<nldr::index_t>(idx.begin(), idx.end()) == std::vector<nldr::index_t>{8, 13, 15, 20});
    CHECK(on.neighbors(0).size() == 2);   // corner
    CHECK(on.num_edges() == 2 * 2 * 6 * 5);  // 2 directions x 2 axes x 6 lines x 5 gaps
    const auto diagonal = EpsilonBall{.radius = std::sqrt(2.0), .backend = backend}(X);
    CHECK(diagonal.neighbors(interior).size() == 8);
    CHECK(diagonal.distances(interior)[7] == std::sqrt(T(2)));
    // Just below 1: nothing is inside, every point is isolated, and the statistics show it.
    const auto none = EpsilonBall{.radius = std::nextafter(1.0, 0.0), .backend = backend}(X);
    CHECK(none.num_edges() == 0);
    CHECK(nldr::graph_statistics(none).degree_histogram.at(0) == 36);
    require_lists(EpsilonBall{.radius = 2.0, .backend = backend}(X), reference_ball(X, 2.0));
  }
}

TEMPLATE_TEST_CASE("EpsilonBall with ties, duplicates and a cap", "[neighbors][epsilon]", float, double) {
  using T = TestType;
  const nldr::Matrix<T> X = test_exact::grid_with_duplicates<T>(8, 3, 40, 9);
  for (SearchBackend backend : all_backends) {
    INFO("backend " << int(backend));
    require_lists(EpsilonBall{.radius = std::sqrt(3.0), .backend = backend}(X), reference_ball(X, std::sqrt(3.0)));
    for (int cap : {1, 5, 30}) {
      INFO("max_neighbors = " << cap);
      const auto capped = EpsilonBall{.radius = 2.0, .max_neighbors = cap, .backend = backend}(X);
      require_lists(capped, reference_ball(X, 2.0, cap));
      CHECK(capped.is_symmetric() == literally_symmetric(capped));
      CHECK(capped.selection().selector == "epsilon_ball(radius=2, max_neighbors=" + std::to_string(cap) + ")");
    }
  }
  // A cap no list reaches leaves the symmetric graph whole.
  const auto loose = EpsilonBall{.radius = 1.0, .max_neighbors = 1000}(X);
  CHECK(loose.is_symmetric());
  require_lists(loose, reference_ball(X, 1.0));
}

TEMPLATE_TEST_CASE("EpsilonBall edge cases", "[neighbors][epsilon]", float, double) {
  using T = TestType;
  SECTION("one point: a graph with one isolated vertex") {
    const auto g = EpsilonBall{.radius = 1.0}(nldr::Matrix<T>::Zero(1, 3));
    CHECK(g.size() == 1);
    CHECK(g.num_edges() == 0);
  }
  SECTION("a huge radius gives the complete graph") {
    const nldr::Matrix<T> X = test_exact::uniform_points<T>(50, 4, 3);
    for (SearchBackend backend : all_backends)
      require_lists(EpsilonBall{.radius = 1e300, .backend = backend}(X), sorted_pairs(X));
  }
}

TEST_CASE("EpsilonBall gives the same graph for 1 and 2 threads", "[neighbors][epsilon]") {
  const int saved = nldr::max_threads();
  for (int d : {3, 64}) {
    const nldr::Matrix<double> X = test_exact::uniform_points<double>(d == 3 ? 3000 : 600, d, 23);
    const double radius = d == 3 ? 0.1 : 3.0;
    nldr::set_threads(1);
    const auto one = EpsilonBall{.radius = radius}(X);
    nldr::set_threads(2);
    const auto two = EpsilonBall{.radius = radius}(X);
    INFO("D = " << d);
    REQUIRE(one.num_edges() > 0);
    test_exact::check_same_graph(one, two);
  }
  nldr::set_threads(saved);
}

TEST_CASE("EpsilonBall rejects bad input naming the parameter", "[neighbors][epsilon]") {
  const nldr::Matrix<double> X = test_exact::uniform_points<double>(10, 2, 1);
  auto message_of = [](auto&& call) {
    try {
      call();
    } catch (const nldr::invalid_argument& e) {
      return e.parameter() + ": " + e.what();
    }
    return std::string("no exception");
  };
  CHECK_THAT(message_of([&] { (void)EpsilonBall{.radius = 0.0}(X); }), ContainsSubstring("radius: radius = 0 must be"));
  CHECK_THAT(message_of([&] { (void)EpsilonBall{.radius = -1.5}(X); }), ContainsSubstring("radius: radius = -1.5"));
  CHECK_THAT(message_of([&] { (void)EpsilonBall{.radius = std::numeric_limits<double>::quiet_NaN()}(X); }),
             ContainsSubstring("radius: radius = nan"));
  CHECK_THAT(message_of([&] { (void)EpsilonBall{.radius = std::numeric_limits<double>::infinity()}(X); }),
             ContainsSubstring("radius: radius = inf must be finite"));
  CHECK_THAT(message_of([&] { (void)EpsilonBall{.radius = 1.0, .max_neighbors = -2}(X); }),
             ContainsSubstring("max_neighbors: max_neighbors = -2 must be >= 0"));
  nldr::Matrix<float> bad = X.cast<float>();
  bad(0, 0) = std::numeric_limits<float>::quiet_NaN();
  CHECK_THAT(message_of([&] { (void)EpsilonBall{}(bad); }), ContainsSubstring("X: X(0, 0) = nan"));
  CHECK_THAT(message_of([&] { (void)EpsilonBall{}(nldr::Matrix<double>(0, 2)); }), ContainsSubstring("X: X is empty"));
}
