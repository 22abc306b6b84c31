// Exact manifold (geodesic) distances of the generated data sets, as functions of two
// rows of the data set's intrinsic coordinates.
//
// Each model states which intrinsic coordinates it expects. A data set carries one model
// (`Dataset::geodesic`); `NoGeodesic` marks the sets without a closed form (twin peaks,
// Gaussian, Mobius strip, 3-D clusters), whose geodesics must be estimated from a graph.
#pragma once

#include <nldr/core/error.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <numbers>
#include <span>
#include <string>
#include <variant>

namespace nldr::datasets {

/// No closed-form manifold distance; `reason` says why and what to use instead.
/// Calling it throws nldr::error with that reason.
struct NoGeodesic {
  static constexpr int dimension = 0;  ///< intrinsic columns expected (0: any)
  std::string reason;
  double operator()(std::span<const double>, std::span<const double>) const { throw error(reason); }
};

/// Intrinsic coordinates of a developable surface whose unrolled domain is convex (any
/// dimension m >= 1): the geodesic distance is the Euclidean distance between the rows.
struct FlatGeodesic {
  static constexpr int dimension = 0;  ///< any m >= 1
  double operator()(std::span<const double> a, std::span<const double> b) const {
    double sum = 0;
    for (std::size_t k = 0; k < a.size(); ++k) sum += (a[k] - b[k]) * (a[k] - b[k]);
    return std::sqrt(sum);
  }
};

/// 2-D intrinsic coordinates of a flat convex domain with an open rectangular hole
/// (lower, upper) strictly inside it (Swiss hole, the Swiss roll with a missing strip).
/// A shortest path avoiding a polygonal obstacle is a polyline whose inner vertices are
/// obstacle corners (Lozano-Perez & Wesley 1979, visibility graph): the distance is the
/// straight segment when it misses the hole, else the shortest p -> corner a -> ... ->
/// corner b -> q over corners visible from p and q.
class RectangularHoleGeodesic {
 public:
  using Point = std::array<double, 2>;
  static constexpr int dimension = 2;

  /// `lower` < `upper` componentwise: the hole is (lower[0], upper[0]) x (lower[1], upper[1]).
  RectangularHoleGeodesic(Point lower, Point upper) : lower_(lower), upper_(upper) {
    if (!(lower[0] < upper[0] && lower[1] < upper[1]))
      throw_invalid("hole", "hole (", lower[0], ", ", lower[1], ") - (", upper[0], ", ", upper[1],
                    ") must have lower < upper in both coordinates");
    tolerance_ = 1e-9 * std::max(upper[0] - lower[0], upper[1] - lower[1]);
    corner_ = {Point{lower[0], lower[1]}, Point{upper[0], lower[1]}, Point{upper[0], upper[1]},
               Point{lower[0], upper[1]}};
    // Corner-to-corner shortest paths (Floyd-Warshall on the 4 corners): along the edges,
    // never through the hole.
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b)
        corner_distance_[a][b] = a == b ? 0.0
                                 : visible(corner_[a], corner_[b])
                                     ? length(corner_[a], corner_[b])
                                     : std::numeric_limits<double>::infinity();
    for (int via = 0; via < 4; ++via)
      for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b)
          corner_distance_[a][b] =
              std::min(corner_distance_[a][b], corner_distance_[a][via] + corner_distance_[via][b]);
  }

  const Point& lower() const noexcept { return lower_; }
  const Point& upper() const noexcept { return upper_; }

  /// True when (x, y) lies in the open hole.
  bool in_hole(double x, double y) const noexcept {
    return x > lower_[0] && x < upper_[0] && y > lower_[1] && y < upper_[1];
  }

  /// Geodesic distance between two 2-D intrinsic rows outside the hole.
  double operator()(std::span<const double> a, std::span<const double> b) const {
    const Point p{a[0], a[1]}, q{b[0], b[1]};
    if (visible(p, q)) return length(p, q);
    double best = std::numeric_limits<double>::infinity();
    for (int i = 0; i < 4; ++i) {
      if (!visible(p, corner_[i])) continue;
      const double to_corner = length(p, corner_[i]);
      for (int j = 0; j < 4; ++j)
        if (visible(corner_[j], q))
          best = std::min(best, to_corner + corner_distance_[i][j] + length(corner_[j], q));
    }
    return best;
  }

 private:
  static double length(const Point& a, const Point& b) { return std::hypot(a[0] - b[0], a[1] - b[1]); }

  // True when segment ab does not pass through the open hole. Liang-Barsky clipping
  // (Liang & Barsky 1984) gives the part of ab inside the closed rectangle; since the
  // rectangle is convex, that part lies in the open interior unless it runs along an edge,
  // which its midpoint tells. The tolerance keeps segments that end at a corner visible.
  bool visible(const Point& a, const Point& b) const {
    double enter = 0, leave = 1;
    for (int k = 0; k < 2; ++k) {
      const double step = b[k] - a[k];
      if (step == 0) {
        if (a[k] <= lower_[k] || a[k] >= upper_[k]) return true;
        continue;
      }
      double t0 = (lower_[k] - a[k]) / step, t1 = (upper_[k] - a[k]) / step;
      if (t0 > t1) std::swap(t0, t1);
      enter = std::max(enter, t0);
      leave = std::min(leave, t1);
      if (enter >= leave) return true;
    }
    const double mid = 0.5 * (enter + leave);
    const double x = a[0] + mid * (b[0] - a[0]), y = a[1] + mid * (b[1] - a[1]);
    return !(x > lower_[0] + tolerance_ && x < upper_[0] - tolerance_ && y > lower_[1] + tolerance_ &&
             y < upper_[1] - tolerance_);
  }

  Point lower_, upper_;
  double tolerance_ = 0;
  std::array<Point, 4> corner_{};
  std::array<std::array<double, 4>, 4> corner_distance_{};
};

/// The unit sphere without the open polar cap z > z_max (0 < z_max < 1), intrinsic rows
/// being stereographic coordinates (u, v) = (x, y) / (1 - z) from the north pole.
/// The distance is the great-circle distance when the minor great-circle arc avoids the
/// cap. Otherwise the shortest path wraps around the (geodesically convex) cap: a
/// great-circle arc from p tangent to the rim, along the rim, and a tangent arc to q.
/// With alpha0 the cap's angular radius (cos alpha0 = z_max) and alpha_p the polar angle
/// of p, the right spherical triangle (pole, tangent point, p) gives (Napier's rules) the
/// tangent length l_p = acos(cos alpha_p / cos alpha0) and the angle at the pole
/// beta_p = acos(tan alpha0 / tan alpha_p); the rim arc has length sin(alpha0) * angle.
class PuncturedSphereGeodesic {
 public:
  using Point = std::array<double, 3>;
  static constexpr int dimension = 2;

  explicit PuncturedSphereGeodesic(double z_max) : z_max_(z_max) {
    if (!(z_max > 0 && z_max < 1))
      throw_invalid("z_max", "z_max = ", z_max, " must lie in (0, 1): the cap must be smaller than a hemisphere");
    rim_radius_ = std::sqrt(1 - z_max * z_max);
  }

  double z_max() const noexcept { return z_max_; }

  /// Stereographic coordinates (from the north pole) of a point on the unit sphere, z < 1.
  static std::array<double, 2> to_stereographic(const Point& p) { return {p[0] / (1 - p[2]), p[1] / (1 - p[2])}; }

  /// Inverse: the point of the unit sphere with stereographic coordinates (u, v).
  static Point from_stereographic(double u, double v) {
    const double r2 = u * u + v * v;
    return {2 * u / (r2 + 1), 2 * v / (r2 + 1), (r2 - 1) / (r2 + 1)};
  }

  /// Geodesic distance between two rows of stereographic coordinates outside the cap.
  double operator()(std::span<const double> a, std::span<const double> b) const {
    const Point p = from_stereographic(a[0], a[1]), q = from_stereographic(b[0], b[1]);
    const Point n = cross(p, q);
    const double sine = std::sqrt(dot(n, n));
    const double direct = std::atan2(sine, dot(p, q));
    if (!minor_arc_enters_cap(p, q, n, sine)) return direct;
    // The major arc avoids the cap here (z along a great circle peaks once, inside the minor arc).
    double best = 2 * std::numbers::pi - direct;
    const double lp = tangent_length(p[2]), lq = tangent_length(q[2]);
    const double bp = tangent_angle(p[2]), bq = tangent_angle(q[2]);
    const double turn = std::fmod(std::abs(std::atan2(p[1], p[0]) - std::atan2(q[1], q[0])), 2 * std::numbers::pi);
    for (const double around : {turn, 2 * std::numbers::pi - turn})
      if (around >= bp + bq) best = std::min(best, lp + lq + rim_radius_ * (around - bp - bq));
    return best;
  }

 private:
  static Point cross(const Point& a, const Point& b) {
    return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
  }
  static double dot(const Point& a, const Point& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
  static double clamp_unit(double x) { return std::clamp(x, -1.0, 1.0); }

  // The highest point of the great circle through p and q is the normalized projection c
  // of the pole onto its plane, at height sqrt(1 - n_z^2); the minor arc reaches it iff c
  // lies between p and q. Antipodal p, q: some half great circle through them stays below
  // max(|p_z|) <= z_max, so the distance is pi (returned as the direct value).
  bool minor_arc_enters_cap(const Point& p, const Point& q, const Point& n, double sine) const {
    if (sine < 1e-14) return false;
    const Point unit{n[0] / sine, n[1] / sine, n[2] / sine};
    const double height = std::sqrt(std::max(0.0, 1 - unit[2] * unit[2]));
    if (height <= z_max_) return false;
    const Point c{-unit[2] * unit[0] / height, -unit[2] * unit[1] / height, (1 - unit[2] * unit[2]) / height};
    return dot(cross(p, c), unit) >= 0 && dot(cross(c, q), unit) >= 0;
  }
  double tangent_length(double z) const { return std::acos(clamp_unit(z / z_max_)); }
  double tangent_angle(double z) const {
    const double tan_cap = rim_radius_ / z_max_;
    const double sin_polar = std::sqrt(std::max(1e-300, 1 - z * z));
    return std::acos(clamp_unit(tan_cap * z / sin_polar));
  }

  double z_max_ = 0, rim_radius_ = 0;
};

/// 1-D intrinsic coordinate = arc length s in [0, length) along a closed curve: the
/// distance is the shorter way round, min(|s_a - s_b|, length - |s_a - s_b|).
struct ClosedCurveGeodesic {
  static constexpr int dimension = 1;
  double length = 0;
  double operator()(std::span<const double> a, std::span<const double> b) const {
    const double along = std::abs(a[0] - b[0]);
    return std::min(along, length - along);
  }
};

/// The manifold-distance model of a data set.
using Geodesic =
    std::variant<NoGeodesic, FlatGeodesic, RectangularHoleGeodesic, PuncturedSphereGeodesic, ClosedCurveGeodesic>;

}  // namespace nldr::datasets
