// Local principal directions of one neighborhood, shared by modified LLE, Hessian LLE and LTSA.
#pragma once

#include <Eigen/Core>
#include <Eigen/Eigenvalues>

#include <concepts>

namespace nldr::detail {

/// Spectrum of the k x k Gram matrix Z Z^T of a neighborhood Z (k x D, one row per member), in
/// DESCENDING order: values are the squared singular values of Z (zeros past rank(Z) <= min(k, D)),
/// columns of `vectors` (k x k) its left singular vectors. With Z centered, the first d columns are
/// the local PCA coordinates of the members along the top-d tangent directions (Zhang & Zha 2004).
/// Working on the k x k Gram keeps the cost at O(k^2 D + k^3) for any input dimension D.
struct LocalSpectrum {
  Eigen::VectorXd values;
  Eigen::MatrixXd vectors;
};

/// (A template only so that a unit instantiates the solver where it calls it: docs/building.md, "Compile time".)
LocalSpectrum gram_spectrum(const std::same_as<Eigen::MatrixXd> auto& Z) {
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(Z * Z.transpose());
  // Eigen returns ascending order; reverse to descending.
  return {solver.eigenvalues().reverse(), solver.eigenvectors().rowwise().reverse()};
}

/// Rows `members` of X minus `center` (a 1 x D row): the neighborhood matrix Z (|members| x D).
template <class Points, class Members, class Center>
Eigen::MatrixXd neighborhood(const Points& X, const Members& members, const Center& center) {
  Eigen::MatrixXd Z(Eigen::Index(members.size()), X.cols());
  for (Eigen::Index r = 0; r < Z.rows(); ++r) Z.row(r) = X.row(members[std::size_t(r)]) - center;
  return Z;
}

/// The members' rows centered at their mean.
template <class Points, class Members>
Eigen::MatrixXd centered_neighborhood(const Points& X, const Members& members) {
  Eigen::MatrixXd Z = neighborhood(X, members, Eigen::RowVectorXd::Zero(X.cols()));
  Z.rowwise() -= Z.colwise().mean();
  return Z;
}

}  // namespace nldr::detail
