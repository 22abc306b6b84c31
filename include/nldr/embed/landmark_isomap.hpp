// Landmark Isomap, L-ISOMAP (de Silva & Tenenbaum 2003, "Global versus local methods in nonlinear
// dimensionality reduction"; de Silva & Tenenbaum 2004, "Sparse multidimensional scaling using
// landmark points"; David 2015, "L-ISOMAP"; docs/algorithms.md sec. 3.4):
//   1. choose m landmarks (uniformly at random with a seed, or MaxMin: each next landmark is the
//      point farthest, in graph geodesic distance, from those chosen so far);
//   2. Dijkstra from the landmarks only: the N x m geodesics G (row j: point j to the landmarks);
//   3. landmark MDS: classical MDS of the m x m block, B_m = -1/2 J Delta_m J with eigenpairs
//      (lambda_k, v_k); L^# has rows v_k^T / sqrt(lambda_k);
//   4. distance-based triangulation of every point x from its squared geodesics delta_x to the
//      landmarks: y_x = -1/2 L^# (delta_x - delta_mean), delta_mean = mean column of Delta_m
//      (de Silva & Tenenbaum 2004, eq. 3). Landmarks land on their own L-MDS coordinates.
// With every point a landmark this is exactly Isomap. Memory O(m N), time O(m E log N).
// New points (transform) are joined to training points by the selector's rule (docs/models.md) and
// triangulated the same way, through routines/geodesic_placement.hpp as Isomap's.
#pragma once

#include <nldr/core/correlation.hpp>
#include <nldr/core/described.hpp>
#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/precompiled.hpp>
#include <nldr/core/progress.hpp>
#include <nldr/core/random.hpp>
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
#include <nldr/neighbors/graph.hpp>
#include <nldr/neighbors/point_index.hpp>
#include <nldr/neighbors/shortest_paths.hpp>

#include <Eigen/Core>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace nldr {

/// How landmarks are chosen.
enum class LandmarkSelection {
  random,   ///< m distinct points uniformly at random (seeded); sources run in parallel
  max_min,  ///< first at random, then greedily the point farthest from all chosen (de Silva &
            ///< Tenenbaum 2004, sec. 5); spreads landmarks evenly but runs Dijkstra serially
};

inline constexpr std::array<Choice<LandmarkSelection>, 2> landmark_selections{
    {{"random", LandmarkSelection::random}, {"max-min", LandmarkSelection::max_min}}};

/// Options of Landmark Isomap.
struct LandmarkIsomapOptions {
  /// Target dimension d, 1 <= d < landmarks.
  index_t dim = 2;
  /// Number of landmarks m, dim < m <= N (at least dim + 1 in general position).
  index_t landmarks = 100;
  /// How the landmarks are chosen.
  LandmarkSelection selection = LandmarkSelection::random;
  /// Edge lengths of the graph: recomputed from X (default) or the graph's own.
  EdgeLengths edge_lengths = EdgeLengths::euclidean;
  /// Seed of the landmark choice and of the residual-variance sample.
  std::uint64_t seed = 0;
  /// Most negative eigenvalues of the landmark MDS matrix to report (0 <= count <= m - dim).
  index_t negative_eigenvalues = 0;
  /// Residual variance uses all (landmark, point) pairs when there are at most this many,
  /// otherwise this many drawn uniformly with `seed`; >= 1.
  std::int64_t residual_pairs = 1'000'000;
  /// Eigensolver settings for the m x m landmark MDS.
  TopEigenOptions eigen{};
  /// Memory limit in bytes for the N x m geodesic matrix (0: the memory available now).
  std::uint64_t memory_limit = 0;
  /// Optional progress and cancel hook (core/progress.hpp): the landmarks' shortest paths report
  /// 0 .. 0.8 (by blocks of landmarks, or per landmark under max-min), the m x m eigensolve 0.8 .. 0.9,
  /// the triangulation 1 (docs/tool.md, "Progress and logging").
  ProgressCallback progress{};

  /// The parameters a caller names (core/described.hpp; docs/registry.md).
  template <class Visitor>
  void describe(Visitor& v) {
    v.number("dim", dim, {1, 1e9}, "target dimension d");
    v.number("landmarks", landmarks, {2, 1e9}, "number of landmarks m");
    v.choice("selection", selection, landmark_selections,
             "landmark choice: seeded random, or greedy farthest (MaxMin)");
    describe_geodesic_mds(v, edge_lengths, negative_eigenvalues, seed, eigen);
  }
};

/// A fitted Landmark Isomap: coordinates, the landmark MDS, and what transform needs.
template <Real T>
struct LandmarkIsomapModel : Embedding<T>, routines::PlacesByTrainingNeighbors<LandmarkIsomapModel<T>> {
  /// The m landmark point indices: random ones in the order their shortest paths ran (batches of
  /// nearby landmarks side by side), max-min ones in choice order.
  std::vector<index_t> landmarks;
  Matrix<T> geodesics_to_landmarks;  ///< N x m: row j = geodesic distances from point j to the landmarks
  Eigen::MatrixXd pseudo_inverse;   ///< d x m: L#, rows v_k^T / sqrt(lambda_k)
  Eigen::VectorXd mean_squared;     ///< m: delta_mean, mean squared geodesic from each landmark to the landmarks
  /// Most negative eigenvalues of the landmark MDS matrix (ascending, < 0) and whether computed.
  Eigen::VectorXd negative_eigenvalues;
  SolverStatus negative_status = SolverStatus::not_computed;
  double trace = 0;  ///< trace of the centered landmark matrix
  /// 1 - r^2 between geodesic and embedding distances over (landmark, point) pairs (with random
  /// landmarks a uniform sample of all pairs); NaN when undefined.
  double residual_variance = 0;
  std::int64_t residual_pairs = 0;
  bool residual_sampled = false;
  /// Training points, their search index and the rule that joins a new point to them.
  routines::TrainingNeighbors<T> training;

  /// Triangulates points from their geodesic distances to the landmarks: `distances` is P x m
  /// (row p: distance of point p to landmarks[0..m-1], finite, >= 0); returns P x d.
  /// \throws nldr::invalid_argument naming "distances".
  template <class Derived>
  Matrix<T> triangulate(const Eigen::MatrixBase<Derived>& distances) const {
    if (distances.cols() != Eigen::Index(landmarks.size()))
      throw_invalid("distances", "distances has ", distances.cols(), " columns but the model has m = ",
                    landmarks.size(), " landmarks: one column per landmark");
    if (distances.rows() == 0) return Matrix<T>(0, pseudo_inverse.rows());
    validate_points(distances, "distances");
    if ((distances.array() < 0).any())
      throw_invalid("distances", "distances has a negative entry: geodesic distances are >= 0");
    return routines::Triangulation{pseudo_inverse, mean_squared}.template place<T>(
        distances.template cast<double>().cwiseAbs2());
  }

  /// Throws invalid_argument("model") unless the fields fit together (e.g. after a model file).
  void check_state() const {
    check_embedding_state(*this);
    training.check_state(this->coordinates.rows());
    const Eigen::Index m = Eigen::Index(landmarks.size()), n = training.size();
    for (index_t l : landmarks) require_state(l >= 0 && l < n, "landmarks index training points");
    require_state(geodesics_to_landmarks.rows() == n && geodesics_to_landmarks.cols() == m,
                  "N x m geodesics to the landmarks");
    require_state(pseudo_inverse.rows() == this->coordinates.cols() && pseudo_inverse.cols() == m, "L# is d x m");
    require_state(mean_squared.size() == m, "m mean squared geodesics");
  }

  template <class Visitor>
  void visit(Visitor& v) {
    v("landmarks", landmarks, FieldRole::result);
    routines::visit_scaling_results(v, *this);
    v("residual_variance", residual_variance, FieldRole::result);
    v("residual_pairs", residual_pairs, FieldRole::result);
    v("residual_sampled", residual_sampled, FieldRole::result);
    training.visit(v);
    v("geodesics_to_landmarks", geodesics_to_landmarks, FieldRole::state);
    v("pseudo_inverse", pseudo_inverse, FieldRole::state);
    v("mean_squared", mean_squared, FieldRole::state);
  }

 private:
  friend routines::PlacesByTrainingNeighbors<LandmarkIsomapModel<T>>;

  /// What transform(X_new[, k]) (routines::PlacesByTrainingNeighbors) does with the neighbors it finds:
  /// Places new points (P x D, finite, same D) joined to the training points as the graph's
  /// selector joined them (docs/models.md, "What a new point gets"): the geodesic of new point x to
  /// landmark a is min_q (|x - x_q| + G(q, a)) over its training neighbors q. Cost O(P (k + d) m)
  /// for k neighbors each. \throws nldr::invalid_argument naming "X_new".
  Matrix<T> place(const detail::NeighborLists<T>& neighbors) const;
};

template <Real T>
Matrix<T> LandmarkIsomapModel<T>::place(const detail::NeighborLists<T>& neighbors) const {
  return routines::place_by_geodesics<T>(neighbors, geodesics_to_landmarks, this->coordinates, pseudo_inverse,
                                         mean_squared);
}

NLDR_PRECOMPILED(Matrix<float> LandmarkIsomapModel<float>::place(const detail::NeighborLists<float>&) const)
NLDR_PRECOMPILED(Matrix<double> LandmarkIsomapModel<double>::place(const detail::NeighborLists<double>&) const)

/// Landmark Isomap of X along a neighbor graph from any selector (union-symmetrized, Euclidean
/// edge lengths recomputed from X, as Isomap).
///
/// \code
/// auto data = nldr::datasets::swiss_roll<double>({.n = 100000, .seed = 1});
/// auto graph = nldr::KNearest{12}(data.points);
/// auto model = nldr::LandmarkIsomap{{.dim = 2, .landmarks = 200}}.fit(data.points, graph);
/// model.coordinates;                 // 100000 x 2
/// auto y = model.transform(X_new);   // new points, same triangulation
/// \endcode
struct LandmarkIsomap {
  LandmarkIsomapOptions options;

  /// X: N x D points (finite); graph: any NeighborGraph on the N points.
  /// \throws nldr::invalid_argument ("X", "graph", "dim", "landmarks", ...), nldr::disconnected_graph,
  /// nldr::memory_limit_exceeded.
  template <Real T>
  LandmarkIsomapModel<T> fit(const PointsArg<T>& X, const NeighborGraph<T>& graph) const;

 private:
  /// Chooses the m landmarks into `landmarks`; returns their N x m geodesics.
  template <Real T>
  Matrix<T> max_min_landmarks(const NeighborGraph<T>& graph, index_t m, std::vector<index_t>& landmarks,
                              const ProgressCallback& progress) const {
    const index_t n = graph.size();
    Matrix<T> to_landmarks(n, m);
    std::vector<T> from_one(static_cast<std::size_t>(n));
    std::vector<double> nearest(std::size_t(n), std::numeric_limits<double>::infinity());
    detail::DijkstraWorkspace work;
    index_t next = index_t(Random(options.seed).below(std::uint64_t(n)));
    for (index_t a = 0; a < m; ++a) {
      landmarks.push_back(next);
      work.run(graph, next, std::span<T>(from_one));
      // Next landmark: largest distance to the chosen set (ties: smallest index).
      double farthest = -1;
      for (index_t j = 0; j < n; ++j) {
        to_landmarks(j, a) = from_one[std::size_t(j)];
        nearest[j] = std::min(nearest[j], double(from_one[std::size_t(j)]));
        if (nearest[j] > farthest) {
          farthest = nearest[j];
          next = j;
        }
      }
      report_progress(progress, double(a + 1) / double(m), "LandmarkIsomap: max-min landmarks");
    }
    return to_landmarks;
  }

  template <Real T>
  void residual(LandmarkIsomapModel<T>& model) const {
    const Matrix<T>& geodesics = model.geodesics_to_landmarks;
    const auto m = index_t(geodesics.cols()), n = index_t(geodesics.rows());
    if (options.residual_pairs < 1)
      throw_invalid("residual_pairs", "residual_pairs = ", options.residual_pairs, " must be >= 1");
    PearsonAccumulator accumulator;
    const auto add = [&](index_t a, index_t j) {
      const index_t l = model.landmarks[a];
      if (l == j) return;
      accumulator.add(double(geodesics(j, a)),
                      (model.coordinates.row(l).template cast<double>() - model.coordinates.row(j).template cast<double>())
                          .norm());
    };
    const std::int64_t all = std::int64_t(m) * n;
    model.residual_sampled = all > options.residual_pairs;
    if (!model.residual_sampled) {
      for (index_t a = 0; a < m; ++a)
        for (index_t j = 0; j < n; ++j) add(a, j);
    } else {
      Random random(options.seed ^ 0x5eed5eed5eed5eedULL);
      for (std::int64_t p = 0; p < options.residual_pairs; ++p)
        add(index_t(random.below(std::uint64_t(m))), index_t(random.below(std::uint64_t(n))));
    }
    model.residual_pairs = std::int64_t(accumulator.count());
    model.residual_variance = residual_variance_of(accumulator);
  }
};

template <Real T>
LandmarkIsomapModel<T> LandmarkIsomap::fit(const PointsArg<T>& X, const NeighborGraph<T>& graph) const {
  validate_points(X, "X", 2);
  validate_not_all_identical(X);
  const auto n = index_t(X.rows());
  validate_same_rows(n, graph.size(), "X", "graph");
  const index_t m = options.landmarks;
  if (m < 2 || m > n)
    throw_invalid("landmarks", "landmarks = ", m, " must lie in [2, N = ", n, "]: use landmarks = ", n, " or fewer");
  validate_dimension(options.dim, m, "landmarks");
  if (options.negative_eigenvalues < 0 || options.negative_eigenvalues > m - options.dim)
    throw_invalid("negative_eigenvalues", "negative_eigenvalues = ", options.negative_eigenvalues,
                  " must lie in [0, landmarks - dim = ", m - options.dim, "]");
  check_memory(std::uint64_t(m) * std::uint64_t(n) * sizeof(T),
               detail::concat("LandmarkIsomap: the ", n, " x ", m, " landmark geodesic matrix"),
               "use fewer landmarks", options.memory_limit);

  LandmarkIsomapModel<T> model;
  StageTimes times;
  Stopwatch watch;
  const NeighborGraph<T> symmetric = routines::geodesic_graph<T>(X, graph, options.edge_lengths);
  detail::require_connected(symmetric, "LandmarkIsomap");
  times.add("symmetrize", watch.seconds());

  // The geodesics are computed straight into the N x m layout that the triangulation and transform
  // read: no m x N matrix to transpose (at N = 10^6, m = 1,000 in double, 8 GB and 12 s less).
  watch.restart();
  Matrix<T>& geodesics = model.geodesics_to_landmarks;
  if (options.selection == LandmarkSelection::random) {
    model.landmarks = random_subset(n, m, options.seed);
    geodesics = shortest_paths_by_point<T>(symmetric, model.landmarks, 0, progress_part(options.progress, 0, 0.8));
  } else {
    geodesics = max_min_landmarks(symmetric, m, model.landmarks, progress_part(options.progress, 0, 0.8));
  }
  times.add("shortest paths", watch.seconds());

  // Landmark MDS on the m x m block of squared geodesics.
  Matrix<double> block(m, m);
  for (index_t a = 0; a < m; ++a)
    for (index_t b = 0; b < m; ++b) block(a, b) = std::pow(double(geodesics(model.landmarks[b], a)), 2);
  const Eigen::VectorXd mean_squared = block.rowwise().mean();
  routines::double_center_squared(block);
  const routines::Scaling scaling = routines::scale_centered(block, options.dim, options.negative_eigenvalues,
                                                             options.eigen, "LandmarkIsomap", times,
                                                             progress_part(options.progress, 0.8, 0.9));
  for (index_t k = 0; k < options.dim; ++k)
    if (!(scaling.values[k] > 0))
      throw_invalid("landmarks", "the landmark MDS has eigenvalue ", k + 1, " = ", scaling.values[k],
                    " <= 0, so the ", m, " landmarks do not span dim = ", options.dim,
                    " dimensions: use more landmarks, or selection = max-min");
  const routines::Triangulation triangulation = routines::Triangulation::of(scaling, mean_squared);
  model.pseudo_inverse = triangulation.pseudo_inverse;
  model.mean_squared = triangulation.mean_squared;
  routines::fill_scaling_results(model, scaling);  // coordinates: the landmarks', replaced below

  // Every point from its row of the landmark geodesics (finite: the graph is connected), read in
  // place: through triangulate() they were checked and copied into an N x m matrix of doubles
  // (8 GB and 23 s at N = 10^6, m = 1,000).
  watch.restart();
  model.coordinates = triangulation.template place_each<T>(n, [&](std::int64_t p, Eigen::VectorXd& delta) {
    delta = geodesics.row(p).transpose().template cast<double>().cwiseAbs2();
  });
  times.add("triangulation", watch.seconds());

  watch.restart();
  residual(model);
  times.add("residual variance", watch.seconds());
  watch.restart();
  model.training = routines::TrainingNeighbors<T>::from(Matrix<T>(X), graph, 1);
  times.add("index", watch.seconds());
  model.times = std::move(times);
  report_progress(options.progress, 1, "LandmarkIsomap");
  return model;
}

NLDR_GRAPH_EMBEDDER_FIT(LandmarkIsomap, LandmarkIsomapModel)

}  // namespace nldr
