// The stress pass of stress majorization (embed/routines/majorization.hpp) over the pairs of a dense
// problem: one sweep gives the raw stress sum w (dhat - d)^2, sum w d^2, sum w dhat^2 and B(X) X of the
// Guttman transform, with Eigen's vectorization or, picked at run time, AVX-512.
#pragma once

#include <nldr/core/cpu.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/types.hpp>
#include <nldr/embed/routines/majorization_problem.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <cstdint>
#include <limits>

namespace nldr {
namespace detail {

/// What one pass over the pairs at configuration X gives: the raw stress, sum w d^2, sum w dhat^2 and B(X) X.
struct StressPass {
  double raw = 0, distance_norm = 0, disparity_norm = 0;
  Matrix<double> BX;
};

/// One row segment of the stress pass: point i against the points j0 .. j0 + len - 1.
/// Adds w (dhat - d)^2, w d^2 and w dhat^2 to raw, distance_norm and disparity_norm, r_ij (x_i - x_j)
/// (r_ij = w_ij dhat_ij / d_ij, 0 where d_ij = 0: -B_ij) to row[c], and subtracts it from the column sums
/// slot[c * slot_stride + j - j0].
struct StressSegment {
  const double* columns;  // d x N row-major: coordinate c of point j at columns[c * n + j]
  Eigen::Index n, dim, i, j0, len;
  const double* h;  // dhat(i, j0 ..)
  const double* w;  // weights(i, j0 ..), or nullptr: every weight 1
  double* slot;
  Eigen::Index slot_stride;
  double* row;  // d values
  double raw = 0, distance_norm = 0, disparity_norm = 0;
};

/// StressSegment with Eigen's vectorization (SSE2 in a baseline x86-64 build).
inline void stress_segment(StressSegment& s, Eigen::ArrayXd& dist, Eigen::ArrayXd& ratio, Eigen::ArrayXd& diff) {
  const Eigen::Index len = s.len;
  auto coordinate = [&](Eigen::Index c) { return Eigen::Map<const Eigen::ArrayXd>(s.columns + c * s.n + s.j0, len); };
  auto d = dist.head(len);
  auto r = ratio.head(len);
  d.setZero();
  for (Eigen::Index c = 0; c < s.dim; ++c) d += (coordinate(c) - s.columns[c * s.n + s.i]).square();
  const Eigen::Map<const Eigen::ArrayXd> h(s.h, len);
  if (s.w == nullptr) {
    s.distance_norm += d.sum();
    d = d.sqrt();
    s.raw += (h - d).square().sum();
    s.disparity_norm += h.square().sum();
    r = h / d;
  } else {
    const Eigen::Map<const Eigen::ArrayXd> w(s.w, len);
    s.distance_norm += (w * d).sum();
    d = d.sqrt();
    s.raw += (w * (h - d).square()).sum();
    s.disparity_norm += (w * h.square()).sum();
    r = w * h / d;
  }
  // 0 where d = 0. A select() around the division would not vectorize; this does.
  for (Eigen::Index k = 0; k < len; ++k) r[k] = d[k] > 0 ? r[k] : 0.0;
  for (Eigen::Index c = 0; c < s.dim; ++c) {
    auto term = diff.head(len);
    term = r * (s.columns[c * s.n + s.i] - coordinate(c));
    s.row[c] += term.sum();
    Eigen::Map<Eigen::ArrayXd>(s.slot + c * s.slot_stride, len) -= term;
  }
}

#if defined(NLDR_X86_KERNELS)
/// The same with AVX-512, picked at run time (a baseline build vectorizes for SSE2 only): eight pairs
/// per instruction, the tail under a mask. Fixed lane order and fixed final sums: the same input gives
/// the same numbers (on this instruction set; the SSE2 path may differ in the last bits).
__attribute__((target("avx512f"))) inline void stress_segment_avx512(StressSegment& s, double* lanes) {
  // Locals, not s's fields: the stores below could alias them, which would reload every field per step.
  const Eigen::Index n = s.n, dim = s.dim, len = s.len, slot_stride = s.slot_stride;
  const double *points = s.columns + s.j0, *point = s.columns + s.i, *disparities = s.h, *weights = s.w;
  double* slots = s.slot;
  double* row_lanes = lanes + 24;  // 8 per coordinate
  const __m512d zero = _mm512_setzero_pd();
  __m512d raw = zero, dnorm = zero, hnorm = zero;
  for (Eigen::Index c = 0; c < dim; ++c) _mm512_storeu_pd(row_lanes + 8 * c, zero);
  for (Eigen::Index k = 0; k < len; k += 8) {
    const __mmask8 m = len - k >= 8 ? __mmask8(0xFF) : __mmask8((1u << (len - k)) - 1);
    __m512d d2 = zero;
    for (Eigen::Index c = 0; c < dim; ++c) {
      const __m512d diff = _mm512_sub_pd(_mm512_set1_pd(point[c * n]), _mm512_maskz_loadu_pd(m, points + c * n + k));
      d2 = _mm512_mask_add_pd(d2, m, d2, _mm512_mul_pd(diff, diff));
    }
    // y = 1 / d from the 14-bit estimate and two Newton steps y <- y (3 - d2 y^2) / 2 (relative error
    // a few units in the last place), d = d2 y and r = w dhat y: no square root or division, the two
    // slowest instructions. Pairs closer than sqrt(DBL_MIN) ~ 1e-154 count as coincident (B_ij = 0).
    const __mmask8 apart = _mm512_mask_cmp_pd_mask(m, d2, _mm512_set1_pd(std::numeric_limits<double>::min()),
                                                   _CMP_GE_OQ);
    const __m512d half = _mm512_set1_pd(0.5), three = _mm512_set1_pd(3.0);
    __m512d y = _mm512_maskz_rsqrt14_pd(apart, d2);
    y = _mm512_mul_pd(_mm512_mul_pd(half, y), _mm512_sub_pd(three, _mm512_mul_pd(d2, _mm512_mul_pd(y, y))));
    y = _mm512_mul_pd(_mm512_mul_pd(half, y), _mm512_sub_pd(three, _mm512_mul_pd(d2, _mm512_mul_pd(y, y))));
    const __m512d d = _mm512_mul_pd(d2, y), h = _mm512_maskz_loadu_pd(m, disparities + k);
    const __m512d w = weights == nullptr ? _mm512_maskz_mov_pd(m, _mm512_set1_pd(1.0))
                                         : _mm512_maskz_loadu_pd(m, weights + k);
    const __m512d e = _mm512_sub_pd(h, d), wh = _mm512_mul_pd(w, h);
    raw = _mm512_add_pd(raw, _mm512_mul_pd(w, _mm512_mul_pd(e, e)));
    dnorm = _mm512_add_pd(dnorm, _mm512_mul_pd(w, d2));
    hnorm = _mm512_add_pd(hnorm, _mm512_mul_pd(wh, h));
    const __m512d r = _mm512_mul_pd(wh, y);
    for (Eigen::Index c = 0; c < dim; ++c) {
      const __m512d term =
          _mm512_mul_pd(r, _mm512_sub_pd(_mm512_set1_pd(point[c * n]), _mm512_maskz_loadu_pd(m, points + c * n + k)));
      _mm512_storeu_pd(row_lanes + 8 * c, _mm512_add_pd(_mm512_loadu_pd(row_lanes + 8 * c), term));
      double* slot = slots + c * slot_stride + k;
      _mm512_mask_storeu_pd(slot, m, _mm512_sub_pd(_mm512_maskz_loadu_pd(m, slot), term));
    }
  }
  _mm512_storeu_pd(lanes, raw);
  _mm512_storeu_pd(lanes + 8, dnorm);
  _mm512_storeu_pd(lanes + 16, hnorm);
  auto sum8 = [](const double* v) { return ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7])); };
  s.raw += sum8(lanes);
  s.distance_norm += sum8(lanes + 8);
  s.disparity_norm += sum8(lanes + 16);
  for (Eigen::Index c = 0; c < dim; ++c) s.row[c] += sum8(row_lanes + 8 * c);
}
#endif

/// The pass over the pairs i < j, each pair once (only the upper triangles of dhat and the weights are
/// read, row by row as they lie in memory). The rows are cut into blocks of `block` rows, one task each:
/// a block adds the row sums of B X of its own rows and writes the column sums of its pairs (which belong
/// to the later rows j) to an N x d slot of its own; afterwards row j adds the slots of the blocks before
/// it in block order. No sum depends on the thread count. The slots (N^2 d / block doubles) are kept
/// from one iteration to the next.
class StressKernel {
 public:
  static constexpr Eigen::Index block = 64;

  /// Bytes of the slots for N points in d dimensions (for the memory estimate).
  static std::uint64_t workspace_bytes(Eigen::Index n, Eigen::Index dim) {
    const auto blocks = std::uint64_t((n + block - 1) / block);
    return blocks * std::uint64_t(n) * std::uint64_t(dim) * sizeof(double);
  }

  StressPass operator()(const MajorizationProblem& problem, const Matrix<double>& dhat, const Matrix<double>& X) {
    const Eigen::Index n = X.rows(), dim = X.cols(), blocks = (n + block - 1) / block;
    const Matrix<double> columns = X.transpose();  // d x N: coordinate c of every point contiguous
    slots_.resize(blocks * n, dim);
    rows_.resize(n, dim);
    Eigen::VectorXd raw(blocks), dnorm(blocks), hnorm(blocks);
    const bool unit = problem.weights.size() == 0;
    parallel_for(
        0, blocks,
        [&](std::int64_t a) {
          Eigen::ArrayXd dist(n), ratio(n), diff(n), lanes(24 + 8 * dim);
          const Eigen::Index a0 = a * block, a1 = std::min(n, a0 + block);
          auto slot = slots_.middleRows(a * n, n);
          slot.setZero();
          rows_.middleRows(a0, a1 - a0).setZero();
          raw[a] = dnorm[a] = hnorm[a] = 0;
          for (Eigen::Index i = a0; i < std::min(a1, n - 1); ++i) {
            StressSegment segment{columns.data(), n, dim, i, i + 1, n - i - 1, &dhat(i, i + 1),
                                  unit ? nullptr : &problem.weights(i, i + 1), &slot(i + 1, 0), slots_.outerStride(),
                                  &rows_(i, 0)};
#if defined(NLDR_X86_KERNELS)
            if (has_avx512())
              stress_segment_avx512(segment, lanes.data());
            else
#endif
              stress_segment(segment, dist, ratio, diff);
            raw[a] += segment.raw;
            dnorm[a] += segment.distance_norm;
            hnorm[a] += segment.disparity_norm;
          }
        },
        1);
    StressPass pass;
    pass.BX = rows_;
    parallel_for(0, n, [&](std::int64_t j) {
      for (Eigen::Index a = 0; a <= j / block; ++a) pass.BX.row(j) += slots_.row(a * n + j);
    });
    for (Eigen::Index a = 0; a < blocks; ++a) {
      pass.raw += raw[a];
      pass.distance_norm += dnorm[a];
      pass.disparity_norm += hnorm[a];
    }
    return pass;
  }

 private:
  Eigen::MatrixXd slots_;  // block a's column sums in rows a N .. a N + N - 1 (column-major: contiguous in j)
  Matrix<double> rows_;    // N x d row sums
};

}  // namespace detail
}  // namespace nldr
