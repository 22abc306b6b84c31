// The S-curve family: s-curve and broken-s-curve.
//
// Surface as scikit-learn's make_s_curve: t in [-1.5 pi, 1.5 pi], y in [0, 2],
//   point (sin t, y, sign(t) (cos t - 1)).
// The profile curve is two unit circular arcs of opposite orientation (Xia et al. 2008, sec. 3), so
// its speed is 1 and the arc length from the start is t + 1.5 pi. The surface is developable
// and unrolls to the rectangle [0, 3 pi] x [0, 2]: intrinsic (t + 1.5 pi, y) is isometric.
#pragma once

#include <nldr/core/random.hpp>
#include <nldr/core/types.hpp>
#include <nldr/datasets/dataset.hpp>
#include <nldr/datasets/detail/generation.hpp>
#include <nldr/datasets/geodesic.hpp>

#include <cmath>
#include <numbers>
#include <string>

namespace nldr::datasets {

namespace detail {

/// Fills an S-curve data set with t drawn uniformly outside the open interval `gap`
/// (rejection; an empty gap means the full curve).
template <Real T>
Dataset<T> s_curve_from(const std::string& name, const Options& options, double gap_lo, double gap_hi) {
  constexpr double half = 1.5 * std::numbers::pi;
  Dataset<T> data = sampled_surface<T>(name, options, [&](Random& random) {
    double t = 0, y = 0;
    do {
      t = random.uniform(-half, half);
      y = random.uniform(0, 2);
    } while (t > gap_lo && t < gap_hi);
    return SurfaceSample{{std::sin(t), y, (t < 0 ? -1.0 : 1.0) * (std::cos(t) - 1)}, {t + half, y}, t};
  });
  data.intrinsic_is_isometric = true;
  data.geodesic = FlatGeodesic{};
  return data;
}

}  // namespace detail

/// S-curve (scikit-learn's make_s_curve; Xia et al. 2008, fig. 1d): t ~ U[-1.5 pi, 1.5 pi],
/// y ~ U[0, 2], point (sin t, y, sign(t)(cos t - 1)). Intrinsic (t + 1.5 pi, y), isometric;
/// parameter t. n >= 1.
template <Real T = double>
Dataset<T> s_curve(const Options& options = {}) {
  return detail::s_curve_from<T>("s-curve", options, 0.0, 0.0);
}

/// Broken S-curve (Xia et al. 2008, fig. 1a, which gives no formula; our definition): the S-curve
/// without the band t in (-0.15 pi, 0.15 pi), a tenth of its length at the inflection, so
/// the sample is two pieces about 0.93 apart in space. Intrinsic (t + 1.5 pi, y) as for the
/// S-curve; its Euclidean distances are the distances on the unbroken S-surface the pieces
/// are cut from (within the sample itself the pieces are disconnected). Parameter t. n >= 1.
template <Real T = double>
Dataset<T> broken_s_curve(const Options& options = {}) {
  constexpr double gap = 0.15 * std::numbers::pi;
  return detail::s_curve_from<T>("broken-s-curve", options, -gap, gap);
}

}  // namespace nldr::datasets
