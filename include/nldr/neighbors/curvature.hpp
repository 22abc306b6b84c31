// Per-point mean and Gaussian curvature of a sampled d-manifold (docs/algorithms.md sec. 2.5;
// Roy 2015, sec. 3.2), the estimate behind CurvatureAdaptive, usable on its own.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>
#include <nldr/neighbors/detail/distance.hpp>
#include <nldr/neighbors/graph.hpp>
#include <nldr/neighbors/knn.hpp>

#include <Eigen/Core>
#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <Eigen/QR>
#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace nldr {

/// Options of estimate_curvature(X, options).
struct CurvatureOptions {
  /// Neighbors per point used by the fit; >= d + d(d+1)/2 (5 for d = 2, the number of
  /// unknowns of the quadratic fit minus the point itself); 12-30 is a good range.
  index_t k = 15;
  /// Intrinsic dimension d of the manifold, 1 <= d < D.
  index_t intrinsic_dim = 2;
};

/// Curvatures of every point (N entries each, same scalar as the points).
template <Real T>
struct Curvatures {
  Vector<T> mean;      ///< K_H(i) = trace(H_i) / d >= 0 (the normal is oriented so; see estimate_curvature)
  Vector<T> gaussian;  ///< K_G(i) = det(H_i)
};

namespace detail {

// The fits below are templates only so that a unit instantiates their solvers where it calls them
// (docs/building.md, "Compile time").

/// Number of unknowns of the quadratic height fit in d tangent coordinates:
/// constant + d linear + d(d+1)/2 quadratic.
inline index_t quadratic_fit_unknowns(index_t d) { return 1 + d + d * (d + 1) / 2; }

/// The `count` leading principal directions (D x count, orthonormal columns, by decreasing
/// variance) of the rows of `centered` (m x D, column means zero): eigenvectors of the smaller
/// of C^T C (D x D) and C C^T (m x m, mapped back through C^T), from a two-sided Jacobi SVD of
/// that square symmetric matrix (Jacobi rotations only: accurate for the leading directions and
/// free of the Householder code paths that trip GCC 12's -Wmaybe-uninitialized in Eigen 3.4).
Eigen::MatrixXd principal_directions(const std::same_as<Eigen::MatrixXd> auto& centered, index_t count) {
  using Svd = Eigen::JacobiSVD<Eigen::MatrixXd, Eigen::NoQRPreconditioner>;
  if (centered.cols() <= centered.rows()) {
    const Eigen::MatrixXd scatter = centered.transpose() * centered;
    return Svd(scatter, Eigen::ComputeFullV).matrixV().leftCols(count);
  }
  const Eigen::MatrixXd gram = centered * centered.transpose();
  Eigen::MatrixXd directions = centered.transpose() * Svd(gram, Eigen::ComputeFullU).matrixU().leftCols(count);
  directions.colwise().normalize();
  return directions;
}

/// K_H = trace(H) / d and K_G = det(H), the normal oriented so that trace(H) >= 0.
template <class Hessian>
std::pair<double, double> mean_and_gaussian(Hessian hessian) {
  if (hessian.trace() < 0) hessian = -hessian;
  return {hessian.trace() / double(hessian.rows()), hessian.determinant()};
}

/// The general fit, any D and d: `local` holds x_i and its neighbors relative to x_i, one per
/// row ((m + 1) x D, row 0 zero). Frame from principal_directions, least squares by a
/// column-pivoting QR of the (m + 1) x (1 + d + d(d+1)/2) design, whose rank decision keeps
/// ill-posed fits (a curve fitted with d = 2) bounded.
std::pair<double, double> fit_curvature(const std::same_as<Eigen::MatrixXd> auto& local, index_t d) {
  const Eigen::Index rows = local.rows();
  const Eigen::MatrixXd centered = local.rowwise() - local.colwise().mean();
  const Eigen::MatrixXd frame = principal_directions(centered, d + 1);
  const Eigen::MatrixXd tangent_coords = local * frame.leftCols(d);  // (m+1) x d
  const Eigen::VectorXd height = local * frame.col(d);
  Eigen::MatrixXd design(rows, quadratic_fit_unknowns(d));
  for (Eigen::Index r = 0; r < rows; ++r) {
    Eigen::Index col = 0;
    design(r, col++) = 1.0;
    for (index_t a = 0; a < d; ++a) design(r, col++) = tangent_coords(r, a);
    for (index_t a = 0; a < d; ++a)
      for (index_t b = a; b < d; ++b)
        design(r, col++) = (a == b ? 0.5 : 1.0) * tangent_coords(r, a) * tangent_coords(r, b);
  }
  const Eigen::VectorXd coef = design.colPivHouseholderQr().solve(height);
  Eigen::MatrixXd hessian(d, d);
  Eigen::Index col = 1 + d;
  for (index_t a = 0; a < d; ++a)
    for (index_t b = a; b < d; ++b) hessian(a, b) = hessian(b, a) = coef(col++);
  return mean_and_gaussian(hessian);
}

/// The same fit for a surface in 3-D (D = 3, d = 2) with fixed-size matrices and no heap
/// allocation, ~4x faster; nothing when the fit is ill-conditioned (the caller then takes
/// fit_curvature). Where it answers it agrees with fit_curvature to ~1e-11 relative:
///   - frame: Eigen's closed-form 3 x 3 eigensolver (computeDirect) on the scatter. It finds the
///     normal, the most distinct eigenvector, first, accurate to ~eps lambda_max / gap; required
///     gap (lambda_2 - lambda_3) >= 1e-4 lambda_1. Which orthonormal basis spans the tangent
///     plane does not matter: trace(H) and det(H) are invariant under its rotation.
///   - fit: normal equations solved by LDLT. They square the design's condition number; with
///     the tangent coordinates scaled to unit RMS radius its columns are O(1), and LDLT's pivots
///     (whose ratio bounds the condition number from below) must span less than 1e4, so the solve
///     keeps ~12 digits. Surface samples with k >= 12 pass both checks at almost every point
///     (Swiss roll, S-curve, sphere, twin peaks: measured); a curve or k barely above the 5
///     needed neighbors falls back.
std::optional<std::pair<double, double>> fit_surface_curvature(const std::same_as<Eigen::MatrixXd> auto& local) {
  constexpr double min_ratio = 1e-4;
  const Eigen::Index rows = local.rows();
  const Eigen::RowVector3d mean = local.colwise().mean();
  Eigen::Matrix3d scatter = Eigen::Matrix3d::Zero();
  for (Eigen::Index r = 0; r < rows; ++r) {
    const Eigen::RowVector3d centered = local.row(r) - mean;
    scatter.noalias() += centered.transpose() * centered;
  }
  Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eigen;
  eigen.computeDirect(scatter);  // eigenvalues ascending
  const Eigen::Vector3d& lambda = eigen.eigenvalues();
  if (!(lambda(1) - lambda(0) >= min_ratio * lambda(2))) return std::nullopt;
  Eigen::Matrix<double, 3, 2> tangent;
  tangent << eigen.eigenvectors().col(2), eigen.eigenvectors().col(1);
  const Eigen::Vector3d normal = eigen.eigenvectors().col(0);

  // Scaled coordinates (u / s, h / s), s the RMS radius of the tangent coordinates: there the
  // quadratic coefficients are s H.
  double radius2 = 0;
  for (Eigen::Index r = 0; r < rows; ++r) radius2 += (local.row(r) * tangent).squaredNorm();
  const double scale = radius2 > 0 ? std::sqrt(radius2 / double(rows)) : 1.0;
  using Vector6d = Eigen::Matrix<double, 6, 1>;
  Eigen::Matrix<double, 6, 6> normal_matrix = Eigen::Matrix<double, 6, 6>::Zero();
  Vector6d normal_rhs = Vector6d::Zero();
  for (Eigen::Index r = 0; r < rows; ++r) {
    const Eigen::RowVector2d u = local.row(r) * tangent / scale;
    Vector6d design_row;
    design_row << 1.0, u(0), u(1), 0.5 * u(0) * u(0), u(0) * u(1), 0.5 * u(1) * u(1);
    normal_matrix.noalias() += design_row * design_row.transpose();
    normal_rhs += design_row * (local.row(r).dot(normal) / scale);
  }
  const Eigen::LDLT<Eigen::Matrix<double, 6, 6>> solver(normal_matrix);
  const auto pivots = solver.vectorD().cwiseAbs();
  if (!(pivots.minCoeff() >= min_ratio * pivots.maxCoeff())) return std::nullopt;
  const Vector6d coef = solver.solve(normal_rhs) / scale;
  Eigen::Matrix2d hessian;
  hessian << coef(3), coef(4), coef(4), coef(5);
  return mean_and_gaussian(hessian);
}

}  // namespace detail

/// Estimates the curvature at every point from the first `k` entries of its list in `neighbors`
/// (nearest first; k = 0 uses the whole list). Per point i, in double:
///   1. local PCA of x_i and its neighbors, centered at their mean: the top d principal
///      directions span the tangent space, the (d+1)-th is the principal normal n;
///   2. every point y of the neighborhood gets tangent coordinates u = V_d^T (y - x_i) and
///      height h = n . (y - x_i); least squares of h = c + g.u + 1/2 u^T H u gives the Hessian
///      H (c and g absorb the offset and tilt of the PCA frame, which is fitted to the
///      neighborhood, not to x_i);
///   3. K_H = trace(H) / d and K_G = det(H). A point cloud has no preferred side, so the normal
///      is oriented to make trace(H) >= 0: K_H is the unsigned mean curvature (sphere of radius
///      r: K_H = 1/r, K_G = 1/r^2; cylinder: K_H = 1/(2r), K_G = 0; plane: 0, 0).
/// Surfaces in 3-D (D = 3, d = 2) take a fixed-size path (detail::fit_surface_curvature), other
/// shapes and ill-conditioned neighborhoods the general one (detail::fit_curvature).
/// The estimate is second-order: with neighbors within rho of x_i the relative error grows
/// like (rho / r)^2 plus the noise of the sample.
/// X: N x D points (finite); neighbors: a graph over the same N points (e.g. KNearest);
/// 1 <= intrinsic_dim < D. Cost O(N k (D^2 + d^4)); parallel over points.
/// \throws nldr::invalid_argument naming "X", "neighbors", "intrinsic_dim" or "k".
template <class Derived>
Curvatures<typename Derived::Scalar> estimate_curvature(const Eigen::MatrixBase<Derived>& X,
                                                        const NeighborGraph<typename Derived::Scalar>& neighbors,
                                                        index_t intrinsic_dim = 2, index_t k = 0) {
  using T = typename Derived::Scalar;
  static_assert(Real<T>, "nldr::estimate_curvature: the points must be float or double");
  validate_points(X, "X", 2);
  validate_same_rows(X.rows(), neighbors.size(), "X", "neighbors");
  validate_dimension(intrinsic_dim, X.cols(), "D (the columns of X)", "intrinsic_dim");
  const index_t d = intrinsic_dim;
  const index_t needed = detail::quadratic_fit_unknowns(d) - 1;
  if (k < 0) throw_invalid("k", "k = ", k, " must be >= 0 (0: use every listed neighbor)");
  const index_t n = neighbors.size();
  for (index_t i = 0; i < n; ++i) {
    const index_t used = k == 0 ? neighbors.degree(i) : std::min(k, neighbors.degree(i));
    if (used < needed)
      throw_invalid(k == 0 || neighbors.degree(i) < k ? "neighbors" : "k", "point ", i, " has ", used,
                    " neighbor(s) for the curvature fit, but a quadratic in d = ", d, " tangent coordinates needs >= ",
                    needed, ": use more neighbors (k)");
  }
  const PointsRef<T> ref(X.derived());
  const detail::PointRows<T> rows(ref);
  const Eigen::Index dim = rows.cols;
  const bool surface_in_3d = dim == 3 && d == 2;

  Curvatures<T> result{Vector<T>(n), Vector<T>(n)};
  std::vector<Eigen::MatrixXd> locals(static_cast<std::size_t>(max_threads()));  // reused from point to point
  parallel_for(0, n, [&](std::int64_t i) {
    const auto list = neighbors.neighbors(index_t(i));
    const index_t m = k == 0 ? index_t(list.size()) : std::min<index_t>(k, index_t(list.size()));
    Eigen::MatrixXd& local = locals[std::size_t(thread_index())];
    local.resize(m + 1, dim);  // row 0: x_i itself, relative coordinates y - x_i
    const T* origin = rows.row(index_t(i));
    local.row(0).setZero();
    for (index_t a = 0; a < m; ++a) {
      const T* y = rows.row(list[a]);
      for (Eigen::Index c = 0; c < dim; ++c) local(a + 1, c) = double(y[c]) - double(origin[c]);
    }
    std::optional<std::pair<double, double>> fitted;
    if (surface_in_3d) fitted = detail::fit_surface_curvature(local);
    const auto [mean, gaussian] = fitted ? *fitted : detail::fit_curvature(local, d);
    result.mean(i) = T(mean);
    result.gaussian(i) = T(gaussian);
  });
  return result;
}

/// Convenience: curvature from the exact kNN(options.k) graph of X (N x D, N > options.k).
///
/// \code
/// nldr::Matrix<double> X = ...;                                  // N x 3 samples of a surface
/// auto curv = nldr::estimate_curvature(X, {.k = 20, .intrinsic_dim = 2});
/// curv.mean(0);  curv.gaussian(0);                               // K_H, K_G of point 0
/// \endcode
template <class Derived>
Curvatures<typename Derived::Scalar> estimate_curvature(const Eigen::MatrixBase<Derived>& X,
                                                        const CurvatureOptions& options = {}) {
  validate_dimension(options.intrinsic_dim, X.cols(), "D (the columns of X)", "intrinsic_dim");
  return estimate_curvature(X, KNearest{options.k}(X), options.intrinsic_dim, 0);
}

}  // namespace nldr
