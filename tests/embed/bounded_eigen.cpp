// Tests of detail::bounded_bottom_eigenpairs (UMAP's spectral start): on a normalized Laplacian whose
// factorization fills in (clusters in 40-D) it takes plain Lanczos, on a manifold's (a Swiss roll) the
// shift-invert, and both give the eigenpairs of Eigen's dense solver; plain Lanczos declines when its
// budget runs out.
#include "catch.hpp"
#include "sparse_eigen_fixtures.hpp"

#include <nldr/embed/detail/bounded_eigen.hpp>
#include <nldr/embed/laplacian_eigenmaps.hpp>
#include <nldr/neighbors/components.hpp>

#include <Eigen/Dense>

#include <limits>

using namespace spectral_test;

namespace {

// n points around three centres in 40-D, of 40%, 35% and 25% of the points (unequal, so that the two
// cluster modes of the Laplacian have distinct eigenvalues), each centre 1 standard deviation out along
// its own third of the axes: close enough for the kNN graph to join the clusters.
nldr::Matrix<double> three_clusters_40d(int n, std::uint64_t seed) {
  nldr::Random random(seed);
  nldr::Matrix<double> X(n, 40);
  for (int i = 0; i < n; ++i) {
    const int cluster = i < 0.40 * n ? 0 : i < 0.75 * n ? 1 : 2;
    for (int c = 0; c < 40; ++c) X(i, c) = random.normal() + (c % 3 == cluster ? 1.0 : 0.0);
  }
  return X;
}

// The normalized Laplacian (0/1 weights) of the k-nearest-neighbor graph of X.
nldr::detail::NormalizedLaplacian laplacian_of_knn(const nldr::Matrix<double>& X, int k) {
  const auto graph = brute_knn(X, k);
  REQUIRE(nldr::connected_components(graph.symmetrized(nldr::Symmetrization::union_edges)).connected());
  nldr::StageTimes times;
  return nldr::detail::normalized_laplacian(graph, std::numeric_limits<double>::infinity(), times);
}

// The pairs against Eigen's dense solver of the same matrix: eigenvalues to 1e-9 (Lanczos's tolerance
// 1e-10 is relative to bound - lambda ~ 2), and the subspace of the non-trivial vectors (cosines of the
// principal angles to 1e-9: the vector error is the residual over the gap to the next eigenvalue).
void require_dense_pairs(const nldr::detail::SparseLower& lower, const nldr::detail::BottomEigenpairs& pairs) {
  const Eigen::MatrixXd dense = Eigen::MatrixXd(lower).selfadjointView<Eigen::Lower>();
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> reference(dense);
  const Eigen::Index nev = pairs.values.size();
  CHECK((pairs.values - reference.eigenvalues().head(nev)).cwiseAbs().maxCoeff() < 1e-9);
  const Eigen::MatrixXd overlap =
      pairs.vectors.rightCols(nev - 1).transpose() * reference.eigenvectors().middleCols(1, nev - 1);
  const Eigen::JacobiSVD<Eigen::MatrixXd> cosines(overlap);
  CHECK(cosines.singularValues().minCoeff() > 1 - 1e-9);
}

}  // namespace

TEST_CASE("bounded_bottom_eigenpairs: plain Lanczos where the factorization fills in, the shift-invert where it "
          "does not, both the dense solver's pairs",
          "[sparse_eigen][umap]") {
  nldr::BottomEigenOptions options;
  options.suitesparse_from = 0;  // the supernodal path already at these sizes
  const auto clusters = laplacian_of_knn(three_clusters_40d(1200, 3), 15);
  const auto roll = laplacian_of_knn(swiss_roll<double>(800, 21, 4).points, 10);
  for (const auto* laplacian : {&clusters, &roll}) {
    const bool filled = laplacian == &clusters;
    CAPTURE(filled);
    const Eigen::VectorXd null_vector = laplacian->inv_sqrt_degree.cwiseInverse();
    const auto pairs = nldr::detail::bounded_bottom_eigenpairs(laplacian->lower, 2.0, 3, options, "test", null_vector);
    const std::string shift_invert =
        nldr::have_suitesparse() ? "spectra-shift-invert-cholmod-supernodal" : "spectra-shift-invert-ldlt";
    CHECK(pairs.diagnostics.solver == (filled && nldr::have_suitesparse() ? "spectra-lanczos" : shift_invert));
    require_dense_pairs(laplacian->lower, pairs);
  }
}

TEST_CASE("bounded_lanczos_eigenpairs declines when its products run out, and gives the dense pairs when they do "
          "not",
          "[sparse_eigen][umap]") {
  // On a manifold the bottom eigenvalues crowd near 0, and plain Lanczos needs thousands of products.
  const auto roll = laplacian_of_knn(swiss_roll<double>(800, 21, 4).points, 10);
  const Eigen::VectorXd null_vector = roll.inv_sqrt_degree.cwiseInverse();
  const nldr::BottomEigenOptions options;
  nldr::OpenEndedProgress products({}, 12, "test");
  CHECK_FALSE(nldr::detail::bounded_lanczos_eigenpairs(roll.lower, 2.0, 3, options, null_vector, 200, products));
  CHECK_FALSE(nldr::detail::bounded_lanczos_eigenpairs(roll.lower, 2.0, 3, options, null_vector, 50, products));
  const auto pairs = nldr::detail::bounded_lanczos_eigenpairs(roll.lower, 2.0, 3, options, null_vector, 1e6, products);
  REQUIRE(pairs);
  CHECK(pairs->diagnostics.solver == "spectra-lanczos");
  CHECK(pairs->diagnostics.operations > 200);
  require_dense_pairs(roll.lower, *pairs);
}
