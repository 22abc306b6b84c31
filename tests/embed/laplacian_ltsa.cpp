// Tests of LaplacianEigenmaps and Ltsa against independent references: dense constructions of the
// normalized Laplacian and of the LTSA alignment matrix (the latter from Eigen's SVD, not the Gram
// eigen-decomposition the code uses), Eigen's dense generalized and standard eigensolvers, exact
// geometry, and the true intrinsic coordinates of generated manifolds.
#include "catch.hpp"
#include "sparse_eigen_fixtures.hpp"

#include <nldr/embed/laplacian_eigenmaps.hpp>
#include <nldr/embed/ltsa.hpp>

#include <Eigen/Dense>

#include <cmath>
#include <limits>

using namespace spectral_test;
using nldr::LaplacianEigenmaps;
using nldr::Ltsa;

namespace {

// Dense heat-kernel affinity of the union of the kNN lists: W_ij = exp(-|x_i - x_j|^2 / t) when either
// point lists the other (t = infinity: 1), recomputing the distances from the points.
template <class T>
Eigen::MatrixXd dense_affinity(const nldr::Matrix<T>& X, const nldr::NeighborGraph<T>& graph, double t) {
  const Eigen::Index n = X.rows();
  Eigen::MatrixXd W = Eigen::MatrixXd::Zero(n, n);
  for (nldr::index_t i = 0; i < graph.size(); ++i)
    for (nldr::index_t j : graph.neighbors(i)) {
      const double d2 = (X.row(i).template cast<double>() - X.row(j).template cast<double>()).squaredNorm();
      W(i, j) = W(j, i) = std::isinf(t) ? 1.0 : std::exp(-d2 / t);
    }
  return W;
}

}  // namespace

TEST_CASE("normalized Laplacian equals I - D^-1/2 W D^-1/2 built densely", "[laplacian]") {
  const auto roll = swiss_roll<double>(200, 21, 5);
  const auto graph = variable_knn(roll.points, 4, 9, 6);  // directed, variable degrees
  // The automatic t is the mean squared length over the symmetrized graph's directed entries.
  const Eigen::MatrixXd adjacency = dense_affinity(roll.points, graph, std::numeric_limits<double>::infinity());
  double sum = 0;
  for (Eigen::Index i = 0; i < 200; ++i)
    for (Eigen::Index j = 0; j < 200; ++j)
      if (adjacency(i, j) > 0) sum += (roll.points.row(i) - roll.points.row(j)).squaredNorm();
  const double auto_t = sum / adjacency.sum();
  for (const double t : {0.0, 3.0, std::numeric_limits<double>::infinity()}) {
    CAPTURE(t);
    nldr::StageTimes times;
    const auto laplacian = nldr::detail::normalized_laplacian(graph, t, times);
    CHECK_THAT(laplacian.t, WithinRel(t == 0 ? auto_t : t, 1e-12));
    const Eigen::MatrixXd W = dense_affinity(roll.points, graph, laplacian.t);
    const Eigen::VectorXd inv_sqrt = W.rowwise().sum().array().rsqrt();
    const Eigen::MatrixXd expected = Eigen::MatrixXd::Identity(200, 200) - inv_sqrt.asDiagonal() * W * inv_sqrt.asDiagonal();
    CHECK((full_dense(laplacian.lower) - expected).cwiseAbs().maxCoeff() < 1e-12);
    CHECK((laplacian.inv_sqrt_degree - inv_sqrt).cwiseAbs().maxCoeff() < 1e-12);
  }
}

TEMPLATE_TEST_CASE("Laplacian Eigenmaps solves L f = lambda D f like a dense generalized solver", "[laplacian]", float,
                   double) {
  const auto roll = swiss_roll<TestType>(400, 21, 9);
  const auto graph = brute_knn(roll.points, 8);
  const double t = 20;
  const auto result = LaplacianEigenmaps{{.dim = 3, .t = t, .eigen = {.dense_below = 0}}}.fit(roll.points, graph);
  CHECK(result.diagnostics.solver == "spectra-shift-invert-ldlt");
  CHECK(result.t == t);
  const Eigen::MatrixXd W = dense_affinity(roll.points, graph, t);
  const Eigen::MatrixXd D = W.rowwise().sum().asDiagonal();
  // Eigen normalizes generalized eigenvectors to f^T D f = 1, as f = D^-1/2 u with |u| = 1 is.
  const Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> reference(D - W, D);
  for (int c = 0; c < 3; ++c)  // eigenvalues ~1e-3, gaps ~1e-3: 1e-9 absolute is far below both
    CHECK_THAT(double(result.eigenvalues[c]), WithinAbs(reference.eigenvalues()[c + 1], 1e-9));
  const Eigen::MatrixXd expected = reference.eigenvectors().middleCols(1, 3);
  CHECK(worst_column_alignment(result.coordinates, expected) > 1 - 1e-5);
  // Same scale, not only the same direction: f^T D f = 1.
  const Eigen::MatrixXd Y = result.coordinates.template cast<double>();
  for (int c = 0; c < 3; ++c) CHECK_THAT(Y.col(c).dot(D * Y.col(c)), WithinRel(1.0, 1e-4));
}

TEMPLATE_TEST_CASE("LTSA alignment matrix equals a dense construction from local SVDs", "[ltsa]", float, double) {
  const auto roll = swiss_roll<TestType>(150, 21, 4);
  const auto graph = variable_knn(roll.points, 4, 10, 2);
  const int n = 150, d = 2;
  Eigen::MatrixXd expected = Eigen::MatrixXd::Zero(n, n);
  for (int i = 0; i < n; ++i) {
    std::vector<int> members{i};
    for (int j : graph.neighbors(i)) members.push_back(j);
    const int m = int(members.size());
    Eigen::MatrixXd Xi(m, 3);
    for (int r = 0; r < m; ++r) Xi.row(r) = roll.points.row(members[r]).template cast<double>();
    Xi.rowwise() -= Xi.colwise().mean();
    const Eigen::JacobiSVD<Eigen::MatrixXd> svd(Xi, Eigen::ComputeThinU);
    Eigen::MatrixXd G(m, d + 1);
    G.col(0).setConstant(1 / std::sqrt(double(m)));
    G.rightCols(d) = svd.matrixU().leftCols(d);
    const Eigen::MatrixXd block = Eigen::MatrixXd::Identity(m, m) - G * G.transpose();
    for (int r = 0; r < m; ++r)
      for (int c = 0; c < m; ++c) expected(members[r], members[c]) += block(r, c);
  }
  nldr::StageTimes times;
  const auto B = nldr::detail::ltsa_matrix(nldr::Matrix<double>(roll.points.template cast<double>()), graph, d, times);
  // Projections onto well-separated local subspaces: SVD and Gram eigenvectors agree to ~1e-12.
  CHECK((full_dense(B) - expected).cwiseAbs().maxCoeff() < 1e-9);
}

TEMPLATE_TEST_CASE("LTSA eigenvectors equal a dense solve, and a tilted plane is recovered exactly", "[ltsa]", float,
                   double) {
  SECTION("dense reference") {
    const auto roll = swiss_roll<TestType>(400, 21, 12);
    const auto graph = brute_knn(roll.points, 10);
    const auto result = Ltsa{{.dim = 2, .eigen = {.dense_below = 0}}}.fit(roll.points, graph);
    nldr::StageTimes times;
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> dense(
        full_dense(nldr::detail::ltsa_matrix(nldr::Matrix<double>(roll.points.template cast<double>()), graph, 2, times)));
    for (int c = 0; c < 2; ++c)
      CHECK_THAT(double(result.eigenvalues[c]), WithinAbs(dense.eigenvalues()[c + 1], 1e-11 + 1e-4 * dense.eigenvalues()[c + 1]));
    CHECK(worst_column_alignment(result.coordinates, dense.eigenvectors().middleCols(1, 2)) > 1 - 1e-5);
  }
  SECTION("tilted plane") {
    // Local PCA is exact on a plane, so the null space of B is spanned by 1 and the plane coordinates.
    const auto plane = tilted_plane<TestType>(300, 31);
    const auto result = Ltsa{{.dim = 2}}.fit(plane.points, brute_knn(plane.points, 10));
    CHECK(intrinsic_r2(plane.intrinsic, result.coordinates) > 0.9999);
  }
}

TEMPLATE_TEST_CASE("Laplacian Eigenmaps and LTSA unroll a Swiss roll and an S-curve", "[laplacian][ltsa][purpose]",
                   float, double) {
  // Same data as the LLE test of purpose (N = 1500, k = 10, seed 7). Measured in double: LTSA R^2 0.9990 /
  // 0.9989 and residual variance at the floor of orthonormal coordinates (~0.405 / 0.427). Laplacian
  // Eigenmaps follows the arc length on its first axis (|r| = 0.991) with residual variance 0.298 / 0.302;
  // its second axis is the second harmonic of the arc length, not the height: on a 4:1 strip the
  // Laplacian eigenvalue (2 pi / L)^2 lies below (pi / H)^2 (docs/methods/laplacian-eigenmaps.md).
  for (const bool roll : {true, false}) {
    CAPTURE(roll);
    const auto data = roll ? swiss_roll<TestType>(1500, 21, 7) : s_curve<TestType>(1500, 7);
    const auto graph = brute_knn(data.points, 10);
    const auto ltsa = Ltsa{{.dim = 2}}.fit(data.points, graph);
    CHECK(intrinsic_r2(data.intrinsic, ltsa.coordinates) > 0.99);
    CHECK(residual_variance(data.intrinsic, ltsa.coordinates) < whitened_truth_residual_variance(data.intrinsic) + 0.01);
    const auto le = LaplacianEigenmaps{{.dim = 2}}.fit(data.points, graph);
    CHECK(best_axis_correlation(data.intrinsic.col(0), le.coordinates.leftCols(1)) > 0.98);
    CHECK(residual_variance(data.intrinsic, le.coordinates) < 0.35);
  }
}

TEST_CASE("Laplacian Eigenmaps and LTSA reject bad input with messages that name the problem", "[laplacian][ltsa]") {
  const auto roll = swiss_roll<double>(120, 21, 1);
  const auto graph = brute_knn(roll.points, 6);
  CHECK_THROWS_CONTAINING(LaplacianEigenmaps{{.t = -1}}.fit(roll.points, graph), nldr::invalid_argument, "t = -1");
  CHECK_THROWS_CONTAINING(LaplacianEigenmaps{{.t = std::nan("")}}.fit(roll.points, graph), nldr::invalid_argument, "t = ");
  CHECK_THROWS_CONTAINING(LaplacianEigenmaps{{.dim = 119}}.fit(roll.points, graph), nldr::invalid_argument, "dim = 119");
  CHECK_THROWS_CONTAINING(Ltsa{{.dim = 4}}.fit(roll.points, graph), nldr::invalid_argument, "input dimension D = 3");
  CHECK_THROWS_CONTAINING(Ltsa{{.dim = 2}}.fit(roll.points, brute_knn(roll.points, 1)), nldr::invalid_argument,
                          "needs at least 2");
  nldr::Matrix<double> two(240, 3);
  two << roll.points, (roll.points.array() + 1000.0).matrix();
  const auto split = brute_knn(two, 6);
  CHECK_THROWS_CONTAINING(LaplacianEigenmaps{}.fit(two, split), nldr::disconnected_graph, "2 connected components");
  CHECK_THROWS_CONTAINING(Ltsa{}.fit(two, split), nldr::disconnected_graph, "sizes 120, 120");
  // Kernel width so small that every weight underflows.
  CHECK_THROWS_CONTAINING(LaplacianEigenmaps{{.t = 1e-300}}.fit(roll.points, graph), nldr::invalid_argument,
                          "underflow");
}
