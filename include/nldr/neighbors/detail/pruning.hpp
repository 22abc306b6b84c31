// The part every pruning selector shares (docs/algorithms.md sec. 2.7):
// candidate graph in, per-entry keep decisions, then ONE assembly that applies the
// min_neighbors fallback, reconnects split components in Kruskal order and returns a
// symmetric graph with the SelectionReport filled in.
//
// Pruning works on the DIRECTED candidate lists (what the candidate selector returned, e.g.
// N_k(i) for kNN): the rule decides every entry (i -> j) on its own. An unordered pair {i, j}
// is kept when the rule keeps at least one of its entries, and kept pairs go both ways. For
// rules that are symmetric in i and j (shared neighbors, short circuit) this is the same as
// pruning the union graph; for per-point rules (Gaussian fit, curvature tolerance relative to
// K(i)) a pair survives when either endpoint accepts the other.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/precompiled.hpp>
#include <nldr/core/progress.hpp>
#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>
#include <nldr/neighbors/detail/locality_order.hpp>
#include <nldr/neighbors/graph.hpp>
#include <nldr/neighbors/selector.hpp>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace nldr::detail {

/// Options every pruning selector has; the defaults of docs/algorithms.md sec. 2.
struct PruningControl {
  index_t min_neighbors = 1;  ///< per point, >= 1
  bool reconnect = true;      ///< re-add pruned candidates (shortest first) to rejoin components
};

/// ceil(fraction * k), computed so that products that are integers in exact arithmetic
/// (0.1 * 30 = 3.0000000000000004 in binary) are not pushed to the next integer.
inline index_t ceil_fraction(double fraction, index_t k) {
  const double product = fraction * double(k);
  return index_t(std::ceil(product - 1e-9 * std::max(1.0, product)));
}

/// Points per task of the parallel loops over points: the work per point is small and uneven.
inline constexpr std::int64_t points_per_task = 64;

/// Requires min_neighbors >= 1 (a selector never returns an isolated point silently).
inline void validate_min_neighbors(index_t min_neighbors) {
  if (min_neighbors < 1)
    throw_invalid("min_neighbors", "min_neighbors = ", min_neighbors,
                  " must be >= 1: every point keeps at least one edge");
}

/// Index of `x` in list[0 .. length), or -1. Lists hold no duplicates, so the sum of (position + 1)
/// over the matches is the one match's: a branch-free loop the compiler vectorizes, which beats an
/// early exit on lists of a few dozen entries.
inline index_t position_in_list(const index_t* list, index_t length, index_t x) {
  index_t found = 0;
  for (index_t a = 0; a < length; ++a) found += list[a] == x ? a + 1 : 0;
  return found - 1;
}

/// For every entry e = (i -> j) of `graph`, the index of the entry (j -> i), or -1 when j does
/// not list i; `order` a permutation of the points (locality_order). Only the entries with j > i
/// search (list j for i): one that finds its twin also writes the twin's answer, so every pair
/// is searched once and every entry is written by one iteration. Cost O(E k / 2) comparisons,
/// vectorized and cache-resident in locality order; parallel.
template <Real T>
std::vector<offset_t> reverse_entries(const NeighborGraph<T>& graph, std::span<const index_t> order) {
  const auto offsets = graph.offsets();
  const auto indices = graph.indices();
  std::vector<offset_t> reverse(indices.size(), -1);
  parallel_for(
      0, std::int64_t(order.size()),
      [&](std::int64_t p) {
        const index_t i = order[p];
        for (offset_t e = offsets[i]; e < offsets[i + 1]; ++e) {
          const index_t j = indices[e];
          if (j < i) continue;  // searched from j's list
          const index_t at = position_in_list(indices.data() + offsets[j], graph.degree(j), i);
          if (at < 0) continue;
          reverse[e] = offsets[j] + at;
          reverse[offsets[j] + at] = e;
        }
      },
      points_per_task);
  return reverse;
}

/// What the rules of the pruning selectors read: the candidate lists, each entry's twin and a
/// cache-friendly order of the points; and the selector's progress hook, which hears 0.5 once the
/// candidates are found, 0.5 .. 0.95 from for_each_point and 1 from assemble_pruned.
template <Real T>
struct CandidateGraph {
  NeighborGraph<T> graph;         ///< the candidate selector's lists, nearest first
  std::vector<index_t> order;     ///< locality_order(graph)
  std::vector<offset_t> reverse;  ///< reverse_entries(graph, order): entry (j -> i) of (i -> j), or -1
  ProgressCallback progress;      ///< the selector's options.progress (may be empty)

  explicit CandidateGraph(NeighborGraph<T> lists, ProgressCallback callback = {})
      : graph(std::move(lists)), order(locality_order(graph)), reverse(reverse_entries(graph, order)),
        progress(std::move(callback)) {}

  /// Calls body(i) for every point i, in parallel, in locality order, reporting by blocks of ~1% of
  /// the points. body must write only what no other call writes (i's entries, or both entries of a
  /// pair only i decides), so results do not depend on the threads.
  template <class Body>
  void for_each_point(Body&& body) const {
    parallel_for_reporting(
        0, std::int64_t(order.size()), [&](std::int64_t p) { body(order[p]); }, progress_part(progress, 0.5, 0.95),
        "the pruning rule", points_per_task);
  }
};

/// Validates X (finite, N >= 2) and runs the candidate selector on it; the candidate graph must
/// have one list per point. `Candidates` is any NeighborSelector (lists sorted nearest first).
template <class Candidates, class Derived>
CandidateGraph<typename Derived::Scalar> candidate_graph(const Candidates& candidates,
                                                         const Eigen::MatrixBase<Derived>& X,
                                                         const ProgressCallback& progress = {}) {
  using T = typename Derived::Scalar;
  static_assert(Real<T>, "nldr pruning selectors: the points must be float or double");
  static_assert(NeighborSelector<Candidates, T>,
                "nldr pruning selectors: the candidate selector must satisfy NeighborSelector "
                "(a call operator taking N x D points and returning NeighborGraph<T>)");
  validate_points(X, "X", 2);
  NeighborGraph<T> graph = candidates(X.derived());
  if (graph.size() != X.rows())
    throw_invalid("candidates", "the candidate selector returned a graph of ", graph.size(), " points for N = ",
                  X.rows(), " rows of X: it must return one list per point");
  report_progress(progress, 0.5, "pruning selector");
  return CandidateGraph<T>(std::move(graph), progress);
}

/// Union-find with path halving; roots are the smallest index of their set.
class DisjointSets {
 public:
  explicit DisjointSets(index_t n) : parent_(std::size_t(n)) { std::iota(parent_.begin(), parent_.end(), 0); }
  index_t find(index_t x) {
    while (parent_[x] != x) x = parent_[x] = parent_[parent_[x]];
    return x;
  }
  /// Joins the sets of a and b; false when they were already one.
  bool unite(index_t a, index_t b) {
    a = find(a);
    b = find(b);
    if (a == b) return false;
    parent_[std::max(a, b)] = std::min(a, b);
    return true;
  }

 private:
  std::vector<index_t> parent_;
};

/// Builds the selector's result from the candidate graph and the rule's decision per entry
/// (keep[e] != 0: the rule keeps entry e = (i -> j)).
///   1. Kept pairs: {i, j} is kept when keep[e] holds for either of its entries.
///   2. min_neighbors fallback, points in index order: while point i has fewer than
///      min_neighbors neighbors in the symmetric graph built so far, the nearest entry of its
///      own candidate list whose pair is not yet kept is added (both ways).
///   3. Reconnection (control.reconnect): the pruned pairs, ordered by (distance, smaller
///      index, larger index), are re-added when they join two components (Kruskal) until one
///      component is left or none remains.
/// The result is symmetric, each list sorted by (distance, index); its selection() reports the
/// directed candidate entries, the entries the rule pruned (before steps 2-3), the points that
/// needed the fallback and the pairs re-added by step 3. `name` becomes report.selector.
/// Cost O(E) plus the union-find over the kept pairs, and when pruning split the graph a sort
/// of the pruned pairs between components.
/// \throws nldr::invalid_argument ("min_neighbors") when a point cannot reach min_neighbors
/// from its candidates.
template <Real T>
NeighborGraph<T> assemble_pruned(const CandidateGraph<T>& candidates, std::vector<unsigned char> keep,
                                 const PruningControl& control, std::string name) {
  validate_min_neighbors(control.min_neighbors);
  const index_t n = candidates.graph.size();
  const auto offsets = candidates.graph.offsets();
  const auto indices = candidates.graph.indices();
  const auto distances = candidates.graph.distances();
  const std::vector<offset_t>& reverse = candidates.reverse;
  const offset_t n_entries = candidates.graph.num_edges();

  SelectionReport report;
  report.selector = std::move(name);
  report.candidate_edges = n_entries;
  report.pruned_edges = n_entries - offset_t(std::count(keep.begin(), keep.end(), 1));
  report.search = candidates.graph.selection().search;                     // of the candidate lists
  report.estimated_recall = candidates.graph.selection().estimated_recall;
  // A new point's nearest candidates are what the rule pruned from: it gets the graph's lists
  // instead, so that no pruned edge comes back (docs/models.md, "What a new point gets").
  report.new_point = {NewPointRule::nearest_and_its_neighbors, 0, 0.0};

  // pair[e]: whether the pair of entry e = (i -> j) is kept; twins agree. A kept entry without
  // a twin is "lent" to row j as well. degree[i] counts row i of the result: its own kept
  // entries plus the `borrowed` ones. The union-find joins the kept pairs (for reconnection).
  std::vector<unsigned char> pair(keep.size());
  std::vector<index_t> degree(std::size_t(n), 0), borrowed(std::size_t(n), 0);
  std::vector<std::pair<index_t, offset_t>> lent;  // (i, entry (i -> j))
  DisjointSets sets(n);
  index_t components = n;
  auto join = [&](index_t a, index_t b) {
    if (control.reconnect && sets.unite(a, b)) --components;
  };
  auto lend = [&](index_t i, offset_t e) {
    ++degree[indices[e]];
    ++borrowed[indices[e]];
    lent.emplace_back(i, e);
  };
  // One pass decides every pair and accounts for it, from both entries when it has two.
  for (index_t i = 0; i < n; ++i)
    for (offset_t e = offsets[i]; e < offsets[i + 1]; ++e) {
      const offset_t twin = reverse[e];
      pair[e] = keep[e] || (twin >= 0 && keep[twin]);
      if (!pair[e]) continue;
      ++degree[i];
      if (twin < 0) lend(i, e);
      if (twin < 0 || i < indices[e]) join(i, indices[e]);
    }
  keep = {};
  // Keeps the pair of entry e = (i -> j), pruned so far.
  auto add_pair = [&](index_t i, offset_t e) {
    pair[e] = 1;
    ++degree[i];
    if (reverse[e] >= 0) {
      pair[reverse[e]] = 1;
      ++degree[indices[e]];
    } else {
      lend(i, e);
    }
    join(i, indices[e]);
  };

  for (index_t i = 0; i < n; ++i) {
    if (degree[i] >= control.min_neighbors) continue;
    for (offset_t e = offsets[i]; e < offsets[i + 1] && degree[i] < control.min_neighbors; ++e)
      if (!pair[e]) add_pair(i, e);
    if (degree[i] < control.min_neighbors)
      throw_invalid("min_neighbors", "min_neighbors = ", control.min_neighbors, " but point ", i, " has only ",
                    degree[i], " candidate neighbor(s): lower min_neighbors or give the candidate selector a larger k");
    ++report.fallback_points;
  }

  if (control.reconnect && components > 1) {
    // Only pruned pairs between two components can be re-added (components only merge), so the
    // others are left out before sorting. Each pair once: from its entry (i -> j) with i < j, or
    // from its only entry.
    std::vector<std::tuple<T, index_t, index_t, offset_t>> pruned;  // (distance, smaller, larger, entry)
    for (index_t i = 0; i < n; ++i)
      for (offset_t e = offsets[i]; e < offsets[i + 1]; ++e) {
        const index_t j = indices[e];
        if (!pair[e] && (reverse[e] < 0 || i < j) && sets.find(i) != sets.find(j))
          pruned.emplace_back(distances[e], std::min(i, j), std::max(i, j), e);
      }
    std::sort(pruned.begin(), pruned.end());
    for (const auto& [d, a, b, e] : pruned) {
      if (components == 1) break;
      if (sets.find(a) == sets.find(b)) continue;
      add_pair(indices[e] == a ? b : a, e);
      ++report.reconnected_edges;
    }
  }

  // Row i of the result: its own kept entries (already in (distance, index) order), then the
  // entries lent to it, each moved into place by insertion (a few per row).
  std::vector<offset_t> result_offsets(std::size_t(n) + 1, 0);
  for (index_t i = 0; i < n; ++i) result_offsets[i + 1] = result_offsets[i] + degree[i];
  std::vector<index_t> result_indices(std::size_t(result_offsets.back()));
  std::vector<T> result_distances(std::size_t(result_offsets.back()));
  std::vector<offset_t> lent_cursor(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) lent_cursor[i] = result_offsets[i + 1] - borrowed[i];
  for (const auto& [i, e] : lent) {
    const offset_t slot = lent_cursor[indices[e]]++;
    result_indices[slot] = i;
    result_distances[slot] = distances[e];
  }
  parallel_for(0, n, [&](std::int64_t i) {
    const offset_t first = result_offsets[i];
    offset_t end = first;
    for (offset_t e = offsets[i]; e < offsets[i + 1]; ++e)
      if (pair[e]) {
        result_indices[end] = indices[e];
        result_distances[end++] = distances[e];
      }
    for (; end < result_offsets[i + 1]; ++end) {
      const std::pair<T, index_t> entry{result_distances[end], result_indices[end]};
      offset_t slot = end;
      for (; slot > first && entry < std::pair<T, index_t>{result_distances[slot - 1], result_indices[slot - 1]}; --slot) {
        result_distances[slot] = result_distances[slot - 1];
        result_indices[slot] = result_indices[slot - 1];
      }
      result_distances[slot] = entry.first;
      result_indices[slot] = entry.second;
    }
  }, points_per_task);
  NeighborGraph<T> result = NeighborGraph<T>::from_sorted_csr_unchecked(
      std::move(result_offsets), std::move(result_indices), std::move(result_distances), true);
  result.set_selection(std::move(report));
  report_progress(candidates.progress, 1, "pruning selector");
  return result;
}

NLDR_PRECOMPILED(NeighborGraph<float> assemble_pruned<float>(
    const CandidateGraph<float>&, std::vector<unsigned char>, const PruningControl&, std::string))
NLDR_PRECOMPILED(NeighborGraph<double> assemble_pruned<double>(
    const CandidateGraph<double>&, std::vector<unsigned char>, const PruningControl&, std::string))

}  // namespace nldr::detail
