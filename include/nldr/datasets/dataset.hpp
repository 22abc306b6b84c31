// The result of every data set generator: points plus their ground truth.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>
#include <nldr/datasets/geodesic.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace nldr::datasets {

/// What every generator takes.
struct Options {
  index_t n = 2000;        ///< number of points, >= 1 (clusters-3d needs more; the generator says how many)
  double noise = 0.0;      ///< stddev of the Gaussian noise added to every ambient coordinate; finite, >= 0
  std::uint64_t seed = 0;  ///< same seed, same data on every platform (nldr::Random)
};

/// A generated data set with its ground truth. Noise moves `points` only: `intrinsic`,
/// `parameter`, `labels` and the manifold distances describe the noise-free manifold.
///
/// \code
/// auto data = nldr::datasets::swiss_roll({.n = 1000, .seed = 7});
/// Eigen::MatrixXd dm = data.manifold_distances();      // 1000 x 1000, exact
/// \endcode
template <Real T>
struct Dataset {
  std::string name;             ///< the tool's name of the set, e.g. "swiss-roll"
  Matrix<T> points;             ///< N x D sample (D = 3 for every built-in set)
  Matrix<T> intrinsic;          ///< N x m ground-truth intrinsic coordinates (meaning per set: docs/datasets.md)
  Vector<T> parameter;          ///< N raw generating parameter (e.g. the roll angle t), for coloring plots
  std::vector<int> labels;      ///< N class labels where the set has classes (clusters-3d), else empty
  bool intrinsic_is_isometric = false;  ///< Euclidean distances between intrinsic rows ARE manifold distances
  Geodesic geodesic;            ///< exact manifold-distance model on intrinsic rows (NoGeodesic if none)

  /// Number of points N.
  index_t size() const noexcept { return index_t(points.rows()); }

  /// True when manifold_distance(s) have a closed form for this set.
  bool has_manifold_distances() const noexcept { return !std::holds_alternative<NoGeodesic>(geodesic); }

  /// Exact manifold (geodesic) distance between points i and j, 0 <= i, j < N.
  /// Throws nldr::error naming the set when it has no closed form.
  T manifold_distance(index_t i, index_t j) const {
    require_distances();
    for (const index_t index : {i, j})
      if (index < 0 || index >= size())
        throw_invalid("i", "point index ", index, " is out of range [0, ", size(), ") for data set ", name);
    return T(distance_between(std::min(i, j), std::max(i, j)));  // same rounding as the matrix
  }

  /// N x N matrix of exact manifold distances (symmetric, zero diagonal). O(N^2) memory:
  /// refused with nldr::memory_limit_exceeded when it would not fit. Throws nldr::error
  /// naming the set when it has no closed form.
  Matrix<T> manifold_distances() const {
    require_distances();
    const index_t n = size();
    check_memory(std::uint64_t(n) * std::uint64_t(n) * sizeof(T), "the N x N manifold distance matrix",
                 "call manifold_distance(i, j) on the pairs you need, or generate fewer points");
    Matrix<T> out(n, n);
    // Iteration i owns row i's diagonal and the pairs (i, j > i) in both triangles, so every
    // entry has one writer and the matrix is exactly symmetric.
    parallel_for(0, n, [&](std::int64_t i) {
      out(i, i) = T(0);
      for (index_t j = index_t(i) + 1; j < n; ++j) out(i, j) = out(j, i) = T(distance_between(index_t(i), j));
    });
    return out;
  }

 private:
  void require_distances() const {
    if (const auto* none = std::get_if<NoGeodesic>(&geodesic))
      throw error(detail::concat("data set ", name.empty() ? std::string("(unnamed)") : name,
                                 " has no closed-form manifold distances: ", none->reason));
    // Guards hand-assembled data sets: the model reads `dimension` columns of each row.
    validate_same_rows(points.rows(), intrinsic.rows(), "points", "intrinsic");
    const int needed = std::visit([](const auto& model) { return model.dimension; }, geodesic);
    if (intrinsic.cols() == 0 || (needed > 0 && intrinsic.cols() != needed))
      throw_invalid("intrinsic", "intrinsic has ", intrinsic.cols(), " columns but the manifold-distance model of ",
                    name, " needs ", needed > 0 ? needed : 1, needed > 0 ? "" : " or more");
  }

  double distance_between(index_t i, index_t j) const {
    const auto m = std::size_t(intrinsic.cols());
    const auto measure = [&](double* a, double* b) {
      for (std::size_t k = 0; k < m; ++k) {
        a[k] = double(intrinsic(i, Eigen::Index(k)));
        b[k] = double(intrinsic(j, Eigen::Index(k)));
      }
      const std::span<const double> row_a(a, m), row_b(b, m);
      return std::visit([&](const auto& model) { return model(row_a, row_b); }, geodesic);
    };
    if (m <= 3) {  // every built-in set: no allocation per pair
      std::array<double, 3> a{}, b{};
      return measure(a.data(), b.data());
    }
    std::vector<double> a(m), b(m);
    return measure(a.data(), b.data());
  }
};

}  // namespace nldr::datasets
