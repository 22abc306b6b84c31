// The epsilon-ball graph for a smaller radius, cut from a larger one: what lets a sweep over the radius
// search the neighbors once (docs/tuning.md, "The sweep").
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>
#include <nldr/neighbors/graph.hpp>

#include <utility>
#include <vector>

namespace nldr {

/// The entries of every list of `ball` whose distance is <= radius, with `ball` from EpsilonBall{r_max}
/// (no max_neighbors cap) and radius <= r_max. EpsilonBall sorts each list by (distance, index) and
/// admits a pair when its stored distance, widened to double, is <= the radius; the same test on the same
/// stored distances keeps a prefix of each list, so this is exactly EpsilonBall{radius} of the same points
/// (ties at the radius included), and symmetric like it. O(N + edges kept) time and memory.
/// \throws nldr::invalid_argument naming "ball" (a graph that is not symmetric: capped or kNN lists are not
/// the ball's) or "radius" (not finite and > 0).
///
/// \code
/// auto wide = nldr::EpsilonBall{.radius = 2.0}(X);
/// auto g = nldr::radius_prefix(wide, 1.2);     // == nldr::EpsilonBall{.radius = 1.2}(X)
/// \endcode
template <Real T>
NeighborGraph<T> radius_prefix(const NeighborGraph<T>& ball, double radius) {
  if (!ball.is_symmetric())
    throw_invalid("ball", "radius_prefix needs the symmetric graph EpsilonBall returns without max_neighbors; ",
                  "a capped or kNN graph's lists are not the ball's");
  validate_positive(radius, "radius");
  const index_t n = ball.size();
  std::vector<offset_t> offsets(std::size_t(n) + 1);
  std::vector<index_t> indices;
  std::vector<T> distances;
  for (index_t i = 0; i < n; ++i) {
    const auto list = ball.neighbors(i);
    const auto lengths = ball.distances(i);
    std::size_t kept = 0;
    while (kept < lengths.size() && double(lengths[kept]) <= radius) ++kept;
    indices.insert(indices.end(), list.begin(), list.begin() + std::ptrdiff_t(kept));
    distances.insert(distances.end(), lengths.begin(), lengths.begin() + std::ptrdiff_t(kept));
    offsets[std::size_t(i) + 1] = offset_t(indices.size());
  }
  auto graph = NeighborGraph<T>::from_sorted_csr_unchecked(std::move(offsets), std::move(indices),
                                                           std::move(distances), true);
  SelectionReport report;
  report.selector = detail::concat("epsilon_ball(radius=", radius, ")");
  report.candidate_edges = graph.num_edges();
  graph.set_selection(std::move(report));
  return graph;
}

}  // namespace nldr
