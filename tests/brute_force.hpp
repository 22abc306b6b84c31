// Seeded inputs and brute-force references that the tests of several parts share, written from the
// definitions: nothing here calls nldr beyond its matrix type and its portable generator.
#pragma once

#include <nldr/core/random.hpp>
#include <nldr/core/types.hpp>

#include <cstdint>

namespace brute_force {

/// n x d points drawn row by row from a seeded nldr::Random (the same on every platform): coordinate j
/// is a standard normal variate times axis_scale(j).
template <class T, class AxisScale>
nldr::Matrix<T> gaussian(int n, int d, std::uint64_t seed, AxisScale&& axis_scale) {
  nldr::Random random(seed);
  nldr::Matrix<T> X(n, d);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < d; ++j) X(i, j) = T(random.normal() * axis_scale(j));
  return X;
}

/// The same with every axis of standard deviation 1.
template <class T>
nldr::Matrix<T> gaussian(int n, int d, std::uint64_t seed) {
  return gaussian<T>(n, d, seed, [](int) { return 1.0; });
}

/// The N x N Euclidean distances between the rows of X, each summed in double and stored as T.
template <class T>
nldr::Matrix<T> distances(const nldr::Matrix<T>& X) {
  nldr::Matrix<T> D(X.rows(), X.rows());
  for (Eigen::Index i = 0; i < X.rows(); ++i)
    for (Eigen::Index j = 0; j < X.rows(); ++j)
      D(i, j) = T((X.row(i).template cast<double>() - X.row(j).template cast<double>()).norm());
  return D;
}

}  // namespace brute_force
