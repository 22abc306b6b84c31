// precomputed(D): marks an N x N matrix as distances (or dissimilarities) between N points, so that
// an entry that accepts points or distances reads it as distances. Metrics (metrics/input.hpp) and
// the distance embedders (ClassicalMds, and the embedders that work from dissimilarities) share it.
#pragma once

#include <Eigen/Core>
#include <type_traits>

namespace nldr {

/// An N x N distance matrix given instead of points. Holds a reference: use it within the call.
template <class Derived>
struct Precomputed {
  const Eigen::MatrixBase<Derived>& matrix;
};

/// Wraps an N x N distance matrix so that it is read as distances, not as points.
template <class Derived>
Precomputed<Derived> precomputed(const Eigen::MatrixBase<Derived>& distances) {
  return {distances};
}

template <class A>
struct is_precomputed : std::false_type {};
template <class Derived>
struct is_precomputed<Precomputed<Derived>> : std::true_type {};

}  // namespace nldr
