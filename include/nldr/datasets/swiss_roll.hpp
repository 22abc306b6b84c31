// The Swiss roll family: swiss-roll, swiss-hole, nonuniform-swiss-roll.
//
// All three lie on the same surface (scikit-learn's make_swiss_roll, Roweis & Saul 2000):
//   x = t cos t,  y = h,  z = t sin t,   t in [1.5 pi, 4.5 pi], h in [0, 21].
// The surface is developable: unrolled, it is the rectangle [s(1.5 pi), s(4.5 pi)] x [0, 21]
// with s(t) the arc length of the spiral r = t (Xia et al. 2008, eq. 3). Intrinsic coordinates are
// (s(t), h), so Euclidean distances between them are manifold distances (for the sets with
// a hole, geodesics bend around it: RectangularHoleGeodesic).
#pragma once

#include <nldr/core/random.hpp>
#include <nldr/core/types.hpp>
#include <nldr/datasets/dataset.hpp>
#include <nldr/datasets/detail/generation.hpp>
#include <nldr/datasets/geodesic.hpp>

#include <cmath>
#include <numbers>
#include <string>
#include <utility>

namespace nldr::datasets {

/// Arc length of the spiral (t cos t, t sin t) from t = 0 (Xia et al. 2008, eq. 3):
/// s(t) = (t sqrt(t^2 + 1) + asinh t) / 2, since the speed is sqrt(1 + t^2). Any real t.
inline double swiss_roll_arc_length(double t) { return 0.5 * (t * std::sqrt(t * t + 1) + std::asinh(t)); }

namespace detail {

struct SwissRollShape {
  static constexpr double t_min = 1.5 * std::numbers::pi;
  static constexpr double t_max = 4.5 * std::numbers::pi;
  static constexpr double height = 21.0;
};

/// Fills a Swiss-roll data set from `draw(random) -> (t, h)`, then adds the noise.
template <Real T, class Draw>
Dataset<T> swiss_roll_from(const std::string& name, const Options& options, Draw&& draw) {
  return sampled_surface<T>(name, options, [&](Random& random) {
    const auto [t, h] = draw(random);
    return SurfaceSample{{t * std::cos(t), h, t * std::sin(t)}, {swiss_roll_arc_length(t), h}, t};
  });
}

/// The unrolled hole (t_lo, t_hi) x (h_lo, h_hi) in intrinsic (arc length, height) coordinates.
inline RectangularHoleGeodesic unrolled_hole(double t_lo, double t_hi, double h_lo, double h_hi) {
  return RectangularHoleGeodesic({swiss_roll_arc_length(t_lo), h_lo}, {swiss_roll_arc_length(t_hi), h_hi});
}

}  // namespace detail

/// Swiss roll as scikit-learn's make_swiss_roll and Tenenbaum et al. (2000): t ~ U[1.5 pi,
/// 4.5 pi], h ~ U[0, 21], point (t cos t, h, t sin t). Uniform in t, so the density per unit
/// area falls like 1 / sqrt(1 + t^2) towards the outer turn (3x over the roll).
/// Intrinsic (s(t), h), isometric; parameter t. n >= 1.
template <Real T = double>
Dataset<T> swiss_roll(const Options& options = {}) {
  using Shape = detail::SwissRollShape;
  Dataset<T> data = detail::swiss_roll_from<T>("swiss-roll", options, [](Random& random) {
    const double t = random.uniform(Shape::t_min, Shape::t_max);
    return std::pair{t, random.uniform(0, Shape::height)};
  });
  data.intrinsic_is_isometric = true;
  data.geodesic = FlatGeodesic{};
  return data;
}

/// Swiss hole (Roy 2015, fig. 1.5; Donoho & Grimes 2003, as in Wittman's mani.m): the Swiss
/// roll without the open rectangle t in (9, 12), h in (9, 14) (drawn by rejection).
/// Intrinsic (s(t), h) but NOT isometric: geodesics bend around the hole, which
/// manifold_distances() accounts for exactly. Parameter t. n >= 1.
template <Real T = double>
Dataset<T> swiss_hole(const Options& options = {}) {
  using Shape = detail::SwissRollShape;
  const auto in_hole = [](double t, double h) { return t > 9 && t < 12 && h > 9 && h < 14; };
  Dataset<T> data = detail::swiss_roll_from<T>("swiss-hole", options, [&](Random& random) {
    for (;;) {
      const double t = random.uniform(Shape::t_min, Shape::t_max), h = random.uniform(0, Shape::height);
      if (!in_hole(t, h)) return std::pair{t, h};
    }
  });
  data.geodesic = detail::unrolled_hole(9, 12, 9, 14);
  return data;
}

/// Non-uniformly sampled Swiss roll with a missing rectangular strip (Xia et al. 2008, fig. 5,
/// which uses n = 450; the paper gives no formula, so this is our definition):
/// t has the truncated exponential density ~ exp(-ln(8) (t - t_min) / (t_max - t_min)) on
/// [1.5 pi, 4.5 pi] (8x denser at the inner end in t, about 24x per unit area), h ~ U[0, 21],
/// and the open strip t in (2.9 pi, 3.1 pi), h in (3, 18) is empty (rejection). Intrinsic
/// (s(t), h), not isometric (geodesics bend around the strip; manifold_distances() is exact).
/// Parameter t. n >= 1.
template <Real T = double>
Dataset<T> nonuniform_swiss_roll(const Options& options = {}) {
  using Shape = detail::SwissRollShape;
  constexpr double pi = std::numbers::pi;
  const double decay = std::log(8.0), span = Shape::t_max - Shape::t_min;
  const auto in_strip = [&](double t, double h) { return t > 2.9 * pi && t < 3.1 * pi && h > 3 && h < 18; };
  Dataset<T> data = detail::swiss_roll_from<T>("nonuniform-swiss-roll", options, [&](Random& random) {
    for (;;) {
      // Inverse CDF of the truncated exponential on [0, 1].
      const double u = random.uniform();
      const double t = Shape::t_min + span * (-std::log1p(-u * (1 - std::exp(-decay))) / decay);
      const double h = random.uniform(0, Shape::height);
      if (!in_strip(t, h)) return std::pair{t, h};
    }
  });
  data.geodesic = detail::unrolled_hole(2.9 * pi, 3.1 * pi, 3, 18);
  return data;
}

}  // namespace nldr::datasets
