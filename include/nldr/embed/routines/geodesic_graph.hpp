// The graph Isomap and Landmark Isomap run their shortest paths on (Tenenbaum et al. 2000): the
// union-symmetrized neighbor graph, with edge lengths either recomputed as Euclidean distances
// between the points or taken as the graph gives them (a user's own metric, e.g. from
// `nldr neighbors` or another program).
#pragma once

#include <nldr/core/described.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/types.hpp>
#include <nldr/neighbors/graph.hpp>

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

namespace nldr {

/// Where the geodesic methods take edge lengths from.
enum class EdgeLengths {
  euclidean,  ///< recomputed from X, so any selector's graph can be used (the default)
  graph,      ///< the graph's own distances, as given (precomputed or non-Euclidean metrics)
};

inline constexpr std::array<Choice<EdgeLengths>, 2> edge_length_sources{
    {{"euclidean", EdgeLengths::euclidean}, {"graph", EdgeLengths::graph}}};

/// The parameters Isomap and Landmark Isomap share, after their own (core/described.hpp).
template <class Visitor, class EigenOptions>
void describe_geodesic_mds(Visitor& v, EdgeLengths& edge_lengths, index_t& negative_eigenvalues, std::uint64_t& seed,
                           EigenOptions& eigen) {
  v.choice("edge_lengths", edge_lengths, edge_length_sources,
           "graph edge lengths: recomputed from the points, or the graph's own distances");
  v.number("negative_eigenvalues", negative_eigenvalues, {0, 1e9},
           "most negative eigenvalues of the centered matrix to report (a diagnostic)");
  v.number("seed", seed, seed_range, "random seed");
  eigen.describe(v);
}

namespace routines {

/// The union-symmetrized graph of `graph`; with EdgeLengths::euclidean every edge length is
/// recomputed as the Euclidean distance between the rows of X (in double, stored as T).
template <Real T>
NeighborGraph<T> geodesic_graph(const PointsRef<T>& X, const NeighborGraph<T>& graph, EdgeLengths lengths) {
  NeighborGraph<T> symmetric = graph.symmetrized(Symmetrization::union_edges);
  if (lengths == EdgeLengths::graph) return symmetric;
  const auto offsets = symmetric.offsets();
  const auto indices = symmetric.indices();
  std::vector<T> euclidean(indices.size());
  parallel_for(0, symmetric.size(), [&](std::int64_t i) {
    for (offset_t e = offsets[i]; e < offsets[i + 1]; ++e)
      euclidean[e] = T((X.row(i).template cast<double>() - X.row(indices[e]).template cast<double>()).norm());
  });
  return NeighborGraph<T>::from_csr(symmetric.size(), std::vector<offset_t>(offsets.begin(), offsets.end()),
                                    std::vector<index_t>(indices.begin(), indices.end()), std::move(euclidean));
}

}  // namespace routines
}  // namespace nldr
