// The end-to-end sequence from data to a fitted model (docs/pipeline.md): PCA before the graph, the
// neighbor graph (a selector by name, with what the method needs from it, or a given graph), what
// a disconnected graph gets, geodesic dissimilarities on request, and the registry method's fit.
// `nldr embed`, the Python estimators and the studies call it, so the same inputs give the same
// graph and the same model in every front end; nothing else writes this sequence.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/iteration.hpp>
#include <nldr/core/progress.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/core/types.hpp>
#include <nldr/embed/pca.hpp>
#include <nldr/neighbors/components.hpp>
#include <nldr/neighbors/graph.hpp>
#include <nldr/neighbors/join_components.hpp>
#include <nldr/neighbors/knn.hpp>
#include <nldr/neighbors/shortest_paths.hpp>
#include <nldr/registry/any_model.hpp>
#include <nldr/registry/embedders.hpp>
#include <nldr/registry/parameters.hpp>
#include <nldr/registry/selectors.hpp>

#include <algorithm>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace nldr {

/// What the pipeline does with a neighbor graph of several connected components.
enum class Disconnected {
  join,   ///< add the shortest edges that connect them (join_components), reported in the result
  error,  ///< throw nldr::disconnected_graph naming what connects it
};

/// Everything a pipeline run is asked to do; the data come separately (PipelineInput).
struct PipelineOptions {
  /// A registry method (nldr::embedders()), by name or alias.
  std::string method;
  /// The method's parameters as given; the others take the registry's defaults.
  ParameterValues method_parameters;
  /// The registry selector (nldr::selectors()) that builds the graph of the points when the method
  /// uses one and none is given; empty: "knn". Naming one for a method without a graph is an error.
  std::string selector;
  /// The selector's parameters as given. A pruning selector keeps at least the method's
  /// min_neighbors(d), and one that takes intrinsic_dim gets d, unless given here.
  ParameterValues selector_parameters;
  Disconnected disconnected = Disconnected::join;
  /// Fit shortest-path lengths along the graph as the dissimilarities (a method that takes
  /// distances: mds, smacof, sammon, ...; Tenenbaum et al. 2000).
  bool geodesics = false;
  /// Replace the points by their first `pca` principal components before the graph (0: don't);
  /// the model keeps the projection, so that transform projects new points the same way.
  index_t pca = 0;
  /// The progress hook of each stage, by its name ("PCA", the selector's, "geodesics", the
  /// method's); empty: none. Returning false from a hook cancels the run (nldr::cancelled).
  std::function<ProgressCallback(const std::string& stage)> progress;
  /// Observes (and may stop) an iterative method after each of its iterations (core/iteration.hpp);
  /// ignored by the methods that do not iterate.
  IterationCallback on_iteration;
  /// Told each stage as it finishes (name, wall seconds), e.g. to log it.
  std::function<void(const std::string& stage, double seconds)> on_stage;
};

/// The data of a pipeline run: points, or an N x N dissimilarity matrix, and optionally the points'
/// neighbor graph (its lengths are used as given).
template <Real T>
struct PipelineInput {
  const Matrix<T>* points = nullptr;
  const Matrix<T>* distances = nullptr;
  const NeighborGraph<T>* graph = nullptr;
  /// Starting coordinates (N x d) for an iterative method with init "given" (t-SNE, UMAP).
  const Matrix<T>* initial = nullptr;
  /// One categorical label per point (-1: unknown) for a supervised fit (UMAP), or null.
  const std::vector<index_t>* labels = nullptr;
};

/// What the PCA stage kept.
struct PcaSummary {
  index_t dim = 0;
  index_t input_dim = 0;
  double explained_variance_ratio = 0;
  std::string solver;
};

/// The graph's connected components as selected (or given), and the edges that joined them.
template <Real T>
struct GraphConnectivity {
  Components components;
  std::vector<JoiningEdge<T>> joining_edges;  ///< ordered by (distance, a, b); empty when connected
  double median_edge = 0;                     ///< of the graph before joining, to judge those edges by
};

/// What a run produced besides the model.
template <Real T>
struct PipelineResult {
  AnyModel<T> model;
  /// The graph the method (or the geodesics) used, after any joining; empty for methods without one.
  std::optional<NeighborGraph<T>> graph;
  /// The selector that built `graph` and its parameters as resolved (defaults and what the method
  /// needs included); empty for a given graph.
  std::string selector;
  ParameterValues selector_parameters;
  /// Its components before joining and the edges that joined them; empty without a graph.
  std::optional<GraphConnectivity<T>> connectivity;
  std::optional<PcaSummary> pca;
  /// The pipeline's stages and then the method's own, in the order they ran.
  StageTimes times;
};

namespace detail {

/// The embedding dimension d a method's parameters ask for (1 for a method without `dim`).
inline index_t requested_dim(const EmbedderInfo& method, const ParameterValues& given) {
  if (!takes_parameter(method.parameters, "dim")) return 1;
  return Arguments(method.parameters, given, method.name).index("dim");
}

/// Whether the method reads a neighbor graph under these options.
inline bool uses_graph(const EmbedderInfo& method, const PipelineOptions& options) {
  return method.accepts(needs_graph) || options.geodesics;
}

/// The smallest k > `k` (up to `limit`, below N) whose kNN graph of X is connected, or 0 if there is
/// none: doubling, then bisection (a k-graph is contained in the (k+1)-graph).
template <Real T>
index_t smallest_connecting_k(const Matrix<T>& X, index_t k, index_t limit) {
  limit = std::min<index_t>(limit, index_t(X.rows()) - 1);
  const auto connected = [&](index_t candidate) { return connected_components(KNearest{candidate}(X)).connected(); };
  index_t low = k, high = k;  // low: disconnected
  do {
    if (high >= limit) return 0;
    low = high;
    high = std::min(limit, 2 * high);
  } while (!connected(high));
  while (high - low > 1) {
    const index_t middle = low + (high - low) / 2;
    (connected(middle) ? high : low) = middle;
  }
  return high;
}

template <Real T>
double median_edge(const NeighborGraph<T>& graph) {
  std::vector<T> lengths(graph.distances().begin(), graph.distances().end());
  if (lengths.empty()) return 0;
  const auto middle = lengths.begin() + std::ptrdiff_t(lengths.size() / 2);
  std::nth_element(lengths.begin(), middle, lengths.end());
  return double(*middle);
}

}  // namespace detail

/// Points replaced by their first principal components, and how to do the same to new points.
template <Real T>
struct PcaReduction {
  Matrix<T> points;  ///< N x P
  InputProjection<T> projection;
  PcaSummary summary;
};

/// X (N x D) reduced to its first p principal components (nldr::Pca: randomized SVD for large D)
/// for an embedding of dimension `dim` (1 for a graph alone).
/// \throws nldr::invalid_argument naming "pca" unless dim <= p < min(D, N).
template <Real T>
PcaReduction<T> reduce_by_pca(const Matrix<T>& X, index_t p, index_t dim, const ProgressCallback& progress = {}) {
  if (p >= X.cols())
    throw_invalid("pca", "pca = ", p, " must be below the input's D = ", X.cols(), " columns (PCA to ", p,
                  " dimensions would keep them all): lower pca or set it to 0");
  if (p >= X.rows())
    throw_invalid("pca", "pca = ", p, " must be below the number of points N = ", X.rows(),
                  " (N points span at most N - 1 dimensions): lower pca");
  if (p < dim)
    throw_invalid("pca", "pca = ", p, " is below dim = ", dim, ": the embedding cannot have more dimensions than the "
                  "points it is computed from; raise pca or lower dim");
  auto fitted = Pca{{.dim = p, .progress = progress}}.fit(X);
  PcaSummary summary{p, index_t(X.cols()), double(fitted.explained_variance_ratio.sum()), fitted.diagnostics.solver};
  return {std::move(fitted.coordinates), {std::move(fitted.mean), std::move(fitted.components)}, std::move(summary)};
}

/// Checks the options against the kind of input before any data is read: the method exists, the
/// input is one it takes, the selector applies, geodesics and PCA make sense.
/// \throws nldr::invalid_argument naming the option ("method", "selector", "geodesics", "pca", ...).
template <class Unused = void>
void check_pipeline(const PipelineOptions& options, bool points, bool distances, bool graph, bool initial = false) {
  const EmbedderInfo& method = find_embedder<Unused>(options.method);
  if (points == distances) throw_invalid("X", method.name, " needs either the points or a distance matrix");
  if (distances && !method.accepts(from_distances))
    throw_invalid("distances", method.name, " cannot work from a distance matrix: give points");
  if (options.geodesics && !method.accepts(from_distances))
    throw_invalid("geodesics", "geodesics give a method dissimilarities, which ", method.name, " does not take");
  if (options.geodesics && distances)
    throw_invalid("geodesics", "geodesics are computed from the points: give points, not distances");
  if (options.pca > 0 && (distances || graph))
    throw_invalid("pca", "pca reduces the points before the neighbor graph, but ",
                  distances ? "distances have no points" : "the given graph was built on the points as they are",
                  ": set pca = 0");
  const bool needs = detail::uses_graph(method, options);
  if (graph && !needs) throw_invalid("graph", method.name, " uses no neighbor graph: drop the graph");
  if (!options.selector.empty() && (!needs || graph || distances))
    throw_invalid("selector", "selector does not apply: ", method.name,
                  graph ? " uses the given graph" : " uses no neighbor graph", ": drop the selector");
  if (!options.selector.empty()) find_selector<Unused>(options.selector);
  if (initial && !offers_choice(method.parameters, "init", "given"))
    throw_invalid("init", method.name, " takes no starting coordinates: drop them");
}

/// Runs the pipeline: PCA, graph, joining, geodesics, fit (see the file comment and docs/pipeline.md).
/// \throws whatever check_pipeline, the selector and the method throw; nldr::disconnected_graph
///         under Disconnected::error.
template <Real T>
PipelineResult<T> fit_pipeline(const PipelineInput<T>& input, const PipelineOptions& options) {
  check_pipeline(options, input.points != nullptr, input.distances != nullptr, input.graph != nullptr,
                 input.initial != nullptr);
  const EmbedderInfo& method = find_embedder(options.method);
  const index_t dim = detail::requested_dim(method, options.method_parameters);
  const auto progress = [&](const std::string& stage) {
    return options.progress ? options.progress(stage) : ProgressCallback{};
  };
  StageTimes times;
  Stopwatch clock;
  const auto finished = [&](const std::string& stage) {
    const double seconds = clock.seconds();
    times.add(stage, seconds);
    if (options.on_stage) options.on_stage(stage, seconds);
    clock.restart();
  };

  std::optional<PcaReduction<T>> pca;
  const Matrix<T>* X = input.points;
  if (options.pca > 0) {
    pca = reduce_by_pca(*X, options.pca, dim, progress("PCA"));
    X = &pca->points;
    finished("pca");
  }

  std::optional<NeighborGraph<T>> graph;
  std::string selector_name;
  ParameterValues selector_values;
  bool lengths_given = false;
  if (input.graph != nullptr) {
    graph = *input.graph;
    lengths_given = true;
  } else if (detail::uses_graph(method, options)) {
    const SelectorInfo& selector = find_selector(options.selector.empty() ? "knn" : options.selector);
    selector_name = selector.name;
    selector_values = options.selector_parameters;
    if (method.default_neighbors && takes_parameter(selector.parameters, "k") && !selector_values.count("k"))
      selector_values["k"] = std::to_string(
          method.default_neighbors(Arguments(method.parameters, options.method_parameters, method.name), X->rows()));
    if (selector.prunes && !selector_values.count("min_neighbors"))
      selector_values["min_neighbors"] = std::to_string(method.min_neighbors(dim));
    if (takes_parameter(selector.parameters, "intrinsic_dim") && !selector_values.count("intrinsic_dim"))
      selector_values["intrinsic_dim"] = std::to_string(dim);
    graph = selector.select(*X, selector_values, progress(selector_name));
    selector_values = Arguments(selector.parameters, selector_values, selector.name).values();
    finished("neighbors");
  }

  std::optional<GraphConnectivity<T>> connectivity;
  if (graph) {
    Components components = connected_components(*graph);
    if (!components.connected()) {
      if (options.disconnected == Disconnected::error) {
        std::string fix = "set disconnected = join (joins the components by their shortest connecting edges)";
        if (selector_name == "knn") {
          const index_t k = Arguments(find_selector("knn").parameters, selector_values, "knn").index("k");
          const index_t connecting = detail::smallest_connecting_k(*X, k, std::max<index_t>(64, 8 * k));
          fix += connecting > 0
                     ? detail::concat(", or k = ", connecting, " (the smallest k whose graph is connected)")
                     : ", or embed each component separately (no k up to 8 times this one connects the graph)";
        } else if (!selector_name.empty()) {
          fix += ", or a larger k or radius";
        } else {
          fix += ", or give a graph that is connected";
        }
        throw disconnected_graph(std::string(method.name) + ": the neighbor graph has " +
                                 describe_components(components) + ": " + fix);
      }
      const double median = detail::median_edge(*graph);
      auto joining = join_components(*X, *graph);
      graph = std::move(joining.graph);
      connectivity = GraphConnectivity<T>{std::move(components), std::move(joining.edges), median};
      finished("join components");
    } else {
      connectivity = GraphConnectivity<T>{std::move(components), {}, 0};
    }
  }

  FitInput<T> fit_input;
  fit_input.points = X;
  fit_input.distances = input.distances;
  fit_input.graph = graph ? &*graph : nullptr;
  fit_input.graph_lengths_given = lengths_given;
  fit_input.initial = input.initial;
  fit_input.labels = input.labels;
  Matrix<T> geodesics;
  if (options.geodesics) {
    // Shortest paths along the union-symmetrized graph, its edge lengths as the selector or the
    // given graph has them; the method then fits them as its dissimilarities.
    geodesics = all_pairs_shortest_paths<T>(graph->symmetrized(), 0, progress("geodesics"));
    finished("geodesics");
    fit_input = FitInput<T>{.distances = &geodesics, .initial = input.initial, .labels = input.labels};
  }
  const ProgressCallback method_progress = progress(std::string(method.name));
  fit_input.progress = &method_progress;
  if (options.on_iteration) fit_input.on_iteration = &options.on_iteration;
  AnyModel<T> model = method.fit(fit_input, options.method_parameters);
  // A model fit on geodesics places new points from their dissimilarities: no projection applies.
  std::optional<PcaSummary> pca_summary;
  if (pca) {
    pca_summary = pca->summary;
    if (!options.geodesics) model.set_input_projection(std::move(pca->projection));
  }
  for (const auto& [stage, seconds] : model.embedding().times.stages) {
    times.add(stage, seconds);
    if (options.on_stage) options.on_stage(stage, seconds);
  }
  return {std::move(model), std::move(graph),   std::move(selector_name), std::move(selector_values),
          std::move(connectivity), std::move(pca_summary), std::move(times)};
}

}  // namespace nldr
