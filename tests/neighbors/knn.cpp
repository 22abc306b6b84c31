#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/neighbors/knn.hpp>

#include "catch.hpp"
#include "exact_reference.hpp"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

using nldr::KNearest;
using nldr::SearchBackend;
using test_exact::all_backends;
using test_exact::require_lists;
using test_exact::sorted_pairs;

namespace {

const char* name(SearchBackend b) {
  return b == SearchBackend::kdtree ? "kdtree" : b == SearchBackend::brute_force ? "brute_force" : "automatic";
}

// The first k pairs of every reference list: N_k(i) with ties broken by the smaller index.
template <class T>
std::vector<std::vector<std::pair<T, int>>> reference_knn(const nldr::Matrix<T>& X, int k) {
  auto all = sorted_pairs(X);
  for (auto& list : all) list.resize(std::size_t(k));
  return all;
}

}  // namespace

// Exactness is bitwise: the reference sums the squared differences in the same order in T, so
// there is no tolerance; any misplaced tie or missed neighbor fails.
TEMPLATE_TEST_CASE("KNearest equals a literal brute force for D in {2, 3, 10, 64, 784}", "[neighbors][knn]", float,
                   double) {
  using T = TestType;
  struct Case {
    int n, d;
  };
  for (const Case c : {Case{400, 2}, Case{400, 3}, Case{300, 10}, Case{200, 64}, Case{120, 784}}) {
    const nldr::Matrix<T> X = test_exact::uniform_points<T>(c.n, c.d, 17 + std::uint64_t(c.d));
    const auto all = sorted_pairs(X);
    for (int k : {1, 7}) {
      auto expected = all;
      for (auto& list : expected) list.resize(std::size_t(k));
      for (SearchBackend backend : all_backends) {
        INFO("N = " << c.n << ", D = " << c.d << ", k = " << k << ", backend " << name(backend));
        const auto graph = KNearest{.k = k, .backend = backend}(X);
        require_lists(graph, expected);
        CHECK_FALSE(graph.is_symmetric());
        CHECK(graph.num_edges() == nldr::offset_t(c.n) * k);
        CHECK(graph.selection().selector == "knn(k=" + std::to_string(k) + ")");
        CHECK(graph.selection().candidate_edges == nldr::offset_t(c.n) * k);
      }
    }
  }
}

TEMPLATE_TEST_CASE("KNearest resolves ties and exact duplicates by the smaller index", "[neighbors][knn]", float,
                   double) {
  using T = TestType;
  // Integer grids: every distance is the square root of an integer, computed exactly, so ties at
  // the k-th distance are everywhere; the 30 / 60 duplicates add zero distances.
  for (const auto& X : {test_exact::grid_with_duplicates<T>(15, 2, 30, 3), test_exact::grid_with_duplicates<T>(7, 3, 60, 4)})
    for (int k : {1, 4, 6, 13})
      for (SearchBackend backend : all_backends) {
        INFO("D = " << X.cols() << ", k = " << k << ", backend " << name(backend));
        require_lists(KNearest{.k = k, .backend = backend}(X), reference_knn(X, k));
      }
}

TEMPLATE_TEST_CASE("KNearest on known geometry", "[neighbors][knn]", float, double) {
  using T = TestType;
  SECTION("interior grid points have their 4 axis neighbors at distance 1, smaller index first") {
    // 5 x 5 grid, point (x, y) has index 5 y + x.
    nldr::Matrix<T> X(25, 2);
    for (int i = 0; i < 25; ++i) X.row(i) << T(i % 5), T(i / 5);
    for (SearchBackend backend : all_backends) {
      const auto graph = KNearest{.k = 4, .backend = backend}(X);
      const int i = 12;  // (2, 2): neighbors 7 (2,1), 11 (1,2), 13 (3,2), 17 (2,3)
      const auto idx = graph.neighbors(i);
      CHECK(std::vector<nldr::index_t>(idx.begin(), idx.end()) == std::vector<nldr::index_t>{7, 11, 13, 17});
      for (T d : graph.distances(i)) CHECK(d == T(1));
    }
  }
  SECTION("all points identical: the k smallest other indices at distance 0") {
    const nldr::Matrix<T> X = nldr::Matrix<T>::Constant(20, 3, T(0.25));
    for (SearchBackend backend : all_backends) {
      const auto graph = KNearest{.k = 5, .backend = backend}(X);
      for (int i : {0, 3, 19}) {
        std::vector<nldr::index_t> expected;
        for (int j = 0; int(expected.size()) < 5; ++j)
          if (j != i) expected.push_back(j);
        const auto idx = graph.neighbors(i);
        CHECK(std::vector<nldr::index_t>(idx.begin(), idx.end()) == expected);
        for (T d : graph.distances(i)) CHECK(d == T(0));
      }
    }
  }
  SECTION("k = N - 1 lists every other point, sorted") {
    const nldr::Matrix<T> X = test_exact::uniform_points<T>(60, 3, 5);
    for (SearchBackend backend : all_backends) require_lists(KNearest{.k = 59, .backend = backend}(X), sorted_pairs(X));
  }
  SECTION("N = 2, k = 1") {
    nldr::Matrix<T> X(2, 1);
    X << T(1), T(4);
    const auto graph = KNearest{1}(X);
    CHECK(graph.neighbors(0)[0] == 1);
    CHECK(graph.distances(1)[0] == T(3));
  }
}

TEMPLATE_TEST_CASE("KNearest brute force stays exact far from the origin", "[neighbors][knn]", float, double) {
  using T = TestType;
  // |x|^2 + |y|^2 - 2 x.y cancels badly when the points sit far from the origin compared with
  // their spread (here 1000 vs 1): the GEMM only filters, the recheck must still be exact.
  const nldr::Matrix<T> X = test_exact::uniform_points<T>(200, 40, 11, 1.0, 1000.0);
  for (int k : {1, 9}) require_lists(KNearest{.k = k, .backend = SearchBackend::brute_force}(X), reference_knn(X, k));
}

TEMPLATE_TEST_CASE("KNearest accepts column-major matrices and expressions", "[neighbors][knn]", float, double) {
  using T = TestType;
  const nldr::Matrix<T> X = test_exact::uniform_points<T>(100, 3, 8);
  const Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic> column_major = X;
  const auto expected = reference_knn(X, 5);
  require_lists(KNearest{5}(column_major), expected);
  require_lists(KNearest{5}(X.leftCols(3)), expected);
  const nldr::Matrix<T> transposed = X.transpose();
  require_lists(KNearest{5}(transposed.transpose()), expected);
}

TEST_CASE("KNearest gives the same graph for 1 and 2 threads", "[neighbors][knn]") {
  const int saved = nldr::max_threads();
  struct Case {
    int n, d;
  };
  for (const Case c : {Case{3000, 3}, Case{600, 64}}) {
    const nldr::Matrix<double> X = test_exact::uniform_points<double>(c.n, c.d, 21);
    nldr::set_threads(1);
    const auto one = KNearest{8}(X);
    nldr::set_threads(2);
    const auto two = KNearest{8}(X);
    INFO("D = " << c.d);
    test_exact::check_same_graph(one, two);
  }
  nldr::set_threads(saved);
}

TEST_CASE("KNearest rejects bad input naming the parameter and the fix", "[neighbors][knn]") {
  const nldr::Matrix<double> X = test_exact::uniform_points<double>(10, 2, 1);
  using test_exact::parameter_of;
  CHECK_THAT(parameter_of([&] { (void)KNearest{0}(X); }), ContainsSubstring("k: k = 0 must be >= 1"));
  CHECK_THAT(parameter_of([&] { (void)KNearest{-3}(X); }), ContainsSubstring("k: k = -3"));
  CHECK_THAT(parameter_of([&] { (void)KNearest{10}(X); }), ContainsSubstring("k: k = 10 must be < N = 10"));
  CHECK_THAT(parameter_of([&] { (void)KNearest{50}(X); }), ContainsSubstring("lower k"));
  nldr::Matrix<double> bad = X;
  bad(4, 1) = std::numeric_limits<double>::quiet_NaN();
  CHECK_THAT(parameter_of([&] { (void)KNearest{3}(bad); }), ContainsSubstring("X: X(4, 1) = nan is not finite"));
  bad(4, 1) = std::numeric_limits<double>::infinity();
  CHECK_THAT(parameter_of([&] { (void)KNearest{3}(bad); }), ContainsSubstring("X: X(4, 1) = inf"));
  CHECK_THAT(parameter_of([&] { (void)KNearest{3}(nldr::Matrix<double>(0, 3)); }), ContainsSubstring("X: X is empty"));
  CHECK_THAT(parameter_of([&] { (void)KNearest{3}(nldr::Matrix<float>(5, 0)); }), ContainsSubstring("X: X is empty"));
  CHECK_THAT(parameter_of([&] { (void)KNearest{1}(nldr::Matrix<double>::Zero(1, 2)); }),
             ContainsSubstring("k: k = 1 must be < N = 1"));
  // Squared distances beyond the float range cannot be stored: refused, not returned as inf.
  nldr::Matrix<float> huge(3, 1);
  huge << 0.0f, 3e19f, -3e19f;
  CHECK_THAT(parameter_of([&] { (void)KNearest{1}(huge); }), ContainsSubstring("X: the squared distances between rows of X may overflow"));
  // Distinct points whose squared distances all underflow to 0 would give a graph of ties only.
  nldr::Matrix<double> tiny(3, 1);
  tiny << 0.0, 1e-300, 2e-300;
  CHECK_THAT(parameter_of([&] { (void)KNearest{1}(tiny); }), ContainsSubstring("X: the points of X differ, but every squared distance"));
}
