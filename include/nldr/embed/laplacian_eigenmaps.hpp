// Laplacian Eigenmaps (Belkin & Niyogi 2003; Dupere et al. 2022, sec. 2.1; docs/algorithms.md sec. 3.9).
//
// On the union-symmetrized graph, heat-kernel weights W_ij = exp(-||x_i - x_j||^2 / t) (t = infinity:
// W_ij = 1), degrees D_ii = sum_j W_ij, L = D - W. The generalized problem L f = lambda D f is solved
// through the normalized Laplacian L_sym = I - D^-1/2 W D^-1/2, which has the same eigenvalues, with
// f = D^-1/2 u (Belkin & Niyogi 2003, sec. 3; von Luxburg 2007, prop. 3). The bottom pair (lambda = 0,
// f constant) is dropped; the next d give the coordinates, as scikit-learn's SpectralEmbedding does.
// Out of sample (Bengio et al. 2004; docs/methods/laplacian-eigenmaps.md): L f = lambda D f is
// P f = (1 - lambda) f with the random walk P = D^-1 W, so the Nystrom extension of a coordinate to
// a new point x with heat-kernel weights w_j to its k nearest training points is
// f(x) = sum_j (w_j / sum_l w_l) f(x_j) / (1 - lambda).
#pragma once

#include <nldr/core/described.hpp>
#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/precompiled.hpp>
#include <nldr/core/progress.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>
#include <nldr/embed/detail/connectivity.hpp>
#include <nldr/embed/detail/graph_matrix.hpp>
#include <nldr/embed/detail/sparse_eigen.hpp>
#include <nldr/embed/eigen_options.hpp>
#include <nldr/embed/embedder.hpp>
#include <nldr/embed/embedding.hpp>
#include <nldr/embed/model_fields.hpp>
#include <nldr/embed/routines/out_of_sample.hpp>
#include <nldr/embed/routines/spectral_fit.hpp>
#include <nldr/neighbors/graph.hpp>
#include <nldr/neighbors/point_index.hpp>

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <utility>
#include <vector>

namespace nldr {

/// Options of LaplacianEigenmaps.
struct LaplacianEigenmapsOptions {
  index_t dim = 2;  ///< target dimension d, 1 <= d and d + 1 < N
  /// Heat-kernel width t > 0; +infinity gives 0/1 weights; 0 (default) = automatic: the mean of
  /// ||x_i - x_j||^2 over the edges of the symmetrized graph, so a typical edge weighs exp(-1)
  /// and weights stay well away from 0 and 1 whatever the data's scale.
  double t = 0;
  BottomEigenOptions eigen{};  ///< bottom-eigenpair solver settings
  /// Optional progress and cancel hook (core/progress.hpp): 0.1 once the Laplacian is built (O(N k)),
  /// then the eigensolver 0.1 .. 1 (docs/tool.md, "Progress and logging").
  ProgressCallback progress{};

  /// The parameters a caller names (core/described.hpp; docs/registry.md).
  template <class Visitor>
  void describe(Visitor& v) {
    v.number("dim", dim, {1, 1e9}, "target dimension d");
    v.number("heat_t", t, {0, std::numeric_limits<double>::infinity()},
             "heat-kernel width t (0: the mean squared edge length; inf: 0/1 weights)");
    eigen.describe(v);
  }
};

/// A fitted Laplacian Eigenmaps: coordinates f = D^-1/2 u, eigenvalues lambda of L f = lambda D f,
/// the heat-kernel width used, and what transform needs.
template <Real T>
struct LaplacianEigenmapsModel : Embedding<T>, routines::PlacesByTrainingNeighbors<LaplacianEigenmapsModel<T>> {
  double t = 0;  ///< the t used (the automatic value when options.t was 0)
  /// Training points, their search index and the rule that gives a new point its neighbors.
  routines::TrainingNeighbors<T> training;

  /// Throws invalid_argument("model") unless the fields fit together (e.g. after a model file).
  void check_state() const {
    check_embedding_state(*this);
    training.check_state(this->coordinates.rows());
    require_state(t > 0, "t > 0");
    // transform divides by 1 - lambda; lambda in (1, 2] is legitimate (dense graphs, e.g. a complete
    // graph has lambda = N / (N - 1)), so only lambda = 1 is refused.
    require_state((this->eigenvalues.array() != 1).all(), "eigenvalues != 1");
  }

  template <class Visitor>
  void visit(Visitor& v) {
    v("t", t, FieldRole::result);
    training.visit(v);
  }

 private:
  friend routines::PlacesByTrainingNeighbors<LaplacianEigenmapsModel<T>>;

  /// What transform(X_new[, k]) (routines::PlacesByTrainingNeighbors) does with the neighbors it finds:
  /// Places new points (P x D, finite, same D) from the training points the graph's selector
  /// would join them to (docs/models.md, "What a new point gets"), weighted over its k
  /// neighbors (a new point equal to a training point gets that point's coordinates; one whose
  /// every weight underflows gets its nearest neighbor's). O(P k (D + d)).
  /// \throws nldr::invalid_argument naming "X_new".
  Matrix<T> place(const detail::NeighborLists<T>& neighbors, const PointsRef<T>& X_new) const;
};

template <Real T>
Matrix<T> LaplacianEigenmapsModel<T>::place(const detail::NeighborLists<T>& neighbors,
                                            const PointsRef<T>& X_new) const {
  const Eigen::ArrayXd inverse_retention = (1.0 - this->eigenvalues.template cast<double>().array()).inverse();
  return routines::place_by_neighbors(
      neighbors, this->coordinates, X_new, [&](const Eigen::RowVectorXd&, auto members, auto distances) {
        Eigen::RowVectorXd y = Eigen::RowVectorXd::Zero(this->coordinates.cols());
        double degree = 0;
        for (std::size_t a = 0; a < members.size(); ++a) {
          const double dist = double(distances[a]);
          const double w = std::isinf(t) ? 1.0 : std::exp(-dist * dist / t);
          y += w * this->coordinates.row(members[a]).template cast<double>();
          degree += w;
        }
        if (!(degree > 0)) return Eigen::RowVectorXd(this->coordinates.row(members[0]).template cast<double>());
        return Eigen::RowVectorXd((y / degree).array() * inverse_retention.transpose());
      });
}

NLDR_PRECOMPILED(Matrix<float> LaplacianEigenmapsModel<float>::place(
    const detail::NeighborLists<float>&, const PointsRef<float>&) const)
NLDR_PRECOMPILED(Matrix<double> LaplacianEigenmapsModel<double>::place(
    const detail::NeighborLists<double>&, const PointsRef<double>&) const)

namespace detail {

/// L_sym = I - D^-1/2 W D^-1/2 of the union-symmetrized graph with heat-kernel weights (lower triangle),
/// with D^-1/2 and the kernel width used.
struct NormalizedLaplacian {
  SparseLower lower;
  Eigen::VectorXd inv_sqrt_degree;
  double t = 0;
};

/// L_sym = I - D^-1/2 W D^-1/2 for edge weights `weights` (aligned with the entries of the symmetric
/// graph `sym`, a NeighborGraph or a routines::WeightedGraph; W symmetric), D_ii = sum_j W_ij. Laplacian
/// Eigenmaps builds its heat-kernel weights into it; UMAP's spectral layout its fuzzy memberships
/// (embed/routines/spectral_layout.hpp). A point whose degree is 0 calls isolated(i) (which throws).
template <class Graph, class Isolated>
NormalizedLaplacian normalized_laplacian_of_weights(const Graph& sym, std::span<const double> weights,
                                                    const Isolated& isolated) {
  const index_t n = sym.size();
  const auto offsets = sym.offsets();
  Eigen::VectorXd inv_sqrt_degree(n);
  parallel_for(0, n, [&](std::int64_t i) {
    double degree = 0;
    for (offset_t e = offsets[i]; e < offsets[i + 1]; ++e) degree += weights[e];
    inv_sqrt_degree[i] = 1.0 / std::sqrt(degree);
  });
  for (index_t i = 0; i < n; ++i)
    if (!std::isfinite(inv_sqrt_degree[i])) isolated(i);
  // Lower triangle of L_sym = I - D^-1/2 W D^-1/2.
  SparseLower L = lower_on_graph(sym, [](index_t) { return 1.0; }, [&](offset_t e, index_t i, index_t j) {
    return -weights[e] * inv_sqrt_degree[i] * inv_sqrt_degree[j];
  });
  return {std::move(L), std::move(inv_sqrt_degree), 0};
}

/// Builds the normalized Laplacian of `graph` for kernel width t_option (> 0, +infinity, or 0 = automatic,
/// see LaplacianEigenmapsOptions::t). Records the "weights" and "assembly" stages.
template <Real T>
NormalizedLaplacian normalized_laplacian(const NeighborGraph<T>& graph, double t_option, StageTimes& times) {
  Stopwatch clock;
  const NeighborGraph<T> sym = graph.symmetrized(Symmetrization::union_edges);
  const index_t n = sym.size();
  const auto offsets = sym.offsets();
  const auto distances = sym.distances();
  double t = t_option;
  if (t == 0) {
    double sum = 0;
    for (T dist : distances) sum += double(dist) * double(dist);
    t = sum / double(distances.size());
    if (!(t > 0))
      throw_invalid("t", "all ", distances.size(), " graph edges have length 0 (duplicate points), so no "
                    "automatic t exists: remove duplicate points or pass t = infinity");
  }
  std::vector<double> weights(distances.size());
  parallel_for(0, n, [&](std::int64_t i) {
    for (offset_t e = offsets[i]; e < offsets[i + 1]; ++e) {
      const double dist = distances[e];
      weights[e] = std::isinf(t) ? 1.0 : std::exp(-dist * dist / t);
    }
  });
  times.add("weights", clock.seconds());
  clock.restart();
  NormalizedLaplacian laplacian = normalized_laplacian_of_weights(sym, weights, [&](index_t i) {
    throw_invalid("t", "t = ", t, " makes every edge weight of point ", i, " underflow to 0: raise t");
  });
  laplacian.t = t;
  times.add("assembly", clock.seconds());
  return laplacian;
}

}  // namespace detail

/// Laplacian Eigenmaps. Usage: `LaplacianEigenmaps{{.dim = 2, .t = 5.0}}.fit(X, graph)`.
struct LaplacianEigenmaps {
  LaplacianEigenmapsOptions options;

  /// Embeds with `graph` (N points; directed graphs are union-symmetrized; must be connected). X (N x D)
  /// is not read beyond validation: the graph's distances give the weights. Result: N x d coordinates
  /// f = D^-1/2 u (D-orthogonal), eigenvalues lambda of L f = lambda D f, in [0, 2], ascending; timings
  /// ("weights", "assembly", "eigensolve"). Cost: O(N k) for the Laplacian plus one sparse LDLT.
  /// \throws nldr::invalid_argument, nldr::disconnected_graph, nldr::convergence_error.
  template <Real T>
  LaplacianEigenmapsModel<T> fit(const PointsArg<T>& X, const NeighborGraph<T>& graph) const;
};

template <Real T>
LaplacianEigenmapsModel<T> LaplacianEigenmaps::fit(const PointsArg<T>& X, const NeighborGraph<T>& graph) const {
  routines::validate_graph_fit(X, graph, options.dim);
  if (!(options.t >= 0) || std::isnan(options.t))
    throw_invalid("t", "t = ", options.t, " must be > 0, +infinity (0/1 weights) or 0 (automatic)");
  detail::require_connected(graph, "laplacian-eigenmaps");

  LaplacianEigenmapsModel<T> result;
  const detail::NormalizedLaplacian laplacian = detail::normalized_laplacian(graph, options.t, result.times);
  result.t = laplacian.t;
  report_progress(options.progress, 0.1, "laplacian-eigenmaps");

  // L_sym D^1/2 1 = 0: deflate D^1/2 1; f = D^-1/2 u.
  routines::spectral_embedding(result, laplacian.lower, options.dim, options.eigen, "laplacian-eigenmaps",
                               laplacian.inv_sqrt_degree.cwiseInverse(), laplacian.inv_sqrt_degree,
                               progress_part(options.progress, 0.1, 1));
  routines::keep_training_points(result, X, graph, 1);
  report_progress(options.progress, 1, "laplacian-eigenmaps");
  return result;
}

NLDR_GRAPH_EMBEDDER_FIT(LaplacianEigenmaps, LaplacianEigenmapsModel)

}  // namespace nldr
