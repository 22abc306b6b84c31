// The part every pruning selector shares (ALGORITHMS.md, the paragraph after sec. 2.6):
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
#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>
#include <nldr/neighbors/graph.hpp>
#include <nldr/neighbors/selector.hpp>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace nldr::detail {

/// Options every pruning selector has; the defaults of ALGORITHMS.md sec. 2.
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

/// Requires min_neighbors >= 1 (a selector never returns an isolated point silently).
inline void validate_min_neighbors(index_t min_neighbors) {
  if (min_neighbors < 1)
    throw_invalid("min_neighbors", "min_neighbors = ", min_neighbors,
                  " must be >= 1: every point keeps at least one edge");
}

/// Euclidean distance of two D-vectors of T, accumulated in double in coordinate order. The
/// statistics of the rules (means, spreads, curvatures) are computed in double for both scalars.
template <Real T>
double distance_in_double(const T* a, const T* b, Eigen::Index dim) {
  double sum = 0;
  for (Eigen::Index c = 0; c < dim; ++c) {
    const double diff = double(a[c]) - double(b[c]);
    sum += diff * diff;
  }
  return std::sqrt(sum);
}

/// Validates X (finite, N >= 2) and runs the candidate selector on it; the candidate graph must
/// have one list per point. `Candidates` is any NeighborSelector (lists sorted nearest first).
template <class Candidates, class Derived>
NeighborGraph<typename Derived::Scalar> candidate_graph(const Candidates& candidates,
                                                        const Eigen::MatrixBase<Derived>& X) {
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
  return graph;
}

/// For every entry e = (i -> j) of `graph`, the index of the entry (j -> i), or -1 when j does
/// not list i. O(E log k): binary search in index-sorted copies of the lists.
template <Real T>
std::vector<offset_t> reverse_entries(const NeighborGraph<T>& graph) {
  const index_t n = graph.size();
  const auto offsets = graph.offsets();
  const auto indices = graph.indices();
  std::vector<std::pair<index_t, offset_t>> by_index(indices.size());
  parallel_for(0, n, [&](std::int64_t i) {
    for (offset_t e = offsets[i]; e < offsets[i + 1]; ++e) by_index[e] = {indices[e], e};
    std::sort(by_index.begin() + offsets[i], by_index.begin() + offsets[i + 1]);
  });
  std::vector<offset_t> reverse(indices.size(), -1);
  parallel_for(0, n, [&](std::int64_t i) {
    for (offset_t e = offsets[i]; e < offsets[i + 1]; ++e) {
      const index_t j = indices[e];
      const auto first = by_index.begin() + offsets[j], last = by_index.begin() + offsets[j + 1];
      const auto hit = std::lower_bound(first, last, std::pair<index_t, offset_t>{index_t(i), 0});
      if (hit != last && hit->first == i) reverse[e] = hit->second;
    }
  });
  return reverse;
}

/// Copies the decision of each unordered pair from the entry that made it to its twin: for
/// rules symmetric in (i, j) that decided only the entries with i < j (or without a twin).
template <Real T>
void mirror_pair_decisions(const NeighborGraph<T>& graph, const std::vector<offset_t>& reverse,
                           std::vector<unsigned char>& keep) {
  const auto offsets = graph.offsets();
  const auto indices = graph.indices();
  for (index_t i = 0; i < graph.size(); ++i)
    for (offset_t e = offsets[i]; e < offsets[i + 1]; ++e)
      if (reverse[e] >= 0 && indices[e] < i) keep[e] = keep[reverse[e]];
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
/// (keep[e] != 0: the rule keeps entry e = (i -> j); `reverse` from reverse_entries()).
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
/// \throws nldr::invalid_argument ("min_neighbors") when a point cannot reach min_neighbors
/// from its candidates.
template <Real T>
NeighborGraph<T> assemble_pruned(const NeighborGraph<T>& candidates, const std::vector<offset_t>& reverse,
                                 std::vector<unsigned char> keep, const PruningControl& control, std::string name) {
  validate_min_neighbors(control.min_neighbors);
  const index_t n = candidates.size();
  const auto offsets = candidates.offsets();
  const auto indices = candidates.indices();
  const auto distances = candidates.distances();
  const offset_t n_entries = candidates.num_edges();
  auto pair_kept = [&](offset_t e) { return keep[e] || (reverse[e] >= 0 && keep[reverse[e]]); };

  SelectionReport report;
  report.selector = std::move(name);
  report.candidate_edges = n_entries;
  report.pruned_edges = n_entries - offset_t(std::count(keep.begin(), keep.end(), 1));

  // Degrees in the symmetric kept graph: pairs seen from i's own list, plus points that list i
  // (and keep it) while i does not list them.
  std::vector<index_t> degree(std::size_t(n), 0);
  for (index_t i = 0; i < n; ++i)
    for (offset_t e = offsets[i]; e < offsets[i + 1]; ++e) {
      if (pair_kept(e)) ++degree[i];
      if (keep[e] && reverse[e] < 0) ++degree[indices[e]];
    }

  for (index_t i = 0; i < n; ++i) {
    if (degree[i] >= control.min_neighbors) continue;
    for (offset_t e = offsets[i]; e < offsets[i + 1] && degree[i] < control.min_neighbors; ++e) {
      if (pair_kept(e)) continue;
      keep[e] = 1;
      ++degree[i];
      ++degree[indices[e]];
    }
    if (degree[i] < control.min_neighbors)
      throw_invalid("min_neighbors", "min_neighbors = ", control.min_neighbors, " but point ", i, " has only ",
                    degree[i], " candidate neighbor(s): lower min_neighbors or give the candidate selector a larger k");
    ++report.fallback_points;
  }

  if (control.reconnect) {
    DisjointSets sets(n);
    index_t components = n;
    for (index_t i = 0; i < n; ++i)
      for (offset_t e = offsets[i]; e < offsets[i + 1]; ++e)
        if (keep[e] && sets.unite(i, indices[e])) --components;
    if (components > 1) {
      std::vector<std::tuple<T, index_t, index_t, offset_t>> pruned;  // (distance, smaller, larger, entry)
      for (index_t i = 0; i < n; ++i)
        for (offset_t e = offsets[i]; e < offsets[i + 1]; ++e) {
          const index_t j = indices[e];
          if (!pair_kept(e) && (reverse[e] < 0 || i < j)) pruned.emplace_back(distances[e], std::min(i, j), std::max(i, j), e);
        }
      std::sort(pruned.begin(), pruned.end());
      for (const auto& [d, a, b, e] : pruned) {
        if (components == 1) break;
        if (sets.unite(a, b)) {
          keep[e] = 1;
          --components;
          ++report.reconnected_edges;
        }
      }
    }
  }

  // The symmetric result, built directly: row i = its own entries whose pair is kept (already
  // in (distance, index) order), plus the points that keep an entry to i which i does not list.
  std::vector<offset_t> result_offsets(std::size_t(n) + 1, 0);
  for (index_t i = 0; i < n; ++i)
    for (offset_t e = offsets[i]; e < offsets[i + 1]; ++e) {
      if (pair_kept(e)) ++result_offsets[i + 1];
      if (keep[e] && reverse[e] < 0) ++result_offsets[std::size_t(indices[e]) + 1];
    }
  for (index_t i = 0; i < n; ++i) result_offsets[i + 1] += result_offsets[i];
  std::vector<index_t> result_indices(std::size_t(result_offsets.back()));
  std::vector<T> result_distances(std::size_t(result_offsets.back()));
  std::vector<offset_t> cursor(result_offsets.begin(), result_offsets.end() - 1);
  for (index_t i = 0; i < n; ++i)
    for (offset_t e = offsets[i]; e < offsets[i + 1]; ++e)
      if (pair_kept(e)) {
        result_indices[cursor[i]] = indices[e];
        result_distances[cursor[i]++] = distances[e];
      }
  std::vector<offset_t> own_end(cursor);  // end of the own (sorted) part of each row
  for (index_t i = 0; i < n; ++i)
    for (offset_t e = offsets[i]; e < offsets[i + 1]; ++e)
      if (keep[e] && reverse[e] < 0) {
        const index_t j = indices[e];
        result_indices[cursor[j]] = i;
        result_distances[cursor[j]++] = distances[e];
      }
  parallel_for(0, n, [&](std::int64_t i) {
    if (own_end[i] == result_offsets[i + 1]) return;  // nothing appended: still sorted
    std::vector<std::pair<T, index_t>> row;
    for (offset_t e = result_offsets[i]; e < result_offsets[i + 1]; ++e)
      row.emplace_back(result_distances[e], result_indices[e]);
    std::sort(row.begin(), row.end());
    offset_t e = result_offsets[i];
    for (const auto& [d, j] : row) {
      result_distances[e] = d;
      result_indices[e++] = j;
    }
  });
  NeighborGraph<T> result = NeighborGraph<T>::from_sorted_csr_unchecked(
      std::move(result_offsets), std::move(result_indices), std::move(result_distances), true);
  result.set_selection(std::move(report));
  return result;
}

}  // namespace nldr::detail
