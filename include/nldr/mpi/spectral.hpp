// The distributed spectral routines shared by the distributed methods: the union
// symmetrization of a distributed graph, a symmetric PETSc MPIAIJ matrix on its rows, the bottom
// eigenpairs by SLEPc's Krylov-Schur with shift-and-invert (MUMPS's distributed LU; plain
// Krylov-Schur on the smallest eigenvalues does not converge on graph Laplacians) with the known
// null vector deflated, as the single-process solver deflates it (nldr/embed/detail/sparse_eigen.hpp),
// and the single-process sign rule (nldr/embed/detail/signs.hpp) over all ranks.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>
#include <nldr/embed/eigen_options.hpp>
#include <nldr/mpi/collective.hpp>
#include <nldr/mpi/all_to_all.hpp>
#include <nldr/mpi/knn.hpp>
#include <nldr/mpi/petsc.hpp>
#include <nldr/mpi/row_blocks.hpp>

#include <Eigen/Core>
#include <mpi.h>
#include <petscmat.h>
#include <slepceps.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace nldr::mpi {

/// This rank's rows of a distributed spectral embedding, its eigenvalues (the trivial pair dropped;
/// Laplacian Eigenmaps: lambda of L f = lambda D f, ascending; diffusion maps: lambda of the Markov
/// matrix, descending; LLE and LTSA: those of M, ascending) and the kernel width used (t, or
/// diffusion maps' bandwidth; 0 for LLE and LTSA).
template <Real T>
struct SpectralBlock {
  Matrix<T> coordinates;      ///< rows first() .. first() + rows - 1 of the N x d embedding
  Eigen::VectorXd eigenvalues;
  double t = 0;
  /// LLE, LTSA: the bytes of neighbor indices and rows this rank sent to other ranks (the halo).
  std::uint64_t bytes_sent = 0;
  int iterations = 0;         ///< SLEPc's restarts (iterations of other solvers)
  std::string solver;         ///< SLEPc's eigensolver and spectral transformation, e.g. "krylovschur+sinvert"
  StageTimes times;           ///< "symmetrize", "assembly", "eigensolve"
  /// Standard LLE: sum_i ||x_i - sum_j w_ij x_j||^2 over all points, the same on every rank; NaN for
  /// the other methods. Diffusion maps: q_i = sum_j K_ij of this rank's rows, before the alpha
  /// normalization. Both for the single-process model (nldr/mpi/model.hpp).
  double reconstruction_error = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> kernel_degrees;
};

namespace detail {

/// The distributed solver's settings (SLEPc's Krylov-Schur with shift-and-invert).
struct SlepcSettings {
  double tolerance = 1e-10;   ///< SLEPc's relative residual tolerance
  int max_iterations = 1000;  ///< SLEPc's restarts
  double shift = -1e-13;      ///< shift of the shift-and-invert, < 0
};

/// The distributed solver's settings from the single-process ones the methods take: tolerance and
/// restarts as given; the automatic shift (0) is -1e-13, the single-process choice for a deflated
/// matrix of unit mean diagonal, and a given shift is used as it is. What only the single-process
/// solver has (a factorization choice, the eigengap) is refused rather than ignored.
inline SlepcSettings slepc_settings(const BottomEigenOptions& eigen) {
  if (eigen.factorization != Factorization::automatic)
    throw_invalid("factorization", "the distributed solver factorizes with MUMPS: leave factorization automatic");
  if (eigen.report_gap)
    throw_invalid("report_gap", "the distributed solver does not report the eigengap: leave report_gap off");
  return {.tolerance = eigen.tolerance, .max_iterations = eigen.max_iterations,
          .shift = eigen.shift == 0 ? SlepcSettings{}.shift : eigen.shift};
}


/// Symmetric rows of a distributed graph: row i of this rank, (distance, global index) pairs.
template <Real T>
using SymmetricRows = std::vector<std::vector<std::pair<T, index_t>>>;

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
  const auto received = all_to_all(comm, outgoing);
  outgoing = {};
  // Per row: own lists and reverse edges by index, a pair listed both ways once (the smaller
  // distance, as NeighborGraph keeps; both are the same squared_distance), then by (distance, index).
  std::vector<std::vector<std::pair<index_t, T>>> by_index(static_cast<std::size_t>(rows));
  for (index_t i = 0; i < rows; ++i)
    for (offset_t e = graph.offsets[std::size_t(i)]; e < graph.offsets[std::size_t(i) + 1]; ++e)
      by_index[std::size_t(i)].emplace_back(graph.indices[std::size_t(e)], graph.distances[std::size_t(e)]);
  for (const Reverse& r : received.items) by_index[std::size_t(r.target - first)].emplace_back(r.source, r.distance);
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

/// The symmetric N x N MPIAIJ matrix with `diagonal[i]` on the diagonal of row first + i and
/// `weights[i][e]` at its neighbors sym[i][e] (a collective call).
template <Real T>
void assemble_symmetric(MPI_Comm comm, const RowBlocks& blocks, int rank, const SymmetricRows<T>& sym,
                        const std::vector<double>& diagonal, const std::vector<std::vector<double>>& weights,
                        OwnedMat& matrix) {
  const index_t n = blocks.total(), rows = blocks.count(rank), first = blocks.first(rank);
  {
    std::vector<PetscInt> diagonal_nonzeros(static_cast<std::size_t>(rows), 1),
        off_diagonal_nonzeros(static_cast<std::size_t>(rows), 0);
    for (index_t i = 0; i < rows; ++i)
      for (const auto& [distance, j] : sym[std::size_t(i)])
        ++(j >= first && j < first + rows ? diagonal_nonzeros : off_diagonal_nonzeros)[std::size_t(i)];
    check(MatCreateAIJ(comm, rows, rows, n, n, 0, diagonal_nonzeros.data(), 0, off_diagonal_nonzeros.data(),
                       matrix.out()),
          "MatCreateAIJ");
  }
  std::vector<PetscInt> columns;
  std::vector<PetscScalar> values;
  for (index_t i = 0; i < rows; ++i) {
    const PetscInt row = first + i;
    columns.assign(1, row);
    values.assign(1, diagonal[std::size_t(i)]);
    for (std::size_t e = 0; e < sym[std::size_t(i)].size(); ++e) {
      columns.push_back(sym[std::size_t(i)][e].second);
      values.push_back(weights[std::size_t(i)][e]);
    }
    check(MatSetValues(matrix, 1, &row, PetscInt(columns.size()), columns.data(), values.data(), INSERT_VALUES),
          "MatSetValues");
  }
  check(MatAssemblyBegin(matrix, MAT_FINAL_ASSEMBLY), "MatAssemblyBegin");
  check(MatAssemblyEnd(matrix, MAT_FINAL_ASSEMBLY), "MatAssemblyEnd");
  check(MatSetOption(matrix, MAT_SYMMETRIC, PETSC_TRUE), "MatSetOption");
}

/// A vector of `matrix`'s row layout holding this rank's `values`.
inline void make_vector(Mat matrix, const std::vector<double>& values, OwnedVec& vector) {
  check(MatCreateVecs(matrix, vector.out(), nullptr), "MatCreateVecs");
  PetscScalar* x = nullptr;
  check(VecGetArray(vector, &x), "VecGetArray");
  std::copy(values.begin(), values.end(), x);
  check(VecRestoreArray(vector, &x), "VecRestoreArray");
}

/// M := I - diag(s) M diag(s), in place.
inline void one_minus_scaled(Mat matrix, Vec s) {
  check(MatDiagonalScale(matrix, s, s), "MatDiagonalScale");
  check(MatScale(matrix, -1.0), "MatScale");
  check(MatShift(matrix, 1.0), "MatShift");
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

/// Checks, as the single-process methods do, 1 <= dim < N - 1, and shift < 0.
inline void validate_spectral(index_t n, index_t dim, const SlepcSettings& options) {
  validate_dimension(dim, n - 1, "N - 1");
  if (!(options.shift < 0))
    throw_invalid("shift", "shift = ", options.shift, " must be < 0: the shifted matrix must be positive definite");
}

/// The bottom eigenpairs of a distributed symmetric PSD matrix without its known null vector.
struct BottomPairs {
  Eigen::VectorXd values;   ///< the dim smallest eigenvalues after the null one, ascending
  Eigen::MatrixXd vectors;  ///< this rank's rows of their unit eigenvectors (signs not fixed)
  int iterations = 0;       ///< SLEPc's restarts
  std::string solver;       ///< the EPS and ST types used (PETSC_OPTIONS may choose others)
};

/// The `dim` smallest eigenpairs of `matrix` orthogonal to `null_vector` (M u = 0, unit norm), by
/// Krylov-Schur on (M - shift I)^-1 through MUMPS (a collective call). `method` names the caller
/// in errors. \throws nldr::convergence_error, the same on every rank.
inline BottomPairs bottom_eigenpairs(MPI_Comm comm, Mat matrix, Vec null_vector, index_t dim,
                                     const SlepcSettings& options, const std::string& method) {
  OwnedEps eps;
  check(EPSCreate(comm, eps.out()), "EPSCreate");
  check(EPSSetOperators(eps, matrix, nullptr), "EPSSetOperators");
  check(EPSSetProblemType(eps, EPS_HEP), "EPSSetProblemType");
  check(EPSSetType(eps, EPSKRYLOVSCHUR), "EPSSetType");
  check(EPSSetDimensions(eps, PetscInt(dim), PETSC_DEFAULT, PETSC_DEFAULT), "EPSSetDimensions");
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
        method, ": SLEPc's shift-and-invert solve failed (the MUMPS factorization of M - shift I, shift = ",
        options.shift, "): check the input for duplicate points or set a larger negative shift"));
  PetscInt converged = 0, iterations = 0;
  check(EPSGetConverged(eps, &converged), "EPSGetConverged");
  check(EPSGetIterationNumber(eps, &iterations), "EPSGetIterationNumber");
  if (converged < PetscInt(dim))
    throw convergence_error(nldr::detail::concat(
        method, ": SLEPc's Krylov-Schur found ", converged, " of ", dim, " eigenpairs in ", options.max_iterations,
        " restarts: raise max_iterations or loosen the tolerance"));
  BottomPairs pairs;
  pairs.iterations = int(iterations);
  EPSType eps_type = nullptr;
  STType st_type = nullptr;
  check(EPSGetType(eps, &eps_type), "EPSGetType");
  check(STGetType(st, &st_type), "STGetType");
  pairs.solver = nldr::detail::concat(eps_type, "+", st_type);
  PetscInt local = 0;
  check(MatGetLocalSize(matrix, &local, nullptr), "MatGetLocalSize");
  OwnedVec eigenvector;
  check(MatCreateVecs(matrix, eigenvector.out(), nullptr), "MatCreateVecs");
  pairs.values.resize(dim);
  pairs.vectors.resize(local, dim);
  for (PetscInt c = 0; c < PetscInt(dim); ++c) {
    PetscScalar value = 0;
    check(EPSGetEigenpair(eps, c, &value, nullptr, eigenvector, nullptr), "EPSGetEigenpair");
    pairs.values[c] = value;
    const PetscScalar* x = nullptr;
    check(VecGetArrayRead(eigenvector, &x), "VecGetArrayRead");
    for (PetscInt i = 0; i < local; ++i) pairs.vectors(i, c) = x[i];
    check(VecRestoreArrayRead(eigenvector, &x), "VecRestoreArrayRead");
  }
  return pairs;
}

/// Refuses a graph Laplacian's second null eigenvalue: a second component adds a second exact 0
/// (the first pair left after deflating the null vector), while a connected graph's smallest
/// non-trivial eigenvalue of L_sym is far above rounding. (Not for LLE and LTSA, whose bottom
/// eigenvalues fall like N^-2 towards rounding: they check the graph, nldr/mpi/components.hpp.)
inline void require_second_eigenvalue_nonzero(const BottomPairs& pairs, const std::string& method) {
  if (pairs.values[0] < 1e-12)
    throw disconnected_graph(nldr::detail::concat(method, ": the graph is not connected (a second eigenvalue ",
                                                  pairs.values[0], " ~ 0): increase k"));
}

}  // namespace detail
}  // namespace nldr::mpi
