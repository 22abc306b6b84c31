// The distributed matrices of LLE and LTSA and their embedding. Both are sums of small dense blocks,
// one per point on its index set (the point and its neighbors),
//   M = sum_i S_i B_i S_i^T     (nldr/embed/detail/local_blocks.hpp),
// with the constant vector in the null space of every block. Each rank computes the blocks of its
// own points from its rows and the neighbor rows it fetched (nldr/mpi/halo.hpp) with the
// single-process block routines, and adds them into a PETSc MPIAIJ matrix with ADD_VALUES: the
// rows of a block owned by other ranks travel in PETSc's stash to their owners at assembly. The
// pattern (M's 2-hop pattern, partly unknown to the owner of a row) is first inserted into PETSc's
// MATPREALLOCATOR, which preallocates the matrix exactly. Then the bottom eigenpairs with the
// constant vector deflated (nldr/mpi/spectral.hpp) and the single-process sign rule: the
// coordinates are the unit eigenvectors, as in nldr::detail::fill_spectral_embedding.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>
#include <nldr/embed/detail/local_blocks.hpp>
#include <nldr/mpi/collective.hpp>
#include <nldr/mpi/components.hpp>
#include <nldr/mpi/halo.hpp>
#include <nldr/mpi/knn.hpp>
#include <nldr/mpi/petsc.hpp>
#include <nldr/mpi/point_block.hpp>
#include <nldr/mpi/spectral.hpp>

#include <Eigen/Core>
#include <mpi.h>
#include <petscmat.h>

#include <cmath>
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <span>
#include <string>
#include <vector>

namespace nldr::mpi::detail {

/// What a local-block method asks of embed_local_blocks.
struct LocalBlockMethod {
  std::string name;           ///< in errors: "lle", "ltsa"
  index_t dim = 2;            ///< embedding dimension d
  bool with_self = true;      ///< index sets [i, neighbors(i)] (else [neighbors(i)])
  index_t min_degree = 1;     ///< fewest neighbors a point needs, and why (the single-process message)
  const char* min_degree_reason = "";
  SlepcSettings eigen{};
};

/// The embedding by the bottom eigenvectors of M = sum_i S_i B_i S_i^T (a collective call).
/// `block(table, members, center, B)` fills point i's block B (m x m, zeroed, symmetric) from the
/// rows `members` of `table` (its index set, as rows of the HaloTable's `rows`); `center` is
/// point i's row. It returns the point's reconstruction error (NaN where the method has none),
/// summed into the result's reconstruction_error. Validates as the single-process methods do (dim, degrees, connectivity).
/// \throws nldr::invalid_argument ("dim", "graph", "shift"), nldr::disconnected_graph,
///         nldr::convergence_error, the same on every rank.
template <Real T, class Block>
SpectralBlock<T> embed_local_blocks(MPI_Comm comm, const PointBlock<T>& points, const GraphBlock<T>& graph,
                                    const LocalBlockMethod& method, Block&& block) {
  const index_t n = graph.blocks.total(), rows = graph.rows(), first = graph.first();
  collectively(comm, [&] {
    if (points.total() != n || points.first() != first || index_t(points.rows.rows()) != rows)
      throw_invalid("graph", method.name, ": the graph's rows (", first, " .. ", first + rows, " of ", n,
                    " here) are not the points' rows: build it with nldr::mpi::nearest_neighbors of the same points");
  });
  validate_spectral(n, method.dim, method.eigen);
  validate_dim_within_input(method.dim, points.rows.cols());
  collectively(comm, [&] {
    for (index_t i = 0; i < rows; ++i)
      nldr::detail::require_degree(first + i, index_t(graph.offsets[std::size_t(i) + 1] - graph.offsets[std::size_t(i)]),
                                   method.min_degree, method.name, method.min_degree_reason);
  });
  SpectralBlock<T> result;
  Stopwatch clock;
  require_connected(comm, graph, method.name);
  result.times.add("connectivity", clock.seconds());
  clock.restart();
  const HaloTable table = fetch_halo(comm, points, graph.indices);
  result.bytes_sent = table.bytes_sent;
  result.times.add("halo", clock.seconds());
  clock.restart();

  // Index sets as global indices (PETSc's) and as rows of the table; blocks computed in parallel.
  const offset_t self = method.with_self ? 1 : 0;
  std::vector<offset_t> set_offsets(std::size_t(rows) + 1, 0), block_offsets(std::size_t(rows) + 1, 0);
  for (index_t i = 0; i < rows; ++i) {
    const offset_t m = graph.offsets[std::size_t(i) + 1] - graph.offsets[std::size_t(i)] + self;
    set_offsets[std::size_t(i) + 1] = set_offsets[std::size_t(i)] + m;
    block_offsets[std::size_t(i) + 1] = block_offsets[std::size_t(i)] + m * m;
  }
  std::vector<PetscInt> sets(std::size_t(set_offsets.back()));
  std::vector<index_t> members(sets.size());
  for (index_t i = 0; i < rows; ++i) {
    offset_t e = set_offsets[std::size_t(i)];
    if (self) sets[std::size_t(e++)] = first + i;
    for (offset_t g = graph.offsets[std::size_t(i)]; g < graph.offsets[std::size_t(i) + 1]; ++g)
      sets[std::size_t(e++)] = graph.indices[std::size_t(g)];
  }
  for (std::size_t e = 0; e < sets.size(); ++e) members[e] = table.row_of(index_t(sets[e]));
  std::vector<double> values(std::size_t(block_offsets.back()), 0.0), errors(static_cast<std::size_t>(rows));
  parallel_for(0, rows, [&](std::int64_t i) {
    const offset_t begin = set_offsets[std::size_t(i)], m = set_offsets[std::size_t(i) + 1] - begin;
    Eigen::Map<Eigen::MatrixXd> local(values.data() + block_offsets[std::size_t(i)], Eigen::Index(m), Eigen::Index(m));
    errors[std::size_t(i)] =
        block(table.rows, std::span<const index_t>(members.data() + begin, std::size_t(m)), Eigen::Index(i), local);
    // PETSc finds a row's places fastest when its columns ascend: sort the set, permuting the block.
    PetscInt* set = sets.data() + begin;
    std::vector<Eigen::Index> order(static_cast<std::size_t>(m));
    std::iota(order.begin(), order.end(), Eigen::Index{0});
    std::sort(order.begin(), order.end(), [&](Eigen::Index a, Eigen::Index b) { return set[a] < set[b]; });
    const Eigen::MatrixXd unsorted = local;
    const std::vector<PetscInt> unsorted_set(set, set + m);
    for (Eigen::Index a = 0; a < Eigen::Index(m); ++a) {
      set[a] = unsorted_set[std::size_t(order[std::size_t(a)])];
      for (Eigen::Index b = 0; b < Eigen::Index(m); ++b)
        local(a, b) = unsorted(order[std::size_t(a)], order[std::size_t(b)]);
    }
  });
  result.reconstruction_error = 0;
  for (double e : errors) result.reconstruction_error += e;  // in row order, independent of the threads
  MPI_Allreduce(MPI_IN_PLACE, &result.reconstruction_error, 1, MPI_DOUBLE, MPI_SUM, comm);
  result.times.add("weights", clock.seconds());
  clock.restart();

  // The pattern into PETSc's preallocator, then the values added (blocks are symmetric, so their
  // column-major storage is the row-major order MatSetValues reads).
  OwnedMat matrix;
  {
    OwnedMat pattern;
    check(MatCreate(comm, pattern.out()), "MatCreate");
    check(MatSetType(pattern, MATPREALLOCATOR), "MatSetType");
    check(MatSetSizes(pattern, rows, rows, n, n), "MatSetSizes");
    check(MatSetUp(pattern), "MatSetUp");
    for (index_t i = 0; i < rows; ++i) {
      const PetscInt m = PetscInt(set_offsets[std::size_t(i) + 1] - set_offsets[std::size_t(i)]);
      const PetscInt* set = sets.data() + set_offsets[std::size_t(i)];
      check(MatSetValues(pattern, m, set, m, set, values.data() + block_offsets[std::size_t(i)], INSERT_VALUES),
            "MatSetValues");
    }
    check(MatAssemblyBegin(pattern, MAT_FINAL_ASSEMBLY), "MatAssemblyBegin");
    check(MatAssemblyEnd(pattern, MAT_FINAL_ASSEMBLY), "MatAssemblyEnd");
    check(MatCreate(comm, matrix.out()), "MatCreate");
    check(MatSetType(matrix, MATAIJ), "MatSetType");
    check(MatSetSizes(matrix, rows, rows, n, n), "MatSetSizes");
    check(MatPreallocatorPreallocate(pattern, PETSC_TRUE, matrix), "MatPreallocatorPreallocate");
  }
  result.times.add("pattern", clock.seconds());
  clock.restart();
  for (index_t i = 0; i < rows; ++i) {
    const PetscInt m = PetscInt(set_offsets[std::size_t(i) + 1] - set_offsets[std::size_t(i)]);
    const PetscInt* set = sets.data() + set_offsets[std::size_t(i)];
    check(MatSetValues(matrix, m, set, m, set, values.data() + block_offsets[std::size_t(i)], ADD_VALUES),
          "MatSetValues");
  }
  values = {};
  check(MatAssemblyBegin(matrix, MAT_FINAL_ASSEMBLY), "MatAssemblyBegin");
  check(MatAssemblyEnd(matrix, MAT_FINAL_ASSEMBLY), "MatAssemblyEnd");
  check(MatSetOption(matrix, MAT_SYMMETRIC, PETSC_TRUE), "MatSetOption");
  result.times.add("assembly", clock.seconds());
  clock.restart();

  // Every block annihilates the constant vector, so M 1 = 0: deflate it.
  OwnedVec constant;
  check(MatCreateVecs(matrix, constant.out(), nullptr), "MatCreateVecs");
  check(VecSet(constant, 1.0 / std::sqrt(double(n))), "VecSet");
  BottomPairs pairs = bottom_eigenpairs(comm, matrix, constant, method.dim, method.eigen, method.name);
  result.times.add("eigensolve", clock.seconds());
  result.iterations = pairs.iterations;
  result.solver = pairs.solver;
  result.eigenvalues = pairs.values;
  fix_signs(comm, graph.blocks, graph.rank, pairs.vectors);
  result.coordinates = pairs.vectors.cast<T>();
  return result;
}

}  // namespace nldr::mpi::detail
