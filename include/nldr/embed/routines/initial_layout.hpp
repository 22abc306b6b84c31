// Starting coordinates of the gradient-based embedders (t-SNE, UMAP): the points' first principal
// components or seeded random coordinates, rescaled to the spread the method starts from, or
// coordinates the user gives. Kobak & Linderman (2021): a PCA start keeps the global layout that a
// random start loses, provided it is scaled small enough not to slow the first iterations
// (docs/iterative.md, "Initialization").
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/random.hpp>
#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>
#include <nldr/embed/pca.hpp>

#include <cmath>
#include <cstdint>

namespace nldr::detail {

/// `Y` centered and scaled so that its first column has standard deviation `stddev`
/// (t-SNE: 1e-4, as scikit-learn and openTSNE do after Kobak & Linderman 2021); a constant first
/// column is left centered.
inline void scale_layout(Matrix<double>& Y, double stddev) {
  if (Y.rows() == 0) return;
  Y.rowwise() -= Y.colwise().mean();
  const double spread = std::sqrt(Y.col(0).squaredNorm() / double(Y.rows()));
  if (spread > 0) Y *= stddev / spread;
}

/// The first `dim` principal components of the points (exact PCA), scaled by scale_layout.
template <Real T>
Matrix<double> pca_layout(const Matrix<T>& X, index_t dim, double stddev) {
  if (X.cols() < dim)
    throw_invalid("init", "init = pca needs at least as many input dimensions (n_features = ", X.cols(),
                  ") as embedding dimensions (", dim, "): use init = random or spectral");
  Matrix<double> Y = Pca{{.dim = dim, .algorithm = PcaAlgorithm::covariance}}.fit(X).coordinates.template cast<double>();
  scale_layout(Y, stddev);
  return Y;
}

/// n x dim seeded Gaussian coordinates of standard deviation `stddev` (the same for every thread count).
inline Matrix<double> random_layout(index_t n, index_t dim, double stddev, std::uint64_t seed) {
  Random random(seed);
  Matrix<double> Y(n, dim);
  for (index_t i = 0; i < n; ++i)
    for (index_t c = 0; c < dim; ++c) Y(i, c) = random.normal(0, stddev);
  return Y;
}

/// The user's starting coordinates, checked: n x dim and finite.
/// \throws nldr::invalid_argument naming "init".
template <Real T>
Matrix<double> given_layout(const Matrix<T>& Y0, index_t n, index_t dim) {
  if (Y0.rows() != n || Y0.cols() != dim)
    throw_invalid("init", "the given initial coordinates are ", Y0.rows(), " x ", Y0.cols(), " where the fit needs ",
                  n, " x ", dim, " (one row per point, one column per embedding dimension)");
  if (!Y0.allFinite()) throw_invalid("init", "the given initial coordinates hold NaN or Inf");
  return Y0.template cast<double>();
}

}  // namespace nldr::detail
