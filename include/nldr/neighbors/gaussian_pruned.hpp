// GaussianPruned: drop candidates that lie far outside the spread of their own neighborhood
// (docs/algorithms.md sec. 2.4; Roy 2015, sec. 3.4, Algorithm 5).
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
#include <nldr/neighbors/knn.hpp>
#include <nldr/neighbors/selector.hpp>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace nldr {

/// Which of Roy 2015's two readings of Algorithm 5 decides.
enum class GaussianRule {
  /// Default: keep neighbor j of i iff ||x_i - x_j|| <= mu_i + z sigma_i.
  spread,
  /// The seed's literal variant: score every candidate by the fitted normal density at its
  /// radial distance and keep the ceil(keep_fraction * k) best ("k' = 0.68 k").
  most_probable,
};

namespace detail {

/// term(0) + ... + term(count - 1) in four interleaved partial sums, added in a fixed order: the
/// additions pipeline instead of waiting on each other, and the result depends only on the terms.
template <class Term>
double interleaved_sum(std::size_t count, const Term& term) {
  double partial[4] = {0, 0, 0, 0};
  std::size_t t = 0;
  for (; t + 4 <= count; t += 4)
    for (std::size_t lane = 0; lane < 4; ++lane) partial[lane] += term(t + lane);
  for (std::size_t lane = 0; t < count; ++t, ++lane) partial[lane] += term(t);
  return (partial[0] + partial[1]) + (partial[2] + partial[3]);
}

/// One thread's buffers for the Gaussian fit of a point: its candidates' coordinates in double,
/// stored coordinate by coordinate so that the distances from one point to all of them vectorize.
struct GaussianScratch {
  std::vector<double> coords;     ///< D x k: coordinate c of candidate a at [c * k + a]
  std::vector<double> point;      ///< D coordinates of the point the distances are taken from
  std::vector<double> distances;  ///< the pairwise distances, then the radial ones
  std::vector<std::pair<double, index_t>> ranked;  ///< most_probable: (|d - mu|, position in the list)

  template <Real T>
  void gather(const PointRows<T>& rows, std::span<const index_t> list) {
    gather_columns(rows, list, coords);
    point.resize(std::size_t(rows.cols));
  }

  /// out[b - first] = ||point - candidate b|| for b in [first, k): squared differences summed in
  /// coordinate order in double (as the reference definition), square roots by Eigen's packet
  /// sqrt (correctly rounded like std::sqrt, but vectorized).
  void distances_to(index_t k, index_t first, double* out) const {
    switch (point.size()) {  // a compile-time D unrolls the sum and vectorizes the loop over b
      case 2: squared_distances_to<2>(k, first, out); break;
      case 3: squared_distances_to<3>(k, first, out); break;
      default: squared_distances_to<Eigen::Dynamic>(k, first, out);
    }
    Eigen::Map<Eigen::ArrayXd> squared(out, k - first);
    squared = squared.sqrt();
  }

  template <int Dim>
  void squared_distances_to(index_t k, index_t first, double* out) const {
    const std::size_t dim = Dim == Eigen::Dynamic ? point.size() : std::size_t(Dim);
    const double* column = coords.data() + first;
    for (index_t b = 0; b < k - first; ++b) {
      double sum = 0;
      for (std::size_t c = 0; c < dim; ++c) {
        const double diff = point[c] - column[c * std::size_t(k) + std::size_t(b)];
        sum += diff * diff;
      }
      out[b] = sum;
    }
  }
};

}  // namespace detail

/// Options of GaussianPruned (defaults of Roy 2015).
struct GaussianPrunedOptions {
  GaussianRule rule = GaussianRule::spread;
  /// `spread`: how many standard deviations above the mean a radial distance may lie; finite.
  double z = 1.0;
  /// `most_probable`: fraction of each candidate list kept, 0 < keep_fraction <= 1 (0.68:
  /// the mass of a normal within one sigma, Roy 2015's "3-sigma rule" argument).
  double keep_fraction = 0.68;
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
    v.number("z", z, {0, 1e300}, "keep neighbors within mean + z standard deviations");
    v.flag("most_probable", rule, {GaussianRule::spread, GaussianRule::most_probable},
           "Roy 2015's literal rule: keep the 0.68 k most probable");
    v.number("min_neighbors", min_neighbors, {1, 2147483646}, "neighbors every point keeps when pruning");
  }
};

namespace detail {

/// GaussianPruned's rule on its candidates (compiled once in nldr::registry: core/precompiled.hpp).
template <Real T>
NeighborGraph<T> gaussian_rule(const CandidateGraph<T>& cand, const PointsRef<T>& X,
                               const GaussianPrunedOptions& options) {
  const NeighborGraph<T>& graph = cand.graph;
  const detail::PointRows<T> rows(X);
  const index_t n = graph.size();
  const auto offsets = graph.offsets();
  const auto indices = graph.indices();
  for (index_t i = 0; i < n; ++i)
    if (graph.degree(i) < 2)
      throw_invalid("candidates", "point ", i, " has ", graph.degree(i),
                    " candidate(s), but a normal distribution needs >= 2 neighbors (1 pairwise distance): "
                    "give the candidate selector k >= 2");

  std::vector<unsigned char> keep(indices.size(), 0);
  std::vector<detail::GaussianScratch> scratch(static_cast<std::size_t>(max_threads()));
  cand.for_each_point([&](index_t i) {
    detail::GaussianScratch& s = scratch[std::size_t(thread_index())];
    const index_t k = graph.degree(i);
    s.gather(rows, graph.neighbors(i));
    // The k(k-1)/2 pairwise distances, row by row of the upper triangle.
    const std::size_t m = std::size_t(k) * std::size_t(k - 1) / 2;
    s.distances.resize(m + std::size_t(k));
    double* out = s.distances.data();
    for (index_t a = 0; a + 1 < k; ++a) {
      for (Eigen::Index c = 0; c < rows.cols; ++c) s.point[c] = s.coords[std::size_t(c * k + a)];
      s.distances_to(k, a + 1, out);
      out += k - a - 1;
    }
    // Two passes over the cached distances: mean, then the spread around it (stable).
    const double* pairwise = s.distances.data();
    const double mu = detail::interleaved_sum(m, [&](std::size_t t) { return pairwise[t]; }) / double(m);
    const double sigma = std::sqrt(detail::interleaved_sum(m, [&](std::size_t t) {
                                     return (pairwise[t] - mu) * (pairwise[t] - mu);
                                   }) / double(m));

    double* radial = s.distances.data() + m;
    const T* xi = rows.row(i);
    for (Eigen::Index c = 0; c < rows.cols; ++c) s.point[c] = double(xi[c]);
    s.distances_to(k, 0, radial);
    const offset_t first = offsets[i];
    if (options.rule == GaussianRule::spread) {
      for (index_t a = 0; a < k; ++a) keep[first + a] = radial[a] <= mu + options.z * sigma;
    } else {
      // Highest density = smallest |d - mu|; ties: nearer first (lists are nearest first).
      s.ranked.clear();
      for (index_t a = 0; a < k; ++a) s.ranked.emplace_back(std::abs(radial[a] - mu), a);
      const index_t kept = detail::ceil_fraction(options.keep_fraction, k);
      std::nth_element(s.ranked.begin(), s.ranked.begin() + kept, s.ranked.end());  // the kept smallest, unordered
      for (index_t r = 0; r < kept; ++r) keep[first + s.ranked[r].second] = 1;
    }
  });
  const std::string rule = options.rule == GaussianRule::spread
                               ? detail::concat("z=", options.z)
                               : detail::concat("most_probable, keep_fraction=", options.keep_fraction);
  return detail::assemble_pruned(cand, std::move(keep), {options.min_neighbors, options.reconnect},
                                 detail::concat("gaussian_pruned(", rule, ") on ", graph.selection().selector));
}

NLDR_PRECOMPILED(NeighborGraph<float> gaussian_rule<float>(
    const CandidateGraph<float>&, const PointsRef<float>&, const GaussianPrunedOptions&))
NLDR_PRECOMPILED(NeighborGraph<double> gaussian_rule<double>(
    const CandidateGraph<double>&, const PointsRef<double>&, const GaussianPrunedOptions&))

}  // namespace detail

/// Gaussian-fit pruning. Candidates: the lists N(i) of `candidates` (kNN(k) by default, every
/// list needs >= 2 entries). For point i, a normal distribution is fitted by maximum likelihood
/// (mean mu_i, standard deviation sigma_i with divisor m, not m - 1) to the m = k(k-1)/2
/// pairwise distances among the members of N(i); then each entry (i -> j) is judged by its
/// radial distance ||x_i - x_j|| (see GaussianRule). The density of N(mu, sigma) decreases with
/// |d - mu|, so `most_probable` keeps the entries with the smallest |d - mu_i| (ties: nearer
/// first). Distances and the fit are computed in double for both scalar types.
/// The rule is per point; a pair is kept when either endpoint keeps the other, and kept pairs
/// go both ways (detail::assemble_pruned, which also applies min_neighbors and reconnection).
///
/// Result: a symmetric NeighborGraph; selection() reports candidate entries, pruned entries,
/// fallback points and re-added pairs; graph_statistics() gives histogram and components.
/// Cost: O(N k^2 D) for the k(k-1)/2 distances of each point (vectorized), plus O(N k) for the
/// lists' twins and the assembly; parallel over points.
///
/// \code
/// nldr::Matrix<double> X = ...;                                                // N x D
/// auto graph = nldr::GaussianPruned{nldr::KNearest{12}}(X);                    // mu + 1 sigma
/// auto literal = nldr::GaussianPruned{nldr::KNearest{12},
///                                     {.rule = nldr::GaussianRule::most_probable}}(X);  // k' = ceil(0.68 k)
/// \endcode
template <class Candidates = KNearest>
struct GaussianPruned {
  Candidates candidates{};
  GaussianPrunedOptions options{};

  /// X: N x D points (float or double, finite, N >= 3). Returns the symmetric pruned graph.
  /// \throws nldr::invalid_argument naming "z", "keep_fraction", "min_neighbors", "candidates"
  /// (a list with fewer than 2 entries), "X" or the candidate's parameters.
  template <class Derived>
  NeighborGraph<typename Derived::Scalar> operator()(const Eigen::MatrixBase<Derived>& X) const {
    using T = typename Derived::Scalar;
    if (!std::isfinite(options.z)) throw_invalid("z", "z = ", options.z, " must be finite (Roy 2015's rule uses 1)");
    if (!(options.keep_fraction > 0 && options.keep_fraction <= 1))
      throw_invalid("keep_fraction", "keep_fraction = ", options.keep_fraction,
                    " must lie in (0, 1] (Roy 2015 keeps k' = 0.68 k)");
    detail::validate_min_neighbors(options.min_neighbors);
    return detail::gaussian_rule<T>(detail::candidate_graph(candidates, X, options.progress), X.derived(), options);
  }
};

template <class Candidates>
GaussianPruned(Candidates) -> GaussianPruned<Candidates>;
template <class Candidates>
GaussianPruned(Candidates, GaussianPrunedOptions) -> GaussianPruned<Candidates>;

static_assert(NeighborSelector<GaussianPruned<>, float> && NeighborSelector<GaussianPruned<>, double>);

}  // namespace nldr
