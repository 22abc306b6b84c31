// What stress majorization minimizes (embed/routines/majorization.hpp): the N x N dissimilarities, their
// weights and the non-metric flag, and the validated ways a user's input becomes them: the Euclidean
// distances of points, a dissimilarity matrix, a weight matrix.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>
#include <nldr/embed/majorization_options.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace nldr {
namespace detail {

/// What the optimizer minimizes: dissimilarities, weights and, for non-metric MDS, the order.
struct MajorizationProblem {
  Matrix<double> delta;    ///< N x N dissimilarities, symmetric, zero diagonal
  Matrix<double> weights;  ///< N x N, symmetric, >= 0; empty: every weight 1
  bool nonmetric = false;
  TieApproach ties = TieApproach::primary;
};

/// Checks the points of a fit: X N x D, finite, N >= 3, not all identical, whose N^2 squared distances
/// sum in double without overflow. \throws nldr::invalid_argument naming "X".
template <class Derived>
void validate_majorization_points(const Eigen::MatrixBase<Derived>& X) {
  validate_points(X, "X", 3);
  validate_not_all_identical(X);
  validate_distance_range<double>(X, X.rows() * X.rows());
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

}  // namespace detail
}  // namespace nldr
