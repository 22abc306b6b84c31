// knn_prefix: the prefix of every KNearest{k_max} list is exactly KNearest{k}, ties and duplicates included.
#include <nldr/core/error.hpp>
#include <nldr/neighbors/knn.hpp>
#include <nldr/tune/knn_prefix.hpp>

#include "catch.hpp"
#include "neighbors/exact_reference.hpp"

#include <string>

TEMPLATE_TEST_CASE("knn_prefix equals KNearest{k} exactly, ties and duplicates included", "[tune][knn_prefix]", float,
                   double) {
  using T = TestType;
  // Integer grids (ties at the k-th distance everywhere) with repeated rows (zero distances), and
  // random points in 5-D.
  for (const auto& X : {test_exact::grid_with_duplicates<T>(9, 2, 20, 3), test_exact::grid_with_duplicates<T>(5, 3, 30, 4),
                        test_exact::uniform_points<T>(150, 5, 8)})
    for (nldr::SearchBackend backend : test_exact::all_backends) {
      const auto widest = nldr::KNearest{.k = 24, .backend = backend}(X);
      for (nldr::index_t k : {1, 2, 5, 11, 23, 24}) {
        INFO("N = " << X.rows() << ", D = " << X.cols() << ", k = " << k);
        const auto prefix = nldr::knn_prefix(widest, k);
        const auto direct = nldr::KNearest{.k = k, .backend = backend}(X);
        REQUIRE(prefix.size() == direct.size());
        test_exact::check_same_graph(prefix, direct);
        CHECK_FALSE(prefix.is_symmetric());
        CHECK(prefix.selection().selector == "knn(k=" + std::to_string(k) + ")");
        CHECK(prefix.selection().candidate_edges == direct.selection().candidate_edges);
      }
    }
}

TEST_CASE("knn_prefix refuses symmetric graphs and k beyond the lists", "[tune][knn_prefix]") {
  const auto X = test_exact::uniform_points<double>(40, 3, 2);
  const auto widest = nldr::KNearest{8}(X);
  CHECK_THROWS_CONTAINING(nldr::knn_prefix(widest, 9), nldr::invalid_argument, "k = 9 exceeds the 8 neighbors");
  CHECK_THROWS_CONTAINING(nldr::knn_prefix(widest, 0), nldr::invalid_argument, "k = 0");
  CHECK_THROWS_CONTAINING(nldr::knn_prefix(widest.symmetrized(), 3), nldr::invalid_argument, "symmetrized");
}
