// Out-of-sample placement for the stress-majorization models (nldr::Smacof, nldr::Sammon): new points
// placed one at a time against the fixed configuration by the single-point Guttman update, and the
// validated distances from new points to the training points it starts from.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>

#include <Eigen/Core>

namespace nldr {
namespace detail {

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
