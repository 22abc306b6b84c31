// Literal, brute-force reference implementations of the quality measures, written from the
// definitions (docs/algorithms.md sec. 4 and the papers cited in the headers) with explicit rank
// matrices, explicit neighborhood sets and the explicit co-ranking matrix. Slow (O(N^3) in places)
// and simple on purpose; only for small N in tests. Nothing here calls nldr::metrics.
#pragma once

#include <nldr/core/types.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <set>
#include <vector>

namespace reference {

using Ranks = std::vector<std::vector<int>>;  // ranks[i][j], 1..N-1, ranks[i][i] = 0

/// Squared Euclidean distance matrix, summed in coordinate order in T (the documented rule).
template <class T>
std::vector<std::vector<T>> squared_distances(const nldr::Matrix<T>& X) {
  const auto n = std::size_t(X.rows());
  std::vector<std::vector<T>> d(n, std::vector<T>(n));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      T s = 0;
      for (Eigen::Index c = 0; c < X.cols(); ++c) {
        const T diff = X(Eigen::Index(i), c) - X(Eigen::Index(j), c);
        s += diff * diff;
      }
      d[i][j] = s;
    }
  return d;
}

/// rank of j from i = 1 + #{l != i, j : d[i][l] < d[i][j] or (d[i][l] == d[i][j] and l < j)}.
template <class T>
Ranks ranks(const std::vector<std::vector<T>>& d) {
  const std::size_t n = d.size();
  Ranks r(n, std::vector<int>(n, 0));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      if (j == i) continue;
      int rank = 1;
      for (std::size_t l = 0; l < n; ++l)
        if (l != i && l != j && (d[i][l] < d[i][j] || (d[i][l] == d[i][j] && l < j))) ++rank;
      r[i][j] = rank;
    }
  return r;
}

/// Explicit co-ranking matrix, q[k][l] for k, l in 1..N-1 (row/column 0 unused).
inline std::vector<std::vector<std::int64_t>> coranking(const Ranks& rho, const Ranks& r) {
  const std::size_t n = rho.size();
  std::vector<std::vector<std::int64_t>> q(n, std::vector<std::int64_t>(n, 0));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      if (i != j) ++q[std::size_t(rho[i][j])][std::size_t(r[i][j])];
  return q;
}

inline double q_nx(const std::vector<std::vector<std::int64_t>>& q, int K) {
  const double n = double(q.size());
  std::int64_t sum = 0;
  for (int k = 1; k <= K; ++k)
    for (int l = 1; l <= K; ++l) sum += q[std::size_t(k)][std::size_t(l)];
  return double(sum) / (K * n);
}
inline double r_nx(const std::vector<std::vector<std::int64_t>>& q, int K) {
  const double n = double(q.size());
  return ((n - 1) * q_nx(q, K) - K) / (n - 1 - K);
}
/// B_NX from the co-ranking matrix: upper triangle (r < rho: intrusions) minus lower, inside K x K.
inline double b_nx(const std::vector<std::vector<std::int64_t>>& q, int K) {
  const double n = double(q.size());
  std::int64_t intr = 0, extr = 0;
  for (int k = 1; k <= K; ++k)
    for (int l = 1; l <= K; ++l) {
      if (l < k) intr += q[std::size_t(k)][std::size_t(l)];
      if (k < l) extr += q[std::size_t(k)][std::size_t(l)];
    }
  return double(intr - extr) / (K * n);
}

/// The K nearest of i by the ranks (explicit set).
inline std::set<int> neighborhood(const Ranks& ranks, std::size_t i, int K) {
  std::set<int> s;
  for (std::size_t j = 0; j < ranks.size(); ++j)
    if (j != i && ranks[i][j] <= K) s.insert(int(j));
  return s;
}

/// Venna & Kaski: 1 - 2/G_K sum_i sum_{j in M_K(i) \ N_K(i)} (rho_ij - K); continuity swaps.
inline double trustworthiness(const Ranks& rho, const Ranks& r, int K) {
  const double n = double(rho.size());
  double sum = 0;
  for (std::size_t i = 0; i < rho.size(); ++i) {
    const auto nx = neighborhood(rho, i, K), my = neighborhood(r, i, K);
    for (int j : my)
      if (!nx.count(j)) sum += rho[i][std::size_t(j)] - K;
  }
  const double g = K < n / 2 ? n * K * (2 * n - 3 * K - 1) : n * (n - K) * (n - K - 1);
  return 1 - 2 * sum / g;
}

/// Mean relative rank errors: the sums over the X-neighborhoods N_K(i) and the Y-neighborhoods M_K(i)
/// of |rho - r|, each divided by the rank in the neighborhood's own space (Lee & Verleysen 2007) or in
/// the other space, normalized by H_K = N sum_k |N - 2k| / k.
inline std::pair<double, double> mrre(const Ranks& rho, const Ranks& r, int K, bool same_space) {
  const double n = double(rho.size());
  double h = 0;
  for (int k = 1; k <= K; ++k) h += std::abs(n - 2 * k) / k;
  h *= n;
  double x = 0, y = 0;
  for (std::size_t i = 0; i < rho.size(); ++i) {
    for (int j : neighborhood(rho, i, K)) {
      const double x_rank = rho[i][std::size_t(j)], y_rank = r[i][std::size_t(j)];
      x += std::abs(x_rank - y_rank) / (same_space ? x_rank : y_rank);
    }
    for (int j : neighborhood(r, i, K)) {
      const double x_rank = rho[i][std::size_t(j)], y_rank = r[i][std::size_t(j)];
      y += std::abs(x_rank - y_rank) / (same_space ? y_rank : x_rank);
    }
  }
  return {x / h, y / h};
}

/// Roy 2015, eq. 4.2, literally.
inline double konig(const Ranks& rho, const Ranks& r, int k1, int k2) {
  double total = 0;
  for (std::size_t i = 0; i < rho.size(); ++i)
    for (std::size_t j = 0; j < rho.size(); ++j) {
      if (j == i || rho[i][j] > k1) continue;
      if (r[i][j] == rho[i][j]) total += 3;
      else if (r[i][j] <= k1) total += 2;
      else if (r[i][j] <= k2) total += 1;
    }
  return total / (3.0 * k1 * double(rho.size()));
}

/// Plain Pearson correlation, two-pass (mean first), in long double.
inline double pearson(const std::vector<double>& a, const std::vector<double>& b) {
  long double ma = 0, mb = 0;
  for (std::size_t p = 0; p < a.size(); ++p) ma += a[p], mb += b[p];
  ma /= a.size();
  mb /= b.size();
  long double sab = 0, saa = 0, sbb = 0;
  for (std::size_t p = 0; p < a.size(); ++p) {
    sab += (a[p] - ma) * (b[p] - mb);
    saa += (a[p] - ma) * (a[p] - ma);
    sbb += (b[p] - mb) * (b[p] - mb);
  }
  return double(sab / std::sqrt(saa * sbb));
}

/// Average ranks by counting: 1 + #less + (#equal - 1) / 2.
inline std::vector<double> average_ranks(const std::vector<double>& v) {
  std::vector<double> ranks(v.size());
  for (std::size_t p = 0; p < v.size(); ++p) {
    double less = 0, equal = 0;
    for (double w : v) less += w < v[p], equal += w == v[p];
    ranks[p] = 1 + less + (equal - 1) / 2;
  }
  return ranks;
}

/// Euclidean distances of all pairs i < j in row-major pair order.
template <class T>
std::vector<double> pair_distances(const nldr::Matrix<T>& X) {
  const auto squared = squared_distances(X);
  std::vector<double> d;
  for (std::size_t i = 0; i < squared.size(); ++i)
    for (std::size_t j = i + 1; j < squared.size(); ++j) d.push_back(std::sqrt(double(squared[i][j])));
  return d;
}

/// Geodesics along the union-symmetrized k-nearest-neighbor graph (neighbors by the rank rule:
/// smaller distance, then smaller index), edge length the distance, by Floyd-Warshall: O(N^3).
/// Infinite between components.
template <class T>
std::vector<std::vector<double>> knn_geodesics(const std::vector<std::vector<T>>& squared, int k) {
  const std::size_t n = squared.size();
  const auto rho = ranks(squared);
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<std::vector<double>> g(n, std::vector<double>(n, inf));
  for (std::size_t i = 0; i < n; ++i) {
    g[i][i] = 0;
    for (std::size_t j = 0; j < n; ++j)
      if (j != i && rho[i][j] <= k) g[i][j] = g[j][i] = std::sqrt(double(squared[i][j]));
  }
  for (std::size_t m = 0; m < n; ++m)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) g[i][j] = std::min(g[i][j], g[i][m] + g[m][j]);
  return g;
}

/// The entries i < j of a distance matrix in row-major pair order.
inline std::vector<double> upper_triangle(const std::vector<std::vector<double>>& d) {
  std::vector<double> values;
  for (std::size_t i = 0; i < d.size(); ++i)
    for (std::size_t j = i + 1; j < d.size(); ++j) values.push_back(d[i][j]);
  return values;
}

}  // namespace reference
