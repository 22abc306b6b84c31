// PCA against data built with a known covariance (closed-form components and variances).
#include "catch.hpp"

#include <nldr/core/parallel.hpp>
#include <nldr/core/random.hpp>
#include <nldr/embed/pca.hpp>

#include <Eigen/QR>
#include <Eigen/SVD>
#include <cmath>
#include <limits>
#include <type_traits>

namespace {

// X = mean + Z diag(s) R^T with Z (N x D) orthonormal columns orthogonal to the ones vector and R a
// D x D rotation: the sample covariance is exactly R diag(s^2 / (N - 1)) R^T, so the principal axes
// are the columns of R and the explained variances s^2 / (N - 1).
struct KnownPca {
  Eigen::MatrixXd points;
  Eigen::MatrixXd axes;      // D x D, columns
  Eigen::VectorXd variance;  // D, descending
};

KnownPca known_pca(int n, int d, const Eigen::VectorXd& s, std::uint64_t seed) {
  nldr::Random random(seed);
  Eigen::MatrixXd g(n, d + 1), h(d, d);
  g.col(0).setOnes();
  for (int i = 0; i < n; ++i)
    for (int j = 1; j <= d; ++j) g(i, j) = random.normal();
  for (int i = 0; i < d; ++i)
    for (int j = 0; j < d; ++j) h(i, j) = random.normal();
  const Eigen::HouseholderQR<Eigen::MatrixXd> qz(g), qr(h);
  const Eigen::MatrixXd z = (qz.householderQ() * Eigen::MatrixXd::Identity(n, d + 1)).rightCols(d);
  KnownPca known;
  known.axes = qr.householderQ();
  Eigen::RowVectorXd mean(d);
  for (int j = 0; j < d; ++j) mean[j] = random.uniform(-5, 5);
  known.points = (z * s.asDiagonal() * known.axes.transpose()).rowwise() + mean;
  known.variance = s.cwiseAbs2() / double(n - 1);
  return known;
}

// |cos| of the angle between two directions: 1 when they agree up to sign.
double alignment(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return std::abs(a.dot(b)) / (a.norm() * b.norm());
}

// sin of the largest principal angle between the column spaces of two orthonormal D x d bases.
double largest_angle_sine(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  const Eigen::MatrixXd outside = b - a * (a.transpose() * b);
  return Eigen::JacobiSVD<Eigen::MatrixXd>(outside).singularValues()(0);
}

}  // namespace

TEMPLATE_TEST_CASE("PCA covariance path recovers known axes and variances", "[pca]", float, double) {
  const Eigen::VectorXd s = (Eigen::VectorXd(5) << 40, 20, 10, 5, 1).finished();
  const KnownPca known = known_pca(200, 5, s, 3);
  const nldr::Matrix<TestType> X = known.points.cast<TestType>();
  const auto pca = nldr::Pca{{.dim = 3, .algorithm = nldr::PcaAlgorithm::covariance}}.fit(X);
  // Sums run in double; the input's rounding to float (relative 6e-8 of |X| ~ 10) bounds the error
  // at ~1e-5 relative for float, 1e-10 for double.
  const double tolerance = std::is_same_v<TestType, float> ? 1e-4 : 1e-9;
  REQUIRE(pca.diagnostics.solver == "covariance");
  REQUIRE(pca.components.rows() == 3);
  REQUIRE(pca.components.cols() == 5);
  REQUIRE(pca.coordinates.rows() == 200);
  REQUIRE(pca.coordinates.cols() == 3);
  for (int k = 0; k < 3; ++k) {
    REQUIRE_THAT(double(pca.explained_variance[k]), WithinRel(known.variance[k], tolerance));
    REQUIRE_THAT(double(pca.eigenvalues[k]), WithinRel(known.variance[k], tolerance));
    REQUIRE_THAT(alignment(pca.components.row(k).transpose().template cast<double>(), known.axes.col(k)),
                 WithinAbs(1.0, tolerance));
    REQUIRE_THAT(double(pca.explained_variance_ratio[k]), WithinRel(s[k] * s[k] / s.squaredNorm(), tolerance));
  }
  // Mean, and the coordinates' own variance equals the explained variance.
  REQUIRE_THAT((pca.mean.template cast<double>() - known.points.colwise().mean().transpose()).norm(),
               WithinAbs(0.0, 1e-4));
  for (int k = 0; k < 3; ++k)
    REQUIRE_THAT(pca.coordinates.col(k).template cast<double>().squaredNorm() / 199.0,
                 WithinRel(known.variance[k], tolerance));
}

TEMPLATE_TEST_CASE("PCA randomized path matches the known axes on 300-D data", "[pca]", float, double) {
  // Decaying spectrum s_k = 100 * 0.7^k: power iterations make the top axes accurate.
  Eigen::VectorXd s(300);
  for (int k = 0; k < 300; ++k) s[k] = 100 * std::pow(0.7, k);
  const KnownPca known = known_pca(400, 300, s, 8);
  const nldr::Matrix<TestType> X = known.points.cast<TestType>();
  const auto pca = nldr::Pca{{.dim = 2}}.fit(X);  // automatic: D = 300 > 256 and 4 * 12 <= 300
  REQUIRE(pca.diagnostics.solver == "randomized-svd");
  // Halko et al. (2011) Thm 9.2: with q = 4 power iterations the error in the top axes shrinks
  // like (s_{l+1}/s_k)^(2q+1) = 0.7^(11 * 9) ~ 1e-15; float input limits it to ~1e-5.
  const double tolerance = std::is_same_v<TestType, float> ? 1e-4 : 1e-8;
  for (int k = 0; k < 2; ++k) {
    REQUIRE_THAT(double(pca.explained_variance[k]), WithinRel(known.variance[k], tolerance));
    REQUIRE_THAT(alignment(pca.components.row(k).transpose().template cast<double>(), known.axes.col(k)),
                 WithinAbs(1.0, tolerance));
  }
  // The covariance path gives the same answer (both exact up to the tolerance above).
  const auto exact = nldr::Pca{{.dim = 2, .algorithm = nldr::PcaAlgorithm::covariance}}.fit(X);
  REQUIRE_THAT((exact.coordinates - pca.coordinates).template cast<double>().norm() /
                   exact.coordinates.template cast<double>().norm(),
               WithinAbs(0.0, tolerance));
}

TEMPLATE_TEST_CASE("PCA randomized path agrees with the exact covariance path on 10 of 300 axes", "[pca]", float,
                   double) {
  // s_k = 100 * 0.8^k: the 10th variance is 1/300 of the first. D = 300 > 200 puts the covariance
  // path on Lanczos; 5000 rows make the products sum over three row blocks.
  Eigen::VectorXd s(300);
  for (int k = 0; k < 300; ++k) s[k] = 100 * std::pow(0.8, k);
  const KnownPca known = known_pca(5000, 300, s, 12);
  const nldr::Matrix<TestType> X = known.points.cast<TestType>();
  const auto exact = nldr::Pca{{.dim = 10, .algorithm = nldr::PcaAlgorithm::covariance}}.fit(X);
  const auto fast = nldr::Pca{{.dim = 10, .algorithm = nldr::PcaAlgorithm::randomized}}.fit(X);
  REQUIRE(exact.diagnostics.solver == "covariance");
  REQUIRE(fast.diagnostics.solver == "randomized-svd");
  // The exact path against the known axes: the input's rounding to float (relative 6e-8, but
  // mean |x| / s_10 ~ 5 / 0.13 amplifies it) bounds its error near 1e-5; double's near 1e-12.
  const double exact_tolerance = std::is_same_v<TestType, float> ? 1e-4 : 1e-9;
  const Eigen::MatrixXd exact_axes = exact.components.transpose().template cast<double>();
  const Eigen::MatrixXd fast_axes = fast.components.transpose().template cast<double>();
  REQUIRE(largest_angle_sine(known.axes.leftCols(10), exact_axes) < exact_tolerance);
  // Randomized against exact: Halko et al. (2011) Thm 9.2 bound the subspace error by
  // (s_21 / s_10)^(2 q + 1) = 0.8^(11 * 9) ~ 2e-10 with l = 20 and q = 4; float rounding of the
  // products (eps (s_1 / s_10)^2 ~ 5e-6, pca.hpp) dominates there.
  const double tolerance = std::is_same_v<TestType, float> ? 1e-3 : 1e-8;
  REQUIRE(largest_angle_sine(exact_axes, fast_axes) < tolerance);
  for (int k = 0; k < 10; ++k) {
    REQUIRE_THAT(double(fast.explained_variance[k]), WithinRel(double(exact.explained_variance[k]), tolerance));
    REQUIRE_THAT(double(exact.explained_variance[k]), WithinRel(known.variance[k], exact_tolerance));
  }
  REQUIRE_THAT(double(fast.explained_variance_ratio.sum()),
               WithinRel(double(exact.explained_variance_ratio.sum()), tolerance));
}

TEMPLATE_TEST_CASE("PCA results do not depend on the thread count", "[pca]", float, double) {
  // 5000 rows: three row blocks of the products (embed/detail/dense_products.hpp).
  Eigen::VectorXd s(300);
  for (int k = 0; k < 300; ++k) s[k] = 100 * std::pow(0.9, k);
  const nldr::Matrix<TestType> X = known_pca(5000, 300, s, 5).points.cast<TestType>();
  const int saved = nldr::max_threads();
  for (const auto solver : {nldr::PcaAlgorithm::covariance, nldr::PcaAlgorithm::randomized}) {
    nldr::set_threads(1);
    const auto one = nldr::Pca{{.dim = 5, .algorithm = solver}}.fit(X);
    nldr::set_threads(3);
    const auto three = nldr::Pca{{.dim = 5, .algorithm = solver}}.fit(X);
    nldr::set_threads(saved);
    REQUIRE(one.coordinates == three.coordinates);
    REQUIRE(one.components == three.components);
    REQUIRE(one.explained_variance == three.explained_variance);
  }
}

TEMPLATE_TEST_CASE("PCA transform of the training points equals the fit output", "[pca]", float, double) {
  const Eigen::VectorXd s = (Eigen::VectorXd(4) << 9, 4, 2, 1).finished();
  const KnownPca known = known_pca(50, 4, s, 21);
  const nldr::Matrix<TestType> X = known.points.cast<TestType>();
  for (const auto solver : {nldr::PcaAlgorithm::covariance, nldr::PcaAlgorithm::randomized}) {
    const auto pca = nldr::Pca{{.dim = 2, .algorithm = solver}}.fit(X);
    const nldr::Matrix<TestType> again = pca.transform(X);
    // Same projection computed once in double (fit) and once in T (transform): T rounding only.
    const double tolerance = std::is_same_v<TestType, float> ? 1e-4 : 1e-12;
    REQUIRE_THAT((again - pca.coordinates).template cast<double>().cwiseAbs().maxCoeff(),
                 WithinAbs(0.0, tolerance * pca.coordinates.template cast<double>().cwiseAbs().maxCoeff()));
    // A new point: mean + 3 * axis 0 lands at (3, 0).
    const nldr::Matrix<TestType> fresh = (pca.mean + TestType(3) * pca.components.row(0).transpose()).transpose();
    const auto y = pca.transform(fresh);
    REQUIRE_THAT(double(y(0, 0)), WithinAbs(3.0, 1e-4));
    REQUIRE_THAT(double(y(0, 1)), WithinAbs(0.0, 1e-4));
  }
}

TEMPLATE_TEST_CASE("PCA with dim = D explains all the variance", "[pca]", float, double) {
  const Eigen::VectorXd s = (Eigen::VectorXd(3) << 3, 2, 1).finished();
  const KnownPca known = known_pca(30, 3, s, 4);
  const auto pca = nldr::Pca{{.dim = 3}}.fit(known.points.cast<TestType>().eval());
  REQUIRE_THAT(double(pca.explained_variance_ratio.sum()), WithinAbs(1.0, 1e-5));
  REQUIRE_THAT(pca.total_variance, WithinRel(known.variance.sum(), 1e-5));
}

TEMPLATE_TEST_CASE("PCA rejects bad input with messages naming the parameter", "[pca]", float, double) {
  nldr::Matrix<TestType> X = nldr::Matrix<TestType>::Random(10, 3);
  REQUIRE_THROWS_WITH(nldr::Pca{{.dim = 4}}.fit(X), ContainsSubstring("dim = 4"));
  REQUIRE_THROWS_AS(nldr::Pca{{.dim = 0}}.fit(X), nldr::invalid_argument);
  REQUIRE_THROWS_WITH((nldr::Pca{{.dim = 2, .oversampling = -1}}.fit(X)), ContainsSubstring("oversampling"));
  REQUIRE_THROWS_WITH((nldr::Pca{{.dim = 2, .power_iterations = -1}}.fit(X)), ContainsSubstring("power_iterations"));
  REQUIRE_THROWS_WITH(nldr::Pca{}.fit(nldr::Matrix<TestType>(0, 3)), ContainsSubstring("empty"));
  REQUIRE_THROWS_AS(nldr::Pca{}.fit(nldr::Matrix<TestType>::Ones(1, 3)), nldr::invalid_argument);
  X(4, 1) = std::numeric_limits<TestType>::quiet_NaN();
  REQUIRE_THROWS_WITH(nldr::Pca{}.fit(X), ContainsSubstring("X(4, 1)"));
  X(4, 1) = 0;
  const auto pca = nldr::Pca{}.fit(X);
  REQUIRE_THROWS_WITH(pca.transform(nldr::Matrix<TestType>::Ones(2, 4)), ContainsSubstring("D = 4"));
  nldr::Matrix<TestType> bad = nldr::Matrix<TestType>::Ones(2, 3);
  bad(1, 2) = std::numeric_limits<TestType>::infinity();
  REQUIRE_THROWS_WITH(pca.transform(bad), ContainsSubstring("X_new(1, 2)"));
}
