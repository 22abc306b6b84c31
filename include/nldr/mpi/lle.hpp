// Locally Linear Embedding (Roweis & Saul 2000) of distributed points on PETSc and SLEPc: the
// standard variant of the single-process LocallyLinearEmbedding (nldr/embed/lle.hpp,
// docs/methods/lle.md). Each rank computes the regularized barycenter weights of its own points
// with the single-process routine (standard_lle_block), reading the neighbor rows other ranks own
// from its halo; M = (I - W)^T (I - W) is the sum of the blocks v v^T, v = [1; -w_i], assembled
// as a PETSc MPIAIJ matrix; the embedding is its bottom eigenvectors after the constant one
// (nldr/mpi/local_blocks.hpp). The modified and Hessian variants are not distributed.
#pragma once

#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>
#include <nldr/embed/lle.hpp>
#include <nldr/mpi/knn.hpp>
#include <nldr/mpi/local_blocks.hpp>
#include <nldr/mpi/point_block.hpp>
#include <nldr/mpi/spectral.hpp>

#include <mpi.h>

namespace nldr::mpi {

/// Options of lle (the names, meaning and defaults of nldr::LleOptions for the standard variant).
struct LleOptions {
  index_t dim = 2;       ///< target dimension d, 1 <= d <= D and d + 1 < N
  double reg = 1e-3;     ///< Gram regularization r = reg * trace(C), > 0
  EigenOptions eigen{};  ///< bottom-eigenpair solver settings
};

/// Standard LLE of the distributed points over their distributed graph (a collective call; PETSc
/// and SLEPc initialized, e.g. by a Session). Equals nldr::LocallyLinearEmbedding{{.dim, .reg}}.fit(X,
/// graph) of the whole graph up to the solvers' tolerance (docs/scaling.md).
/// \throws nldr::invalid_argument ("dim", "reg", "graph", "shift"), nldr::disconnected_graph,
///         nldr::convergence_error, the same on every rank.
template <Real T>
SpectralBlock<T> lle(MPI_Comm comm, const PointBlock<T>& points, const GraphBlock<T>& graph, const LleOptions& options) {
  validate_positive(options.reg, "reg");
  const detail::LocalBlockMethod method{.name = "lle",
                                        .dim = options.dim,
                                        .with_self = true,
                                        .min_degree = lle_min_neighbors(LleVariant::standard, options.dim),
                                        .min_degree_reason = lle_min_neighbors_reason(LleVariant::standard),
                                        .eigen = options.eigen};
  return detail::embed_local_blocks(comm, points, graph, method,
                                    [&](const auto& table, auto members, Eigen::Index center, auto& block) {
                                      // members = [the point, its neighbors]
                                      nldr::detail::standard_lle_block(table, members.subspan(1), center, options.reg,
                                                                       block);
                                    });
}

}  // namespace nldr::mpi
