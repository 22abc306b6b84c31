// toroidal-helix: a closed 1-D curve winding around a torus (Coifman & Lafon 2006, as in
// Wittman's mani.m and van der Maaten's drtoolbox; Roy 2015, ch. 4).
#pragma once

#include <nldr/core/random.hpp>
#include <nldr/core/types.hpp>
#include <nldr/datasets/dataset.hpp>
#include <nldr/datasets/detail/generation.hpp>
#include <nldr/datasets/geodesic.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <numbers>

namespace nldr::datasets {

namespace detail {

/// Cosine series of the helix speed |c'(t)| = g(8 t), g(theta) = sqrt(64 + (2 + cos theta)^2)
/// (|c'|^2 = (r w)^2 + (R + r cos wt)^2 with R = 2, r = 1, w = 8). g is periodic and analytic
/// in a strip around the real axis, so its coefficients fall geometrically (about 8x per
/// term: a_1 = 0.24, a_10 = 2e-13) and the trapezoid rule on 64 nodes computes them to
/// rounding error (Trefethen & Weideman 2014, sec. 3); 20 terms leave an error near 1e-15.
inline const std::array<double, 21>& helix_speed_series() {
  static const std::array<double, 21> coefficients = [] {
    constexpr int nodes = 64;
    std::array<double, 21> a{};
    for (int j = 0; j < nodes; ++j) {
      const double theta = 2 * std::numbers::pi * j / nodes;
      const double g = std::sqrt(64 + (2 + std::cos(theta)) * (2 + std::cos(theta)));
      for (std::size_t k = 0; k < a.size(); ++k) a[k] += g * std::cos(double(k) * theta) * (k == 0 ? 1.0 : 2.0) / nodes;
    }
    return a;
  }();
  return coefficients;
}

}  // namespace detail

/// Arc length of the toroidal helix c(t) = ((2 + cos 8t) cos t, (2 + cos 8t) sin t, sin 8t)
/// from 0 to t (any real t): s(t) = a_0 t + sum_k a_k sin(8 k t) / (8 k), the integral of
/// the speed's cosine series. No elementary closed form (it is an elliptic integral).
inline double toroidal_helix_arc_length(double t) {
  const auto& a = detail::helix_speed_series();
  double s = a[0] * t;
  for (std::size_t k = 1; k < a.size(); ++k) s += a[k] * std::sin(8.0 * double(k) * t) / (8.0 * double(k));
  return s;
}

/// Length of the closed toroidal helix, s(2 pi) = 51.9914071....
inline double toroidal_helix_length() { return toroidal_helix_arc_length(2 * std::numbers::pi); }

/// Toroidal helix: t ~ U[0, 2 pi), point ((2 + cos 8t) cos t, (2 + cos 8t) sin t, sin 8t).
/// mani.m and drtoolbox space t evenly (and mani.m adds noise 0.05); we draw t at random
/// so that the sample is i.i.d. and the seed matters, and add noise only when asked.
/// Intrinsic: the 1-D arc length s(t) in [0, L), L = toroidal_helix_length(); not isometric
/// (the curve is closed), but manifold_distances() is exact: min(|ds|, L - |ds|).
/// Parameter t. n >= 1.
template <Real T = double>
Dataset<T> toroidal_helix(const Options& options = {}) {
  Dataset<T> data = detail::allocate<T>("toroidal-helix", options, 3, 1);
  Random random(options.seed);
  for (index_t i = 0; i < options.n; ++i) {
    const double t = random.uniform(0, 2 * std::numbers::pi);
    const double ring = 2 + std::cos(8 * t);
    data.points.row(i) << T(ring * std::cos(t)), T(ring * std::sin(t)), T(std::sin(8 * t));
    data.intrinsic(i, 0) = T(toroidal_helix_arc_length(t));
    data.parameter(i) = T(t);
  }
  detail::add_noise(data.points, options.noise, random);
  data.geodesic = ClosedCurveGeodesic{toroidal_helix_length()};
  return data;
}

}  // namespace nldr::datasets
