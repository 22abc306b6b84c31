// The k-nearest-neighbor graph for a smaller k, cut from a larger one: what lets a sweep over k search
// the neighbors once (docs/tuning.md, "The sweep").
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/types.hpp>
#include <nldr/neighbors/graph.hpp>

#include <string>
#include <utility>
#include <vector>

namespace nldr {

namespace detail {

/// The first kept(i) entries of every list of the sorted `graph` (its symmetry kept), labelled
/// `selector`, joining new points by `new_point`: the graph a prefix selector (knn_prefix,
/// radius_prefix) cuts from a wider search.
template <Real T, class Kept>
NeighborGraph<T> list_prefixes(const NeighborGraph<T>& graph, Kept kept, std::string selector,
                               NewPointNeighbors new_point) {
  const index_t n = graph.size();
  std::vector<offset_t> offsets(std::size_t(n) + 1);
  std::vector<index_t> indices;
  std::vector<T> distances;
  for (index_t i = 0; i < n; ++i) {
    const auto list = graph.neighbors(i);
    const auto lengths = graph.distances(i);
    const auto count = std::ptrdiff_t(kept(i));
    indices.insert(indices.end(), list.begin(), list.begin() + count);
    distances.insert(distances.end(), lengths.begin(), lengths.begin() + count);
    offsets[std::size_t(i) + 1] = offset_t(indices.size());
  }
  auto prefix = NeighborGraph<T>::from_sorted_csr_unchecked(std::move(offsets), std::move(indices),
                                                            std::move(distances), graph.is_symmetric());
  SelectionReport report;
  report.selector = std::move(selector);
  report.search = graph.selection().search;
  report.candidate_edges = prefix.num_edges();
  report.new_point = new_point;
  prefix.set_selection(std::move(report));
  return prefix;
}

}  // namespace detail

/// The first k entries of every list of `knn`, a directed graph from KNearest{k_max} (k <= k_max).
/// Because KNearest orders each list by (distance, index) and keeps the smaller indices at the k_max-th
/// distance, this is exactly KNearest{k} of the same points, ties included, for every backend.
/// O(N k) time and memory.
/// \throws nldr::invalid_argument naming "knn" (a symmetric graph, whose lists are not nearest-first
/// prefixes of one order) or "k" (k < 1, or a list shorter than k).
///
/// \code
/// auto wide = nldr::KNearest{30}(X);
/// auto g12 = nldr::knn_prefix(wide, 12);     // == nldr::KNearest{12}(X)
/// \endcode
template <Real T>
NeighborGraph<T> knn_prefix(const NeighborGraph<T>& knn, index_t k) {
  if (knn.is_symmetric() && knn.num_edges() > 0)
    throw_invalid("knn", "knn_prefix needs the directed graph KNearest returns, not a symmetrized one: ",
                  "cut the prefix first, then call symmetrized()");
  if (k < 1) throw_invalid("k", "k = ", k, " must be >= 1");
  const index_t n = knn.size();
  for (index_t i = 0; i < n; ++i)
    if (knn.degree(i) < k)
      throw_invalid("k", "k = ", k, " exceeds the ", knn.degree(i), " neighbors point ", i,
                    " has in the graph: search with KNearest{k_max} for k_max >= ", k);
  return detail::list_prefixes(knn, [k](index_t) { return std::size_t(k); }, detail::concat("knn(k=", k, ")"),
                              {NewPointRule::nearest, k, 0.0});
}

}  // namespace nldr
