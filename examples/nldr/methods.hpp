// The tool's embedding methods by name: one embedding from points, an optional graph and settings.
#pragma once

#include "selection.hpp"

#include <nldr/nldr.hpp>

#include <array>
#include <string>
#include <string_view>

namespace nldr_tool {

inline constexpr std::array<std::string_view, 9> method_names{
    "pca", "mds", "isomap", "landmark-isomap", "lle", "modified-lle", "hessian-lle", "ltsa", "laplacian-eigenmaps"};

struct MethodSettings {
  std::string name;
  nldr::index_t dim = 2;
  nldr::index_t landmarks = 100;  ///< landmark-isomap
  double reg = 1e-3;              ///< lle, modified-lle: Gram regularization
  double heat_t = 0;              ///< laplacian-eigenmaps: heat-kernel width (0 = automatic)
  std::string factorization = "automatic";  ///< spectral methods: automatic | simplicial | supernodal | lu
  bool report_gap = false;                  ///< spectral methods: also report the relative eigengap
};

/// The spectral methods' sparse factorization by name.
inline nldr::Factorization factorization_named(const std::string& name) {
  if (name == "automatic") return nldr::Factorization::automatic;
  if (name == "simplicial") return nldr::Factorization::simplicial;
  if (name == "supernodal") return nldr::Factorization::supernodal;
  if (name == "lu") return nldr::Factorization::lu;
  nldr::throw_invalid("factorization", "unknown factorization \"", name,
                      "\": use automatic, simplicial, supernodal or lu (lle only)");
}

/// Rejects an unknown method before any work is done.
inline void check_method_name(const std::string& name) {
  for (const auto known : method_names)
    if (known == name) return;
  nldr::throw_invalid("method", "unknown method \"", name, "\": use one of ", joined_names(method_names));
}

/// PCA and classical MDS work on the points alone; every other method needs the neighbor graph.
inline bool needs_graph(const std::string& method) { return method != "pca" && method != "mds"; }

/// Fewest neighbors per point the method needs (the pruning selectors' default min_neighbors).
inline nldr::index_t min_neighbors_for(const MethodSettings& m) {
  if (m.name == "lle" || m.name == "modified-lle") return nldr::lle_min_neighbors(nldr::LleVariant::standard, m.dim);
  if (m.name == "hessian-lle") return nldr::lle_min_neighbors(nldr::LleVariant::hessian, m.dim);
  if (m.name == "ltsa") return m.dim;
  return 1;
}

/// Runs the method; `graph` may be null for methods that do not need one. The result carries the
/// embedder's own stage times, eigenvalues and solver diagnostics.
inline nldr::Embedding<double> run_method(const MethodSettings& m, const nldr::Matrix<double>& X,
                                          const nldr::NeighborGraph<double>* graph) {
  check_method_name(m.name);
  if (m.name == "pca") return nldr::Pca{{.dim = m.dim}}.fit(X);
  if (m.name == "mds") return nldr::ClassicalMds{{.dim = m.dim}}.embed(X);
  if (m.name == "isomap") return nldr::Isomap{{.dim = m.dim}}.embed(X, *graph);
  if (m.name == "landmark-isomap")
    return nldr::LandmarkIsomap{{.dim = m.dim, .landmarks = m.landmarks}}.embed(X, *graph);
  const nldr::SpectralSolverOptions solver{.factorization = factorization_named(m.factorization),
                                           .report_gap = m.report_gap};
  if (m.name == "lle") return nldr::LocallyLinearEmbedding{{.dim = m.dim, .reg = m.reg, .solver = solver}}.embed(X, *graph);
  if (m.name == "modified-lle")
    return nldr::LocallyLinearEmbedding{
        {.dim = m.dim, .reg = m.reg, .variant = nldr::LleVariant::modified, .solver = solver}}
        .embed(X, *graph);
  if (m.name == "hessian-lle")
    return nldr::LocallyLinearEmbedding{{.dim = m.dim, .variant = nldr::LleVariant::hessian, .solver = solver}}.embed(
        X, *graph);
  if (m.name == "ltsa") return nldr::Ltsa{{.dim = m.dim, .solver = solver}}.embed(X, *graph);
  return nldr::LaplacianEigenmaps{{.dim = m.dim, .t = m.heat_t, .solver = solver}}.embed(X, *graph);
}

}  // namespace nldr_tool
