// The selector registry (docs/registry.md): every neighbor selector by name with its parameters
// and a factory from named parameters to a NeighborGraph. The pruning selectors prune the lists
// of the exact k nearest neighbors. The tool and the Python package iterate it.
#pragma once

#include <nldr/core/described.hpp>
#include <nldr/core/error.hpp>
#include <nldr/core/precompiled.hpp>
#include <nldr/core/progress.hpp>
#include <nldr/core/types.hpp>
#include <nldr/neighbors/approximate_knn.hpp>
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
#include <nldr/registry/described_parameters.hpp>
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
  /// Its parameters, from its settings' describe() (core/described.hpp).
  std::vector<ParameterSpec> parameters;
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

/// The graph of a selector whose settings start as `Make{}()` returns them, are set from the named
/// parameters (their describe(), core/described.hpp), and are then handed to `Select{}`.
template <Real T, class Make, class Select>
NeighborGraph<T> select_with(const Matrix<T>& X, const Arguments& arguments, const ProgressCallback& progress) {
  auto settings = Make{}();
  set_described(settings, arguments);
  return Select{}(X, settings, progress);
}

/// An entry: `make` (a captureless lambda) returns a selector, or a selector with the registry's own
/// choices; `Select` builds the graph from them. Its parameters are those the settings describe.
template <class Make, class Select>
SelectorInfo selector(std::string_view name, std::string_view summary, bool prunes, Make make, Select) {
  return {name, summary, described_parameters(make()), prunes, &select_with<float, Make, Select>,
          &select_with<double, Make, Select>};
}

/// How the knn selector searches (docs/selectors.md, "Automatic choice").
enum class KnnSearch { automatic, exact, approximate };
inline constexpr std::array<Choice<KnnSearch>, 3> knn_searches{
    {{"auto", KnnSearch::automatic}, {"exact", KnnSearch::exact}, {"approximate", KnnSearch::approximate}}};

/// The knn selector: KNearest's k, and the search.
struct KnnSelection {
  KNearest knn{};
  KnnSearch search = KnnSearch::automatic;

  template <class Visitor>
  void describe(Visitor& v) {
    knn.describe(v);
    v.choice("search", search, knn_searches,
             "auto: exact unless HNSW is estimated >= 5x cheaper (large N, D > 20; reported with its estimated "
             "recall); exact; approximate: HNSW (approx-knn's defaults)");
  }
};

/// The knn selector's graph: KNearest, or ApproximateKNearest where `search` asks for it or, for
/// "auto", where choose_neighbor_search picks HNSW (docs/selectors.md, "Automatic choice").
template <Real T>
NeighborGraph<T> searched_knn(const Matrix<T>& X, const KnnSelection& selection) {
#if defined(NLDR_HAVE_HNSWLIB)
  const bool automatic_hnsw =
      selection.search == KnnSearch::automatic &&
      choose_neighbor_search(index_t(X.rows()), X.cols(), true) == NeighborSearch::hnsw;
  if (selection.search == KnnSearch::approximate || automatic_hnsw)
    return ApproximateKNearest{.k = selection.knn.k}(X);
#else
  if (selection.search == KnnSearch::approximate)
    throw_invalid("search", "search = approximate needs hnswlib, which this build lacks: use search = exact, or "
                  "rebuild with hnswlib (Debian libhnswlib-dev)");
#endif
  return selection.knn(X);
}

/// A pruning selector's settings: its candidates' parameters, then its rule's.
template <class Pruning>
struct PruningSelection {
  Pruning pruning{};

  template <class Visitor>
  void describe(Visitor& v) {
    pruning.candidates.describe(v);
    pruning.options.describe(v);
  }
};

/// A pruning selector's graph, with `progress` hearing the pruning.
inline constexpr auto pruned_graph = []<Real T, class Pruning>(const Matrix<T>& X, PruningSelection<Pruning> selection,
                                                                const ProgressCallback& progress) {
  selection.pruning.options.progress = progress;
  return selection.pruning(X);
};

/// Short-circuit pruning's box index (a template argument of ShortCircuitPruned).
enum class BoxIndex { kdtree, rstar };
inline constexpr std::array<Choice<BoxIndex>, 2> box_indexes{
    {{"kdtree", BoxIndex::kdtree}, {"rstar", BoxIndex::rstar}}};

/// The short-circuit selector: ShortCircuitPruned's parameters, and the box index.
struct ShortCircuitSelection {
  PruningSelection<ShortCircuitPruned<>> pruned{};
  BoxIndex index = BoxIndex::kdtree;

  template <class Visitor>
  void describe(Visitor& v) {
    pruned.describe(v);
    v.choice("index", index, box_indexes, "box index: k-d tree (any D) or Boost R*-tree (D <= 3)");
  }
};

// Every build lists the same selectors: one that needs an optional dependency the build lacks (hnswlib
// for approx-knn, Boost for short-circuit's rstar index) says so when it is used, so the tool's help,
// Python's names and the docs do not change with the build.
// A template only so that the table is instantiated where it is used (core/precompiled.hpp).
template <class Unused>
const std::vector<SelectorInfo>& selector_table() {
  static const std::vector<SelectorInfo> table{
      selector("knn", "the k nearest neighbors (exact, or HNSW where far cheaper: see search)", false,
               [] { return KnnSelection{}; },
               []<Real T>(const Matrix<T>& X, const KnnSelection& selection, const ProgressCallback&) {
                 return searched_knn(X, selection);
               }),
      // No default radius: a ball's size depends on the data's units, so the user names one.
      selector("epsilon", "every point within a radius", false, [] { return EpsilonBall{.radius = 0}; },
               []<Real T>(const Matrix<T>& X, const EpsilonBall& ball, const ProgressCallback&) {
                 if (!(ball.radius > 0))
                   throw_invalid("radius", "the epsilon selector needs radius = R > 0, the ball radius in input units");
                 return ball(X);
               }),
      selector("shared", "kNN pruned by shared-neighbor counts (Roy 2015)", true,
               [] { return PruningSelection<SharedNeighbors<>>{}; },
               pruned_graph),
      selector("gaussian", "kNN pruned by a Gaussian fit of the neighbor distances (Roy 2015)", true,
               [] { return PruningSelection<GaussianPruned<>>{}; }, pruned_graph),
      selector("curvature", "kNN pruned where the local curvature changes (Roy 2015)", true,
               [] { return PruningSelection<CurvatureAdaptive<>>{}; }, pruned_graph),
      selector("short-circuit", "kNN without edges across empty boxes (Xia et al. 2008)", true,
               [] { return ShortCircuitSelection{}; },
               []<Real T>(const Matrix<T>& X, ShortCircuitSelection selection, const ProgressCallback& progress) {
                 auto& pruned = selection.pruned.pruning;
                 pruned.options.progress = progress;
                 if (selection.index == BoxIndex::kdtree) return pruned(X);
#if defined(NLDR_HAVE_BOOST)
                 // The R*-tree's dimension is a compile-time constant: D = 2 and 3 are instantiated.
                 const auto& [candidates, options] = pruned;
                 if (X.cols() == 2) return ShortCircuitPruned<KNearest, RStarBoxes<2>>{candidates, options}(X);
                 if (X.cols() == 3) return ShortCircuitPruned<KNearest, RStarBoxes<3>>{candidates, options}(X);
                 throw_invalid("index", "index = rstar handles D = 2 or 3, the input has D = ", X.cols(),
                               ": use index = kdtree (same result, any D)");
#else
                 throw_invalid("index", "index = rstar needs Boost.Geometry, which this build lacks: use index = "
                               "kdtree (same result) or rebuild with libboost-dev");
#endif
               }),
      selector("approx-knn", "approximate k nearest neighbors on an HNSW index (hnswlib)", false,
               [] { return ApproximateKNearest{}; },
               []<Real T>([[maybe_unused]] const Matrix<T>& X, [[maybe_unused]] const ApproximateKNearest& search,
                          const ProgressCallback&) -> NeighborGraph<T> {
#if defined(NLDR_HAVE_HNSWLIB)
                 return search(X);
#else
                 throw_invalid("selector", "the approx-knn selector needs hnswlib, which this build lacks: use the "
                               "knn selector (exact), or rebuild with hnswlib (Debian libhnswlib-dev)");
#endif
               }),
  };
  return table;
}
NLDR_PRECOMPILED_TABLE(const std::vector<SelectorInfo>& selector_table<void>())
#if defined(NLDR_HAVE_BOOST)
// The table's R*-tree rules (D = 2 and 3), compiled with it.
NLDR_PRECOMPILED(NeighborGraph<float> short_circuit_rule<RStarBoxes<2>, true, float>(
    const CandidateGraph<float>&, const PointsRef<float>&, const ShortCircuitOptions&))
NLDR_PRECOMPILED(NeighborGraph<double> short_circuit_rule<RStarBoxes<2>, true, double>(
    const CandidateGraph<double>&, const PointsRef<double>&, const ShortCircuitOptions&))
NLDR_PRECOMPILED(NeighborGraph<float> short_circuit_rule<RStarBoxes<3>, true, float>(
    const CandidateGraph<float>&, const PointsRef<float>&, const ShortCircuitOptions&))
NLDR_PRECOMPILED(NeighborGraph<double> short_circuit_rule<RStarBoxes<3>, true, double>(
    const CandidateGraph<double>&, const PointsRef<double>&, const ShortCircuitOptions&))
#endif

}  // namespace detail

/// Every registered selector, in the order the tool lists them.
/// (`Unused` defers the table's instantiation to the first call: core/precompiled.hpp.)
template <class Unused = void>
std::span<const SelectorInfo> selectors() {
  return detail::selector_table<Unused>();
}

/// The selector called `name` (case-insensitive). \throws nldr::invalid_argument naming "selector".
template <class Unused = void>
const SelectorInfo& find_selector(std::string_view name) {
  return detail::find_named(selectors<Unused>(), name, "selector", "selector");
}

}  // namespace nldr
