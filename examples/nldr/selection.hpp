// The tool's neighbor selectors by name: one NeighborGraph from command-line settings.
#pragma once

#include <nldr/nldr.hpp>
#if defined(NLDR_HAVE_BOOST)
#include <nldr/neighbors/rstar_box_index.hpp>
#endif

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace nldr_tool {

inline constexpr std::array<std::string_view, 6> selector_names{"knn",      "epsilon",   "shared",
                                                                "gaussian", "curvature", "short-circuit"};

/// What `--selector` and its parameters ask for. The pruning selectors ("shared", "gaussian",
/// "curvature", "short-circuit") prune the lists of KNearest{k}.
struct SelectorSettings {
  std::string name = "knn";
  nldr::index_t k = 10;
  std::optional<double> radius{};      ///< epsilon: required
  nldr::index_t min_neighbors = 1;     ///< pruning selectors: neighbors every point keeps
  nldr::index_t intrinsic_dim = 2;     ///< curvature: the manifold's dimension
  double ratio = nldr::SharedNeighborsOptions{}.ratio;          ///< shared: threshold = ceil(ratio k)
  double z = nldr::GaussianPrunedOptions{}.z;                   ///< gaussian: keep d <= mu + z sigma
  bool most_probable = false;                                   ///< gaussian: the seed's k' = 0.68 k rule
  double tolerance = nldr::CurvatureAdaptiveOptions{}.tolerance;  ///< curvature: relative tolerance
  nldr::index_t threshold = nldr::ShortCircuitOptions{}.threshold;  ///< short-circuit: prune boxes with <= this
  std::string index = "kdtree";                                 ///< short-circuit: kdtree | rstar
};

inline std::string joined_names(const auto& names) {
  std::string text;
  for (const auto name : names) text += (text.empty() ? "" : ", ") + std::string(name);
  return text;
}

/// Builds the graph of X with the named selector.
/// \throws nldr::invalid_argument for an unknown selector or a missing/invalid parameter.
inline nldr::NeighborGraph<double> select_neighbors(const SelectorSettings& s, const nldr::Matrix<double>& X) {
  const nldr::KNearest candidates{s.k};
  if (s.name == "knn") return candidates(X);
  if (s.name == "epsilon") {
    if (!s.radius)
      nldr::throw_invalid("radius", "--selector epsilon needs --radius R (the ball radius in input units)");
    return nldr::EpsilonBall{.radius = *s.radius}(X);
  }
  if (s.name == "shared")
    return nldr::SharedNeighbors{candidates, {.ratio = s.ratio, .min_neighbors = s.min_neighbors}}(X);
  if (s.name == "gaussian") {
    const auto rule = s.most_probable ? nldr::GaussianRule::most_probable : nldr::GaussianRule::spread;
    return nldr::GaussianPruned{candidates, {.rule = rule, .z = s.z, .min_neighbors = s.min_neighbors}}(X);
  }
  if (s.name == "curvature")
    return nldr::CurvatureAdaptive{candidates, {.intrinsic_dim = s.intrinsic_dim,
                                                .tolerance = s.tolerance,
                                                .min_neighbors = s.min_neighbors}}(X);
  if (s.name == "short-circuit") {
    const nldr::ShortCircuitOptions options{.threshold = s.threshold, .min_neighbors = s.min_neighbors};
    if (s.index == "kdtree") return nldr::ShortCircuitPruned{candidates, options}(X);
    if (s.index != "rstar")
      nldr::throw_invalid("index", "unknown index \"", s.index, "\": use kdtree or rstar");
#if defined(NLDR_HAVE_BOOST)
    // The R*-tree's dimension is a compile-time constant: the tool carries D = 2 and 3.
    if (X.cols() == 2) return nldr::ShortCircuitPruned<nldr::KNearest, nldr::RStarBoxes<2>>{candidates, options}(X);
    if (X.cols() == 3) return nldr::ShortCircuitPruned<nldr::KNearest, nldr::RStarBoxes<3>>{candidates, options}(X);
    nldr::throw_invalid("index", "--index rstar handles D = 2 or 3 in the tool, the input has D = ", X.cols(),
                        ": use --index kdtree (same result, any D)");
#else
    nldr::throw_invalid("index", "--index rstar needs Boost.Geometry, which this build lacks: use --index kdtree "
                        "(same result) or rebuild with libboost-dev");
#endif
  }
  nldr::throw_invalid("selector", "unknown selector \"", s.name, "\": use one of ", joined_names(selector_names));
}

}  // namespace nldr_tool
