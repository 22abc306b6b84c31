// The epsilon-ball graph for a smaller radius, cut from a larger one: what lets a sweep over the radius
// search the neighbors once (docs/tuning.md, "The sweep").
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>
#include <nldr/neighbors/graph.hpp>
#include <nldr/tune/knn_prefix.hpp>

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
  return detail::list_prefixes(
      ball,
      [&](index_t i) {
        const auto lengths = ball.distances(i);
        std::size_t kept = 0;
        while (kept < lengths.size() && double(lengths[kept]) <= radius) ++kept;
        return kept;
      },
      detail::concat("epsilon_ball(radius=", radius, ")"), {NewPointRule::within_radius, 0, radius});
}

}  // namespace nldr
