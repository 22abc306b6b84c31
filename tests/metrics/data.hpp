// Small deterministic inputs for the metric tests.
#pragma once

#include <nldr/core/random.hpp>
#include <nldr/core/types.hpp>

#include <cstdint>

namespace test_data {

/// N x D uniform points in [0, 1)^D from a seeded nldr::Random (portable).
template <class T>
nldr::Matrix<T> uniform(int n, int d, std::uint64_t seed) {
  nldr::Random random(seed);
  nldr::Matrix<T> X(n, d);
  for (int i = 0; i < n; ++i)
    for (int c = 0; c < d; ++c) X(i, c) = T(random.uniform());
  return X;
}

/// A noisy nonlinear embedding of X: the first two coordinates bent and perturbed, so that the
/// ranks change in many places but not everywhere.
template <class T>
nldr::Matrix<T> distorted(const nldr::Matrix<T>& X, double noise, std::uint64_t seed) {
  nldr::Random random(seed);
  nldr::Matrix<T> Y(X.rows(), 2);
  for (Eigen::Index i = 0; i < X.rows(); ++i) {
    Y(i, 0) = T(X(i, 0) + 0.3 * X(i, 1) * X(i, 1) + noise * random.normal());
    Y(i, 1) = T(X(i, 1) + noise * random.normal());
  }
  return Y;
}

}  // namespace test_data
