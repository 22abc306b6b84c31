// The embedder registry (docs/registry.md): the one table of methods by name, each with what it
// needs (a neighbor graph, points, or distances), the fewest neighbors it needs for d, its
// parameters with defaults and ranges, and a factory from named parameters to a fitted AnyModel.
// The tool, the tests' method tables, the tuning sweep and the Python package iterate it; adding a
// method is its header, its test, its doc page and one entry below.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/iteration.hpp>
#include <nldr/core/precomputed.hpp>
#include <nldr/core/progress.hpp>
#include <nldr/core/types.hpp>
#include <nldr/embed/diffusion_maps.hpp>
#include <nldr/embed/embedder.hpp>
#include <nldr/embed/isomap.hpp>
#include <nldr/embed/landmark_isomap.hpp>
#include <nldr/embed/laplacian_eigenmaps.hpp>
#include <nldr/embed/lle.hpp>
#include <nldr/embed/ltsa.hpp>
#include <nldr/embed/mds.hpp>
#include <nldr/embed/pca.hpp>
#include <nldr/embed/sammon.hpp>
#include <nldr/embed/smacof.hpp>
#include <nldr/embed/tsne.hpp>
#include <nldr/embed/umap.hpp>
#include <nldr/neighbors/graph.hpp>
#include <nldr/registry/any_model.hpp>
#include <nldr/registry/compiled.hpp>
#include <nldr/registry/parameters.hpp>

#include <algorithm>
#include <array>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nldr {

/// What a method can be fit from (a bit set).
enum EmbedderInput : unsigned {
  needs_graph = 1,     ///< points plus their neighbor graph
  from_points = 2,     ///< points alone
  from_distances = 4,  ///< an N x N dissimilarity matrix
};

/// The data a fit receives; which members must be set depends on the method's inputs.
template <Real T>
struct FitInput {
  const Matrix<T>* points = nullptr;
  const NeighborGraph<T>* graph = nullptr;
  const Matrix<T>* distances = nullptr;
  /// Starting coordinates (N x d) of an iterative method whose `init` parameter is "given".
  const Matrix<T>* initial = nullptr;
  /// One categorical label per point (-1: unknown) for a supervised fit (UMAP's target_weight);
  /// a method without a `target_weight` parameter refuses them.
  const std::vector<index_t>* labels = nullptr;
  /// The graph's distances are to be used as given (a user's graph file) rather than recomputed.
  bool graph_lengths_given = false;
  /// Optional progress and cancel hook (core/progress.hpp), given to every method as its options'
  /// `progress` (detail::fit_method); what each reports: docs/tool.md, "Progress and logging".
  const ProgressCallback* progress = nullptr;
  /// Optional iteration observer (core/iteration.hpp), given to the iterative methods as their
  /// options' `on_iteration`.
  const IterationCallback* on_iteration = nullptr;
};

/// One registered method.
struct EmbedderInfo {
  std::string_view name;
  std::span<const std::string_view> aliases;
  std::string_view summary;
  unsigned inputs = 0;
  std::span<const ParameterSpec> parameters;
  /// Fewest neighbors per point the method needs for target dimension d.
  index_t (*min_neighbors)(index_t dim) = nullptr;

  bool accepts(EmbedderInput input) const { return (inputs & input) != 0; }

  /// Fits the method to `input` with the named parameters (checked against `parameters`).
  /// \throws nldr::invalid_argument for a missing input or a bad parameter, and whatever the method throws.
  template <Real T>
  AnyModel<T> fit(const FitInput<T>& input, const ParameterValues& values) const {
    const Arguments arguments(parameters, values, name);
    if (input.distances != nullptr && !accepts(from_distances))
      throw_invalid("distances", name, " cannot work from a distance matrix: give points",
                    accepts(needs_graph) ? " (and a graph)" : "");
    if (input.distances == nullptr && input.points == nullptr)
      throw_invalid("X", name, " needs the points", accepts(from_distances) ? " or a distance matrix" : "");
    if (accepts(needs_graph) && input.graph == nullptr)
      throw_invalid("graph", name, " needs a neighbor graph of the points: build one with a selector");
    if (input.labels != nullptr &&
        std::none_of(parameters.begin(), parameters.end(), [](const ParameterSpec& p) { return p.name == "target_weight"; }))
      throw_invalid("labels", name, " is unsupervised and takes no labels: fit without them (umap takes labels)");
    if constexpr (std::is_same_v<T, float>)
      return fit_float(input, arguments, name);
    else
      return fit_double(input, arguments, name);
  }

  /// A model of this method read from a model file (registry/model_file.hpp).
  template <Real T>
  AnyModel<T> load(detail::ModelReader& reader, ParameterValues values) const {
    if constexpr (std::is_same_v<T, float>)
      return load_float(reader, std::move(values), name);
    else
      return load_double(reader, std::move(values), name);
  }

  AnyModel<float> (*fit_float)(const FitInput<float>&, const Arguments&, std::string_view) = nullptr;
  AnyModel<double> (*fit_double)(const FitInput<double>&, const Arguments&, std::string_view) = nullptr;
  AnyModel<float> (*load_float)(detail::ModelReader&, ParameterValues, std::string_view) = nullptr;
  AnyModel<double> (*load_double)(detail::ModelReader&, ParameterValues, std::string_view) = nullptr;
  /// Whether the method iterates and hears FitInput::on_iteration (core/iteration.hpp; docs/iterative.md).
  bool iterative = false;
  /// A method of this table that approximates this one through m landmarks (its `landmarks` parameter)
  /// at a fraction of the cost, for a sweep to score with (landmark_scoring); empty when there is none.
  std::string_view landmark_approximation{};
  /// The neighbors per point the method's graph gets when the user names none (the selector's `k`),
  /// from its parameters and N: t-SNE's 3 x perplexity, UMAP's n_neighbors. Empty: the selector's default.
  index_t (*default_neighbors)(const Arguments& parameters, index_t n) = nullptr;
};

namespace detail {

template <Real T, class Fit>
AnyModel<T> fit_any(const FitInput<T>& input, const Arguments& arguments, std::string_view name) {
  return AnyModel<T>(std::string(name), arguments.values(), Fit{}(input, arguments));
}

template <Real T, template <class> class Model>
AnyModel<T> load_any(ModelReader& reader, ParameterValues values, std::string_view name) {
  Model<T> model;
  model.visit(reader);
  try {
    model.check_state();
  } catch (const invalid_argument& e) {
    reader.fail(e.what());
  }
  return AnyModel<T>(std::string(name), std::move(values), std::move(model));
}

/// A model fit by an iterative optimizer: its OptimizerDiagnostics (t-SNE, UMAP) or its stress
/// history (the majorization methods) tell; such methods hear FitInput::on_iteration.
template <class Model>
inline constexpr bool iterative_model =
    requires(const Model& m) { m.optimizer.iterations; } || requires(const Model& m) { m.stress_history; };

/// An entry whose fit is `Fit{}(input, arguments)` returning Model<T> (a captureless generic lambda).
template <template <class> class Model, class Fit>
EmbedderInfo embedder(std::string_view name, std::span<const std::string_view> aliases, std::string_view summary,
                      unsigned inputs, std::span<const ParameterSpec> parameters, index_t (*min_neighbors)(index_t),
                      Fit) {
  return {name,
          aliases,
          summary,
          inputs,
          parameters,
          min_neighbors,
          &fit_any<float, Fit>,
          &fit_any<double, Fit>,
          &load_any<float, Model>,
          &load_any<double, Model>,
          iterative_model<Model<double>>};
}

/// `entry` whose graph gets `neighbors(parameters, N)` neighbors per point unless the user says
/// (EmbedderInfo::default_neighbors).
inline EmbedderInfo with_default_neighbors(EmbedderInfo entry, index_t (*neighbors)(const Arguments&, index_t)) {
  entry.default_neighbors = neighbors;
  return entry;
}

/// `entry` with its landmark approximation (EmbedderInfo::landmark_approximation) set to `method`.
inline EmbedderInfo approximated_by(EmbedderInfo entry, std::string_view method) {
  entry.landmark_approximation = method;
  return entry;
}

/// Fits `method` (an embedder of embed/embedder.hpp with an `options.progress` member) to `in`
/// with the input's progress hook (and iteration observer, for a method that iterates): graph embedders on the points and graph, the others on the
/// distances when given, else on the points.
template <class Method, Real T>
auto fit_method(Method method, const FitInput<T>& in) {
  method.options.progress = in.progress ? *in.progress : ProgressCallback{};
  if constexpr (requires { method.options.on_iteration; })
    method.options.on_iteration = in.on_iteration ? *in.on_iteration : IterationCallback{};
  if constexpr (GraphEmbedder<Method, T>) {
    return method.fit(*in.points, *in.graph);
  } else if constexpr (DistanceEmbedder<Method, T>) {
    return in.distances ? method.fit(precomputed(*in.distances)) : method.fit(*in.points);
  } else {
    return method.fit(*in.points);
  }
}

// Parameters shared by several methods: one spec each.
inline constexpr ParameterSpec dim_parameter{"dim", ParameterKind::integer, "2", 1, 1e9, {}, "target dimension d"};
inline constexpr ParameterSpec max_iterations_parameter{
    "eigen_max_iterations", ParameterKind::integer, "1000", 1, 1e9, {}, "eigensolver: Lanczos restarts before giving up"};
inline constexpr ParameterSpec tolerance_parameter{"eigen_tolerance", ParameterKind::real, "1e-10", 1e-300, 0.5, {},
                                                   "eigensolver: relative tolerance of the Ritz values"};
inline constexpr ParameterSpec factorization_parameter{
    "factorization", ParameterKind::choice, "automatic", 0, 0, "automatic|simplicial|supernodal|lu",
    "sparse factorization of the shift-invert (lu: standard LLE only; supernodal, lu: with SuiteSparse)"};
inline constexpr ParameterSpec report_gap_parameter{
    "report_gap", ParameterKind::flag, "false", 0, 0, {},
    "solve one more eigenpair and report the relative gap after the last coordinate"};
inline constexpr ParameterSpec seed_parameter{"seed", ParameterKind::integer, "0", 0, 9.007199254740992e15, {},
                                              "random seed"};
inline constexpr ParameterSpec negative_eigenvalues_parameter{
    "negative_eigenvalues", ParameterKind::integer, "0", 0, 1e9, {},
    "most negative eigenvalues of the centered matrix to report (a diagnostic)"};
inline constexpr ParameterSpec edge_lengths_parameter{
    "edge_lengths", ParameterKind::choice, "euclidean", 0, 0, "euclidean|graph",
    "graph edge lengths: recomputed from the points, or the graph's own distances"};
inline constexpr ParameterSpec reg_parameter{"reg", ParameterKind::real, "1e-3", 1e-300, 1e300, {},
                                             "regularization of the local Gram matrices, relative to their trace"};

inline constexpr std::array<ParameterSpec, 5> bottom_eigen_parameters{
    dim_parameter, factorization_parameter, report_gap_parameter, max_iterations_parameter, tolerance_parameter};

inline Factorization factorization_named(const std::string& name) {
  if (name == "simplicial") return Factorization::simplicial;
  if (name == "supernodal") return Factorization::supernodal;
  if (name == "lu") return Factorization::lu;
  return Factorization::automatic;
}

inline BottomEigenOptions bottom_eigen(const Arguments& a) {
  return {.factorization = factorization_named(a.text("factorization")),
          .max_iterations = int(a.integer("eigen_max_iterations")),
          .tolerance = a.real("eigen_tolerance"),
          .report_gap = a.flag("report_gap")};
}

inline TopEigenOptions top_eigen(const Arguments& a) {
  return {.max_iterations = int(a.integer("eigen_max_iterations")), .tolerance = a.real("eigen_tolerance")};
}

inline EdgeLengths edge_lengths(const Arguments& a, bool given) {
  return given || a.text("edge_lengths") == "graph" ? EdgeLengths::graph : EdgeLengths::euclidean;
}

inline constexpr std::array<std::string_view, 0> no_aliases{};
inline constexpr std::array<std::string_view, 1> mds_aliases{"classical-mds"};
inline constexpr std::array<std::string_view, 2> laplacian_aliases{"laplacian", "spectral"};
inline constexpr std::array<std::string_view, 1> tsne_aliases{"t-sne"};

inline constexpr std::array<ParameterSpec, 3> pca_parameters{
    dim_parameter,
    ParameterSpec{"algorithm", ParameterKind::choice, "automatic", 0, 0, "automatic|covariance|randomized",
                  "covariance eigen-decomposition (exact) or randomized SVD (large D)"},
    seed_parameter};
inline constexpr std::array<ParameterSpec, 4> mds_parameters{
    dim_parameter,
    ParameterSpec{"negative_eigenvalues", ParameterKind::integer, "1", 0, 1e9, {},
                  "most negative eigenvalues of B to report (a diagnostic)"},
    max_iterations_parameter, tolerance_parameter};
inline constexpr std::array<ParameterSpec, 7> isomap_parameters{
    dim_parameter,
    ParameterSpec{"storage", ParameterKind::choice, "input", 0, 0, "input|float",
                  "element type of the N x N geodesic matrix (float: half the memory)"},
    edge_lengths_parameter, negative_eigenvalues_parameter, seed_parameter, max_iterations_parameter,
    tolerance_parameter};
inline constexpr std::array<ParameterSpec, 8> landmark_isomap_parameters{
    dim_parameter,
    ParameterSpec{"landmarks", ParameterKind::integer, "100", 2, 1e9, {}, "number of landmarks m"},
    ParameterSpec{"selection", ParameterKind::choice, "random", 0, 0, "random|max-min",
                  "landmark choice: seeded random, or greedy farthest (MaxMin)"},
    edge_lengths_parameter, negative_eigenvalues_parameter, seed_parameter, max_iterations_parameter,
    tolerance_parameter};
inline constexpr std::array<ParameterSpec, 6> lle_parameters{dim_parameter,          reg_parameter,
                                                              factorization_parameter, report_gap_parameter,
                                                              max_iterations_parameter, tolerance_parameter};
inline constexpr std::array<ParameterSpec, 6> hessian_lle_parameters{
    dim_parameter,
    ParameterSpec{"hessian_tol", ParameterKind::real, "1e-4", 0, 1e300, {},
                  "Hessian-estimator columns whose sum is below this are not rescaled"},
    factorization_parameter, report_gap_parameter, max_iterations_parameter, tolerance_parameter};
inline constexpr std::array<ParameterSpec, 6> laplacian_parameters{
    dim_parameter,
    ParameterSpec{"heat_t", ParameterKind::real, "0", 0, std::numeric_limits<double>::infinity(), {},
                  "heat-kernel width t (0: the mean squared edge length; inf: 0/1 weights)"},
    factorization_parameter, report_gap_parameter, max_iterations_parameter, tolerance_parameter};

inline constexpr std::array<ParameterSpec, 8> diffusion_maps_parameters{
    dim_parameter,
    ParameterSpec{"alpha", ParameterKind::real, "1", 0, 1, {},
                  "density normalization: 0 graph Laplacian, 0.5 Fokker-Planck, 1 Laplace-Beltrami"},
    ParameterSpec{"diffusion_time", ParameterKind::real, "1", 0, 1e300, {}, "diffusion time t: coordinates lambda^t psi"},
    ParameterSpec{"bandwidth", ParameterKind::real, "0", 0, 1e300, {},
                  "kernel width epsilon of exp(-d^2 / epsilon) (0: the median squared edge length)"},
    factorization_parameter, report_gap_parameter, max_iterations_parameter, tolerance_parameter};

// The stress-majorization methods (SMACOF, Sammon): restarts and the iteration's own stopping rule.
inline constexpr ParameterSpec n_init_parameter{"n_init", ParameterKind::integer, "1", 1, 1e6, {},
                                                "runs from different starts; the least stress is kept"};
inline constexpr ParameterSpec init_parameter{"init", ParameterKind::choice, "classical", 0, 0, "classical|random",
                                              "start of the first run: classical MDS or random"};
inline constexpr ParameterSpec relative_tolerance_parameter{
    "relative_tolerance", ParameterKind::real, "1e-4", 0, 1, {},
    "stop when one step lowers the stress by less than this fraction"};
inline constexpr std::array<ParameterSpec, 6> sammon_parameters{
    dim_parameter, n_init_parameter, init_parameter, seed_parameter,
    ParameterSpec{"max_iterations", ParameterKind::integer, "500", 1, 1e9, {}, "majorization steps per run"},
    ParameterSpec{"relative_tolerance", ParameterKind::real, "1e-5", 0, 1, {},
                  "stop when one step lowers the stress by less than this fraction"}};
inline constexpr ParameterSpec smacof_max_iterations{"max_iterations", ParameterKind::integer, "300", 1, 1e9, {},
                                                     "Guttman transforms per run"};
inline constexpr std::array<ParameterSpec, 6> smacof_parameters{
    dim_parameter, n_init_parameter, init_parameter, seed_parameter, smacof_max_iterations,
    relative_tolerance_parameter};
inline constexpr std::array<ParameterSpec, 7> nonmetric_parameters{
    dim_parameter, n_init_parameter, init_parameter, seed_parameter, smacof_max_iterations,
    relative_tolerance_parameter,
    ParameterSpec{"ties", ParameterKind::choice, "primary", 0, 0, "primary|secondary",
                  "tied dissimilarities: primary (may get unequal disparities) or secondary (one common)"}};

inline MajorizationInit majorization_init(const Arguments& a) {
  return a.text("init") == "random" ? MajorizationInit::random : MajorizationInit::classical_mds;
}

/// Metric or non-metric SMACOF from points or distances.
template <bool metric>
struct FitSmacof {
  template <Real T>
  SmacofModel<T> operator()(const FitInput<T>& in, const Arguments& a) const {
    SmacofOptions options{.dim = a.index("dim"),
                          .metric = metric,
                          .init = majorization_init(a),
                          .n_init = int(a.integer("n_init")),
                          .seed = std::uint64_t(a.integer("seed")),
                          .max_iterations = int(a.integer("max_iterations")),
                          .tolerance = a.real("relative_tolerance")};
    if constexpr (!metric) options.ties = a.text("ties") == "secondary" ? TieApproach::secondary : TieApproach::primary;
    return fit_method(Smacof{options}, in);
  }
};

inline index_t one_neighbor(index_t) { return 1; }
inline index_t lle_neighbors(index_t dim) { return lle_min_neighbors(LleVariant::standard, dim); }
inline index_t hessian_neighbors(index_t dim) { return lle_min_neighbors(LleVariant::hessian, dim); }
inline index_t ltsa_neighbors(index_t dim) { return dim; }

template <LleVariant variant>
struct FitLle {
  template <Real T>
  LleModel<T> operator()(const FitInput<T>& in, const Arguments& a) const {
    LleOptions options{.dim = a.index("dim"), .variant = variant, .eigen = bottom_eigen(a)};
    if constexpr (variant == LleVariant::hessian)
      options.hessian_tol = a.real("hessian_tol");
    else
      options.reg = a.real("reg");
    return fit_method(LocallyLinearEmbedding{options}, in);
  }
};

// UMAP (McInnes, Healy & Melville 2018): umap-learn's parameter names and defaults.
inline constexpr std::array<ParameterSpec, 12> umap_parameters{
    dim_parameter,
    ParameterSpec{"min_dist", ParameterKind::real, "0.1", 0, 1e300, {},
                  "embedded distance below which neighbors count as fully similar (<= spread)"},
    ParameterSpec{"spread", ParameterKind::real, "1", 1e-300, 1e300, {}, "scale of the embedded similarities' decay"},
    ParameterSpec{"n_epochs", ParameterKind::integer, "0", 0, 1e9, {},
                  "optimization epochs (0: 500 for at most 10,000 points, else 200)"},
    ParameterSpec{"learning_rate", ParameterKind::real, "1", 1e-300, 1e300, {},
                  "initial step size, falling linearly to 0"},
    ParameterSpec{"negative_sample_rate", ParameterKind::real, "5", 1e-300, 1e300, {},
                  "negative samples per edge sample"},
    ParameterSpec{"repulsion_strength", ParameterKind::real, "1", 0, 1e300, {}, "weight of the negative samples"},
    ParameterSpec{"local_connectivity", ParameterKind::real, "1", 0, 1e300, {},
                  "nearest neighbors each point is fully connected to"},
    ParameterSpec{"set_op_mix_ratio", ParameterKind::real, "1", 0, 1, {},
                  "1: fuzzy union of the points' sets, 0: fuzzy intersection"},
    ParameterSpec{"target_weight", ParameterKind::real, "0.5", 0, 1, {},
                  "supervised fit: weight of the labels against the data"},
    ParameterSpec{"init", ParameterKind::choice, "spectral", 0, 0, "spectral|pca|random|given",
                  "starting layout: spectral layout of the fuzzy graph, principal components, random, or given"},
    seed_parameter};

inline UmapInit umap_init(const std::string& name) {
  if (name == "pca") return UmapInit::pca;
  if (name == "random") return UmapInit::random;
  if (name == "given") return UmapInit::given;
  return UmapInit::spectral;
}

/// UMAP's graph: its n_neighbors default, 15 (at most N - 1).
inline index_t umap_neighbors(const Arguments&, index_t n) { return std::min<index_t>(15, std::max<index_t>(1, n - 1)); }

struct FitUmap {
  template <Real T>
  UmapModel<T> operator()(const FitInput<T>& in, const Arguments& a) const {
    UmapOptions options{.dim = a.index("dim"),
                        .min_dist = a.real("min_dist"),
                        .spread = a.real("spread"),
                        .n_epochs = int(a.integer("n_epochs")),
                        .learning_rate = a.real("learning_rate"),
                        .negative_sample_rate = a.real("negative_sample_rate"),
                        .repulsion_strength = a.real("repulsion_strength"),
                        .local_connectivity = a.real("local_connectivity"),
                        .set_op_mix_ratio = a.real("set_op_mix_ratio"),
                        .target_weight = a.real("target_weight"),
                        .init = umap_init(a.text("init")),
                        .seed = std::uint64_t(a.integer("seed"))};
    if (options.init == UmapInit::given && in.initial == nullptr)
      throw_invalid("init", "init = given needs the starting coordinates (N x d): pass them, or use init = spectral");
    if (in.initial != nullptr) {
      if (options.init != UmapInit::given)
        throw_invalid("init", "starting coordinates were given but init = ", a.text("init"), ": use init = given");
      options.initial = in.initial->template cast<double>();
    }
    if (in.labels != nullptr) options.labels = *in.labels;
    return fit_method(Umap{std::move(options)}, in);
  }
};

// t-SNE (docs/methods/tsne.md).
inline constexpr std::array<ParameterSpec, 15> tsne_parameters{
    dim_parameter,
    ParameterSpec{"perplexity", ParameterKind::real, "30", 1e-3, 1e9, {},
                  "effective neighbors of each point's Gaussian (the graph needs more than this per point)"},
    ParameterSpec{"early_exaggeration", ParameterKind::real, "12", 1, 1e6, {}, "P's factor during the first iterations"},
    ParameterSpec{"exaggeration_iterations", ParameterKind::integer, "250", 0, 1e9, {},
                  "iterations of early exaggeration (part of max_iterations)"},
    ParameterSpec{"late_exaggeration", ParameterKind::real, "1", 1, 1e6, {}, "P's factor afterwards (1: none)"},
    ParameterSpec{"learning_rate", ParameterKind::real, "0", 0, 1e12, {},
                  "step size (0: auto, max(N / early_exaggeration / 4, 50), scikit-learn's convention)"},
    ParameterSpec{"max_iterations", ParameterKind::integer, "1000", 1, 1e9, {}, "iterations, exaggeration included"},
    ParameterSpec{"momentum", ParameterKind::real, "0.5", 0, 0.999, {}, "momentum during early exaggeration"},
    ParameterSpec{"final_momentum", ParameterKind::real, "0.8", 0, 0.999, {}, "momentum afterwards"},
    ParameterSpec{"dof", ParameterKind::real, "1", 1e-3, 1e6, {},
                  "degrees of freedom a of the kernel (1 + r^2 / a)^-a (1: Cauchy; < 1: heavier tails)"},
    ParameterSpec{"init", ParameterKind::choice, "pca", 0, 0, "pca|random|given|spectral",
                  "start: PCA or random at std 1e-4, given coordinates, or Laplacian Eigenmaps of the graph"},
    ParameterSpec{"repulsion", ParameterKind::choice, "auto", 0, 0, "auto|exact|barnes-hut|fft",
                  "repulsion sum: auto (fft from N = 10,000 for d <= 2 when built, else barnes-hut), exact O(N^2), "
                  "barnes-hut (d <= 3), fft (d <= 2)"},
    ParameterSpec{"theta", ParameterKind::real, "0.5", 0, 1, {}, "Barnes-Hut opening angle (0: exact)"},
    ParameterSpec{"objective_every", ParameterKind::integer, "50", 1, 1e9, {},
                  "iterations between KL divergence evaluations (and the last one)"},
    seed_parameter};

/// t-SNE's graph when the user names no k: 3 x perplexity neighbors (van der Maaten 2014), at most N - 1.
/// t-SNE's fewest neighbors from a pruning selector: 3, enough for perplexity up to 2; a larger
/// perplexity needs more than it per point, which the fit checks (name both flags).
inline index_t tsne_min_neighbors(index_t) { return 3; }

inline index_t tsne_neighbors(const Arguments& a, index_t n) {
  return std::max<index_t>(1, std::min<index_t>(n - 1, index_t(std::ceil(3 * a.real("perplexity")))));
}

struct FitTsne {
  template <Real T>
  TsneModel<T> operator()(const FitInput<T>& in, const Arguments& a) const {
    const std::string& init = a.text("init");
    const std::string& repulsion = a.text("repulsion");
    TsneOptions options{.dim = a.index("dim"),
                        .perplexity = a.real("perplexity"),
                        .early_exaggeration = a.real("early_exaggeration"),
                        .exaggeration_iterations = int(a.integer("exaggeration_iterations")),
                        .late_exaggeration = a.real("late_exaggeration"),
                        .learning_rate = a.real("learning_rate"),
                        .max_iterations = int(a.integer("max_iterations")),
                        .momentum = a.real("momentum"),
                        .final_momentum = a.real("final_momentum"),
                        .dof = a.real("dof"),
                        .init = init == "random"     ? TsneInit::random
                                : init == "given"    ? TsneInit::given
                                : init == "spectral" ? TsneInit::spectral
                                                     : TsneInit::pca,
                        .repulsion = repulsion == "exact"        ? TsneRepulsion::exact
                                     : repulsion == "barnes-hut" ? TsneRepulsion::barnes_hut
                                     : repulsion == "fft"        ? TsneRepulsion::fft
                                                                 : TsneRepulsion::automatic,
                        .theta = a.real("theta"),
                        .objective_every = int(a.integer("objective_every")),
                        .seed = std::uint64_t(a.integer("seed"))};
    if (options.init == TsneInit::given) {
      if (in.initial == nullptr)
        throw_invalid("init", "init = given needs the starting coordinates (Python: init=array): pass them, or use "
                      "init = pca");
      options.initial = in.initial->template cast<double>();
    }
    return fit_method(Tsne{std::move(options)}, in);
  }
};

// A template only so that the table is instantiated where it is used (registry/compiled.hpp).
template <class Unused>
const std::vector<EmbedderInfo>& embedder_table() {
  static const std::vector<EmbedderInfo> table{
      embedder<PcaModel>("pca", no_aliases, "principal component analysis (linear)", from_points, pca_parameters,
                         one_neighbor, []<Real T>(const FitInput<T>& in, const Arguments& a) {
                           const std::string& algorithm = a.text("algorithm");
                           return fit_method(Pca{{.dim = a.index("dim"),
                                                  .algorithm = algorithm == "covariance"   ? PcaAlgorithm::covariance
                                                               : algorithm == "randomized" ? PcaAlgorithm::randomized
                                                                                           : PcaAlgorithm::automatic,
                                                  .seed = std::uint64_t(a.integer("seed"))}},
                                             in);
                         }),
      embedder<MdsModel>("mds", mds_aliases, "classical (Torgerson) multidimensional scaling",
                         from_points | from_distances, mds_parameters, one_neighbor,
                         []<Real T>(const FitInput<T>& in, const Arguments& a) {
                           return fit_method(ClassicalMds{{.dim = a.index("dim"),
                                                           .negative_eigenvalues = a.index("negative_eigenvalues"),
                                                           .eigen = top_eigen(a)}},
                                             in);
                         }),
      // Landmark Isomap with every point a landmark is Isomap (de Silva & Tenenbaum 2004).
      approximated_by(
          embedder<IsomapModel>("isomap", no_aliases, "geodesic distances along the graph, then classical MDS",
                                needs_graph, isomap_parameters, one_neighbor,
                                []<Real T>(const FitInput<T>& in, const Arguments& a) {
                                  return fit_method(Isomap{{.dim = a.index("dim"),
                                                            .storage = a.text("storage") == "float"
                                                                           ? GeodesicStorage::single
                                                                           : GeodesicStorage::input,
                                                            .edge_lengths = edge_lengths(a, in.graph_lengths_given),
                                                            .negative_eigenvalues = a.index("negative_eigenvalues"),
                                                            .seed = std::uint64_t(a.integer("seed")),
                                                            .eigen = top_eigen(a)}},
                                                    in);
                                }),
          "landmark-isomap"),
      embedder<LandmarkIsomapModel>(
          "landmark-isomap", no_aliases, "Isomap through m landmarks (O(m N) memory)", needs_graph,
          landmark_isomap_parameters, one_neighbor, []<Real T>(const FitInput<T>& in, const Arguments& a) {
            return fit_method(LandmarkIsomap{{.dim = a.index("dim"),
                                              .landmarks = a.index("landmarks"),
                                              .selection = a.text("selection") == "max-min" ? LandmarkSelection::max_min
                                                                                            : LandmarkSelection::random,
                                              .edge_lengths = edge_lengths(a, in.graph_lengths_given),
                                              .seed = std::uint64_t(a.integer("seed")),
                                              .negative_eigenvalues = a.index("negative_eigenvalues"),
                                              .eigen = top_eigen(a)}},
                              in);
          }),
      embedder<LleModel>("lle", no_aliases, "locally linear embedding (Roweis & Saul 2000)", needs_graph,
                         lle_parameters, lle_neighbors, FitLle<LleVariant::standard>{}),
      embedder<LleModel>("modified-lle", no_aliases, "modified LLE (Zhang & Wang 2007)", needs_graph, lle_parameters,
                         lle_neighbors, FitLle<LleVariant::modified>{}),
      embedder<LleModel>("hessian-lle", no_aliases, "Hessian LLE (Donoho & Grimes 2003)", needs_graph,
                         hessian_lle_parameters, hessian_neighbors, FitLle<LleVariant::hessian>{}),
      embedder<LtsaModel>("ltsa", no_aliases, "local tangent space alignment (Zhang & Zha 2004)", needs_graph,
                          bottom_eigen_parameters, ltsa_neighbors,
                          []<Real T>(const FitInput<T>& in, const Arguments& a) {
                            return fit_method(Ltsa{{.dim = a.index("dim"), .eigen = bottom_eigen(a)}}, in);
                          }),
      embedder<LaplacianEigenmapsModel>(
          "laplacian-eigenmaps", laplacian_aliases, "Laplacian Eigenmaps (Belkin & Niyogi 2003)", needs_graph,
          laplacian_parameters, one_neighbor, []<Real T>(const FitInput<T>& in, const Arguments& a) {
            return fit_method(
                LaplacianEigenmaps{{.dim = a.index("dim"), .t = a.real("heat_t"), .eigen = bottom_eigen(a)}}, in);
          }),
      embedder<DiffusionMapsModel>(
          "diffusion-maps", no_aliases, "diffusion maps (Coifman & Lafon 2006)", needs_graph,
          diffusion_maps_parameters, one_neighbor, []<Real T>(const FitInput<T>& in, const Arguments& a) {
            return fit_method(DiffusionMaps{{.dim = a.index("dim"),
                                             .alpha = a.real("alpha"),
                                             .diffusion_time = a.real("diffusion_time"),
                                             .bandwidth = a.real("bandwidth"),
                                             .eigen = bottom_eigen(a)}},
                              in);
          }),
      embedder<SammonModel>("sammon", no_aliases, "Sammon's mapping (Sammon 1969) by stress majorization",
                            from_points | from_distances, sammon_parameters, one_neighbor,
                            []<Real T>(const FitInput<T>& in, const Arguments& a) {
                              return fit_method(Sammon{{.dim = a.index("dim"),
                                                        .init = majorization_init(a),
                                                        .n_init = int(a.integer("n_init")),
                                                        .seed = std::uint64_t(a.integer("seed")),
                                                        .max_iterations = int(a.integer("max_iterations")),
                                                        .tolerance = a.real("relative_tolerance")}},
                                                in);
                            }),
      embedder<SmacofModel>("smacof", no_aliases, "metric MDS by SMACOF (de Leeuw 1977)", from_points | from_distances,
                            smacof_parameters, one_neighbor, FitSmacof<true>{}),
      embedder<SmacofModel>("nonmetric-mds", no_aliases, "non-metric MDS by SMACOF with Kruskal's monotone regression",
                            from_points | from_distances, nonmetric_parameters, one_neighbor, FitSmacof<false>{}),
      with_default_neighbors(embedder<UmapModel>("umap", no_aliases,
                                                 "uniform manifold approximation and projection (McInnes et al. 2018)",
                                                 needs_graph, umap_parameters, one_neighbor, FitUmap{}),
                             umap_neighbors),
      with_default_neighbors(embedder<TsneModel>("tsne", tsne_aliases,
                                                 "t-distributed stochastic neighbor embedding (van der Maaten & "
                                                 "Hinton 2008)",
                                                 needs_graph, tsne_parameters, tsne_min_neighbors, FitTsne{}),
                             tsne_neighbors),
  };
  return table;
}
#if defined(NLDR_REGISTRY_COMPILED)
extern template const std::vector<EmbedderInfo>& embedder_table<void>();
#endif

}  // namespace detail

/// Every registered method, in the order the tool lists them.
/// (`Unused` defers the table's instantiation to the first call: registry/compiled.hpp.)
template <class Unused = void>
std::span<const EmbedderInfo> embedders() {
  return detail::embedder_table<Unused>();
}

/// The method called `name` or one of its aliases, case-insensitive.
/// \throws nldr::invalid_argument naming "method", the known names, and the nearest one.
template <class Unused = void>
const EmbedderInfo& find_embedder(std::string_view name) {
  std::vector<std::string_view> known;
  for (const auto& entry : embedders<Unused>()) {
    if (detail::same_name(entry.name, name)) return entry;
    for (const auto alias : entry.aliases)
      if (detail::same_name(alias, name)) return entry;
    known.push_back(entry.name);
  }
  throw_invalid("method", "unknown method \"", name, "\"", detail::did_you_mean(name, known), ": use one of ",
                detail::joined(known));
}

/// The stand-in that scores a sweep of one method through m landmarks (nldr::tune with an `exact` fit;
/// docs/tuning.md, "Scoring through landmarks"): the method's landmark approximation and its parameters.
struct LandmarkScoring {
  const EmbedderInfo* method = nullptr;
  ParameterValues values;
};

/// The landmarks a sweep scores with when none are given: m = max(200, N / 20), at most N
/// (docs/tuning.md, "Scoring through landmarks": where the picks were measured).
inline index_t default_scoring_landmarks(index_t n) { return std::min(n, std::max<index_t>(200, n / 20)); }

/// The stand-in for `method` with parameters `values`: its landmark approximation
/// (EmbedderInfo::landmark_approximation), given those of `values` it takes and landmarks = m.
/// \throws nldr::invalid_argument naming "scoring" when `method` has no approximation, with the methods
///         that have one.
template <class Unused = void>
LandmarkScoring landmark_scoring(const EmbedderInfo& method, const ParameterValues& values, index_t landmarks) {
  if (method.landmark_approximation.empty()) {
    std::vector<std::string_view> approximated;
    for (const auto& entry : embedders<Unused>())
      if (!entry.landmark_approximation.empty()) approximated.push_back(entry.name);
    throw_invalid("scoring", method.name, " has no landmark approximation (the methods with one: ",
                  detail::joined(approximated), "): score with the method itself");
  }
  const EmbedderInfo& stand_in = find_embedder<Unused>(method.landmark_approximation);
  LandmarkScoring scoring{&stand_in, {}};
  for (const auto& [name, value] : values)
    if (takes_parameter(stand_in.parameters, name)) scoring.values[name] = value;
  scoring.values["landmarks"] = detail::concat(landmarks);
  return scoring;
}

}  // namespace nldr
