// clusters-3d: compact 3-D clusters joined by straight chains of points
// (Roy 2015, ch. 4; Wittman's mani.m "3D Clusters", also in van der Maaten's drtoolbox).
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/random.hpp>
#include <nldr/core/types.hpp>
#include <nldr/datasets/dataset.hpp>
#include <nldr/datasets/detail/generation.hpp>
#include <nldr/datasets/geodesic.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

namespace nldr::datasets {

/// Points on the chain between two consecutive cluster centers (at 0.1, 0.2, ..., 0.9 of the way).
inline constexpr index_t clusters_3d_bridge_points = 9;

/// Smallest n clusters_3d accepts for `clusters` clusters: the bridges plus one point per cluster.
inline constexpr index_t clusters_3d_min_points(index_t clusters) {
  return clusters_3d_bridge_points * (clusters - 1) + clusters;
}

/// 3-D clusters as mani.m: `clusters` centers ~ U[0, 10]^3; each cluster is uniform in the
/// cube of side m / sqrt(12) around its center (m = smallest distance between centers, so
/// the cubes never touch); consecutive centers are joined by 9 evenly spaced bridge points.
/// Order: cluster 1, bridge 1-2, cluster 2, ... . The n - 9 (clusters - 1) cluster points are
/// split evenly (the first clusters get one more; mani.m rounds up and overshoots n).
/// labels: cluster c in 1..clusters, bridge points 0. There is no lower-dimensional truth:
/// intrinsic holds the noise-free 3-D points (N x 3) and the labels are the ground truth;
/// no manifold distances. Parameter: the label. clusters >= 1, n >= 10 clusters - 9.
template <Real T = double>
Dataset<T> clusters_3d(const Options& options = {}, index_t clusters = 3) {
  if (clusters < 1) throw_invalid("clusters", "clusters = ", clusters, " must be >= 1");
  if (clusters > (std::numeric_limits<index_t>::max() - clusters_3d_bridge_points) / (clusters_3d_bridge_points + 1))
    throw_invalid("clusters", "clusters = ", clusters, " is too large: lower it");
  Dataset<T> data = detail::allocate<T>("clusters-3d", options, 3, 3, clusters_3d_min_points(clusters));
  Random random(options.seed);
  std::vector<std::array<double, 3>> center(std::size_t(clusters), std::array<double, 3>{});
  for (auto& c : center)
    for (double& x : c) x = random.uniform(0, 10);
  double nearest = std::numeric_limits<double>::infinity();
  for (std::size_t a = 0; a < center.size(); ++a)
    for (std::size_t b = a + 1; b < center.size(); ++b)
      nearest = std::min(nearest, std::hypot(center[a][0] - center[b][0], center[a][1] - center[b][1],
                                             center[a][2] - center[b][2]));
  if (clusters == 1) nearest = 10;  // no pair: the cube side of a lone cluster, as for centers 10 apart
  const double side = nearest / std::sqrt(12.0);

  data.labels.resize(std::size_t(options.n));
  const index_t in_clusters = options.n - clusters_3d_bridge_points * (clusters - 1);
  index_t row = 0;
  const auto put = [&](const std::array<double, 3>& p, int label) {
    data.points.row(row) << T(p[0]), T(p[1]), T(p[2]);
    data.labels[std::size_t(row)] = label;
    data.parameter(row) = T(label);
    ++row;
  };
  for (index_t c = 0; c < clusters; ++c) {
    const auto& home = center[std::size_t(c)];
    const index_t size = in_clusters / clusters + (c < in_clusters % clusters ? 1 : 0);
    for (index_t j = 0; j < size; ++j)
      put({home[0] + (random.uniform() - 0.5) * side, home[1] + (random.uniform() - 0.5) * side,
           home[2] + (random.uniform() - 0.5) * side},
          int(c + 1));
    if (c + 1 == clusters) break;
    const auto& next = center[std::size_t(c + 1)];
    for (index_t k = 1; k <= clusters_3d_bridge_points; ++k) {
      const double f = 0.1 * double(k);
      put({home[0] + (next[0] - home[0]) * f, home[1] + (next[1] - home[1]) * f, home[2] + (next[2] - home[2]) * f}, 0);
    }
  }
  data.intrinsic = data.points;
  detail::add_noise(data.points, options.noise, random);
  data.geodesic = NoGeodesic{"clusters-3d mixes 3-D clusters with 1-D chains and has no manifold distance; "
                             "use its labels as ground truth"};
  return data;
}

}  // namespace nldr::datasets
