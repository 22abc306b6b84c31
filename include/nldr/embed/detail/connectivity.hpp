// Graph-based embedders need a connected graph: on a disconnected one the bottom
// eigenvalue becomes multiple (Xia et al. 2008, sec. 3) and geodesics are infinite, so the
// result would be garbage. This check runs before any solve.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/neighbors/components.hpp>

#include <string>

namespace nldr::detail {

template <Real T>
void require_connected(const NeighborGraph<T>& graph, const std::string& method) {
  const Components components = connected_components(graph);
  if (!components.connected())
    throw disconnected_graph(method + ": the neighbor graph has " + describe_components(components) +
                             "; increase k (or the radius), join the components by their shortest edges with "
                             "nldr::join_components (neighbors/join_components.hpp), or embed each component "
                             "separately");
}

}  // namespace nldr::detail
