// The embedder registry (docs/registry.md): the one table of methods by name, each with what it
// needs (a neighbor graph, points, or distances), the fewest neighbors it needs for d, its
// parameters with defaults and ranges, and a factory from named parameters to a fitted AnyModel.
// The tool, the tests' method tables, the tuning sweep and the Python package iterate it; adding a
// method is its header, its test, its doc page and one entry below.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/iteration.hpp>
#include <nldr/core/precompiled.hpp>
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
#include <nldr/registry/described_parameters.hpp>
#include <nldr/registry/parameters.hpp>

#include <algorithm>
#include <array>
#include <cmath>
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
  /// Its parameters, from its options' describe() (core/described.hpp).
  std::vector<ParameterSpec> parameters;
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

/// What a fit takes from its input besides the named parameters: a user's graph lengths, the
/// starting coordinates of init = given, a supervised fit's labels.
template <class Options, Real T>
void take_inputs(Options& options, const FitInput<T>& in) {
  if constexpr (requires { options.edge_lengths; })
    if (in.graph_lengths_given) options.edge_lengths = EdgeLengths::graph;
  if constexpr (requires { options.initial; }) {
    const bool given = options.init == decltype(options.init)::given;
    if (given && in.initial == nullptr)
      throw_invalid("init", "init = given needs the starting coordinates (N x d; Python: init=array): pass them, or "
                    "choose another init");
    if (!given && in.initial != nullptr)
      throw_invalid("init", "starting coordinates were given but init is not \"given\": use init = given");
    if (given) options.initial = in.initial->template cast<double>();
  }
  if constexpr (requires { options.labels; })
    if (in.labels != nullptr) options.labels = *in.labels;
}

/// Fits `method` (an embedder of embed/embedder.hpp with an `options.progress` member) to `in`
/// with the input's progress hook (and iteration observer, for a method that iterates): graph
/// embedders on the points and graph, the others on the distances when given, else on the points.
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

/// The fit of an entry: the method `Make{}()` returns, its options set from the named parameters
/// (their describe(), core/described.hpp) and the input.
template <Real T, class Make>
AnyModel<T> fit_any(const FitInput<T>& input, const Arguments& arguments, std::string_view name) {
  auto method = Make{}();
  set_described(method.options, arguments);
  take_inputs(method.options, input);
  return AnyModel<T>(std::string(name), arguments.values(), fit_method(std::move(method), input));
}

template <Real T, template <class> class Model>
AnyModel<T> load_any(ModelReader& reader, ParameterValues values, std::string_view name) {
  Model<T> model;
  visit_model(reader, model);
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

/// An entry for the method `make()` returns (a captureless lambda: the method with the options a
/// named fit starts from), fitting Model<T>; its parameters are those its options describe.
template <template <class> class Model, class Make>
EmbedderInfo embedder(std::string_view name, std::span<const std::string_view> aliases, std::string_view summary,
                      unsigned inputs, index_t (*min_neighbors)(index_t), Make make) {
  return {name,
          aliases,
          summary,
          inputs,
          described_parameters(make().options),
          min_neighbors,
          &fit_any<float, Make>,
          &fit_any<double, Make>,
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

inline index_t one_neighbor(index_t) { return 1; }
inline index_t lle_neighbors(index_t dim) { return lle_min_neighbors(LleVariant::standard, dim); }
inline index_t hessian_neighbors(index_t dim) { return lle_min_neighbors(LleVariant::hessian, dim); }
inline index_t ltsa_neighbors(index_t dim) { return dim; }

/// t-SNE's fewest neighbors from a pruning selector: 3, enough for perplexity up to 2; a larger
/// perplexity needs more than it per point, which the fit checks (name both flags).
inline index_t tsne_min_neighbors(index_t) { return 3; }

/// t-SNE's graph when the user names no k: 3 x perplexity neighbors (van der Maaten 2014), at most N - 1.
inline index_t tsne_neighbors(const Arguments& a, index_t n) {
  return std::max<index_t>(1, std::min<index_t>(n - 1, index_t(std::ceil(3 * a.real("perplexity")))));
}

/// UMAP's graph: its n_neighbors default, 15 (at most N - 1).
inline index_t umap_neighbors(const Arguments&, index_t n) { return std::min<index_t>(15, std::max<index_t>(1, n - 1)); }

inline constexpr std::array<std::string_view, 0> no_aliases{};
inline constexpr std::array<std::string_view, 1> mds_aliases{"classical-mds"};
inline constexpr std::array<std::string_view, 2> laplacian_aliases{"laplacian", "spectral"};
inline constexpr std::array<std::string_view, 1> tsne_aliases{"t-sne"};

// A template only so that the table is instantiated where it is used (core/precompiled.hpp).
template <class Unused>
const std::vector<EmbedderInfo>& embedder_table() {
  static const std::vector<EmbedderInfo> table{
      embedder<PcaModel>("pca", no_aliases, "principal component analysis (linear)", from_points, one_neighbor,
                         [] { return Pca{}; }),
      embedder<MdsModel>("mds", mds_aliases, "classical (Torgerson) multidimensional scaling",
                         from_points | from_distances, one_neighbor, [] { return ClassicalMds{}; }),
      // Landmark Isomap with every point a landmark is Isomap (de Silva & Tenenbaum 2004).
      approximated_by(embedder<IsomapModel>("isomap", no_aliases, "geodesic distances along the graph, then classical MDS",
                                            needs_graph, one_neighbor, [] { return Isomap{}; }),
                      "landmark-isomap"),
      embedder<LandmarkIsomapModel>("landmark-isomap", no_aliases, "Isomap through m landmarks (O(m N) memory)",
                                    needs_graph, one_neighbor, [] { return LandmarkIsomap{}; }),
      embedder<LleModel>("lle", no_aliases, "locally linear embedding (Roweis & Saul 2000)", needs_graph, lle_neighbors,
                         [] { return LocallyLinearEmbedding{}; }),
      embedder<LleModel>("modified-lle", no_aliases, "modified LLE (Zhang & Wang 2007)", needs_graph, lle_neighbors,
                         [] { return LocallyLinearEmbedding{{.variant = LleVariant::modified}}; }),
      embedder<LleModel>("hessian-lle", no_aliases, "Hessian LLE (Donoho & Grimes 2003)", needs_graph,
                         hessian_neighbors, [] { return LocallyLinearEmbedding{{.variant = LleVariant::hessian}}; }),
      embedder<LtsaModel>("ltsa", no_aliases, "local tangent space alignment (Zhang & Zha 2004)", needs_graph,
                          ltsa_neighbors, [] { return Ltsa{}; }),
      embedder<LaplacianEigenmapsModel>("laplacian-eigenmaps", laplacian_aliases,
                                        "Laplacian Eigenmaps (Belkin & Niyogi 2003)", needs_graph, one_neighbor,
                                        [] { return LaplacianEigenmaps{}; }),
      embedder<DiffusionMapsModel>("diffusion-maps", no_aliases, "diffusion maps (Coifman & Lafon 2006)", needs_graph,
                                   one_neighbor, [] { return DiffusionMaps{}; }),
      embedder<SammonModel>("sammon", no_aliases, "Sammon's mapping (Sammon 1969) by stress majorization",
                            from_points | from_distances, one_neighbor, [] { return Sammon{}; }),
      embedder<SmacofModel>("smacof", no_aliases, "metric MDS by SMACOF (de Leeuw 1977)", from_points | from_distances,
                            one_neighbor, [] { return Smacof{}; }),
      embedder<SmacofModel>("nonmetric-mds", no_aliases, "non-metric MDS by SMACOF with Kruskal's monotone regression",
                            from_points | from_distances, one_neighbor, [] { return Smacof{{.metric = false}}; }),
      // UMAP (McInnes, Healy & Melville 2018): umap-learn's parameter names and defaults.
      with_default_neighbors(embedder<UmapModel>("umap", no_aliases,
                                                 "uniform manifold approximation and projection (McInnes et al. 2018)",
                                                 needs_graph, one_neighbor, [] { return Umap{}; }),
                             umap_neighbors),
      // t-SNE (docs/methods/tsne.md).
      with_default_neighbors(embedder<TsneModel>("tsne", tsne_aliases,
                                                 "t-distributed stochastic neighbor embedding (van der Maaten & "
                                                 "Hinton 2008)",
                                                 needs_graph, tsne_min_neighbors, [] { return Tsne{}; }),
                             tsne_neighbors),
  };
  return table;
}
NLDR_PRECOMPILED_TABLE(const std::vector<EmbedderInfo>& embedder_table<void>())

}  // namespace detail

/// Every registered method, in the order the tool lists them.
/// (`Unused` defers the table's instantiation to the first call: core/precompiled.hpp.)
template <class Unused = void>
std::span<const EmbedderInfo> embedders() {
  return detail::embedder_table<Unused>();
}

/// The method called `name` or one of its aliases, case-insensitive.
/// \throws nldr::invalid_argument naming "method", the known names, and the nearest one.
template <class Unused = void>
const EmbedderInfo& find_embedder(std::string_view name) {
  return detail::find_named(embedders<Unused>(), name, "method", "method");
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
