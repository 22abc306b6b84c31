// Barycenter (reconstruction) weights of one neighborhood, the first step of LLE
// (Roweis & Saul 2000, eq. 2-3): w minimizes ||x_i - sum_j w_j x_j||^2 subject to sum_j w_j = 1.
#pragma once

#include <Eigen/Cholesky>
#include <Eigen/Core>

namespace nldr::detail {

/// Weights for a neighborhood given as Z (k x D, row j = x_j - x_i). Solves (C + r I) w = 1 with the
/// local Gram C = Z Z^T and r = reg * trace(C) (Roy 2015, eq. 2.6; r = reg when trace(C) = 0, as
/// scikit-learn), then rescales w to sum 1. The regularization makes C invertible when k > D.
/// Invariant to rotation, translation and uniform scaling of the neighborhood (C scales by s^2, r too).
/// (Generic, which also means a unit instantiates the solver only where it calls it: docs/building.md,
/// "Compile time".)
template <class Derived>
Eigen::VectorXd barycenter_weights(const Eigen::MatrixBase<Derived>& Z, double reg) {
  Eigen::MatrixXd gram = Z * Z.transpose();
  const double trace = gram.trace();
  gram.diagonal().array() += trace > 0 ? reg * trace : reg;
  Eigen::VectorXd w = gram.ldlt().solve(Eigen::VectorXd::Ones(Z.rows()));
  return w / w.sum();
}

}  // namespace nldr::detail
