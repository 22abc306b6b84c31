// Diffusion maps of a distributed kNN graph on PETSc and SLEPc.
//
// The same operator as the single-process DiffusionMaps (nldr/embed/diffusion_maps.hpp,
// docs/methods/diffusion-maps.md; Coifman & Lafon 2006): on the union-symmetrized graph the kernel
// K_ij = exp(-||x_i - x_j||^2 / epsilon), K_ii = 1, with the automatic epsilon = the median squared
// edge length; the alpha normalization K^(a) = Q^-a K Q^-a (Q_ii = sum_j K_ij); I - S with
// S = D^-1/2 K^(a) D^-1/2 (D_ii = sum_j K^(a)_ij) as a PETSc MPIAIJ matrix with rows local, solved
// for its bottom eigenpairs with D^1/2 1 deflated (nldr/mpi/spectral.hpp). Coordinate j is
// lambda_j^t psi_j, psi_j = ||D^1/2 1|| phi_j / D^1/2 1, lambda_j = 1 - mu_j.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/core/types.hpp>
#include <nldr/embed/diffusion_maps.hpp>
#include <nldr/mpi/knn.hpp>
#include <nldr/mpi/petsc.hpp>
#include <nldr/mpi/row_blocks.hpp>
#include <nldr/mpi/spectral.hpp>

#include <Eigen/Core>
#include <mpi.h>

#include <bit>
#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace nldr::mpi {

namespace detail {

/// The element at position floor(M / 2) in ascending order of the M squared edge lengths of all
/// ranks, as std::nth_element finds it on one machine: a bisection over the bit patterns of
/// non-negative doubles (ordered as integers), one MPI_Allreduce of a count per bit.
template <Real T>
double median_squared_length(MPI_Comm comm, const SymmetricRows<T>& rows) {
  std::vector<std::uint64_t> bits;
  for (const auto& row : rows)
    for (const auto& [dist, j] : row) bits.push_back(std::bit_cast<std::uint64_t>(double(dist) * double(dist)));
  std::int64_t total = std::int64_t(bits.size());
  MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_INT64_T, MPI_SUM, comm);
  const std::int64_t position = total / 2;
  // The smallest pattern v with count(<= v) > position.
  std::uint64_t low = 0, high = std::bit_cast<std::uint64_t>(std::numeric_limits<double>::infinity());
  while (low < high) {
    const std::uint64_t middle = low + (high - low) / 2;
    std::int64_t at_most = 0;
    for (std::uint64_t b : bits) at_most += b <= middle;
    MPI_Allreduce(MPI_IN_PLACE, &at_most, 1, MPI_INT64_T, MPI_SUM, comm);
    if (at_most > position) high = middle;
    else low = middle + 1;
  }
  return std::bit_cast<double>(low);
}

}  // namespace detail

/// Diffusion maps of the distributed graph (a collective call; PETSc and SLEPc initialized). Equals
/// nldr::DiffusionMaps{{.dim, .alpha, .diffusion_time, .bandwidth}}.fit(X, graph) of the whole graph
/// up to the solvers' tolerance (docs/scaling.md). `t` of the result is the bandwidth used.
/// \throws nldr::invalid_argument ("dim", "alpha", "diffusion_time", "bandwidth", "shift",
///         "factorization", "report_gap"),
///         nldr::disconnected_graph, nldr::convergence_error, the same on every rank.
template <Real T>
SpectralBlock<T> diffusion_maps(MPI_Comm comm, const GraphBlock<T>& graph,
                                 const nldr::DiffusionMapsOptions& options) {
  const index_t n = graph.blocks.total(), rows = graph.rows(), first = graph.first();
  const detail::SlepcSettings eigen = detail::slepc_settings(options.eigen);
  detail::validate_spectral(n, options.dim, eigen);
  nldr::detail::validate_diffusion_parameters(options.alpha, options.diffusion_time, options.bandwidth);

  SpectralBlock<T> result;
  Stopwatch clock;
  const auto sym = detail::union_rows(comm, graph);
  double bandwidth = options.bandwidth;
  if (bandwidth == 0) {
    bandwidth = detail::median_squared_length(comm, sym);
    if (!(bandwidth > 0))
      throw_invalid("bandwidth", "at least half of the graph edges have length 0 (duplicate points), so the "
                    "automatic bandwidth (their median squared length) is 0: remove duplicate points or set the "
                    "bandwidth");
  }
  result.t = bandwidth;
  std::vector<std::vector<double>> kernel(static_cast<std::size_t>(rows));
  std::vector<double> q_alpha(static_cast<std::size_t>(rows));
  result.kernel_degrees.resize(static_cast<std::size_t>(rows));
  // A point whose every kernel value underflows is cut off the graph: the bandwidth that keeps each
  // nearest neighbor above e^-30, over all ranks, and the first such point.
  double needed = 0;
  int first_isolated = INT_MAX;
  for (index_t i = 0; i < rows; ++i) {
    double q = 1;  // K_ii
    double nearest = std::numeric_limits<double>::infinity();
    for (const auto& [distance, j] : sym[std::size_t(i)]) {
      const double dist = distance;
      kernel[std::size_t(i)].push_back(std::exp(-dist * dist / bandwidth));
      q += kernel[std::size_t(i)].back();
      nearest = std::min(nearest, dist);
    }
    if (q == 1 && !sym[std::size_t(i)].empty()) {
      needed = std::max(needed, nearest * nearest / 30);
      first_isolated = std::min(first_isolated, int(first + i));
    }
    result.kernel_degrees[std::size_t(i)] = q;
    q_alpha[std::size_t(i)] = std::pow(q, -options.alpha);
  }
  MPI_Allreduce(MPI_IN_PLACE, &needed, 1, MPI_DOUBLE, MPI_MAX, comm);
  MPI_Allreduce(MPI_IN_PLACE, &first_isolated, 1, MPI_INT, MPI_MIN, comm);
  if (first_isolated != INT_MAX)
    throw_invalid("bandwidth", "bandwidth = ", bandwidth, " makes every kernel value of point ", first_isolated,
                  " to its neighbors underflow to 0, cutting it off the graph: use bandwidth = ", needed,
                  " or more, or standardize the features (features on very different scales do this)");
  result.times.add("symmetrize", clock.seconds());
  clock.restart();

  // K, then K^(a) = Q^-a K Q^-a, its row sums D, then I - D^-1/2 K^(a) D^-1/2.
  OwnedMat op;
  detail::assemble_symmetric(comm, graph.blocks, graph.rank, sym, std::vector<double>(std::size_t(rows), 1.0), kernel, op);
  kernel = {};
  OwnedVec density_scale, degree, null_vector;
  detail::make_vector(op, q_alpha, density_scale);
  check(MatDiagonalScale(op, density_scale, density_scale), "MatDiagonalScale");
  check(MatCreateVecs(op, degree.out(), nullptr), "MatCreateVecs");
  check(MatGetRowSum(op, degree), "MatGetRowSum");
  std::vector<double> sqrt_degree(static_cast<std::size_t>(rows)), inv_sqrt_degree(sqrt_degree.size());
  {
    const PetscScalar* d = nullptr;
    check(VecGetArrayRead(degree, &d), "VecGetArrayRead");
    for (index_t i = 0; i < rows; ++i) {
      sqrt_degree[std::size_t(i)] = std::sqrt(d[i]);
      inv_sqrt_degree[std::size_t(i)] = 1.0 / sqrt_degree[std::size_t(i)];
    }
    check(VecRestoreArrayRead(degree, &d), "VecRestoreArrayRead");
  }
  OwnedVec scale;
  detail::make_vector(op, inv_sqrt_degree, scale);
  detail::one_minus_scaled(op, scale);
  detail::make_vector(op, sqrt_degree, null_vector);  // S D^1/2 1 = D^1/2 1
  PetscReal norm = 0;
  check(VecNormalize(null_vector, &norm), "VecNormalize");
  result.times.add("assembly", clock.seconds());
  clock.restart();

  detail::BottomPairs pairs = detail::bottom_eigenpairs(comm, op, null_vector, options.dim, eigen, "diffusion-maps");
  detail::require_second_eigenvalue_nonzero(pairs, "diffusion-maps");
  result.times.add("eigensolve", clock.seconds());
  result.iterations = pairs.iterations;
  result.solver = pairs.solver;
  for (index_t i = 0; i < rows; ++i) pairs.vectors.row(i) *= norm * inv_sqrt_degree[std::size_t(i)];  // psi
  detail::fix_signs(comm, graph.blocks, graph.rank, pairs.vectors);
  result.eigenvalues = 1.0 - pairs.values.array();
  for (index_t j = 0; j < options.dim; ++j) {
    if (!(result.eigenvalues[j] > 0))
      throw convergence_error(nldr::detail::concat("diffusion-maps: eigenvalue ", j + 1, " of the Markov matrix is ",
                                                   result.eigenvalues[j], " <= 0, so lambda^t is undefined: lower dim, "
                                                   "or use a larger bandwidth (a lazier walk)"));
    pairs.vectors.col(j) *= std::pow(result.eigenvalues[j], options.diffusion_time);
  }
  result.coordinates = pairs.vectors.cast<T>();
  return result;
}

}  // namespace nldr::mpi
