// Connected components of a neighbor graph (weak connectivity for directed graphs:
// an edge joins its two points whichever list holds it).
#pragma once

#include <nldr/neighbors/graph.hpp>

#include <algorithm>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

namespace nldr {

/// Component labels and sizes. Components are numbered in order of their smallest
/// point index, so point 0 is always in component 0 (deterministic labels).
struct Components {
  std::vector<index_t> label;  ///< label[i] = component of point i, in [0, count())
  std::vector<index_t> sizes;  ///< sizes[c] = number of points in component c
  index_t count() const { return index_t(sizes.size()); }
  bool connected() const { return sizes.size() <= 1; }
};

/// Components of `graph`: a NeighborGraph, or any graph with size() and neighbors(i) (e.g. UMAP's
/// weighted fuzzy graph, embed/routines/weighted_graph.hpp).
template <class Graph>
Components connected_components(const Graph& graph) {
  const index_t n = graph.size();
  // Union-find with path halving and union by index (root = smallest index).
  std::vector<index_t> parent(std::size_t(n), 0);
  std::iota(parent.begin(), parent.end(), index_t{0});
  auto find = [&](index_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (index_t i = 0; i < n; ++i)
    for (index_t j : graph.neighbors(i)) {
      const index_t a = find(i), b = find(j);
      if (a != b) parent[std::max(a, b)] = std::min(a, b);
    }
  Components result;
  result.label.assign(std::size_t(n), -1);
  std::vector<index_t> root_label(std::size_t(n), -1);
  for (index_t i = 0; i < n; ++i) {
    const index_t root = find(i);
    if (root_label[root] < 0) {
      root_label[root] = result.count();
      result.sizes.push_back(0);
    }
    result.label[i] = root_label[root];
    ++result.sizes[root_label[root]];
  }
  return result;
}

/// "3 components (sizes 1200, 790, 10)": sizes listed largest first, at most `max_listed`.
inline std::string describe_components(const Components& components, std::size_t max_listed = 8) {
  std::vector<index_t> sizes = components.sizes;
  std::sort(sizes.begin(), sizes.end(), std::greater<>());
  std::string text = std::to_string(components.count()) + " connected components (sizes ";
  for (std::size_t c = 0; c < sizes.size() && c < max_listed; ++c)
    text += (c ? ", " : "") + std::to_string(sizes[c]);
  if (sizes.size() > max_listed) text += ", ...";
  return text + ")";
}

}  // namespace nldr
