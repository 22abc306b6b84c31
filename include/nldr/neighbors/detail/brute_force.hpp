// Blocked brute-force neighbor search on GEMM, for high D where k-d trees degenerate.
//
// For a block of queries Q and a block of points P, the squared distances are approximated as
// |q|^2 + |p|^2 - 2 q.p with one matrix product on mean-centered points (centering keeps the
// norms, and so the cancellation error, small). The product is OpenBLAS's GEMM when nldr::openblas
// is linked (NLDR_HAVE_OPENBLAS: OpenBLAS picks AVX2/AVX-512 kernels at run time, where Eigen
// compiles for the build's -march), Eigen's otherwise; in float for float data and, where the
// range allows, for double data too. That form loses precision, so it only filters: every point
// whose approximation is within a rigorous error margin of the current k-th best (or of the
// radius) is kept as a candidate, and the candidates are then offered to the query's NearestSet
// at their exact squared_distance() in T, which makes the final choice. Memory is the centered
// copy (N x D, in float when the GEMM is) plus one query-block x point-block product per thread,
// never N x N.
#pragma once

#include <nldr/core/single_threaded_blas.hpp>
#include <nldr/core/types.hpp>
#include <nldr/neighbors/detail/distance.hpp>
#include <nldr/neighbors/detail/result_sets.hpp>

#include <Eigen/Core>
#if defined(NLDR_HAVE_OPENBLAS)
#include <cblas.h>
#endif
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

namespace nldr::detail {

/// out (rows(a) x rows(b), row-major) = -2 a b^T, with a and b row-major and contiguous.
template <Real T>
void minus_twice_products(const Matrix<T>& a, const T* b, index_t b_rows, Matrix<T>& out) {
  out.resize(a.rows(), b_rows);
#if defined(NLDR_HAVE_OPENBLAS)
  const auto m = int(a.rows()), n = int(b_rows), d = int(a.cols());
  if constexpr (std::is_same_v<T, float>)
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, m, n, d, -2.0f, a.data(), d, b, d, 0.0f, out.data(), n);
  else
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, m, n, d, -2.0, a.data(), d, b, d, 0.0, out.data(), n);
#else
  const Eigen::Map<const Matrix<T>> b_rows_map(b, b_rows, a.cols());
  out.noalias() = T(-2) * (a * b_rows_map.transpose());
#endif
}

template <Real T>
class BruteForce {
 public:
  /// Queries handled together (rows of one GEMM) and points per GEMM column block:
  /// 256 x 1024 values of T are 1-2 MiB per thread.
  static constexpr index_t query_block = 256;
  static constexpr index_t point_block = 1024;

  /// `points` must outlive this object. While it exists, OpenBLAS runs single-threaded
  /// (SingleThreadedBlas): call search() from parallel_for.
  explicit BruteForce(PointRows<T> points) : points_(points) {
    using Map = Eigen::Map<const Matrix<T>, 0, Eigen::OuterStride<>>;
    const Map x(points.data, points.rows, points.cols, Eigen::OuterStride<>(points.stride));
    mean_ = x.colwise().mean();
    norms_ = (x.rowwise() - mean_).rowwise().squaredNorm();  // no N x D temporary in T
    max_norm_ = norms_.size() > 0 ? norms_.maxCoeff() : T(0);
    // Higham (2002), sec. 3.1: a dot product or squared norm of D terms computed in any order errs
    // by at most gamma_D = D u / (1 - D u) times the sum of |terms|, which is <= |q|^2 + |p|^2 here;
    // the three further operations of |q|^2 + |p|^2 - 2 q.p and the rounding of the centering add
    // a few u more. 4 (D + 8) u (|q|^2 + |p|^2) bounds the total with a factor >= 2 to spare.
    error_scale_ = T(4) * T(points.cols + 8) * std::numeric_limits<T>::epsilon();
    slack_ = rounding_slack<T>(points.cols);
    if constexpr (std::is_same_v<T, double>) {
      // Double data filtered by a float GEMM: twice the GEMM's speed and half its memory. Rounding
      // the centered coordinates to float errs by u_f |c| (+ 2^-150 below float's normal range) and
      // the float dot product by gamma_D in u_f: the bound above with u = u_f covers the relative
      // part with the same spare; 2^-140 D (1 + max |p|) covers the absolute part of subnormals
      // (256 times over). Only where the products cannot overflow float and the absolute part
      // stays negligible; the exact recheck in double still decides.
      if (max_norm_ <= float_norm_limit && max_norm_ >= 1e-20) {
        centered_float_ = (x.rowwise() - mean_).template cast<float>();
        error_scale_ = T(4) * T(points.cols + 8) * T(std::numeric_limits<float>::epsilon());
        error_floor_scale_ = std::ldexp(1.0, -140) * T(points.cols);
        return;
      }
    }
    centered_ = x.rowwise() - mean_;
  }

  /// Offers to sets[q] (reset for queries[q]) a superset of the answer of point queries[q],
  /// at exact squared distances. queries.size() <= query_block.
  void search(std::span<const index_t> queries, std::span<NearestSet<T>> sets) const {
    const auto block = [&]<Real G>(const Matrix<G>& centered) {
      QueryBlock<G> b(index_t(queries.size()), points_.cols);
      for (std::size_t q = 0; q < queries.size(); ++q) {
        b.centered.row(Eigen::Index(q)) = centered.row(queries[q]);
        b.norms[q] = norms_[queries[q]];
        b.self[q] = queries[q];
        b.rows[q] = points_.row(queries[q]);
      }
      search_with<G>(centered, b, sets);
    };
    centered_float_.size() > 0 ? block(centered_float_) : block(centered_);
  }

  /// The same for points outside the set: rows [first, first + sets.size()) of `outside` (row-major,
  /// D columns), each set reset for an outside point (no self to exclude). sets.size() <= query_block.
  void search_outside(const Matrix<T>& outside, index_t first, std::span<NearestSet<T>> sets) const {
    const auto nq = index_t(sets.size());
    const auto block = [&]<Real G>(const Matrix<G>& centered) {
      QueryBlock<G> b(nq, points_.cols);
      for (index_t q = 0; q < nq; ++q) {
        const Eigen::Matrix<T, 1, Eigen::Dynamic> c = outside.row(first + q) - mean_;
        b.centered.row(q) = c.template cast<G>();
        b.norms[std::size_t(q)] = c.squaredNorm();
        b.rows[std::size_t(q)] = outside.row(first + q).data();
      }
      search_with<G>(centered, b, sets);
    };
    if (centered_float_.size() == 0) return block(centered_);
    // A query too large for float's products is compared exactly with every point instead.
    bool fits_float = true;
    for (index_t q = 0; q < nq; ++q)
      fits_float = fits_float && (outside.row(first + q) - mean_).squaredNorm() <= float_norm_limit;
    if (fits_float) return block(centered_float_);
    for (index_t q = 0; q < nq; ++q)
      for (index_t j = 0; j < points_.rows; ++j)
        sets[std::size_t(q)].addPoint(squared_distance(outside.row(first + q).data(), points_.row(j), points_.cols),
                                      typename NearestSet<T>::IndexType(j));
  }

 private:
  // Largest centered squared norm whose products a float GEMM computes without overflow.
  static constexpr double float_norm_limit = 1e30;

  // One block of queries as the filter reads them: centered rows in the GEMM's type G, their
  // centered squared norms, the point each query is (excluded from its answer; -1 for outside
  // points) and its row in T for the exact recheck.
  template <Real G>
  struct QueryBlock {
    QueryBlock(index_t n, Eigen::Index dim)
        : centered(n, dim), norms(std::size_t(n)), self(std::size_t(n), index_t(-1)), rows(std::size_t(n)) {}
    Matrix<G> centered;
    std::vector<T> norms;
    std::vector<index_t> self;
    std::vector<const T*> rows;
  };

  struct Filter {
    std::vector<std::pair<T, index_t>> candidates;  // (approximate squared distance, point)
    T threshold = 0;                               // candidates above it cannot be in the answer
    T error = 0;                                   // bound on |approximate - exact| for this query
    std::size_t capacity = 0;
    std::size_t prune_at = 0;
  };

  // The search with the GEMM in G (T, or float for double data); `centered` holds the centered
  // points in G.
  template <Real G>
  void search_with(const Matrix<G>& centered, const QueryBlock<G>& queries, std::span<NearestSet<T>> sets) const {
    const index_t nq = index_t(queries.norms.size());
    const Eigen::Index dim = points_.cols;
    const Matrix<G>& q_rows = queries.centered;
    std::vector<Filter> filters(std::size_t(nq), Filter{});
    for (index_t q = 0; q < nq; ++q) {
      Filter& f = filters[q];
      const T q_norm = queries.norms[std::size_t(q)];
      f.error = error_scale_ * (q_norm + max_norm_) + error_floor_scale_ * (1 + std::sqrt(std::max(max_norm_, q_norm)));
      f.threshold = limit(sets[q].squared_radius_bound(), f.error);
      f.capacity = std::size_t(sets[q].capacity());
      f.prune_at = 2 * f.capacity + 64;
    }
    Matrix<G> approx;  // nq x np: -2 q.p, completed to approximate squared distances in the filter
    for (index_t p0 = 0; p0 < points_.rows; p0 += point_block) {
      const index_t np = std::min(point_block, points_.rows - p0);
      minus_twice_products<G>(q_rows, centered.row(p0).data(), np, approx);
      const T* p_norms = norms_.data() + p0;
      for (index_t q = 0; q < nq; ++q) {
        Filter& f = filters[q];
        const index_t self = queries.self[std::size_t(q)];
        const G* row = approx.row(q).data();
        const T q_norm = queries.norms[std::size_t(q)];
        for (index_t c = 0; c < np; ++c) {
          const T a = (T(row[c]) + p_norms[c]) + q_norm;
          // !(a > t) also admits NaN, which only an overflowing norm can produce; the error
          // margin is then infinite as well, so nothing is filtered out.
          if (a > f.threshold || p0 + c == self) continue;
          f.candidates.emplace_back(std::isnan(a) ? std::numeric_limits<T>::infinity() : a, p0 + c);
          if (f.candidates.size() >= f.prune_at) prune(f);
        }
      }
    }
    for (index_t q = 0; q < nq; ++q) {
      // Up to ~2k + 64 candidates accumulate between prunes; one last prune leaves about k for
      // the exact recheck, which costs D operations each (it took 9% of the search at D = 784).
      prune(filters[q]);
      const T* query = queries.rows[std::size_t(q)];
      for (const auto& [approx_distance, j] : filters[q].candidates)
        if (!(approx_distance > filters[q].threshold))
          sets[q].addPoint(squared_distance(query, points_.row(j), dim), typename NearestSet<T>::IndexType(j));
    }
  }

  // Largest approximation a point can have and still belong to an answer whose exact k-th
  // squared distance is at most `squared` + error: one error margin to reach the exact value,
  // the rounding slack of the exact computation, one margin back.
  T limit(T squared, T error) const { return (squared + error) * (T(1) + slack_) + error; }

  // Shrinks the candidates to those within the margin of the current k-th best approximation.
  void prune(Filter& f) const {
    auto& c = f.candidates;
    if (f.capacity > 0 && c.size() > f.capacity) {
      auto kth = c.begin() + std::ptrdiff_t(f.capacity - 1);
      std::nth_element(c.begin(), kth, c.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      f.threshold = std::min(f.threshold, limit(kth->first, f.error));
      c.erase(std::remove_if(c.begin(), c.end(), [&](const auto& e) { return e.first > f.threshold; }), c.end());
    }
    // Many ties within the margin can keep the list long: prune again only once it has doubled.
    f.prune_at = 2 * std::max(c.size(), f.capacity) + 64;
  }

  SingleThreadedBlas blas_threads_;
  PointRows<T> points_;
  Matrix<T> centered_;            // N x D, rows minus their mean (empty when centered_float_ is used)
  Matrix<float> centered_float_;  // the same in float, for double data whose range allows it
  Eigen::Matrix<T, 1, Eigen::Dynamic> mean_;  // the points' mean, which every row is centered by
  Vector<T> norms_;     // squared norms of the centered rows
  T max_norm_ = 0;
  T error_scale_ = 0;
  // Absolute part of the error bound, times 1 + the largest centered norm of a query or point
  // (float GEMM for double data only).
  T error_floor_scale_ = 0;
  T slack_ = 0;
};

}  // namespace nldr::detail
