// The tool's neighbor selectors by name: one NeighborGraph from command-line settings.
#pragma once

#include <nldr/nldr.hpp>

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
  std::optional<double> radius;        ///< epsilon: required
  nldr::index_t min_neighbors = 1;     ///< pruning selectors: neighbors every point keeps
  nldr::index_t intrinsic_dim = 2;     ///< curvature: the manifold's dimension
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
    return nldr::SharedNeighbors{candidates, {.min_neighbors = s.min_neighbors}}(X);
  if (s.name == "gaussian")
    return nldr::GaussianPruned{candidates, {.min_neighbors = s.min_neighbors}}(X);
  if (s.name == "curvature")
    return nldr::CurvatureAdaptive{candidates, {.intrinsic_dim = s.intrinsic_dim, .min_neighbors = s.min_neighbors}}(X);
  if (s.name == "short-circuit")
    return nldr::ShortCircuitPruned{candidates, {.min_neighbors = s.min_neighbors}}(X);
  nldr::throw_invalid("selector", "unknown selector \"", s.name, "\": use one of ", joined_names(selector_names));
}

}  // namespace nldr_tool
