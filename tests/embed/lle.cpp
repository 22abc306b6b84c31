// Tests of the sparse bottom-eigen layer and of LocallyLinearEmbedding (standard, modified, Hessian).
// References are independent of the code under test: Eigen's dense SelfAdjointEigenSolver, a direct
// KKT solve of the constrained least-squares weights, dense scatter-add assembly, exact geometry
// (planes, affine combinations) and the true intrinsic coordinates of generated manifolds.
#include "catch.hpp"
#include "sparse_eigen_fixtures.hpp"

#include <nldr/core/parallel.hpp>
#include <nldr/embed/lle.hpp>

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <numeric>
#include <string>
#include <vector>

using namespace spectral_test;

using nldr::LleVariant;
using nldr::LocallyLinearEmbedding;

namespace {

// Lower triangle of the weighted Laplacian of a connected random graph (a ring plus random chords):
// symmetric PSD with the constant vector as its only null direction.
nldr::detail::SparseLower random_laplacian(int n, std::uint64_t seed) {
  nldr::Random random(seed);
  Eigen::MatrixXd L = Eigen::MatrixXd::Zero(n, n);
  auto connect = [&](int i, int j) {
    if (i == j) return;
    const double w = 0.5 + random.uniform();
    L(i, j) -= w;
    L(j, i) -= w;
    L(i, i) += w;
    L(j, j) += w;
  };
  for (int i = 0; i < n; ++i) connect(i, (i + 1) % n);
  for (int e = 0; e < 2 * n; ++e) connect(int(random.below(n)), int(random.below(n)));
  return Eigen::MatrixXd(L.triangularView<Eigen::Lower>()).sparseView();
}

// The constrained least-squares weights by their KKT system, solved by full-pivot LU:
// minimize w^T (C + r I) w subject to 1^T w = 1  <=>  [2(C + r I) 1; 1^T 0] [w; mu] = [0; 1].
Eigen::VectorXd kkt_weights(const Eigen::MatrixXd& neighbors, const Eigen::RowVectorXd& x, double reg) {
  const Eigen::Index k = neighbors.rows();
  const Eigen::MatrixXd Z = neighbors.rowwise() - x;
  Eigen::MatrixXd C = Z * Z.transpose();
  C.diagonal().array() += reg * C.trace();
  Eigen::MatrixXd K = Eigen::MatrixXd::Zero(k + 1, k + 1);
  K.topLeftCorner(k, k) = 2 * C;
  K.col(k).head(k).setOnes();
  K.row(k).head(k).setOnes();
  Eigen::VectorXd rhs = Eigen::VectorXd::Zero(k + 1);
  rhs[k] = 1;
  return K.fullPivLu().solve(rhs).head(k);
}

Eigen::MatrixXd random_matrix(Eigen::Index rows, Eigen::Index cols, nldr::Random& random) {
  Eigen::MatrixXd m(rows, cols);
  for (Eigen::Index i = 0; i < rows; ++i)
    for (Eigen::Index j = 0; j < cols; ++j) m(i, j) = random.normal();
  return m;
}

// The factorizations of M this build offers: Eigen's simplicial LDLT, plus CHOLMOD's supernodal LL^T
// when nldr is built with SuiteSparse (the tests then check both against the same references).
std::vector<std::pair<nldr::Factorization, std::string>> sparse_factorizations() {
  std::vector<std::pair<nldr::Factorization, std::string>> all{
      {nldr::Factorization::simplicial, "spectra-shift-invert-ldlt"}};
  if (nldr::have_suitesparse())
    all.emplace_back(nldr::Factorization::supernodal, "spectra-shift-invert-cholmod-supernodal");
  return all;
}

#if defined(NLDR_HAVE_SUITESPARSE)
// A = I - W for a connected random graph (a ring plus random chords, 5 neighbors per row) with random
// weights summing to 1 in every row, some negative, as LLE's regularized weights can be: A 1 = 0 and
// rank N - 1. No row but its own lists the point `unlisted` (when >= 0).
nldr::detail::SparseSquare random_weight_matrix(int n, std::uint64_t seed, int unlisted = -1) {
  nldr::Random random(seed);
  std::vector<Eigen::Triplet<double>> entries;
  for (int i = 0; i < n; ++i) {
    std::vector<int> neighbors;
    auto add = [&](int j) {
      if (j != i && j != unlisted && std::find(neighbors.begin(), neighbors.end(), j) == neighbors.end())
        neighbors.push_back(j);
    };
    add((i + 1) % n);
    add((i + n - 1) % n);
    while (neighbors.size() < 5) add(int(random.below(n)));
    std::vector<double> w;
    for (std::size_t a = 0; a < neighbors.size(); ++a) w.push_back(random.uniform() - 0.2);
    const double sum = std::accumulate(w.begin(), w.end(), 0.0);
    entries.emplace_back(i, i, 1.0);
    for (std::size_t a = 0; a < neighbors.size(); ++a) entries.emplace_back(i, neighbors[a], -w[a] / sum);
  }
  nldr::detail::SparseSquare A(n, n);
  A.setFromTriplets(entries.begin(), entries.end());
  return A;
}
#endif

}  // namespace

TEST_CASE("sparse_eigen: bottom eigenpairs match a dense SelfAdjointEigenSolver", "[sparse_eigen]") {
  const int n = 600, nev = 4;
  const auto lower = random_laplacian(n, 11);
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> reference(full_dense(lower));
  auto check = [&](const nldr::BottomEigenOptions& options, const Eigen::VectorXd& null_vector,
                   const std::string& solver) {
    CAPTURE(solver, null_vector.size());
    const auto pairs = nldr::detail::bottom_eigenpairs(lower, nev, options, "test", null_vector);
    REQUIRE(pairs.values.size() == nev);
    REQUIRE(pairs.vectors.rows() == n);
    CHECK(pairs.diagnostics.solver == solver);
    CHECK(pairs.diagnostics.status == nldr::SolverStatus::success);
    for (int c = 0; c < nev; ++c) {
      // Eigenvalues are O(0.01..1) here; both solvers are accurate to ~1e-12 relative to ||L|| ~ 10.
      CHECK_THAT(pairs.values[c], WithinAbs(reference.eigenvalues()[c], 1e-9));
      if (c > 0) CHECK(pairs.values[c] >= pairs.values[c - 1]);  // ascending
    }
    // The gaps between these eigenvalues are >= 1e-3, so each vector is determined up to sign.
    CHECK(worst_column_alignment(pairs.vectors, reference.eigenvectors().leftCols(nev)) > 1 - 1e-8);
  };
  // Sparse without and with the null vector (the constant) deflated, with every factorization; and dense.
  const Eigen::VectorXd none, constant = Eigen::VectorXd::Constant(n, 3.0);
  for (const auto& [factorization, solver] : sparse_factorizations())
    for (const Eigen::VectorXd* null_vector : {&none, &constant})
      check({.dense_below = 0, .factorization = factorization}, *null_vector, solver);
  check({.dense_below = 10000}, none, "dense");
  // automatic: the supernodal factorization from suitesparse_from on, when this build has it.
  check({.dense_below = 0, .suitesparse_from = n}, constant,
        nldr::have_suitesparse() ? "spectra-shift-invert-cholmod-supernodal" : "spectra-shift-invert-ldlt");
  check({.dense_below = 0, .suitesparse_from = n + 1}, constant, "spectra-shift-invert-ldlt");
}

#if defined(NLDR_HAVE_SUITESPARSE)
TEST_CASE("gram_eigen: the bottom eigenpairs of A^T A from the LU of A match a dense solver", "[sparse_eigen]") {
  const int n = 500, nev = 4;
  const nldr::detail::SparseSquare A = random_weight_matrix(n, 17);
  const Eigen::MatrixXd dense_A(A);
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> reference(dense_A.transpose() * dense_A);
  const auto pairs = nldr::detail::gram_bottom_eigenpairs(A, nev, {}, "test");
  REQUIRE(pairs.has_value());
  CHECK(pairs->diagnostics.solver == "spectra-pseudo-inverse-umfpack-lu");
  CHECK(pairs->diagnostics.status == nldr::SolverStatus::success);
  for (int c = 0; c < nev; ++c) {
    // Eigenvalues 0 and O(1e-3..1e-2) here; ||A^T A|| ~ 10, and both solvers are accurate to ~1e-13 of it.
    CHECK_THAT(pairs->values[c], WithinAbs(reference.eigenvalues()[c], 1e-10));
  }
  CHECK(worst_column_alignment(pairs->vectors, reference.eigenvectors().leftCols(nev)) > 1 - 1e-8);
}

TEST_CASE("gram_eigen: the LU is pinned where the left null vector is large", "[sparse_eigen]") {
  // The left null vector z of A (A^T z = 0) has z_0 = sum_i w_i0 z_i: 0 when no other row lists point
  // 0, tiny when one row lists it with a tiny weight. Pinned at 0, the LU is singular or too
  // ill-conditioned, and must say so; pinned where z peaks, or at the most listed point, it works.
  nldr::detail::SparseSquare A = random_weight_matrix(300, 5, 0);
  REQUIRE(A.col(0).nonZeros() == 1);
  nldr::detail::GramPseudoInverse unlisted(A);
  CHECK_FALSE(unlisted.factorize(0));
  // Row 1 lists point 0 with weight 1e-14, taken from another of its weights so that A 1 = 0 still.
  A.coeffRef(1, 0) = -1e-14;
  A.coeffRef(1, 2) += 1e-14;
  REQUIRE((A * Eigen::VectorXd::Ones(300)).cwiseAbs().maxCoeff() < 1e-14);  // rounding of the weights
  nldr::detail::GramPseudoInverse op(A);
  CHECK_FALSE(op.factorize(0));
  REQUIRE(op.peak() > 0);
  CHECK(op.factorize(op.peak()));
  CHECK(op.factorize(nldr::detail::GramPseudoInverse::most_listed(A)));
}
#endif

TEST_CASE("sparse_eigen: report_gap gives the relative gap of a ring's Laplacian in closed form", "[sparse_eigen]") {
  // The Laplacian of a ring of n points has eigenvalues 2 - 2 cos(2 pi k / n), each double for
  // 0 < k < n / 2: after lambda_1 comes lambda_1 again (gap 0), after that lambda_2.
  const int n = 200;
  nldr::detail::SparseLower ring(n, n);
  std::vector<Eigen::Triplet<double>> entries;
  for (int i = 0; i < n; ++i) {
    entries.emplace_back(i, i, 2.0);
    entries.emplace_back(std::max(i, (i + 1) % n), std::min(i, (i + 1) % n), -1.0);
  }
  ring.setFromTriplets(entries.begin(), entries.end());
  const auto lambda = [&](int k) { return 2 - 2 * std::cos(2 * std::numbers::pi * k / n); };
  const Eigen::VectorXd constant = Eigen::VectorXd::Ones(n);
  for (const nldr::index_t dense_below : {0, 1000}) {
    CAPTURE(dense_below);
    const nldr::BottomEigenOptions options{.dense_below = dense_below, .report_gap = true};
    const auto two = nldr::detail::bottom_eigenpairs(ring, 2, options, "test", constant);  // d = 1
    REQUIRE(two.diagnostics.relative_gap.has_value());
    CHECK(*two.diagnostics.relative_gap < 1e-8);  // lambda_1 twice: accurate to ~1e-12 of lambda_1 = 1e-3
    const auto three = nldr::detail::bottom_eigenpairs(ring, 3, options, "test", constant);  // d = 2
    REQUIRE(three.values.size() == 3);
    REQUIRE(three.vectors.cols() == 3);
    CHECK_THAT(*three.diagnostics.relative_gap, WithinAbs((lambda(2) - lambda(1)) / lambda(2), 1e-8));
    CHECK_THAT(three.values[2], WithinAbs(lambda(1), 1e-12));
    CHECK_FALSE(nldr::detail::bottom_eigenpairs(ring, 3, {.dense_below = dense_below}, "test", constant)
                    .diagnostics.relative_gap.has_value());
  }
  const nldr::detail::SparseLower small = ring.topLeftCorner(4, 4);
  CHECK_THROWS_CONTAINING(nldr::detail::bottom_eigenpairs(small, 3, {.report_gap = true}, "test"),
                          nldr::invalid_argument, "report_gap");
}

TEST_CASE("sparse_eigen: failures and bad options raise errors that say what to try", "[sparse_eigen]") {
  const auto lower = random_laplacian(500, 3);
  SECTION("non-convergence") {
    // A tolerance below machine precision cannot be met in one restart.
    const nldr::BottomEigenOptions options{.dense_below = 0, .max_iterations = 1, .tolerance = 1e-300,
                                              .lanczos_vectors = 6};
    CHECK_THROWS_AS(nldr::detail::bottom_eigenpairs(lower, 4, options, "test"), nldr::convergence_error);
    CHECK_THROWS_WITH(nldr::detail::bottom_eigenpairs(lower, 4, options, "test"), ContainsSubstring("max_iterations"));
  }
  SECTION("invalid options") {
    CHECK_THROWS_AS(nldr::detail::bottom_eigenpairs(lower, 3, {.shift = 1e-3}, "test"), nldr::invalid_argument);
    CHECK_THROWS_AS(nldr::detail::bottom_eigenpairs(lower, 3, {.max_iterations = 0}, "test"), nldr::invalid_argument);
    CHECK_THROWS_AS(nldr::detail::bottom_eigenpairs(lower, 3, {.tolerance = 0}, "test"), nldr::invalid_argument);
    CHECK_THROWS_AS(nldr::detail::bottom_eigenpairs(lower, 3, {.dense_below = -1}, "test"), nldr::invalid_argument);
    CHECK_THROWS_AS(nldr::detail::bottom_eigenpairs(lower, 3, {.suitesparse_from = -1}, "test"), nldr::invalid_argument);
    // The LU of I - W is standard LLE's own solver; the other matrices are not built from I - W.
    CHECK_THROWS_CONTAINING(
        nldr::detail::bottom_eigenpairs(lower, 3, {.dense_below = 0, .factorization = nldr::Factorization::lu}, "test"),
        nldr::invalid_argument, nldr::have_suitesparse() ? "standard LLE only" : "nldr::suitesparse");
    CHECK_THROWS_AS(nldr::detail::bottom_eigenpairs(lower, 3, {.factorization = nldr::Factorization(7)}, "test"),
                    nldr::invalid_argument);
    if (!nldr::have_suitesparse())
      CHECK_THROWS_CONTAINING(
          nldr::detail::bottom_eigenpairs(lower, 3, {.factorization = nldr::Factorization::supernodal}, "test"),
          nldr::invalid_argument, "nldr::suitesparse");
  }
  SECTION("the dense solver refuses, before allocating, matrices larger than the memory") {
    // 3 x (300000^2) doubles = 2 TB; the sparse identity itself takes 4.8 MB.
    nldr::detail::SparseLower identity(300000, 300000);
    identity.setIdentity();
    CHECK_THROWS_CONTAINING(nldr::detail::bottom_eigenpairs(identity, 3, {.dense_below = 1000000}, "test"),
                            nldr::memory_limit_exceeded, "lower eigen.dense_below");
  }
  SECTION("a matrix that is not positive semi-definite cannot be factorized") {
    const nldr::detail::SparseLower negative = -lower;
    for (const auto& [factorization, solver] : sparse_factorizations()) {
      CAPTURE(solver);
      const nldr::BottomEigenOptions options{.dense_below = 0, .factorization = factorization};
      CHECK_THROWS_CONTAINING(nldr::detail::bottom_eigenpairs(negative, 3, options, "test"), nldr::convergence_error,
                              "factorization");
    }
  }
}

TEST_CASE("assemble_blocks sums the local blocks like a dense scatter-add", "[sparse_eigen]") {
  const int n = 40;
  nldr::Random random(5);
  nldr::detail::IndexSets sets;
  for (int i = 0; i < n; ++i) {
    std::vector<int> members{i};
    while (members.size() < 2 + random.below(5)) {
      const int j = int(random.below(n));
      if (std::find(members.begin(), members.end(), j) == members.end()) members.push_back(j);
    }
    sets.indices.insert(sets.indices.end(), members.begin(), members.end());
    sets.offsets.push_back(nldr::offset_t(sets.indices.size()));
  }
  std::vector<Eigen::MatrixXd> blocks(n);
  Eigen::MatrixXd expected = Eigen::MatrixXd::Zero(n, n);
  for (int i = 0; i < n; ++i) {
    const auto set = sets.set(i);
    const Eigen::MatrixXd a = random_matrix(Eigen::Index(set.size()), 3, random);
    blocks[i] = a * a.transpose();
    for (std::size_t r = 0; r < set.size(); ++r)
      for (std::size_t c = 0; c < set.size(); ++c) expected(set[r], set[c]) += blocks[i](r, c);
  }
  nldr::StageTimes times;
  const auto lower = nldr::detail::assemble_blocks(
      sets, [&](nldr::index_t i, Eigen::Map<Eigen::MatrixXd>& block) { block = blocks[i]; }, times);
  // Same additions in a different order: equal to rounding.
  CHECK((full_dense(lower) - expected).cwiseAbs().maxCoeff() < 1e-12);
  REQUIRE(times.stages.size() == 2);
  CHECK(times.stages[0].first == "weights");
  CHECK(times.stages[1].first == "assembly");
}

TEST_CASE("LLE weights equal a direct constrained least-squares solve", "[lle]") {
  nldr::Random random(17);
  for (const auto& [k, D] : {std::pair{8, 3}, std::pair{3, 5}, std::pair{12, 12}}) {
    CAPTURE(k, D);
    const Eigen::MatrixXd neighbors = random_matrix(k, D, random);
    const Eigen::RowVectorXd x = random_matrix(1, D, random);
    const Eigen::VectorXd w = nldr::detail::barycenter_weights(neighbors.rowwise() - x, 1e-3);
    CHECK_THAT(w.sum(), WithinAbs(1.0, 1e-12));
    // Both are direct solves of well-conditioned k x k systems (regularized): agree to ~1e-10.
    CHECK((w - kkt_weights(neighbors, x, 1e-3)).cwiseAbs().maxCoeff() < 1e-10);
  }
}

TEST_CASE("LLE weights reproduce an exact affine combination", "[lle]") {
  // x = 0.2 a + 0.3 b + 0.5 c with a, b, c in general position in R^3: the weights are (0.2, 0.3, 0.5)
  // up to the regularization, here 1e-12 relative.
  Eigen::MatrixXd neighbors(3, 3);
  neighbors << 1, 0, 0, 0, 2, 0, 0, 1, 3;
  const Eigen::RowVectorXd x = 0.2 * neighbors.row(0) + 0.3 * neighbors.row(1) + 0.5 * neighbors.row(2);
  const Eigen::VectorXd w = nldr::detail::barycenter_weights(neighbors.rowwise() - x, 1e-12);
  CHECK_THAT(w[0], WithinAbs(0.2, 1e-8));
  CHECK_THAT(w[1], WithinAbs(0.3, 1e-8));
  CHECK_THAT(w[2], WithinAbs(0.5, 1e-8));
}

TEST_CASE("LLE weights are invariant to rotation, translation and scaling of the neighborhood", "[lle]") {
  nldr::Random random(23);
  const int k = 9, D = 4;
  const Eigen::MatrixXd neighbors = random_matrix(k, D, random);
  const Eigen::RowVectorXd x = random_matrix(1, D, random);
  const Eigen::VectorXd w = nldr::detail::barycenter_weights(neighbors.rowwise() - x, 1e-3);
  const Eigen::MatrixXd Q = Eigen::HouseholderQR<Eigen::MatrixXd>(random_matrix(D, D, random)).householderQ();
  const Eigen::RowVectorXd shift = 10 * random_matrix(1, D, random);
  const double scale = 7.3;
  const Eigen::MatrixXd moved = ((neighbors * Q * scale).rowwise() + shift);
  const Eigen::RowVectorXd moved_x = x * Q * scale + shift;
  const Eigen::VectorXd w_moved = nldr::detail::barycenter_weights(moved.rowwise() - moved_x, 1e-3);
  // The Gram matrix and its trace scale by scale^2 and are otherwise unchanged: equal to rounding.
  CHECK((w - w_moved).cwiseAbs().maxCoeff() < 1e-10);
}

TEST_CASE("standard LLE matrix equals (I - W)^T (I - W) on a variable-degree graph", "[lle]") {
  const auto roll = swiss_roll<double>(200, 21, 3);
  const auto graph = variable_knn(roll.points, 5, 10, 4);
  const int n = 200;
  Eigen::MatrixXd I_minus_W = Eigen::MatrixXd::Identity(n, n);
  double expected_error = 0;
  for (int i = 0; i < n; ++i) {
    const auto nbrs = graph.neighbors(i);
    Eigen::MatrixXd members(nbrs.size(), 3);
    for (std::size_t c = 0; c < nbrs.size(); ++c) members.row(c) = roll.points.row(nbrs[c]);
    const Eigen::VectorXd w = kkt_weights(members, roll.points.row(i), 1e-3);
    for (std::size_t c = 0; c < nbrs.size(); ++c) I_minus_W(i, nbrs[c]) -= w[c];
    expected_error += (roll.points.row(i) - w.transpose() * members).squaredNorm();
  }
  const Eigen::MatrixXd expected = I_minus_W.transpose() * I_minus_W;
  std::vector<double> errors(n);
  nldr::StageTimes times;
  const auto M = nldr::detail::lle_matrix(nldr::Matrix<double>(roll.points), graph, nldr::LleOptions{}, errors, times);
  // Entries are O(1); the two weight solves agree to ~1e-10.
  CHECK((full_dense(M) - expected).cwiseAbs().maxCoeff() < 1e-9);

  const auto result = LocallyLinearEmbedding{{.dim = 2}}.fit(roll.points, graph);
  CHECK_THAT(result.reconstruction_error, WithinRel(expected_error, 1e-8));
  // embedding_cost = tr(Y^T M Y) for the orthonormal Y returned.
  const Eigen::MatrixXd Y = result.coordinates;
  CHECK_THAT(result.embedding_cost, WithinRel((Y.transpose() * expected * Y).trace(), 1e-6));
}

TEST_CASE("modified and Hessian LLE matrices annihilate constants and are PSD", "[lle]") {
  const auto roll = swiss_roll<double>(250, 21, 8);
  const auto graph = variable_knn(roll.points, 7, 12, 9);
  for (const auto variant : {LleVariant::modified, LleVariant::hessian}) {
    CAPTURE(int(variant));
    std::vector<double> errors(250);
    nldr::StageTimes times;
    const Eigen::MatrixXd M = full_dense(nldr::detail::lle_matrix(
        nldr::Matrix<double>(roll.points), graph, nldr::LleOptions{.variant = variant}, errors, times));
    // Every MLLE weight vector sums to 1 and every Hessian-estimator row is orthogonal to 1, so M 1 = 0.
    CHECK((M * Eigen::VectorXd::Ones(250)).cwiseAbs().maxCoeff() < 1e-9 * M.cwiseAbs().maxCoeff());
    CHECK((M - M.transpose()).cwiseAbs().maxCoeff() == 0.0);
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(M);
    CHECK(eigen.eigenvalues().minCoeff() > -1e-10 * eigen.eigenvalues().maxCoeff());
  }
}

TEMPLATE_TEST_CASE("every LLE variant recovers a tilted plane exactly (up to an affine map)", "[lle]", float, double) {
  // On flat data the local PCA is exact, so HLLE's and MLLE's null spaces contain the plane coordinates;
  // standard LLE's regularized weights do not reproduce linear functions exactly and its bottom
  // eigenvectors bend near the border. R^2 of the affine fit: measured 0.9999+ (MLLE, HLLE) and 0.974
  // (standard), float and double alike.
  const auto plane = tilted_plane<TestType>(300, 31);
  const auto graph = brute_knn(plane.points, 10);
  for (const auto variant : {LleVariant::standard, LleVariant::modified, LleVariant::hessian}) {
    CAPTURE(int(variant));
    const auto result = LocallyLinearEmbedding{{.dim = 2, .variant = variant}}.fit(plane.points, graph);
    CHECK(intrinsic_r2(plane.intrinsic, result.coordinates) > (variant == LleVariant::standard ? 0.95 : 0.9999));
  }
}

TEMPLATE_TEST_CASE("LLE eigenvectors equal a dense solve of the same matrix", "[lle]", float, double) {
  const auto roll = swiss_roll<TestType>(400, 21, 12);
  const auto graph = brute_knn(roll.points, 10);
  for (const auto variant : {LleVariant::standard, LleVariant::modified, LleVariant::hessian}) {
    CAPTURE(int(variant));
    const nldr::LleOptions options{.dim = 2, .variant = variant, .eigen = {.dense_below = 0}};
    const auto result = LocallyLinearEmbedding{options}.fit(roll.points, graph);
    CHECK(result.diagnostics.solver == "spectra-shift-invert-ldlt");
    std::vector<double> errors(400);
    nldr::StageTimes times;
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> dense(full_dense(
        nldr::detail::lle_matrix(nldr::Matrix<double>(roll.points.template cast<double>()), graph, options, errors, times)));
    for (int c = 0; c < 2; ++c)  // eigenvalues ~1e-8..1e-6; both solvers resolve them to ~1e-13 absolute
      CHECK_THAT(double(result.eigenvalues[c]), WithinAbs(dense.eigenvalues()[c + 1], 1e-11 + 1e-4 * dense.eigenvalues()[c + 1]));
    // Float output is the double result rounded: columns agree to ~1e-6 in cosine.
    CHECK(worst_column_alignment(result.coordinates, dense.eigenvectors().middleCols(1, 2)) > 1 - 1e-5);
  }
}

#if defined(NLDR_HAVE_SUITESPARSE)
TEMPLATE_TEST_CASE("standard LLE through the LU of I - W equals a dense solve of M", "[lle]", float, double) {
  const auto roll = swiss_roll<TestType>(400, 21, 12);
  const auto graph = brute_knn(roll.points, 10);
  const nldr::LleOptions options{.dim = 2, .eigen = {.dense_below = 0, .factorization = nldr::Factorization::lu}};
  const auto result = LocallyLinearEmbedding{options}.fit(roll.points, graph);
  CHECK(result.diagnostics.solver == "spectra-pseudo-inverse-umfpack-lu");
  std::vector<double> errors(400);
  nldr::StageTimes times;
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> dense(full_dense(nldr::detail::lle_matrix(
      nldr::Matrix<double>(roll.points.template cast<double>()), graph, nldr::LleOptions{}, errors, times)));
  for (int c = 0; c < 2; ++c)  // as for the factorizations of M: ~1e-13 absolute on eigenvalues ~1e-8..1e-6
    CHECK_THAT(double(result.eigenvalues[c]), WithinAbs(dense.eigenvalues()[c + 1], 1e-11 + 1e-4 * dense.eigenvalues()[c + 1]));
  CHECK(worst_column_alignment(result.coordinates, dense.eigenvectors().middleCols(1, 2)) > 1 - 1e-5);
  CHECK_THAT(result.reconstruction_error, WithinRel(std::accumulate(errors.begin(), errors.end(), 0.0), 1e-12));

  // report_gap: the same embedding, and the gap after lambda_2 that the dense spectrum gives.
  nldr::LleOptions gap_options = options;
  gap_options.eigen.report_gap = true;
  const auto with_gap = LocallyLinearEmbedding{gap_options}.fit(roll.points, graph);
  CHECK(worst_column_alignment(with_gap.coordinates, result.coordinates.template cast<double>()) > 1 - 1e-6);
  REQUIRE(with_gap.diagnostics.relative_gap.has_value());
  const double expected_gap = (dense.eigenvalues()[3] - dense.eigenvalues()[2]) / dense.eigenvalues()[3];
  CHECK_THAT(*with_gap.diagnostics.relative_gap, WithinAbs(expected_gap, 1e-3));

  // `automatic` takes it from suitesparse_from points on; the other variants have no I - W to factorize.
  const nldr::BottomEigenOptions automatic{.dense_below = 0, .suitesparse_from = 400};
  CHECK(LocallyLinearEmbedding{{.dim = 2, .eigen = automatic}}.fit(roll.points, graph).diagnostics.solver ==
        "spectra-pseudo-inverse-umfpack-lu");
  const LocallyLinearEmbedding modified_lu{{.dim = 2, .variant = LleVariant::modified, .eigen = options.eigen}};
  CHECK_THROWS_CONTAINING(modified_lu.fit(roll.points, graph), nldr::invalid_argument, "standard LLE only");
}
#endif

TEMPLATE_TEST_CASE("LLE variants unroll a Swiss roll and an S-curve", "[lle][purpose]", float, double) {
  // N = 1500, k = 10; Swiss roll of height 21 (scikit-learn's shape), S-curve of height 2. Intrinsic
  // coordinates are (arc length, height), so distances between them are manifold distances.
  // The methods return orthonormal coordinate columns, which cannot keep the ~4:1 aspect ratio, so the
  // residual variance is compared with that of the truth scaled the same way (measured ~0.405 / 0.427).
  // Measured in double (seed 7): MLLE/HLLE R^2 >= 0.9977 and residual variance <= floor + 0.001;
  // standard LLE follows the arc length on one axis (|r| = 0.9997) but bends the height (R^2 0.89 / 0.59,
  // residual variance floor + 0.046 on the roll). Thresholds leave room for float and seeds.
  for (const bool roll : {true, false}) {
    CAPTURE(roll);
    const auto data = roll ? swiss_roll<TestType>(1500, 21, 7) : s_curve<TestType>(1500, 7);
    const auto graph = brute_knn(data.points, 10);
    const double floor = whitened_truth_residual_variance(data.intrinsic);
    for (const auto variant : {LleVariant::standard, LleVariant::modified, LleVariant::hessian}) {
      CAPTURE(int(variant));
      const auto result = LocallyLinearEmbedding{{.dim = 2, .variant = variant}}.fit(data.points, graph);
      const double rv = residual_variance(data.intrinsic, result.coordinates);
      CAPTURE(rv, floor);
      if (variant == LleVariant::standard) {
        CHECK(best_axis_correlation(data.intrinsic.col(0), result.coordinates) > 0.99);
        CHECK(intrinsic_r2(data.intrinsic, result.coordinates) > 0.5);
        CHECK(rv < floor + 0.08);
      } else {
        CHECK(intrinsic_r2(data.intrinsic, result.coordinates) > 0.99);
        CHECK(rv < floor + 0.01);
      }
    }
  }
}

TEST_CASE("LLE results do not depend on the thread count", "[lle]") {
  const auto roll = swiss_roll<double>(500, 21, 2);
  const auto graph = brute_knn(roll.points, 10);
  const int threads = nldr::max_threads();
  for (const auto variant : {LleVariant::standard, LleVariant::modified, LleVariant::hessian}) {
    nldr::set_threads(1);
    const auto one = LocallyLinearEmbedding{{.variant = variant}}.fit(roll.points, graph);
    nldr::set_threads(2);
    const auto two = LocallyLinearEmbedding{{.variant = variant}}.fit(roll.points, graph);
    CHECK(one.coordinates == two.coordinates);
  }
  nldr::set_threads(threads);
}

TEST_CASE("LLE rejects bad input with messages that name the problem", "[lle]") {
  const auto roll = swiss_roll<double>(120, 21, 1);
  const auto graph = brute_knn(roll.points, 6);
  SECTION("non-finite input") {
    nldr::Matrix<double> bad = roll.points;
    bad(5, 1) = std::nan("");
    CHECK_THROWS_CONTAINING(LocallyLinearEmbedding{}.fit(bad, graph), nldr::invalid_argument, "X(5, 1)");
  }
  SECTION("graph of another size") {
    const nldr::Matrix<double> fewer = roll.points.topRows(100);
    CHECK_THROWS_CONTAINING(LocallyLinearEmbedding{}.fit(fewer, graph), nldr::invalid_argument, "rows");
  }
  SECTION("dimension") {
    CHECK_THROWS_CONTAINING(LocallyLinearEmbedding{{.dim = 4}}.fit(roll.points, graph), nldr::invalid_argument, "input dimension D = 3");
    CHECK_THROWS_AS(LocallyLinearEmbedding{{.dim = 0}}.fit(roll.points, graph), nldr::invalid_argument);
  }
  SECTION("regularization") {
    CHECK_THROWS_CONTAINING(LocallyLinearEmbedding{{.reg = 0}}.fit(roll.points, graph), nldr::invalid_argument, "reg = 0");
  }
  SECTION("too few neighbors for the Hessian fit (d = 2 needs 6)") {
    CHECK_THROWS_CONTAINING(LocallyLinearEmbedding{{.variant = LleVariant::hessian}}.fit(roll.points, brute_knn(roll.points, 5)), nldr::invalid_argument, "needs at least 6");
  }
  SECTION("disconnected graph") {
    // Two far-apart copies of the roll: kNN never links them, so M's null space is two-dimensional.
    nldr::Matrix<double> two(240, 3);
    two << roll.points, (roll.points.array() + 1000.0).matrix();
    CHECK_THROWS_CONTAINING(LocallyLinearEmbedding{}.fit(two, brute_knn(two, 6)), nldr::disconnected_graph, "2 connected components (sizes 120, 120)");
  }
}
