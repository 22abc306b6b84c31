// The SpatialIndex concept: a point index that counts the points inside a closed box
// (what short-circuit pruning asks for; Xia et al. 2008, sec. 2.2 and 4.1).
//
// An index is built from N x D points and answers count_in_box(lo, hi, cap) =
// min(cap, #{p : lo_c <= p_c <= hi_c for every coordinate c}), comparisons exact in T.
// `cap` lets an index stop early once the answer is known to reach it. The box-count rule
// is part of the contract, so every index returns identical counts.
// A selector takes the index as a policy type P whose member template P::index<T> is the
// index for scalar T (the scalar is fixed at the call, the index kind at compile time):
//   struct MyBoxes { template <nldr::Real T> using index = MyBoxIndex<T>; };
//   nldr::ShortCircuitPruned<nldr::KNearest, MyBoxes>{nldr::KNearest{40}}(X);
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/types.hpp>

#include <Eigen/Core>
#include <concepts>
#include <span>

namespace nldr {

/// I indexes points of scalar T: constructible from N x D points (it keeps its own copy or
/// structure, so the points need not outlive it), with
///   index_t size() const                         number of points N;
///   index_t count_in_box(lo, hi, cap) const       min(cap, points p with lo <= p <= hi),
/// lo and hi spans of D values, cap >= 0.
template <class I, class T>
concept SpatialIndex = Real<T> && std::constructible_from<I, PointsRef<T>> &&
                       requires(const I& index, std::span<const T> lo, std::span<const T> hi, index_t cap) {
                         { index.size() } -> std::same_as<index_t>;
                         { index.count_in_box(lo, hi, cap) } -> std::same_as<index_t>;
                       };

/// A policy naming one index per scalar type: P::template index<T> satisfies SpatialIndex.
template <class P, class T>
concept SpatialIndexPolicy = Real<T> && requires { typename P::template index<T>; } &&
                             SpatialIndex<typename P::template index<T>, T>;

namespace detail {

/// Requires a box query of D = `dim` values per corner and a cap >= 0 (shared by the indexes).
template <Real T>
void validate_box_query(std::span<const T> lo, std::span<const T> hi, index_t cap, Eigen::Index dim) {
  if (Eigen::Index(lo.size()) != dim || Eigen::Index(hi.size()) != dim)
    throw_invalid("lo", "box corners have ", lo.size(), " and ", hi.size(), " coordinates but the index holds D = ", dim,
                  "-dimensional points: pass D values for each corner");
  if (cap < 0) throw_invalid("cap", "cap = ", cap, " must be >= 0");
}

}  // namespace detail

}  // namespace nldr
