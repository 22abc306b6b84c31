// Row access to N x D points and the one Euclidean distance every search backend computes.
#pragma once

#include <nldr/core/types.hpp>

#include <Eigen/Core>
#include <cstddef>

namespace nldr::detail {

/// Read-only view of N x D points: row i is `cols` contiguous values at data + i * stride.
/// Built from a PointsRef (no copy when the caller's matrix is already row-major).
template <Real T>
struct PointRows {
  const T* data = nullptr;
  index_t rows = 0;
  Eigen::Index cols = 0;
  Eigen::Index stride = 0;

  explicit PointRows(const PointsRef<T>& points)
      : data(points.data()), rows(index_t(points.rows())), cols(points.cols()), stride(points.outerStride()) {}

  const T* row(index_t i) const { return data + std::ptrdiff_t(i) * stride; }
};

/// Squared Euclidean distance of two D-vectors, summed in coordinate order in T.
/// Every backend (k-d tree, the exact recheck of the brute force) calls this one function,
/// so a pair gets bitwise the same distance whichever backend found it, and
/// squared_distance(a, b) == squared_distance(b, a) exactly (a - b = -(b - a) in IEEE).
template <Real T>
T squared_distance(const T* a, const T* b, Eigen::Index dim) {
  T sum = 0;
  for (Eigen::Index c = 0; c < dim; ++c) {
    const T diff = a[c] - b[c];
    sum += diff * diff;
  }
  return sum;
}

}  // namespace nldr::detail
