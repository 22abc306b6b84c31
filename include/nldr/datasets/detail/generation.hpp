// Steps shared by every generator: option checks, allocation, noise.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/random.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/core/types.hpp>
#include <nldr/datasets/dataset.hpp>

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

}  // namespace nldr::datasets::detail
