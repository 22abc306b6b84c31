// PointIndex: a fitted model's training points with their search index, to find the nearest
// training points of new points (out-of-sample transform, docs/models.md).
//
// Low D: the same nanoflann k-d tree as KNearest, built once at fit time and kept; high D:
// KNearest's blocked brute force (a GEMM filter, then the exact distances). Either way each
// query's NearestSet chooses by (distance, index) at exactly the
// distances KNearest computes, so a training point queried as a new point finds itself first
// (distance 0) and then its graph neighbors. Queries run in parallel, one list per query, so the
// answer does not depend on the thread count.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/precompiled.hpp>
#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>
#include <nldr/neighbors/detail/brute_force.hpp>
#include <nldr/neighbors/detail/distance.hpp>
#include <nldr/neighbors/detail/exact_search.hpp>
#include <nldr/neighbors/detail/nanoflann_adapter.hpp>
#include <nldr/neighbors/detail/result_sets.hpp>
#include <nldr/neighbors/selector.hpp>

#include <Eigen/Core>
#include <algorithm>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace nldr {

/// Training points plus their k-d tree (D <= kdtree_max_dimension). Copies share the index.
template <Real T>
class PointIndex {
 public:
  PointIndex() = default;
  /// Takes the N x D training points (validated by the embedder that fits them).
  explicit PointIndex(Matrix<T> points) : state_(std::make_shared<State>(std::move(points))) {}

  /// The training points (N x D); empty for a default-constructed index.
  const Matrix<T>& points() const {
    static const Matrix<T> none;
    return state_ ? state_->points : none;
  }
  index_t size() const { return index_t(points().rows()); }
  Eigen::Index dim() const { return points().cols(); }

  /// The k nearest training points of every row of `queries` (P x D): P lists of exactly k
  /// entries ordered by (distance, index), distances Euclidean in T. 1 <= k <= N.
  /// \throws nldr::invalid_argument naming `name` (wrong D, NaN/Inf) or "k".
  template <class Derived>
  detail::NeighborLists<T> nearest(const Eigen::MatrixBase<Derived>& queries, index_t k,
                                   const std::string& name = "X_new") const {
    if (k < 1 || k > size()) throw_invalid("k", "k = ", k, " must lie in [1, N = ", size(), "] training points");
    return search(queries.derived(), k, std::numeric_limits<double>::infinity(), name);
  }

  /// The training points within `radius` (inclusive, as EpsilonBall decides) of every row of
  /// `queries`, the nearest `capacity` of them when capacity > 0: lists ordered by (distance, index),
  /// possibly empty. radius > 0.
  /// \throws nldr::invalid_argument naming `name` (wrong D, NaN/Inf).
  template <class Derived>
  detail::NeighborLists<T> within(const Eigen::MatrixBase<Derived>& queries, double radius, index_t capacity = 0,
                                  const std::string& name = "X_new") const {
    return search(queries.derived(), capacity, radius, name);
  }

 private:
  /// Both searches (compiled once in nldr::registry: core/precompiled.hpp).
  detail::NeighborLists<T> search(const PointsRef<T>& queries, index_t capacity, double radius,
                                  const std::string& name) const;

  struct State {
    explicit State(Matrix<T> training) : points(std::move(training)) {
      if (points.cols() <= kdtree_max_dimension && points.rows() > 0)
        tree.emplace(detail::PointRows<T>(points), detail::kdtree_leaf_size);
    }
    Matrix<T> points;
    std::optional<detail::KdTree<T>> tree;  // refers to `points`: State never moves (shared_ptr)
  };
  std::shared_ptr<const State> state_;
};

template <Real T>
detail::NeighborLists<T> PointIndex<T>::search(const PointsRef<T>& queries, index_t capacity, double radius,
                                               const std::string& name) const {
  if (queries.cols() != dim())
    throw_invalid(name, name, " has D = ", queries.cols(), " columns but the model was fit on D = ", dim(),
                  ": supply points with the training data's columns");
  const auto p = index_t(queries.rows());
  std::vector<std::vector<typename detail::NearestSet<T>::Entry>> found(static_cast<std::size_t>(p));
  if (p > 0) validate_points(queries, name);
  const Matrix<T> rows = queries;  // row-major, contiguous queries
  const auto new_set = [&] {
    detail::NearestSet<T> set(capacity, radius, dim());
    set.reset(-1);  // a new point excludes no training point
    return set;
  };
  const auto store = [&](index_t q, detail::NearestSet<T>& set) {
    set.sort();
    found[std::size_t(q)].assign(set.entries().begin(), set.entries().end());
  };
  if (p > 0 && state_->tree) {
    parallel_for(0, p, [&](std::int64_t q) {
      auto set = new_set();
      state_->tree->search(rows.row(q).data(), set);
      store(index_t(q), set);
    });
  } else if (p > 0) {
    // High D: KNearest's blocked GEMM filter and exact recheck (detail/brute_force.hpp), built per
    // call: it holds a centered copy of the training points and keeps OpenBLAS single-threaded
    // while it lives, neither of which a model should carry between calls.
    const detail::BruteForce<T> brute{detail::PointRows<T>(state_->points)};
    const index_t block = detail::BruteForce<T>::query_block;
    parallel_for(0, (p + block - 1) / block, [&](std::int64_t b) {
      const index_t first = index_t(b) * block, count = std::min(block, p - first);
      std::vector<detail::NearestSet<T>> sets;
      for (index_t q = 0; q < count; ++q) sets.push_back(new_set());
      brute.search_outside(rows, first, sets);
      for (index_t q = 0; q < count; ++q) store(first + q, sets[std::size_t(q)]);
    });
  }
  detail::NeighborLists<T> lists;
  lists.offsets.assign(1, 0);
  for (const auto& list : found) {
    for (const auto& entry : list) {
      lists.indices.push_back(entry.index);
      lists.distances.push_back(entry.distance);
    }
    lists.offsets.push_back(offset_t(lists.indices.size()));
  }
  return lists;
}

NLDR_PRECOMPILED(detail::NeighborLists<float> PointIndex<float>::search(const PointsRef<float>&, index_t, double,
                                                                        const std::string&) const)
NLDR_PRECOMPILED(detail::NeighborLists<double> PointIndex<double>::search(const PointsRef<double>&, index_t, double,
                                                                          const std::string&) const)

}  // namespace nldr
