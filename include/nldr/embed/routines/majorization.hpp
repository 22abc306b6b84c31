// Stress majorization (SMACOF: de Leeuw 1977; Borg & Groenen 2005, ch. 8-9), the optimizer shared by
// nldr::Smacof (metric and non-metric) and nldr::Sammon (docs/methods/smacof.md, sammon.md).
//
// Raw stress sigma(X) = sum_{i<j} w_ij (dhat_ij - d_ij(X))^2, d_ij = ||x_i - x_j||. Each iteration is a
// Guttman transform X+ = V^+ B(X) X with V = sum_{i<j} w_ij (e_i - e_j)(e_i - e_j)^T and
// B(X)_ij = -w_ij dhat_ij / d_ij (i != j; 0 where d_ij = 0), B_ii = -sum_{j != i} B_ij. It minimizes a
// majorizing function of sigma that touches it at X, so sigma never increases (de Leeuw 1977;
// Borg & Groenen 2005, sec. 8.4). With every weight 1, V^+ B X = B X / N; otherwise
// V^+ B X = (V + 11^T / N)^-1 B X (B X is orthogonal to 1), solved with a Cholesky factor formed once.
// Non-metric: before each transform the disparities dhat become the weighted monotone (isotonic)
// regression of the distances on the order of the dissimilarities (Kruskal 1964, pool-adjacent-
// violators), rescaled to sum w dhat^2 = sum w delta^2. That is the least-squares dhat under this
// norm (de Leeuw 1977), so the alternation stays monotone too.
// Everything is double: the N x N matrices would be the same size in float plus rounding.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/progress.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/random.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>
#include <nldr/embed/routines/mds.hpp>

#include <Eigen/Cholesky>
#include <Eigen/Core>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#endif

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <exception>
#include <functional>
#include <limits>
#include <mutex>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

namespace nldr {

/// How a stress-majorization fit ended.
enum class MajorizationStatus {
  converged,        ///< the relative stress decrease of one iteration fell below `tolerance` (or stress hit 0)
  iteration_limit,  ///< `max_iterations` Guttman transforms ran without that happening
};

/// Where the runs of a stress-majorization fit start.
enum class MajorizationInit {
  classical_mds,  ///< run 0 from classical (Torgerson) MDS of the dissimilarities, runs 1.. random
  random,         ///< every run from a seeded random Gaussian configuration
};

/// Ties among the dissimilarities in non-metric MDS (Kruskal 1964; Borg & Groenen 2005, sec. 9.5).
enum class TieApproach {
  primary,    ///< tied dissimilarities may get unequal disparities (ordered like their distances)
  secondary,  ///< tied dissimilarities get one common disparity
};

namespace detail {

/// What the optimizer minimizes: dissimilarities, weights and, for non-metric MDS, the order.
struct MajorizationProblem {
  Matrix<double> delta;    ///< N x N dissimilarities, symmetric, zero diagonal
  Matrix<double> weights;  ///< N x N, symmetric, >= 0; empty: every weight 1
  bool nonmetric = false;
  TieApproach ties = TieApproach::primary;
};

/// Settings of one optimizer call (the fields the embedders' options share).
struct MajorizationSettings {
  index_t dim = 2;
  MajorizationInit init = MajorizationInit::classical_mds;
  int n_init = 1;
  std::uint64_t seed = 0;
  int max_iterations = 300;
  double tolerance = 1e-4;
  /// Hears (run + t / max_iterations) / n_init after transform t of each run, (run + 1) / n_init
  /// when a run stops: the fraction of the iteration budget used, which a converging run skips ahead
  /// (with runs in parallel, `run` counts the runs finished so far).
  ProgressCallback progress{};
  /// Bytes the fit may use (0: the memory available now); runs go in parallel only if their extra
  /// workspaces (non-metric: N^2 x 28 bytes each) fit in half of it.
  std::uint64_t memory_limit = 0;
};

/// The best run: configuration, disparities and the sums behind every stress normalization.
struct MajorizationResult {
  Matrix<double> X;                  ///< N x d
  double raw_stress = 0;             ///< sum_{i<j} w (dhat - d)^2
  double disparity_norm = 0;         ///< sum_{i<j} w dhat^2
  double kruskal_stress = 0;         ///< sqrt(sum w (d - f)^2 / sum w d^2), f the unscaled fit (see below)
  int iterations = 0;                ///< Guttman transforms of the best run
  MajorizationStatus status = MajorizationStatus::iteration_limit;
  int best_run = 0;                  ///< 0-based run that gave X
  std::vector<double> stress_history;  ///< raw stress before the first and after every transform
  /// Non-metric only: the fitted monotone map, knots (dissimilarity, disparity) in increasing order.
  std::vector<double> map_delta, map_dhat;
};

inline void validate_settings(const MajorizationSettings& s, Eigen::Index n) {
  validate_dimension(s.dim, n, "N");
  if (s.n_init < 1) throw_invalid("n_init", "n_init = ", s.n_init, " must be >= 1 (the number of runs)");
  if (s.max_iterations < 1) throw_invalid("max_iterations", "max_iterations = ", s.max_iterations, " must be >= 1");
  if (!(std::isfinite(s.tolerance) && s.tolerance >= 0))
    throw_invalid("tolerance", "tolerance = ", s.tolerance, " must be finite and >= 0 (relative stress decrease)");
  if (s.init != MajorizationInit::classical_mds && s.init != MajorizationInit::random)
    throw_invalid("init", "init = ", int(s.init), " is not a MajorizationInit");
}

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

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define NLDR_MAJORIZATION_AVX512
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
#if defined(NLDR_MAJORIZATION_AVX512)
    static const bool avx512 = __builtin_cpu_supports("avx512f");
#endif
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
#if defined(NLDR_MAJORIZATION_AVX512)
            if (avx512)
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

/// Refuses the dense matrices of a fit of N points in d dimensions (`matrices` N x N doubles and the
/// stress pass's workspace) beyond the memory limit.
inline void check_majorization_memory(Eigen::Index n, Eigen::Index dim, int matrices, const std::string& method,
                                      std::uint64_t limit) {
  check_memory(std::uint64_t(matrices) * std::uint64_t(n) * std::uint64_t(n) * sizeof(double) +
                   StressKernel::workspace_bytes(n, dim),
               concat(method, ": ", matrices, " dense ", n, " x ", n, " matrices"),
               "subsample the points, fit on the subsample and place the rest with transform(); or use a method "
               "of sparse memory (nldr::LandmarkIsomap, nldr::LaplacianEigenmaps, nldr::DiffusionMaps)",
               limit);
}

/// Euclidean distances of the rows of X (N x D) in double, N x N.
template <class Derived>
Matrix<double> euclidean_dissimilarities(const Eigen::MatrixBase<Derived>& X) {
  const Eigen::Index n = X.rows();
  const Matrix<double> points = X.template cast<double>();
  Matrix<double> delta(n, n);
  parallel_for(0, n, [&](std::int64_t i) {
    for (Eigen::Index j = 0; j < n; ++j) delta(i, j) = (points.row(i) - points.row(j)).norm();
  });
  return delta;
}

/// Validates a user's N x N dissimilarity matrix (square, finite, >= 0, zero diagonal, symmetric up to
/// sqrt(epsilon) of the largest entry, averaged) and returns it in double.
template <class Derived>
Matrix<double> validated_dissimilarities(const Eigen::MatrixBase<Derived>& D, const std::string& name,
                                         Eigen::Index min_points) {
  using T = typename Derived::Scalar;
  const Eigen::Index n = D.rows();
  if (D.cols() != n)
    throw_invalid(name, name, " is ", n, " x ", D.cols(), ": it must be square, N x N, one row and one column per point");
  validate_points(D, name, min_points);
  const double largest = double(D.cwiseAbs().maxCoeff());
  if (!std::isfinite(largest * largest * double(n) * double(n)))
    throw_invalid(name, "the largest dissimilarity ", largest, " squared and summed over N^2 = ", double(n) * double(n),
                  " pairs overflows a double: rescale ", name);
  const double slack = std::sqrt(double(std::numeric_limits<T>::epsilon())) * largest;
  Matrix<double> delta(n, n);
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < n; ++j) {
      if (D(i, j) < 0)
        throw_invalid(name, name, "(", i, ", ", j, ") = ", D(i, j), " is negative: dissimilarities must be >= 0");
      if (i == j && D(i, i) != 0)
        throw_invalid(name, name, "(", i, ", ", i, ") = ", D(i, i),
                      " must be 0 (a point's dissimilarity to itself): is this a similarity matrix?");
      if (j > i && std::abs(double(D(i, j)) - double(D(j, i))) > slack)
        throw_invalid(name, name, "(", i, ", ", j, ") = ", D(i, j), " but ", name, "(", j, ", ", i, ") = ", D(j, i),
                      ": the matrix must be symmetric");
      delta(i, j) = 0.5 * (double(D(i, j)) + double(D(j, i)));
    }
  if (!(largest > 0))
    throw_invalid(name, "every dissimilarity in ", name, " is 0: there is no structure to embed");
  return delta;
}

/// Validates N x N weights (finite, >= 0, symmetric) whose positive entries connect all N points.
template <class Derived>
Matrix<double> validated_weights(const Eigen::MatrixBase<Derived>& W, Eigen::Index n) {
  if (W.rows() != n || W.cols() != n)
    throw_invalid("weights", "weights is ", W.rows(), " x ", W.cols(), " but there are N = ", n,
                  " points: supply N x N weights (0 marks a missing dissimilarity)");
  Matrix<double> weights(n, n);
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < n; ++j) {
      const double w = double(W(i, j));
      if (!(std::isfinite(w) && w >= 0))
        throw_invalid("weights", "weights(", i, ", ", j, ") = ", W(i, j), " must be finite and >= 0");
      if (j > i && w != double(W(j, i)))
        throw_invalid("weights", "weights(", i, ", ", j, ") = ", W(i, j), " but weights(", j, ", ", i, ") = ",
                      W(j, i), ": the weights must be symmetric");
      weights(i, j) = i == j ? 0.0 : w;
    }
  // Breadth-first search over positive weights: V is singular unless they connect every point.
  std::vector<char> seen(std::size_t(n), 0);
  std::vector<Eigen::Index> queue{0};
  seen[0] = 1;
  for (std::size_t head = 0; head < queue.size(); ++head)
    for (Eigen::Index j = 0; j < n; ++j)
      if (!seen[std::size_t(j)] && weights(queue[head], j) > 0) {
        seen[std::size_t(j)] = 1;
        queue.push_back(j);
      }
  if (Eigen::Index(queue.size()) < n)
    throw_invalid("weights", "the pairs of positive weight connect only ", queue.size(), " of the N = ", n,
                  " points to point 0 (e.g. point ", std::find(seen.begin(), seen.end(), 0) - seen.begin(),
                  " is not reached): the configuration of the parts would be arbitrary; add weights between them");
  return weights;
}

/// Pool-adjacent-violators over [begin, end) from the block that starts at `first`: a block is stored at
/// its first entry (its mean in values, its total weight in weights) and ends[first] / ends[last] link
/// its two ends. Pools each run of non-increasing blocks, then steps back to the block before it (not
/// before `begin`). Stops at the end, or at the first increasing step from a block starting at or after
/// `settled` (the caller knows [settled, end) to be increasing already). A block of total weight 0
/// takes its smallest value.
inline void pool_blocks(std::vector<double>& values, std::vector<double>& weights, std::vector<std::size_t>& ends,
                        std::size_t begin, std::size_t end, std::size_t first, std::size_t settled) {
  std::size_t i = first;
  while (true) {
    std::size_t k = ends[i] + 1;
    if (k == end) break;
    if (values[i] < values[k]) {
      if (i >= settled) break;
      i = k;
      continue;
    }
    double weighted_sum = weights[i] * values[i], weight = weights[i];
    while (true) {
      const double last = values[k];
      weighted_sum += weights[k] * values[k];
      weight += weights[k];
      k = ends[k] + 1;
      if (k == end || last < values[k]) {
        values[i] = weight > 0 ? weighted_sum / weight : last;
        weights[i] = weight;
        ends[i] = k - 1;
        ends[k - 1] = i;
        if (i > begin) i = ends[i - 1];
        break;
      }
    }
  }
}

/// Weighted monotone (isotonic, non-decreasing) regression of values by pool-adjacent-violators, in
/// place, O(n). The entries are cut into chunks of `chunk`, each pooled on its own in parallel; then,
/// chunk by chunk, the blocks meeting at each boundary are pooled, which touches only the blocks around
/// it (the pools inside a chunk are pools of the whole solution too, as any pool of adjacent violators
/// is). The chunks depend on n only, so the result does not depend on the thread count.
/// `weights` is overwritten; `ends` is workspace. Returns sum w f^2 of the fit f (block by block).
inline double pool_adjacent_violators(std::vector<double>& values, std::vector<double>& weights,
                                      std::vector<std::size_t>& ends, std::size_t chunk = std::size_t(1) << 16) {
  const std::size_t n = values.size();
  ends.resize(n);
  std::iota(ends.begin(), ends.end(), std::size_t(0));
  parallel_for(
      0, std::int64_t((n + chunk - 1) / chunk),
      [&](std::int64_t c) {
        const std::size_t begin = std::size_t(c) * chunk, end = std::min(n, begin + chunk);
        pool_blocks(values, weights, ends, begin, end, begin, end);
      },
      1);
  for (std::size_t begin = chunk; begin < n; begin += chunk)  // [0, begin) is solved: its last block ends at begin - 1
    pool_blocks(values, weights, ends, 0, std::min(n, begin + chunk), ends[begin - 1], begin);
  double squares = 0;
  for (std::size_t i = 0; i < n;) {  // every entry takes its block's value
    const std::size_t end = ends[i] + 1;
    std::fill(values.begin() + std::ptrdiff_t(i) + 1, values.begin() + std::ptrdiff_t(end), values[i]);
    squares += weights[i] * values[i] * values[i];
    i = end;
  }
  return squares;
}

/// The non-metric step and its stress pass, both in the order of the dissimilarities: pairs of positive
/// weight sorted once by dissimilarity, with their tie blocks. Each iteration computes the distances
/// pair by pair in this order from the configuration (N x d, in cache), sorts within tie blocks and
/// fits the monotone regression; the stress pass then reads each pair's distance and disparity where
/// they lie, in the same order, instead of scattering N^2 / 2 disparities into an N x N matrix and
/// reading them back row by row. The distances, the tie sorts and the pass run in parallel (the pass in
/// chunks of pairs fixed by N, each adding B X into an N x d slot of its own, summed in chunk order:
/// no sum depends on the thread count); pool-adjacent-violators in parallel chunks too.
class MonotoneRegression {
 public:
  /// Sorts the pairs (once per fit: the runs start from copies). The sort keys carry their
  /// dissimilarity, so it compares contiguous values rather than gathering them from the N x N matrix
  /// (3-4x faster); ties are ordered by (i, j), as a stable sort of the row-by-row order would.
  explicit MonotoneRegression(const MajorizationProblem& problem) : ties_(problem.ties) {
    struct Key {
      double delta;
      index_t i, j;
    };
    const Eigen::Index n = problem.delta.rows();
    std::vector<Key> keys;
    keys.reserve(std::size_t(n) * std::size_t(n - 1) / 2);
    for (index_t i = 0; i < n; ++i)
      for (index_t j = i + 1; j < n; ++j)
        if (weight(problem, i, j) > 0) keys.push_back({problem.delta(i, j), i, j});
    std::sort(keys.begin(), keys.end(), [](const Key& a, const Key& b) {
      return a.delta < b.delta || (a.delta == b.delta && (a.i < b.i || (a.i == b.i && a.j < b.j)));
    });
    pairs_.resize(keys.size());
    block_starts_.push_back(0);
    for (std::size_t p = 0; p < keys.size(); ++p) {
      const Key& key = keys[p];
      const double w = weight(problem, key.i, key.j);
      pairs_[p] = {key.i, key.j, w, 0.0};
      target_norm_ += w * key.delta * key.delta;
      if (p > 0 && key.delta != keys[p - 1].delta) block_starts_.push_back(p);
    }
    block_starts_.push_back(pairs_.size());
  }

  static double weight(const MajorizationProblem& problem, index_t i, index_t j) {
    return problem.weights.size() == 0 ? 1.0 : problem.weights(i, j);
  }

  /// Bytes per pair of one run: the sorted pair, the regression's value, weight and link, and at most
  /// one tie-block start (distinct dissimilarities); the sorted copy the runs start from holds the
  /// pairs and block starts (`sorted_pair_bytes`), and while sorting, 16-byte keys.
  static constexpr std::uint64_t pair_bytes = 56;         // Pair (24), 4 x 8
  static constexpr std::uint64_t sorted_pair_bytes = 32;  // Pair (24), 8

  /// The monotone regression f of the distances of X (N x d) on the dissimilarity order; the
  /// disparities are dhat = scale * f with scale making sum w dhat^2 = sum w delta^2. Returns scale
  /// (0 when every distance is 0).
  double fit(const Matrix<double>& X) {
    const Eigen::Index dim = X.cols();
    const double* x = X.data();  // row-major: point i at x + i * dim
    // Per tie block: the distances of its pairs; primary ties sort it by distance (the order that fits
    // best) and give one entry per pair; secondary ties give one entry, its weighted mean distance.
    const auto blocks = std::int64_t(block_starts_.size()) - 1;
    const bool primary = ties_ == TieApproach::primary;
    values_.resize(primary ? pairs_.size() : std::size_t(blocks));
    weights_.resize(values_.size());
    parallel_for(
        0, blocks,
        [&](std::int64_t b) {
          const auto first = pairs_.begin() + std::ptrdiff_t(block_starts_[b]);
          const auto last = pairs_.begin() + std::ptrdiff_t(block_starts_[b + 1]);
          for (auto pair = first; pair != last; ++pair) {
            const double *xi = x + pair->i * dim, *xj = x + pair->j * dim;
            double sum = 0;
            for (Eigen::Index c = 0; c < dim; ++c) sum += (xi[c] - xj[c]) * (xi[c] - xj[c]);
            pair->distance = std::sqrt(sum);
          }
          if (primary) {
            if (last - first > 1)
              std::stable_sort(first, last, [](const Pair& u, const Pair& v) { return u.distance < v.distance; });
            for (std::size_t p = block_starts_[b]; p < block_starts_[b + 1]; ++p) {
              values_[p] = pairs_[p].distance;
              weights_[p] = pairs_[p].weight;
            }
          } else {
            double sum = 0, weight_sum = 0;
            for (auto pair = first; pair != last; ++pair) {
              sum += pair->weight * pair->distance;
              weight_sum += pair->weight;
            }
            values_[std::size_t(b)] = sum / weight_sum;
            weights_[std::size_t(b)] = weight_sum;
          }
        },
        1024);
    // values_ becomes the fit: pair p's (primary) or its block's (secondary).
    const double norm = pool_adjacent_violators(values_, weights_, ends_);
    scale_ = norm > 0 ? std::sqrt(target_norm_ / norm) : 0.0;
    return scale_;
  }

  /// The stress pass at the X of the last fit, with its disparities (see StressPass).
  StressPass stress_pass(const Matrix<double>& X) {
    const Eigen::Index n = X.rows(), dim = X.cols();
    const std::size_t chunk = chunk_pairs(n);
    const auto chunks = std::int64_t((pairs_.size() + chunk - 1) / chunk);
    const bool primary = ties_ == TieApproach::primary;
    const double* x = X.data();
    slots_.resize(chunks * n, dim);
    sums_.resize(chunks, 3);
    parallel_for(
        0, chunks,
        [&](std::int64_t c) {
          double* slot = slots_.data() + c * n * dim;  // row-major: point i at slot + i * dim
          std::fill(slot, slot + n * dim, 0.0);
          const std::size_t p0 = std::size_t(c) * chunk, p1 = std::min(pairs_.size(), p0 + chunk);
          // secondary ties: the disparity is the tie block's
          std::size_t b = std::size_t(std::upper_bound(block_starts_.begin(), block_starts_.end(), p0) -
                                      block_starts_.begin()) - 1;
          double raw = 0, distance_norm = 0, disparity_norm = 0;
          for (std::size_t p = p0; p < p1; ++p) {
            while (block_starts_[b + 1] <= p) ++b;
            const Pair& pair = pairs_[p];
            const double h = scale_ * values_[primary ? p : b], d = pair.distance, w = pair.weight;
            raw += w * (h - d) * (h - d);
            distance_norm += w * d * d;
            disparity_norm += w * h * h;
            if (!(d > 0)) continue;  // B_ij = 0 where d_ij = 0
            const double r = w * h / d;
            const double *xi = x + pair.i * dim, *xj = x + pair.j * dim;
            for (Eigen::Index k = 0; k < dim; ++k) {
              const double term = r * (xi[k] - xj[k]);
              slot[pair.i * dim + k] += term;
              slot[pair.j * dim + k] -= term;
            }
          }
          sums_.row(c) << raw, distance_norm, disparity_norm;
        },
        1);
    StressPass pass;
    pass.BX = Matrix<double>::Zero(n, dim);
    parallel_for(0, n, [&](std::int64_t i) {
      for (std::int64_t c = 0; c < chunks; ++c) pass.BX.row(i) += slots_.row(c * n + i);
    });
    for (std::int64_t c = 0; c < chunks; ++c) {
      pass.raw += sums_(c, 0);
      pass.distance_norm += sums_(c, 1);
      pass.disparity_norm += sums_(c, 2);
    }
    return pass;
  }

  /// Pairs per chunk of the stress pass for N points: about N / 32 chunks, whose slots
  /// (N^2 d / 32 doubles) stay small beside the N^2 / 2 pairs.
  static std::size_t chunk_pairs(Eigen::Index n) { return std::max<std::size_t>(1024, 32 * std::size_t(n)); }

  /// The last fit as a map: one knot per distinct dissimilarity (its mean disparity), increasing.
  void knots(const MajorizationProblem& problem, std::vector<double>& delta, std::vector<double>& value) const {
    delta.clear();
    value.clear();
    const bool primary = ties_ == TieApproach::primary;
    for (std::size_t b = 0; b + 1 < block_starts_.size(); ++b) {
      double sum = 0;
      for (std::size_t p = block_starts_[b]; p < block_starts_[b + 1]; ++p) sum += values_[primary ? p : b];
      delta.push_back(problem.delta(pairs_[block_starts_[b]].i, pairs_[block_starts_[b]].j));
      value.push_back(scale_ * sum / double(block_starts_[b + 1] - block_starts_[b]));
    }
  }

 private:
  struct Pair {
    index_t i, j;     // i < j
    double weight;    // w_ij > 0
    double distance;  // ||x_i - x_j|| at the last fit
  };
  static_assert(sizeof(Pair) + 4 * 8 == pair_bytes && sizeof(Pair) + 8 == sorted_pair_bytes);
  TieApproach ties_;
  std::vector<Pair> pairs_;
  std::vector<std::size_t> block_starts_;  // tie blocks [starts[b], starts[b + 1])
  std::vector<double> values_, weights_;   // the regression's input and output, and its weights
  std::vector<std::size_t> ends_;          // pool_adjacent_violators' workspace
  double target_norm_ = 0, scale_ = 0;
  Matrix<double> slots_;                   // the stress pass's chunk c: rows c N .. c N + N - 1
  Eigen::MatrixXd sums_;                   // chunk c's raw stress, sum w d^2, sum w dhat^2
};

/// Classical (Torgerson) MDS of the dissimilarities as a start (entries of weight 0 replaced by the
/// mean present dissimilarity). A coordinate whose eigenvalue is <= 0 would stay identically 0 under
/// every Guttman transform, so it gets small seeded noise instead.
inline Matrix<double> classical_start(const MajorizationProblem& problem, index_t dim, std::uint64_t seed,
                                      const std::string& method) {
  const Eigen::Index n = problem.delta.rows();
  double present_sum = 0, present = 0;
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = i + 1; j < n; ++j)
      if (MonotoneRegression::weight(problem, index_t(i), index_t(j)) > 0) {
        present_sum += problem.delta(i, j);
        ++present;
      }
  const double fill = present > 0 ? present_sum / present : 0.0;
  Matrix<double> B(n, n);
  parallel_for(0, n, [&](std::int64_t i) {
    for (Eigen::Index j = 0; j < n; ++j) {
      const bool missing = i != j && MonotoneRegression::weight(problem, index_t(i), index_t(j)) == 0;
      const double d = missing ? fill : problem.delta(i, j);
      B(i, j) = d * d;
    }
  });
  routines::double_center_squared(B);
  StageTimes stages;
  const routines::Scaling scaling = routines::scale_centered(B, dim, 0, TopEigenOptions{}, method, stages);
  Matrix<double> X = scaling.coordinates;
  const Eigen::VectorXd& values = scaling.values;
  Random random(seed);
  const double noise = 1e-6 * std::sqrt(std::max(values[0], 0.0) / double(n)) + 1e-300;
  for (Eigen::Index c = 0; c < dim; ++c)
    if (!(values[c] > 0))
      for (Eigen::Index i = 0; i < n; ++i) X(i, c) = noise * random.normal();
  return X;
}

/// A seeded Gaussian configuration whose root-mean-square distance matches the dissimilarities'.
inline Matrix<double> random_start(const MajorizationProblem& problem, index_t dim, std::uint64_t seed) {
  const Eigen::Index n = problem.delta.rows();
  double sum = 0, count = 0;
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = i + 1; j < n; ++j)
      if (MonotoneRegression::weight(problem, index_t(i), index_t(j)) > 0) {
        sum += problem.delta(i, j) * problem.delta(i, j);
        ++count;
      }
  const double scale = std::sqrt(sum / count / (2.0 * double(dim)));  // E||x - y||^2 = 2 d s^2
  Random random(seed);
  Matrix<double> X(n, dim);
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index c = 0; c < dim; ++c) X(i, c) = scale * random.normal();
  return X;
}

/// Solves (V + 11^T / N) Y = B X for the weights (the Guttman transform's V^+ B X, as B X is orthogonal to
/// 1) with the Cholesky factor of V + 11^T / N, factorized once in place: O(N^3 / 3) at the start (forming
/// the inverse would cost 7x that: two more triangular solves with N right-hand sides) and two triangular
/// solves, O(N^2 d), per transform. Holds one N x N matrix; neither copyable nor movable (the factor
/// refers to it).
class GuttmanSolve {
 public:
  explicit GuttmanSolve(const Matrix<double>& weights) : factor_(shifted_laplacian(weights)), llt_(factor_) {
    if (llt_.info() != Eigen::Success)
      throw convergence_error("stress majorization: V + 11^T/N is not positive definite (weights spanning "
                              "orders of magnitude?): rescale the weights");
  }
  GuttmanSolve(const GuttmanSolve&) = delete;
  GuttmanSolve& operator=(const GuttmanSolve&) = delete;

  Matrix<double> operator()(const Matrix<double>& BX) const {
    // One coordinate at a time: Eigen's vector solves (blocked matrix-vector products) took half the
    // time of one solve with d right-hand sides (N = 2000, d = 2: 3.6 against 6.7 ms).
    Matrix<double> Y(BX.rows(), BX.cols());
    Eigen::VectorXd y;
    for (Eigen::Index c = 0; c < BX.cols(); ++c) {
      y = BX.col(c);
      llt_.solveInPlace(y);
      Y.col(c) = y;
    }
    return Y;
  }

 private:
  static Eigen::MatrixXd shifted_laplacian(const Matrix<double>& weights) {
    Eigen::MatrixXd V = -weights;
    V.diagonal() = weights.rowwise().sum();
    V.array() += 1.0 / double(weights.rows());
    return V;
  }

  Eigen::MatrixXd factor_;
  Eigen::LLT<Eigen::Ref<Eigen::MatrixXd>> llt_;
};

/// The optimizer: n_init runs of Guttman transforms, the one of least raw stress kept (the first such
/// run on a tie). A run stops when (sigma_old - sigma_new) / sigma_old < tolerance, when sigma reaches 0,
/// or after max_iterations transforms.
/// With several runs and threads the runs themselves run in parallel, each on one thread (its loops
/// nested, so serial): one parallel region for the whole fit instead of two or more per transform,
/// whose barriers cost most of the time when other processes share the cores. Otherwise runs follow
/// each other with their loops parallel. Every run computes the same numbers either way. Progress comes
/// from the calling thread only; an error or a cancellation in one run stops the others and is rethrown.
inline MajorizationResult majorize(const MajorizationProblem& problem, const MajorizationSettings& settings,
                                   const std::string& method) {
  const Eigen::Index n = problem.delta.rows();
  const bool unit = problem.weights.size() == 0;
  std::optional<GuttmanSolve> solve;
  if (!unit) solve.emplace(problem.weights);
  std::optional<MonotoneRegression> sorted;  // the pairs in dissimilarity order, sorted once for every run
  if (problem.nonmetric) sorted.emplace(problem);

  struct Run {
    MajorizationResult result;
    double scale = 1;
  };
  // on_transform(t) after transform t; returns false to stop the run (another one failed).
  auto one_run = [&](int run, const std::function<bool(int)>& on_transform) {
    std::optional<MonotoneRegression> regression = sorted;
    StressKernel stress_pass;
    Run out;
    auto evaluate = [&](const Matrix<double>& X) {
      if (!problem.nonmetric) return stress_pass(problem, problem.delta, X);
      out.scale = regression->fit(X);
      return regression->stress_pass(X);
    };
    const std::uint64_t run_seed = settings.seed ^ (0x9e3779b97f4a7c15ULL * std::uint64_t(run + 1));
    Matrix<double> X = run == 0 && settings.init == MajorizationInit::classical_mds
                           ? classical_start(problem, settings.dim, run_seed, method)
                           : random_start(problem, settings.dim, run_seed);
    StressPass pass = evaluate(X);
    MajorizationResult& r = out.result;
    r.stress_history = {pass.raw};
    while (r.iterations < settings.max_iterations) {
      if (pass.raw == 0) {
        r.status = MajorizationStatus::converged;
        break;
      }
      X = unit ? Matrix<double>(pass.BX / double(n)) : (*solve)(pass.BX);
      ++r.iterations;
      const double previous = pass.raw;
      pass = evaluate(X);
      r.stress_history.push_back(pass.raw);
      if (!std::isfinite(pass.raw))
        throw convergence_error(concat(method, ": the stress became ", pass.raw, " at iteration ", r.iterations,
                                       " (dissimilarities or weights of extreme range?): rescale the input"));
      if ((previous - pass.raw) < settings.tolerance * previous) {
        r.status = MajorizationStatus::converged;
        break;
      }
      if (!on_transform(r.iterations)) break;
    }
    r.X = std::move(X);
    r.raw_stress = pass.raw;
    r.disparity_norm = pass.disparity_norm;
    r.best_run = run;
    // Kruskal's stress-1 against the unscaled fit f = dhat / scale (metric: f = delta).
    const double s = problem.nonmetric && out.scale > 0 ? out.scale : 1.0;
    const double f_norm = pass.disparity_norm / (s * s), cross = (pass.distance_norm + pass.disparity_norm - pass.raw) / 2 / s;
    const double residual = std::max(0.0, pass.distance_norm - 2 * cross + f_norm);
    r.kruskal_stress = pass.distance_norm > 0 ? std::sqrt(residual / pass.distance_norm) : 0.0;
    if (problem.nonmetric) regression->knots(problem, r.map_delta, r.map_dhat);
    return out;
  };

  std::vector<Run> runs(static_cast<std::size_t>(settings.n_init));
  const auto fraction = [&](double runs_done) { return runs_done / settings.n_init; };
  const auto concurrent = std::uint64_t(std::min(settings.n_init, max_threads()));
  const std::uint64_t pairs = std::uint64_t(n) * std::uint64_t(n - 1) / 2;
  const std::uint64_t run_bytes = problem.nonmetric ? MonotoneRegression::pair_bytes * pairs +
                                                          (pairs / MonotoneRegression::chunk_pairs(n) + 1) *
                                                              std::uint64_t(n) * std::uint64_t(settings.dim) * 8
                                                    : StressKernel::workspace_bytes(n, settings.dim);
  const std::uint64_t budget = settings.memory_limit > 0 ? settings.memory_limit : available_memory_bytes();
  const bool parallel_runs = concurrent > 1 && (budget == 0 || (concurrent - 1) * run_bytes <= budget / 2);
  if (!parallel_runs) {
    for (int run = 0; run < settings.n_init; ++run) {
      runs[std::size_t(run)] = one_run(run, [&](int t) {
        report_progress(settings.progress, fraction(run + double(t) / settings.max_iterations), method);
        return true;
      });
      report_progress(settings.progress, fraction(run + 1), method);
    }
  } else {
    std::atomic<bool> stop{false};
    std::atomic<int> finished{0};
    std::exception_ptr failure;
    std::mutex failure_mutex;
    parallel_for(
        0, settings.n_init,
        [&](std::int64_t run) {
          if (stop) return;
          const bool caller = thread_index() == 0;
          try {
            runs[std::size_t(run)] = one_run(int(run), [&](int t) {
              if (caller)
                report_progress(settings.progress, fraction(finished + double(t) / settings.max_iterations), method);
              return !stop;
            });
            ++finished;
            if (caller) report_progress(settings.progress, fraction(finished), method);
          } catch (...) {
            const std::lock_guard<std::mutex> lock(failure_mutex);
            if (!failure) failure = std::current_exception();
            stop = true;
          }
        },
        1);
    if (failure) std::rethrow_exception(failure);
    report_progress(settings.progress, 1.0, method);  // the calling thread's last run may end first
  }
  std::size_t best = 0;
  for (std::size_t run = 1; run < runs.size(); ++run)
    if (runs[run].result.raw_stress < runs[best].result.raw_stress) best = run;
  return std::move(runs[best].result);
}

/// Places new points with the configuration X (N x d) fixed: point p minimizes
/// sum_i w_i (target(p, i) - ||y - x_i||)^2 by the single-point Guttman update
/// y+ = sum_i w_i (x_i + target_i (y - x_i) / ||y - x_i||) / sum_i w_i (majorization: never increases the
/// stress), from the x_i of least target; a point at target 0 is placed on that training point.
/// sammon_weights: w_i = 1 / target_i, else w_i = 1. Rows run in parallel. Returns P x d.
inline Matrix<double> place_points(const Matrix<double>& X, const Matrix<double>& target, bool sammon_weights,
                                   int max_iterations, double tolerance) {
  const Eigen::Index n = X.rows(), dim = X.cols();
  Matrix<double> Y(target.rows(), dim);
  parallel_for(0, target.rows(), [&](std::int64_t p) {
    Eigen::Index nearest = 0;
    const double least = target.row(p).minCoeff(&nearest);
    Eigen::RowVectorXd y = X.row(nearest);
    if (least == 0) {  // a duplicate of a training point lands on it, as in every nldr transform
      Y.row(p) = y;
      return;
    }
    auto stress = [&](const Eigen::RowVectorXd& at) {
      double s = 0;
      for (Eigen::Index i = 0; i < n; ++i) {
        const double w = sammon_weights ? 1.0 / target(p, i) : 1.0, e = target(p, i) - (at - X.row(i)).norm();
        s += w * e * e;
      }
      return s;
    };
    double current = stress(y);
    for (int it = 0; it < max_iterations && current > 0; ++it) {
      Eigen::RowVectorXd sum = Eigen::RowVectorXd::Zero(dim);
      double weight_sum = 0;
      for (Eigen::Index i = 0; i < n; ++i) {
        const double w = sammon_weights ? 1.0 / target(p, i) : 1.0, d = (y - X.row(i)).norm();
        sum += w * X.row(i);
        if (d > 0) sum += (w * target(p, i) / d) * (y - X.row(i));
        weight_sum += w;
      }
      y = sum / weight_sum;
      const double next = stress(y);
      const bool done = current - next < tolerance * current;
      current = next;
      if (done) break;
    }
    Y.row(p) = y;
  });
  return Y;
}

/// Euclidean distances from each new point (P x D) to each training point (N x D), P x N, in double.
template <Real T, class Derived>
Matrix<double> distances_to_training(const Matrix<T>& training, const Eigen::MatrixBase<Derived>& X_new) {
  validate_points(X_new, "X_new");
  if (X_new.cols() != training.cols())
    throw_invalid("X_new", "X_new has D = ", X_new.cols(), " columns but the model was fit on D = ", training.cols(),
                  ": supply points of the same dimension");
  const Matrix<double> train = training.template cast<double>(), points = X_new.template cast<double>();
  Matrix<double> D(points.rows(), train.rows());
  parallel_for(0, points.rows(), [&](std::int64_t p) {
    for (Eigen::Index i = 0; i < train.rows(); ++i) D(p, i) = (points.row(p) - train.row(i)).norm();
  });
  return D;
}

/// Validates P x N dissimilarities of new points to the N training points.
template <class Derived>
Matrix<double> validated_new_dissimilarities(const Eigen::MatrixBase<Derived>& D, Eigen::Index n) {
  if (D.cols() != n)
    throw_invalid("distances", "distances has ", D.cols(), " columns but the model was fit on N = ", n,
                  " points: supply one column per training point");
  validate_points(D, "distances");
  if ((D.array() < 0).any())
    throw_invalid("distances", "distances has a negative entry: dissimilarities must be >= 0");
  return D.template cast<double>();
}

}  // namespace detail
}  // namespace nldr
