// Shared pieces of the pruning-selector tests: an independent brute-force candidate selector,
// and the kept pairs of a result as a set, for comparison with literal O(N^2) references.
#pragma once

#include <nldr/core/types.hpp>
#include <nldr/neighbors/graph.hpp>

#include "exact_reference.hpp"

#include <Eigen/Core>
#include <algorithm>
#include <set>
#include <utility>
#include <vector>

namespace test_pruning {

using Pair = std::pair<int, int>;  // (smaller, larger)

/// Candidate selector written for the tests: the k nearest other points of every point by a
/// full sort of all N - 1 distances (test_exact::sorted_pairs), as a directed NeighborGraph.
struct BruteCandidates {
  int k = 10;
  template <class Derived>
  nldr::NeighborGraph<typename Derived::Scalar> operator()(const Eigen::MatrixBase<Derived>& X) const {
    using T = typename Derived::Scalar;
    const auto all = test_exact::sorted_pairs<T>(X.eval());
    std::vector<std::vector<std::pair<nldr::index_t, T>>> lists(all.size());
    for (std::size_t i = 0; i < all.size(); ++i)
      for (int r = 0; r < k; ++r) lists[i].emplace_back(all[i][r].second, all[i][r].first);
    return nldr::NeighborGraph<T>::from_lists(lists);
  }
};

/// N_k(i) for every i: indices of the k nearest other points, nearest first.
template <class T>
std::vector<std::vector<int>> nearest(const nldr::Matrix<T>& X, int k) {
  const auto all = test_exact::sorted_pairs<T>(X);
  std::vector<std::vector<int>> result(all.size());
  for (std::size_t i = 0; i < all.size(); ++i)
    for (int r = 0; r < k; ++r) result[i].push_back(all[i][r].second);
  return result;
}

/// Candidate pairs {i, j}: j in N(i) or i in N(j).
inline std::set<Pair> candidate_pairs(const std::vector<std::vector<int>>& lists) {
  std::set<Pair> pairs;
  for (int i = 0; i < int(lists.size()); ++i)
    for (int j : lists[i]) pairs.insert({std::min(i, j), std::max(i, j)});
  return pairs;
}

inline bool contains(const std::vector<int>& list, int x) { return std::find(list.begin(), list.end(), x) != list.end(); }

/// The pairs of a result graph; requires it to be symmetric.
template <class T>
std::set<Pair> kept_pairs(const nldr::NeighborGraph<T>& graph) {
  REQUIRE(graph.is_symmetric());
  std::set<Pair> pairs;
  for (int i = 0; i < graph.size(); ++i)
    for (int j : graph.neighbors(i)) {
      const auto back = graph.neighbors(j);
      REQUIRE(std::find(back.begin(), back.end(), i) != back.end());
      pairs.insert({std::min(i, j), std::max(i, j)});
    }
  return pairs;
}

/// The literal min_neighbors = 1 fallback on top of a rule's kept pairs: points in index order;
/// one without any pair gets its nearest candidate lists[i][0].
inline std::set<Pair> with_fallback(std::set<Pair> pairs, const std::vector<std::vector<int>>& lists) {
  for (int i = 0; i < int(lists.size()); ++i) {
    bool has_pair = false;
    for (const auto& [a, b] : pairs) has_pair = has_pair || a == i || b == i;
    if (!has_pair) pairs.insert({std::min(i, lists[i][0]), std::max(i, lists[i][0])});
  }
  return pairs;
}

/// Points in a few small clusters plus sparse background in [0, 1)^3: neighborhoods of very
/// different density, so every rule prunes a fair share of the candidates.
template <class T>
nldr::Matrix<T> clustered_points(int n, std::uint64_t seed) {
  nldr::Random rng(seed);
  nldr::Matrix<T> X(n, 3);
  for (int i = 0; i < n; ++i) {
    const int cluster = int(rng.below(4));
    for (int c = 0; c < 3; ++c)
      X(i, c) = cluster == 3 ? T(rng.uniform()) : T(0.25 * (cluster + 1) + 0.04 * rng.normal() + 0.1 * c * cluster);
  }
  return X;
}

}  // namespace test_pruning
