// GaussianPruned: drop candidates that lie far outside the spread of their own neighborhood
// (ALGORITHMS.md sec. 2.4; seed 000, sec. 3.4, Algorithm 5).
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
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
#include <numeric>
#include <string>
#include <vector>

namespace nldr {

/// Which of seed 000's two readings of Algorithm 5 decides.
enum class GaussianRule {
  /// Default: keep neighbor j of i iff ||x_i - x_j|| <= mu_i + z sigma_i.
  spread,
  /// The seed's literal variant: score every candidate by the fitted normal density at its
  /// radial distance and keep the ceil(keep_fraction * k) best ("k' = 0.68 k").
  most_probable,
};

/// Options of GaussianPruned (seed 000 defaults).
struct GaussianPrunedOptions {
  GaussianRule rule = GaussianRule::spread;
  /// `spread`: how many standard deviations above the mean a radial distance may lie; finite.
  double z = 1.0;
  /// `most_probable`: fraction of each candidate list kept, 0 < keep_fraction <= 1 (0.68:
  /// the mass of a normal within one sigma, the seed's "3-sigma rule" argument).
  double keep_fraction = 0.68;
  /// Neighbors every point keeps at least (nearest candidates first), >= 1.
  index_t min_neighbors = 1;
  /// Re-add the shortest pruned candidates that rejoin components split by pruning.
  bool reconnect = true;
};

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
/// Cost: O(N k^2 D), parallel over points.
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
    if (!std::isfinite(options.z)) throw_invalid("z", "z = ", options.z, " must be finite (seed 000's rule uses 1)");
    if (!(options.keep_fraction > 0 && options.keep_fraction <= 1))
      throw_invalid("keep_fraction", "keep_fraction = ", options.keep_fraction,
                    " must lie in (0, 1] (seed 000 keeps k' = 0.68 k)");
    detail::validate_min_neighbors(options.min_neighbors);
    const NeighborGraph<T> graph = detail::candidate_graph(candidates, X);
    const PointsRef<T> ref(X.derived());
    const detail::PointRows<T> rows(ref);
    const index_t n = graph.size();
    const auto offsets = graph.offsets();
    const auto indices = graph.indices();
    for (index_t i = 0; i < n; ++i)
      if (graph.degree(i) < 2)
        throw_invalid("candidates", "point ", i, " has ", graph.degree(i),
                      " candidate(s), but a normal distribution needs >= 2 neighbors (1 pairwise distance): "
                      "give the candidate selector k >= 2");

    std::vector<unsigned char> keep(indices.size(), 0);
    parallel_for(0, n, [&](std::int64_t i) {
      const index_t k = graph.degree(index_t(i));
      const auto list = graph.neighbors(index_t(i));
      std::vector<double> pairwise;
      pairwise.reserve(std::size_t(k) * std::size_t(k - 1) / 2);
      for (index_t a = 0; a < k; ++a)
        for (index_t b = a + 1; b < k; ++b)
          pairwise.push_back(detail::distance_in_double(rows.row(list[a]), rows.row(list[b]), rows.cols));
      const double mu = std::accumulate(pairwise.begin(), pairwise.end(), 0.0) / double(pairwise.size());
      double variance = 0;
      for (double d : pairwise) variance += (d - mu) * (d - mu);
      const double sigma = std::sqrt(variance / double(pairwise.size()));

      std::vector<double> radial(std::size_t(k), 0.0);
      for (index_t a = 0; a < k; ++a) radial[a] = detail::distance_in_double(rows.row(index_t(i)), rows.row(list[a]), rows.cols);
      const offset_t first = offsets[i];
      if (options.rule == GaussianRule::spread) {
        for (index_t a = 0; a < k; ++a) keep[first + a] = radial[a] <= mu + options.z * sigma;
      } else {
        std::vector<index_t> order(static_cast<std::size_t>(k));
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(),
                         [&](index_t p, index_t q) { return std::abs(radial[p] - mu) < std::abs(radial[q] - mu); });
        const index_t kept = detail::ceil_fraction(options.keep_fraction, k);
        for (index_t r = 0; r < kept; ++r) keep[first + order[r]] = 1;
      }
    });
    const std::vector<offset_t> reverse = detail::reverse_entries(graph);
    const std::string rule = options.rule == GaussianRule::spread
                                 ? detail::concat("z=", options.z)
                                 : detail::concat("most_probable, keep_fraction=", options.keep_fraction);
    return detail::assemble_pruned(graph, reverse, std::move(keep), {options.min_neighbors, options.reconnect},
                                   detail::concat("gaussian_pruned(", rule, ") on ", graph.selection().selector));
  }
};

template <class Candidates>
GaussianPruned(Candidates) -> GaussianPruned<Candidates>;
template <class Candidates>
GaussianPruned(Candidates, GaussianPrunedOptions) -> GaussianPruned<Candidates>;

static_assert(NeighborSelector<GaussianPruned<>, float> && NeighborSelector<GaussianPruned<>, double>);

}  // namespace nldr
