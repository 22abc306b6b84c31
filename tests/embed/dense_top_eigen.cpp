// The dense top-eigenpair solver (Lanczos on a parallel mat-vec) against Eigen's full decomposition.
#include "catch.hpp"

#include <nldr/core/random.hpp>
#include <nldr/embed/detail/dense_top_eigen.hpp>

#include <Eigen/Eigenvalues>
#include <Eigen/QR>
#include <type_traits>

namespace {

// Symmetric matrix with a known, well separated spectrum: A = Q diag(lambda) Q^T, Q orthogonal
// from the QR of a seeded Gaussian matrix, lambda = 100, 80, 60, then a bulk in [-1, 1], and -50 at
// the bottom (so the smallest eigenvalue is known too).
Eigen::MatrixXd known_spectrum(int n, Eigen::VectorXd& lambda) {
  nldr::Random random(5);
  Eigen::MatrixXd g(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) g(i, j) = random.normal();
  const Eigen::HouseholderQR<Eigen::MatrixXd> qr(g);
  const Eigen::MatrixXd q = qr.householderQ();
  lambda.resize(n);
  for (int i = 0; i < n; ++i) lambda[i] = random.uniform(-1, 1);
  lambda[0] = 100;
  lambda[1] = 80;
  lambda[2] = 60;
  lambda[3] = -50;
  Eigen::MatrixXd a = q * lambda.asDiagonal() * q.transpose();
  return 0.5 * (a + a.transpose());
}

}  // namespace

TEMPLATE_TEST_CASE("dense_top_eigenpairs: Lanczos and the dense path agree with the known spectrum", "[dense_eigen]",
                   float, double) {
  Eigen::VectorXd lambda;
  const Eigen::MatrixXd a = known_spectrum(300, lambda);
  const nldr::Matrix<TestType> stored = a.cast<TestType>();
  // Storing A in float perturbs it by ~eps_float * |A|: eigenvalues move by ~1e-5 relative
  // (Weyl), eigenvectors of eigenvalues 20 apart by about as much.
  const double tolerance = std::is_same_v<TestType, float> ? 1e-4 : 1e-8;
  // Residual |A v - lambda v| against the double matrix: Lanczos stops at 1e-10 * |lambda| = 1e-8;
  // float storage adds |A - fl(A)|_2 <= eps_float * |A|_F, about 6e-8 * 200 = 1.2e-5.
  const double residual_tolerance = std::is_same_v<TestType, float> ? 1e-4 : 1e-7;
  for (const nldr::index_t dense_below : {0, 1000}) {  // 0: Lanczos; 1000: full decomposition
    INFO("dense_below " << dense_below);
    const auto pairs =
        nldr::detail::dense_top_eigenpairs(stored, 3, 1, nldr::TopEigenOptions{.dense_below = dense_below}, "test");
    REQUIRE(pairs.diagnostics.solver == (dense_below == 0 ? "spectra-lanczos" : "dense"));
    REQUIRE(pairs.values.size() == 3);
    REQUIRE_THAT(pairs.values[0], WithinRel(100.0, tolerance));
    REQUIRE_THAT(pairs.values[1], WithinRel(80.0, tolerance));
    REQUIRE_THAT(pairs.values[2], WithinRel(60.0, tolerance));
    REQUIRE(pairs.smallest.size() == 1);
    REQUIRE_THAT(pairs.smallest[0], WithinRel(-50.0, tolerance));
    // Residual property: |A v - lambda v| small for every returned pair, against the double matrix.
    for (int k = 0; k < 3; ++k) {
      const Eigen::VectorXd v = pairs.vectors.col(k);
      REQUIRE_THAT(v.norm(), WithinAbs(1.0, 1e-8));
      REQUIRE((a * v - pairs.values[k] * v).norm() < residual_tolerance);
    }
  }
}

TEST_CASE("dense_top_eigenpairs reports non-convergence with the solver settings", "[dense_eigen]") {
  Eigen::VectorXd lambda;
  const nldr::Matrix<double> a = known_spectrum(300, lambda);
  // One restart of a 20-vector Krylov space cannot resolve the bulk to 1e-14: convergence_error.
  const nldr::TopEigenOptions options{.dense_below = 0, .max_iterations = 1, .tolerance = 1e-14};
  REQUIRE_THROWS_AS(nldr::detail::dense_top_eigenpairs(a, 8, 0, options, "test"), nldr::convergence_error);
  REQUIRE_THROWS_WITH(nldr::detail::dense_top_eigenpairs(a, 8, 0, options, "test"), ContainsSubstring("maxit = 1"));
  REQUIRE_THROWS_AS(nldr::detail::dense_top_eigenpairs(a, 2, 0, nldr::TopEigenOptions{.dense_below = 0, .tolerance = 2},
                                                       "test"),
                    nldr::invalid_argument);
}

TEMPLATE_TEST_CASE("dense_top_eigenpairs finds the smallest eigenvalues next to a large cluster of zeros", "[dense_eigen]",
                   float, double) {
  // A low-rank Gram-like matrix (the digits' B has ~1700 zero eigenvalues): lambda = 100, 80, 60, -5 and
  // n - 4 exact zeros. Lanczos aimed at the smallest eigenvalues with a tolerance relative to each one
  // used to run to its iteration limit here; the diagnostic must converge, find -5, and see the zeros
  // as zeros at the scale of the matrix.
  const int n = 800;
  nldr::Random random(7);
  Eigen::MatrixXd g(n, 4);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 4; ++j) g(i, j) = random.normal();
  const Eigen::MatrixXd q = Eigen::HouseholderQR<Eigen::MatrixXd>(g).householderQ() * Eigen::MatrixXd::Identity(n, 4);
  const Eigen::Vector4d lambda(100, 80, 60, -5);
  const Eigen::MatrixXd a = q * lambda.asDiagonal() * q.transpose();
  const nldr::Matrix<TestType> stored = (0.5 * (a + a.transpose())).cast<TestType>();
  // The smallest values are solved to smallest_tolerance (1e-6) of |lambda_1| = 100; float storage
  // perturbs every eigenvalue by up to ~eps_float |A| ~ 1e-5 (Weyl).
  const double tolerance = 100 * (std::is_same_v<TestType, float> ? 1e-5 : nldr::detail::smallest_tolerance);
  const auto pairs = nldr::detail::dense_top_eigenpairs(stored, 2, 3, nldr::TopEigenOptions{.dense_below = 0}, "test");
  REQUIRE(pairs.smallest_status == nldr::SolverStatus::success);
  REQUIRE(pairs.smallest.size() == 3);
  CHECK_THAT(pairs.smallest[0], WithinAbs(-5.0, tolerance));
  CHECK_THAT(pairs.smallest[1], WithinAbs(0.0, tolerance));
  CHECK_THAT(pairs.smallest[2], WithinAbs(0.0, tolerance));
  // Far from the 1000 restarts of a solve that does not converge.
  CHECK(pairs.diagnostics.iterations < 100);
}
