// Literal O(N^2) references and test data for the exact selectors (knn.cpp, epsilon_ball.cpp).
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/random.hpp>
#include <nldr/core/types.hpp>
#include <nldr/neighbors/graph.hpp>
#include <nldr/neighbors/selector.hpp>

#include "catch.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace test_exact {

/// Every search backend a selector offers; each must give the reference's answer.
inline constexpr nldr::SearchBackend all_backends[] = {nldr::SearchBackend::kdtree, nldr::SearchBackend::brute_force,
                                                      nldr::SearchBackend::automatic};

/// The distance from row i of A to row j of B: the square root of sum_c (a_ic - b_jc)^2 accumulated
/// in T in coordinate order, the definition the library documents for the stored distances,
/// written out here independently.
template <class T>
T reference_distance(const nldr::Matrix<T>& A, int i, const nldr::Matrix<T>& B, int j) {
  T sum = 0;
  for (int c = 0; c < int(A.cols()); ++c) {
    const T diff = A(i, c) - B(j, c);
    sum += diff * diff;
  }
  return std::sqrt(sum);
}

/// For every point i, all other points j as (reference_distance, j), sorted by (distance, j).
template <class T>
std::vector<std::vector<std::pair<T, int>>> sorted_pairs(const nldr::Matrix<T>& X) {
  const int n = int(X.rows());
  std::vector<std::vector<std::pair<T, int>>> all(n);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j)
      if (j != i) all[i].emplace_back(reference_distance(X, i, X, j), j);
    std::sort(all[i].begin(), all[i].end());
  }
  return all;
}

/// Requires list i of `graph` to be exactly `expected[i]` (indices and distances, bitwise).
template <class T>
void require_lists(const nldr::NeighborGraph<T>& graph, const std::vector<std::vector<std::pair<T, int>>>& expected) {
  REQUIRE(graph.size() == int(expected.size()));
  for (int i = 0; i < graph.size(); ++i) {
    std::vector<std::pair<T, int>> got;
    const auto idx = graph.neighbors(i);
    const auto dist = graph.distances(i);
    for (std::size_t e = 0; e < idx.size(); ++e) got.emplace_back(dist[e], idx[e]);
    INFO("point " << i);
    REQUIRE(got == expected[i]);
  }
}

/// N x D points uniform in [0, 1)^D, scaled and shifted.
template <class T>
nldr::Matrix<T> uniform_points(int n, int d, std::uint64_t seed, double scale = 1.0, double offset = 0.0) {
  nldr::Random rng(seed);
  nldr::Matrix<T> X(n, d);
  for (int i = 0; i < n; ++i)
    for (int c = 0; c < d; ++c) X(i, c) = T(offset + scale * rng.uniform());
  return X;
}

/// Integer grid side^d in a scrambled order, followed by `copies` exact duplicates of random grid
/// points: many equal distances (ties at every rank) and zero distances.
template <class T>
nldr::Matrix<T> grid_with_duplicates(int side, int d, int copies, std::uint64_t seed) {
  int n_grid = 1;
  for (int c = 0; c < d; ++c) n_grid *= side;
  nldr::Random rng(seed);
  std::vector<int> order(n_grid);
  for (int i = 0; i < n_grid; ++i) order[i] = i;
  for (int i = n_grid - 1; i > 0; --i) std::swap(order[i], order[rng.below(std::uint64_t(i) + 1)]);
  nldr::Matrix<T> X(n_grid + copies, d);
  for (int i = 0; i < n_grid; ++i)
    for (int c = 0, code = order[i]; c < d; ++c, code /= side) X(i, c) = T(code % side);
  for (int i = 0; i < copies; ++i) X.row(n_grid + i) = X.row(int(rng.below(std::uint64_t(n_grid))));
  return X;
}

/// Checks that two graphs hold the same lists bit for bit: offsets, neighbors and distances.
template <class T>
void check_same_graph(const nldr::NeighborGraph<T>& a, const nldr::NeighborGraph<T>& b) {
  CHECK(std::vector<nldr::offset_t>(a.offsets().begin(), a.offsets().end()) ==
        std::vector<nldr::offset_t>(b.offsets().begin(), b.offsets().end()));
  CHECK(std::vector<nldr::index_t>(a.indices().begin(), a.indices().end()) ==
        std::vector<nldr::index_t>(b.indices().begin(), b.indices().end()));
  CHECK(std::vector<T>(a.distances().begin(), a.distances().end()) ==
        std::vector<T>(b.distances().begin(), b.distances().end()));
}

/// "parameter: message" of the nldr::invalid_argument that call() throws, or "no exception".
template <class Call>
std::string parameter_of(Call&& call) {
  try {
    call();
  } catch (const nldr::invalid_argument& e) {
    return e.parameter() + ": " + e.what();
  }
  return "no exception";
}

}  // namespace test_exact
