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
#include <concepts>
#include <cstdint>
#include <exception>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <numeric>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
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

/// Euclidean distances of the rows of X (N x D) in double, N x N: each pair once (i < j), mirrored
/// (exact: the same terms in the same order).
template <class Derived>
Matrix<double> euclidean_dissimilarities(const Eigen::MatrixBase<Derived>& X) {
  const Eigen::Index n = X.rows();
  const Matrix<double> points = X.template cast<double>();
  Matrix<double> delta(n, n);
  parallel_for(0, n, [&](std::int64_t i) {
    delta(i, i) = 0;
    for (Eigen::Index j = i + 1; j < n; ++j) delta(i, j) = (points.row(i) - points.row(j)).norm();
  });
  parallel_for(0, n, [&](std::int64_t i) {
    for (Eigen::Index j = 0; j < i; ++j) delta(i, j) = delta(j, i);
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

/// Whether the pair (i, j) takes part: every pair without weights, else those of positive weight.
inline bool pair_present(const MajorizationProblem& problem, index_t i, index_t j) {
  return problem.weights.size() == 0 || problem.weights(i, j) > 0;
}

/// One block of a monotone (isotonic) fit: the entries from the previous block's `end` up to `end`
/// (exclusive) all take the block's mean; `weight` is their total weight. While pooling, `value` is the
/// weighted sum of the entries; pool_adjacent_violators leaves their mean there.
struct PoolBlock {
  double value, weight;
  std::size_t end;
};

/// The blocks of pool-adjacent-violators (Kruskal 1964; Barlow et al. 1972) as a stack of increasing
/// means: the last block in registers, the ones below it at base[0, depth). push() appends a block
/// (value = weighted sum), pooling it with the last ones while their mean is not below its own. Weights
/// > 0; means compared as a / u >= b / v <=> a v >= b u, so that no division waits on the one before.
struct PoolStack {
  PoolBlock* base;
  std::size_t depth = 0;
  PoolBlock top{0, 0, 0};  // weight 0: no block yet

  void push(const PoolBlock& next) {
    if (top.weight > 0 && top.value * next.weight >= next.value * top.weight) {
      top.value += next.value;
      top.weight += next.weight;
      top.end = next.end;
      while (depth > 0 && base[depth - 1].value * top.weight >= top.value * base[depth - 1].weight) {
        --depth;
        top.value += base[depth].value;
        top.weight += base[depth].weight;
      }
    } else {
      if (top.weight > 0) base[depth++] = top;
      top = next;
    }
  }
  /// Stores the last block; returns the number of blocks.
  std::size_t finish() {
    if (top.weight > 0) base[depth++] = top;
    top.weight = 0;
    return depth;
  }
};

/// Room for one block per entry, allocated without initialization: a chunk's stack uses only the start
/// of its part, so most pages are never touched. Grows, never shrinks.
class PoolBuffer {
 public:
  PoolBlock* reserve(std::size_t m) {
    if (m > capacity_) {
      blocks_.reset(new PoolBlock[m]);
      capacity_ = m;
    }
    return blocks_.get();
  }
  const PoolBlock* data() const { return blocks_.get(); }

 private:
  std::unique_ptr<PoolBlock[]> blocks_;
  std::size_t capacity_ = 0;
};

/// A fit as pool_adjacent_violators leaves it: blocks[0, count), and sum w f^2 over its entries.
struct MonotoneFit {
  std::size_t count = 0;
  double squares = 0;
};

/// Weighted monotone (isotonic, non-decreasing) regression of values[0, m) by pool-adjacent-violators,
/// O(m): entry e has weight weights[e] > 0 (nullptr: every weight 1) and ends at ends[e] (nullptr:
/// e + 1), the position the blocks' ends count in. Chunks of `chunk` entries are pooled on their own
/// in parallel, each onto a stack in `buffer` where its entries start; then the chunks' blocks, in
/// order, are pooled onto one stack at the front (a chunk's pools are pools of the whole fit too, as any
/// pool of adjacent violators is, so only blocks near a boundary change). A block is read before a
/// block is written at or below its place, so one buffer of m blocks holds all. The chunks depend on
/// m only: the fit does not depend on the thread count. The fit: buffer.data()[0, count).
inline MonotoneFit pool_adjacent_violators(const double* values, const double* weights, const std::size_t* ends,
                                           std::size_t m, PoolBuffer& buffer,
                                           std::size_t chunk = std::size_t(1) << 16) {
  PoolBlock* blocks = buffer.reserve(m);
  const auto chunks = std::int64_t((m + chunk - 1) / chunk);
  std::vector<std::size_t> tops(std::size_t(chunks), 0);
  parallel_for(
      0, chunks,
      [&](std::int64_t c) {
        const std::size_t begin = std::size_t(c) * chunk, end = std::min(m, begin + chunk);
        PoolStack stack{blocks + begin};
        if (weights == nullptr && ends == nullptr)  // the common case, without the multiplications by 1
          for (std::size_t e = begin; e < end; ++e) stack.push({values[e], 1.0, e + 1});
        else
          for (std::size_t e = begin; e < end; ++e) {
            const double w = weights != nullptr ? weights[e] : 1.0;
            stack.push({w * values[e], w, ends != nullptr ? ends[e] : e + 1});
          }
        tops[std::size_t(c)] = stack.finish();
      },
      1);
  PoolStack stack{blocks};
  for (std::int64_t c = 0; c < chunks; ++c)
    for (std::size_t k = 0; k < tops[std::size_t(c)]; ++k) stack.push(blocks[std::size_t(c) * chunk + k]);
  MonotoneFit fit;
  fit.count = stack.finish();
  for (std::size_t b = 0; b < fit.count; ++b) {
    blocks[b].value /= blocks[b].weight;
    fit.squares += blocks[b].weight * blocks[b].value * blocks[b].value;
  }
  return fit;
}

/// The pairs i < j of positive weight in the order of their dissimilarities, ties in row-major order
/// (i, then j), sorted once per fit and shared by every run.
struct SortedPairs {
  struct Pair {
    index_t i, j;
  };
  std::vector<Pair> pairs;
  std::vector<double> weights;  ///< w_ij in this order; empty: every weight 1
  /// [begin, end) of every run of two or more equal dissimilarities (ascending).
  std::vector<std::pair<std::size_t, std::size_t>> ties;
  std::vector<double> distinct;  ///< the distinct dissimilarities, increasing
  double target_norm = 0;         ///< sum w delta^2, summed in this order

  /// Bytes per pair at most: pair, weight and distinct dissimilarity, and while sorting the 16-byte keys.
  static constexpr std::uint64_t pair_bytes = 40;

  /// A bucket sort: the pairs go, row block by row block in parallel, to about one bucket per four
  /// pairs splitting the range of the dissimilarities evenly (the bucket index is monotone in the
  /// value), in row-major order within each; each bucket is then sorted on its own by (delta, i, j).
  /// That reads the N x N matrix in its own order three times and sorts buckets of a few pairs in cache
  /// (a bucket crowded by a skewed spread is still sorted in O(k log k)), where one comparison sort of
  /// all N^2 / 2 keys took 2.7x as long (N = 2000). The order is unique: it does not depend on the
  /// thread count.
  explicit SortedPairs(const MajorizationProblem& problem) {
    struct Key {
      double delta;
      index_t i, j;
    };
    const auto n = index_t(problem.delta.rows());
    const bool unit = problem.weights.size() == 0;
    // Row blocks of about equal pair counts, one per thread.
    const std::uint64_t all = std::uint64_t(n) * std::uint64_t(n - 1) / 2;
    const auto parts = std::int64_t(std::clamp<std::uint64_t>(all >> 16, 1, std::uint64_t(max_threads())));
    std::vector<index_t> first_row(std::size_t(parts) + 1, n);
    first_row[0] = 0;
    for (index_t i = 0, q = 1; i < n && q < parts; ++i)  // pairs in rows before i: i (2n - i - 1) / 2
      if (std::uint64_t(i) * std::uint64_t(2 * n - i - 1) / 2 * std::uint64_t(parts) >= all * std::uint64_t(q))
        first_row[std::size_t(q++)] = i;
    auto rows_of = [&](std::int64_t q, auto&& visit) {
      for (index_t i = first_row[std::size_t(q)]; i < first_row[std::size_t(q) + 1]; ++i)
        for (index_t j = i + 1; j < n; ++j)
          if (pair_present(problem, i, j)) visit(i, j, problem.delta(i, j));
    };
    std::vector<double> least(std::size_t(parts), std::numeric_limits<double>::infinity()), most(std::size_t(parts), 0);
    std::vector<std::size_t> present(std::size_t(parts), 0);
    parallel_for(
        0, parts,
        [&](std::int64_t q) {
          rows_of(q, [&](index_t, index_t, double delta) {
            least[std::size_t(q)] = std::min(least[std::size_t(q)], delta);
            most[std::size_t(q)] = std::max(most[std::size_t(q)], delta);
            ++present[std::size_t(q)];
          });
        },
        1);
    const double low = *std::min_element(least.begin(), least.end());
    const double range = *std::max_element(most.begin(), most.end()) - low;
    // About four pairs a bucket; one bucket when the range is 0 (or so small that buckets / range overflows).
    std::size_t buckets = std::max<std::size_t>(1, std::accumulate(present.begin(), present.end(), std::size_t(0)) / 4);
    if (!std::isfinite(double(buckets) / range)) buckets = 1;
    const double scale = buckets > 1 ? double(buckets) / range : 0.0;
    auto bucket_of = [&](double delta) { return std::min(buckets - 1, std::size_t((delta - low) * scale)); };
    // counts[q * buckets + b]: part q's pairs in bucket b, then where they go.
    std::vector<std::size_t> counts(std::size_t(parts) * buckets, 0);
    parallel_for(
        0, parts,
        [&](std::int64_t q) {
          std::size_t* count = counts.data() + std::size_t(q) * buckets;
          rows_of(q, [&](index_t, index_t, double delta) { ++count[bucket_of(delta)]; });
        },
        1);
    std::vector<std::size_t> bucket_start(buckets + 1, 0);
    std::size_t offset = 0;
    for (std::size_t b = 0; b < buckets; ++b) {
      bucket_start[b] = offset;
      for (std::int64_t q = 0; q < parts; ++q) offset += std::exchange(counts[std::size_t(q) * buckets + b], offset);
    }
    bucket_start[buckets] = offset;
    std::vector<Key> keys(offset);
    parallel_for(
        0, parts,
        [&](std::int64_t q) {
          std::size_t* next = counts.data() + std::size_t(q) * buckets;
          rows_of(q, [&](index_t i, index_t j, double delta) { keys[next[bucket_of(delta)]++] = {delta, i, j}; });
        },
        1);
    parallel_for(
        0, std::int64_t(buckets),
        [&](std::int64_t b) {
          std::sort(keys.begin() + std::ptrdiff_t(bucket_start[std::size_t(b)]),
                    keys.begin() + std::ptrdiff_t(bucket_start[std::size_t(b) + 1]), [](const Key& u, const Key& v) {
                      return u.delta < v.delta || (u.delta == v.delta && (u.i < v.i || (u.i == v.i && u.j < v.j)));
                    });
        },
        4096);
    pairs.resize(keys.size());
    if (!unit) weights.resize(keys.size());
    for (std::size_t p = 0, tie = 0; p < keys.size(); ++p) {
      const Key& key = keys[p];
      const double w = unit ? 1.0 : problem.weights(key.i, key.j);
      pairs[p] = {key.i, key.j};
      if (!unit) weights[p] = w;
      target_norm += w * key.delta * key.delta;
      if (p == 0 || key.delta != keys[p - 1].delta) {
        tie = p;
        distinct.push_back(key.delta);
      }
      if (p > tie && (p + 1 == keys.size() || keys[p + 1].delta != key.delta)) ties.push_back({tie, p + 1});
    }
  }
};

/// The non-metric step of one run and its stress pass, both in the order of the dissimilarities
/// (SortedPairs). Each iteration computes the distances pair by pair in this order from the
/// configuration (N x d, in cache), sorts the tie runs by distance (primary ties) and fits the monotone
/// regression, kept as its blocks; the stress pass then reads each pair's distance and walks the blocks
/// for its disparity, in the same order, instead of scattering N^2 / 2 disparities into an N x N matrix
/// and reading them back row by row. The distances, the tie sorts and the pass run in parallel (the
/// pass in chunks of pairs fixed by N, each adding B X into an N x d slot of its own, summed in chunk
/// order: no sum depends on the thread count); pool-adjacent-violators in parallel chunks too.
/// Only a run with primary ties and tied dissimilarities reorders, so only it copies the pairs.
class MonotoneRegression {
 public:
  using Pair = SortedPairs::Pair;

  MonotoneRegression(const SortedPairs& sorted, TieApproach ties)
      : sorted_(sorted), primary_(ties == TieApproach::primary) {
    if (primary_ && !sorted.ties.empty()) {
      own_pairs_ = sorted.pairs;
      own_weights_ = sorted.weights;
    }
    pairs_ = own_pairs_.empty() ? sorted.pairs.data() : own_pairs_.data();
    const std::vector<double>& weights = own_pairs_.empty() ? sorted.weights : own_weights_;
    weights_ = weights.empty() ? nullptr : weights.data();
    if (!primary_ && !sorted.ties.empty()) {  // secondary ties: one regression entry per tie run
      std::size_t tie = 0;
      for (std::size_t p = 0; p < sorted.pairs.size();) {
        const std::size_t end = tie < sorted.ties.size() && sorted.ties[tie].first == p ? sorted.ties[tie++].second : p + 1;
        double weight_sum = 0;
        for (std::size_t q = p; q < end; ++q) weight_sum += weights_ != nullptr ? weights_[q] : 1.0;
        entry_ends_.push_back(end);
        entry_weights_.push_back(weight_sum);
        p = end;
      }
      entry_values_.resize(entry_ends_.size());
    }
  }
  MonotoneRegression(const MonotoneRegression&) = delete;
  MonotoneRegression& operator=(const MonotoneRegression&) = delete;

  /// Bytes per pair of one run: its distance, the regression's block, and with primary ties among tied
  /// dissimilarities its own copy of the pair and weight (secondary ties: per tie run, a value, a
  /// weight and an end, at most as much).
  static constexpr std::uint64_t pair_bytes = 8 + sizeof(PoolBlock) + 16;

  /// The monotone regression f of the distances of X (N x d) on the dissimilarity order; the
  /// disparities are dhat = scale * f with scale making sum w dhat^2 = sum w delta^2. Returns scale
  /// (0 when every distance is 0).
  /// (fit and stress_pass are templates only so that a unit instantiates their kernels where it calls them:
  /// docs/building.md, "Compile time".)
  double fit(const std::same_as<Matrix<double>> auto& X) {
    const Eigen::Index n = X.rows();
    const std::size_t count = sorted_.pairs.size(), chunk = chunk_pairs(n);
    distances_.resize(count);
    with_dimension(X.cols(), false, [&](auto fixed, auto) {
      const Eigen::Index dim = fixed > 0 ? Eigen::Index(fixed) : X.cols();
      const double* x = X.data();  // row-major: point i at x + i * dim
      parallel_for(
          0, std::int64_t((count + chunk - 1) / chunk),
          [&](std::int64_t c) {
            const std::size_t end = std::min(count, std::size_t(c + 1) * chunk);
            for (std::size_t p = std::size_t(c) * chunk; p < end; ++p) {
              const double *xi = x + pairs_[p].i * dim, *xj = x + pairs_[p].j * dim;
              double sum = 0;
              for (Eigen::Index k = 0; k < dim; ++k) sum += (xi[k] - xj[k]) * (xi[k] - xj[k]);
              distances_[p] = std::sqrt(sum);
            }
          },
          1);
    });
    MonotoneFit monotone;
    if (primary_) {  // tied dissimilarities ordered by distance, the order that fits best
      tie_scratch_.resize(std::size_t(max_threads()));
      parallel_for(
          0, std::int64_t(sorted_.ties.size()),
          [&](std::int64_t t) { sort_tie(sorted_.ties[std::size_t(t)], tie_scratch_[std::size_t(thread_index())]); }, 16);
      monotone = pool_adjacent_violators(distances_.data(), weights_, nullptr, count, blocks_);
    } else if (entry_ends_.empty()) {  // secondary ties but no tie: every pair is its own entry
      monotone = pool_adjacent_violators(distances_.data(), weights_, nullptr, count, blocks_);
    } else {  // secondary ties: each tie run one entry, its weighted mean distance
      parallel_for(
          0, std::int64_t(entry_ends_.size()),
          [&](std::int64_t e) {
            double sum = 0;
            for (std::size_t p = e > 0 ? entry_ends_[std::size_t(e) - 1] : 0; p < entry_ends_[std::size_t(e)]; ++p)
              sum += (weights_ != nullptr ? weights_[p] : 1.0) * distances_[p];
            entry_values_[std::size_t(e)] = sum / entry_weights_[std::size_t(e)];
          },
          4096);
      monotone = pool_adjacent_violators(entry_values_.data(), entry_weights_.data(), entry_ends_.data(),
                                         entry_ends_.size(), blocks_);
    }
    block_count_ = monotone.count;
    scale_ = monotone.squares > 0 ? std::sqrt(sorted_.target_norm / monotone.squares) : 0.0;
    return scale_;
  }

  /// The stress pass at the X of the last fit, with its disparities (see StressPass).
  StressPass stress_pass(const std::same_as<Matrix<double>> auto& X) {
    const Eigen::Index n = X.rows(), dim = X.cols();
    const std::size_t count = sorted_.pairs.size(), chunk = chunk_pairs(n);
    const auto chunks = std::int64_t((count + chunk - 1) / chunk);
    slots_.resize(chunks * n, dim);
    sums_.resize(chunks, 3);
    with_dimension(dim, weights_ != nullptr, [&](auto fixed, auto weighted) {
      const Eigen::Index d = fixed > 0 ? Eigen::Index(fixed) : dim;
      const double* x = X.data();
      parallel_for(
          0, chunks,
          [&](std::int64_t c) {
            double* slot = slots_.data() + c * n * d;  // row-major: point i at slot + i * d
            std::fill(slot, slot + n * d, 0.0);
            const std::size_t p0 = std::size_t(c) * chunk, p1 = std::min(count, p0 + chunk);
            const PoolBlock* block = std::upper_bound(blocks_.data(), blocks_.data() + block_count_, p0,
                                                      [](std::size_t p, const PoolBlock& b) { return p < b.end; });
            double raw = 0, distance_norm = 0, disparity_norm = 0;
            for (std::size_t p = p0; p < p1; ++block) {
              const double h = scale_ * block->value;
              for (const std::size_t end = std::min(p1, block->end); p < end; ++p) {
                const double dist = distances_[p], w = weighted ? weights_[p] : 1.0;
                raw += w * (h - dist) * (h - dist);
                distance_norm += w * dist * dist;
                disparity_norm += w * h * h;
                if (!(dist > 0)) continue;  // B_ij = 0 where d_ij = 0
                const double r = w * h / dist;
                const Pair pair = pairs_[p];
                const double *xi = x + pair.i * d, *xj = x + pair.j * d;
                double *si = slot + pair.i * d, *sj = slot + pair.j * d;
                if constexpr (fixed > 0) {  // one vector operation per step for d = 2 (SSE2)
                  using Point = Eigen::Array<double, decltype(fixed)::value, 1>;
                  const Point term = r * (Eigen::Map<const Point>(xi) - Eigen::Map<const Point>(xj));
                  Eigen::Map<Point>(si) += term;
                  Eigen::Map<Point>(sj) -= term;
                } else {
                  for (Eigen::Index k = 0; k < d; ++k) {
                    const double term = r * (xi[k] - xj[k]);
                    si[k] += term;
                    sj[k] -= term;
                  }
                }
              }
            }
            sums_.row(c) << raw, distance_norm, disparity_norm;
          },
          1);
    });
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

  /// Pairs per chunk of the stress pass for N points: about N / 64 chunks, whose slots
  /// (N^2 d / 64 doubles) stay small beside the N^2 / 2 pairs.
  static std::size_t chunk_pairs(Eigen::Index n) { return std::max<std::size_t>(1024, 32 * std::size_t(n)); }

  /// The last fit as a map: one knot per distinct dissimilarity (its mean disparity), increasing.
  void knots(std::vector<double>& delta, std::vector<double>& value) const {
    delta = sorted_.distinct;
    value.clear();
    const PoolBlock* block = blocks_.data();
    std::size_t tie = 0;
    for (std::size_t p = 0; p < sorted_.pairs.size();) {
      const auto& ties = sorted_.ties;
      const std::size_t end = tie < ties.size() && ties[tie].first == p ? ties[tie++].second : p + 1;
      double sum = 0;
      for (std::size_t q = p; q < end; ++q) {
        while (block->end <= q) ++block;
        sum += block->value;
      }
      value.push_back(scale_ * sum / double(end - p));
      p = end;
    }
  }

 private:
  /// Calls f(std::integral_constant<int, dim>, std::bool_constant<weighted>) for dim = 1, 2, 3 (loops
  /// the compiler unrolls), dim 0 otherwise: the pair loops compiled for each case.
  template <class F>
  static void with_dimension(Eigen::Index dim, bool weighted, F&& f) {
    auto with_weights = [&](auto fixed) {
      if (weighted)
        f(fixed, std::true_type{});
      else
        f(fixed, std::false_type{});
    };
    switch (dim) {
      case 1: with_weights(std::integral_constant<int, 1>{}); break;
      case 2: with_weights(std::integral_constant<int, 2>{}); break;
      case 3: with_weights(std::integral_constant<int, 3>{}); break;
      default: with_weights(std::integral_constant<int, 0>{});
    }
  }

  /// Workspace of sort_tie, one per thread.
  struct TieScratch {
    std::vector<double> distances, weights;
    std::vector<Pair> pairs;
    std::vector<std::size_t> starts;
  };

  /// Insertion sort of n entries by distance, moving pairs and weights (nullptr: none) along: stable,
  /// O(n + inversions).
  static void insertion_sort(double* distances, Pair* pairs, double* weights, std::size_t n) {
    for (std::size_t p = 1; p < n; ++p) {
      const double distance = distances[p];
      if (!(distance < distances[p - 1])) continue;
      const Pair pair = pairs[p];
      const double weight = weights != nullptr ? weights[p] : 0.0;
      std::size_t q = p;
      for (; q > 0 && distance < distances[q - 1]; --q) {
        distances[q] = distances[q - 1];
        pairs[q] = pairs[q - 1];
        if (weights != nullptr) weights[q] = weights[q - 1];
      }
      distances[q] = distance;
      pairs[q] = pair;
      if (weights != nullptr) weights[q] = weight;
    }
  }

  /// Stable sort of the tie run [begin, end) by distance, moving pairs and weights along: a bucket sort
  /// over the run's range of distances, two buckets per entry (the bucket index is monotone in the
  /// distance), then insertion sort, which moves entries only within their buckets. O(n) for any
  /// smooth spread of distances, whatever order the run starts in; the result is the one stable order.
  void sort_tie(std::pair<std::size_t, std::size_t> run, TieScratch& scratch) {
    const auto [begin, end] = run;
    const std::size_t n = end - begin;
    double* distances = distances_.data() + begin;
    Pair* pairs = own_pairs_.data() + begin;
    double* weights = weights_ != nullptr ? own_weights_.data() + begin : nullptr;
    double low = distances[0], high = distances[0];
    for (std::size_t p = 1; p < n; ++p) low = std::min(low, distances[p]), high = std::max(high, distances[p]);
    const std::size_t buckets = 2 * n;  // few buckets hold two entries: the insertion sort rarely moves
    const double scale = double(buckets) / (high - low);
    if (n <= 16 || !std::isfinite(scale)) return insertion_sort(distances, pairs, weights, n);
    auto bucket = [&](double distance) { return std::min(buckets - 1, std::size_t((distance - low) * scale)); };
    scratch.starts.assign(buckets + 1, 0);
    for (std::size_t p = 0; p < n; ++p) ++scratch.starts[bucket(distances[p]) + 1];
    std::partial_sum(scratch.starts.begin(), scratch.starts.end(), scratch.starts.begin());
    scratch.distances.resize(n);
    scratch.pairs.resize(n);
    if (weights != nullptr) scratch.weights.resize(n);
    for (std::size_t p = 0; p < n; ++p) {
      const std::size_t to = scratch.starts[bucket(distances[p])]++;
      scratch.distances[to] = distances[p];
      scratch.pairs[to] = pairs[p];
      if (weights != nullptr) scratch.weights[to] = weights[p];
    }
    insertion_sort(scratch.distances.data(), scratch.pairs.data(), weights != nullptr ? scratch.weights.data() : nullptr, n);
    std::copy(scratch.distances.begin(), scratch.distances.end(), distances);
    std::copy(scratch.pairs.begin(), scratch.pairs.end(), pairs);
    if (weights != nullptr) std::copy(scratch.weights.begin(), scratch.weights.end(), weights);
  }

  const SortedPairs& sorted_;
  bool primary_;
  std::vector<Pair> own_pairs_;       // primary ties among tied dissimilarities: this run's order
  std::vector<double> own_weights_;   // and its weights
  std::vector<TieScratch> tie_scratch_;
  const Pair* pairs_ = nullptr;       // the pairs in this run's order
  const double* weights_ = nullptr;   // their weights, or nullptr: every weight 1
  std::vector<double> distances_;     // ||x_i - x_j|| of each pair at the last fit
  std::vector<std::size_t> entry_ends_;           // secondary ties: the regression's entries (tie runs)
  std::vector<double> entry_weights_, entry_values_;
  PoolBuffer blocks_;                 // the last fit: blocks_.data()[0, block_count_)
  std::size_t block_count_ = 0;
  double scale_ = 0;
  Matrix<double> slots_;              // the stress pass's chunk c: rows c N .. c N + N - 1
  Eigen::MatrixXd sums_;              // chunk c's raw stress, sum w d^2, sum w dhat^2
};

/// Sums over the present pairs i < j (positive weight) that both starts need, taken once per fit.
struct PresentDissimilarities {
  double count = 0, sum = 0, squares = 0;

  explicit PresentDissimilarities(const MajorizationProblem& problem) {
    const Eigen::Index n = problem.delta.rows();
    for (Eigen::Index i = 0; i < n; ++i)
      for (Eigen::Index j = i + 1; j < n; ++j)
        if (pair_present(problem, index_t(i), index_t(j))) {
          sum += problem.delta(i, j);
          squares += problem.delta(i, j) * problem.delta(i, j);
          ++count;
        }
  }
};

/// Classical (Torgerson) MDS of the dissimilarities as a start (entries of weight 0 replaced by the
/// mean present dissimilarity). A coordinate whose eigenvalue is <= 0 would stay identically 0 under
/// every Guttman transform, so it gets small seeded noise instead.
/// (The entry points from here on are templates only so that a unit instantiates the solvers where it calls
/// them: docs/building.md, "Compile time".)
Matrix<double> classical_start(const std::same_as<MajorizationProblem> auto& problem,
                               const PresentDissimilarities& present, index_t dim, std::uint64_t seed,
                               const std::string& method) {
  const Eigen::Index n = problem.delta.rows();
  const double fill = present.count > 0 ? present.sum / present.count : 0.0;
  Matrix<double> B(n, n);
  parallel_for(0, n, [&](std::int64_t i) {
    for (Eigen::Index j = 0; j < n; ++j) {
      const bool missing = i != j && !pair_present(problem, index_t(i), index_t(j));
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

/// A seeded Gaussian configuration of n points whose root-mean-square distance matches the
/// dissimilarities'.
inline Matrix<double> random_start(const PresentDissimilarities& present, Eigen::Index n, index_t dim,
                                   std::uint64_t seed) {
  const double scale = std::sqrt(present.squares / present.count / (2.0 * double(dim)));  // E||x - y||^2 = 2 d s^2
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
  /// (Templates only so that a unit instantiates the factorization where it uses it: docs/building.md,
  /// "Compile time".)
  explicit GuttmanSolve(const std::same_as<Matrix<double>> auto& weights)
      : factor_(shifted_laplacian(weights)), llt_(factor_) {
    if (llt_.info() != Eigen::Success)
      throw convergence_error("stress majorization: V + 11^T/N is not positive definite (weights spanning "
                              "orders of magnitude?): rescale the weights");
  }
  GuttmanSolve(const GuttmanSolve&) = delete;
  GuttmanSolve& operator=(const GuttmanSolve&) = delete;

  Matrix<double> operator()(const std::same_as<Matrix<double>> auto& BX) const {
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
MajorizationResult majorize(const std::same_as<MajorizationProblem> auto& problem, const MajorizationSettings& settings,
                            const std::string& method) {
  const Eigen::Index n = problem.delta.rows();
  const bool unit = problem.weights.size() == 0;
  std::optional<GuttmanSolve> solve;
  if (!unit) solve.emplace(problem.weights);
  std::optional<SortedPairs> sorted;  // the pairs in dissimilarity order, sorted once for every run
  if (problem.nonmetric) sorted.emplace(problem);
  const PresentDissimilarities present(problem);

  struct Run {
    MajorizationResult result;
    double scale = 1;
  };
  // on_transform(t) after transform t; returns false to stop the run (another one failed).
  auto one_run = [&](int run, const std::function<bool(int)>& on_transform) {
    std::optional<MonotoneRegression> regression;
    if (problem.nonmetric) regression.emplace(*sorted, problem.ties);
    StressKernel stress_pass;
    Run out;
    auto evaluate = [&](const Matrix<double>& X) {
      if (!problem.nonmetric) return stress_pass(problem, problem.delta, X);
      out.scale = regression->fit(X);
      return regression->stress_pass(X);
    };
    const std::uint64_t run_seed = settings.seed ^ (0x9e3779b97f4a7c15ULL * std::uint64_t(run + 1));
    Matrix<double> X = run == 0 && settings.init == MajorizationInit::classical_mds
                           ? classical_start(problem, present, settings.dim, run_seed, method)
                           : random_start(present, n, settings.dim, run_seed);
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
    if (problem.nonmetric) regression->knots(r.map_delta, r.map_dhat);
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
