// Products of a tall N x D matrix (PCA's centered data) on an optimized BLAS: OpenBLAS's GEMM and
// SYRK when nldr::openblas is linked (NLDR_HAVE_OPENBLAS: kernels chosen at run time for the CPU),
// Eigen's products otherwise, in the scalar of the data (float for float data: twice the speed
// and half the memory of double).
//
// Thread count: OpenBLAS's own threaded drivers give results that differ in the last bits between
// 1 and 2 threads (measured with OpenBLAS 0.3.21), so the BLAS runs single-threaded
// (SingleThreadedBlas) on fixed blocks of `block_rows` rows, the blocks spread over nldr's threads
// (core/parallel.hpp). A product A B writes each block's rows on its own; a sum over the rows
// (A^T B, A^T A) takes each block's product in T and adds them in double in block order, so that
// the result is the same for every thread count, and the rounding of a float sum grows with the
// block size, not with N.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/single_threaded_blas.hpp>
#include <nldr/core/types.hpp>

#include <Eigen/Core>
#if defined(NLDR_HAVE_OPENBLAS)
#include <cblas.h>
#endif
#include <algorithm>
#include <climits>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace nldr::detail {

/// Rows per block of the products below (2048 x 784 floats: 6 MiB of a Fashion-MNIST block).
inline constexpr Eigen::Index block_rows = 2048;

/// c (m x n) = op(a) b for row-major a, b, c (strides lda, ldb, ldc): op(a) = a^T (a stored
/// k x m) when transpose_a, else a (m x k). One BLAS call on the calling thread.
template <Real T>
void block_product(bool transpose_a, Eigen::Index m, Eigen::Index n, Eigen::Index k, const T* a, Eigen::Index lda,
                   const T* b, Eigen::Index ldb, T* c, Eigen::Index ldc) {
#if defined(NLDR_HAVE_OPENBLAS)
  if (std::max({m, n, k, lda, ldb, ldc}) > INT_MAX)
    throw_invalid("X", "X has a dimension of ", std::max({m, n, k, lda, ldb, ldc}),
                  ", more than the BLAS's 32-bit int holds: split the data or build without nldr::openblas");
  const auto ta = transpose_a ? CblasTrans : CblasNoTrans;
  if constexpr (std::is_same_v<T, float>)
    cblas_sgemm(CblasRowMajor, ta, CblasNoTrans, int(m), int(n), int(k), 1.0f, a, int(lda), b, int(ldb), 0.0f, c,
                int(ldc));
  else
    cblas_dgemm(CblasRowMajor, ta, CblasNoTrans, int(m), int(n), int(k), 1.0, a, int(lda), b, int(ldb), 0.0, c,
                int(ldc));
#else
  using Map = Eigen::Map<const Matrix<T>, 0, Eigen::OuterStride<>>;
  Eigen::Map<Matrix<T>, 0, Eigen::OuterStride<>> out(c, m, n, Eigen::OuterStride<>(ldc));
  const Map a_map(a, transpose_a ? k : m, transpose_a ? m : k, Eigen::OuterStride<>(lda));
  const Map b_map(b, k, n, Eigen::OuterStride<>(ldb));
  if (transpose_a)
    out.noalias() = a_map.transpose() * b_map;
  else
    out.noalias() = a_map * b_map;
#endif
}

/// a b for row-major a (m x k) and b (k x n): the rows of a in blocks, one block per task.
template <Real T>
Matrix<T> product(const Matrix<T>& a, const Matrix<T>& b) {
  Matrix<T> c(a.rows(), b.cols());
  const std::int64_t blocks = (a.rows() + block_rows - 1) / block_rows;
  const SingleThreadedBlas blas_threads;
  parallel_for(
      0, blocks,
      [&](std::int64_t block) {
        const Eigen::Index start = block * block_rows, rows = std::min(block_rows, a.rows() - start);
        block_product(false, rows, b.cols(), a.cols(), a.data() + start * a.cols(), a.cols(), b.data(), b.cols(),
                      c.data() + start * c.cols(), c.cols());
      },
      1);
  return c;
}

/// Sum over the row blocks of a (and b) of block_sum(start, rows, partial), which writes the
/// block's m x n partial in T: computed a wave of blocks at a time (as many as 64 MiB of partials
/// hold, at least one per thread: few parallel regions), added in double in block order.
template <Real T, class BlockSum>
Eigen::MatrixXd sum_over_row_blocks(Eigen::Index total_rows, Eigen::Index m, Eigen::Index n, BlockSum&& block_sum) {
  Eigen::MatrixXd sum = Eigen::MatrixXd::Zero(m, n);
  const std::int64_t blocks = (total_rows + block_rows - 1) / block_rows;
  const std::int64_t partial_bytes = std::max<std::int64_t>(1, std::int64_t(m) * n * std::int64_t(sizeof(T)));
  const std::int64_t wave = std::max<std::int64_t>({1, max_threads(), (std::int64_t(64) << 20) / partial_bytes});
  std::vector<Matrix<T>> partials(std::size_t(std::min(wave, blocks)), Matrix<T>(m, n));
  const SingleThreadedBlas blas_threads;
  for (std::int64_t first = 0; first < blocks; first += wave) {
    const std::int64_t count = std::min(wave, blocks - first);
    parallel_for(
        0, count,
        [&](std::int64_t j) {
          const Eigen::Index start = (first + j) * block_rows;
          block_sum(start, std::min(block_rows, total_rows - start), partials[std::size_t(j)]);
        },
        1);
    for (std::int64_t j = 0; j < count; ++j) sum += partials[std::size_t(j)].template cast<double>();
  }
  return sum;
}

/// a^T b in double for row-major a (k x m) and b (k x n).
template <Real T>
Eigen::MatrixXd transposed_product(const Matrix<T>& a, const Matrix<T>& b) {
  return sum_over_row_blocks<T>(a.rows(), a.cols(), b.cols(), [&](Eigen::Index start, Eigen::Index rows, Matrix<T>& partial) {
    block_product(true, a.cols(), b.cols(), rows, a.data() + start * a.cols(), a.cols(), b.data() + start * b.cols(),
                  b.cols(), partial.data(), partial.cols());
  });
}

/// a^T a in double for row-major a (k x m): each block's Gram matrix by SYRK (half the work of a
/// product; its upper triangle), the full symmetric sum returned.
template <Real T>
Eigen::MatrixXd gram(const Matrix<T>& a) {
  const Eigen::Index m = a.cols();
  const Eigen::MatrixXd upper = sum_over_row_blocks<T>(a.rows(), m, m, [&](Eigen::Index start, Eigen::Index rows, Matrix<T>& partial) {
    const T* rows_data = a.data() + start * m;
#if defined(NLDR_HAVE_OPENBLAS)
    partial.setZero();  // SYRK leaves the lower triangle as it is
    if constexpr (std::is_same_v<T, float>)
      cblas_ssyrk(CblasRowMajor, CblasUpper, CblasTrans, int(m), int(rows), 1.0f, rows_data, int(m), 0.0f,
                  partial.data(), int(m));
    else
      cblas_dsyrk(CblasRowMajor, CblasUpper, CblasTrans, int(m), int(rows), 1.0, rows_data, int(m), 0.0,
                  partial.data(), int(m));
#else
    block_product(true, m, m, rows, rows_data, m, rows_data, m, partial.data(), m);
#endif
  });
  return upper.selfadjointView<Eigen::Upper>();
}

}  // namespace nldr::detail
