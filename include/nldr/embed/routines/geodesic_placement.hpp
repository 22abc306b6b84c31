// Isomap's out-of-sample placement (de Silva & Tenenbaum 2004; docs/methods/isomap.md): new point
// p's geodesic to training point j is g_p(j) = min over its neighbors q of |x_p - x_q| + G(q, j),
// and p lands at y_p = -1/2 L# (g_p^2 - mean_squared), every training point a landmark.
//
// The cost is the min-plus product, k N per new point, and reading the k rows of G it needs.
#pragma once

#include <nldr/core/parallel.hpp>
#include <nldr/core/types.hpp>
#include <nldr/neighbors/detail/exact_search.hpp>

#include <Eigen/Core>
#include <algorithm>
#include <array>
#include <cstdint>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

namespace nldr::detail {

/// best[j] = min(best[j], offset + row[j]): exact, so every vector width gives the same numbers.
template <Real S>
[[gnu::always_inline]] inline void min_plus_loop(double* best, const S* row, double offset, std::int64_t n) {
  for (std::int64_t j = 0; j < n; ++j) best[j] = std::min(best[j], offset + double(row[j]));
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// A baseline build vectorizes for SSE2 only (two doubles); AVX-512 does eight, picked at run time.
__attribute__((target("avx512f"))) inline void min_plus_avx512(double* best, const double* row, double offset,
                                                               std::int64_t n) {
  min_plus_loop(best, row, offset, n);
}
__attribute__((target("avx512f"))) inline void min_plus_avx512(double* best, const float* row, double offset,
                                                               std::int64_t n) {
  min_plus_loop(best, row, offset, n);
}
#endif

template <Real S>
inline void min_plus(double* best, const S* row, double offset, std::int64_t n) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  static const bool avx512 = __builtin_cpu_supports("avx512f");
  if (avx512) return min_plus_avx512(best, row, offset, n);
#endif
  min_plus_loop(best, row, offset, n);
}

}  // namespace nldr::detail

namespace nldr::routines {

/// Places the new points whose nearest training points are `lists` (row p: indices and distances,
/// nearest first) by geodesics through them and the triangulation (L# = pseudo_inverse, d x N;
/// mean_squared, N). G is N x N (float or double); `coordinates` are the training points' (N x d).
/// Each point's sum over j runs in eight lanes by j mod 8 (independent sums, so the loop vectorizes),
/// added in a fixed order: the result does not depend on the thread count or on the order in which
/// the points are visited.
template <Real T, Real S, Real L, Real C>
Matrix<T> place_by_geodesics(const nldr::detail::NeighborLists<L>& lists, const Matrix<S>& G,
                             const Matrix<C>& coordinates, const Eigen::MatrixXd& pseudo_inverse,
                             const Eigen::VectorXd& mean_squared) {
  constexpr std::int64_t lanes = 8;
  const std::int64_t points = std::int64_t(lists.offsets.size()) - 1, n = G.cols();
  const Eigen::Index d = pseudo_inverse.rows();
  Matrix<T> Y(points, d);
  if (points <= 0) return Y;
  // Visit the new points along a snake over a grid of their nearest training points' first two
  // coordinates: consecutive points then share most of their neighbors, whose rows of G are still
  // in cache, instead of reading k rows of G from memory per point.
  const Eigen::Index axes = std::min<Eigen::Index>(2, d);
  const Eigen::ArrayXd low = coordinates.leftCols(axes).template cast<double>().colwise().minCoeff().transpose();
  const Eigen::ArrayXd high = coordinates.leftCols(axes).template cast<double>().colwise().maxCoeff().transpose();
  const double cells = std::max(1.0, std::floor(std::pow(double(n), 1.0 / double(axes)) / 2));
  auto cell = [&](std::int64_t p, Eigen::Index axis) {
    const double y = double(coordinates(lists.indices[lists.offsets[p]], axis));
    const double span = high[axis] - low[axis];
    return span > 0 ? std::min(cells - 1, std::floor((y - low[axis]) / span * cells)) : 0.0;
  };
  std::vector<std::pair<double, std::int64_t>> order(static_cast<std::size_t>(points));
  for (std::int64_t p = 0; p < points; ++p) {
    const double row = cell(p, 0), column = axes > 1 ? cell(p, 1) : 0.0;
    order[std::size_t(p)] = {row * cells + (std::fmod(row, 2.0) == 0 ? column : cells - 1 - column), p};
  }
  std::sort(order.begin(), order.end());

  const Eigen::MatrixXd columns_of_l = pseudo_inverse.transpose();  // N x d: column c contiguous over j
  const std::int64_t threads = std::max(1, max_threads());
  parallel_for(0, threads, [&](std::int64_t part) {
    std::vector<double> best(static_cast<std::size_t>(n));
    for (std::int64_t at = points * part / threads; at < points * (part + 1) / threads; ++at) {
      const std::int64_t p = order[std::size_t(at)].second;
      std::fill(best.begin(), best.end(), std::numeric_limits<double>::infinity());
      for (offset_t e = lists.offsets[p]; e < lists.offsets[p + 1]; ++e)
        nldr::detail::min_plus(best.data(), G.row(lists.indices[e]).data(), double(lists.distances[e]), n);
      const double* mean = mean_squared.data();
      for (Eigen::Index c = 0; c < d; ++c) {
        const double* l = columns_of_l.col(c).data();
        std::array<double, lanes> lane{};
        std::int64_t j = 0;
        for (; j + lanes <= n; j += lanes)
          for (std::int64_t k = 0; k < lanes; ++k) lane[k] += l[j + k] * (best[j + k] * best[j + k] - mean[j + k]);
        for (; j < n; ++j) lane[j % lanes] += l[j] * (best[j] * best[j] - mean[j]);
        Y(p, c) = T(-0.5 * (((lane[0] + lane[1]) + (lane[2] + lane[3])) + ((lane[4] + lane[5]) + (lane[6] + lane[7]))));
      }
    }
  }, 1);
  return Y;
}

}  // namespace nldr::routines
