// What `nldr embed` does with a disconnected neighbor graph (--disconnected, docs/tool.md): join
// the components by their shortest connecting edges (nldr::join_components, the default, as
// scikit-learn's Isomap does) with a note and a JSON record, or refuse with an error that names
// the flags that fix it.
#pragma once

#include <nldr/nldr.hpp>

#include <algorithm>
#include <string>
#include <vector>

namespace nldr_tool {

/// The median of the graph's edge lengths (0 for a graph without edges).
inline double median_edge(const nldr::NeighborGraph<double>& graph) {
  std::vector<double> lengths(graph.distances().begin(), graph.distances().end());
  if (lengths.empty()) return 0;
  const auto middle = lengths.begin() + std::ptrdiff_t(lengths.size() / 2);
  std::nth_element(lengths.begin(), middle, lengths.end());
  return *middle;
}

/// The smallest k > `k` (up to `limit`) whose kNN graph of X is connected, or 0 if none is: doubling,
/// then bisection (connectivity grows with k, the k-graph being contained in the (k+1)-graph).
inline nldr::index_t smallest_connecting_k(const nldr::Matrix<double>& X, nldr::index_t k, nldr::index_t limit) {
  limit = std::min<nldr::index_t>(limit, nldr::index_t(X.rows()) - 1);
  const auto connected = [&](nldr::index_t candidate) {
    return nldr::connected_components(nldr::KNearest{candidate}(X)).connected();
  };
  nldr::index_t low = k, high = k;  // low: disconnected
  do {
    if (high >= limit) return 0;
    low = high;
    high = std::min(limit, 2 * high);
  } while (!connected(high));
  while (high - low > 1) {
    const nldr::index_t middle = low + (high - low) / 2;
    (connected(middle) ? high : low) = middle;
  }
  return high;
}

/// The error for a disconnected graph under --disconnected error: what to change, as flags.
/// `knn_k` is the k of a kNN selector (0 for other selectors and graph files); `selector_given` is
/// false for a --graph file.
[[noreturn]] inline void refuse_disconnected(const std::string& method, const nldr::Components& components,
                                             const nldr::Matrix<double>& X, nldr::index_t knn_k,
                                             bool selector_given) {
  std::string advice = "use --disconnected join (joins the components by their shortest connecting edges)";
  if (knn_k > 0) {
    const nldr::index_t k = smallest_connecting_k(X, knn_k, std::max<nldr::index_t>(64, 8 * knn_k));
    advice += k > 0 ? nldr::detail::concat(", or -k ", k, " (the smallest k whose graph is connected)")
                    : ", or embed each component separately (no k up to 8 times this one connects the graph)";
  } else if (selector_given) {
    advice += ", or a larger --k or --radius";
  } else {
    advice += ", or a --graph file whose graph is connected";
  }
  throw nldr::disconnected_graph(method + ": the neighbor graph has " + nldr::describe_components(components) + ": " +
                                 advice);
}

}  // namespace nldr_tool
