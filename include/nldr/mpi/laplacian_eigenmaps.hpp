// Laplacian Eigenmaps of a distributed kNN graph on PETSc and SLEPc.
//
// The same matrix as the single-process LaplacianEigenmaps (nldr/embed/laplacian_eigenmaps.hpp,
// docs/methods/laplacian-eigenmaps.md): the union-symmetrized graph, heat-kernel weights
// W_ij = exp(-||x_i - x_j||^2 / t) with the automatic t = the mean squared edge length, degrees
// D_ii = sum_j W_ij and L_sym = I - D^-1/2 W D^-1/2, here a PETSc MPIAIJ matrix whose rows live on
// the rank that owns the points. SLEPc's Krylov-Schur on the shift-inverted operator
// (L_sym - sigma I)^-1, factorized by MUMPS's distributed LU, finds the d smallest eigenpairs after
// the null vector D^1/2 1 is deflated, as the single-process solver does (plain Krylov-Schur on
// the smallest eigenvalues does not converge on graph Laplacians; shift-and-invert does).
// Coordinates f = D^-1/2 u, signs fixed by the single-process rule: each column's largest-magnitude
// entry positive (ties: the lowest row).
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/core/types.hpp>
#include <nldr/mpi/collective.hpp>
#include <nldr/mpi/knn.hpp>
#include <nldr/mpi/petsc.hpp>
#include <nldr/mpi/row_blocks.hpp>

#include <Eigen/Core>
#include <mpi.h>
#include <petscmat.h>
#include <slepceps.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

namespace nldr::mpi {

/// Options of laplacian_eigenmaps (the names and meaning of nldr::LaplacianEigenmapsOptions).
struct LaplacianEigenmapsOptions {
  index_t dim = 2;               ///< target dimension d, 1 <= d and d + 1 < N
  double t = 0;                  ///< heat-kernel width: > 0, +infinity (0/1 weights) or 0 (automatic)
  double tolerance = 1e-10;      ///< SLEPc's relative residual tolerance
  int max_iterations = 1000;     ///< SLEPc's restarts
  /// Shift of the shift-and-invert, < 0: the single-process default for a deflated problem.
  double shift = -1e-13;
};

/// This rank's rows of the embedding, the eigenvalues of L f = lambda D f (ascending, the trivial 0
/// dropped) and the kernel width used.
template <Real T>
struct SpectralBlock {
  Matrix<T> coordinates;      ///< rows first() .. first() + rows - 1 of the N x d embedding
  Eigen::VectorXd eigenvalues;
  double t = 0;
  int iterations = 0;         ///< SLEPc's restarts
  StageTimes times;           ///< "symmetrize", "assembly", "eigensolve"
};

namespace detail {

/// The union-symmetrized rows of a distributed directed graph: row i holds j if i lists j or j lists
/// i (at their common distance), ordered by (distance, index) as NeighborGraph::symmetrized() does.
template <Real T>
std::vector<std::vector<std::pair<T, index_t>>> union_rows(MPI_Comm comm, const GraphBlock<T>& graph) {
  struct Reverse {
    index_t target, source;
    T distance;
  };
  const int parts = graph.blocks.parts();
  const index_t first = graph.first(), rows = graph.rows();
  std::vector<std::vector<Reverse>> outgoing(static_cast<std::size_t>(parts));
  for (index_t i = 0; i < rows; ++i)
    for (offset_t e = graph.offsets[std::size_t(i)]; e < graph.offsets[std::size_t(i) + 1]; ++e)
      outgoing[std::size_t(graph.blocks.owner(graph.indices[std::size_t(e)]))].push_back(
          {graph.indices[std::size_t(e)], first + i, graph.distances[std::size_t(e)]});
  const auto per_rank = static_cast<std::size_t>(parts);
  std::vector<int> send_counts(per_rank), receive_counts(per_rank), send_offsets(per_rank, 0), receive_offsets(per_rank, 0);
  std::vector<Reverse> send;
  collectively(comm, [&] {
    if ((graph.indices.size() * sizeof(Reverse)) > std::size_t(INT_MAX))
      throw_invalid("X", "the graph rows of one rank exceed one MPI message (2^31 - 1 bytes): use more ranks");
  });
  for (int r = 0; r < parts; ++r) {
    send_counts[std::size_t(r)] = int(outgoing[std::size_t(r)].size() * sizeof(Reverse));
    if (r > 0) send_offsets[std::size_t(r)] = send_offsets[std::size_t(r) - 1] + send_counts[std::size_t(r) - 1];
    send.insert(send.end(), outgoing[std::size_t(r)].begin(), outgoing[std::size_t(r)].end());
    outgoing[std::size_t(r)] = {};
  }
  MPI_Alltoall(send_counts.data(), 1, MPI_INT, receive_counts.data(), 1, MPI_INT, comm);
  for (int r = 1; r < parts; ++r)
    receive_offsets[std::size_t(r)] = receive_offsets[std::size_t(r) - 1] + receive_counts[std::size_t(r) - 1];
  std::vector<Reverse> received(std::size_t(receive_offsets.back() + receive_counts.back()) / sizeof(Reverse));
  MPI_Alltoallv(send.data(), send_counts.data(), send_offsets.data(), MPI_BYTE, received.data(), receive_counts.data(),
                receive_offsets.data(), MPI_BYTE, comm);

  // Per row: own lists and reverse edges by index, a pair listed both ways once (the smaller
  // distance, as NeighborGraph keeps; both are the same squared_distance), then by (distance, index).
  std::vector<std::vector<std::pair<index_t, T>>> by_index(static_cast<std::size_t>(rows));
  for (index_t i = 0; i < rows; ++i)
    for (offset_t e = graph.offsets[std::size_t(i)]; e < graph.offsets[std::size_t(i) + 1]; ++e)
      by_index[std::size_t(i)].emplace_back(graph.indices[std::size_t(e)], graph.distances[std::size_t(e)]);
  for (const Reverse& r : received) by_index[std::size_t(r.target - first)].emplace_back(r.source, r.distance);
  std::vector<std::vector<std::pair<T, index_t>>> out(static_cast<std::size_t>(rows));
  for (index_t i = 0; i < rows; ++i) {
    auto& list = by_index[std::size_t(i)];
    std::sort(list.begin(), list.end());  // by index, then distance: the first of equal indices is the smaller
    auto& row = out[std::size_t(i)];
    for (std::size_t a = 0; a < list.size(); ++a)
      if (a == 0 || list[a].first != list[a - 1].first) row.emplace_back(list[a].second, list[a].first);
    std::sort(row.begin(), row.end());
    list = {};
  }
  return out;
}

/// The automatic t: the mean of the squared edge lengths summed in global row order, rank after
/// rank, so that it is the single-process value to the last bit.
template <Real T>
double mean_squared_length(MPI_Comm comm, const std::vector<std::vector<std::pair<T, index_t>>>& rows) {
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

/// Flips each column of the distributed `coordinates` so that its largest-magnitude entry over all
/// ranks is positive (ties: the lowest global row), the rule of nldr/embed/detail/signs.hpp.
inline void fix_signs(MPI_Comm comm, const RowBlocks& blocks, int rank, Eigen::MatrixXd& coordinates) {
  for (Eigen::Index c = 0; c < coordinates.cols(); ++c) {
    struct {
      double magnitude;
      int row;
    } largest{-1.0, INT_MAX};
    if (coordinates.rows() > 0) {
      Eigen::Index arg = 0;
      largest.magnitude = coordinates.col(c).cwiseAbs().maxCoeff(&arg);
      largest.row = int(blocks.first(rank) + index_t(arg));
    }
    MPI_Allreduce(MPI_IN_PLACE, &largest, 1, MPI_DOUBLE_INT, MPI_MAXLOC, comm);  // ties: the lower row
    const int owner = blocks.owner(index_t(largest.row));
    double value = rank == owner ? coordinates(largest.row - blocks.first(rank), c) : 0.0;
    MPI_Bcast(&value, 1, MPI_DOUBLE, owner, comm);
    if (value < 0) coordinates.col(c) *= -1;
  }
}

}  // namespace detail

/// Laplacian Eigenmaps of the distributed graph (a collective call; PETSc and SLEPc initialized,
/// e.g. by a Session). Equals nldr::LaplacianEigenmaps{{.dim, .t}}.fit(X, graph) of the whole graph
/// up to the solvers' tolerance (docs/scaling.md).
/// \throws nldr::invalid_argument ("dim", "t"), nldr::disconnected_graph, nldr::convergence_error,
///         the same on every rank.
template <Real T>
SpectralBlock<T> laplacian_eigenmaps(MPI_Comm comm, const GraphBlock<T>& graph, const LaplacianEigenmapsOptions& options) {
  const index_t n = graph.blocks.total(), rows = graph.rows(), first = graph.first();
  const int rank = graph.rank;
  if (options.dim < 1 || index_t(options.dim) + 1 >= n)
    throw_invalid("dim", "dim = ", options.dim, " must be >= 1 and < N - 1 = ", n - 1, ": lower dim");
  if (!(options.t >= 0) || std::isnan(options.t))
    throw_invalid("t", "t = ", options.t, " must be > 0, +infinity (0/1 weights) or 0 (automatic)");
  if (!(options.shift < 0))
    throw_invalid("shift", "shift = ", options.shift, " must be < 0: L_sym - shift I must be positive definite");

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
  std::vector<double> inv_sqrt_degree(static_cast<std::size_t>(rows));
  collectively(comm, [&] {
    for (index_t i = 0; i < rows; ++i) {
      double degree = 0;
      for (const auto& [distance, j] : sym[std::size_t(i)]) {
        const double dist = distance;
        weights[std::size_t(i)].push_back(std::isinf(t) ? 1.0 : std::exp(-dist * dist / t));
        degree += weights[std::size_t(i)].back();
      }
      inv_sqrt_degree[std::size_t(i)] = 1.0 / std::sqrt(degree);
      if (!std::isfinite(inv_sqrt_degree[std::size_t(i)]))
        throw_invalid("t", "t = ", t, " makes every edge weight of point ", first + i, " underflow to 0: raise t");
    }
  });
  result.times.add("symmetrize", clock.seconds());
  clock.restart();

  // L_sym = I - D^-1/2 W D^-1/2: W with an explicit zero diagonal, scaled on both sides, negated
  // and shifted by I (PETSc fetches the neighbors' degrees for the column scaling).
  OwnedMat laplacian;
  {
    std::vector<PetscInt> diagonal_nonzeros(std::size_t(rows), 1), off_diagonal_nonzeros(std::size_t(rows), 0);
    for (index_t i = 0; i < rows; ++i)
      for (const auto& [distance, j] : sym[std::size_t(i)])
        ++(j >= first && j < first + rows ? diagonal_nonzeros : off_diagonal_nonzeros)[std::size_t(i)];
    check(MatCreateAIJ(comm, rows, rows, n, n, 0, diagonal_nonzeros.data(), 0, off_diagonal_nonzeros.data(),
                       laplacian.out()),
          "MatCreateAIJ");
  }
  std::vector<PetscInt> columns;
  std::vector<PetscScalar> values;
  for (index_t i = 0; i < rows; ++i) {
    const PetscInt row = first + i;
    columns.assign(1, row);
    values.assign(1, 0.0);
    for (std::size_t e = 0; e < sym[std::size_t(i)].size(); ++e) {
      columns.push_back(sym[std::size_t(i)][e].second);
      values.push_back(weights[std::size_t(i)][e]);
    }
    check(MatSetValues(laplacian, 1, &row, PetscInt(columns.size()), columns.data(), values.data(), INSERT_VALUES),
          "MatSetValues");
  }
  check(MatAssemblyBegin(laplacian, MAT_FINAL_ASSEMBLY), "MatAssemblyBegin");
  check(MatAssemblyEnd(laplacian, MAT_FINAL_ASSEMBLY), "MatAssemblyEnd");
  OwnedVec scale, null_vector;
  check(MatCreateVecs(laplacian, scale.out(), null_vector.out()), "MatCreateVecs");
  {
    PetscScalar* s = nullptr;
    PetscScalar* u = nullptr;
    check(VecGetArray(scale, &s), "VecGetArray");
    check(VecGetArray(null_vector, &u), "VecGetArray");
    for (index_t i = 0; i < rows; ++i) {
      s[i] = inv_sqrt_degree[std::size_t(i)];
      u[i] = 1.0 / inv_sqrt_degree[std::size_t(i)];  // D^1/2 1: L_sym D^1/2 1 = 0
    }
    check(VecRestoreArray(scale, &s), "VecRestoreArray");
    check(VecRestoreArray(null_vector, &u), "VecRestoreArray");
  }
  check(MatDiagonalScale(laplacian, scale, scale), "MatDiagonalScale");
  check(MatScale(laplacian, -1.0), "MatScale");
  check(MatShift(laplacian, 1.0), "MatShift");
  check(MatSetOption(laplacian, MAT_SYMMETRIC, PETSC_TRUE), "MatSetOption");
  check(VecNormalize(null_vector, nullptr), "VecNormalize");
  weights = {};
  result.times.add("assembly", clock.seconds());
  clock.restart();

  OwnedEps eps;
  check(EPSCreate(comm, eps.out()), "EPSCreate");
  check(EPSSetOperators(eps, laplacian, nullptr), "EPSSetOperators");
  check(EPSSetProblemType(eps, EPS_HEP), "EPSSetProblemType");
  check(EPSSetType(eps, EPSKRYLOVSCHUR), "EPSSetType");
  check(EPSSetDimensions(eps, PetscInt(options.dim), PETSC_DEFAULT, PETSC_DEFAULT), "EPSSetDimensions");
  check(EPSSetTolerances(eps, options.tolerance, options.max_iterations), "EPSSetTolerances");
  check(EPSSetTarget(eps, options.shift), "EPSSetTarget");
  check(EPSSetWhichEigenpairs(eps, EPS_TARGET_MAGNITUDE), "EPSSetWhichEigenpairs");
  Vec deflated[] = {null_vector};
  check(EPSSetDeflationSpace(eps, 1, deflated), "EPSSetDeflationSpace");
  ST st;
  KSP ksp;
  PC pc;
  check(EPSGetST(eps, &st), "EPSGetST");
  check(STSetType(st, STSINVERT), "STSetType");
  check(STGetKSP(st, &ksp), "STGetKSP");
  check(KSPSetType(ksp, KSPPREONLY), "KSPSetType");
  check(KSPGetPC(ksp, &pc), "KSPGetPC");
  check(PCSetType(pc, PCLU), "PCSetType");
  check(PCFactorSetMatSolverType(pc, MATSOLVERMUMPS), "PCFactorSetMatSolverType");
  check(EPSSetFromOptions(eps), "EPSSetFromOptions");  // PETSC_OPTIONS may override (petsc.hpp)
  if (EPSSolve(eps) != 0)
    throw convergence_error(nldr::detail::concat(
        "laplacian-eigenmaps: SLEPc's shift-and-invert solve failed (the MUMPS factorization of L_sym - shift I, shift = ",
        options.shift, "): check the input for duplicate points or set a larger negative shift"));
  PetscInt converged = 0, iterations = 0;
  check(EPSGetConverged(eps, &converged), "EPSGetConverged");
  check(EPSGetIterationNumber(eps, &iterations), "EPSGetIterationNumber");
  result.iterations = int(iterations);
  if (converged < PetscInt(options.dim))
    throw convergence_error(nldr::detail::concat(
        "laplacian-eigenmaps: SLEPc's Krylov-Schur found ", converged, " of ", options.dim, " eigenpairs in ",
        options.max_iterations, " restarts: raise max_iterations or loosen the tolerance"));
  OwnedVec eigenvector;
  check(MatCreateVecs(laplacian, eigenvector.out(), nullptr), "MatCreateVecs");
  Eigen::MatrixXd coordinates(rows, options.dim);
  result.eigenvalues.resize(options.dim);
  for (PetscInt c = 0; c < PetscInt(options.dim); ++c) {
    PetscScalar value = 0;
    check(EPSGetEigenpair(eps, c, &value, nullptr, eigenvector, nullptr), "EPSGetEigenpair");
    result.eigenvalues[c] = value;
    const PetscScalar* x = nullptr;
    check(VecGetArrayRead(eigenvector, &x), "VecGetArrayRead");
    for (index_t i = 0; i < rows; ++i) coordinates(i, c) = inv_sqrt_degree[std::size_t(i)] * x[i];  // f = D^-1/2 u
    check(VecRestoreArrayRead(eigenvector, &x), "VecRestoreArrayRead");
  }
  result.times.add("eigensolve", clock.seconds());
  // A second component adds a second exact 0 (the first pair left after deflating D^1/2 1); a
  // connected graph's smallest non-trivial eigenvalue is far above rounding.
  if (result.eigenvalues[0] < 1e-12)
    throw disconnected_graph(nldr::detail::concat(
        "laplacian-eigenmaps: the graph is not connected (a second eigenvalue ", result.eigenvalues[0],
        " ~ 0 of L_sym): increase k"));
  detail::fix_signs(comm, graph.blocks, rank, coordinates);
  result.coordinates = coordinates.cast<T>();
  return result;
}

}  // namespace nldr::mpi
