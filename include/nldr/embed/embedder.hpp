// The shape every embedder has, checked the way NeighborSelector is (neighbors/selector.hpp):
// fit() returns a model, which is an Embedding with the method's named results and a
// transform() that places new points. Three kinds, by what fit() takes:
//   graph embedders     model = E{options}.fit(X, graph)        (Isomap, LLE, LTSA, ...)
//   point embedders     model = E{options}.fit(X)               (PCA, classical MDS)
//   distance embedders  model = E{options}.fit(precomputed(D))  (classical MDS)
// Each embedder's header ends with a static_assert of its kind(s); a graph embedder whose fit<T> is
// defined outside its class names its compiled instances and its kind in one NLDR_GRAPH_EMBEDDER_FIT.
#pragma once

#include <nldr/core/precompiled.hpp>
#include <nldr/core/precomputed.hpp>
#include <nldr/core/types.hpp>
#include <nldr/embed/embedding.hpp>
#include <nldr/neighbors/graph.hpp>

#include <concepts>

namespace nldr {

/// A fitted model for scalar T: an Embedding<T> whose transform maps P x D points to P x d.
template <class M, class T>
concept EmbeddingModel = Real<T> && std::derived_from<M, Embedding<T>> && requires(const M& model, const Matrix<T>& X) {
  { model.transform(X) } -> std::same_as<Matrix<T>>;
};

template <class E, class T>
concept GraphEmbedder = Real<T> && requires(const E& embedder, const Matrix<T>& X, const NeighborGraph<T>& graph) {
  { embedder.fit(X, graph) } -> EmbeddingModel<T>;
};

template <class E, class T>
concept PointEmbedder = Real<T> && requires(const E& embedder, const Matrix<T>& X) {
  { embedder.fit(X) } -> EmbeddingModel<T>;
};

template <class E, class T>
concept DistanceEmbedder = Real<T> && requires(const E& embedder, const Matrix<T>& D) {
  { embedder.fit(precomputed(D)) } -> EmbeddingModel<T>;
};

}  // namespace nldr

/// After the definition of Method::fit<T>(const PointsArg<T>&, const NeighborGraph<T>&), returning
/// Model<T>: its float and double instances, compiled once in nldr::registry (core/precompiled.hpp),
/// and the check that Method is a GraphEmbedder.
#define NLDR_GRAPH_EMBEDDER_FIT(Method, Model)                                                                    \
  NLDR_PRECOMPILED(Model<float> Method::fit<float>(const PointsArg<float>&, const NeighborGraph<float>&) const)    \
  NLDR_PRECOMPILED(Model<double> Method::fit<double>(const PointsArg<double>&, const NeighborGraph<double>&) const) \
  static_assert(GraphEmbedder<Method, float> && GraphEmbedder<Method, double>);
