// What a quality metric measures distances on: N x D points (Euclidean distances between rows)
// or a precomputed N x N distance matrix (e.g. graph geodesics, exact manifold distances).
//
// Every metric in nldr::metrics accepts either form for each of its inputs:
//   metrics::trustworthiness(X, Y, 10);                           // points, points
//   metrics::residual_variance(metrics::precomputed(G), Y);       // geodesic matrix, points
#pragma once

#include <nldr/core/correlation.hpp>
#include <nldr/core/error.hpp>
#include <nldr/core/precomputed.hpp>
#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>
#include <utility>

namespace nldr::metrics {

/// Metrics take nldr::precomputed(D) (core/precomputed.hpp): D(i, j) >= 0 finite, D(i, i) = 0. Row i
/// gives the ranks of the other points seen from i; pair measures (Spearman, stress, residual
/// variance) read the upper triangle D(i, j), i < j.
using nldr::Precomputed;
using nldr::precomputed;

namespace detail {

template <class A>
using is_precomputed_input = nldr::is_precomputed<A>;

template <class A>
struct input_traits {
  using Scalar = typename A::Scalar;
};
template <class Derived>
struct input_traits<Precomputed<Derived>> {
  using Scalar = typename Derived::Scalar;
};

}  // namespace detail

/// An input a metric accepts: any dense Eigen matrix of points, or precomputed(D).
template <class A>
concept MetricInput = detail::is_precomputed_input<A>::value || std::is_base_of_v<Eigen::MatrixBase<A>, A>;

/// The scalar (float or double) of a metric input.
template <MetricInput A>
using input_scalar_t = typename detail::input_traits<A>::Scalar;

namespace detail {

/// Read-only, validated view of one metric input. Non-copyable: it may own a row-major copy of
/// the caller's matrix (Eigen::Ref does that for other layouts), so it lives in the caller's frame.
template <Real T>
class InputView {
 public:
  /// Validates `input` under the name `name` (used in error messages).
  template <MetricInput A>
  InputView(const A& input, const std::string& name) : data_(matrix_of(input)) {
    precomputed_ = is_precomputed_input<A>::value;
    rows_ = index_t(data_.rows());
    if (precomputed_) {
      validate_distance_matrix(name);
    } else {
      validate_points(data_, name);
      // Ranking keys are squared distances in T; pair measures sum up to N^2 of them in double.
      validate_distance_range<T>(data_, 1, name);
      validate_distance_range<double>(data_, Eigen::Index(rows_) * rows_, name);
      columns_ = data_.transpose();  // D x N, row c = coordinate c of every point
    }
  }
  InputView(const InputView&) = delete;
  InputView& operator=(const InputView&) = delete;

  index_t rows() const { return rows_; }

  /// Fills out[0..N) with the ranking keys of point i: squared Euclidean distances (monotone in
  /// the distance and free of sqrt rounding) for points, the given distances when precomputed.
  /// Points are read from a coordinate-major copy, so the loop runs over contiguous points (SIMD);
  /// each out[j] is still summed in coordinate order, bitwise equal to squared(i, j).
  void ranking_row(index_t i, T* out) const {
    if (precomputed_) {
      for (index_t j = 0; j < rows_; ++j) out[j] = data_(i, j);
      return;
    }
    std::fill(out, out + rows_, T(0));
    for (Eigen::Index c = 0; c < columns_.rows(); ++c) {
      const T* coordinate = columns_.row(c).data();
      const T center = coordinate[i];
      for (index_t j = 0; j < rows_; ++j) {
        const T diff = coordinate[j] - center;
        out[j] += diff * diff;
      }
    }
  }

  /// The distance between points i and j (Euclidean, or D(i, j) when precomputed), in double.
  double distance(index_t i, index_t j) const {
    return precomputed_ ? double(data_(i, j)) : std::sqrt(double(squared(i, j)));
  }

 private:
  template <MetricInput A>
  static const auto& matrix_of(const A& input) {
    if constexpr (is_precomputed_input<A>::value)
      return input.matrix.derived();
    else
      return input.derived();
  }

  /// Squared Euclidean distance of rows i and j, summed in coordinate order in T.
  T squared(index_t i, index_t j) const {
    const Eigen::Index dim = data_.cols();
    const T* a = data_.data() + Eigen::Index(i) * data_.outerStride();
    const T* b = data_.data() + Eigen::Index(j) * data_.outerStride();
    T sum = 0;
    for (Eigen::Index c = 0; c < dim; ++c) {
      const T diff = a[c] - b[c];
      sum += diff * diff;
    }
    return sum;
  }

  void validate_distance_matrix(const std::string& name) const {
    if (data_.rows() != data_.cols())
      throw_invalid(name, name, " is a precomputed distance matrix of ", data_.rows(), " x ", data_.cols(),
                    ": it must be square, N x N, one row and one column per point");
    if (rows_ == 0) throw_invalid(name, name, " is an empty distance matrix: supply N x N distances, N >= 1");
    double largest = 0;
    for (index_t i = 0; i < rows_; ++i)
      for (index_t j = 0; j < rows_; ++j) {
        const T value = data_(i, j);
        largest = std::max(largest, double(value));
        if (!std::isfinite(value) || value < 0)
          throw_invalid(name, name, "(", i, ", ", j, ") = ", value,
                        " is not a finite, non-negative distance: precomputed distances must be >= 0 and finite");
        if (i == j && value != 0)
          throw_invalid(name, name, "(", i, ", ", i, ") = ", value,
                        " must be 0 (a point's distance to itself): is this a similarity matrix?");
      }
    if (!std::isfinite(largest * largest * double(rows_) * double(rows_)))  // pair measures sum N^2 squares
      throw_invalid(name, name, " holds a distance of ", largest, ", whose square summed over the N = ", rows_,
                    " points overflows a double: rescale the distances");
  }

  PointsRef<T> data_;
  Matrix<T> columns_;  // D x N row-major copy of the points (empty when precomputed)
  index_t rows_ = 0;
  bool precomputed_ = false;
};

/// Requires the pair distances of both inputs, as accumulated in `pearson` (a: the first input,
/// named name_a; b: the second), to vary: a correlation of a constant is undefined.
inline void validate_correlated(const PearsonAccumulator& pearson, const std::string& name_a,
                                const std::string& name_b, const char* measure) {
  for (const auto& [varies, name] : {std::pair{pearson.a_varies(), &name_a}, std::pair{pearson.b_varies(), &name_b}})
    if (!varies)
      throw_invalid(*name, "every pair distance of ", *name, " used is the same (e.g. all points coincide), so ",
                    measure, " is undefined: check ", *name);
}

/// Requires 1 <= k <= N - 2 (docs/algorithms.md sec. 4: R_NX and the rank criteria are defined there).
inline void validate_rank_k(Eigen::Index k, Eigen::Index n, const std::string& name = "k") {
  if (n < 3) throw_invalid("X", "rank-based quality needs N >= 3 points, got N = ", n, ": supply more points");
  if (k < 1) throw_invalid(name, name, " = ", k, " must be >= 1");
  if (k > n - 2)
    throw_invalid(name, name, " = ", k, " must be <= N - 2 = ", n - 2,
                  " (rank criteria compare neighborhoods of at most N - 2 points): lower ", name);
}

/// Validates a pair of metric inputs (same N, N >= 3) and returns N.
template <Real T>
index_t validate_pair(const InputView<T>& X, const InputView<T>& Y) {
  validate_same_rows(X.rows(), Y.rows(), "X", "Y");
  if (X.rows() < 3)
    throw_invalid("X", "quality measures need N >= 3 points, got N = ", X.rows(), ": supply more points");
  return X.rows();
}

template <MetricInput A, MetricInput B>
constexpr void check_scalars() {
  static_assert(Real<input_scalar_t<A>>, "nldr::metrics: inputs must be float or double");
  static_assert(std::is_same_v<input_scalar_t<A>, input_scalar_t<B>>,
                "nldr::metrics: both inputs must have the same scalar type; convert one with .cast<T>()");
}

}  // namespace detail
}  // namespace nldr::metrics
