// KdTreeBoxIndex: closed-box counts on a nanoflann k-d tree with an L-infinity metric, any D
// (the default index of ShortCircuitPruned).
#pragma once

#include <nldr/core/types.hpp>
#include <nldr/neighbors/detail/distance.hpp>
#include <nldr/neighbors/detail/nanoflann_adapter.hpp>
#include <nldr/neighbors/spatial_index.hpp>

#include <nanoflann.hpp>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>

namespace nldr {

namespace detail {

/// L-infinity distance raised to the power 4, in the form nanoflann can prune with.
/// nanoflann bounds a subtree by SUMMING accum_dist over the cut axes, so the metric must
/// dominate that sum: evalMetric = D max_c |a_c - b_c|^4 >= sum_c |a_c - b_c|^4. A plain
/// max|a_c - b_c| silently drops points (docs/building.md: wrong on 1970 of 2000 queries in
/// 2-D). The power 4 keeps the looseness of the bound to a factor D^(1/4) per axis. Double
/// for both scalars, so |d|^4 neither overflows nor underflows for |d| in [1e-70, 1e70].
template <Real T>
struct LinfPower4 {
  using ElementType = T;
  using DistanceType = double;

  explicit LinfPower4(const PointCloud<T>& c) : cloud(c) {}

  static double power(double x) { return (x * x) * (x * x); }
  double evalMetric(const T* a, std::uint32_t b, std::size_t dim) const {
    const T* p = cloud.points.row(index_t(b));
    double largest = 0;
    for (std::size_t c = 0; c < dim; ++c) largest = std::max(largest, std::abs(double(a[c]) - double(p[c])));
    return double(dim) * power(largest);
  }
  template <class U, class V>
  double accum_dist(U a, V b, std::size_t) const {
    return power(std::abs(double(a) - double(b)));
  }

  const PointCloud<T>& cloud;
};

/// nanoflann result set that counts the offered points inside the closed box [lo, hi]
/// (exact comparisons in T) and stops the search at `cap`.
template <Real T>
struct BoxCountSet {
  using DistanceType = double;
  using IndexType = std::uint32_t;

  const T* lo;
  const T* hi;
  PointRows<T> rows;
  double radius;
  index_t cap;
  index_t count = 0;

  bool addPoint(double, std::uint32_t j) {
    const T* p = rows.row(index_t(j));
    for (Eigen::Index c = 0; c < rows.cols; ++c)
      if (!(lo[c] <= p[c] && p[c] <= hi[c])) return true;
    return ++count < cap;
  }
  double worstDist() const { return radius; }
  bool full() const { return true; }
  std::size_t size() const { return std::size_t(count); }
  void sort() {}  // newer nanoflann calls it; a count has no order
};

}  // namespace detail

/// Closed-box counts on a k-d tree (nanoflann) over a copy of N x D points, any D.
/// The tree is searched for the L-infinity ball around the box center whose half-width is the
/// box's largest half-extent, widened by a few units in the last place so rounding cannot
/// exclude a point; every offered point is then tested exactly (lo <= p <= hi in T), so counts
/// equal a brute-force count (and RStarBoxIndex). Searching stops once `cap` points are found.
/// Cost: O(N log N) to build; a query visits O(log N + points near the box) nodes in low D
/// (like every k-d tree it degrades towards N for D >~ 10).
///
/// \code
/// nldr::Matrix<double> X = ...;                         // N x D
/// nldr::KdTreeBoxIndex<double> index(X);
/// std::vector<double> lo{0, 0}, hi{1, 1};
/// nldr::index_t inside = index.count_in_box(std::span<const double>(lo), std::span<const double>(hi), index.size());
/// \endcode
template <Real T>
class KdTreeBoxIndex {
 public:
  /// points: N x D (copied; finite values expected, as validated by the selectors).
  explicit KdTreeBoxIndex(PointsRef<T> points)
      : points_(points), cloud_{detail::PointRows<T>(PointsRef<T>(points_))},
        tree_(int(points_.cols()), cloud_, nanoflann::KDTreeSingleIndexAdaptorParams(leaf_size)) {}
  KdTreeBoxIndex(const KdTreeBoxIndex&) = delete;  // the tree refers to cloud_ and points_
  KdTreeBoxIndex& operator=(const KdTreeBoxIndex&) = delete;

  index_t size() const { return index_t(points_.rows()); }

  /// min(cap, #{p : lo <= p <= hi}); lo, hi: D values each; cap >= 0.
  index_t count_in_box(std::span<const T> lo, std::span<const T> hi, index_t cap) const {
    const Eigen::Index dim = points_.cols();
    detail::validate_box_query(lo, hi, cap, dim);
    if (cap == 0 || size() == 0) return 0;
    Eigen::Matrix<T, Eigen::Dynamic, 1> center(dim);
    double half = 0, magnitude = 0;
    for (Eigen::Index c = 0; c < dim; ++c) {
      const double mid = 0.5 * (double(lo[c]) + double(hi[c]));
      center(c) = T(mid);
      half = std::max(half, 0.5 * (double(hi[c]) - double(lo[c])));
      magnitude = std::max({magnitude, std::abs(double(lo[c])), std::abs(double(hi[c]))});
    }
    if (!(half >= 0)) return 0;  // empty box (some lo > hi) or NaN corners
    // |p - center| <= half holds up to the rounding of center (to T) and of the differences:
    // a few ulps of the coordinates' magnitude; 1e-60 keeps a degenerate box's radius > 0.
    const double eps = double(std::numeric_limits<T>::epsilon());
    const double widened = half + 4 * eps * (magnitude + half) + 1e-60;
    // Relative slack for the rounding of the power and of nanoflann's incremental bounds.
    const double radius = double(dim) * detail::LinfPower4<T>::power(widened) * (1 + 1e-9);
    detail::BoxCountSet<T> counter{lo.data(), hi.data(), cloud_.points, radius, cap};
    (void)tree_.findNeighbors(counter, center.data(), detail::exact_search_parameters());
    return counter.count;
  }

 private:
  /// Points per leaf (nanoflann's leaf_max_size).
  static constexpr std::size_t leaf_size = 16;
  using Tree = nanoflann::KDTreeSingleIndexAdaptor<detail::LinfPower4<T>, detail::PointCloud<T>, -1, std::uint32_t>;

  Matrix<T> points_;
  detail::PointCloud<T> cloud_;  // views points_; declared before tree_, which refers to it
  Tree tree_;
};

/// Index policy for ShortCircuitPruned: the k-d tree (default; any D).
struct KdTreeBoxes {
  template <Real T>
  using index = KdTreeBoxIndex<T>;
};

static_assert(SpatialIndex<KdTreeBoxIndex<float>, float> && SpatialIndexPolicy<KdTreeBoxes, double>);

}  // namespace nldr
