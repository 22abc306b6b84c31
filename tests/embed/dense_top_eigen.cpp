// The dense top-eigenpair solver (Lanczos on a parallel mat-vec) against Eigen's full decomposition.
#include "catch.hpp"

#include <nldr/core/random.hpp>
#include <nldr/embed/detail/dense_top_eigen.hpp>

#include <Eigen/Eigenvalues>
#include <Eigen/QR>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

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

TEMPLATE_TEST_CASE("the upper-triangle product equals the full symmetric product, at any thread count",
                   "[dense_eigen]", float, double) {
  // Reference: the product in long double over the whole symmetric matrix. The stored lower
  // triangle is garbage, so a product that read it would fail.
  for (const int n : {1, 2, 9, 64, 65, 300}) {
    nldr::Random random{std::uint64_t(n)};
    nldr::Matrix<TestType> stored(n, n);
    for (int i = 0; i < n; ++i)
      for (int j = i; j < n; ++j) {
        stored(i, j) = TestType(random.uniform(-1, 1));
        if (j > i) stored(j, i) = TestType(1e6);
      }
    Eigen::VectorXd x(n);
    for (int i = 0; i < n; ++i) x[i] = random.uniform(-1, 1);
    const nldr::detail::ParallelSymProduct<TestType> product(stored);
    Eigen::VectorXd first(n);
    const int threads = nldr::max_threads();
    for (const int t : {1, 2, 3}) {
      nldr::set_threads(t);
      Eigen::VectorXd y(n);
      product.perform_op(x.data(), y.data());
      for (int i = 0; i < n; ++i) {
        long double sum = 0, size = 0;
        for (int j = 0; j < n; ++j) {
          const long double a = i <= j ? stored(i, j) : stored(j, i);
          sum += a * x[j];
          size += std::abs(a * x[j]);
        }
        // Rounding in double: at most about n eps_double of the sum of magnitudes.
        REQUIRE(std::abs(double(sum) - y[i]) <= 4 * n * std::numeric_limits<double>::epsilon() * double(size));
      }
      if (t == 1) first = y;
      INFO("n = " << n << ", threads " << t);
      REQUIRE(std::memcmp(y.data(), first.data(), sizeof(double) * std::size_t(n)) == 0);
    }
    nldr::set_threads(threads);
  }
}

TEMPLATE_TEST_CASE("the AVX-512 row kernel of the symmetric product gives the loop's sums bit for bit",
                   "[dense_eigen]", float, double) {
#if defined(NLDR_X86_KERNELS)
  if (!nldr::detail::has_avx512()) {
    SUCCEED("this CPU has no AVX-512: the loop is the only path");
    return;
  }
  nldr::Random random(9);
  for (std::int64_t m = 0; m <= 41; ++m) {
    std::vector<TestType> u(std::size_t(m) + 1);
    std::vector<double> x(std::size_t(m) + 1), z_loop(std::size_t(m) + 1), z_wide;
    for (std::int64_t t = 0; t < m; ++t) {
      u[std::size_t(t)] = TestType(random.uniform(-1, 1));
      x[std::size_t(t)] = random.uniform(-1, 1);
      z_loop[std::size_t(t)] = random.uniform(-1, 1);
    }
    z_wide = z_loop;
    const double x_i = random.uniform(-1, 1);
    double lane_loop[8], lane_wide[8];
    for (int l = 0; l < 8; ++l) lane_loop[l] = lane_wide[l] = random.uniform(-1, 1);
    nldr::detail::upper_row_loop(u.data(), x.data(), z_loop.data(), x_i, m, lane_loop);
    nldr::detail::upper_row_avx512(u.data(), x.data(), z_wide.data(), x_i, m, lane_wide);
    INFO("m = " << m);
    REQUIRE(std::memcmp(lane_loop, lane_wide, sizeof lane_loop) == 0);
    REQUIRE(std::memcmp(z_loop.data(), z_wide.data(), sizeof(double) * std::size_t(m)) == 0);
  }
#else
  SUCCEED("not an x86-64 build: the loop is the only path");
#endif
}
