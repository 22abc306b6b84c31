// UMAP's fuzzy simplicial set of a neighbor graph (McInnes, Healy & Melville 2018, sec. 3.1, and
// umap-learn 0.5's smooth_knn_dist, compute_membership_strengths, fuzzy_simplicial_set and
// discrete_metric_simplicial_set_intersection; docs/methods/umap.md).
//
// Point i with list distances d_1 <= ... <= d_m (any selector's graph: m is i's own degree):
//   rho_i   = the distance to its local_connectivity-th nearest non-zero neighbor (interpolated
//             between neighbors for a fractional value);
//   sigma_i solves sum_j exp(-max(0, d_j - rho_i) / sigma_i) = log2(m + 1) by bisection;
//   w_ij    = exp(-max(0, d_ij - rho_i) / sigma_i).
// umap-learn's lists hold the point itself first (its n_neighbors = m + 1 counts it), so log2(m + 1)
// with the sum over the m others is its rule exactly; so is the floor sigma_i >= 1e-3 times the
// mean list distance (the point's own 0 included). The symmetric set is the fuzzy union
// mix (A + A^T - A o A^T) + (1 - mix) A o A^T (o: elementwise product).
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/types.hpp>
#include <nldr/embed/routines/weighted_graph.hpp>
#include <nldr/neighbors/graph.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <span>
#include <vector>

namespace nldr::routines {

/// umap-learn's SMOOTH_K_TOLERANCE and MIN_K_DIST_SCALE.
inline constexpr double smooth_k_tolerance = 1e-5;
inline constexpr double min_k_dist_scale = 1e-3;

/// A point's rho (distance its memberships start to fall from) and sigma (their decay length).
struct SmoothKnn {
  double rho = 0;
  double sigma = 1;
};

/// rho and sigma of a point with ascending list `distances` (the point itself not in it), for
/// `local_connectivity` >= 0; `mean_distance` is the floor's reference where rho = 0 (umap-learn:
/// the mean over every list, the points' own zeros included).
inline SmoothKnn smooth_knn(std::span<const double> distances, double local_connectivity, double mean_distance) {
  SmoothKnn result;
  const std::size_t m = distances.size();
  if (m == 0) return result;
  std::vector<double> non_zero;
  for (double d : distances)
    if (d > 0) non_zero.push_back(d);
  if (double(non_zero.size()) >= local_connectivity) {
    const auto index = std::size_t(std::floor(local_connectivity));
    const double interpolation = local_connectivity - double(index);
    if (index > 0) {
      result.rho = non_zero[index - 1];
      if (interpolation > smooth_k_tolerance) result.rho += interpolation * (non_zero[index] - non_zero[index - 1]);
    } else {
      result.rho = interpolation * non_zero[0];
    }
  } else if (!non_zero.empty()) {
    result.rho = non_zero.back();
  }

  const double target = std::log2(double(m) + 1);
  double lo = 0, hi = std::numeric_limits<double>::infinity(), mid = 1;
  for (int iteration = 0; iteration < 64; ++iteration) {
    double sum = 0;
    for (double d : distances) sum += d - result.rho > 0 ? std::exp(-(d - result.rho) / mid) : 1.0;
    if (std::fabs(sum - target) < smooth_k_tolerance) break;
    if (sum > target) {
      hi = mid;
      mid = (lo + hi) / 2;
    } else {
      lo = mid;
      mid = std::isinf(hi) ? mid * 2 : (lo + hi) / 2;
    }
  }
  result.sigma = mid;
  const double own_mean = std::accumulate(distances.begin(), distances.end(), 0.0) / double(m + 1);
  const double floor = min_k_dist_scale * (result.rho > 0 ? own_mean : mean_distance);
  result.sigma = std::max(result.sigma, floor);
  return result;
}

/// Membership of a neighbor at distance d: 1 up to rho, then exp(-(d - rho) / sigma).
inline double membership(double d, const SmoothKnn& scale) {
  return d - scale.rho <= 0 || scale.sigma == 0 ? 1.0 : std::exp(-(d - scale.rho) / scale.sigma);
}

/// The directed memberships A (row i: i's graph list, ordered by index) and each point's rho and sigma.
struct DirectedMemberships {
  WeightedGraph graph;
  std::vector<SmoothKnn> scales;
};

/// A and the scales of every point of `graph` (rows in parallel; the same for any thread count).
template <Real T>
DirectedMemberships directed_memberships(const NeighborGraph<T>& graph, double local_connectivity) {
  const index_t n = graph.size();
  const auto all = graph.distances();
  double total = 0;
  for (T d : all) total += double(d);
  const double mean_distance = total / double(all.size() + std::size_t(n));
  DirectedMemberships result;
  result.scales.resize(std::size_t(n));
  result.graph.row_offsets.assign(graph.offsets().begin(), graph.offsets().end());
  result.graph.columns.resize(all.size());
  result.graph.values.resize(all.size());
  parallel_for(0, n, [&](std::int64_t i) {
    const auto neighbors = graph.neighbors(index_t(i));
    const auto distances_t = graph.distances(index_t(i));
    const std::vector<double> distances(distances_t.begin(), distances_t.end());
    const SmoothKnn scale = smooth_knn(distances, local_connectivity, mean_distance);
    result.scales[std::size_t(i)] = scale;
    std::vector<std::size_t> order(neighbors.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return neighbors[a] < neighbors[b]; });
    const offset_t begin = graph.offsets()[i];
    for (std::size_t r = 0; r < order.size(); ++r) {
      result.graph.columns[begin + offset_t(r)] = neighbors[order[r]];
      result.graph.values[begin + offset_t(r)] = membership(distances[order[r]], scale);
    }
  });
  return result;
}

/// The fuzzy union of A and A^T: mix (a + b - a b) + (1 - mix) a b, mix = set_op_mix_ratio in [0, 1]
/// (1: union, umap-learn's default; 0: intersection).
inline WeightedGraph fuzzy_union(const WeightedGraph& directed, double set_op_mix_ratio) {
  return combine_with_transpose(directed, [&](double a, double b) {
    const double product = a * b;
    return set_op_mix_ratio * (a + b - product) + (1 - set_op_mix_ratio) * product;
  });
}

/// UMAP's fuzzy simplicial set of `graph` (symmetric, weights in (0, 1]).
template <Real T>
WeightedGraph fuzzy_simplicial_set(const NeighborGraph<T>& graph, double local_connectivity, double set_op_mix_ratio) {
  return fuzzy_union(directed_memberships(graph, local_connectivity).graph, set_op_mix_ratio);
}

/// Supervised UMAP: the intersection of `fuzzy` with the categorical target's simplicial set, as
/// umap-learn's discrete_metric_simplicial_set_intersection: an edge between different labels is
/// scaled by exp(-far), far = 2.5 / (1 - target_weight) (target_weight 1: the edge vanishes), an edge
/// touching an unknown label (-1) by exp(-1); then each point's memberships are rescaled so that its
/// strongest is 1 (umap-learn's reset_local_connectivity) and symmetrized by the fuzzy union.
/// \throws nldr::invalid_argument naming "labels" or "target_weight".
inline WeightedGraph intersect_with_labels(const WeightedGraph& fuzzy, std::span<const index_t> labels,
                                           double target_weight) {
  const index_t n = fuzzy.size();
  if (index_t(labels.size()) != n)
    throw_invalid("labels", "there are ", labels.size(), " labels for ", n, " points: give one per point (-1: unknown)");
  for (std::size_t i = 0; i < labels.size(); ++i)
    if (labels[i] < -1)
      throw_invalid("labels", "label ", labels[i], " of point ", i, " is below -1: labels are categories >= 0, or -1 for unknown");
  if (!(target_weight >= 0 && target_weight <= 1))
    throw_invalid("target_weight", "target_weight = ", target_weight, " must lie in [0, 1]");
  const double far_factor = target_weight < 1 ? std::exp(-2.5 / (1 - target_weight)) : 0.0;
  const double unknown_factor = std::exp(-1.0);
  WeightedGraph scaled;
  for (index_t i = 0; i < n; ++i) {
    const auto neighbors = fuzzy.neighbors(i);
    const auto weights = fuzzy.weights(i);
    std::vector<std::pair<index_t, double>> row;
    for (std::size_t a = 0; a < neighbors.size(); ++a) {
      const index_t j = neighbors[a];
      double w = weights[a];
      if (labels[i] == -1 || labels[j] == -1)
        w *= unknown_factor;
      else if (labels[i] != labels[j])
        w *= far_factor;
      if (w > 0) row.emplace_back(j, w);
    }
    double strongest = 0;
    for (const auto& [j, w] : row) strongest = std::max(strongest, w);
    for (const auto& [j, w] : row) {
      scaled.columns.push_back(j);
      scaled.values.push_back(w / strongest);
    }
    scaled.row_offsets.push_back(offset_t(scaled.columns.size()));
  }
  return fuzzy_union(scaled, 1.0);
}

}  // namespace nldr::routines
