// Every embedder that takes a neighbor graph, under its tool name, as (points, graph) -> coordinates:
// for the tests that run them all alike (hostile input, float end to end).
#pragma once

#include <nldr/embed/isomap.hpp>
#include <nldr/embed/landmark_isomap.hpp>
#include <nldr/embed/laplacian_eigenmaps.hpp>
#include <nldr/embed/lle.hpp>
#include <nldr/embed/ltsa.hpp>

#include <functional>
#include <string>
#include <vector>

namespace embed_test {

template <nldr::Real T>
struct NamedEmbedder {
  std::string name;
  std::function<nldr::Matrix<T>(const nldr::Matrix<T>&, const nldr::NeighborGraph<T>&)> embed;
};

/// The graph embedders with target dimension `dim` and otherwise default options (Landmark Isomap: 10
/// landmarks, so that small inputs work too).
template <nldr::Real T>
std::vector<NamedEmbedder<T>> graph_embedders(nldr::index_t dim) {
  using nldr::LleVariant;
  using nldr::LocallyLinearEmbedding;
  return {
      {"lle", [=](const auto& X, const auto& g) { return LocallyLinearEmbedding{{.dim = dim}}.embed(X, g).coordinates; }},
      {"modified-lle",
       [=](const auto& X, const auto& g) {
         return LocallyLinearEmbedding{{.dim = dim, .variant = LleVariant::modified}}.embed(X, g).coordinates;
       }},
      {"hessian-lle",
       [=](const auto& X, const auto& g) {
         return LocallyLinearEmbedding{{.dim = dim, .variant = LleVariant::hessian}}.embed(X, g).coordinates;
       }},
      {"ltsa", [=](const auto& X, const auto& g) { return nldr::Ltsa{{.dim = dim}}.embed(X, g).coordinates; }},
      {"laplacian-eigenmaps",
       [=](const auto& X, const auto& g) { return nldr::LaplacianEigenmaps{{.dim = dim}}.embed(X, g).coordinates; }},
      {"isomap", [=](const auto& X, const auto& g) { return nldr::Isomap{{.dim = dim}}.embed(X, g).coordinates; }},
      {"landmark-isomap",
       [=](const auto& X, const auto& g) {
         return nldr::LandmarkIsomap{{.dim = dim, .landmarks = 10}}.embed(X, g).coordinates;
       }},
  };
}

}  // namespace embed_test
