// The selector registry (docs/registry.md): every neighbor selector by name with its parameters
// and a factory from named parameters to a NeighborGraph. The pruning selectors prune the lists
// of the exact k nearest neighbors. The tool and the Python package iterate it.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/progress.hpp>
#include <nldr/core/types.hpp>
#include <nldr/neighbors/curvature_adaptive.hpp>
#include <nldr/neighbors/epsilon_ball.hpp>
#include <nldr/neighbors/gaussian_pruned.hpp>
#include <nldr/neighbors/graph.hpp>
#include <nldr/neighbors/knn.hpp>
#include <nldr/neighbors/shared_neighbors.hpp>
#include <nldr/neighbors/short_circuit_pruned.hpp>
#if defined(NLDR_HAVE_BOOST)
#include <nldr/neighbors/rstar_box_index.hpp>
#endif
#if defined(NLDR_HAVE_HNSWLIB)
#include <nldr/neighbors/approximate_knn.hpp>
#endif
#include <nldr/registry/compiled.hpp>
#include <nldr/registry/parameters.hpp>

#include <array>
#include <limits>
#include <span>
#include <string_view>
#include <vector>

namespace nldr {

/// One registered selector.
struct SelectorInfo {
  std::string_view name;
  std::string_view summary;
  std::span<const ParameterSpec> parameters;
  /// Whether the selector prunes kNN lists (and so takes min_neighbors, which a method's needs set).
  bool prunes = false;

  /// The graph of X (N x D) with the named parameters (checked against `parameters`). `progress`
  /// (core/progress.hpp) hears the pruning selectors' pruning; the searches report nothing.
  template <Real T>
  NeighborGraph<T> select(const Matrix<T>& X, const ParameterValues& values,
                          const ProgressCallback& progress = {}) const {
    const Arguments arguments(parameters, values, name);
    if constexpr (std::is_same_v<T, float>)
      return select_float(X, arguments, progress);
    else
      return select_double(X, arguments, progress);
  }

  NeighborGraph<float> (*select_float)(const Matrix<float>&, const Arguments&, const ProgressCallback&) = nullptr;
  NeighborGraph<double> (*select_double)(const Matrix<double>&, const Arguments&, const ProgressCallback&) = nullptr;
};

namespace detail {

template <class Select>
SelectorInfo selector(std::string_view name, std::string_view summary, std::span<const ParameterSpec> parameters,
                      bool prunes, Select) {
  return {name, summary, parameters, prunes,
          [](const Matrix<float>& X, const Arguments& a, const ProgressCallback& p) { return Select{}(X, a, p); },
          [](const Matrix<double>& X, const Arguments& a, const ProgressCallback& p) { return Select{}(X, a, p); }};
}

inline constexpr ParameterSpec k_parameter{"k", ParameterKind::integer, "10", 1, 2147483646, {},
                                           "neighbors per point (candidates of the pruning selectors)"};
inline constexpr ParameterSpec min_neighbors_parameter{"min_neighbors", ParameterKind::integer, "1", 1, 2147483646,
                                                       {}, "neighbors every point keeps when pruning"};

inline constexpr std::array<ParameterSpec, 2> knn_parameters{
    k_parameter, ParameterSpec{"search", ParameterKind::choice, "auto", 0, 0, "auto|exact|approximate",
                               "auto: exact unless HNSW is estimated >= 5x cheaper (large N, D > 20; reported with "
                               "its estimated recall); exact; approximate: HNSW (approx-knn's defaults)"}};

/// The knn selector's graph: KNearest, or ApproximateKNearest where `search` asks for it or, for
/// "auto", where choose_neighbor_search picks HNSW (docs/selectors.md, "Automatic choice").
template <Real T>
NeighborGraph<T> searched_knn(const Matrix<T>& X, index_t k, std::string_view search) {
#if defined(NLDR_HAVE_HNSWLIB)
  const bool automatic_hnsw = same_name(search, "auto") && choose_neighbor_search(index_t(X.rows()), X.cols(), true) ==
                                                               NeighborSearch::hnsw;
  if (same_name(search, "approximate") || automatic_hnsw) return ApproximateKNearest{.k = k}(X);
#else
  if (same_name(search, "approximate"))
    throw_invalid("search", "search = approximate needs hnswlib, which this build lacks: use search = exact, or "
                  "rebuild with hnswlib (Debian libhnswlib-dev)");
#endif
  return KNearest{k}(X);
}
inline constexpr std::array<ParameterSpec, 1> epsilon_parameters{
    ParameterSpec{"radius", ParameterKind::real, "0", 0, std::numeric_limits<double>::max(), {},
                  "ball radius in input units (required, > 0)"}};
inline constexpr std::array<ParameterSpec, 3> shared_parameters{
    k_parameter,
    ParameterSpec{"ratio", ParameterKind::real, "0.4", 1e-9, 1 - 1e-9, {},
                  "keep an edge with >= ceil(ratio k) shared neighbors"},
    min_neighbors_parameter};
inline constexpr std::array<ParameterSpec, 4> gaussian_parameters{
    k_parameter,
    ParameterSpec{"z", ParameterKind::real, "1", 0, 1e300, {}, "keep neighbors within mean + z standard deviations"},
    ParameterSpec{"most_probable", ParameterKind::flag, "false", 0, 0, {},
                  "Roy 2015's literal rule: keep the 0.68 k most probable"},
    min_neighbors_parameter};
inline constexpr std::array<ParameterSpec, 4> curvature_parameters{
    k_parameter,
    ParameterSpec{"intrinsic_dim", ParameterKind::integer, "2", 1, 1e9, {}, "the manifold's dimension"},
    ParameterSpec{"tolerance", ParameterKind::real, "0.1", 0, 1e300, {}, "relative curvature tolerance"},
    min_neighbors_parameter};
inline constexpr std::array<ParameterSpec, 4> short_circuit_parameters{
    k_parameter,
    ParameterSpec{"threshold", ParameterKind::integer, "0", 0, 2147483646, {},
                  "prune an edge whose box holds <= threshold points"},
    ParameterSpec{"index", ParameterKind::choice, "kdtree", 0, 0, "kdtree|rstar",
                  "box index: k-d tree (any D) or Boost R*-tree (D <= 3)"},
    min_neighbors_parameter};

inline constexpr std::array<ParameterSpec, 4> approximate_knn_parameters{
    k_parameter,
    ParameterSpec{"ef", ParameterKind::integer, "0", 0, 2147483646, {},
                  "HNSW candidates per query, >= k (0: max(2 k, 32)); more is slower and more exact"},
    ParameterSpec{"hnsw_m", ParameterKind::integer, "12", 2, 2048, {}, "HNSW links per node (hnswlib's M)"},
    ParameterSpec{"ef_construction", ParameterKind::integer, "64", 1, 2147483646, {},
                  "HNSW candidates while building the index"}};

// Every build lists the same selectors: one that needs an optional dependency the build lacks (hnswlib
// for approx-knn, Boost for short-circuit's rstar index) says so when it is used, so the tool's help,
// Python's names and the docs do not change with the build.
// A template only so that the table is instantiated where it is used (registry/compiled.hpp).
template <class Unused>
const std::vector<SelectorInfo>& selector_table() {
  static const std::vector<SelectorInfo> table{
      selector("knn", "the k nearest neighbors (exact, or HNSW where far cheaper: see search)", knn_parameters, false,
               []<Real T>(const Matrix<T>& X, const Arguments& a, const ProgressCallback&) {
                 return searched_knn(X, a.index("k"), a.text("search"));
               }),
      selector("epsilon", "every point within a radius", epsilon_parameters, false,
               []<Real T>(const Matrix<T>& X, const Arguments& a, const ProgressCallback&) {
                 if (!(a.real("radius") > 0))
                   throw_invalid("radius", "the epsilon selector needs radius = R > 0, the ball radius in input units");
                 return EpsilonBall{.radius = a.real("radius")}(X);
               }),
      selector("shared", "kNN pruned by shared-neighbor counts (Roy 2015)", shared_parameters, true,
               []<Real T>(const Matrix<T>& X, const Arguments& a, const ProgressCallback& progress) {
                 return SharedNeighbors{KNearest{a.index("k")},
                                        {.ratio = a.real("ratio"),
                                         .min_neighbors = a.index("min_neighbors"),
                                         .progress = progress}}(X);
               }),
      selector("gaussian", "kNN pruned by a Gaussian fit of the neighbor distances (Roy 2015)", gaussian_parameters,
               true,
               []<Real T>(const Matrix<T>& X, const Arguments& a, const ProgressCallback& progress) {
                 const auto rule = a.flag("most_probable") ? GaussianRule::most_probable : GaussianRule::spread;
                 return GaussianPruned{KNearest{a.index("k")},
                                       {.rule = rule,
                                        .z = a.real("z"),
                                        .min_neighbors = a.index("min_neighbors"),
                                        .progress = progress}}(X);
               }),
      selector("curvature", "kNN pruned where the local curvature changes (Roy 2015)", curvature_parameters, true,
               []<Real T>(const Matrix<T>& X, const Arguments& a, const ProgressCallback& progress) {
                 return CurvatureAdaptive{KNearest{a.index("k")},
                                          {.intrinsic_dim = a.index("intrinsic_dim"),
                                           .tolerance = a.real("tolerance"),
                                           .min_neighbors = a.index("min_neighbors"),
                                           .progress = progress}}(X);
               }),
      selector("short-circuit", "kNN without edges across empty boxes (Xia et al. 2008)", short_circuit_parameters,
               true, []<Real T>(const Matrix<T>& X, const Arguments& a, const ProgressCallback& progress) {
                 const ShortCircuitOptions options{.threshold = a.index("threshold"),
                                                   .min_neighbors = a.index("min_neighbors"),
                                                   .progress = progress};
                 const KNearest candidates{a.index("k")};
                 if (a.text("index") == "kdtree") return ShortCircuitPruned{candidates, options}(X);
#if defined(NLDR_HAVE_BOOST)
                 // The R*-tree's dimension is a compile-time constant: D = 2 and 3 are instantiated.
                 if (X.cols() == 2) return ShortCircuitPruned<KNearest, RStarBoxes<2>>{candidates, options}(X);
                 if (X.cols() == 3) return ShortCircuitPruned<KNearest, RStarBoxes<3>>{candidates, options}(X);
                 throw_invalid("index", "index = rstar handles D = 2 or 3, the input has D = ", X.cols(),
                               ": use index = kdtree (same result, any D)");
#else
                 throw_invalid("index", "index = rstar needs Boost.Geometry, which this build lacks: use index = "
                               "kdtree (same result) or rebuild with libboost-dev");
#endif
               }),
      selector("approx-knn", "approximate k nearest neighbors on an HNSW index (hnswlib)", approximate_knn_parameters,
               false,
               []<Real T>([[maybe_unused]] const Matrix<T>& X, [[maybe_unused]] const Arguments& a,
                          const ProgressCallback&) -> NeighborGraph<T> {
#if defined(NLDR_HAVE_HNSWLIB)
                 return ApproximateKNearest{.k = a.index("k"),
                                            .ef = a.index("ef"),
                                            .M = a.index("hnsw_m"),
                                            .ef_construction = a.index("ef_construction")}(X);
#else
                 throw_invalid("selector", "the approx-knn selector needs hnswlib, which this build lacks: use the "
                               "knn selector (exact), or rebuild with hnswlib (Debian libhnswlib-dev)");
#endif
               }),
  };
  return table;
}
#if defined(NLDR_REGISTRY_COMPILED)
extern template const std::vector<SelectorInfo>& selector_table<void>();
#endif

}  // namespace detail

/// Every registered selector, in the order the tool lists them.
/// (`Unused` defers the table's instantiation to the first call: registry/compiled.hpp.)
template <class Unused = void>
std::span<const SelectorInfo> selectors() {
  return detail::selector_table<Unused>();
}

/// The selector called `name` (case-insensitive). \throws nldr::invalid_argument naming "selector".
template <class Unused = void>
const SelectorInfo& find_selector(std::string_view name) {
  std::vector<std::string_view> known;
  for (const auto& entry : selectors<Unused>()) {
    if (detail::same_name(entry.name, name)) return entry;
    known.push_back(entry.name);
  }
  throw_invalid("selector", "unknown selector \"", name, "\"", detail::did_you_mean(name, known), ": use one of ",
                detail::joined(known));
}

}  // namespace nldr
