// RStarBoxIndex: closed-box counts on Boost.Geometry's R*-tree, the index of Xia et al. 2008
// (Xia et al. 2008, sec. 2.2; Beckmann et al. 1990), for a compile-time dimension.
//
// Available when Boost.Geometry is (nldr itself does not need Boost): this header then
// defines NLDR_HAS_RSTAR_BOX_INDEX; without Boost it defines nothing.
#pragma once

#if __has_include(<boost/geometry/index/rtree.hpp>)
#define NLDR_HAS_RSTAR_BOX_INDEX 1

#include <nldr/core/error.hpp>
#include <nldr/core/types.hpp>
#include <nldr/neighbors/spatial_index.hpp>

#include <boost/geometry/algorithms/covered_by.hpp>
#include <boost/geometry/core/access.hpp>
#include <boost/geometry/core/cs.hpp>
#include <boost/geometry/geometries/box.hpp>
#include <boost/geometry/geometries/point.hpp>
#include <boost/geometry/index/rtree.hpp>

#include <Eigen/Core>
#include <cstddef>
#include <span>
#include <utility>
#include <vector>

namespace nldr {

namespace detail {

/// Output iterator that drops what the R-tree reports: query() itself returns the count.
/// (query() takes the iterator by value, so a counter kept inside it would always read 0.)
struct DiscardOutput {
  DiscardOutput& operator*() { return *this; }
  DiscardOutput& operator++() { return *this; }
  DiscardOutput operator++(int) { return *this; }
  template <class Value>
  DiscardOutput& operator=(const Value&) {
    return *this;
  }
};

}  // namespace detail

/// Closed-box counts on a Boost.Geometry R-tree with the R* split and insertion policies
/// (bgi::rstar<MaxElements>), points of compile-time dimension Dim. The tree is bulk-loaded
/// from all points at once (Boost's packing constructor: the same queries, built 20-30x faster
/// than point-by-point R* insertion). count_in_box uses bgi::covered_by, i.e. lo <= p <= hi
/// exactly in T, so counts equal KdTreeBoxIndex and a brute-force count; `cap` only clips the
/// result (the R-tree query always completes).
///
/// \code
/// nldr::Matrix<double> X = ...;                             // N x 3
/// nldr::RStarBoxIndex<double, 3> index(X);
/// auto graph = nldr::ShortCircuitPruned<nldr::KNearest, nldr::RStarBoxes<3>>{nldr::KNearest{40}}(X);
/// \endcode
template <Real T, int Dim, std::size_t MaxElements = 16>
class RStarBoxIndex {
  static_assert(Dim >= 1, "nldr::RStarBoxIndex: Dim must be >= 1");

 public:
  using Point = boost::geometry::model::point<T, std::size_t(Dim), boost::geometry::cs::cartesian>;
  using Box = boost::geometry::model::box<Point>;

  /// points: N x Dim (copied into the tree). \throws nldr::invalid_argument ("X") when D != Dim.
  explicit RStarBoxIndex(PointsRef<T> points) : tree_(make_points(points)) {}

  index_t size() const { return index_t(tree_.size()); }

  /// min(cap, #{p : lo <= p <= hi}); lo, hi: Dim values each; cap >= 0.
  index_t count_in_box(std::span<const T> lo, std::span<const T> hi, index_t cap) const {
    detail::validate_box_query(lo, hi, cap, Dim);
    if (cap == 0) return 0;
    const Box box(make_point(lo.data()), make_point(hi.data()));
    const std::size_t found = tree_.query(boost::geometry::index::covered_by(box), detail::DiscardOutput{});
    return found < std::size_t(cap) ? index_t(found) : cap;
  }

 private:
  static Point make_point(const T* values) {
    Point point;
    [&]<std::size_t... C>(std::index_sequence<C...>) { (boost::geometry::set<C>(point, values[C]), ...); }
    (std::make_index_sequence<std::size_t(Dim)>{});
    return point;
  }
  static std::vector<Point> make_points(const PointsRef<T>& points) {
    if (points.cols() != Dim)
      throw_invalid("X", "X has D = ", points.cols(), " columns but this RStarBoxIndex was compiled for Dim = ", Dim,
                    ": use RStarBoxes<", points.cols(), "> or the k-d tree index (KdTreeBoxes, any D)");
    std::vector<Point> result;
    result.reserve(std::size_t(points.rows()));
    for (Eigen::Index i = 0; i < points.rows(); ++i) result.push_back(make_point(points.row(i).data()));
    return result;
  }

  boost::geometry::index::rtree<Point, boost::geometry::index::rstar<MaxElements>> tree_;
};

/// Index policy for ShortCircuitPruned: the R*-tree for points of dimension Dim.
template <int Dim>
struct RStarBoxes {
  template <Real T>
  using index = RStarBoxIndex<T, Dim>;
};

static_assert(SpatialIndex<RStarBoxIndex<double, 3>, double> && SpatialIndexPolicy<RStarBoxes<2>, float>);

}  // namespace nldr

#endif  // __has_include(<boost/geometry/index/rtree.hpp>)
