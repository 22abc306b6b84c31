// nldr/mpi against the single-process library, run under mpirun with 1, 2 and 3 ranks
// (tests/CMakeLists.txt): every rank holds one block of the points; the distributed kNN graph must
// equal KNearest's exactly, the distributed Laplacian Eigenmaps, diffusion maps, LLE and LTSA must
// equal LaplacianEigenmaps, DiffusionMaps, LocallyLinearEmbedding and Ltsa to the solvers' tolerance,
// and bad input must fail on every rank with the same error.
#if defined(NLDR_CATCH2_V3)
#include <catch2/catch_session.hpp>
#else
#define CATCH_CONFIG_RUNNER
#endif
#include "catch.hpp"
#include "io/scratch_dir.hpp"

#include <nldr/datasets/swiss_roll.hpp>
#include <nldr/embed/diffusion_maps.hpp>
#include <nldr/embed/laplacian_eigenmaps.hpp>
#include <nldr/embed/lle.hpp>
#include <nldr/embed/ltsa.hpp>
#include <nldr/io/npy.hpp>
#include <nldr/mpi/diffusion_maps.hpp>
#include <nldr/mpi/knn.hpp>
#include <nldr/mpi/laplacian_eigenmaps.hpp>
#include <nldr/mpi/lle.hpp>
#include <nldr/mpi/ltsa.hpp>
#include <nldr/mpi/model.hpp>
#include <nldr/mpi/nearest_neighbors.hpp>
#include <nldr/mpi/npy_writer.hpp>
#include <nldr/mpi/petsc.hpp>
#include <nldr/mpi/point_block.hpp>
#include <nldr/neighbors/knn.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <random>
#include <string>

namespace mpi_test {

const MPI_Comm comm = MPI_COMM_WORLD;

/// Points with many exact distance ties: integer coordinates in [0, 3), some rows repeated.
template <class T>
nldr::Matrix<T> tied_points(nldr::index_t n, Eigen::Index dim, unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_int_distribution<int> coordinate(0, 2);
  nldr::Matrix<T> X(n, dim);
  for (nldr::index_t i = 0; i < n; ++i)
    for (Eigen::Index c = 0; c < dim; ++c) X(i, c) = T(coordinate(random));
  for (nldr::index_t i = 5; i < n; i += 7) X.row(i) = X.row(i - 5);  // exact duplicates
  return X;
}

/// This rank's rows of X under `blocks`.
template <class T>
nldr::Matrix<T> rows_of(const nldr::Matrix<T>& X, const nldr::mpi::RowBlocks& blocks) {
  const int rank = nldr::mpi::rank_of(comm);
  return X.middleRows(blocks.first(rank), blocks.count(rank));
}

/// Uneven blocks: rank r holds a share growing with r, rank 1 of 3 none at all.
inline nldr::mpi::RowBlocks uneven_blocks(nldr::index_t n) {
  const int parts = nldr::mpi::size_of(comm), rank = nldr::mpi::rank_of(comm);
  std::int64_t mine = 0;
  if (parts == 1) mine = n;
  else if (parts == 3) mine = rank == 0 ? n / 3 : rank == 1 ? 0 : n - n / 3;
  else mine = rank + 1 < parts ? n / (2 * parts) : n - (parts - 1) * (n / (2 * parts));
  return nldr::mpi::RowBlocks::gather(comm, mine);
}

/// Checks that the distributed graph's rows equal the single-process graph's rows, bit for bit.
template <class T>
void check_same_rows(const nldr::mpi::GraphBlock<T>& mine, const nldr::NeighborGraph<T>& reference) {
  for (nldr::index_t i = 0; i < mine.rows(); ++i) {
    const nldr::index_t global = mine.first() + i;
    const auto indices = reference.neighbors(global);
    const auto distances = reference.distances(global);
    const auto begin = mine.offsets[std::size_t(i)], end = mine.offsets[std::size_t(i) + 1];
    REQUIRE(std::size_t(end - begin) == indices.size());
    for (std::size_t a = 0; a < indices.size(); ++a) {
      CHECK(mine.indices[std::size_t(begin) + a] == indices[a]);
      CHECK(mine.distances[std::size_t(begin) + a] == distances[a]);
    }
  }
}

/// A scratch path every rank agrees on (made by rank 0, removed by it at the end).
class SharedScratch {
 public:
  SharedScratch() {
    std::string name(64, '\0');
    if (nldr::mpi::rank_of(comm) == 0) {
      name = (std::filesystem::temp_directory_path() / ("nldr-mpi-test-" + std::to_string(std::random_device{}()))).string();
      std::filesystem::create_directories(name);
      name.resize(64, '\0');
    }
    MPI_Bcast(name.data(), 64, MPI_CHAR, 0, comm);
    path_ = name.c_str();
  }
  ~SharedScratch() {
    MPI_Barrier(comm);
    std::error_code ignored;
    if (nldr::mpi::rank_of(comm) == 0) std::filesystem::remove_all(path_, ignored);
  }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

}  // namespace mpi_test

TEMPLATE_TEST_CASE("the ring-pass and spatial kNN graphs equal KNearest's exactly, ties by index", "[mpi][knn]", float,
                   double) {
  using T = TestType;
  for (const auto& [algorithm, name] : nldr::mpi::knn_algorithms) {
    INFO("knn = " << name);
    // D = 4: each block or slab is searched by a k-d tree; D = 24 (> kdtree_max_dimension): the
    // ring by the brute force (the spatial partition by its k-d tree all the same).
    for (const Eigen::Index dim : {4, 24}) {
      const auto X = mpi_test::tied_points<T>(240, dim, 5);
      for (const nldr::index_t k : {1, 7, 30}) {
        const auto reference = nldr::KNearest{k}(X);
        const auto even = nldr::mpi::RowBlocks::even(std::uint64_t(X.rows()), nldr::mpi::size_of(mpi_test::comm));
        const auto points = nldr::mpi::hand_in_block<T>(mpi_test::comm, mpi_test::rows_of(X, even));
        mpi_test::check_same_rows(nldr::mpi::nearest_neighbors(mpi_test::comm, points, k, algorithm), reference);
        const auto uneven = nldr::mpi::hand_in_block<T>(mpi_test::comm,
                                                        mpi_test::rows_of(X, mpi_test::uneven_blocks(X.rows())));
        mpi_test::check_same_rows(nldr::mpi::nearest_neighbors(mpi_test::comm, uneven, k, algorithm), reference);
      }
    }
    // A Swiss roll (D = 3, no ties): the same graph all the same.
    const auto roll = nldr::datasets::swiss_roll<T>({.n = 300, .noise = 0.1, .seed = 3}).points;
    const auto points = nldr::mpi::hand_in_block<T>(
        mpi_test::comm, mpi_test::rows_of(roll, nldr::mpi::RowBlocks::even(300, nldr::mpi::size_of(mpi_test::comm))));
    mpi_test::check_same_rows(nldr::mpi::nearest_neighbors(mpi_test::comm, points, 10, algorithm),
                              nldr::KNearest{10}(roll));
  }
}

TEMPLATE_TEST_CASE("the spatial kNN graph is exact when slabs are degenerate or hold fewer than k points",
                   "[mpi][knn][spatial]", float, double) {
  using T = TestType;
  const auto check = [](const nldr::Matrix<T>& X, nldr::index_t k) {
    const auto reference = nldr::KNearest{k}(X);
    for (const auto& blocks : {nldr::mpi::RowBlocks::even(std::uint64_t(X.rows()), nldr::mpi::size_of(mpi_test::comm)),
                               mpi_test::uneven_blocks(X.rows())}) {
      const auto points = nldr::mpi::hand_in_block<T>(mpi_test::comm, mpi_test::rows_of(X, blocks));
      mpi_test::check_same_rows(nldr::mpi::spatial_nearest_neighbors(mpi_test::comm, points, k), reference);
    }
  };
  // All points on the slab boundaries: the split axis (0, the widest) takes only the values 0 and
  // 10, so the quantiles fall inside runs of equal coordinates and the slabs' extents coincide.
  auto X = mpi_test::tied_points<T>(120, 3, 8);
  for (nldr::index_t i = 0; i < X.rows(); ++i) X(i, 0) = T(10 * (i % 3 == 0));
  for (const nldr::index_t k : {1, 7, 30}) check(X, k);
  // All points identical: every distance 0, the lists by index alone.
  check(nldr::Matrix<T>::Constant(50, 3, T(1.5)), 7);
  // Slabs of 20 (2 ranks) or 13 to 14 points (3 ranks) with k = 30: every point queries every slab.
  check(mpi_test::tied_points<T>(40, 3, 4), 30);
}

TEST_CASE("the spatial partition confines the halo on a Swiss roll", "[mpi][knn][spatial]") {
  // Slabs along the roll's widest axis: only points within their k-th distance of a slab's edge
  // are sent as queries (measured: 331 at 2 ranks, 1070 at 3, 8 to 13% of N per slab boundary);
  // were the slabs mixed up, every point would query every other slab, N (P - 1) queries.
  const nldr::index_t n = 4000, k = 10;
  const auto roll = nldr::datasets::swiss_roll<double>({.n = n, .seed = 6}).points;
  const auto blocks = nldr::mpi::RowBlocks::even(std::uint64_t(n), nldr::mpi::size_of(mpi_test::comm));
  const auto points = nldr::mpi::hand_in_block<double>(mpi_test::comm, mpi_test::rows_of(roll, blocks));
  nldr::mpi::KnnStatistics statistics;
  mpi_test::check_same_rows(nldr::mpi::spatial_nearest_neighbors(mpi_test::comm, points, k, &statistics),
                            nldr::KNearest{k}(roll));
  std::uint64_t queries = statistics.halo_queries;
  MPI_Allreduce(MPI_IN_PLACE, &queries, 1, MPI_UINT64_T, MPI_SUM, mpi_test::comm);
  INFO("halo queries: " << queries);
  const int parts = nldr::mpi::size_of(mpi_test::comm);
  CHECK(queries <= std::uint64_t(n / 4 * (parts - 1)));  // 0 at 1 rank
}

TEST_CASE("automatic kNN is the spatial partition where KNearest uses a k-d tree, the ring above", "[mpi][knn]") {
  using nldr::mpi::KnnAlgorithm;
  CHECK(nldr::mpi::resolve_knn_algorithm(KnnAlgorithm::automatic, 3) == KnnAlgorithm::spatial);
  CHECK(nldr::mpi::resolve_knn_algorithm(KnnAlgorithm::automatic, 24) == KnnAlgorithm::ring);
  CHECK(nldr::mpi::resolve_knn_algorithm(KnnAlgorithm::ring, 3) == KnnAlgorithm::ring);
  CHECK(nldr::mpi::knn_algorithm_named("spatial") == KnnAlgorithm::spatial);
  CHECK_THROWS_CONTAINING(nldr::mpi::knn_algorithm_named("tree"), nldr::invalid_argument,
                          "knn = 'tree' is not a distributed kNN algorithm: use one of automatic, ring, spatial");
}

TEMPLATE_TEST_CASE("read_npy_block reads each rank's rows as parse_npy reads the whole file", "[mpi][npy]", float, double) {
  using T = TestType;
  mpi_test::SharedScratch scratch;
  const auto X = mpi_test::tied_points<double>(101, 5, 9);
  const auto path = scratch / "x.npy";
  if (nldr::mpi::rank_of(mpi_test::comm) == 0) nldr::io::write_npy(path, X);
  MPI_Barrier(mpi_test::comm);
  const auto block = nldr::mpi::read_npy_block<T>(mpi_test::comm, path);
  const auto whole = nldr::io::parse_npy<T>(nldr::io::npy_bytes(X)).values;
  CHECK(block.total() == 101);
  CHECK(block.rows == whole.middleRows(block.first(), block.blocks.count(block.rank)));
  // numpy's own files (tests/data/npy): C and Fortran order, both byte orders, integers, 1-D, v3.
  for (const char* name : {"f8_C_le.npy", "f8_F_le.npy", "f4_F_be.npy", "i2_F_be.npy", "u1_C_1b.npy", "f8_1d.npy",
                           "f8_v3.npy"}) {
    const auto fixture = nldr_test::data_dir() / "npy" / name;
    const auto expected = nldr::io::parse_npy<T>(nldr_test::read_file(fixture)).values;
    const auto part = nldr::mpi::read_npy_block<T>(mpi_test::comm, fixture);
    CHECK(part.rows == expected.middleRows(part.first(), part.blocks.count(part.rank)));
  }
  MPI_Barrier(mpi_test::comm);
}

namespace mpi_test {

/// Checks this rank's rows of a distributed embedding against the single-process model, whose
/// relative gap after the d-th eigenvalue of the solved matrix is `gap`.
/// Why the tolerance holds: the matrix is the same (the same graph, t or the bandwidth to the last
/// bit, weights and degrees summed alike; only the products of the normalization may round
/// differently), solved by two Krylov methods that each stop at a relative residual of 1e-10; an
/// eigenvector with residual r is off by about r / gap (Davis-Kahan), so the two agree to
/// 2e-10 / gap; eigenvalues better (r^2 / gap). Tolerance: 10 x 1e-10 / gap of the largest
/// coordinate in double (a factor of 5 to spare), at least 1e-6 in float (a few units of float's
/// rounding of the coordinates, which both sides apply). Measured: 5e-15 to 2e-10 in double (the
/// same with 1, 2 and 3 ranks), up to 9e-8 in float. No sign flip is allowed: both sides apply the same sign rule.
template <class T, class Model>
void check_same_embedding(const nldr::mpi::SpectralBlock<T>& mine, const Model& reference, nldr::index_t first,
                          double gap) {
  const double tolerance = std::max(std::is_same_v<T, float> ? 1e-6 : 0.0, 1e-9 / gap);
  const nldr::Matrix<T> expected = reference.coordinates.middleRows(first, mine.coordinates.rows());
  for (Eigen::Index c = 0; c < reference.coordinates.cols(); ++c) {
    CHECK(mine.eigenvalues[c] == Approx(double(reference.eigenvalues[c])).epsilon(tolerance));
    const double scale = double(reference.coordinates.col(c).cwiseAbs().maxCoeff());
    double error = 0;
    if (expected.rows() > 0) error = double((mine.coordinates.col(c) - expected.col(c)).cwiseAbs().maxCoeff());
    MPI_Allreduce(MPI_IN_PLACE, &error, 1, MPI_DOUBLE, MPI_MAX, comm);
    CHECK(error <= tolerance * scale);
  }
}

}  // namespace mpi_test

TEMPLATE_TEST_CASE("distributed Laplacian Eigenmaps equals the single-process embedding", "[mpi][laplacian-eigenmaps]",
                   float, double) {
  using T = TestType;
  const nldr::index_t n = 600, k = 10, dim = 2;
  const auto X = nldr::datasets::swiss_roll<T>({.n = n, .noise = 0.05, .seed = 11}).points;
  const auto graph = nldr::KNearest{k}(X);
  // The reference with one pair more, to measure the gap that bounds the eigenvector error.
  const auto wider = nldr::LaplacianEigenmaps{{.dim = dim + 1}}.fit(X, graph);
  const double gap = (wider.eigenvalues[dim] - wider.eigenvalues[dim - 1]) / wider.eigenvalues[dim];
  REQUIRE(gap > 0.05);  // well separated (0.45 here)
  const auto reference = nldr::LaplacianEigenmaps{{.dim = dim}}.fit(X, graph);

  const auto blocks = nldr::mpi::RowBlocks::even(std::uint64_t(n), nldr::mpi::size_of(mpi_test::comm));
  const auto points = nldr::mpi::hand_in_block<T>(mpi_test::comm, mpi_test::rows_of(X, blocks));
  const auto mine = nldr::mpi::laplacian_eigenmaps(mpi_test::comm, nldr::mpi::knearest(mpi_test::comm, points, k),
                                                   nldr::LaplacianEigenmapsOptions{.dim = dim});
  CHECK(mine.t == reference.t);  // the same sum in the same order
  mpi_test::check_same_embedding(mine, reference, points.first(), gap);
}

TEMPLATE_TEST_CASE("distributed diffusion maps equal the single-process embedding", "[mpi][diffusion-maps]", float,
                   double) {
  using T = TestType;
  const nldr::index_t n = 500, k = 12, dim = 2;
  const auto X = nldr::datasets::swiss_roll<T>({.n = n, .noise = 0.05, .seed = 4}).points;
  const auto graph = nldr::KNearest{k}(X);
  const auto blocks = nldr::mpi::RowBlocks::even(std::uint64_t(n), nldr::mpi::size_of(mpi_test::comm));
  const auto points = nldr::mpi::hand_in_block<T>(mpi_test::comm, mpi_test::rows_of(X, blocks));
  const auto distributed_graph = nldr::mpi::knearest(mpi_test::comm, points, k);
  for (const double alpha : {1.0, 0.5}) {
    for (const double time : {1.0, 0.0}) {
      const nldr::DiffusionMapsOptions options{.dim = dim, .alpha = alpha, .diffusion_time = time};
      // The gap of I - S after the d-th pair (the model's eigenvalues are lambda = 1 - mu).
      auto wider_options = options;
      wider_options.dim = dim + 1;
      const auto wider = nldr::DiffusionMaps{wider_options}.fit(X, graph);
      const double mu_d = 1 - double(wider.eigenvalues[dim - 1]), mu_next = 1 - double(wider.eigenvalues[dim]);
      const double gap = (mu_next - mu_d) / mu_next;
      REQUIRE(gap > 0.05);
      const auto reference = nldr::DiffusionMaps{options}.fit(X, graph);
      const auto mine = nldr::mpi::diffusion_maps(mpi_test::comm, distributed_graph, options);  // the same options
      CHECK(mine.t == reference.bandwidth);  // the same median of the same values
      mpi_test::check_same_embedding(mine, reference, points.first(), gap);
    }
  }
}

namespace mpi_test {

/// Solver settings that also report the relative gap after the d-th eigenvalue (the single-process
/// solver solves one pair more): the bound of the eigenvector error in check_same_embedding. (A fit
/// of d + 1 would not do for LTSA, whose matrix depends on d.)
inline const nldr::BottomEigenOptions with_gap{.report_gap = true};

/// A Swiss roll for LLE and LTSA, handed in by even and by uneven blocks (one rank empty at 3 ranks).
template <class T>
struct RollBlocks {
  nldr::Matrix<T> X;
  nldr::NeighborGraph<T> graph;
  std::vector<nldr::mpi::PointBlock<T>> points;  ///< even blocks, then uneven ones
};

template <class T>
RollBlocks<T> roll_blocks(nldr::index_t n, nldr::index_t k, unsigned seed) {
  RollBlocks<T> roll;
  roll.X = nldr::datasets::swiss_roll<T>({.n = n, .noise = 0.05, .seed = seed}).points;
  roll.graph = nldr::KNearest{k}(roll.X);
  for (const auto& blocks : {nldr::mpi::RowBlocks::even(std::uint64_t(n), nldr::mpi::size_of(comm)), uneven_blocks(n)})
    roll.points.push_back(nldr::mpi::hand_in_block<T>(comm, rows_of(roll.X, blocks)));
  return roll;
}

/// The message of what `fit` throws (the single-process method's refusal, to compare).
template <class Fit>
std::string message_of(Fit&& fit) {
  try {
    fit();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(nothing thrown)";
}

}  // namespace mpi_test

TEMPLATE_TEST_CASE("distributed LLE equals the single-process standard LLE", "[mpi][lle]", float, double) {
  using T = TestType;
  const nldr::index_t n = 600, k = 10, dim = 2;
  const auto roll = mpi_test::roll_blocks<T>(n, k, 7);
  const auto reference = nldr::LocallyLinearEmbedding{{.dim = dim, .eigen = mpi_test::with_gap}}.fit(roll.X, roll.graph);
  const double gap = reference.diagnostics.relative_gap.value();
  REQUIRE(gap > 0.05);
  for (const auto& points : roll.points) {
    const auto mine = nldr::mpi::lle(mpi_test::comm, points, nldr::mpi::knearest(mpi_test::comm, points, k),
                                     nldr::LleOptions{.dim = dim});
    mpi_test::check_same_embedding(mine, reference, points.first(), gap);
  }
  // A heavier regularization changes the weights: the option reaches them.
  const auto regularized =
      nldr::LocallyLinearEmbedding{{.dim = dim, .reg = 0.5, .eigen = mpi_test::with_gap}}.fit(roll.X, roll.graph);
  REQUIRE(regularized.diagnostics.relative_gap.value() > 0.05);
  REQUIRE(double((regularized.coordinates - reference.coordinates).cwiseAbs().maxCoeff()) > 1e-3);
  const auto& points = roll.points.front();
  const auto mine = nldr::mpi::lle(mpi_test::comm, points, nldr::mpi::knearest(mpi_test::comm, points, k),
                                   nldr::LleOptions{.dim = dim, .reg = 0.5});
  mpi_test::check_same_embedding(mine, regularized, points.first(), regularized.diagnostics.relative_gap.value());
}

TEMPLATE_TEST_CASE("distributed Hessian LLE equals the single-process Hessian LLE", "[mpi][lle]", float, double) {
  using T = TestType;
  const nldr::index_t n = 600, k = 10, dim = 2;
  const auto roll = mpi_test::roll_blocks<T>(n, k, 9);
  const auto reference = nldr::LocallyLinearEmbedding{
      {.dim = dim, .variant = nldr::LleVariant::hessian, .eigen = mpi_test::with_gap}}.fit(roll.X, roll.graph);
  const double gap = reference.diagnostics.relative_gap.value();
  REQUIRE(gap > 0.05);
  for (const auto& points : roll.points) {
    const auto mine = nldr::mpi::lle(mpi_test::comm, points, nldr::mpi::knearest(mpi_test::comm, points, k),
                                     nldr::LleOptions{.dim = dim, .variant = nldr::LleVariant::hessian});
    mpi_test::check_same_embedding(mine, reference, points.first(), gap);
  }
}

TEMPLATE_TEST_CASE("distributed LTSA equals the single-process LTSA", "[mpi][ltsa]", float, double) {
  using T = TestType;
  const nldr::index_t n = 600, k = 10, dim = 2;
  const auto roll = mpi_test::roll_blocks<T>(n, k, 8);
  const auto reference = nldr::Ltsa{{.dim = dim, .eigen = mpi_test::with_gap}}.fit(roll.X, roll.graph);
  const double gap = reference.diagnostics.relative_gap.value();
  REQUIRE(gap > 0.05);
  for (const auto& points : roll.points) {
    const auto mine = nldr::mpi::ltsa(mpi_test::comm, points, nldr::mpi::knearest(mpi_test::comm, points, k),
                                      nldr::LtsaOptions{.dim = dim});
    mpi_test::check_same_embedding(mine, reference, points.first(), gap);
  }
}

namespace mpi_test {

/// The model of each distributed fit of `roll` (even and uneven blocks) against `reference`, the
/// single-process fit of the whole graph, whose relative gap after the d-th eigenvalue is `gap`:
/// on rank 0 the same training points and new-point rule, the coordinates and eigenvalues within
/// check_same_embedding's tolerance, and the transform of moved points within 10 times it (each
/// method places a point by a weighted sum of its neighbors' coordinates, scaled for Laplacian
/// Eigenmaps and diffusion maps by an eigenvalue term near 1; barycentric weights may exceed 1 in
/// sum). Returns rank 0's model of the uneven blocks for the method's own fields; nullopt elsewhere.
template <class T, class Options, class Reference>
auto check_same_model(const RollBlocks<T>& roll, nldr::index_t k, const Options& options, const Reference& reference,
                      double gap) {
  const double tolerance = std::max(std::is_same_v<T, float> ? 1e-6 : 0.0, 1e-9 / gap);
  const double scale = double(reference.coordinates.cwiseAbs().maxCoeff());
  const nldr::Matrix<T> moved = roll.X.topRows(60).array() + T(0.05);
  const nldr::Matrix<T> expected = reference.transform(moved);
  decltype(nldr::mpi::model_of(comm, roll.points[0], k, nldr::mpi::SpectralBlock<T>{}, options)) model;
  for (const auto& points : roll.points) {
    const auto block = nldr::mpi::embed(comm, points, nldr::mpi::knearest(comm, points, k), options);
    model = nldr::mpi::model_of(comm, points, k, block, options);
    REQUIRE(model.has_value() == (nldr::mpi::rank_of(comm) == 0));
    if (!model) continue;
    REQUIRE_NOTHROW(model->check_state());
    CHECK(model->training.points.points() == roll.X);
    CHECK(model->training.rule.rule == reference.training.rule.rule);
    CHECK(model->training.rule.k == reference.training.rule.k);
    CHECK(model->training.minimum == reference.training.minimum);
    for (Eigen::Index c = 0; c < reference.coordinates.cols(); ++c)
      CHECK(double(model->eigenvalues[c]) == Approx(double(reference.eigenvalues[c])).epsilon(tolerance));
    CHECK(double((model->coordinates - reference.coordinates).cwiseAbs().maxCoeff()) <= tolerance * scale);
    CHECK(double((model->transform(moved) - expected).cwiseAbs().maxCoeff()) <= 10 * tolerance * scale);
    CHECK(model->transform(roll.X.topRows(5)) == model->coordinates.topRows(5));  // training points: their own
  }
  return model;
}

}  // namespace mpi_test

TEMPLATE_TEST_CASE("a distributed fit's model is the single-process model: training points, fields and transform",
                   "[mpi][model]", float, double) {
  using T = TestType;
  const nldr::index_t n = 500, k = 10, dim = 2;
  const auto roll = mpi_test::roll_blocks<T>(n, k, 5);
  const auto gap_after = [&](const auto& wider, bool markov) {  // the relative gap after the d-th pair
    const double a = markov ? 1 - double(wider.eigenvalues[dim - 1]) : double(wider.eigenvalues[dim - 1]);
    const double b = markov ? 1 - double(wider.eigenvalues[dim]) : double(wider.eigenvalues[dim]);
    return (b - a) / b;
  };
  SECTION("Laplacian Eigenmaps") {
    const auto reference = nldr::LaplacianEigenmaps{{.dim = dim}}.fit(roll.X, roll.graph);
    const double gap = gap_after(nldr::LaplacianEigenmaps{{.dim = dim + 1}}.fit(roll.X, roll.graph), false);
    REQUIRE(gap > 0.05);
    const auto model = mpi_test::check_same_model(roll, k, nldr::LaplacianEigenmapsOptions{.dim = dim}, reference, gap);
    if (model) CHECK(model->t == reference.t);
  }
  SECTION("diffusion maps") {
    const nldr::DiffusionMapsOptions options{.dim = dim, .alpha = 0.5};
    auto wider = options;
    wider.dim = dim + 1;
    const double gap = gap_after(nldr::DiffusionMaps{wider}.fit(roll.X, roll.graph), true);
    REQUIRE(gap > 0.05);
    const auto reference = nldr::DiffusionMaps{options}.fit(roll.X, roll.graph);
    const auto model = mpi_test::check_same_model(roll, k, options, reference, gap);
    if (model) {
      CHECK(model->bandwidth == reference.bandwidth);
      CHECK(model->alpha == reference.alpha);
      CHECK(model->diffusion_time == reference.diffusion_time);
      // q_i summed over the same symmetrized row in the same order.
      CHECK((model->kernel_degrees - reference.kernel_degrees).cwiseAbs().maxCoeff() <=
            1e-13 * reference.kernel_degrees.maxCoeff());
    }
  }
  SECTION("standard and Hessian LLE") {
    for (const auto variant : {nldr::LleVariant::standard, nldr::LleVariant::hessian}) {
      const nldr::LleOptions options{.dim = dim, .reg = 0.01, .variant = variant};
      auto with_gap = options;
      with_gap.eigen = mpi_test::with_gap;
      const auto reference = nldr::LocallyLinearEmbedding{with_gap}.fit(roll.X, roll.graph);
      const double gap = reference.diagnostics.relative_gap.value();
      REQUIRE(gap > 0.05);
      const auto model = mpi_test::check_same_model(roll, k, options, reference, gap);
      if (!model) continue;
      CHECK(model->reg == reference.reg);
      CHECK(model->embedding_cost == Approx(reference.embedding_cost).epsilon(1e-6));
      if (variant == nldr::LleVariant::hessian) {
        CHECK(std::isnan(model->reconstruction_error));
        CHECK(std::isnan(reference.reconstruction_error));
      } else {  // the same weights per point, summed in another order
        CHECK(model->reconstruction_error == Approx(reference.reconstruction_error).epsilon(1e-12));
      }
    }
  }
  SECTION("LTSA") {
    const auto reference = nldr::Ltsa{{.dim = dim, .eigen = mpi_test::with_gap}}.fit(roll.X, roll.graph);
    const double gap = reference.diagnostics.relative_gap.value();
    REQUIRE(gap > 0.05);
    mpi_test::check_same_model(roll, k, nldr::LtsaOptions{.dim = dim}, reference, gap);
  }
}

TEST_CASE("LLE and LTSA refuse what the single-process methods refuse, on every rank", "[mpi][lle][ltsa][errors]") {
  const auto roll = mpi_test::roll_blocks<double>(120, 10, 3);
  const auto& points = roll.points.back();  // uneven blocks
  // Too few neighbors for d: the single-process message, naming the same point.
  const auto two = nldr::mpi::knearest(mpi_test::comm, points, 2);
  const std::string lle_refusal = mpi_test::message_of(
      [&] { nldr::LocallyLinearEmbedding{{.dim = 2}}.fit(roll.X, nldr::KNearest{2}(roll.X)); });
  CHECK_THAT(lle_refusal, ContainsSubstring("needs at least 3"));
  CHECK_THROWS_WITH(nldr::mpi::lle(mpi_test::comm, points, two, nldr::LleOptions{.dim = 2}), lle_refusal);
  const auto one = nldr::mpi::knearest(mpi_test::comm, points, 1);
  const std::string ltsa_refusal =
      mpi_test::message_of([&] { nldr::Ltsa{{.dim = 2}}.fit(roll.X, nldr::KNearest{1}(roll.X)); });
  CHECK_THAT(ltsa_refusal, ContainsSubstring("needs at least 2"));
  CHECK_THROWS_WITH(nldr::mpi::ltsa(mpi_test::comm, points, one, nldr::LtsaOptions{.dim = 2}), ltsa_refusal);
  // dim above D, dim >= N - 1, reg <= 0, k >= N.
  const auto graph = nldr::mpi::knearest(mpi_test::comm, points, 10);
  CHECK_THROWS_WITH(nldr::mpi::ltsa(mpi_test::comm, points, graph, nldr::LtsaOptions{.dim = 4}),
                    mpi_test::message_of([&] { nldr::Ltsa{{.dim = 4}}.fit(roll.X, roll.graph); }));
  CHECK_THROWS_WITH(nldr::mpi::lle(mpi_test::comm, points, graph, nldr::LleOptions{.dim = 119}),
                    mpi_test::message_of([&] { nldr::LocallyLinearEmbedding{{.dim = 119}}.fit(roll.X, roll.graph); }));
  CHECK_THROWS_WITH(nldr::mpi::lle(mpi_test::comm, points, graph, nldr::LleOptions{.reg = 0}),
                    mpi_test::message_of([&] { nldr::LocallyLinearEmbedding{{.reg = 0}}.fit(roll.X, roll.graph); }));
  // Hessian LLE needs 1 + d + d(d+1)/2 = 6 neighbors at d = 2; modified LLE is not distributed.
  const nldr::LleOptions hessian{.dim = 2, .variant = nldr::LleVariant::hessian};
  CHECK_THROWS_WITH(nldr::mpi::lle(mpi_test::comm, points, nldr::mpi::knearest(mpi_test::comm, points, 5),
                                   nldr::LleOptions{.dim = 2, .variant = nldr::LleVariant::hessian}),
                    mpi_test::message_of([&] { nldr::LocallyLinearEmbedding{hessian}.fit(roll.X, nldr::KNearest{5}(roll.X)); }));
  CHECK_THROWS_CONTAINING(nldr::mpi::lle(mpi_test::comm, points, graph, nldr::LleOptions{.variant = nldr::LleVariant::modified}),
                          nldr::invalid_argument, "modified-lle is not distributed");
  CHECK_THROWS_CONTAINING(nldr::mpi::knearest(mpi_test::comm, points, 120), nldr::invalid_argument,
                          "k = 120 must be < N = 120");
  // A graph of two components (two Swiss rolls 1000 apart), refused before any eigensolve.
  nldr::Matrix<double> two_rolls(240, 3);
  two_rolls.topRows(120) = roll.X;
  two_rolls.bottomRows(120) = roll.X.array() + 1000.0;
  CHECK_THROWS_AS(nldr::LocallyLinearEmbedding{{.dim = 2}}.fit(two_rolls, nldr::KNearest{8}(two_rolls)),
                  nldr::disconnected_graph);
  const auto apart = nldr::mpi::hand_in_block<double>(
      mpi_test::comm, mpi_test::rows_of(two_rolls, mpi_test::uneven_blocks(240)));
  const auto apart_graph = nldr::mpi::knearest(mpi_test::comm, apart, 8);
  CHECK_THROWS_CONTAINING(nldr::mpi::lle(mpi_test::comm, apart, apart_graph, nldr::LleOptions{}),
                          nldr::disconnected_graph, "lle: the neighbor graph has 2 connected components");
  CHECK_THROWS_CONTAINING(nldr::mpi::ltsa(mpi_test::comm, apart, apart_graph, nldr::LtsaOptions{}),
                          nldr::disconnected_graph, "ltsa: the neighbor graph has 2 connected components");
}

TEST_CASE("bad input fails on every rank with the same clear error", "[mpi][errors]") {
  const int parts = nldr::mpi::size_of(mpi_test::comm), rank = nldr::mpi::rank_of(mpi_test::comm);
  const auto X = mpi_test::tied_points<double>(40, 3, 1);
  const auto blocks = nldr::mpi::RowBlocks::even(40, parts);
  const auto points = nldr::mpi::hand_in_block<double>(mpi_test::comm, mpi_test::rows_of(X, blocks));
  CHECK_THROWS_CONTAINING(nldr::mpi::knearest(mpi_test::comm, points, 40), nldr::invalid_argument, "k = 40 must be < N = 40");
  CHECK_THROWS_CONTAINING(nldr::mpi::read_npy_block<double>(mpi_test::comm, "/nonexistent/x.npy"), nldr::io_error,
                          "/nonexistent/x.npy: cannot be opened");

  // A NaN on the last rank only: every rank throws.
  nldr::Matrix<double> mine = mpi_test::rows_of(X, blocks);
  if (rank == parts - 1) mine(0, 1) = std::nan("");
  CHECK_THROWS_CONTAINING(nldr::mpi::hand_in_block<double>(mpi_test::comm, mine), nldr::invalid_argument, "not finite");

  // Mismatched sizes: rank 0 hands in 3 columns, the others 4.
  if (parts > 1) {
    nldr::Matrix<double> odd = nldr::Matrix<double>::Ones(5, rank == 0 ? 3 : 4);
    CHECK_THROWS_CONTAINING(nldr::mpi::hand_in_block<double>(mpi_test::comm, odd), nldr::invalid_argument,
                            "different numbers of columns (from 3 to 4");
  }

  // A file shorter than its header says, and an unwritable output.
  mpi_test::SharedScratch scratch;
  if (rank == 0) {
    std::string bytes = nldr::io::npy_bytes(X);
    bytes.resize(bytes.size() - 8);
    std::ofstream(scratch / "short.npy", std::ios::binary) << bytes;
  }
  MPI_Barrier(mpi_test::comm);
  CHECK_THROWS_CONTAINING(nldr::mpi::read_npy_block<double>(mpi_test::comm, scratch / "short.npy"), nldr::io_error,
                          "truncated or appended");
  CHECK_THROWS_CONTAINING(nldr::mpi::NpyBlockWriter(mpi_test::comm, scratch / "missing" / "y.npy"), nldr::io_error,
                          "does not exist");
  CHECK_THROWS_CONTAINING(
      nldr::mpi::laplacian_eigenmaps(mpi_test::comm, nldr::mpi::knearest(mpi_test::comm, points, 5),
                                     nldr::LaplacianEigenmapsOptions{.dim = 39}),
      nldr::invalid_argument, "dim = 39 must be < N - 1 = 39");
  const auto graph = nldr::mpi::knearest(mpi_test::comm, points, 5);
  CHECK_THROWS_CONTAINING(nldr::mpi::diffusion_maps(mpi_test::comm, graph, nldr::DiffusionMapsOptions{.alpha = 2}),
                          nldr::invalid_argument, "alpha = 2 must lie in [0, 1]");
  // The single-process options' solver settings that SLEPc has no use for are refused, not ignored.
  CHECK_THROWS_CONTAINING(
      nldr::mpi::diffusion_maps(mpi_test::comm, graph, {.eigen = {.factorization = nldr::Factorization::supernodal}}),
      nldr::invalid_argument, "leave factorization automatic");
  CHECK_THROWS_CONTAINING(nldr::mpi::laplacian_eigenmaps(mpi_test::comm, graph, {.eigen = {.report_gap = true}}),
                          nldr::invalid_argument, "does not report the eigengap");
  // A bandwidth so small that every kernel value underflows (points 0 to 5 have duplicates at
  // distance 0, 6 does not): the single-process message, on every rank.
  const std::string cut_off = "of point 6 to its neighbors underflow to 0, cutting it off the graph: use bandwidth = 0.0333";
  CHECK_THROWS_CONTAINING(nldr::DiffusionMaps{{.bandwidth = 1e-300}}.fit(X, nldr::KNearest{5}(X)), nldr::invalid_argument,
                          cut_off);
  CHECK_THROWS_CONTAINING(
      nldr::mpi::diffusion_maps(mpi_test::comm, graph, nldr::DiffusionMapsOptions{.bandwidth = 1e-300}),
      nldr::invalid_argument, cut_off);
}

TEST_CASE("a graph of two components is refused on every rank, as the single-process method refuses it",
          "[mpi][laplacian-eigenmaps][errors]") {
  // Two Swiss rolls 1000 apart: no point's 8 nearest neighbors reach the other roll.
  const auto roll = nldr::datasets::swiss_roll<double>({.n = 150, .seed = 2}).points;
  nldr::Matrix<double> X(300, 3);
  X.topRows(150) = roll;
  X.bottomRows(150) = roll.array() + 1000.0;
  const auto graph = nldr::KNearest{8}(X);
  CHECK_THROWS_AS(nldr::LaplacianEigenmaps{{.dim = 2}}.fit(X, graph), nldr::disconnected_graph);
  const auto blocks = nldr::mpi::RowBlocks::even(300, nldr::mpi::size_of(mpi_test::comm));
  const auto points = nldr::mpi::hand_in_block<double>(mpi_test::comm, mpi_test::rows_of(X, blocks));
  CHECK_THROWS_CONTAINING(nldr::mpi::laplacian_eigenmaps(mpi_test::comm, nldr::mpi::knearest(mpi_test::comm, points, 8),
                                                         nldr::LaplacianEigenmapsOptions{.dim = 2}),
                          nldr::disconnected_graph, "the graph is not connected");
}

TEST_CASE("NpyBlockWriter writes the distributed rows as one .npy file", "[mpi][npy]") {
  mpi_test::SharedScratch scratch;
  const auto X = mpi_test::tied_points<double>(57, 3, 2);
  const auto blocks = mpi_test::uneven_blocks(57);
  nldr::mpi::NpyBlockWriter writer(mpi_test::comm, scratch / "y.npy");
  writer.write(blocks, nldr::Matrix<double>(mpi_test::rows_of(X, blocks)));
  if (nldr::mpi::rank_of(mpi_test::comm) == 0) {
    std::ifstream in(scratch / "y.npy", std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(bytes == nldr::io::npy_bytes(X));  // byte for byte what the single-process writer makes
  }
}

int main(int argc, char** argv) {
  nldr::mpi::Session session(&argc, &argv);
  return Catch::Session().run(argc, argv);
}
