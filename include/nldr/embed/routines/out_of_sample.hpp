// What the out-of-sample transforms of the graph embedders share (docs/models.md): the training
// points with the rule that gives a new point its neighbors among them (the rule of the selector
// that built the training graph), and the placement of the local methods from those neighbors.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/precompiled.hpp>
#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>
#include <nldr/embed/model_fields.hpp>
#include <nldr/neighbors/detail/distance.hpp>
#include <nldr/neighbors/detail/exact_search.hpp>
#include <nldr/neighbors/graph.hpp>
#include <nldr/neighbors/point_index.hpp>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

namespace nldr::routines {

/// Neighbors a new point gets from a graph no selector's rule describes (a user's graph): the
/// training graph's mean out-degree, rounded, at least `minimum`, at most N.
template <Real T>
index_t typical_degree(const NeighborGraph<T>& graph, index_t minimum) {
  const double mean = graph.size() > 0 ? double(graph.num_edges()) / double(graph.size()) : 0.0;
  return std::min<index_t>(graph.size(), std::max<index_t>(minimum, index_t(std::lround(mean))));
}

/// A graph model's training points with their search index, and how a new point gets its
/// neighbors among them: the rule of the selector that built the training graph
/// (SelectionReport::new_point), at least `minimum` of them (the fewest the method places a point
/// from). With the rule nearest_and_its_neighbors the training graph's lists are kept, 4 (N + E)
/// bytes for E directed entries; the other rules keep no graph.
template <Real T>
struct TrainingNeighbors {
  PointIndex<T> points;
  /// The rule, resolved at fit time: nearest, within_radius or nearest_and_its_neighbors.
  NewPointNeighbors rule;
  index_t minimum = 1;
  /// nearest_and_its_neighbors: the training graph, list i = graph_lists[sum of the degrees before i ..).
  std::vector<index_t> graph_degrees, graph_lists;

  /// The state for training points X of `graph`: its selection's rule (the mean degree's nearest
  /// training points when it has none), for a method that needs `minimum` neighbors.
  static TrainingNeighbors from(Matrix<T> X, const NeighborGraph<T>& graph, index_t minimum) {
    NewPointNeighbors rule = graph.selection().new_point;
    if (rule.rule == NewPointRule::typical_degree)
      rule = {NewPointRule::nearest, typical_degree(graph, std::clamp<index_t>(minimum, 1, graph.size())), 0.0};
    TrainingNeighbors state = under(std::move(X), rule, minimum);
    if (rule.rule == NewPointRule::nearest_and_its_neighbors) {
      for (index_t i = 0; i < graph.size(); ++i) state.graph_degrees.push_back(graph.degree(i));
      state.graph_lists.assign(graph.indices().begin(), graph.indices().end());
    }
    return state;
  }

  /// The state for training points X under a resolved `rule` (nearest, within_radius, or
  /// nearest_and_its_neighbors before its graph lists are set), for a method that needs `minimum`
  /// neighbors: the minimum clamped to [1, N], nearest's k to [minimum, N]. (A distributed fit,
  /// which has no NeighborGraph, builds its KNearest state so: nldr/mpi/model.hpp.)
  static TrainingNeighbors under(Matrix<T> X, NewPointNeighbors rule, index_t minimum) {
    TrainingNeighbors state;
    const auto n = index_t(X.rows());
    state.points = PointIndex<T>(std::move(X));
    state.minimum = std::clamp<index_t>(minimum, 1, n);
    state.rule = rule;
    if (rule.rule == NewPointRule::nearest) state.rule.k = std::clamp(rule.k, state.minimum, n);
    return state;
  }

  index_t size() const { return points.size(); }

  /// The training neighbors of every row of X_new (P x D, finite, the training D) by the rule:
  /// row p ordered by (distance, index), at least `minimum` entries (a new point with fewer under
  /// the rule, e.g. none within the radius, gets its `minimum` nearest training points instead).
  /// \throws nldr::invalid_argument naming "X_new".
  /// (Compiled once in nldr::registry: core/precompiled.hpp.)
  detail::NeighborLists<T> of(const PointsRef<T>& X_new) const;

  /// The k nearest training points of every row of X_new, the method's minimum <= k <= N (a
  /// transform with an explicit k). \throws nldr::invalid_argument naming "X_new" or "k".
  detail::NeighborLists<T> nearest(const PointsRef<T>& X_new, index_t k) const {
    if (k < minimum || k > size())
      throw_invalid("k", "transform with k = ", k, " neighbors: k must lie in [", minimum, ", N = ", size(),
                    "] training points");
    return points.nearest(X_new, k);
  }

  /// Throws invalid_argument("model") unless the state fits N = `n` fitted points (e.g. after a model file).
  void check_state(Eigen::Index n) const {
    require_state(size() == n, "one training point per coordinate row");
    require_state(minimum >= 1 && minimum <= size(), "new-point minimum in [1, N]");
    switch (rule.rule) {
      case NewPointRule::nearest:
        require_state(rule.k >= minimum && rule.k <= size(), "new-point k in [minimum, N]");
        break;
      case NewPointRule::within_radius:
        require_state(std::isfinite(rule.radius) && rule.radius > 0 && rule.k >= 0, "new-point radius > 0");
        break;
      case NewPointRule::nearest_and_its_neighbors: {
        require_state(Eigen::Index(graph_degrees.size()) == n, "one new-point graph list per training point");
        std::int64_t entries = 0;
        for (index_t degree : graph_degrees) {
          require_state(degree >= 0, "new-point graph degrees >= 0");
          entries += degree;
        }
        require_state(entries == std::int64_t(graph_lists.size()), "new-point graph degrees add up to its entries");
        for (index_t j : graph_lists) require_state(j >= 0 && j < size(), "new-point graph indexes training points");
        break;
      }
      default: require_state(false, "a known new-point rule");
    }
  }

  template <class Visitor>
  void visit(Visitor& v) {
    v("training", points, FieldRole::state);
    v("new_point.rule", rule.rule, FieldRole::state);
    v("new_point.k", rule.k, FieldRole::state);
    v("new_point.radius", rule.radius, FieldRole::state);
    v("new_point.minimum", minimum, FieldRole::state);
    v("new_point.graph_degrees", graph_degrees, FieldRole::state);
    v("new_point.graph_lists", graph_lists, FieldRole::state);
  }

 private:
  using Entry = typename detail::NearestSet<T>::Entry;

  static void append(std::vector<Entry>& row, const detail::NeighborLists<T>& lists, std::int64_t p) {
    for (offset_t e = lists.offsets[p]; e < lists.offsets[p + 1]; ++e)
      row.push_back({lists.distances[e], lists.indices[e]});
  }

  /// Lists of `count` points, row p filled by fill(p, row), then without repeats and ordered by
  /// (distance, index). Rows are filled in parallel.
  template <class Fill>
  static detail::NeighborLists<T> merged(Eigen::Index count, const Fill& fill) {
    std::vector<std::vector<Entry>> rows(static_cast<std::size_t>(count));
    parallel_for(0, count, [&](std::int64_t p) {
      auto& row = rows[std::size_t(p)];
      fill(p, row);
      // A point found twice (by the search and through the graph) may carry distances an ulp apart.
      std::sort(row.begin(), row.end(), [](const Entry& a, const Entry& b) { return a.index < b.index; });
      row.erase(std::unique(row.begin(), row.end(), [](const Entry& a, const Entry& b) { return a.index == b.index; }),
                row.end());
      std::sort(row.begin(), row.end(), [](const Entry& a, const Entry& b) {
        return a.distance < b.distance || (a.distance == b.distance && a.index < b.index);
      });
    });
    detail::NeighborLists<T> lists;
    lists.offsets.assign(1, 0);
    for (const auto& row : rows) {
      for (const auto& entry : row) {
        lists.indices.push_back(entry.index);
        lists.distances.push_back(entry.distance);
      }
      lists.offsets.push_back(offset_t(lists.indices.size()));
    }
    return lists;
  }
};

template <Real T>
detail::NeighborLists<T> TrainingNeighbors<T>::of(const PointsRef<T>& X_new) const {
  switch (rule.rule) {
    case NewPointRule::within_radius: {
      const detail::NeighborLists<T> inside = points.within(X_new, rule.radius, rule.k);
      const detail::NeighborLists<T> nearest = points.nearest(X_new, minimum);
      return merged(X_new.rows(), [&](std::int64_t p, auto& row) {
        const bool enough = inside.offsets[p + 1] - inside.offsets[p] >= minimum;
        append(row, enough ? inside : nearest, p);
      });
    }
    case NewPointRule::nearest_and_its_neighbors: {
      std::vector<offset_t> starts(graph_degrees.size() + 1, 0);
      for (std::size_t i = 0; i < graph_degrees.size(); ++i) starts[i + 1] = starts[i] + graph_degrees[i];
      const detail::NeighborLists<T> nearest = points.nearest(X_new, minimum);
      const Matrix<T> rows = X_new;
      const Matrix<T>& training = points.points();
      return merged(X_new.rows(), [&](std::int64_t p, auto& row) {
        const index_t first = nearest.indices[nearest.offsets[p]];
        row.push_back({nearest.distances[nearest.offsets[p]], first});
        for (offset_t e = starts[first]; e < starts[first + 1]; ++e) {
          const index_t j = graph_lists[e];
          const T squared = detail::squared_distance(rows.row(p).data(), training.row(j).data(), rows.cols());
          row.push_back({std::sqrt(squared), j});
        }
        if (index_t(row.size()) < minimum) append(row, nearest, p);
      });
    }
    default: return points.nearest(X_new, rule.k);
  }
}

NLDR_PRECOMPILED(detail::NeighborLists<float> TrainingNeighbors<float>::of(const PointsRef<float>&) const)
NLDR_PRECOMPILED(detail::NeighborLists<double> TrainingNeighbors<double>::of(const PointsRef<double>&) const)

/// The `transform` of a model that places new points from their neighbors among its training points
/// (docs/models.md, "What a new point gets"), written once for the graph models. `Model` derives
/// from it, holds `training` (TrainingNeighbors) and befriends it for its private
/// `place(neighbors)` or `place(neighbors, X_new)`, which says how the neighbors place a point.
template <class Model>
struct PlacesByTrainingNeighbors {
  /// New points (P x D, finite, the training D) placed from the training points the graph's
  /// selector would join them to (TrainingNeighbors::of).
  /// \throws nldr::invalid_argument naming "X_new".
  template <class Derived>
  auto transform(const Eigen::MatrixBase<Derived>& X_new) const {
    return place(model().training.of(X_new), X_new);
  }

  /// As above from their k nearest training points instead, from the method's fewest (the model's
  /// training.minimum) to N.
  /// \throws nldr::invalid_argument naming "X_new" or "k".
  template <class Derived>
  auto transform(const Eigen::MatrixBase<Derived>& X_new, index_t k) const {
    return place(model().training.nearest(X_new, k), X_new);
  }

 private:
  const Model& model() const { return static_cast<const Model&>(*this); }

  template <class Neighbors, class Derived>
  auto place(const Neighbors& neighbors, const Eigen::MatrixBase<Derived>& X_new) const {
    if constexpr (requires { model().place(neighbors, X_new); })
      return model().place(neighbors, X_new);
    else
      return model().place(neighbors);
  }
};

/// The transform of the local methods (LLE, LTSA, Laplacian Eigenmaps, diffusion maps): row p of
/// X_new is placed by `place(x, members, distances)` from its training neighbors in `lists` (a
/// std::span of indices and of distances, nearest first), returning its d coordinates as an
/// Eigen::RowVectorXd; a new point that equals a training point gets that point's coordinates.
/// Rows run in parallel.
template <Real T, class Derived, class Place>
Matrix<T> place_by_neighbors(const detail::NeighborLists<T>& lists, const Matrix<T>& coordinates,
                             const Eigen::MatrixBase<Derived>& X_new, const Place& place) {
  Matrix<T> Y(X_new.rows(), coordinates.cols());
  parallel_for(0, X_new.rows(), [&](std::int64_t p) {
    const auto size = std::size_t(lists.offsets[p + 1] - lists.offsets[p]);
    const std::span<const index_t> members(lists.indices.data() + lists.offsets[p], size);
    const std::span<const T> distances(lists.distances.data() + lists.offsets[p], size);
    if (distances[0] == T(0))
      Y.row(p) = coordinates.row(members[0]);
    else
      Y.row(p) = place(X_new.row(p).template cast<double>(), members, distances).template cast<T>();
  });
  return Y;
}

}  // namespace nldr::routines
