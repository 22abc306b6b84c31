// Curved 2-D surfaces in 3-D: punctured-sphere, twin-peaks, gaussian, mobius
// (Roy 2015, ch. 1 and 4; definitions of Wittman's mani.m where the dissertation only names them).
#pragma once

#include <nldr/core/random.hpp>
#include <nldr/core/types.hpp>
#include <nldr/datasets/dataset.hpp>
#include <nldr/datasets/detail/generation.hpp>
#include <nldr/datasets/geodesic.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <utility>

namespace nldr::datasets {

namespace detail {

/// The surface z = height(x, y) over the plane points (x, y) that draw(random) gives: its graph chart
/// (x, y) is the intrinsic coordinates (not isometric), z the parameter; it has no closed-form
/// geodesics (`no_geodesics` says so).
template <Real T, class Draw, class Height>
Dataset<T> height_surface(const std::string& name, const Options& options, Draw&& draw, Height&& height,
                          const std::string& no_geodesics) {
  Dataset<T> data = sampled_surface<T>(name, options, [&](Random& random) {
    const auto [x, y] = draw(random);
    const double z = height(x, y);
    return SurfaceSample{{x, y, z}, {x, y}, z};
  });
  data.geodesic = NoGeodesic{no_geodesics + "; estimate them with graph shortest paths"};
  return data;
}

}  // namespace detail

/// Height of the puncture: the open cap z > 0.75 of the unit sphere is empty. mani.m's
/// punctured sphere (after Saul & Roweis) ends at about z = 0.73 (in our centering).
inline constexpr double punctured_sphere_z_max = 0.75;

/// Punctured sphere (Roy 2015, fig. 1.4): points uniform by area on the unit sphere minus the
/// polar cap z > 0.75 (Archimedes: z ~ U[-1, 0.75] and azimuth ~ U[0, 2 pi) is uniform by
/// area; mani.m instead lifts a planar grid, which is denser near the cap). Intrinsic:
/// stereographic coordinates (x, y) / (1 - z) from the north pole, a conformal chart of the
/// whole punctured sphere (the disk of radius sqrt(7)); not isometric. manifold_distances()
/// is exact: great-circle distance, or the path around the cap when the arc would cross it.
/// Parameter z. n >= 1.
template <Real T = double>
Dataset<T> punctured_sphere(const Options& options = {}) {
  Dataset<T> data = detail::sampled_surface<T>("punctured-sphere", options, [](Random& random) {
    const double z = random.uniform(-1, punctured_sphere_z_max);
    const double azimuth = random.uniform(0, 2 * std::numbers::pi);
    const double rho = std::sqrt(std::max(0.0, 1 - z * z));
    const PuncturedSphereGeodesic::Point p{rho * std::cos(azimuth), rho * std::sin(azimuth), z};
    return detail::SurfaceSample{p, PuncturedSphereGeodesic::to_stereographic(p), z};
  });
  data.geodesic = PuncturedSphereGeodesic(punctured_sphere_z_max);
  return data;
}

/// Twin peaks (Roy 2015, fig. 1.3; Saul & Roweis, as in mani.m): (x, y) ~ U(-1, 1]^2,
/// point (x, y, sin(pi x) tanh(3 y)). Intrinsic (x, y), the graph chart, not isometric; no
/// closed-form geodesics. Parameter z. n >= 1.
template <Real T = double>
Dataset<T> twin_peaks(const Options& options = {}) {
  return detail::height_surface<T>(
      "twin-peaks", options,
      [](Random& random) {
        const double x = 1 - 2 * random.uniform();
        return std::pair{x, 1 - 2 * random.uniform()};
      },
      [](double x, double y) { return std::sin(std::numbers::pi * x) * std::tanh(3 * y); },
      "twin-peaks is curved in two directions (no closed-form geodesics)");
}

/// Gaussian surface (Roy 2015, fig. 3.3a; mani.m's "Gaussian randomly sampled", sigma = 1):
/// (x, y) ~ N(0, I), point (x, y, exp(-(x^2 + y^2) / 2) / (2 pi)). Intrinsic (x, y), the
/// graph chart, not isometric; no closed-form geodesics; no labels. Parameter z. n >= 1.
template <Real T = double>
Dataset<T> gaussian(const Options& options = {}) {
  return detail::height_surface<T>(
      "gaussian", options,
      [](Random& random) {
        const double x = random.normal();
        return std::pair{x, random.normal()};
      },
      [](double x, double y) { return std::exp(-(x * x + y * y) / 2) / (2 * std::numbers::pi); },
      "the Gaussian surface has no closed-form geodesics");
}

/// Mobius strip (Roy 2015, table 4.4, no formula given; the standard parametrization):
/// u ~ U[0, 2 pi), v ~ U[-1, 1], point ((1 + v/2 cos(u/2)) cos u, (1 + v/2 cos(u/2)) sin u,
/// v/2 sin(u/2)): radius 1, width 1, uniform in (u, v). Intrinsic (u, v): not isometric
/// (this strip is not developable) and not a global chart (the strip is non-orientable:
/// (u + 2 pi, v) is the point (u, -v)); no closed-form geodesics. Parameter u. n >= 1.
template <Real T = double>
Dataset<T> mobius(const Options& options = {}) {
  Dataset<T> data = detail::sampled_surface<T>("mobius", options, [](Random& random) {
    const double u = random.uniform(0, 2 * std::numbers::pi), v = random.uniform(-1, 1);
    const double radius = 1 + 0.5 * v * std::cos(u / 2);
    return detail::SurfaceSample{{radius * std::cos(u), radius * std::sin(u), 0.5 * v * std::sin(u / 2)}, {u, v}, u};
  });
  data.geodesic = NoGeodesic{"the Mobius strip has no closed-form geodesics; estimate them with graph shortest paths"};
  return data;
}

}  // namespace nldr::datasets
