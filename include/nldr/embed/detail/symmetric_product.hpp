// y = A x for a dense symmetric N x N matrix stored in full (float or double, row-major), the
// product that Lanczos repeats on classical MDS's and Isomap's B (dense_top_eigen.hpp). It is bound
// by memory traffic (about 4.5 GB/s per core on the 2-core machine: 1.1 s per product of a float
// 50,000 x 50,000 matrix read whole), so it reads only the upper triangle, A(i, j) with j >= i, and
// uses each element twice: in row i's sum and in column j's. Half the bytes per product.
//
// Rows go in fixed blocks of about equal triangle area. Block b sums its rows' upper parts and adds
// A(i, j) x_i to a column-sum buffer of its own; the buffers are then added column by column in
// block order. Neither the blocks nor any sum's order depends on the thread count, so neither does
// the result. Inside a row, the sum runs in eight lanes by position mod 8 (AVX-512 where the CPU
// has it, the same operations one lane at a time otherwise: the same numbers either way).
#pragma once

#include <nldr/core/cpu.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/types.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

namespace nldr::detail {

/// lane[t % 8] += u[t] x[t] and z[t] += u[t] x_i for t < m: one row's part right of the diagonal
/// (u = A(i, i+1 ..), x and z from column i + 1 on), each lane in increasing t.
template <Real S>
[[gnu::always_inline]] inline void upper_row_loop(const S* u, const double* x, double* z, double x_i, std::int64_t m,
                                                  double* lane) {
  for (std::int64_t t = 0; t < m; ++t) {
    const double a = double(u[t]);
    lane[t % 8] += a * x[t];
    z[t] += a * x_i;
  }
}

#if defined(NLDR_X86_KERNELS)
NLDR_NO_FP_CONTRACT_BEGIN
/// Eight elements of u from u + t, in double; the `live` ones, zeros elsewhere.
__attribute__((target("avx512f"))) inline __m512d upper_elements(const double* u, __mmask8 live) {
  return _mm512_maskz_loadu_pd(live, u);
}
__attribute__((target("avx512f"))) inline __m512d upper_elements(const float* u, __mmask8 live) {
  return _mm512_cvtps_pd(_mm512_castps512_ps256(_mm512_maskz_loadu_ps(__mmask16(live), u)));
}
/// upper_row_loop with eight lanes per instruction, the tail under a mask.
template <Real S>
__attribute__((target("avx512f"))) void upper_row_avx512(const S* u, const double* x, double* z, double x_i,
                                                         std::int64_t m, double* lane) {
  __m512d sum = _mm512_loadu_pd(lane);
  const __m512d scale = _mm512_set1_pd(x_i);
  for (std::int64_t t = 0; t < m; t += 8) {
    const auto live = __mmask8(m - t >= 8 ? 0xFFu : (1u << (m - t)) - 1);
    const __m512d a = upper_elements(u + t, live);
    sum = _mm512_add_pd(sum, _mm512_mul_pd(a, _mm512_maskz_loadu_pd(live, x + t)));
    _mm512_mask_storeu_pd(z + t, live, _mm512_add_pd(_mm512_maskz_loadu_pd(live, z + t), _mm512_mul_pd(a, scale)));
  }
  _mm512_storeu_pd(lane, sum);
}
NLDR_NO_FP_CONTRACT_END
#endif

template <Real S>
inline void upper_row(const S* u, const double* x, double* z, double x_i, std::int64_t m, double* lane) {
#if defined(NLDR_X86_KERNELS)
  if (has_avx512()) return upper_row_avx512(u, x, z, x_i, m, lane);
#endif
  upper_row_loop(u, x, z, x_i, m, lane);
}

/// Spectra operator y = A x for a dense symmetric row-major A stored as float or double, accumulated
/// in double, reading A's upper triangle only (A is taken to be symmetric; its lower triangle is
/// never read).
template <Real S>
class ParallelSymProduct {
 public:
  using Scalar = double;
  explicit ParallelSymProduct(const Matrix<S>& matrix) : matrix_(matrix) {
    // Blocks of about equal area: row i holds n - i elements of the triangle.
    const std::int64_t n = matrix.rows(), blocks = std::min<std::int64_t>(n, max_blocks);
    const double share = double(n) * double(n + 1) / 2 / double(std::max<std::int64_t>(blocks, 1));
    starts_.push_back(0);
    double area = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      area += double(n - i);
      if (area >= share * double(starts_.size()) && std::int64_t(starts_.size()) < blocks) starts_.push_back(i + 1);
    }
    if (starts_.back() != n) starts_.push_back(n);
    column_sums_.resize(std::size_t(starts_.size() - 1) * std::size_t(n));
  }
  Eigen::Index rows() const { return matrix_.rows(); }
  Eigen::Index cols() const { return matrix_.cols(); }
  void perform_op(const double* x, double* y) const {
    const std::int64_t n = matrix_.rows(), blocks = std::int64_t(starts_.size()) - 1;
    parallel_for(
        0, blocks,
        [&](std::int64_t b) {
          double* z = column_sums_.data() + b * n;
          std::fill(z + starts_[b], z + n, 0.0);
          for (std::int64_t i = starts_[b]; i < starts_[b + 1]; ++i) {
            std::array<double, 8> lane{};
            upper_row(&matrix_(i, i) + 1, x + i + 1, z + i + 1, x[i], n - i - 1, lane.data());
            y[i] = double(matrix_(i, i)) * x[i] +
                   (((lane[0] + lane[1]) + (lane[2] + lane[3])) + ((lane[4] + lane[5]) + (lane[6] + lane[7])));
          }
        },
        1);
    // Column j's entries left of the diagonal: the column sums of the blocks that start at or
    // before row j - 1, in block order.
    parallel_for(
        0, n,
        [&](std::int64_t j) {
          double sum = 0;
          for (std::int64_t b = 0; b < blocks && starts_[b] < j; ++b) sum += column_sums_[std::size_t(b * n + j)];
          y[j] += sum;
        },
        4096);
  }

 private:
  /// More blocks than threads balance the load; each costs N doubles of column sums.
  static constexpr std::int64_t max_blocks = 64;
  const Matrix<S>& matrix_;
  std::vector<std::int64_t> starts_;            ///< block b holds rows starts_[b] .. starts_[b + 1]
  mutable std::vector<double> column_sums_;     ///< blocks x N, block b's from column starts_[b]
};

}  // namespace nldr::detail
