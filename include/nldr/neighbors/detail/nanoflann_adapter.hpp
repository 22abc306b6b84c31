// The one place that knows nanoflann's API and its version differences.
//
// Debian ships nanoflann 1.4.3 (which reports NANOFLANN_VERSION 0x142); 1.5.0 renamed
// SearchParams to SearchParameters (without the ignored `checks` argument) and the tree's
// point-order array vAcc to vAcc_. Every use of nanoflann in nldr goes through KdTree below.
#pragma once

#include <nldr/core/types.hpp>
#include <nldr/neighbors/detail/distance.hpp>

#include <nanoflann.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <variant>

namespace nldr::detail {

/// Exact search (eps = 0); unsorted, because nldr's result sets order themselves.
#if NANOFLANN_VERSION >= 0x150
inline nanoflann::SearchParameters exact_search_parameters() { return nanoflann::SearchParameters(0.0f, false); }
#else
inline nanoflann::SearchParams exact_search_parameters() { return nanoflann::SearchParams(32, 0.0f, false); }
#endif

/// nanoflann dataset adaptor over row-major points (no copy).
template <Real T>
struct PointCloud {
  PointRows<T> points;

  std::size_t kdtree_get_point_count() const { return std::size_t(points.rows); }
  T kdtree_get_pt(std::uint32_t i, std::size_t c) const { return points.row(index_t(i))[c]; }
  template <class BoundingBox>
  bool kdtree_get_bbox(BoundingBox&) const {
    return false;  // let nanoflann compute it
  }
};

/// Squared Euclidean metric for nanoflann that evaluates squared_distance(), so the tree's
/// distances are bitwise those of the brute force's exact recheck.
template <Real T>
struct SquaredEuclidean {
  using ElementType = T;
  using DistanceType = T;

  const PointCloud<T>& cloud;
  explicit SquaredEuclidean(const PointCloud<T>& c) : cloud(c) {}

  T evalMetric(const T* a, std::uint32_t b, std::size_t dim) const {
    return squared_distance(a, cloud.points.row(index_t(b)), Eigen::Index(dim));
  }
  template <class U, class V>
  T accum_dist(U a, V b, std::size_t) const {
    const T diff = T(a - b);
    return diff * diff;
  }
};

/// A k-d tree over N x D points (built in the constructor; queries are const and thread-safe).
/// For D = 2 and 3 the dimension is a compile-time constant of nanoflann's index, which then
/// unrolls its loops and keeps each query's bounds on the stack (a fifth fewer instructions in
/// the tree's search and build for 3-D kNN, counted with callgrind; docs/benchmarks.md).
template <Real T>
class KdTree {
 public:
  /// `points` must outlive the tree. leaf_size: points per leaf (nanoflann's leaf_max_size).
  explicit KdTree(PointRows<T> points, std::size_t leaf_size) : cloud_{points} {
    if (points.cols == 2)
      build<2>(leaf_size);
    else if (points.cols == 3)
      build<3>(leaf_size);
    else
      build<-1>(leaf_size);
  }
  KdTree(const KdTree&) = delete;  // the index refers to cloud_
  KdTree& operator=(const KdTree&) = delete;

  /// Offers the points near `query` (D values) to `result` (a nanoflann result set).
  template <class ResultSet>
  void search(const T* query, ResultSet& result) const {
    std::visit([&](const auto& index) { (void)index->findNeighbors(result, query, exact_search_parameters()); },
               index_);
  }

  /// Point indices in leaf order: neighbors in space are close in this order, so queries
  /// taken in it reuse cached tree nodes and points.
  std::span<const std::uint32_t> leaf_order() const {
    return std::visit(
        [](const auto& index) -> std::span<const std::uint32_t> {
#if NANOFLANN_VERSION >= 0x150
          return index->vAcc_;
#else
          return index->vAcc;
#endif
        },
        index_);
  }

 private:
  template <int Dim>
  using Index = nanoflann::KDTreeSingleIndexAdaptor<SquaredEuclidean<T>, PointCloud<T>, Dim, std::uint32_t>;

  template <int Dim>
  void build(std::size_t leaf_size) {
    index_ = std::make_unique<Index<Dim>>(int(cloud_.points.cols), cloud_,
                                          nanoflann::KDTreeSingleIndexAdaptorParams(leaf_size));
  }

  PointCloud<T> cloud_;  // the index keeps a reference to it
  std::variant<std::unique_ptr<Index<-1>>, std::unique_ptr<Index<2>>, std::unique_ptr<Index<3>>> index_;
};

}  // namespace nldr::detail
