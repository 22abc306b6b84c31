// join_components: makes a disconnected neighbor graph connected by adding, between its
// components, the shortest edges of the complete Euclidean graph that connect them
// (docs/selectors.md, "Joining components").
//
// The added edges are the minimum spanning tree of the complete distance graph with every
// component contracted to one vertex (the distance between two components = their closest pair),
// found by Boruvka's rounds (Boruvka 1926; Nesetril et al. 2001 for the history): each round,
// every component finds its nearest point outside itself and those edges are added, so the
// number of components at least halves. Edges are ordered by (distance, smaller index, larger
// index), a strict total order, so the tree is unique and the result does not depend on the order
// of work or the thread count. This is what scikit-learn's Isomap does for a disconnected graph
// (it joins components by their closest pairs, with a warning), here with the exact spanning tree.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>
#include <nldr/neighbors/components.hpp>
#include <nldr/neighbors/detail/distance.hpp>
#include <nldr/neighbors/detail/result_sets.hpp>
#include <nldr/neighbors/graph.hpp>

#include <Eigen/Core>
#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <tuple>
#include <utility>
#include <vector>

namespace nldr {

/// An edge join_components added: points a < b of different components, Euclidean distance.
template <Real T>
struct JoiningEdge {
  index_t a = 0;
  index_t b = 0;
  T distance = 0;
};

/// The joined graph and what was added.
template <Real T>
struct JoinedGraph {
  NeighborGraph<T> graph;             ///< the input graph plus each joining edge in both lists
  std::vector<JoiningEdge<T>> edges;  ///< the joining edges, ordered by (distance, a, b)
  index_t components = 0;             ///< connected components of the input graph
};

namespace detail {

/// A k-d tree over the points whose nodes know whether all their points lie in one component, so
/// the search for a point's nearest point in another component skips its own component's subtrees
/// (the pruning of Boruvka minimum spanning tree algorithms on k-d trees, March et al. 2010).
template <Real T>
class ComponentTree {
 public:
  explicit ComponentTree(const PointRows<T>& rows) : rows_(rows), order_(std::size_t(rows.rows)) {
    std::iota(order_.begin(), order_.end(), index_t{0});
    if (rows.rows > 0) build(0, rows.rows);
  }

  /// Sets every node's component: label[i] for the points of a node that all share it, else -1.
  void set_components(const std::vector<index_t>& label) {
    label_ = &label;
    // Children are created after their parent, so a reverse pass sees children first.
    for (std::size_t n = nodes_.size(); n-- > 0;) {
      Node& node = nodes_[n];
      if (node.left < 0) {
        node.component = label[order_[node.begin]];
        for (index_t p = node.begin + 1; p < node.end && node.component >= 0; ++p)
          if (label[order_[p]] != node.component) node.component = -1;
      } else {
        const index_t a = nodes_[node.left].component, b = nodes_[node.right].component;
        node.component = a == b ? a : -1;
      }
    }
  }

  /// The nearest point to point i outside i's component, by (distance, index), offered to `set`.
  void nearest_outside(index_t i, NearestSet<T>& set) const {
    set.reset(i);
    search(0, rows_.row(i), (*label_)[i], set);
  }

 private:
  static constexpr index_t leaf_size = 16;

  struct Node {
    index_t begin, end;           // order_[begin, end) are the node's points
    index_t left = -1, right = -1;
    index_t component = -1;
    std::vector<T> low, high;     // bounding box
  };

  index_t build(index_t begin, index_t end) {
    const auto id = index_t(nodes_.size());
    std::vector<T> low(rows_.row(order_[begin]), rows_.row(order_[begin]) + rows_.cols), high = low;
    for (index_t p = begin + 1; p < end; ++p) {
      const T* x = rows_.row(order_[p]);
      for (Eigen::Index c = 0; c < rows_.cols; ++c) low[c] = std::min(low[c], x[c]), high[c] = std::max(high[c], x[c]);
    }
    Eigen::Index widest = 0;
    for (Eigen::Index c = 1; c < rows_.cols; ++c)
      if (high[c] - low[c] > high[widest] - low[widest]) widest = c;
    const bool leaf = end - begin <= leaf_size || high[widest] == low[widest];
    nodes_.push_back(Node{begin, end, -1, -1, -1, std::move(low), std::move(high)});
    if (leaf) return id;
    const index_t middle = begin + (end - begin) / 2;
    std::nth_element(order_.begin() + begin, order_.begin() + middle, order_.begin() + end,
                     [&](index_t a, index_t b) { return std::pair(rows_.row(a)[widest], a) < std::pair(rows_.row(b)[widest], b); });
    const index_t left = build(begin, middle);
    const index_t right = build(middle, end);
    nodes_[id].left = left;
    nodes_[id].right = right;
    return id;
  }

  // Lower bound of the squared distance from `x` to the node's box. Summed in coordinate order
  // like squared_distance, with each term at most the matching term of any point in the box, so it
  // never exceeds the squared distance computed for such a point (rounding is monotone).
  T box_bound(const Node& node, const T* x) const {
    T sum = 0;
    for (Eigen::Index c = 0; c < rows_.cols; ++c) {
      const T gap = x[c] < node.low[c] ? node.low[c] - x[c] : (x[c] > node.high[c] ? x[c] - node.high[c] : T(0));
      sum += gap * gap;
    }
    return sum;
  }

  void search(index_t id, const T* x, index_t own, NearestSet<T>& set) const {
    const Node& node = nodes_[id];
    if (node.component == own) return;
    if (box_bound(node, x) > set.worstDist()) return;
    if (node.left < 0) {
      for (index_t p = node.begin; p < node.end; ++p) {
        const index_t j = order_[p];
        if ((*label_)[j] != own) set.addPoint(squared_distance(x, rows_.row(j), rows_.cols), std::uint32_t(j));
      }
      return;
    }
    index_t near = node.left, far = node.right;
    if (box_bound(nodes_[far], x) < box_bound(nodes_[near], x)) std::swap(near, far);
    search(near, x, own, set);
    search(far, x, own, set);
  }

  PointRows<T> rows_;
  std::vector<index_t> order_;
  std::vector<Node> nodes_;
  const std::vector<index_t>* label_ = nullptr;
};

}  // namespace detail

/// Joins the connected components of `graph` (on the points X, N x D, one per row) by the
/// minimum spanning tree between components: C components get exactly C - 1 new edges, each
/// added to both points' lists at its Euclidean distance (computed as KNearest computes it). A
/// symmetric graph stays symmetric, a directed one keeps its lists and gains the edges both ways;
/// a connected graph is returned unchanged with no edges. The graph's SelectionReport is kept with
/// joined_edges set. Exact and deterministic for every thread count.
///
/// Cost: O(N log N) to build a k-d tree once, then at most ceil(log2 C) rounds, each one
/// nearest-point-in-another-component query per point. A query skips subtrees that lie in the
/// point's own component, so it costs about O(log N) for low D and well-separated components;
/// the worst case (high D, where k-d trees degrade) is O(N) per query, O(N^2 D) per round, as a
/// brute-force scan. Memory O(N D) for the tree's boxes, plus the output graph.
///
/// This is an explicit step: the graph embedders refuse a disconnected graph (nldr::disconnected_graph)
/// rather than join it on their own, since joining invents edges between clusters that the
/// neighbor rule did not find; check JoinedGraph::edges (how many, how long) before trusting it.
///
/// \code
/// auto graph = nldr::KNearest{10}(X);                      // iris at k = 10: 2 components
/// auto joined = nldr::join_components(X, graph);           // 1 component, joined.edges.size() == 1
/// auto model = nldr::Isomap{{.dim = 2}}.fit(X, joined.graph);
/// \endcode
/// \throws nldr::invalid_argument naming "X" (NaN/Inf, or not one row per graph point).
template <class Derived, Real T>
JoinedGraph<T> join_components(const Eigen::MatrixBase<Derived>& X, const NeighborGraph<T>& graph) {
  static_assert(std::is_same_v<typename Derived::Scalar, T>, "join_components: X and the graph must share the scalar");
  const index_t n = graph.size();
  if (X.rows() != n)
    throw_invalid("X", "X has ", X.rows(), " rows but the graph has ", n,
                  " points: give the points the graph was built from");
  Components components = connected_components(graph);
  JoinedGraph<T> result{graph, {}, components.count()};
  if (components.connected()) {
    SelectionReport report = graph.selection();
    report.joined_edges = 0;
    result.graph.set_selection(std::move(report));
    return result;
  }
  validate_points(X, "X");
  const PointsRef<T> points(X.derived());
  const detail::PointRows<T> rows(points);
  detail::ComponentTree<T> tree(rows);

  using Edge = std::tuple<T, index_t, index_t>;  // (distance, smaller, larger): a strict total order
  std::vector<index_t> label = std::move(components.label);
  index_t count = components.count();
  std::vector<index_t> parent;  // union-find over the current components
  while (count > 1) {
    tree.set_components(label);
    std::vector<Edge> nearest(static_cast<std::size_t>(n));
    parallel_for(0, n, [&](std::int64_t i) {
      detail::NearestSet<T> set(1, std::numeric_limits<double>::infinity(), rows.cols);
      tree.nearest_outside(index_t(i), set);
      const auto& found = set.entries().front();  // there is another component, so one is found
      nearest[i] = {found.distance, std::min(index_t(i), found.index), std::max(index_t(i), found.index)};
    });
    // Each component's shortest outgoing edge; sequential, so the choice is the same for any threads.
    std::vector<Edge> best(std::size_t(count), Edge{std::numeric_limits<T>::infinity(), n, n});
    for (index_t i = 0; i < n; ++i) best[label[i]] = std::min(best[label[i]], nearest[i]);
    std::sort(best.begin(), best.end());
    parent.resize(std::size_t(count));
    std::iota(parent.begin(), parent.end(), index_t{0});
    auto find = [&](index_t x) {
      while (parent[x] != x) x = parent[x] = parent[parent[x]];
      return x;
    };
    for (const auto& [distance, a, b] : best) {
      const index_t ra = find(label[a]), rb = find(label[b]);
      if (ra == rb) continue;  // the same edge chosen by both of its components
      parent[std::max(ra, rb)] = std::min(ra, rb);
      result.edges.push_back({a, b, distance});
      --count;
    }
    // Relabel by the merged components' roots, renumbered 0..count-1.
    std::vector<index_t> renumber(parent.size(), -1);
    index_t next = 0;
    for (index_t& l : label) {
      const index_t root = find(l);
      if (renumber[root] < 0) renumber[root] = next++;
      l = renumber[root];
    }
  }
  std::sort(result.edges.begin(), result.edges.end(), [](const auto& x, const auto& y) {
    return std::tie(x.distance, x.a, x.b) < std::tie(y.distance, y.a, y.b);
  });

  std::vector<std::vector<std::pair<index_t, T>>> lists(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) {
    const auto neighbors = graph.neighbors(i);
    const auto distances = graph.distances(i);
    for (std::size_t e = 0; e < neighbors.size(); ++e) lists[i].emplace_back(neighbors[e], distances[e]);
  }
  for (const auto& edge : result.edges) {
    lists[edge.a].emplace_back(edge.b, edge.distance);
    lists[edge.b].emplace_back(edge.a, edge.distance);
  }
  result.graph = NeighborGraph<T>::from_lists(lists);
  SelectionReport report = graph.selection();
  report.joined_edges = offset_t(result.edges.size());
  result.graph.set_selection(std::move(report));
  return result;
}

}  // namespace nldr
