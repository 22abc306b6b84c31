// Isomap's out-of-sample placement (de Silva & Tenenbaum 2004; docs/methods/isomap.md): new point
// p's geodesic to training point j is g_p(j) = min over its neighbors q of |x_p - x_q| + G(q, j),
// and p lands at y_p = -1/2 L# (g_p^2 - mean_squared), every training point a landmark.
//
// The cost is the min-plus product, k N per new point, and reading the k rows of G it needs.
#pragma once

#include <nldr/core/cpu.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/types.hpp>
#include <nldr/neighbors/detail/exact_search.hpp>

#include <Eigen/Core>
#include <algorithm>
#include <array>
#include <cstdint>
#include <cmath>
#include <utility>
#include <vector>

namespace nldr::detail {

inline constexpr std::int64_t kPlacementLanes = 8;

/// best[j] = min(best[j], offset + row[j]), or = offset + row[j] for the first row: exact, so every
/// vector width gives the same numbers.
template <Real S>
[[gnu::always_inline]] inline void min_plus_loop(double* best, const S* row, double offset, std::int64_t n,
                                                 bool first) {
  if (first)  // two loops, not a test per element: GCC's -O2 does not unswitch loops
    for (std::int64_t j = 0; j < n; ++j) best[j] = offset + double(row[j]);
  else
    for (std::int64_t j = 0; j < n; ++j) best[j] = std::min(best[j], offset + double(row[j]));
}

/// lane[j % 8] += l[j] * (g[j]^2 - mean[j]), each lane over its j in increasing order.
[[gnu::always_inline]] inline void add_squares_loop(double* lane, const double* l, const double* g, const double* mean,
                                                    std::int64_t n) {
  std::int64_t j = 0;
  for (; j + kPlacementLanes <= n; j += kPlacementLanes)
    for (std::int64_t k = 0; k < kPlacementLanes; ++k) lane[k] += l[j + k] * (g[j + k] * g[j + k] - mean[j + k]);
  for (; j < n; ++j) lane[j % kPlacementLanes] += l[j] * (g[j] * g[j] - mean[j]);
}

#if defined(NLDR_X86_KERNELS)
// A baseline build vectorizes for SSE2 at most (GCC's -O2 hardly at all); AVX-512 does eight
// doubles, picked at run time, without fused multiply-adds so that both paths round alike.
// _mm512_min_pd(a, b) is (a < b ? a : b) = std::min(b, a).
NLDR_NO_FP_CONTRACT_BEGIN
__attribute__((target("avx512f"))) inline __m512d widened(const double* row) { return _mm512_loadu_pd(row); }
__attribute__((target("avx512f"))) inline __m512d widened(const float* row) {
  return _mm512_cvtps_pd(_mm256_loadu_ps(row));
}
template <Real S>
__attribute__((target("avx512f"))) void min_plus_avx512(double* best, const S* row, double offset, std::int64_t n,
                                                        bool first) {
  const __m512d shift = _mm512_set1_pd(offset);
  std::int64_t j = 0;
  if (first)
    for (; j + 8 <= n; j += 8) _mm512_storeu_pd(best + j, _mm512_add_pd(shift, widened(row + j)));
  else
    for (; j + 8 <= n; j += 8)
      _mm512_storeu_pd(best + j, _mm512_min_pd(_mm512_add_pd(shift, widened(row + j)), _mm512_loadu_pd(best + j)));
  min_plus_loop(best + j, row + j, offset, n - j, first);
}
__attribute__((target("avx512f"))) inline void add_squares_avx512(double* lane, const double* l, const double* g,
                                                                  const double* mean, std::int64_t n) {
  __m512d sum = _mm512_loadu_pd(lane);
  for (std::int64_t j = 0; j < n; j += 8) {  // the tail masked, not scalar: no compiler may fuse it
    const auto live = __mmask8(n - j >= 8 ? 0xFFu : (1u << (n - j)) - 1);
    const __m512d x = _mm512_maskz_loadu_pd(live, g + j);
    const __m512d square = _mm512_sub_pd(_mm512_mul_pd(x, x), _mm512_maskz_loadu_pd(live, mean + j));
    sum = _mm512_mask_add_pd(sum, live, sum, _mm512_mul_pd(_mm512_maskz_loadu_pd(live, l + j), square));
  }
  _mm512_storeu_pd(lane, sum);
}
NLDR_NO_FP_CONTRACT_END
#endif

template <Real S>
inline void min_plus(double* best, const S* row, double offset, std::int64_t n, bool first) {
#if defined(NLDR_X86_KERNELS)
  if (has_avx512()) return min_plus_avx512(best, row, offset, n, first);
#endif
  min_plus_loop(best, row, offset, n, first);
}

inline void add_squares(double* lane, const double* l, const double* g, const double* mean, std::int64_t n) {
#if defined(NLDR_X86_KERNELS)
  if (has_avx512()) return add_squares_avx512(lane, l, g, mean, n);
#endif
  add_squares_loop(lane, l, g, mean, n);
}

}  // namespace nldr::detail

namespace nldr::routines {

/// Places the new points whose nearest training points are `lists` (row p: indices and distances,
/// nearest first; at least one each, as TrainingNeighbors gives) by geodesics through them and the
/// triangulation (L# = pseudo_inverse, d x N; mean_squared, N). G is N x N (float or double);
/// `coordinates` are the training points' (N x d). Each point's sum over j runs in eight lanes by
/// j mod 8 (independent sums, so the loop vectorizes), added in a fixed order: the result does not
/// depend on the thread count, on the order in which the points are visited, or on whether the
/// AVX-512 kernels or the scalar loops ran.
template <Real T, Real S, Real L, Real C>
Matrix<T> place_by_geodesics(const nldr::detail::NeighborLists<L>& lists, const Matrix<S>& G,
                             const Matrix<C>& coordinates, const Eigen::MatrixXd& pseudo_inverse,
                             const Eigen::VectorXd& mean_squared) {
  constexpr std::int64_t lanes = nldr::detail::kPlacementLanes;
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

  // The points go in batches of consecutive ones (along the snake) and the columns j in tiles: a
  // tile of a point's best stays in L1, and a tile of a shared neighbor's row of G is read from
  // memory once per batch rather than once per point. Each lane sums its j in increasing order
  // whatever the tile, so the result is that of one pass over j.
  constexpr std::int64_t batch = 32, tile = 512;
  static_assert(tile % lanes == 0);
  const Eigen::MatrixXd columns_of_l = pseudo_inverse.transpose();  // N x d: column c contiguous over j
  const double* mean = mean_squared.data();
  const std::int64_t threads = std::max(1, max_threads());
  parallel_for(0, threads, [&](std::int64_t part) {
    std::vector<double> best(static_cast<std::size_t>(tile));
    std::vector<std::array<double, lanes>> sums(static_cast<std::size_t>(batch * d));
    const std::int64_t last = points * (part + 1) / threads;
    for (std::int64_t first = points * part / threads; first < last; first += batch) {
      const std::int64_t size = std::min(batch, last - first);
      std::fill(sums.begin(), sums.end(), std::array<double, lanes>{});
      for (std::int64_t j0 = 0; j0 < n; j0 += tile) {
        const std::int64_t width = std::min(tile, n - j0);
        for (std::int64_t b = 0; b < size; ++b) {
          const std::int64_t p = order[std::size_t(first + b)].second;
          for (offset_t e = lists.offsets[p]; e < lists.offsets[p + 1]; ++e)
            nldr::detail::min_plus(best.data(), G.row(lists.indices[e]).data() + j0, double(lists.distances[e]), width,
                                   e == lists.offsets[p]);
          for (Eigen::Index c = 0; c < d; ++c)
            nldr::detail::add_squares(sums[std::size_t(b * d + c)].data(), columns_of_l.col(c).data() + j0, best.data(),
                                      mean + j0, width);
        }
      }
      for (std::int64_t b = 0; b < size; ++b)
        for (Eigen::Index c = 0; c < d; ++c) {
          const std::array<double, lanes>& lane = sums[std::size_t(b * d + c)];
          Y(order[std::size_t(first + b)].second, c) =
              T(-0.5 * (((lane[0] + lane[1]) + (lane[2] + lane[3])) + ((lane[4] + lane[5]) + (lane[6] + lane[7]))));
        }
    }
  }, 1);
  return Y;
}

}  // namespace nldr::routines
