// Steps shared by every generator: option checks, allocation, noise, and the loop of the surfaces
// drawn point by point.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/random.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/core/types.hpp>
#include <nldr/datasets/dataset.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <string>

namespace nldr::datasets::detail {

/// Checks `options` for the set `name`, which needs at least `min_points` points.
inline void validate_options(const Options& options, const std::string& name, index_t min_points = 1) {
  if (options.n < min_points)
    throw_invalid("n", "n = ", options.n, " must be >= ", min_points, " for data set ", name,
                  ": ask for more points");
  if (!(std::isfinite(options.noise) && options.noise >= 0))
    throw_invalid("noise", "noise = ", options.noise,
                  " must be finite and >= 0 (it is the standard deviation of the Gaussian noise)");
}

/// Validates `options` and allocates an N x ambient / N x intrinsic_dim data set.
template <Real T>
Dataset<T> allocate(const std::string& name, const Options& options, Eigen::Index ambient, Eigen::Index intrinsic_dim,
                    index_t min_points = 1) {
  validate_options(options, name, min_points);
  const auto n = std::uint64_t(options.n);
  check_memory(n * std::uint64_t(ambient + intrinsic_dim + 1) * sizeof(T), "data set " + name,
               "generate fewer points");
  Dataset<T> data;
  data.name = name;
  data.points.resize(options.n, ambient);
  data.intrinsic.resize(options.n, intrinsic_dim);
  data.parameter.resize(options.n);
  return data;
}

/// Adds N(0, noise^2) to every coordinate of `points`, after all clean points are drawn,
/// so that the same seed gives the same clean manifold for every noise level.
template <Real T>
void add_noise(Matrix<T>& points, double noise, Random& random) {
  if (noise == 0) return;
  for (Eigen::Index i = 0; i < points.rows(); ++i)
    for (Eigen::Index k = 0; k < points.cols(); ++k) points(i, k) += T(noise * random.normal());
}

/// One point of a 2-D surface in 3-D: where it lies, its chart coordinates (the data set's
/// intrinsic ones) and its parameter.
struct SurfaceSample {
  std::array<double, 3> point;
  std::array<double, 2> chart;
  double parameter;
};

/// A surface data set drawn point by point from one seeded stream: sample(random) gives each
/// point's SurfaceSample; then the noise (add_noise). The caller sets the geodesics.
template <Real T, class Sample>
Dataset<T> sampled_surface(const std::string& name, const Options& options, Sample&& sample) {
  Dataset<T> data = allocate<T>(name, options, 3, 2);
  Random random(options.seed);
  for (index_t i = 0; i < options.n; ++i) {
    const SurfaceSample s = sample(random);
    data.points.row(i) << T(s.point[0]), T(s.point[1]), T(s.point[2]);
    data.intrinsic.row(i) << T(s.chart[0]), T(s.chart[1]);
    data.parameter(i) = T(s.parameter);
  }
  add_noise(data.points, options.noise, random);
  return data;
}

}  // namespace nldr::datasets::detail
