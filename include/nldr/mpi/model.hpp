// The single-process model of a distributed fit (docs/scaling.md, "Models"): the same
// LaplacianEigenmapsModel, DiffusionMapsModel, LleModel or LtsaModel a single-process fit of the whole
// graph returns, so that a distributed embedding has a transform, a model file and the report's
// results. A model holds every training point and coordinate (transform searches them), so it is
// gathered on rank 0: N (D + d) values there, the rest of the fit stays distributed.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/types.hpp>
#include <nldr/embed/diffusion_maps.hpp>
#include <nldr/embed/laplacian_eigenmaps.hpp>
#include <nldr/embed/lle.hpp>
#include <nldr/embed/ltsa.hpp>
#include <nldr/embed/routines/out_of_sample.hpp>
#include <nldr/mpi/diffusion_maps.hpp>
#include <nldr/mpi/knn.hpp>
#include <nldr/mpi/laplacian_eigenmaps.hpp>
#include <nldr/mpi/lle.hpp>
#include <nldr/mpi/ltsa.hpp>
#include <nldr/mpi/point_block.hpp>
#include <nldr/mpi/row_blocks.hpp>
#include <nldr/mpi/spectral.hpp>

#include <Eigen/Core>
#include <mpi.h>

#include <climits>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace nldr::mpi {

namespace detail {

/// Every rank's `rows` (blocks.count(rank) x cols, row-major), in rank order, as one N x cols matrix
/// on rank 0; an empty one elsewhere (a collective call).
/// \throws nldr::invalid_argument ("model") on every rank when N x cols exceeds one MPI message.
template <class Scalar>
Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> gather_rows(
    MPI_Comm comm, const RowBlocks& blocks, const Scalar* rows, Eigen::Index cols) {
  const std::int64_t values = std::int64_t(blocks.total()) * cols;
  if (values > INT_MAX)
    throw_invalid("model", "the model of ", blocks.total(), " points needs their ", values, " values on rank 0 "
                  "in one MPI message of at most 2^31 - 1: embed without a model, or with fewer columns (PCA first)");
  const int parts = blocks.parts(), rank = rank_of(comm);
  std::vector<int> counts(std::size_t(parts), 0), starts(std::size_t(parts), 0);
  for (int r = 0; r < parts; ++r) {
    counts[std::size_t(r)] = int(std::int64_t(blocks.count(r)) * cols);
    starts[std::size_t(r)] = int(std::int64_t(blocks.first(r)) * cols);
  }
  Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> all;
  if (rank == 0) all.resize(blocks.total(), cols);
  MPI_Gatherv(rows, counts[std::size_t(rank)], datatype<Scalar>(), all.data(), counts.data(), starts.data(),
              datatype<Scalar>(), 0, comm);
  return all;
}

/// A distributed fit's Model on rank 0 with what every spectral model holds: the coordinates, the
/// eigenvalues, the stage times (rank 0's), the solver, and the training points under KNearest's
/// rule with k neighbors (at least `minimum`); std::nullopt on the other ranks (a collective call).
template <class Model, Real T>
std::optional<Model> spectral_model(MPI_Comm comm, const PointBlock<T>& points, index_t k, index_t minimum,
                                    const SpectralBlock<T>& block) {
  Matrix<T> X = gather_rows(comm, points.blocks, points.rows.data(), points.rows.cols());
  Matrix<T> Y = gather_rows(comm, points.blocks, block.coordinates.data(), block.eigenvalues.size());
  if (rank_of(comm) != 0) return std::nullopt;
  Model model;
  model.coordinates = std::move(Y);
  model.eigenvalues = block.eigenvalues.template cast<T>();
  model.times = block.times;
  model.diagnostics.solver = "slepc-" + block.solver;
  model.diagnostics.iterations = block.iterations;
  // KNearest's new-point rule, as TrainingNeighbors::from keeps it for a KNearest graph.
  model.training = routines::TrainingNeighbors<T>::under(std::move(X), {NewPointRule::nearest, k, 0.0}, minimum);
  return model;
}

}  // namespace detail

// The distributed fit of each method by its Options, so that a caller holding the Options (nldr-mpi,
// the tests) reaches the fit and model_of alike. Laplacian Eigenmaps and diffusion maps read only
// the graph.
template <Real T>
SpectralBlock<T> embed(MPI_Comm comm, const PointBlock<T>&, const GraphBlock<T>& graph,
                       const LaplacianEigenmapsOptions& options) {
  return laplacian_eigenmaps(comm, graph, options);
}
template <Real T>
SpectralBlock<T> embed(MPI_Comm comm, const PointBlock<T>&, const GraphBlock<T>& graph,
                       const DiffusionMapsOptions& options) {
  return diffusion_maps(comm, graph, options);
}
template <Real T>
SpectralBlock<T> embed(MPI_Comm comm, const PointBlock<T>& points, const GraphBlock<T>& graph,
                       const LleOptions& options) {
  return lle(comm, points, graph, options);
}
template <Real T>
SpectralBlock<T> embed(MPI_Comm comm, const PointBlock<T>& points, const GraphBlock<T>& graph,
                       const LtsaOptions& options) {
  return ltsa(comm, points, graph, options);
}

/// The model of a distributed fit (a collective call), on rank 0 (std::nullopt on the others): `block`
/// is what embed (laplacian_eigenmaps, diffusion_maps, lle, ltsa) returned for `points` with
/// `options` over the exact kNN graph of k neighbors each (nldr::mpi::nearest_neighbors). Equal to the
/// single-process fit of the whole graph up to the solvers' tolerance, as the coordinates are: the
/// same fields, transform and model file (docs/scaling.md, "Models"). Memory on rank 0: N (D + d)
/// values of T.
/// \throws nldr::invalid_argument ("model") on every rank when N x D exceeds one MPI message.
template <Real T>
std::optional<LaplacianEigenmapsModel<T>> model_of(MPI_Comm comm, const PointBlock<T>& points, index_t k,
                                                   const SpectralBlock<T>& block, const LaplacianEigenmapsOptions&) {
  auto model = detail::spectral_model<LaplacianEigenmapsModel<T>>(comm, points, k, 1, block);
  if (model) model->t = block.t;
  return model;
}

template <Real T>
std::optional<DiffusionMapsModel<T>> model_of(MPI_Comm comm, const PointBlock<T>& points, index_t k,
                                              const SpectralBlock<T>& block, const DiffusionMapsOptions& options) {
  const auto degrees = detail::gather_rows(comm, points.blocks, block.kernel_degrees.data(), 1);
  auto model = detail::spectral_model<DiffusionMapsModel<T>>(comm, points, k, 1, block);
  if (model) {
    model->bandwidth = block.t;
    model->alpha = options.alpha;
    model->diffusion_time = options.diffusion_time;
    model->kernel_degrees = degrees.col(0);
  }
  return model;
}

template <Real T>
std::optional<LleModel<T>> model_of(MPI_Comm comm, const PointBlock<T>& points, index_t k,
                                    const SpectralBlock<T>& block, const LleOptions& options) {
  auto model = detail::spectral_model<LleModel<T>>(comm, points, k, options.dim + 1, block);
  if (model) {
    model->reconstruction_error = block.reconstruction_error;  // NaN for Hessian LLE, as single-process
    model->embedding_cost = block.eigenvalues.sum();
    model->reg = options.reg;
  }
  return model;
}

template <Real T>
std::optional<LtsaModel<T>> model_of(MPI_Comm comm, const PointBlock<T>& points, index_t k,
                                     const SpectralBlock<T>& block, const LtsaOptions& options) {
  return detail::spectral_model<LtsaModel<T>>(comm, points, k, options.dim + 1, block);
}

}  // namespace nldr::mpi
