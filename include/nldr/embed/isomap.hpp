// Isomap (Tenenbaum, de Silva & Langford 2000; docs/algorithms.md sec. 3): geodesic distances along
// the union-symmetrized neighbor graph, by Dijkstra from every source in parallel, then classical
// MDS on them. The residual variance 1 - r^2 between the geodesics and the embedding distances
// (Tenenbaum et al. 2000, fig. 2) is part of the result.
// Out of sample (de Silva & Tenenbaum 2004; docs/methods/isomap.md): a new point's geodesic to
// training point j is min over its training neighbors q (the selector's rule, docs/models.md) of
// |x - x_q| + G(q, j), and it is
// placed by the distance-based triangulation with every training point a landmark. The fit centers
// G^2 in place into B = -1/2 J G^2 J; after the eigensolve it turns B back into G
// (G(q, j)^2 = B_qq + B_jj - 2 B_qj), so that transform reads G without a square root per element.
#pragma once

#include <nldr/core/correlation.hpp>
#include <nldr/core/described.hpp>
#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/precompiled.hpp>
#include <nldr/core/progress.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>
#include <nldr/embed/detail/connectivity.hpp>
#include <nldr/embed/eigen_options.hpp>
#include <nldr/embed/embedder.hpp>
#include <nldr/embed/embedding.hpp>
#include <nldr/embed/model_fields.hpp>
#include <nldr/embed/routines/geodesic_graph.hpp>
#include <nldr/embed/routines/geodesic_placement.hpp>
#include <nldr/embed/routines/mds.hpp>
#include <nldr/embed/routines/out_of_sample.hpp>
#include <nldr/embed/routines/residual_variance.hpp>
#include <nldr/neighbors/graph.hpp>
#include <nldr/neighbors/point_index.hpp>
#include <nldr/neighbors/shortest_paths.hpp>

#include <Eigen/Core>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace nldr {

/// Element type of the N x N geodesic matrix.
enum class GeodesicStorage {
  input,   ///< the scalar type of X
  single,  ///< float: half the memory for double input (N = 50000 needs 9.3 GiB instead of 18.6)
};

inline constexpr std::array<Choice<GeodesicStorage>, 2> geodesic_storages{
    {{"input", GeodesicStorage::input}, {"float", GeodesicStorage::single}}};

/// Options of Isomap.
struct IsomapOptions {
  /// Target dimension d, 1 <= d < N.
  index_t dim = 2;
  /// Storage of the geodesic matrix (sums are formed in double either way).
  GeodesicStorage storage = GeodesicStorage::input;
  /// Edge lengths of the graph: recomputed from X (default) or the graph's own.
  EdgeLengths edge_lengths = EdgeLengths::euclidean;
  /// Most negative eigenvalues of the centered geodesic matrix to report (0 <= count <= N - dim).
  index_t negative_eigenvalues = 0;
  /// Residual variance uses all N(N-1)/2 pairs when there are at most this many, otherwise this
  /// many pairs drawn uniformly (with replacement) with `seed`; >= 1.
  std::int64_t residual_pairs = 1'000'000;
  /// Seed of the pair sample.
  std::uint64_t seed = 0;
  /// Eigensolver settings.
  TopEigenOptions eigen{};
  /// Memory limit in bytes for the geodesic matrix (0: the memory available now).
  std::uint64_t memory_limit = 0;
  /// Optional progress and cancel hook (core/progress.hpp): the shortest paths report 0 .. 0.8 in
  /// steps of ~1% of the sources, then 0.9 after the centering, 0.9 .. 1 from the eigensolver's
  /// products (docs/tool.md, "Progress and logging").
  ProgressCallback progress{};

  /// The parameters a caller names (core/described.hpp; docs/registry.md).
  template <class Visitor>
  void describe(Visitor& v) {
    v.number("dim", dim, {1, 1e9}, "target dimension d");
    v.choice("storage", storage, geodesic_storages,
             "element type of the N x N geodesic matrix (float: half the memory)");
    describe_geodesic_mds(v, edge_lengths, negative_eigenvalues, seed, eigen);
  }
};

/// A fitted Isomap: MDS of the geodesics plus the geodesic fit, and what transform needs.
template <Real T>
struct IsomapModel : Embedding<T>, routines::PlacesByTrainingNeighbors<IsomapModel<T>> {
  /// 1 - r^2 (Pearson) between geodesic and embedding distances, in [0, 1]; NaN when undefined
  /// (every embedding distance equal).
  double residual_variance = 0;
  /// Number of pairs behind residual_variance, and whether they were a random sample.
  std::int64_t residual_pairs = 0;
  bool residual_sampled = false;
  /// Most negative eigenvalues of B (ascending, < 0) and whether they were computed.
  Eigen::VectorXd negative_eigenvalues;
  SolverStatus negative_status = SolverStatus::not_computed;
  double trace = 0;  ///< trace(B)
  /// Bytes of the N x N geodesic matrix and its element type ("float" or "double").
  std::int64_t geodesic_bytes = 0;
  std::string geodesic_storage;
  /// Directed entries of the symmetrized graph the geodesics were computed on.
  std::int64_t graph_edges = 0;
  /// Training points, their search index and the rule that joins a new point to them.
  routines::TrainingNeighbors<T> training;
  /// The geodesic distances G, N x N, in the geodesic storage (the other matrix is empty).
  Matrix<float> geodesics_single;
  Matrix<double> geodesics_double;
  /// Triangulation with every training point a landmark: L# (d x N) and mean squared geodesics.
  Eigen::MatrixXd pseudo_inverse;
  Eigen::VectorXd mean_squared;

  /// Throws invalid_argument("model") unless the fields fit together (e.g. after a model file).
  void check_state() const {
    check_embedding_state(*this);
    training.check_state(this->coordinates.rows());
    const Eigen::Index n = training.size();
    const bool single = geodesics_single.rows() == n && geodesics_single.cols() == n && geodesics_double.size() == 0;
    const bool twice = geodesics_double.rows() == n && geodesics_double.cols() == n && geodesics_single.size() == 0;
    require_state(single || twice, "one N x N geodesic matrix");
    require_state(pseudo_inverse.rows() == this->coordinates.cols() && pseudo_inverse.cols() == n, "L# is d x N");
    require_state(mean_squared.size() == n, "N mean squared geodesics");
  }

  template <class Visitor>
  void visit(Visitor& v) {
    v("residual_variance", residual_variance, FieldRole::result);
    v("residual_pairs", residual_pairs, FieldRole::result);
    v("residual_sampled", residual_sampled, FieldRole::result);
    routines::visit_scaling_results(v, *this);
    v("geodesic_bytes", geodesic_bytes, FieldRole::result);
    v("geodesic_storage", geodesic_storage, FieldRole::result);
    v("graph_edges", graph_edges, FieldRole::result);
    training.visit(v);
    v("geodesics_single", geodesics_single, FieldRole::state);
    v("geodesics_double", geodesics_double, FieldRole::state);
    v("pseudo_inverse", pseudo_inverse, FieldRole::state);
    v("mean_squared", mean_squared, FieldRole::state);
  }

 private:
  friend routines::PlacesByTrainingNeighbors<IsomapModel<T>>;

  /// What transform(X_new[, k]) (routines::PlacesByTrainingNeighbors) does with the neighbors it finds:
  /// Places new points (P x D, finite, same D) joined to the training points as the graph's
  /// selector joined them (docs/models.md, "What a new point gets"). Cost O(P (k + d) N) for k
  /// neighbors each. \throws nldr::invalid_argument naming "X_new".
  Matrix<T> place(const detail::NeighborLists<T>& neighbors) const;
};

template <Real T>
Matrix<T> IsomapModel<T>::place(const detail::NeighborLists<T>& neighbors) const {
  if (geodesics_single.size() > 0)
    return routines::place_by_geodesics<T>(neighbors, geodesics_single, this->coordinates, pseudo_inverse,
                                           mean_squared);
  return routines::place_by_geodesics<T>(neighbors, geodesics_double, this->coordinates, pseudo_inverse,
                                         mean_squared);
}

NLDR_PRECOMPILED(Matrix<float> IsomapModel<float>::place(const detail::NeighborLists<float>&) const)
NLDR_PRECOMPILED(Matrix<double> IsomapModel<double>::place(const detail::NeighborLists<double>&) const)

/// Isomap embedding of X along a neighbor graph from any selector.
///
/// Memory: the N x N geodesic matrix, N^2 sizeof(storage) bytes (N = 20000: 1.5 GiB float,
/// 3 GiB double), checked before it is allocated; it is centered in place (no second copy) and
/// kept by the model for transform. Time: O(N E log N) for the shortest paths (parallel), O(N^2)
/// per Lanczos mat-vec. For larger N use nldr::LandmarkIsomap (O(m N) memory).
///
/// \code
/// auto data = nldr::datasets::swiss_roll<double>({.n = 2000, .seed = 1});
/// auto graph = nldr::KNearest{12}(data.points);
/// auto iso = nldr::Isomap{{.dim = 2}}.fit(data.points, graph);
/// iso.coordinates;          // 2000 x 2
/// iso.residual_variance;    // about 0.0x for a well sampled roll
/// auto y = iso.transform(X_new);
/// \endcode
struct Isomap {
  IsomapOptions options;

  /// X: N x D points (finite, N >= 2); graph: any NeighborGraph on the N points (directed or
  /// symmetric; it is union-symmetrized and, by default, its edge lengths recomputed from X).
  /// \throws nldr::invalid_argument ("X", "graph", "dim", ...), nldr::disconnected_graph naming the
  /// component sizes, nldr::memory_limit_exceeded suggesting LandmarkIsomap.
  template <class Derived>
  IsomapModel<typename Derived::Scalar> fit(const Eigen::MatrixBase<Derived>& X,
                                            const NeighborGraph<typename Derived::Scalar>& graph) const {
    using T = typename Derived::Scalar;
    static_assert(Real<T>, "nldr::Isomap: the points must be float or double");
    const PointsRef<T> points(X.derived());
    if (options.storage == GeodesicStorage::single) return fit_points<T, float>(points, graph);
    return fit_points<T, T>(points, graph);
  }

 private:
  /// The fit, geodesics stored in S (compiled once in nldr::registry: core/precompiled.hpp).
  template <Real T, Real S>
  IsomapModel<T> fit_points(const PointsRef<T>& points, const NeighborGraph<T>& graph) const;
};

template <Real T, Real S>
IsomapModel<T> Isomap::fit_points(const PointsRef<T>& points, const NeighborGraph<T>& graph) const {
  validate_points(points, "X", 2);
  validate_not_all_identical(points);
  const auto n = index_t(points.rows());
  validate_same_rows(n, graph.size(), "X", "graph");
  routines::validate_scaling_sizes(options.dim, options.negative_eigenvalues, n);
  const std::uint64_t bytes = std::uint64_t(n) * std::uint64_t(n) * sizeof(S);
  const std::string type = sizeof(S) == 4 ? "float" : "double";
  check_memory(bytes, detail::concat("Isomap: the ", n, " x ", n, " geodesic matrix (", type, ")"),
               sizeof(S) == 4 ? "use nldr::LandmarkIsomap (method landmark-isomap: m x N memory)"
                              : "use nldr::LandmarkIsomap (method landmark-isomap: m x N memory), or "
                                "storage = float (GeodesicStorage::single: half the memory)",
               options.memory_limit);

  const auto pairs = routines::residual_pair_sample(n, options.residual_pairs, options.seed);
  IsomapModel<T> model;
  Stopwatch watch;
  const NeighborGraph<T> symmetric = routines::geodesic_graph<T>(points, graph, options.edge_lengths);
  detail::require_connected(symmetric, "Isomap");
  model.times.add("symmetrize", watch.seconds());

  watch.restart();
  Matrix<S> geodesic =
      all_pairs_shortest_paths<S>(symmetric, options.memory_limit, progress_part(options.progress, 0, 0.8));
  model.times.add("shortest paths", watch.seconds());

  // Keep the geodesics of the residual-variance pairs before B overwrites the matrix.
  std::vector<double> reference(pairs.size());
  for (std::size_t p = 0; p < pairs.size(); ++p) reference[p] = double(geodesic(pairs[p].first, pairs[p].second));

  watch.restart();
  parallel_for(0, n, [&](std::int64_t i) { geodesic.row(i) = geodesic.row(i).cwiseAbs2(); });
  routines::double_center_squared(geodesic);
  model.times.add("centering", watch.seconds());
  report_progress(options.progress, 0.9, "Isomap");

  const routines::Scaling scaling =
      routines::scale_centered(geodesic, options.dim, options.negative_eigenvalues, options.eigen, "Isomap",
                               model.times, progress_part(options.progress, 0.9, 1));
  routines::fill_scaling_results(model, scaling);

  watch.restart();
  PearsonAccumulator accumulator;
  for (std::size_t p = 0; p < pairs.size(); ++p)
    accumulator.add(reference[p], (model.coordinates.row(pairs[p].first).template cast<double>() -
                                   model.coordinates.row(pairs[p].second).template cast<double>())
                                      .norm());
  model.residual_variance = residual_variance_of(accumulator);
  model.residual_pairs = std::int64_t(pairs.size());
  model.residual_sampled = std::int64_t(pairs.size()) < std::int64_t(n) * (n - 1) / 2;
  model.times.add("residual variance", watch.seconds());

  watch.restart();
  Eigen::VectorXd mean_squared(n);
  for (index_t j = 0; j < n; ++j) mean_squared[j] = double(geodesic(j, j)) + scaling.trace / double(n);
  model.pseudo_inverse = routines::Triangulation::of(scaling, Eigen::VectorXd()).pseudo_inverse;
  model.mean_squared = std::move(mean_squared);
  model.training = routines::TrainingNeighbors<T>::from(Matrix<T>(points), graph, 1);
  model.times.add("index", watch.seconds());

  watch.restart();
  const Eigen::VectorXd diagonal = geodesic.diagonal().template cast<double>();
  parallel_for(0, n, [&](std::int64_t i) {
    for (index_t j = 0; j < n; ++j)
      geodesic(i, j) = S(std::sqrt(std::max(0.0, diagonal[i] + diagonal[j] - 2.0 * double(geodesic(i, j)))));
  });
  if constexpr (std::is_same_v<S, float>)
    model.geodesics_single = std::move(geodesic);
  else
    model.geodesics_double = std::move(geodesic);
  model.times.add("geodesics for transform", watch.seconds());
  model.geodesic_bytes = std::int64_t(bytes);
  model.geodesic_storage = type;
  model.graph_edges = symmetric.num_edges();
  return model;
}

NLDR_PRECOMPILED(IsomapModel<float> Isomap::fit_points<float, float>(
    const PointsRef<float>&, const NeighborGraph<float>&) const)
NLDR_PRECOMPILED(IsomapModel<double> Isomap::fit_points<double, double>(
    const PointsRef<double>&, const NeighborGraph<double>&) const)
NLDR_PRECOMPILED(IsomapModel<double> Isomap::fit_points<double, float>(
    const PointsRef<double>&, const NeighborGraph<double>&) const)

static_assert(GraphEmbedder<Isomap, float> && GraphEmbedder<Isomap, double>);

}  // namespace nldr
