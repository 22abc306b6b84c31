// t-SNE (van der Maaten & Hinton 2008) on any neighbor graph (van der Maaten 2014), with the
// practice of today (docs/methods/tsne.md): affinities calibrated to a perplexity on the graph's lists
// (routines/tsne_affinities.hpp), PCA start scaled to a standard deviation of 1e-4 (Kobak & Linderman
// 2021), early exaggeration 12 for 250 iterations, the learning rate max(N / early_exaggeration / 4, 50)
// on the true gradient (Belkina et al. 2019, in scikit-learn 1.2's convention), heavy tails by the
// degrees of freedom (Kobak et al. 2020), the repulsion exact, by Barnes-Hut (van der Maaten 2014)
// or FFT-accelerated (Linderman et al. 2019) (routines/tsne_repulsion.hpp), and new points placed
// into the fixed embedding (openTSNE's transform, Policar et al. 2019). Results do not depend on the
// thread count.
#pragma once

#include <nldr/core/described.hpp>
#include <nldr/core/error.hpp>
#include <nldr/core/iteration.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/precompiled.hpp>
#include <nldr/core/precomputed.hpp>
#include <nldr/core/progress.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>
#include <nldr/embed/embedder.hpp>
#include <nldr/embed/embedding.hpp>
#include <nldr/embed/laplacian_eigenmaps.hpp>
#include <nldr/embed/mds.hpp>
#include <nldr/embed/model_fields.hpp>
#include <nldr/embed/routines/fft_repulsion.hpp>
#include <nldr/embed/routines/initial_layout.hpp>
#include <nldr/embed/routines/out_of_sample.hpp>
#include <nldr/embed/routines/spectral_fit.hpp>
#include <nldr/embed/routines/tsne_affinities.hpp>
#include <nldr/embed/routines/tsne_optimizer.hpp>
#include <nldr/embed/routines/tsne_repulsion.hpp>
#include <nldr/neighbors/detail/locality_order.hpp>
#include <nldr/neighbors/graph.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace nldr {

/// Where the descent starts (docs/iterative.md, "Initialization").
enum class TsneInit {
  pca,       ///< first d principal components scaled to standard deviation 1e-4 (classical MDS on distances)
  random,    ///< seeded Gaussian, standard deviation 1e-4
  given,     ///< TsneOptions::initial, used as it is
  spectral,  ///< Laplacian Eigenmaps of the graph (0/1 weights), scaled as pca
};

inline constexpr std::array<Choice<TsneInit>, 4> tsne_inits{
    {{"pca", TsneInit::pca}, {"random", TsneInit::random}, {"given", TsneInit::given},
     {"spectral", TsneInit::spectral}}};

/// How the repulsion is summed.
enum class TsneRepulsion {
  automatic,   ///< fft for d <= 2 and N >= 10,000 when the build has it, barnes-hut for d <= 3, else exact
  exact,       ///< all pairs, O(N^2)
  barnes_hut,  ///< space-partitioning tree, O(N log N), d <= 3
  fft,         ///< interpolation on a grid, O(N), d <= 2
};

inline constexpr std::array<Choice<TsneRepulsion>, 4> tsne_repulsions{
    {{"auto", TsneRepulsion::automatic}, {"exact", TsneRepulsion::exact}, {"barnes-hut", TsneRepulsion::barnes_hut},
     {"fft", TsneRepulsion::fft}}};

/// Options of Tsne.
struct TsneOptions {
  index_t dim = 2;                    ///< target dimension d
  double perplexity = 30;             ///< effective number of neighbors of each point's Gaussian
  double early_exaggeration = 12;     ///< P's factor during the first exaggeration_iterations
  int exaggeration_iterations = 250;  ///< length of the early exaggeration (part of max_iterations)
  double late_exaggeration = 1;       ///< P's factor afterwards (1: none; openTSNE's `exaggeration`)
  /// Step size; 0 = auto: max(N / early_exaggeration / 4, 50). This gradient keeps the factor 4, as
  /// scikit-learn's does: bhtsne, FIt-SNE and openTSNE drop it, so their rate is 4 times this one.
  double learning_rate = 0;
  int max_iterations = 1000;          ///< total iterations, the exaggeration included
  double momentum = 0.5;              ///< during early exaggeration
  double final_momentum = 0.8;        ///< afterwards
  double dof = 1;                     ///< degrees of freedom a of the kernel (1 + r^2 / a)^-a; 1: Cauchy
  TsneInit init = TsneInit::pca;
  Matrix<double> initial{};           ///< N x d starting coordinates for init = given
  TsneRepulsion repulsion = TsneRepulsion::automatic;
  double theta = 0.5;                 ///< Barnes-Hut opening angle in [0, 1] (scikit-learn's `angle`)
  detail::FftRepulsionSettings fft{};  ///< grid settings of repulsion = fft
  int objective_every = 50;           ///< KL divergence every this many iterations (and at the last)
  std::uint64_t seed = 0;             ///< for init = random
  ProgressCallback progress{};        ///< fraction of the iterations done
  IterationCallback on_iteration{};   ///< after every iteration (docs/iterative.md)

  /// The parameters a caller names (core/described.hpp; docs/registry.md).
  template <class Visitor>
  void describe(Visitor& v) {
    v.number("dim", dim, {1, 1e9}, "target dimension d");
    v.number("perplexity", perplexity, {1e-3, 1e9},
             "effective neighbors of each point's Gaussian (the graph needs more than this per point)");
    v.number("early_exaggeration", early_exaggeration, {1, 1e6}, "P's factor during the first iterations");
    v.number("exaggeration_iterations", exaggeration_iterations, {0, 1e9},
             "iterations of early exaggeration (part of max_iterations)");
    v.number("late_exaggeration", late_exaggeration, {1, 1e6}, "P's factor afterwards (1: none)");
    v.number("learning_rate", learning_rate, {0, 1e12},
             "step size (0: auto, max(N / early_exaggeration / 4, 50), scikit-learn's convention)");
    v.number("max_iterations", max_iterations, {1, 1e9}, "iterations, exaggeration included");
    v.number("momentum", momentum, {0, 0.999}, "momentum during early exaggeration");
    v.number("final_momentum", final_momentum, {0, 0.999}, "momentum afterwards");
    v.number("dof", dof, {1e-3, 1e6},
             "degrees of freedom a of the kernel (1 + r^2 / a)^-a (1: Cauchy; < 1: heavier tails)");
    v.choice("init", init, tsne_inits,
             "start: PCA or random at std 1e-4, given coordinates, or Laplacian Eigenmaps of the graph");
    v.choice("repulsion", repulsion, tsne_repulsions,
             "repulsion sum: auto (fft from N = 10,000 for d <= 2 when built, else barnes-hut), exact O(N^2), "
             "barnes-hut (d <= 3), fft (d <= 2)");
    v.number("theta", theta, {0, 1}, "Barnes-Hut opening angle (0: exact)");
    v.number("objective_every", objective_every, {1, 1e9},
             "iterations between KL divergence evaluations (and the last one)");
    v.number("seed", seed, seed_range, "random seed");
  }
};

/// Iterations and step of the placement of new points (TsneModel::transform).
inline constexpr int tsne_transform_iterations = 100;
inline constexpr double tsne_transform_learning_rate = 0.1;

/// A fitted t-SNE: coordinates, the KL divergence and the optimizer's trace, and what transform needs.
template <Real T>
struct TsneModel : Embedding<T> {
  OptimizerDiagnostics optimizer;  ///< iterations, status and the KL divergence trace
  double kl_divergence = std::numeric_limits<double>::quiet_NaN();  ///< the last KL computed
  double perplexity = 0;     ///< the perplexity used (clamped to (N - 1) / 3 for small N)
  double learning_rate = 0;  ///< the learning rate used (the automatic one when 0 was given)
  std::string repulsion;     ///< the repulsion used: exact, barnes-hut or fft
  double dof = 1;            ///< the kernel's degrees of freedom
  double theta = 0.5;        ///< the opening angle transform sums its Barnes-Hut repulsion with
  /// Training points, their search index and the rule that gives a new point its neighbors (empty
  /// after a fit on distances).
  routines::TrainingNeighbors<T> training;

  /// Places new points (P x D, finite, the training D) into the fixed embedding (openTSNE's approach,
  /// Policar et al. 2019): each point's affinities p_j to the training neighbors the graph's selector
  /// would give it (docs/models.md, "What a new point gets"), at perplexity min(perplexity, k / 3)
  /// for its k neighbors; it starts at the p-weighted mean of their coordinates and descends its own
  /// KL(p || q), q_j = w_j / sum_l w_l over every training point, for 100 iterations with the
  /// training points fixed (repulsion by one Barnes-Hut tree of the embedding, theta as fitted).
  /// A new point equal to a training point gets that point's coordinates. O(P (k + log N)) per
  /// iteration; rows run in parallel, the result does not depend on the thread count.
  /// \throws nldr::invalid_argument naming "X_new" (or "model" after a fit on distances).
  template <class Derived>
  Matrix<T> transform(const Eigen::MatrixBase<Derived>& X_new) const {
    require_points();
    return place(training.of(X_new));
  }

  /// As above from their k nearest training points instead, 1 <= k <= N.
  template <class Derived>
  Matrix<T> transform(const Eigen::MatrixBase<Derived>& X_new, index_t k) const {
    require_points();
    return place(training.nearest(X_new, k));
  }

  /// Throws invalid_argument("model") unless the fields fit together (e.g. after a model file).
  void check_state() const {
    check_embedding_state(*this);
    if (training.size() > 0) training.check_state(this->coordinates.rows());
    require_state(perplexity > 0 && dof > 0 && theta >= 0 && theta <= 1, "perplexity > 0, dof > 0, theta in [0, 1]");
    require_state(this->coordinates.cols() <= detail::SpaceTree::max_dim || training.size() == 0,
                  "transform's Barnes-Hut tree needs d <= 3");
  }

  template <class Visitor>
  void visit(Visitor& v) {
    visit_optimizer(v, optimizer);
    v("kl_divergence", kl_divergence, FieldRole::result);
    v("perplexity", perplexity, FieldRole::state);
    v("learning_rate", learning_rate, FieldRole::result);
    v("repulsion", repulsion, FieldRole::result);
    v("dof", dof, FieldRole::state);
    v("theta", theta, FieldRole::state);
    training.visit(v);
  }

 private:
  void require_points() const {
    if (training.size() == 0)
      throw_invalid("model", "this t-SNE model was fit on distances: it has no training points to place new ones by");
  }

  Matrix<T> place(const detail::NeighborLists<T>& lists) const;
};

template <Real T>
Matrix<T> TsneModel<T>::place(const detail::NeighborLists<T>& lists) const {
  const Matrix<double> Y = this->coordinates.template cast<double>();
  const detail::SpaceTree tree(Y);
  const detail::TsneKernel kernel{dof};
  const auto count = Eigen::Index(lists.offsets.size()) - 1, d = Y.cols();
  Matrix<T> placed(count, d);
  parallel_for(0, count, [&](std::int64_t p) {
    const offset_t first = lists.offsets[p], last = lists.offsets[p + 1];
    const auto k = std::size_t(last - first);
    if (lists.distances[first] == T(0)) {
      placed.row(p) = this->coordinates.row(lists.indices[first]);
      return;
    }
    std::vector<double> squared(k), affinity(k);
    for (std::size_t a = 0; a < k; ++a) squared[a] = double(lists.distances[first + offset_t(a)]) *
                                                    double(lists.distances[first + offset_t(a)]);
    detail::calibrate_conditional(squared, std::max(1.0, std::min(perplexity, double(k) / 3)), affinity);
    Eigen::RowVectorXd y = Eigen::RowVectorXd::Zero(d), update = Eigen::RowVectorXd::Zero(d),
                       gains = Eigen::RowVectorXd::Ones(d), force(d), gradient(d);
    for (std::size_t a = 0; a < k; ++a) y += affinity[a] * Y.row(lists.indices[first + offset_t(a)]);
    for (int iteration = 0; iteration < tsne_transform_iterations; ++iteration) {
      gradient.setZero();
      for (std::size_t a = 0; a < k; ++a) {
        const auto j = lists.indices[first + offset_t(a)];
        const double r2 = (y - Y.row(j)).squaredNorm();
        gradient += affinity[a] * kernel.attraction(r2) * (y - Y.row(j));
      }
      force.setZero();
      const double z = tree.repulsion(y.data(), -1, kernel, theta, force.data());
      // d KL(p || q) / dy for one free point: half the symmetric gradient's factor 4.
      gradient = 2.0 * (gradient - force / z);
      for (Eigen::Index c = 0; c < d; ++c) {
        gains[c] = update[c] * gradient[c] < 0 ? gains[c] + 0.2 : std::max(gains[c] * 0.8, 0.01);
        update[c] = 0.5 * update[c] - tsne_transform_learning_rate * gains[c] * gradient[c];
        y[c] += update[c];
      }
    }
    placed.row(p) = y.cast<T>();
  });
  return placed;
}

NLDR_PRECOMPILED(Matrix<float> TsneModel<float>::place(const detail::NeighborLists<float>&) const)
NLDR_PRECOMPILED(Matrix<double> TsneModel<double>::place(const detail::NeighborLists<double>&) const)

namespace detail {

/// The learning rate "auto" (0): max(N / early_exaggeration / 4, 50) for this gradient with its
/// factor 4 (Belkina et al. 2019's N / early_exaggeration in the convention without it).
inline double tsne_learning_rate(double given, index_t n, double early_exaggeration) {
  return given > 0 ? given : std::max(double(n) / early_exaggeration / 4.0, 50.0);
}

/// The perplexity used on N points: at most (N - 1) / 3, so that the 3 x perplexity neighbors a
/// default graph has exist (openTSNE's clamp; scikit-learn refuses perplexity >= N instead).
inline double tsne_perplexity(double perplexity, index_t n) { return std::min(perplexity, double(n - 1) / 3.0); }

/// The repulsion `choice` resolves to for N points in d dimensions, and its name.
inline std::pair<TsneRepulsion, const char*> resolved_repulsion(TsneRepulsion choice, index_t n, index_t d) {
  if (choice == TsneRepulsion::automatic)
    choice = d <= 2 && n >= 10000 ? TsneRepulsion::fft
             : d <= SpaceTree::max_dim                         ? TsneRepulsion::barnes_hut
                                                               : TsneRepulsion::exact;
  switch (choice) {
    case TsneRepulsion::exact: return {choice, "exact"};
    case TsneRepulsion::fft: return {choice, "fft"};
    default: return {TsneRepulsion::barnes_hut, "barnes-hut"};
  }
}

}  // namespace detail

/// t-SNE. Usage: `Tsne{{.perplexity = 30}}.fit(X, graph)` with a graph of about 3 x perplexity
/// neighbors per point (KNearest{90}), or `Tsne{}.fit(precomputed(D))` on all pairs.
struct Tsne {
  TsneOptions options;

  /// Embeds with the affinities calibrated on `graph`'s lists (every point needs more neighbors than
  /// the perplexity; the graph's edge lengths as it holds them). X (N x D) gives the PCA start and is
  /// kept for transform. Cost per iteration: O(N k) attraction plus the repulsion (exact O(N^2),
  /// Barnes-Hut O(N log N), FFT O(N)). Timings: "affinities", "initialization", "optimization", "index".
  /// \throws nldr::invalid_argument naming the offending option, "X" or "graph".
  template <Real T>
  TsneModel<T> fit(const PointsArg<T>& X, const NeighborGraph<T>& graph) const;

  /// Embeds N points given by their N x N distances (symmetric, zero diagonal), with affinities over
  /// all pairs (van der Maaten & Hinton 2008): O(N^2) memory for P. init = pca starts from classical
  /// MDS of D (PCA of the points for Euclidean distances); spectral is not available. The model
  /// cannot transform (no points).
  template <class Derived>
  TsneModel<typename Derived::Scalar> fit(const Precomputed<Derived>& input) const {
    using T = typename Derived::Scalar;
    return fit_distances<T>(input.matrix.derived());
  }

 private:
  static constexpr double initial_stddev = 1e-4;

  void check_options(index_t n) const {
    validate_positive(options.perplexity, "perplexity");
    if (!(options.early_exaggeration >= 1)) throw_invalid("early_exaggeration", "early_exaggeration = ", options.early_exaggeration, " must be >= 1");
    if (!(options.late_exaggeration >= 1)) throw_invalid("late_exaggeration", "late_exaggeration = ", options.late_exaggeration, " must be >= 1");
    if (options.max_iterations < 1) throw_invalid("max_iterations", "max_iterations = ", options.max_iterations, " must be >= 1");
    if (options.exaggeration_iterations < 0)
      throw_invalid("exaggeration_iterations", "exaggeration_iterations = ", options.exaggeration_iterations, " must be >= 0");
    if (!(options.learning_rate >= 0) || std::isinf(options.learning_rate))
      throw_invalid("learning_rate", "learning_rate = ", options.learning_rate, " must be > 0, or 0 for auto");
    if (!(options.momentum >= 0 && options.momentum < 1)) throw_invalid("momentum", "momentum = ", options.momentum, " must lie in [0, 1)");
    if (!(options.final_momentum >= 0 && options.final_momentum < 1))
      throw_invalid("final_momentum", "final_momentum = ", options.final_momentum, " must lie in [0, 1)");
    if (!(options.dof > 0) || std::isinf(options.dof)) throw_invalid("dof", "dof = ", options.dof, " must be > 0 (1: the Cauchy kernel)");
    if (!(options.theta >= 0 && options.theta <= 1))
      throw_invalid("theta", "theta = ", options.theta, " must lie in [0, 1] (0: exact; 0.5: the usual)");
    if (options.objective_every < 1) throw_invalid("objective_every", "objective_every = ", options.objective_every, " must be >= 1");
    const auto [repulsion, name] = detail::resolved_repulsion(options.repulsion, n, options.dim);
    if (repulsion == TsneRepulsion::barnes_hut && options.dim > detail::SpaceTree::max_dim)
      throw_invalid("repulsion", "Barnes-Hut works for d <= 3, not d = ", options.dim, ": use repulsion = exact");
    if (repulsion == TsneRepulsion::fft && options.dim > 2)
      throw_invalid("repulsion", "the FFT repulsion works for d <= 2, not d = ", options.dim,
                    ": use barnes-hut (d <= 3) or exact");
    (void)name;
  }

  Matrix<double> start(index_t n) const {
    if (options.init == TsneInit::given) return detail::given_layout(options.initial, n, options.dim);
    return detail::random_layout(n, options.dim, initial_stddev, options.seed);
  }

  /// Descends from Y. With `order` (the graph's points in breadth-first order: a point's P-neighbors
  /// then lie close to it in memory, so the attraction finds their coordinates in cache: the fit of
  /// 70,000 images ran 1.54x faster, docs/methods/tsne.md "Cost") the descent runs in that numbering,
  /// in which P is then already given (graph_affinities' `order`); Y is in the points' own.
  template <Real T>
  void optimize(TsneModel<T>& model, const detail::TsneAffinities& P, Matrix<double> Y,
                const std::vector<index_t>& order = {}) const {
    Stopwatch clock;
    const auto n = index_t(Y.rows());
    const auto [repulsion, name] = detail::resolved_repulsion(options.repulsion, n, options.dim);
    model.repulsion = name;
    model.dof = options.dof;
    model.theta = options.theta;
    model.learning_rate = detail::tsne_learning_rate(options.learning_rate, n, options.early_exaggeration);
    const double dof = options.dof, theta = options.theta;
    const detail::FftRepulsionSettings fft = options.fft;
    detail::TsneRepulsionFunction repel;
    switch (repulsion) {
      case TsneRepulsion::exact: repel = [dof](const Matrix<double>& Y_, Matrix<double>& F) { return detail::exact_repulsion(Y_, dof, F); }; break;
      case TsneRepulsion::fft:
        // One workspace for every iteration: the grids and spectra are not reallocated (docs/algorithms.md 6.7).
        repel = [dof, fft, work = std::make_shared<detail::FftRepulsionWorkspace>()](const Matrix<double>& Y_,
                                                                                       Matrix<double>& F) {
          return detail::fft_repulsion(Y_, dof, fft, F, *work);
        };
        break;
      default:
        repel = [dof, theta](const Matrix<double>& Y_, Matrix<double>& F) {
          return detail::barnes_hut_repulsion(Y_, dof, theta, F);
        };
    }
    const detail::TsneSchedule schedule{.max_iterations = options.max_iterations,
                                        .exaggeration_iterations = options.exaggeration_iterations,
                                        .early_exaggeration = options.early_exaggeration,
                                        .late_exaggeration = options.late_exaggeration,
                                        .learning_rate = model.learning_rate,
                                        .momentum = options.momentum,
                                        .final_momentum = options.final_momentum,
                                        .objective_every = options.objective_every};
    IterationObserver observer(model.optimizer, options.on_iteration, options.progress, options.max_iterations, "tsne");
    if (order.empty()) {
      model.kl_divergence = detail::optimize_tsne(P, Y, schedule, detail::TsneKernel{dof}, repel, observer);
    } else {
      Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> to_order(n);  // point -> its place in `order`
      for (index_t v = 0; v < n; ++v) to_order.indices()[order[std::size_t(v)]] = int(v);
      Matrix<double> Y_ordered = to_order * Y;
      model.kl_divergence =
          detail::optimize_tsne(P, Y_ordered, schedule, detail::TsneKernel{dof}, repel, observer, order);
      Y = to_order.transpose() * Y_ordered;
    }
    model.coordinates = Y.template cast<T>();
    model.times.add("optimization", clock.seconds());
  }

  /// The fit of distances for one scalar (compiled once in nldr::registry: core/precompiled.hpp).
  template <Real T>
  TsneModel<T> fit_distances(const PointsRef<T>& D) const;
};

template <Real T>
TsneModel<T> Tsne::fit_distances(const PointsRef<T>& D) const {
  validate_points(D, "distances", 3);
  if (D.rows() != D.cols()) throw_invalid("distances", "the distance matrix is ", D.rows(), " x ", D.cols(), ": it must be square");
  const auto n = index_t(D.rows());
  validate_dimension(options.dim, n - 1, "N - 1");
  check_options(n);
  if (options.init == TsneInit::spectral)
    throw_invalid("init", "init = spectral needs a neighbor graph: use pca (classical MDS of the distances) or random");
  TsneModel<T> model;
  Stopwatch clock;
  model.perplexity = detail::tsne_perplexity(options.perplexity, n);
  const detail::TsneAffinities P = detail::distance_affinities(D, model.perplexity);
  model.times.add("affinities", clock.seconds());
  clock.restart();
  Matrix<double> Y;
  if (options.init == TsneInit::pca) {
    Y = ClassicalMds{{.dim = options.dim}}.fit(precomputed(D)).coordinates.template cast<double>();
    detail::scale_layout(Y, initial_stddev);
  } else {
    Y = start(n);
  }
  model.times.add("initialization", clock.seconds());
  optimize(model, P, std::move(Y));
  return model;
}

NLDR_PRECOMPILED(TsneModel<float> Tsne::fit_distances<float>(const PointsRef<float>&) const)
NLDR_PRECOMPILED(TsneModel<double> Tsne::fit_distances<double>(const PointsRef<double>&) const)

template <Real T>
TsneModel<T> Tsne::fit(const PointsArg<T>& X, const NeighborGraph<T>& graph) const {
  routines::validate_graph_fit(X, graph, options.dim);
  const auto n = index_t(X.rows());
  check_options(n);
  TsneModel<T> model;
  Stopwatch clock;
  model.perplexity = detail::tsne_perplexity(options.perplexity, n);
  // Numbered along the graph from the start (see optimize), so that P is never permuted as a copy.
  const std::vector<index_t> order = detail::locality_order(graph);
  const detail::TsneAffinities P = detail::graph_affinities(graph, model.perplexity, order);
  model.times.add("affinities", clock.seconds());
  clock.restart();
  Matrix<double> Y;
  switch (options.init) {
    case TsneInit::pca: Y = detail::pca_layout(Matrix<T>(X), options.dim, initial_stddev); break;
    case TsneInit::spectral:
      Y = LaplacianEigenmaps{{.dim = options.dim, .t = std::numeric_limits<double>::infinity()}}
              .fit(X, graph)
              .coordinates.template cast<double>();
      detail::scale_layout(Y, initial_stddev);
      break;
    default: Y = start(n);
  }
  model.times.add("initialization", clock.seconds());
  optimize(model, P, std::move(Y), order);
  routines::keep_training_points(model, X, graph, 1);
  return model;
}

NLDR_GRAPH_EMBEDDER_FIT(Tsne, TsneModel)
static_assert(DistanceEmbedder<Tsne, float> && DistanceEmbedder<Tsne, double>);

}  // namespace nldr
