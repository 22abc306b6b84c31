// The fit steps the sparse spectral graph embedders share (Laplacian Eigenmaps, diffusion maps, LLE,
// LTSA; docs/models.md): the checks of their input, the bottom eigensolve of their N x N matrix moved
// into the model, and the training points kept for transform.
#pragma once

#include <nldr/core/progress.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>
#include <nldr/embed/detail/sparse_eigen.hpp>
#include <nldr/embed/eigen_options.hpp>
#include <nldr/embed/embedding.hpp>
#include <nldr/neighbors/graph.hpp>
#include <nldr/embed/routines/out_of_sample.hpp>

#include <Eigen/Core>

#include <string>

namespace nldr::routines {

/// The checks of a graph embedder's input: X N x D (finite, N >= 3, not all identical), the graph on
/// the same N points, 1 <= dim and dim + 1 < N (the trivial eigenvector is dropped).
/// \throws nldr::invalid_argument naming "X", "graph" or "dim".
template <class Derived>
void validate_graph_fit(const Eigen::MatrixBase<Derived>& X, const NeighborGraph<typename Derived::Scalar>& graph,
                        index_t dim) {
  validate_points(X, "X", 3);
  validate_not_all_identical(X);
  validate_same_rows(X.rows(), graph.size(), "X", "graph");
  validate_dimension(dim, X.rows() - 1, "N - 1");
}

/// The bottom dim + 1 eigenpairs of `lower` (the lower triangle of a symmetric N x N matrix whose
/// null vector, the trivial pair, is `null_vector`; empty: not deflated), stage "eigensolve"; the
/// coordinates, eigenvalues and diagnostics of `model` from them (detail::fill_spectral_embedding: the
/// trivial pair dropped, rows scaled by row_scale when it is non-empty). Returns the pairs, for the
/// method's own results.
template <Real T>
detail::BottomEigenpairs spectral_embedding(Embedding<T>& model, const detail::SparseLower& lower, index_t dim,
                                            const BottomEigenOptions& eigen, const std::string& method,
                                            const Eigen::VectorXd& null_vector, const Eigen::VectorXd& row_scale,
                                            const ProgressCallback& progress) {
  Stopwatch clock;
  detail::BottomEigenpairs pairs =
      detail::bottom_eigenpairs(lower, int(dim) + 1, eigen, method, null_vector, progress);
  model.times.add("eigensolve", clock.seconds());
  detail::fill_spectral_embedding(model, pairs, row_scale);
  return pairs;
}

/// Keeps the training points X, their search index and the graph's rule for new points
/// (TrainingNeighbors, routines/out_of_sample.hpp) for transform, at least `minimum` neighbors each
/// (stage "index").
template <class Model, class Derived, Real G>
void keep_training_points(Model& model, const Eigen::MatrixBase<Derived>& X, const NeighborGraph<G>& graph,
                          index_t minimum) {
  using T = typename Derived::Scalar;
  Stopwatch clock;
  model.training = TrainingNeighbors<T>::from(X.template cast<T>(), graph, minimum);
  model.times.add("index", clock.seconds());
}

}  // namespace nldr::routines
