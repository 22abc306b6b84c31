// A low-dimensional manifold with known coordinates in high dimension, for benchmarks of the
// high-dimensional neighbor search at scale (docs/datasets.md, "swiss_roll_features").
//
// Not in the tool's list of data sets (registry.hpp), whose sets are 3-D and small enough for a
// CSV file: this one is meant to be generated in memory (10^6 x 100 is 1.7 GB as text).
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/random.hpp>
#include <nldr/core/types.hpp>
#include <nldr/datasets/dataset.hpp>
#include <nldr/datasets/detail/generation.hpp>
#include <nldr/datasets/swiss_roll.hpp>

#include <cmath>
#include <numbers>

namespace nldr::datasets {

/// The Swiss roll (swiss_roll(): t ~ U[1.5 pi, 4.5 pi], h ~ U[0, 21], p = (t cos t, h, t sin t))
/// carried into `ambient` dimensions by random Fourier features (Rahimi & Recht 2007):
///   x_c = length_scale sqrt(2 / ambient) cos(w_c . p + b_c),  w_c ~ N(0, I / length_scale^2),
///   b_c ~ U[0, 2 pi),  c = 1..ambient,
/// then N(0, noise^2) added to every coordinate. In expectation over the features
/// |x(p) - x(q)|^2 = 2 length_scale^2 (1 - exp(-|p - q|^2 / (2 length_scale^2))): nearly the roll's
/// own distance for |p - q| << length_scale (a smooth, locally near-isometric, nonlinear
/// embedding), saturating at length_scale sqrt 2 for far points. With the default length scale 4
/// the roll's turns (2 pi apart) stay 4.8 apart in R^ambient, far more than the spacing of 10^6
/// points, so neighborhoods are the roll's. Intrinsic coordinates (s(t), h) as for swiss-roll
/// (not isometric to the embedded manifold; no closed-form manifold distances); parameter t.
/// Seeded: same options, same data. Cost O(N ambient); memory N (ambient + 3) sizeof(T).
/// \throws nldr::invalid_argument naming "n", "noise", "ambient" (< 3) or "length_scale" (not > 0).
template <Real T = double>
Dataset<T> swiss_roll_features(const Options& options = {}, Eigen::Index ambient = 100, double length_scale = 4) {
  if (ambient < 3)
    throw_invalid("ambient", "ambient = ", ambient, " must be >= 3 (the roll lives in 3-D; 100 is the usual choice)");
  if (!(std::isfinite(length_scale) && length_scale > 0))
    throw_invalid("length_scale", "length_scale = ", length_scale, " must be finite and > 0");
  Dataset<T> data = detail::allocate<T>("swiss-roll-features", options, ambient, 2);
  Random random(options.seed);
  Eigen::MatrixXd frequencies(3, ambient);  // w_c in column c
  Eigen::RowVectorXd phases(ambient);
  for (Eigen::Index c = 0; c < ambient; ++c) {
    for (Eigen::Index r = 0; r < 3; ++r) frequencies(r, c) = random.normal() / length_scale;
    phases(c) = random.uniform(0, 2 * std::numbers::pi);
  }
  const double amplitude = length_scale * std::sqrt(2.0 / double(ambient));
  using Shape = detail::SwissRollShape;
  for (index_t i = 0; i < options.n; ++i) {
    const double t = random.uniform(Shape::t_min, Shape::t_max), h = random.uniform(0, Shape::height);
    const Eigen::RowVector3d p(t * std::cos(t), h, t * std::sin(t));
    data.points.row(i) = (amplitude * ((p * frequencies + phases).array().cos())).template cast<T>();
    data.intrinsic.row(i) << T(swiss_roll_arc_length(t)), T(h);
    data.parameter(i) = T(t);
  }
  detail::add_noise(data.points, options.noise, random);
  return data;
}

}  // namespace nldr::datasets
