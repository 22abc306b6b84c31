// Local Tangent Space Alignment (Zhang & Zha 2004) of distributed points on PETSc and SLEPc: the
// single-process Ltsa (nldr/embed/ltsa.hpp, docs/methods/ltsa.md). Each rank computes the local
// tangent bases of its own points with the single-process routine (ltsa_block), reading the
// neighbor rows other ranks own from its halo; each alignment block I - G_i G_i^T acts on the rows
// and columns of the point and its neighbors, some owned by other ranks, and is added into the
// PETSc MPIAIJ alignment matrix, whose stash sends those entries to their owners
// (nldr/mpi/local_blocks.hpp); the embedding is its bottom eigenvectors after the constant one.
#pragma once

#include <nldr/core/types.hpp>
#include <nldr/embed/ltsa.hpp>
#include <nldr/mpi/knn.hpp>
#include <nldr/mpi/local_blocks.hpp>
#include <nldr/mpi/point_block.hpp>
#include <nldr/mpi/spectral.hpp>

#include <mpi.h>

#include <limits>

namespace nldr::mpi {

/// LTSA of the distributed points over their distributed graph (a collective call; PETSc and SLEPc
/// initialized). Equals nldr::Ltsa{{.dim}}.fit(X, graph) of the whole graph up to the solvers'
/// tolerance (docs/scaling.md).
/// \throws nldr::invalid_argument ("dim", "graph", "shift", "factorization", "report_gap"),
///         nldr::disconnected_graph, nldr::convergence_error, the same on every rank.
template <Real T>
SpectralBlock<T> ltsa(MPI_Comm comm, const PointBlock<T>& points, const GraphBlock<T>& graph,
                      const nldr::LtsaOptions& options) {
  const detail::LocalBlockMethod method{.name = "ltsa",
                                        .dim = options.dim,
                                        .with_self = true,
                                        .min_degree = options.dim,
                                        .min_degree_reason = nldr::detail::ltsa_min_neighbors_reason,
                                        .eigen = detail::slepc_settings(options.eigen)};
  return detail::embed_local_blocks(comm, points, graph, method,
                                    [&](const auto& table, auto members, Eigen::Index, auto& block) {
                                      nldr::detail::ltsa_block(table, members, options.dim, block);
                                      return std::numeric_limits<double>::quiet_NaN();  // none in LTSA
                                    });
}

}  // namespace nldr::mpi
