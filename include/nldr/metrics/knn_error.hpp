// k-NN classification error of an embedding with stratified k-fold cross-validation (Roy 2015,
// sec. 4.2: 7-NN, 5-fold; the protocol of van der Maaten, Postma & van den Herik 2009, "Dimensionality
// reduction: a comparative review", TiCC TR 2009-005).
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/random.hpp>
#include <nldr/core/types.hpp>
#include <nldr/metrics/input.hpp>
#include <nldr/metrics/ranks.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <span>
#include <utility>
#include <vector>

namespace nldr::metrics {

/// Options of knn_error().
struct KnnErrorOptions {
  /// Neighbors that vote, 1 <= k <= the size of the smallest training set (N minus the largest fold).
  index_t k = 7;
  /// Cross-validation folds, 2 <= folds <= N.
  index_t folds = 5;
  /// Seed of the shuffle inside each class.
  std::uint64_t seed = 0;
};

/// Result of knn_error().
struct KnnError {
  /// Misclassified fraction in [0, 1]; 0 = every point's class predicted by its neighbors in Y.
  double error = 0;
  /// Number of misclassified points.
  std::int64_t misclassified = 0;
};

/// Cross-validated k-NN classification error of the embedding Y (N x d points, or precomputed)
/// with one integer label per point. Folds are stratified: each class is shuffled (seeded) and dealt
/// round-robin over the folds, the deal continuing from class to class (classes in increasing label
/// order), so folds differ in size by at most one and hold each class in proportion. Each point is
/// classified by majority vote of its k nearest training points (other folds) in Y, distance ties
/// by the smaller index; a tied vote goes to the tied class whose member is nearest.
/// O(N^2 d) time, O(N) memory per thread. \throws nldr::invalid_argument naming "Y", "labels"
/// (size != N), "folds" or "k".
///
/// \code
/// std::vector<int> labels = ...;                       // one per row of Y
/// double e = nldr::metrics::knn_error(Y, labels).error;     // 7-NN, 5-fold, seed 0
/// \endcode
template <MetricInput B>
KnnError knn_error(const B& Y, std::span<const int> labels, const KnnErrorOptions& options = {}) {
  using T = input_scalar_t<B>;
  static_assert(Real<T>, "nldr::metrics::knn_error: Y must be float or double");
  const detail::InputView<T> y(Y, "Y");
  const index_t n = y.rows();
  if (std::int64_t(labels.size()) != n)
    throw_invalid("labels", "labels has ", labels.size(), " entries but Y has N = ", n,
                  " rows: supply one label per point, in the same order");
  if (options.folds < 2 || options.folds > n)
    throw_invalid("folds", "folds = ", options.folds, " must be in 2..N = ", n, ": use 5 or fewer folds");
  // Stratified assignment of folds.
  std::vector<index_t> order(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) order[std::size_t(i)] = i;
  std::stable_sort(order.begin(), order.end(), [&](index_t a, index_t b) { return labels[a] < labels[b]; });
  Random random(options.seed);
  std::vector<index_t> fold(static_cast<std::size_t>(n));
  std::int64_t dealt = 0;
  for (std::size_t begin = 0; begin < order.size();) {
    std::size_t end = begin;
    while (end < order.size() && labels[order[end]] == labels[order[begin]]) ++end;
    for (std::size_t m = end - begin; m > 1; --m)  // Fisher-Yates within the class
      std::swap(order[begin + m - 1], order[begin + random.below(m)]);
    for (std::size_t p = begin; p < end; ++p) fold[std::size_t(order[p])] = index_t(dealt++ % options.folds);
    begin = end;
  }
  const index_t largest_fold = (n + options.folds - 1) / options.folds;
  if (options.k < 1 || options.k > n - largest_fold)
    throw_invalid("k", "k = ", options.k, " must be in 1..", n - largest_fold,
                  " (the smallest training set with ", options.folds, " folds of N = ", n,
                  " points): lower k or folds");

  std::vector<char> wrong(static_cast<std::size_t>(n), 0);
  // (label, count) in order of first appearance, one list per thread
  std::vector<std::vector<std::pair<int, index_t>>> vote_lists(static_cast<std::size_t>(max_threads()));
  const auto vote = [&](index_t i, std::span<const detail::RankKey<T>> nearest) {
    auto& votes = vote_lists[std::size_t(thread_index())];
    votes.clear();
    for (const auto& key : nearest) {
      const int label = labels[std::size_t(key.index)];
      auto it = std::find_if(votes.begin(), votes.end(), [&](const auto& v) { return v.first == label; });
      if (it == votes.end())
        votes.emplace_back(label, 1);
      else
        ++it->second;
    }
    auto best = votes.begin();  // strictly greater: ties go to the class that appeared first (nearest)
    for (auto it = votes.begin(); it != votes.end(); ++it)
      if (it->second > best->second) best = it;
    wrong[std::size_t(i)] = best->first != labels[std::size_t(i)];
  };
  const auto test_fold_out = [&](index_t i, std::span<T> row) {  // points of the test fold never vote
    for (index_t j = 0; j < n; ++j)
      if (fold[std::size_t(j)] == fold[std::size_t(i)]) row[std::size_t(j)] = std::numeric_limits<T>::infinity();
  };
  detail::for_each_nearest(y, options.k, vote, test_fold_out);
  KnnError result;
  for (const char w : wrong) result.misclassified += w;
  result.error = double(result.misclassified) / n;
  return result;
}

}  // namespace nldr::metrics
