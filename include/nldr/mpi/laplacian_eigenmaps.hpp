// Laplacian Eigenmaps of a distributed kNN graph on PETSc and SLEPc.
//
// The same matrix as the single-process LaplacianEigenmaps (nldr/embed/laplacian_eigenmaps.hpp,
// docs/methods/laplacian-eigenmaps.md): the union-symmetrized graph, heat-kernel weights
// W_ij = exp(-||x_i - x_j||^2 / t) with the automatic t = the mean squared edge length, degrees
// D_ii = sum_j W_ij and L_sym = I - D^-1/2 W D^-1/2, here a PETSc MPIAIJ matrix whose rows live on
// the rank that owns the points, solved for its bottom eigenpairs with D^1/2 1 deflated
// (nldr/mpi/spectral.hpp). Coordinates f = D^-1/2 u with the single-process sign rule.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/core/types.hpp>
#include <nldr/embed/laplacian_eigenmaps.hpp>
#include <nldr/mpi/collective.hpp>
#include <nldr/mpi/knn.hpp>
#include <nldr/mpi/petsc.hpp>
#include <nldr/mpi/row_blocks.hpp>
#include <nldr/mpi/spectral.hpp>

#include <Eigen/Core>
#include <mpi.h>

#include <cmath>
#include <cstdint>
#include <vector>

namespace nldr::mpi {

namespace detail {

/// The automatic t: the mean of the squared edge lengths summed in global row order, rank after
/// rank, so that it is the single-process value to the last bit.
template <Real T>
double mean_squared_length(MPI_Comm comm, const SymmetricRows<T>& rows) {
  const int rank = rank_of(comm), parts = size_of(comm);
  double sum = 0;
  std::int64_t count = 0;
  if (rank > 0) MPI_Recv(&sum, 1, MPI_DOUBLE, rank - 1, 1, comm, MPI_STATUS_IGNORE);
  for (const auto& row : rows) {
    for (const auto& [dist, j] : row) sum += double(dist) * double(dist);
    count += std::int64_t(row.size());
  }
  if (rank + 1 < parts) MPI_Send(&sum, 1, MPI_DOUBLE, rank + 1, 1, comm);
  MPI_Bcast(&sum, 1, MPI_DOUBLE, parts - 1, comm);
  MPI_Allreduce(MPI_IN_PLACE, &count, 1, MPI_INT64_T, MPI_SUM, comm);
  return sum / double(count);
}

}  // namespace detail

/// Laplacian Eigenmaps of the distributed graph (a collective call; PETSc and SLEPc initialized,
/// e.g. by a Session). Equals nldr::LaplacianEigenmaps{{.dim, .t}}.fit(X, graph) of the whole graph
/// up to the solvers' tolerance (docs/scaling.md).
/// \throws nldr::invalid_argument ("dim", "t", "shift", "factorization", "report_gap"), nldr::disconnected_graph,
///         nldr::convergence_error, the same on every rank.
template <Real T>
SpectralBlock<T> laplacian_eigenmaps(MPI_Comm comm, const GraphBlock<T>& graph,
                                      const nldr::LaplacianEigenmapsOptions& options) {
  const index_t n = graph.blocks.total(), rows = graph.rows(), first = graph.first();
  const detail::SlepcSettings eigen = detail::slepc_settings(options.eigen);
  detail::validate_spectral(n, options.dim, eigen);
  if (!(options.t >= 0) || std::isnan(options.t))
    throw_invalid("t", "t = ", options.t, " must be > 0, +infinity (0/1 weights) or 0 (automatic)");

  SpectralBlock<T> result;
  Stopwatch clock;
  const auto sym = detail::union_rows(comm, graph);
  double t = options.t;
  if (t == 0) {
    t = detail::mean_squared_length(comm, sym);
    if (!(t > 0))
      throw_invalid("t", "all graph edges have length 0 (duplicate points), so no automatic t exists: remove "
                    "duplicate points or pass t = infinity");
  }
  result.t = t;
  std::vector<std::vector<double>> weights(static_cast<std::size_t>(rows));
  std::vector<double> inv_sqrt_degree(static_cast<std::size_t>(rows)), sqrt_degree(inv_sqrt_degree.size());
  collectively(comm, [&] {
    for (index_t i = 0; i < rows; ++i) {
      double degree = 0;
      for (const auto& [distance, j] : sym[std::size_t(i)]) {
        const double dist = distance;
        weights[std::size_t(i)].push_back(std::isinf(t) ? 1.0 : std::exp(-dist * dist / t));
        degree += weights[std::size_t(i)].back();
      }
      inv_sqrt_degree[std::size_t(i)] = 1.0 / std::sqrt(degree);
      sqrt_degree[std::size_t(i)] = 1.0 / inv_sqrt_degree[std::size_t(i)];  // D^1/2 1: L_sym D^1/2 1 = 0
      if (!std::isfinite(inv_sqrt_degree[std::size_t(i)]))
        throw_invalid("t", "t = ", t, " makes every edge weight of point ", first + i, " underflow to 0: raise t");
    }
  });
  result.times.add("symmetrize", clock.seconds());
  clock.restart();

  // L_sym = I - D^-1/2 W D^-1/2 (PETSc fetches the neighbors' degrees for the column scaling).
  OwnedMat laplacian;
  detail::assemble_symmetric(comm, graph.blocks, graph.rank, sym, std::vector<double>(std::size_t(rows), 0.0),
                             weights, laplacian);
  weights = {};
  OwnedVec scale, null_vector;
  detail::make_vector(laplacian, inv_sqrt_degree, scale);
  detail::make_vector(laplacian, sqrt_degree, null_vector);
  detail::one_minus_scaled(laplacian, scale);
  check(VecNormalize(null_vector, nullptr), "VecNormalize");
  result.times.add("assembly", clock.seconds());
  clock.restart();

  detail::BottomPairs pairs =
      detail::bottom_eigenpairs(comm, laplacian, null_vector, options.dim, eigen, "laplacian-eigenmaps");
  detail::require_second_eigenvalue_nonzero(pairs, "laplacian-eigenmaps");
  result.times.add("eigensolve", clock.seconds());
  result.iterations = pairs.iterations;
  result.solver = pairs.solver;
  result.eigenvalues = pairs.values;
  for (index_t i = 0; i < rows; ++i) pairs.vectors.row(i) *= inv_sqrt_degree[std::size_t(i)];  // f = D^-1/2 u
  detail::fix_signs(comm, graph.blocks, graph.rank, pairs.vectors);
  result.coordinates = pairs.vectors.cast<T>();
  return result;
}

}  // namespace nldr::mpi
