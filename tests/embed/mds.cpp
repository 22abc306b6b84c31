// Classical MDS: equals PCA on Euclidean distances; negative eigenvalues against a literal
// B = -1/2 J D^2 J decomposed by Eigen.
#include "brute_force.hpp"
#include "catch.hpp"
#include "compare_embeddings.hpp"

#include <nldr/core/random.hpp>
#include <nldr/embed/mds.hpp>
#include <nldr/embed/pca.hpp>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <limits>
#include <type_traits>

namespace {

template <class T>
nldr::Matrix<T> gaussian_points(int n, int d, std::uint64_t seed) {  // distinct variances per axis
  return brute_force::gaussian<T>(n, d, seed, [d](int j) { return double(d - j); });
}

using brute_force::distances;


}  // namespace

using embed_test::max_difference_up_to_sign;

TEMPLATE_TEST_CASE("MDS of Euclidean distances equals PCA up to sign", "[mds]", float, double) {
  // Both the dense path (N = 60) and the Lanczos path (N = 260 > dense_below = 200).
  for (const int n : {60, 260}) {
    INFO("N = " << n);
    const auto X = gaussian_points<TestType>(n, 4, 2);
    const auto pca = nldr::Pca{{.dim = 3, .algorithm = nldr::PcaAlgorithm::covariance}}.fit(X);
    const auto mds = nldr::ClassicalMds{{.dim = 3}}.fit(nldr::precomputed(distances(X)));
    REQUIRE(mds.diagnostics.solver == (n > 200 ? "spectra-lanczos" : "dense"));
    // Coordinates of scale ~4: float rounding of the distances (squared, centered) costs ~1e-4
    // absolute; double agrees to 1e-8.
    const double tolerance = std::is_same_v<TestType, float> ? 2e-3 : 1e-8;
    REQUIRE(max_difference_up_to_sign(pca.coordinates, mds.coordinates) < tolerance);
    // MDS eigenvalues are (N - 1) times PCA's variances.
    for (int k = 0; k < 3; ++k)
      REQUIRE_THAT(double(mds.eigenvalues[k]), WithinRel(double(pca.explained_variance[k]) * (n - 1), 1e-4));
    // Euclidean input: B is positive semi-definite, no negative eigenvalue beyond rounding.
    for (Eigen::Index k = 0; k < mds.negative_eigenvalues.size(); ++k)
      REQUIRE(std::abs(mds.negative_eigenvalues[k]) < 1e-3 * double(mds.eigenvalues[0]));
    // embed(X) goes through the Gram matrix: the same embedding.
    const auto direct = nldr::ClassicalMds{{.dim = 3}}.fit(X);
    REQUIRE(max_difference_up_to_sign(direct.coordinates, mds.coordinates) < tolerance);
    REQUIRE_THAT(direct.trace, WithinRel(mds.trace, 1e-4));
  }
}

TEMPLATE_TEST_CASE("MDS reports the negative eigenvalues of non-Euclidean dissimilarities", "[mds]", float, double) {
  // Random dissimilarities in [1, 2] (a metric, but not Euclidean for 12 points): compare with the
  // literal B = -1/2 J D^2 J decomposed in full by Eigen.
  const int n = 12;
  nldr::Random random(9);
  Eigen::MatrixXd D = Eigen::MatrixXd::Zero(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) D(i, j) = D(j, i) = random.uniform(1, 2);
  const Eigen::MatrixXd J = Eigen::MatrixXd::Identity(n, n) - Eigen::MatrixXd::Constant(n, n, 1.0 / n);
  const Eigen::MatrixXd B = -0.5 * J * D.cwiseAbs2() * J;
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> reference(B);
  REQUIRE(reference.eigenvalues()[0] < -0.01);  // the premise: clearly non-Euclidean

  const nldr::Matrix<TestType> input = D.cast<TestType>();
  const auto mds = nldr::ClassicalMds{{.dim = 2, .negative_eigenvalues = 3}}.fit(nldr::precomputed(input));
  const double tolerance = std::is_same_v<TestType, float> ? 1e-5 : 1e-12;
  REQUIRE(mds.negative_eigenvalues.size() >= 1);
  for (Eigen::Index k = 0; k < mds.negative_eigenvalues.size(); ++k)
    REQUIRE_THAT(mds.negative_eigenvalues[k], WithinAbs(reference.eigenvalues()[k], tolerance * 10));
  REQUIRE_THAT(double(mds.eigenvalues[0]), WithinAbs(reference.eigenvalues()[n - 1], tolerance * 10));
  REQUIRE_THAT(mds.trace, WithinAbs(B.trace(), tolerance * 100));
  // Coordinates: Y = v sqrt(lambda), so Y^T Y = diag(lambda).
  const Eigen::MatrixXd Y = mds.coordinates.template cast<double>();
  REQUIRE_THAT((Y.transpose() * Y)(0, 0), WithinRel(reference.eigenvalues()[n - 1], 1e-4));
  REQUIRE_THAT((Y.transpose() * Y)(0, 1), WithinAbs(0.0, 1e-4));
}

TEMPLATE_TEST_CASE("MDS recovers a configuration from its distances (up to a rigid motion)", "[mds]", float, double) {
  // Four points of a 3 x 4 rectangle: the 2-D embedding's pairwise distances equal the input's.
  nldr::Matrix<TestType> X(4, 2);
  X << 0, 0, 3, 0, 3, 4, 0, 4;
  const auto D = distances(X);
  const auto mds = nldr::ClassicalMds{{.dim = 2, .negative_eigenvalues = 0}}.fit(nldr::precomputed(D));
  const auto again = distances(mds.coordinates);
  REQUIRE((again - D).template cast<double>().cwiseAbs().maxCoeff() < 1e-5);
  REQUIRE(mds.negative_eigenvalues.size() == 0);
}

TEMPLATE_TEST_CASE("MDS rejects bad dissimilarities and sizes", "[mds]", float, double) {
  const auto X = gaussian_points<TestType>(6, 2, 1);
  nldr::Matrix<TestType> D = distances(X);
  const nldr::ClassicalMds mds{{.dim = 2}};
  REQUIRE_THROWS_WITH(mds.fit(nldr::precomputed(D.leftCols(5).eval())), ContainsSubstring("square"));
  auto asym = D;
  asym(1, 2) += 1;
  REQUIRE_THROWS_WITH(mds.fit(nldr::precomputed(asym)), ContainsSubstring("symmetric"));
  auto negative = D;
  negative(1, 2) = negative(2, 1) = -1;
  REQUIRE_THROWS_WITH(mds.fit(nldr::precomputed(negative)), ContainsSubstring("negative"));
  auto diagonal = D;
  diagonal(3, 3) = 1;
  REQUIRE_THROWS_WITH(mds.fit(nldr::precomputed(diagonal)), ContainsSubstring("distances(3, 3)"));
  auto nan = D;
  nan(0, 1) = std::numeric_limits<TestType>::quiet_NaN();
  REQUIRE_THROWS_WITH(mds.fit(nldr::precomputed(nan)), ContainsSubstring("not finite"));
  REQUIRE_THROWS_WITH(nldr::ClassicalMds{{.dim = 6}}.fit(nldr::precomputed(D)), ContainsSubstring("dim = 6 must be < N = 6"));
  REQUIRE_THROWS_WITH((nldr::ClassicalMds{{.dim = 2, .negative_eigenvalues = 5}}.fit(nldr::precomputed(D))),
                      ContainsSubstring("negative_eigenvalues = 5"));
  REQUIRE_THROWS_AS(mds.fit(nldr::Matrix<TestType>(1, 3)), nldr::invalid_argument);
  // The N x N matrix is checked against the memory limit before it is allocated.
  REQUIRE_THROWS_AS((nldr::ClassicalMds{{.dim = 2, .memory_limit = 16}}.fit(X)), nldr::memory_limit_exceeded);
}
