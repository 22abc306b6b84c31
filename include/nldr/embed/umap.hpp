// UMAP: uniform manifold approximation and projection (McInnes, Healy & Melville 2018), on any
// nldr neighbor graph (docs/methods/umap.md).
//
// 1. The fuzzy simplicial set of the graph (routines/umap_fuzzy_graph.hpp): per point rho and sigma,
//    memberships exp(-(d - rho) / sigma), the fuzzy union; with labels, its intersection with the
//    labels' categorical set (supervised UMAP).
// 2. The starting layout: the spectral layout of that set (routines/spectral_layout.hpp, through
//    Laplacian Eigenmaps' Laplacian and eigensolver), the points' principal components, seeded random
//    coordinates, or the caller's; scaled as umap-learn scales them.
// 3. Epochs of edge and negative sampling (routines/umap_optimizer.hpp), the same for every thread
//    count, with the curve 1 / (1 + a d^(2b)) fitted to min_dist and spread (routines/umap_curve.hpp),
//    each point stepping by Adam on its epoch's summed terms (uwot's batch mode) or after every term.
// transform places new points as umap-learn does: memberships to their training neighbors, the
// weighted mean of those neighbors' coordinates as start, then a third of the epochs against the
// fixed training layout.
#pragma once

#include <nldr/core/described.hpp>
#include <nldr/core/error.hpp>
#include <nldr/core/iteration.hpp>
#include <nldr/core/precompiled.hpp>
#include <nldr/core/progress.hpp>
#include <nldr/core/random.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>
#include <nldr/embed/eigen_options.hpp>
#include <nldr/embed/embedder.hpp>
#include <nldr/embed/embedding.hpp>
#include <nldr/embed/model_fields.hpp>
#include <nldr/embed/routines/initial_layout.hpp>
#include <nldr/embed/routines/out_of_sample.hpp>
#include <nldr/embed/routines/spectral_fit.hpp>
#include <nldr/embed/routines/spectral_layout.hpp>
#include <nldr/embed/routines/umap_curve.hpp>
#include <nldr/embed/routines/umap_fuzzy_graph.hpp>
#include <nldr/embed/routines/umap_optimizer.hpp>
#include <nldr/embed/routines/weighted_graph.hpp>
#include <nldr/neighbors/graph.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

namespace nldr {

/// UMAP's starting layout.
enum class UmapInit {
  spectral,  ///< the spectral layout of the fuzzy graph (umap-learn's default)
  pca,       ///< the first d principal components of the points
  random,    ///< seeded uniform coordinates in [-10, 10]
  given,     ///< UmapOptions::initial
};

inline constexpr std::array<Choice<UmapInit>, 4> umap_inits{
    {{"spectral", UmapInit::spectral}, {"pca", UmapInit::pca}, {"random", UmapInit::random},
     {"given", UmapInit::given}}};

using routines::UmapOptimizer;

inline constexpr std::array<Choice<UmapOptimizer>, 2> umap_optimizers{
    {{"adam", UmapOptimizer::adam}, {"sgd", UmapOptimizer::sgd}}};

/// Options of Umap; the names and defaults are umap-learn's.
struct UmapOptions {
  index_t dim = 2;                  ///< target dimension d, 1 <= d and d + 1 < N
  double min_dist = 0.1;            ///< embedded distance below which neighbors count as fully similar, [0, spread]
  double spread = 1;                ///< scale of the embedded similarities' decay, > 0
  int n_epochs = 0;                 ///< epochs, >= 0; 0: 500 for at most 10,000 points, else 200
  double learning_rate = 1;         ///< initial step, > 0, falling linearly to 0
  double negative_sample_rate = 5;  ///< negative samples per edge sample, > 0
  double repulsion_strength = 1;    ///< weight gamma of the negative samples, >= 0
  double local_connectivity = 1;    ///< neighbors each point is fully connected to (rho), >= 0
  double set_op_mix_ratio = 1;      ///< 1: fuzzy union, 0: fuzzy intersection, in [0, 1]
  double target_weight = 0.5;       ///< supervised: weight of the labels against the data, [0, 1]
  UmapInit init = UmapInit::spectral;
  /// How the layout steps: adam (uwot's reproducible batch mode) or sgd (umap-learn's per-sample steps).
  UmapOptimizer optimizer = UmapOptimizer::adam;
  std::uint64_t seed = 0;           ///< the initialization's noise and the negative samples
  /// init = given: the N x d starting coordinates (rescaled to [0, 10] per axis, as every start).
  Matrix<double> initial{};
  /// Supervised UMAP: one categorical label per point (-1: unknown); empty: unsupervised.
  std::vector<index_t> labels{};
  BottomEigenOptions eigen{};  ///< the spectral layout's eigensolver
  /// Optional progress and cancel hook (core/progress.hpp): the epochs report their fraction.
  ProgressCallback progress{};
  /// Optional observer (core/iteration.hpp) after each epoch (phase "optimization", no objective:
  /// routines/umap_optimizer.hpp); returning false ends the fit with the coordinates of that epoch.
  IterationCallback on_iteration{};

  /// The parameters a caller names (core/described.hpp; docs/registry.md).
  template <class Visitor>
  void describe(Visitor& v) {
    v.number("dim", dim, {1, 1e9}, "target dimension d");
    v.number("min_dist", min_dist, {0, 1e300},
             "embedded distance below which neighbors count as fully similar (<= spread)");
    v.number("spread", spread, {1e-300, 1e300}, "scale of the embedded similarities' decay");
    v.number("n_epochs", n_epochs, {0, 1e9},
             "optimization epochs (0: 500 for at most 10,000 points, else 200)");
    v.number("learning_rate", learning_rate, {1e-300, 1e300}, "initial step size, falling linearly to 0");
    v.number("negative_sample_rate", negative_sample_rate, {1e-300, 1e300}, "negative samples per edge sample");
    v.number("repulsion_strength", repulsion_strength, {0, 1e300}, "weight of the negative samples");
    v.number("local_connectivity", local_connectivity, {0, 1e300},
             "nearest neighbors each point is fully connected to");
    v.number("set_op_mix_ratio", set_op_mix_ratio, {0, 1},
             "1: fuzzy union of the points' sets, 0: fuzzy intersection");
    v.number("target_weight", target_weight, {0, 1}, "supervised fit: weight of the labels against the data");
    v.choice("init", init, umap_inits,
             "starting layout: spectral layout of the fuzzy graph, principal components, random, or given");
    v.choice("optimizer", optimizer, umap_optimizers,
             "layout steps: adam, one per point and epoch (uwot's batch mode), or sgd, one per sample (umap-learn)");
    v.number("seed", seed, seed_range, "random seed");
  }
};

/// A fitted UMAP: the coordinates, the curve and sampling settings, and what transform needs.
template <Real T>
struct UmapModel : Embedding<T>, routines::PlacesByTrainingNeighbors<UmapModel<T>> {
  double a = 0, b = 0;  ///< the fitted curve 1 / (1 + a d^(2b))
  double learning_rate = 1, negative_sample_rate = 5, repulsion_strength = 1, local_connectivity = 1;
  index_t n_epochs = 0;            ///< epochs of the fit
  index_t n_epochs_requested = 0;  ///< the option (0: umap-learn's default); transform runs a third of it
  std::int64_t seed = 0;
  /// Training points, their search index and the rule that gives a new point its neighbors.
  routines::TrainingNeighbors<T> training;
  OptimizerDiagnostics optimizer;

  void check_state() const {
    check_embedding_state(*this);
    training.check_state(this->coordinates.rows());
    require_state(a > 0 && b > 0 && std::isfinite(a) && std::isfinite(b), "a > 0 and b > 0");
    require_state(learning_rate > 0 && negative_sample_rate > 0 && repulsion_strength >= 0 && local_connectivity >= 0,
                  "learning_rate > 0, negative_sample_rate > 0, repulsion_strength >= 0, local_connectivity >= 0");
    require_state(n_epochs >= 1 && n_epochs_requested >= 0, "n_epochs >= 1");
  }

  template <class Visitor>
  void visit(Visitor& v) {
    visit_optimizer(v, optimizer);
    v("a", a, FieldRole::result);
    v("b", b, FieldRole::result);
    v("learning_rate", learning_rate, FieldRole::state);
    v("negative_sample_rate", negative_sample_rate, FieldRole::state);
    v("repulsion_strength", repulsion_strength, FieldRole::state);
    v("local_connectivity", local_connectivity, FieldRole::state);
    v("n_epochs", n_epochs, FieldRole::result);
    v("n_epochs_requested", n_epochs_requested, FieldRole::state);
    v("seed", seed, FieldRole::state);
    training.visit(v);
  }

 private:
  friend routines::PlacesByTrainingNeighbors<UmapModel<T>>;

  /// What transform(X_new[, k]) (routines::PlacesByTrainingNeighbors) does with the neighbors it finds:
  /// Places new points (P x D, finite, same D) among the training points the graph's selector would
  /// join them to (docs/models.md, "What a new point gets"): memberships to them with rho from
  /// local_connectivity - 1 (umap-learn's rule), start at their weighted mean, then n_epochs / 3
  /// epochs (0 requested: 100 for at most 10,000 new points, else 30) against the fixed training
  /// layout. A new point equal to a training point gets that point's coordinates. Rows in parallel,
  /// the same for any thread count. \throws nldr::invalid_argument naming "X_new".
  Matrix<T> place(const detail::NeighborLists<T>& lists) const;
};

template <Real T>
Matrix<T> UmapModel<T>::place(const detail::NeighborLists<T>& lists) const {
  const auto count = index_t(lists.offsets.size() - 1);
  // The memberships of each new point to its training neighbors.
  double total = 0;
  for (T d : lists.distances) total += double(d);
  const double mean_distance = lists.distances.empty() ? 0.0 : total / double(lists.distances.size());
  routines::WeightedGraph to_training;
  to_training.row_offsets.assign(lists.offsets.begin(), lists.offsets.end());
  to_training.columns.assign(lists.indices.begin(), lists.indices.end());
  to_training.values.resize(lists.indices.size());
  parallel_for(0, count, [&](std::int64_t p) {
    const offset_t begin = lists.offsets[p], end = lists.offsets[p + 1];
    const std::vector<double> distances(lists.distances.begin() + begin, lists.distances.begin() + end);
    const routines::SmoothKnn scale =
        routines::smooth_knn(distances, std::max(0.0, local_connectivity - 1), mean_distance);
    for (offset_t e = begin; e < end; ++e) to_training.values[e] = routines::membership(distances[e - begin], scale);
  });
  const Matrix<double> fixed = this->coordinates.template cast<double>();
  Matrix<double> Y(count, fixed.cols());
  for (index_t p = 0; p < count; ++p) {
    double weight = 0;
    Eigen::RowVectorXd sum = Eigen::RowVectorXd::Zero(fixed.cols());
    for (offset_t e = lists.offsets[p]; e < lists.offsets[p + 1]; ++e) {
      sum += to_training.values[e] * fixed.row(to_training.columns[e]);
      weight += to_training.values[e];
    }
    Y.row(p) = sum / weight;
  }
  const int epochs = n_epochs_requested > 0 ? std::max<int>(1, int(n_epochs_requested / 3)) : count <= 10000 ? 100 : 30;
  const routines::WeightedGraph kept = routines::without_weak_edges(to_training, epochs, epochs);
  routines::optimize_umap_placement(Y, kept, fixed,
                                    {.a = a, .b = b, .repulsion_strength = repulsion_strength,
                                     .learning_rate = learning_rate, .negative_sample_rate = negative_sample_rate,
                                     .n_epochs = epochs, .seed = routines::detail_umap::mix(std::uint64_t(seed) ^ 0x7472616e73666f72ULL)});
  Matrix<T> result = Y.template cast<T>();
  for (index_t p = 0; p < count; ++p)
    if (lists.distances[lists.offsets[p]] == T(0)) result.row(p) = this->coordinates.row(lists.indices[lists.offsets[p]]);
  return result;
}

NLDR_PRECOMPILED(Matrix<float> UmapModel<float>::place(const detail::NeighborLists<float>&) const)
NLDR_PRECOMPILED(Matrix<double> UmapModel<double>::place(const detail::NeighborLists<double>&) const)

namespace detail {

/// Validates the options of a UMAP fit on N points. \throws nldr::invalid_argument naming the option.
inline void validate_umap_options(const UmapOptions& o, index_t n) {
  if (o.n_epochs < 0) throw_invalid("n_epochs", "n_epochs = ", o.n_epochs, " must be >= 0 (0: umap-learn's default)");
  if (!(o.learning_rate > 0) || !std::isfinite(o.learning_rate))
    throw_invalid("learning_rate", "learning_rate = ", o.learning_rate, " must be finite and > 0");
  if (!(o.negative_sample_rate > 0) || !std::isfinite(o.negative_sample_rate))
    throw_invalid("negative_sample_rate", "negative_sample_rate = ", o.negative_sample_rate, " must be finite and > 0");
  if (!(o.repulsion_strength >= 0) || !std::isfinite(o.repulsion_strength))
    throw_invalid("repulsion_strength", "repulsion_strength = ", o.repulsion_strength, " must be finite and >= 0");
  if (!(o.local_connectivity >= 0) || !std::isfinite(o.local_connectivity))
    throw_invalid("local_connectivity", "local_connectivity = ", o.local_connectivity, " must be finite and >= 0");
  if (!(o.set_op_mix_ratio >= 0 && o.set_op_mix_ratio <= 1))
    throw_invalid("set_op_mix_ratio", "set_op_mix_ratio = ", o.set_op_mix_ratio, " must lie in [0, 1]");
  if (!(o.target_weight >= 0 && o.target_weight <= 1))
    throw_invalid("target_weight", "target_weight = ", o.target_weight, " must lie in [0, 1]");
  if (o.init == UmapInit::given && o.initial.size() == 0)
    throw_invalid("init", "init = given needs the starting coordinates (N x d): pass them, or use init = spectral");
  (void)n;
}

/// `Y` scaled so that its largest absolute coordinate is 10, plus Gaussian noise of standard deviation
/// 1e-4 (umap-learn's treatment of a spectral start).
inline void expand_with_noise(Matrix<double>& Y, Random& random) {
  const double largest = Y.cwiseAbs().maxCoeff();
  if (largest > 0) Y *= 10 / largest;
  for (Eigen::Index i = 0; i < Y.rows(); ++i)
    for (Eigen::Index c = 0; c < Y.cols(); ++c) Y(i, c) += random.normal(0, 1e-4);
}

/// Each column mapped linearly onto [0, 10] (umap-learn, before every optimization); a constant column
/// becomes 0.
inline void scale_to_box(Matrix<double>& Y) {
  for (Eigen::Index c = 0; c < Y.cols(); ++c) {
    const double low = Y.col(c).minCoeff(), high = Y.col(c).maxCoeff();
    if (high > low)
      Y.col(c) = ((Y.col(c).array() - low) * (10 / (high - low))).matrix();
    else
      Y.col(c).setZero();
  }
}

}  // namespace detail

/// UMAP. Usage: `Umap{{.dim = 2, .min_dist = 0.1}}.fit(X, graph)`.
struct Umap {
  UmapOptions options;

  /// Embeds with `graph` (N points; any selector's graph, directed or symmetric, any degrees; a
  /// disconnected one is laid out component by component). Result: N x d coordinates, a and b,
  /// the epochs run; timings ("fuzzy graph", "initialization", "optimization", "index").
  /// \throws nldr::invalid_argument, nldr::convergence_error (spectral start).
  template <Real T>
  UmapModel<T> fit(const PointsArg<T>& X, const NeighborGraph<T>& graph) const;
};

template <Real T>
UmapModel<T> Umap::fit(const PointsArg<T>& X, const NeighborGraph<T>& graph) const {
  routines::validate_graph_fit(X, graph, options.dim);
  const index_t n = index_t(X.rows()), dim = options.dim;
  detail::validate_umap_options(options, n);
  const routines::UmapCurve curve = routines::fit_umap_curve(options.min_dist, options.spread);

  UmapModel<T> result;
  Stopwatch clock;
  routines::WeightedGraph fuzzy =
      routines::fuzzy_simplicial_set(graph, options.local_connectivity, options.set_op_mix_ratio);
  if (!options.labels.empty()) fuzzy = routines::intersect_with_labels(fuzzy, options.labels, options.target_weight);
  const int default_epochs = routines::default_umap_epochs(n);
  const int epochs = options.n_epochs > 0 ? options.n_epochs : default_epochs;
  fuzzy = routines::without_weak_edges(fuzzy, epochs, default_epochs);
  result.times.add("fuzzy graph", clock.seconds());

  clock.restart();
  Random random(routines::detail_umap::mix(options.seed));
  Matrix<double> Y;
  const Matrix<T> points = X;
  switch (options.init) {
    case UmapInit::spectral:
      Y = routines::spectral_layout(fuzzy, dim, &points, options.seed, options.eigen, "umap");
      detail::expand_with_noise(Y, random);
      break;
    case UmapInit::pca:
      Y = detail::pca_layout(points, dim, 1.0);
      detail::expand_with_noise(Y, random);
      break;
    case UmapInit::random:
      Y.resize(n, dim);
      for (index_t i = 0; i < n; ++i)
        for (index_t c = 0; c < dim; ++c) Y(i, c) = random.uniform(-10, 10);
      break;
    case UmapInit::given:
      Y = detail::given_layout(options.initial, n, dim);
      break;
  }
  detail::scale_to_box(Y);
  result.times.add("initialization", clock.seconds());

  clock.restart();
  IterationObserver observer(result.optimizer, options.on_iteration, options.progress, epochs, "umap");
  routines::optimize_umap_layout(Y, fuzzy,
                                 {.a = curve.a, .b = curve.b, .repulsion_strength = options.repulsion_strength,
                                  .learning_rate = options.learning_rate,
                                  .negative_sample_rate = options.negative_sample_rate, .n_epochs = epochs,
                                  .seed = options.seed, .optimizer = options.optimizer},
                                 observer);
  result.times.add("optimization", clock.seconds());

  result.coordinates = Y.cast<T>();
  result.a = curve.a;
  result.b = curve.b;
  result.learning_rate = options.learning_rate;
  result.negative_sample_rate = options.negative_sample_rate;
  result.repulsion_strength = options.repulsion_strength;
  result.local_connectivity = options.local_connectivity;
  result.n_epochs = epochs;
  result.n_epochs_requested = options.n_epochs;
  result.seed = std::int64_t(options.seed);
  routines::keep_training_points(result, X, graph, 1);
  return result;
}

NLDR_GRAPH_EMBEDDER_FIT(Umap, UmapModel)

}  // namespace nldr
