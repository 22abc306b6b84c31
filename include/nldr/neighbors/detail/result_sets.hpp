// NearestSet: the exact neighbor selection of one query point, shared by all backends.
//
// The graph orders each list by (distance, index), distance = sqrt(squared_distance) in T as
// stored. A k-d tree returns ties in arbitrary order and compares squared distances strictly
// (nanoflann adds a point only if dist < worstDist()), and the brute force ranks candidates by an
// approximate GEMM distance. So neither backend decides: both only *offer* a superset of the
// answer to this set, which decides exactly. worstDist() is therefore widened a little beyond the
// current k-th squared distance, so that points tied with it, and subtrees whose rounded lower
// bound lands a few ulps above it, are still offered.
#pragma once

#include <nldr/core/types.hpp>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace nldr::detail {

/// Relative widening that covers the rounding of a squared distance in D coordinates and of a
/// k-d tree's incrementally updated lower bound (at most ~64 levels): a generous multiple of
/// (D + 64) units in the last place of T.
template <Real T>
T rounding_slack(Eigen::Index dim) {
  return T(8) * T(dim + 64) * std::numeric_limits<T>::epsilon();
}

/// The neighbors of one query point: at most `capacity` (0 = no limit) of the points offered
/// whose distance is <= `radius` (infinity = no limit), the query itself excluded, chosen and
/// ordered by (distance, index). Speaks nanoflann's result-set protocol (addPoint, worstDist,
/// size, full, sort, DistanceType) so a k-d tree feeds it directly.
template <Real T>
class NearestSet {
 public:
  using DistanceType = T;
  using IndexType = std::uint32_t;

  struct Entry {
    T distance;  ///< Euclidean distance as stored in the graph
    index_t index;
  };

  /// capacity >= 0, radius > 0 (may be infinity), dim = D of the points.
  NearestSet(index_t capacity, double radius, Eigen::Index dim)
      : capacity_(capacity), radius_(radius), slack_(rounding_slack<T>(dim)) {
    squared_radius_bound_ = std::numeric_limits<T>::infinity();
    if (std::isfinite(radius)) {
      // Any point with sqrt(s) <= radius in T has s at most a few ulps above radius^2.
      const double bound = radius * radius * (1.0 + double(slack_));
      squared_radius_bound_ = widen(T(bound));
    }
    worst_ = squared_radius_bound_;
    if (capacity_ > 0) entries_.reserve(std::size_t(capacity_) + 1);
  }

  /// Empties the set for the query point `self`.
  void reset(index_t self) {
    self_ = self;
    entries_.clear();
    worst_ = squared_radius_bound_;
  }

  /// Offers point j at squared distance `squared`; keeps it if it belongs to the answer so far.
  /// Always returns true (the search goes on).
  bool addPoint(T squared, IndexType j) {
    if (index_t(j) == self_) return true;
    const Entry entry{std::sqrt(squared), index_t(j)};
    if (double(entry.distance) > radius_) return true;
    if (capacity_ == 0) {  // every point in the radius; ordered once, in sort()
      entries_.push_back(entry);
      return true;
    }
    // With a capacity the entries stay sorted: an insertion into a short sorted array beats a
    // heap for the k of manifold learning (tens), and sort() has nothing left to do.
    if (full() && !before(entry, entries_.back())) return true;
    entries_.insert(std::upper_bound(entries_.begin(), entries_.end(), entry, before), entry);
    if (index_t(entries_.size()) > capacity_) entries_.pop_back();
    if (full()) {
      // The last entry has the largest (distance, index). Its squared distance can exceed
      // distance^2 by an ulp or two, which the widening covers.
      const T last = entries_.back().distance;
      worst_ = std::min(squared_radius_bound_, widen(last * last));
    }
    return true;
  }

  /// A squared distance such that every point that may still enter has squared_distance
  /// < worstDist() and every region that may hold one has a lower bound <= worstDist().
  T worstDist() const { return worst_; }

  std::size_t size() const { return entries_.size(); }
  bool full() const { return capacity_ > 0 && index_t(entries_.size()) == capacity_; }

  /// Orders the entries by (distance, index). Call once, after the last addPoint.
  void sort() {
    if (capacity_ == 0) std::sort(entries_.begin(), entries_.end(), before);
  }

  /// The entries (in (distance, index) order after sort()).
  std::span<const Entry> entries() const { return entries_; }

  index_t capacity() const { return capacity_; }
  /// The bound worstDist() starts from: squared radius widened by the rounding slack (or infinity).
  T squared_radius_bound() const { return squared_radius_bound_; }

 private:
  static bool before(const Entry& a, const Entry& b) {
    return a.distance < b.distance || (a.distance == b.distance && a.index < b.index);
  }
  // Above squared * (1 + slack) after rounding (twice the slack), and > 0 when squared is 0 so
  // that duplicates of the query are still offered.
  T widen(T squared) const {
    return squared * (T(1) + T(2) * slack_) + std::numeric_limits<T>::denorm_min();
  }

  index_t capacity_;
  double radius_;
  T slack_;
  T squared_radius_bound_;
  T worst_;  // worstDist(), updated whenever the answer changes
  index_t self_ = -1;
  std::vector<Entry> entries_;
};

/// `count` empty sets, each with room for its answer reserved (copies of one set would not keep
/// that room, and would reallocate while the search fills them).
template <Real T>
std::vector<NearestSet<T>> nearest_sets(std::size_t count, index_t capacity, double radius, Eigen::Index dim) {
  std::vector<NearestSet<T>> sets;
  sets.reserve(count);
  for (std::size_t q = 0; q < count; ++q) sets.emplace_back(capacity, radius, dim);
  return sets;
}

}  // namespace nldr::detail
