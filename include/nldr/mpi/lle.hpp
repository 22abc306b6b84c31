// Locally Linear Embedding (Roweis & Saul 2000) of distributed points on PETSc and SLEPc: the
// standard variant of the single-process LocallyLinearEmbedding (nldr/embed/lle.hpp,
// docs/methods/lle.md). Each rank computes the regularized barycenter weights of its own points
// with the single-process routine (standard_lle_block), reading the neighbor rows other ranks own
// from its halo; M = (I - W)^T (I - W) is the sum of the blocks v v^T, v = [1; -w_i], assembled
// as a PETSc MPIAIJ matrix; the embedding is its bottom eigenvectors after the constant one
// (nldr/mpi/local_blocks.hpp). Hessian LLE (Donoho & Grimes 2003) the same way with the
// single-process hessian_block on each point's neighbors. Modified LLE is not distributed.
#pragma once

#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>
#include <nldr/embed/lle.hpp>
#include <nldr/mpi/knn.hpp>
#include <nldr/mpi/local_blocks.hpp>
#include <nldr/mpi/point_block.hpp>
#include <nldr/mpi/spectral.hpp>

#include <mpi.h>

#include <limits>
#include <string>

namespace nldr::mpi {

/// Standard or Hessian LLE of the distributed points over their distributed graph (a collective
/// call; PETSc and SLEPc initialized, e.g. by a Session). Equals nldr::LocallyLinearEmbedding{{.dim,
/// .reg, .variant, .hessian_tol}}.fit(X, graph) of the whole graph up to the solvers' tolerance
/// (docs/scaling.md).
/// \throws nldr::invalid_argument ("dim", "reg", "hessian_tol", "variant", "graph", "shift",
///         "factorization", "report_gap"),
///         nldr::disconnected_graph, nldr::convergence_error, the same on every rank.
template <Real T>
SpectralBlock<T> lle(MPI_Comm comm, const PointBlock<T>& points, const GraphBlock<T>& graph,
                     const nldr::LleOptions& options) {
  nldr::detail::validate_reg_and_hessian_tol(options.reg, options.hessian_tol);
  const bool hessian = options.variant == LleVariant::hessian;
  if (!hessian && options.variant != LleVariant::standard)
    throw_invalid("variant", lle_name(options.variant), " is not distributed: use the standard or Hessian variant, or "
                  "the single-process nldr::LocallyLinearEmbedding");
  const detail::LocalBlockMethod method{.name = lle_name(options.variant),
                                        .dim = options.dim,
                                        .with_self = !hessian,  // the single-process index sets
                                        .min_degree = lle_min_neighbors(options.variant, options.dim),
                                        .min_degree_reason = lle_min_neighbors_reason(options.variant),
                                        .eigen = detail::slepc_settings(options.eigen)};
  return detail::embed_local_blocks(comm, points, graph, method,
                                    [&](const auto& table, auto members, Eigen::Index center, auto& block) {
                                      if (!hessian)  // members = [the point, its neighbors]
                                        return nldr::detail::standard_lle_block(table, members.subspan(1), center,
                                                                                options.reg, block);
                                      // members = its neighbors; Hessian LLE has no reconstruction error
                                      nldr::detail::hessian_block(table, members, options.dim, options.hessian_tol,
                                                                  block);
                                      return std::numeric_limits<double>::quiet_NaN();
                                    });
}

}  // namespace nldr::mpi
