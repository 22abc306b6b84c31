// NeighborGraph: the one sparse type every selector produces and every embedder consumes.
//
// Per point, a list of (neighbor index, distance) sorted by distance, ties broken by
// the smaller index; no self loops, no duplicate entries (docs/algorithms.md sec. 1).
// Stored as CSR arrays (offsets, indices, distances) that are exposed without copying.
// A graph is either directed (lists as a selector found them, e.g. kNN) or
// symmetric (j in list(i) at distance d <=> i in list(j) at the same d); symmetrized() turns the
// first into the second.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/types.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace nldr {

/// How a directed graph becomes symmetric.
enum class Symmetrization {
  union_edges,   ///< i ~ j if either lists the other (what Isomap, LE and LLE's graphs use)
  mutual_edges,  ///< i ~ j only if both list each other
};

/// How a model fit on a graph joins a new point to its training points (its out-of-sample
/// transform): by the rule of the selector that built the graph, so that a new point gets the
/// neighbors a training point in its place got (docs/models.md, "What a new point gets").
enum class NewPointRule : std::uint8_t {
  typical_degree = 0,             ///< no selector's rule (a user's graph): the k nearest, k = the mean degree
  nearest = 1,                    ///< the k nearest training points (kNN, exact or approximate)
  within_radius = 2,              ///< the training points within `radius`, the nearest k of them when k > 0
  nearest_and_its_neighbors = 3,  ///< the nearest training point and its neighbors in the graph (pruning)
};

/// A NewPointRule with its parameters.
struct NewPointNeighbors {
  NewPointRule rule = NewPointRule::typical_degree;
  index_t k = 0;      ///< nearest: how many; within_radius: at most this many (0: all)
  double radius = 0;  ///< within_radius: the ball's radius
};

/// What a selector did to produce the graph (diagnostics; zeros for plain kNN).
struct SelectionReport {
  std::string selector;            ///< e.g. "knn(k=12)"
  /// The search that found the (candidate) lists, search_name() of NeighborSearch: "kdtree" or
  /// "brute-force" (exact), "hnsw" (approximate); empty for graphs built otherwise.
  std::string search;
  offset_t candidate_edges = 0;    ///< directed candidate edges examined
  offset_t pruned_edges = 0;       ///< candidates the selector's rule removed
  offset_t reconnected_edges = 0;  ///< pruned edges re-added to reconnect components
  offset_t joined_edges = 0;       ///< edges join_components added between components (join_components.hpp)
  index_t fallback_points = 0;     ///< points that needed the min_neighbors fallback
  /// Approximate selectors (ApproximateKNearest): the fraction of the exact k nearest neighbors
  /// the candidate lists hold, estimated on a sample of points; empty for exact selectors.
  std::optional<double> estimated_recall;
  /// How a model fit on this graph joins a new point (set by each selector; graphs built
  /// otherwise keep the default, the mean degree's nearest training points).
  NewPointNeighbors new_point;
};

template <Real T>
class NeighborGraph {
 public:
  using scalar_type = T;

  /// An empty graph with no points.
  NeighborGraph() : offsets_(1, 0) {}

  /// Builds a graph from a user's CSR arrays: list i is indices[offsets[i] .. offsets[i+1]),
  /// with matching distances. Validates everything (sizes, index range, self loops,
  /// duplicates, finite non-negative distances) and sorts each list by (distance, index).
  /// Whether the result is symmetric is determined by checking the lists and their distances.
  /// \throws nldr::invalid_argument naming the first offending entry.
  static NeighborGraph from_csr(index_t n_points, std::vector<offset_t> offsets, std::vector<index_t> indices,
                                std::vector<T> distances) {
    validate_csr(n_points, offsets, indices, distances);
    NeighborGraph graph(std::move(offsets), std::move(indices), std::move(distances), false);
    graph.sort_lists();
    graph.symmetric_ = graph.check_symmetric();
    return graph;
  }

  /// Builds a graph from per-point lists of (neighbor, distance); validated and sorted like from_csr.
  static NeighborGraph from_lists(const std::vector<std::vector<std::pair<index_t, T>>>& lists) {
    if (lists.size() > std::size_t(std::numeric_limits<index_t>::max()))
      throw_invalid("lists", "graph has ", lists.size(), " points, more than the supported ",
                    std::numeric_limits<index_t>::max());
    std::vector<offset_t> offsets{0};
    std::vector<index_t> indices;
    std::vector<T> distances;
    for (const auto& list : lists) {
      for (const auto& [j, d] : list) {
        indices.push_back(j);
        distances.push_back(d);
      }
      offsets.push_back(offset_t(indices.size()));
    }
    return from_csr(index_t(lists.size()), std::move(offsets), std::move(indices), std::move(distances));
  }

  /// For selectors: adopts CSR arrays whose lists are already sorted and valid (not re-checked).
  static NeighborGraph from_sorted_csr_unchecked(std::vector<offset_t> offsets, std::vector<index_t> indices,
                                                 std::vector<T> distances, bool symmetric) {
    return NeighborGraph(std::move(offsets), std::move(indices), std::move(distances), symmetric);
  }

  /// Number of points (vertices).
  index_t size() const { return index_t(offsets_.size() - 1); }
  /// Number of stored directed entries (a symmetric edge counts twice).
  offset_t num_edges() const { return offsets_.back(); }
  /// Number of neighbors of point i.
  index_t degree(index_t i) const { return index_t(offsets_[i + 1] - offsets_[i]); }

  /// Neighbors of point i, nearest first.
  std::span<const index_t> neighbors(index_t i) const {
    return {indices_.data() + offsets_[i], std::size_t(degree(i))};
  }
  /// Distances to the neighbors of point i, ascending, aligned with neighbors(i).
  std::span<const T> distances(index_t i) const {
    return {distances_.data() + offsets_[i], std::size_t(degree(i))};
  }

  /// CSR views (no copy): offsets has size()+1 entries.
  std::span<const offset_t> offsets() const { return offsets_; }
  std::span<const index_t> indices() const { return indices_; }
  std::span<const T> distances() const { return distances_; }

  /// True when j in neighbors(i) <=> i in neighbors(j) for all i, j, with equal distances both ways
  /// (consumers such as Laplacian Eigenmaps read one direction's distance for the pair).
  bool is_symmetric() const { return symmetric_; }

  /// What the selector that built this graph did (empty for user-built graphs).
  const SelectionReport& selection() const { return selection_; }
  void set_selection(SelectionReport report) { selection_ = std::move(report); }

  /// The symmetric graph with `rule` applied. An already symmetric graph is returned as is.
  /// Where both directions exist their distances agree up to rounding; the smaller is kept.
  NeighborGraph symmetrized(Symmetrization rule = Symmetrization::union_edges) const {
    if (symmetric_) return *this;
    const index_t n = size();
    // Transpose: reverse[i] = points that list i, with their distance.
    std::vector<offset_t> in_offsets(std::size_t(n) + 1, 0);
    for (index_t j : indices_) ++in_offsets[std::size_t(j) + 1];
    for (index_t i = 0; i < n; ++i) in_offsets[i + 1] += in_offsets[i];
    std::vector<index_t> in_indices(indices_.size());
    std::vector<T> in_distances(indices_.size());
    {
      std::vector<offset_t> cursor(in_offsets.begin(), in_offsets.end() - 1);
      for (index_t i = 0; i < n; ++i)
        for (offset_t e = offsets_[i]; e < offsets_[i + 1]; ++e) {
          const offset_t slot = cursor[indices_[e]]++;
          in_indices[slot] = i;
          in_distances[slot] = distances_[e];
        }
    }
    // Per point: merge out- and in-lists by index, then order by (distance, index).
    std::vector<std::vector<std::pair<T, index_t>>> rows(n);
    parallel_for(0, n, [&](std::int64_t i) {
      std::vector<std::pair<index_t, T>> out, in;
      for (offset_t e = offsets_[i]; e < offsets_[i + 1]; ++e) out.emplace_back(indices_[e], distances_[e]);
      for (offset_t e = in_offsets[i]; e < in_offsets[i + 1]; ++e) in.emplace_back(in_indices[e], in_distances[e]);
      std::sort(out.begin(), out.end());
      std::sort(in.begin(), in.end());
      auto& row = rows[i];
      std::size_t a = 0, b = 0;
      while (a < out.size() || b < in.size()) {
        if (b == in.size() || (a < out.size() && out[a].first < in[b].first)) {
          if (rule == Symmetrization::union_edges) row.emplace_back(out[a].second, out[a].first);
          ++a;
        } else if (a == out.size() || in[b].first < out[a].first) {
          if (rule == Symmetrization::union_edges) row.emplace_back(in[b].second, in[b].first);
          ++b;
        } else {
          row.emplace_back(std::min(out[a].second, in[b].second), out[a].first);
          ++a;
          ++b;
        }
      }
      std::sort(row.begin(), row.end());
    });
    std::vector<offset_t> offsets(std::size_t(n) + 1, 0);
    for (index_t i = 0; i < n; ++i) offsets[i + 1] = offsets[i] + offset_t(rows[i].size());
    std::vector<index_t> indices(std::size_t(offsets.back()));
    std::vector<T> distances(std::size_t(offsets.back()));
    parallel_for(0, n, [&](std::int64_t i) {
      offset_t e = offsets[i];
      for (const auto& [d, j] : rows[i]) {
        indices[e] = j;
        distances[e] = d;
        ++e;
      }
    });
    NeighborGraph result(std::move(offsets), std::move(indices), std::move(distances), true);
    result.selection_ = selection_;
    return result;
  }

 private:
  NeighborGraph(std::vector<offset_t> offsets, std::vector<index_t> indices, std::vector<T> distances, bool symmetric)
      : offsets_(std::move(offsets)), indices_(std::move(indices)), distances_(std::move(distances)),
        symmetric_(symmetric) {}

  static void validate_csr(index_t n, const std::vector<offset_t>& offsets, const std::vector<index_t>& indices,
                           const std::vector<T>& distances) {
    if (n < 0) throw_invalid("n_points", "n_points = ", n, " must be >= 0");
    if (offsets.size() != std::size_t(n) + 1)
      throw_invalid("offsets", "offsets has ", offsets.size(), " entries but must have n_points + 1 = ",
                    std::int64_t{n} + 1);  // in 64 bits: n may be the largest index_t
    if (offsets.front() != 0) throw_invalid("offsets", "offsets[0] = ", offsets.front(), " must be 0");
    for (index_t i = 0; i < n; ++i)
      if (offsets[i + 1] < offsets[i])
        throw_invalid("offsets", "offsets[", i + 1, "] = ", offsets[i + 1], " is less than offsets[", i,
                      "] = ", offsets[i], ": offsets must be non-decreasing");
    if (std::size_t(offsets.back()) != indices.size() || indices.size() != distances.size())
      throw_invalid("indices", "offsets[n_points] = ", offsets.back(), ", indices has ", indices.size(),
                    " entries and distances has ", distances.size(), ": all three must agree");
    std::vector<index_t> row;
    for (index_t i = 0; i < n; ++i) {
      row.assign(indices.begin() + offsets[i], indices.begin() + offsets[i + 1]);
      for (offset_t e = offsets[i]; e < offsets[i + 1]; ++e) {
        const index_t j = indices[e];
        if (j < 0 || j >= n)
          throw_invalid("indices", "point ", i, " lists neighbor ", j, ", outside [0, ", n, ")");
        if (j == i) throw_invalid("indices", "point ", i, " lists itself as a neighbor: remove self loops");
        if (!(std::isfinite(distances[e]) && distances[e] >= 0))
          throw_invalid("distances", "edge ", i, " -> ", j, " has distance ", distances[e],
                        ": distances must be finite and >= 0");
      }
      std::sort(row.begin(), row.end());
      if (auto dup = std::adjacent_find(row.begin(), row.end()); dup != row.end())
        throw_invalid("indices", "point ", i, " lists neighbor ", *dup, " more than once");
    }
  }

  void sort_lists() {
    parallel_for(0, size(), [&](std::int64_t i) {
      std::vector<std::pair<T, index_t>> row;
      for (offset_t e = offsets_[i]; e < offsets_[i + 1]; ++e) row.emplace_back(distances_[e], indices_[e]);
      std::sort(row.begin(), row.end());
      offset_t e = offsets_[i];
      for (const auto& [d, j] : row) {
        distances_[e] = d;
        indices_[e] = j;
        ++e;
      }
    });
  }

  // A user's lists may name both directions with different distances: that graph is not symmetric
  // yet, so that symmetrized() settles each pair on the smaller distance.
  bool check_symmetric() const {
    for (index_t i = 0; i < size(); ++i)
      for (offset_t e = offsets_[i]; e < offsets_[i + 1]; ++e) {
        const auto back = neighbors(indices_[e]);
        const auto found = std::find(back.begin(), back.end(), i);
        if (found == back.end() || distances(indices_[e])[std::size_t(found - back.begin())] != distances_[e])
          return false;
      }
    return true;
  }

  std::vector<offset_t> offsets_;
  std::vector<index_t> indices_;
  std::vector<T> distances_;
  bool symmetric_ = true;  // the empty graph is trivially symmetric
  SelectionReport selection_;
};

}  // namespace nldr
