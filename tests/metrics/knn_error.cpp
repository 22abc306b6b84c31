// k-NN classification error with stratified cross-validation.
#include "catch.hpp"
#include "data.hpp"

#include <nldr/core/parallel.hpp>
#include <nldr/metrics/knn_error.hpp>

#include <vector>

namespace metrics = nldr::metrics;

namespace {

/// Three well-separated clusters of 30 points (centers 10 apart, spread 1), label = cluster.
template <class T>
std::pair<nldr::Matrix<T>, std::vector<int>> clusters() {
  const auto noise = test_data::uniform<T>(90, 2, 141);
  nldr::Matrix<T> Y(90, 2);
  std::vector<int> labels(90);
  for (int i = 0; i < 90; ++i) {
    labels[std::size_t(i)] = 7 * (i % 3) - 4;  // arbitrary integer labels -4, 3, 10
    Y(i, 0) = T(10 * (i % 3)) + noise(i, 0);
    Y(i, 1) = noise(i, 1);
  }
  return {Y, labels};
}

}  // namespace

TEMPLATE_TEST_CASE("k-NN error: separated classes give 0, one planted outlier gives exactly 1/N", "[metrics][knn]",
                   float, double) {
  auto [Y, labels] = clusters<TestType>();
  CHECK(metrics::knn_error(Y, labels).error == 0.0);
  // Point 0 (cluster 0) gets the label of cluster 1. With 5 folds, each point's training set holds
  // at least 23 of its own cluster's other points, all nearer than any other cluster (gap >= 8), so
  // the 7 voters of point 0 are cluster-0 points (misclassified), and every other point has at most
  // one mislabeled voter among 7 (still correct): exactly one error, whatever the folds.
  labels[0] = labels[1];
  for (std::uint64_t seed : {0u, 1u, 2u}) {
    const auto e = metrics::knn_error(Y, labels, {.k = 7, .folds = 5, .seed = seed});
    CHECK(e.misclassified == 1);
    CHECK(e.error == Approx(1.0 / 90));
  }
}

TEST_CASE("k-NN error of labels unrelated to the geometry is near chance", "[metrics][knn]") {
  // Two classes alternating by index on uniform random points: a 7-NN vote is a coin flip,
  // error ~ 0.5 with standard deviation ~ sqrt(0.25/400) = 0.025; accept [0.35, 0.65].
  const auto Y = test_data::uniform<double>(400, 2, 151);
  std::vector<int> labels(400);
  for (int i = 0; i < 400; ++i) labels[std::size_t(i)] = i % 2;
  const double e = metrics::knn_error(Y, labels).error;
  CHECK(e > 0.35);
  CHECK(e < 0.65);
}

TEST_CASE("k-NN error: a tied vote goes to the class of the nearest voter", "[metrics][knn]") {
  // folds = N is leave-one-out (deterministic). Y = 0, 1, 3, 7 with classes A, B, A, B and k = 2:
  //   0 (A): voters 1 (B, d 1), 3 (A, d 3) -> tie, nearest B -> wrong
  //   1 (B): voters 0 (A), 3 (A)            -> A            -> wrong
  //   3 (A): voters 1 (B, d 2), 0 (A, d 3) -> tie, nearest B -> wrong
  //   7 (B): voters 3 (A, d 4), 1 (B, d 6) -> tie, nearest A -> wrong
  // 4 errors under this rule, whichever integers name the classes (ties to the smaller label would
  // give 2 errors, ties to the larger 3).
  nldr::Matrix<double> Y(4, 1);
  Y << 0, 1, 3, 7;
  CHECK(metrics::knn_error(Y, std::vector<int>{0, 1, 0, 1}, {.k = 2, .folds = 4}).misclassified == 4);
  CHECK(metrics::knn_error(Y, std::vector<int>{1, 0, 1, 0}, {.k = 2, .folds = 4}).misclassified == 4);
  // k = 1 leave-one-out: 0 -> 1 (B) wrong, 1 -> 0 (A) wrong, 3 -> 1 (B) wrong, 7 -> 3 (A) wrong.
  CHECK(metrics::knn_error(Y, std::vector<int>{0, 1, 0, 1}, {.k = 1, .folds = 4}).misclassified == 4);
  // Relabel 7 as A: 7 -> 3 (A) correct; the others unchanged except 3 (voters 1 B, 0 A with k = 1: B).
  CHECK(metrics::knn_error(Y, std::vector<int>{0, 1, 0, 0}, {.k = 1, .folds = 4}).misclassified == 3);
}

TEST_CASE("k-NN error is reproducible and thread-count independent", "[metrics][knn]") {
  const auto Y = test_data::uniform<double>(200, 2, 161);
  std::vector<int> labels(200);
  for (int i = 0; i < 200; ++i) labels[std::size_t(i)] = Y(i, 0) + 0.2 * Y(i, 1) > 0.5;
  const int saved = nldr::max_threads();
  nldr::set_threads(1);
  const auto a = metrics::knn_error(Y, labels, {.seed = 4});
  nldr::set_threads(2);
  const auto b = metrics::knn_error(Y, labels, {.seed = 4});
  nldr::set_threads(saved);
  CHECK(a.misclassified == b.misclassified);
  CHECK(a.error < 0.1);  // a linear boundary is learned well by 7-NN
}

TEST_CASE("k-NN error rejects bad input", "[metrics][knn]") {
  const auto Y = test_data::uniform<double>(20, 2, 171);
  const std::vector<int> labels(20, 1), short_labels(19, 1);
  CHECK_THROWS_WITH(metrics::knn_error(Y, short_labels), ContainsSubstring("labels has 19"));
  CHECK_THROWS_WITH(metrics::knn_error(Y, labels, {.folds = 1}), ContainsSubstring("folds = 1"));
  CHECK_THROWS_WITH(metrics::knn_error(Y, labels, {.folds = 21}), ContainsSubstring("folds = 21"));
  CHECK_THROWS_WITH(metrics::knn_error(Y, labels, {.k = 17, .folds = 5}), ContainsSubstring("k = 17"));
  CHECK_THROWS_WITH(metrics::knn_error(Y, labels, {.k = 0}), ContainsSubstring("k = 0"));
}
