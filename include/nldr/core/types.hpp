// Scalar, index and matrix aliases shared by all of nldr.
//
// Points are rows: a data set is an N x D matrix, an embedding N x d, as in
// scikit-learn and R's dimRed. nldr stores points row-major so that one point is
// contiguous (what k-d trees and distance loops want); any Eigen expression is
// accepted at the public entries and copied or mapped as needed.
#pragma once

#include <Eigen/Core>

#include <concepts>
#include <cstdint>
#include <type_traits>

namespace nldr {

/// The scalar types nldr is instantiated and tested for.
template <class T>
concept Real = std::same_as<T, float> || std::same_as<T, double>;

/// Index of a point. 32 bits: graphs of up to 2^31 - 1 points, half the memory of 64-bit indices.
using index_t = std::int32_t;
/// Offset into the edge arrays of a graph (number of edges can exceed 2^31).
using offset_t = std::int64_t;

/// N x D points, one per row, row-major.
template <Real T>
using Matrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

template <Real T>
using Vector = Eigen::Matrix<T, Eigen::Dynamic, 1>;

/// Read-only view of any dense matrix with the right scalar (no copy when the layout fits).
template <Real T>
using PointsRef = Eigen::Ref<const Matrix<T>>;

/// PointsRef<T> as a parameter whose T another argument decides (a fit's graph): T is not deduced
/// from it, so any dense matrix of scalar T converts to it (a fit is then one template over T).
template <Real T>
using PointsArg = std::type_identity_t<PointsRef<T>>;

}  // namespace nldr
