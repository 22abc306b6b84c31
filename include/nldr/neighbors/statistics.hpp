// Summary statistics of a neighbor graph: degrees, edge lengths, components.
#pragma once

#include <nldr/neighbors/components.hpp>
#include <nldr/neighbors/graph.hpp>

#include <algorithm>
#include <limits>
#include <vector>

namespace nldr {

struct GraphStatistics {
  index_t points = 0;
  offset_t edges = 0;  ///< stored directed entries
  bool symmetric = true;
  index_t min_degree = 0, max_degree = 0;
  double mean_degree = 0;
  std::vector<offset_t> degree_histogram;  ///< degree_histogram[k] = points with exactly k neighbors
  double min_edge_length = 0, mean_edge_length = 0, max_edge_length = 0;
  Components components;
};

template <Real T>
GraphStatistics graph_statistics(const NeighborGraph<T>& graph) {
  GraphStatistics stats;
  stats.points = graph.size();
  stats.edges = graph.num_edges();
  stats.symmetric = graph.is_symmetric();
  stats.components = connected_components(graph);
  if (graph.size() == 0) return stats;
  stats.min_degree = std::numeric_limits<index_t>::max();
  for (index_t i = 0; i < graph.size(); ++i) {
    const index_t k = graph.degree(i);
    stats.min_degree = std::min(stats.min_degree, k);
    stats.max_degree = std::max(stats.max_degree, k);
    if (stats.degree_histogram.size() <= std::size_t(k)) stats.degree_histogram.resize(std::size_t(k) + 1, 0);
    ++stats.degree_histogram[k];
  }
  stats.mean_degree = double(graph.num_edges()) / graph.size();
  const auto lengths = graph.distances();
  if (!lengths.empty()) {
    const auto [lo, hi] = std::minmax_element(lengths.begin(), lengths.end());
    stats.min_edge_length = *lo;
    stats.max_edge_length = *hi;
    double sum = 0;
    for (T d : lengths) sum += d;
    stats.mean_edge_length = sum / double(lengths.size());
  }
  return stats;
}

}  // namespace nldr
