// ShortCircuitPruned: drop candidate edges that cross empty space (docs/algorithms.md sec. 2.6;
// Xia, Li, Zhang & Tang 2008, "R*-tree LLE", sec. 4.1, eq. 4).
#pragma once

#include <nldr/core/described.hpp>
#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/precompiled.hpp>
#include <nldr/core/progress.hpp>
#include <nldr/core/types.hpp>
#include <nldr/neighbors/detail/distance.hpp>
#include <nldr/neighbors/detail/pruning.hpp>
#include <nldr/neighbors/graph.hpp>
#include <nldr/neighbors/kdtree_box_index.hpp>
#include <nldr/neighbors/knn.hpp>
#include <nldr/neighbors/selector.hpp>
#include <nldr/neighbors/spatial_index.hpp>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace nldr {

namespace detail {

/// One thread's buffers for the box counts of ShortCircuitPruned: the box, and a point's
/// candidates column by column (gather_columns) with a 1/0 flag per candidate, in T so that the
/// comparisons vectorize (SSE2 has no 64-bit integer compare).
template <Real T>
struct BoxScratch {
  std::vector<T> lo, hi, columns, inside;

  explicit BoxScratch(Eigen::Index dim) : lo(std::size_t(dim)), hi(std::size_t(dim)) {}

  /// How many of the k gathered candidates lie in [lo, hi], capped: blocks of 8 candidates, each
  /// one branch-free pass per coordinate, until `enough` are found. A box around a kept edge's
  /// midpoint usually holds one of the nearer candidates, so most counts stop in the first blocks.
  index_t count_columns_in_box(index_t k, index_t enough) {
    constexpr index_t block = 8;
    inside.resize(std::size_t(block));
    T* flag = inside.data();
    index_t count = 0;
    for (index_t first = 0; first < k && count < enough; first += block) {
      const index_t width = std::min(block, k - first);
      std::fill(flag, flag + width, T(1));
      for (std::size_t c = 0; c < lo.size(); ++c) {
        const T low = lo[c], high = hi[c];
        const T* column = columns.data() + c * std::size_t(k) + first;
        for (index_t b = 0; b < width; ++b) flag[b] = low <= column[b] && column[b] <= high ? flag[b] : T(0);
      }
      for (index_t b = 0; b < width; ++b) count += index_t(flag[b]);
    }
    return count;
  }
};

}  // namespace detail

/// Options of ShortCircuitPruned (defaults of Xia et al. 2008).
struct ShortCircuitOptions {
  /// n of eq. 4: S(x) = mean distance from x to its n nearest neighbors (the first n entries
  /// of its candidate list); 1 <= n <= the candidate list length. The paper uses 2.
  index_t scale_neighbors = 2;
  /// Prune an edge iff its box holds <= threshold points (endpoints included); >= 0. Paper: 0.
  index_t threshold = 0;
  /// Neighbors every point keeps at least (nearest candidates first), >= 1.
  index_t min_neighbors = 1;
  /// Re-add the shortest pruned candidates that rejoin components split by pruning.
  bool reconnect = true;
  /// Optional progress and cancel hook (core/progress.hpp): 0.5 once the candidate lists are
  /// found, 0.5 .. 0.95 from the rule by blocks of ~1% of the points, 1 when the graph is assembled.
  ProgressCallback progress{};

  /// The parameters a caller names (core/described.hpp; docs/registry.md).
  template <class Visitor>
  void describe(Visitor& v) {
    v.number("threshold", threshold, {0, 2147483646}, "prune an edge whose box holds <= threshold points");
    v.number("min_neighbors", min_neighbors, {1, 2147483646}, "neighbors every point keeps when pruning");
  }
};

namespace detail {

/// ShortCircuitPruned's rule on its candidates, with the index Index; lists_answer: the candidate lists
/// cover their radius (lists_cover_their_radius). Compiled once in nldr::registry for what its table
/// uses, KNearest's candidates in the k-d tree boxes (here) and R*-trees (registry/selectors.hpp):
/// core/precompiled.hpp.
template <class Index, bool lists_answer, Real T>
NeighborGraph<T> short_circuit_rule(const CandidateGraph<T>& cand, const PointsRef<T>& X,
                                    const ShortCircuitOptions& options) {
  const NeighborGraph<T>& graph = cand.graph;
  const index_t n = graph.size();
  for (index_t i = 0; i < n; ++i)
    if (graph.degree(i) < options.scale_neighbors)
      throw_invalid("scale_neighbors", "scale_neighbors = ", options.scale_neighbors, " but point ", i, " has only ",
                    graph.degree(i), " candidate(s): lower scale_neighbors or give the candidate selector a larger k");
  const detail::PointRows<T> rows(X);
  const Eigen::Index dim = rows.cols;
  const typename Index::template index<T> index(X);

  // Eq. 4: the local scale of every point.
  std::vector<T> scale(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) {
    const auto d = graph.distances(i);
    double sum = 0;
    for (index_t a = 0; a < options.scale_neighbors; ++a) sum += double(d[a]);
    scale[i] = T(sum / double(options.scale_neighbors));
  }

  const auto offsets = graph.offsets();
  const auto indices = graph.indices();
  std::vector<unsigned char> keep(indices.size(), 0);
  const index_t enough = options.threshold + 1;  // a count that decides "keep"
  // A box inside the ball of radius r around a point p, r its distance to its last candidate,
  // holds only p and candidates of p when the candidate selector lists every point nearer
  // than that (lists_cover_their_radius, e.g. KNearest): p's list counts it exactly, without
  // a query. `ball_slack` covers the rounding of the stored distances (relative
  // (D + 3) eps in T, doubled) and of the bound itself.
  const double ball_slack = 1 + 4 * double(dim + 3) * double(std::numeric_limits<T>::epsilon());
  std::vector<detail::BoxScratch<T>> scratch(static_cast<std::size_t>(max_threads()), detail::BoxScratch<T>(dim));
  cand.for_each_point([&](index_t i) {
    detail::BoxScratch<T>& s = scratch[std::size_t(thread_index())];
    const T* lo = s.lo.data();
    const T* hi = s.hi.data();
    auto inside = [&](index_t p) {  // branch-free: whether a point is inside is unpredictable
      const T* x = rows.row(p);
      bool in = true;
      for (Eigen::Index c = 0; c < dim; ++c) in &= (lo[c] <= x[c]) & (x[c] <= hi[c]);
      return in;
    };
    auto box_within_ball = [&](index_t p) {
      const T* x = rows.row(p);
      double reach = 0;  // distance from x_p to the farthest corner of the box
      for (Eigen::Index c = 0; c < dim; ++c) {
        const double far = std::max(double(x[c]) - double(lo[c]), double(hi[c]) - double(x[c]));
        reach += far * far;
      }
      return std::sqrt(reach) * ball_slack < double(graph.distances(p).back());
    };
    index_t gathered = -1;  // whose list s.columns holds
    auto count_from_list = [&](index_t p) {
      if (gathered != p) detail::gather_columns(rows, graph.neighbors(p), s.columns);
      gathered = p;
      return index_t(inside(p)) + s.count_columns_in_box(graph.degree(p), enough);
    };
    // C_ij capped at `enough`: the endpoints, else the list of an endpoint whose ball covers the
    // box, else that of one of their candidates (the box is near both), else the index.
    auto box_count = [&](index_t j) -> index_t {
      const index_t endpoints = index_t(inside(i)) + index_t(inside(j));
      if (endpoints >= enough) return endpoints;
      if constexpr (lists_answer) {
        for (const index_t p : {i, j})
          if (box_within_ball(p)) return count_from_list(p);
        for (const index_t p : {i, j})
          for (const index_t q : graph.neighbors(p))
            if (box_within_ball(q)) return count_from_list(q);
      }
      return index.count_in_box(std::span<const T>(s.lo), std::span<const T>(s.hi), enough);
    };
    const T* xi = rows.row(i);
    for (offset_t e = offsets[i]; e < offsets[i + 1]; ++e) {
      const index_t j = indices[e];
      const offset_t twin = cand.reverse[e];
      if (twin >= 0 && j < i) continue;  // decided from j's list
      const T* xj = rows.row(j);
      const T eps = std::min(scale[i], scale[j]);
      for (Eigen::Index c = 0; c < dim; ++c) {
        const T mid = (xi[c] + xj[c]) / T(2);
        s.lo[c] = mid - eps;
        s.hi[c] = mid + eps;
      }
      keep[e] = box_count(j) >= enough;
      if (twin >= 0) keep[twin] = keep[e];
    }
  });
  return detail::assemble_pruned(cand, std::move(keep), {options.min_neighbors, options.reconnect},
                                 detail::concat("short_circuit(threshold=", options.threshold, ", scale_neighbors=",
                                                options.scale_neighbors, ") on ", graph.selection().selector));
}

NLDR_PRECOMPILED(NeighborGraph<float> short_circuit_rule<KdTreeBoxes, true, float>(
    const CandidateGraph<float>&, const PointsRef<float>&, const ShortCircuitOptions&))
NLDR_PRECOMPILED(NeighborGraph<double> short_circuit_rule<KdTreeBoxes, true, double>(
    const CandidateGraph<double>&, const PointsRef<double>&, const ShortCircuitOptions&))

}  // namespace detail

/// Short-circuit pruning. Candidates: the lists of `candidates`, kNN with a relatively large K
/// (the paper recommends 1-5% of N; KNearest{40} on 2000 points). For each candidate pair
/// (i, j): midpoint m = (x_i + x_j) / 2, eps_ij = min(S(x_i), S(x_j)) and
/// C_ij = number of points in the closed axis-aligned box [m - eps_ij, m + eps_ij] (an
/// L-infinity ball; the endpoints count when inside). The pair is pruned iff C_ij <= threshold.
/// The box is evaluated in T exactly as written: m_c = (x_ic + x_jc) / 2, lo_c = m_c - eps,
/// hi_c = m_c + eps with eps = T(min(S_i, S_j)), S_i the mean of its n nearest candidate
/// distances (summed in double); a point p counts iff lo_c <= p_c <= hi_c for all c.
/// C is symmetric in i and j, so each pair is counted once and a kept pair goes both ways; then
/// the min_neighbors fallback and the reconnection of detail::assemble_pruned.
///
/// `Index` is a SpatialIndexPolicy: KdTreeBoxes (default, any D) or RStarBoxes<D> (the paper's
/// R*-tree, rstar_box_index.hpp, needs Boost.Geometry); both give the same counts, so the same
/// graph. The box of a pair whose endpoints already exceed the threshold is not queried, nor,
/// with candidates that list every point nearer than their last entry
/// (lists_cover_their_radius, e.g. KNearest), a box that lies inside that radius around an
/// endpoint or one of their candidates: that point's list counts it (on a Swiss roll of 1e5
/// points 0.7% of the boxes are left for the index with K = 12, none with K = 40).
///
/// Result: a symmetric NeighborGraph; selection() reports candidate entries, pruned entries,
/// fallback points and re-added pairs; graph_statistics() gives histogram and components.
/// Cost: building the index, O(N log N), plus per candidate pair an early-stopping scan of a
/// list (O(k)) or box query; parallel over points.
///
/// \code
/// auto data = nldr::datasets::swiss_roll({.n = 2000, .seed = 7});
/// auto graph = nldr::ShortCircuitPruned{nldr::KNearest{40}}(data.points);      // k-d tree index
/// auto same = nldr::ShortCircuitPruned<nldr::KNearest, nldr::RStarBoxes<3>>{nldr::KNearest{40}}(data.points);
/// graph.selection().pruned_edges;  nldr::graph_statistics(graph).components.count();
/// \endcode
template <class Candidates = KNearest, class Index = KdTreeBoxes>
struct ShortCircuitPruned {
  Candidates candidates{};
  ShortCircuitOptions options{};

  /// X: N x D points (float or double, finite, N >= 2). Returns the symmetric pruned graph.
  /// \throws nldr::invalid_argument naming "scale_neighbors", "threshold", "min_neighbors", "X"
  /// (also when D does not match an R*-tree's Dim) or the candidate's parameters.
  template <class Derived>
  NeighborGraph<typename Derived::Scalar> operator()(const Eigen::MatrixBase<Derived>& X) const {
    using T = typename Derived::Scalar;
    static_assert(SpatialIndexPolicy<Index, T>,
                  "nldr::ShortCircuitPruned: Index must be a policy with `template <Real T> using index = ...` "
                  "naming a SpatialIndex (see spatial_index.hpp), e.g. nldr::KdTreeBoxes or nldr::RStarBoxes<3>");
    if (options.scale_neighbors < 1)
      throw_invalid("scale_neighbors", "scale_neighbors = ", options.scale_neighbors,
                    " must be >= 1 (Xia et al. 2008 average over the 2 nearest neighbors)");
    if (options.threshold < 0)
      throw_invalid("threshold", "threshold = ", options.threshold,
                    " must be >= 0 (Xia et al. 2008 prune empty boxes: 0)");
    detail::validate_min_neighbors(options.min_neighbors);
    return detail::short_circuit_rule<Index, lists_cover_their_radius<Candidates>, T>(
        detail::candidate_graph(candidates, X, options.progress), X.derived(), options);
  }
};

template <class Candidates>
ShortCircuitPruned(Candidates) -> ShortCircuitPruned<Candidates>;
template <class Candidates>
ShortCircuitPruned(Candidates, ShortCircuitOptions) -> ShortCircuitPruned<Candidates>;

static_assert(NeighborSelector<ShortCircuitPruned<>, float> && NeighborSelector<ShortCircuitPruned<>, double>);

}  // namespace nldr
