// Row access to N x D points and the one Euclidean distance every search backend computes.
#pragma once

#include <nldr/core/types.hpp>

#include <Eigen/Core>
#include <cstddef>
#include <span>
#include <vector>

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

/// The rows `list` of `rows` copied column by column into `columns` (D x k: coordinate c of
/// list[a] at [c * k + a]), converted to U: loops over the k points then vectorize.
template <class U, Real T>
void gather_columns(const PointRows<T>& rows, std::span<const index_t> list, std::vector<U>& columns) {
  const std::size_t k = list.size();
  columns.resize(std::size_t(rows.cols) * k);
  for (std::size_t a = 0; a < k; ++a) {
    const T* y = rows.row(list[a]);
    for (Eigen::Index c = 0; c < rows.cols; ++c) columns[std::size_t(c) * k + a] = U(y[c]);
  }
}

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
