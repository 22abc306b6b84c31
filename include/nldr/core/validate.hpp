// Input validation shared by every public entry. Checks are always on (never
// compiled out under NDEBUG): a wrong answer is worse than a microsecond.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/types.hpp>

#include <Eigen/Core>
#include <cmath>
#include <string>

namespace nldr {

/// Requires `points` (N x D, one point per row) to be non-empty, have at least
/// `min_points` rows and contain only finite values. `name` is used in the message.
template <class Derived>
void validate_points(const Eigen::MatrixBase<Derived>& points, const std::string& name = "X",
                     Eigen::Index min_points = 1) {
  const Eigen::Index n = points.rows(), d = points.cols();
  if (n == 0 || d == 0)
    throw_invalid(name, name, " is empty (", n, " x ", d, "): supply at least ", min_points,
                  " point(s) with at least one coordinate");
  if (n < min_points)
    throw_invalid(name, name, " has N = ", n, " points, fewer than the ", min_points,
                  " this method needs: supply more points");
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < d; ++j)
      if (!std::isfinite(points(i, j)))
        throw_invalid(name, name, "(", i, ", ", j, ") = ", points(i, j),
                      " is not finite: remove or impute NaN/Inf values first");
}

/// Requires the squared distances between rows of `points` to be representable in S: `terms` of
/// them add up without overflow (every squared distance is at most the squared diagonal of the
/// bounding box, rounding being monotone, so checking terms * diagonal^2 in S suffices; terms = 1:
/// a distance itself, N: a sum over the points as in a covariance or a Gram matrix), and, unless
/// all points are equal, they do not all underflow to 0 (coordinates differing by 1e-300 do).
template <Real S, class Derived>
void validate_distance_range(const Eigen::MatrixBase<Derived>& points, Eigen::Index terms, const std::string& name = "X") {
  if (points.rows() == 0) return;
  using Scalar = typename Derived::Scalar;
  // The bounding box, read in storage order (column by column through row-major data strides
  // over memory once per column: seconds on 60,000 x 784).
  Eigen::Matrix<Scalar, 1, Eigen::Dynamic> low, high;
  if constexpr (Derived::IsRowMajor) {
    low = high = points.row(0);
    for (Eigen::Index i = 1; i < points.rows(); ++i) {
      low = low.cwiseMin(points.row(i));
      high = high.cwiseMax(points.row(i));
    }
  } else {
    low = points.colwise().minCoeff();
    high = points.colwise().maxCoeff();
  }
  S diagonal = 0;
  bool distinct = false;
  for (Eigen::Index c = 0; c < points.cols(); ++c) {
    distinct = distinct || low[c] != high[c];
    const S extent = S(high[c]) - S(low[c]);
    diagonal += extent * extent;
  }
  if (!std::isfinite(diagonal * S(terms)))
    throw_invalid(name, "the squared distances between rows of ", name, terms > 1 ? ", summed over the points," : "",
                  " may overflow the ", sizeof(S) * 8, "-bit scalar type (bounding-box diagonal^2 = ", diagonal,
                  "): rescale ", name, ", e.g. divide it by its largest absolute value");
  if (distinct && diagonal == 0)
    throw_invalid(name, "the points of ", name, " differ, but every squared distance between them underflows the ",
                  sizeof(S) * 8, "-bit scalar type to 0: rescale ", name, ", e.g. divide it by its largest absolute value");
}

/// Requires at least two distinct points: an embedder given N copies of one point would return an
/// arbitrary basis of a degenerate eigenproblem, finite but meaningless.
template <class Derived>
void validate_not_all_identical(const Eigen::MatrixBase<Derived>& points, const std::string& name = "X") {
  for (Eigen::Index i = 1; i < points.rows(); ++i)
    if (points.row(i) != points.row(0)) return;
  throw_invalid(name, "all ", points.rows(), " points of ", name,
                " are identical: there is no structure to embed; check how the data was loaded");
}

/// Requires 1 <= k <= n_points - 1 (a point is never its own neighbor).
inline void validate_neighbor_count(Eigen::Index k, Eigen::Index n_points, const std::string& name = "k") {
  if (k < 1) throw_invalid(name, name, " = ", k, " must be >= 1");
  if (k >= n_points)
    throw_invalid(name, name, " = ", k, " must be < N = ", n_points,
                  " (a point is not its own neighbor): lower ", name, " or supply more points");
}

/// Requires the target dimension 1 <= dim < limit (limit: N, or D where that matters).
inline void validate_dimension(Eigen::Index dim, Eigen::Index limit, const std::string& limit_name,
                               const std::string& name = "dim") {
  if (dim < 1) throw_invalid(name, name, " = ", dim, " must be >= 1");
  if (dim >= limit)
    throw_invalid(name, name, " = ", dim, " must be < ", limit_name, " = ", limit, ": lower ", name);
}

/// Requires dim <= D, the input dimension (methods whose local bases live in the input space).
inline void validate_dim_within_input(Eigen::Index dim, Eigen::Index d_in) {
  if (dim > d_in) throw_invalid("dim", "dim = ", dim, " exceeds the input dimension D = ", d_in, ": lower dim");
}

/// Requires two inputs to describe the same number of points.
inline void validate_same_rows(Eigen::Index rows_a, Eigen::Index rows_b, const std::string& name_a,
                               const std::string& name_b) {
  if (rows_a != rows_b)
    throw_invalid(name_b, name_a, " has ", rows_a, " rows but ", name_b, " has ", rows_b,
                  ": both must hold one row per point, in the same order");
}

/// Requires a finite, strictly positive value.
inline void validate_positive(double value, const std::string& name) {
  if (!(std::isfinite(value) && value > 0))
    throw_invalid(name, name, " = ", value, " must be finite and > 0");
}

}  // namespace nldr
