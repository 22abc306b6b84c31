// CurvatureAdaptive: keep candidates whose curvature matches the point's (docs/algorithms.md
// sec. 2.5; Roy 2015, sec. 3.2, Algorithm 3).
#pragma once

#include <nldr/core/described.hpp>
#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/precompiled.hpp>
#include <nldr/core/progress.hpp>
#include <nldr/core/types.hpp>
#include <nldr/neighbors/curvature.hpp>
#include <nldr/neighbors/detail/pruning.hpp>
#include <nldr/neighbors/graph.hpp>
#include <nldr/neighbors/knn.hpp>
#include <nldr/neighbors/selector.hpp>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace nldr {

/// Options of CurvatureAdaptive (defaults of Roy 2015 where it gives them).
struct CurvatureAdaptiveOptions {
  /// Neighbors (the first of each candidate list) used by the curvature estimate; 0 = the whole
  /// list (k_max). See estimate_curvature for the minimum.
  index_t curvature_neighbors = 0;
  /// Intrinsic dimension d of the manifold, 1 <= d < D.
  index_t intrinsic_dim = 2;
  /// Relative tolerance: 0.10 is Roy 2015's "within 10%"; finite, >= 0.
  double tolerance = 0.10;
  /// Absolute floors added to the tolerance of K_H and K_G (finite, >= 0). Empty: automatic,
  /// tolerance * kappa and tolerance * kappa^2 with kappa = max(median_i K_H(i), 1 / R), R the
  /// root-mean-square distance of the points from their centroid: curvature below 1/R cannot be
  /// told from flat at the scale of the data.
  std::optional<double> mean_floor{};
  std::optional<double> gaussian_floor{};
  /// Neighbors every point keeps at least (nearest candidates first), >= 1.
  index_t min_neighbors = 1;
  /// Re-add the shortest pruned candidates that rejoin components split by pruning.
  bool reconnect = true;
  /// Optional progress and cancel hook (core/progress.hpp): 0.5 once the candidate lists are
  /// found, then (after the curvature estimates, which report nothing)
  /// 0.5 .. 0.95 from the rule by blocks of ~1% of the points, 1 when the graph is assembled.
  ProgressCallback progress{};

  /// The parameters a caller names (core/described.hpp; docs/registry.md).
  template <class Visitor>
  void describe(Visitor& v) {
    v.number("intrinsic_dim", intrinsic_dim, {1, 1e9}, "the manifold's dimension");
    v.number("tolerance", tolerance, {0, 1e300}, "relative curvature tolerance");
    v.number("min_neighbors", min_neighbors, {1, 2147483646}, "neighbors every point keeps when pruning");
  }
};

/// The absolute floors CurvatureAdaptive uses for (K_H, K_G) when they are not given
/// (see CurvatureAdaptiveOptions). X: N x D, the curvatures of its points.
template <class Derived>
std::pair<double, double> automatic_curvature_floors(const Eigen::MatrixBase<Derived>& X,
                                                     const Curvatures<typename Derived::Scalar>& curvatures,
                                                     double tolerance) {
  const Eigen::MatrixXd points = X.template cast<double>();
  const double rms = std::sqrt((points.rowwise() - points.colwise().mean()).squaredNorm() / double(points.rows()));
  std::vector<double> mean(curvatures.mean.data(), curvatures.mean.data() + curvatures.mean.size());
  auto middle = mean.begin() + std::ptrdiff_t(mean.size() / 2);
  std::nth_element(mean.begin(), middle, mean.end());
  const double kappa = std::max(*middle, rms > 0 ? 1.0 / rms : 0.0);
  return {tolerance * kappa, tolerance * kappa * kappa};
}

namespace detail {

/// CurvatureAdaptive's rule on its candidates (compiled once in nldr::registry: core/precompiled.hpp).
template <Real T>
NeighborGraph<T> curvature_adaptive_rule(const CandidateGraph<T>& cand, const PointsRef<T>& X,
                                         const CurvatureAdaptiveOptions& options) {
  const NeighborGraph<T>& graph = cand.graph;
  const Curvatures<T> curv = estimate_curvature(X, graph, options.intrinsic_dim, options.curvature_neighbors);
  // Named variables, not a structured binding: clang 14 cannot capture bindings in the lambda below.
  const std::pair<double, double> floors = automatic_curvature_floors(X, curv, options.tolerance);
  const double mean_floor = options.mean_floor.value_or(floors.first);
  const double gaussian_floor = options.gaussian_floor.value_or(floors.second);

  const auto offsets = graph.offsets();
  const auto indices = graph.indices();
  std::vector<unsigned char> keep(indices.size(), 0);
  const double tol = options.tolerance;
  cand.for_each_point([&](index_t i) {
    const double mean_i = curv.mean(i), gauss_i = curv.gaussian(i);
    for (offset_t e = offsets[i]; e < offsets[i + 1]; ++e) {
      const double mean_j = curv.mean(indices[e]), gauss_j = curv.gaussian(indices[e]);
      keep[e] = std::abs(mean_j - mean_i) <= tol * std::abs(mean_i) + mean_floor &&
                std::abs(gauss_j - gauss_i) <= tol * std::abs(gauss_i) + gaussian_floor;
    }
  });
  return detail::assemble_pruned(
      cand, std::move(keep), {options.min_neighbors, options.reconnect},
      detail::concat("curvature_adaptive(tolerance=", tol, ", mean_floor=", mean_floor,
                     ", gaussian_floor=", gaussian_floor, ") on ", graph.selection().selector));
}

NLDR_PRECOMPILED(NeighborGraph<float> curvature_adaptive_rule<float>(
    const CandidateGraph<float>&, const PointsRef<float>&, const CurvatureAdaptiveOptions&))
NLDR_PRECOMPILED(NeighborGraph<double> curvature_adaptive_rule<double>(
    const CandidateGraph<double>&, const PointsRef<double>&, const CurvatureAdaptiveOptions&))

}  // namespace detail

/// Curvature-adaptive selection. Candidates: the lists of `candidates` (the k_max nearest
/// neighbors by default: KNearest{k_max}). Curvatures K_H, K_G of every point come from
/// estimate_curvature on the first curvature_neighbors entries of its list. Entry (i -> j) is
/// kept iff both |K_H(j) - K_H(i)| <= tolerance |K_H(i)| + mean_floor and
/// |K_G(j) - K_G(i)| <= tolerance |K_G(i)| + gaussian_floor (Roy 2015's
/// 0.9 K(i) <= K(j) <= 1.1 K(i), plus floors so that flat regions, K ~ 0, keep their edges).
/// Kept edges go both ways (a pair is kept when either endpoint accepts the other), then the
/// min_neighbors fallback and the reconnection of detail::assemble_pruned.
/// The seed's dynamic k_i is the resulting degree, capped by k_max through the candidates.
///
/// Result: a symmetric NeighborGraph; selection() reports candidate entries, pruned entries,
/// fallback points, re-added pairs and the floors used; graph_statistics() gives histogram and
/// components. Cost: the curvature fits, O(N k (D^2 + k)), plus O(N k); parallel over points.
///
/// \code
/// nldr::Matrix<double> X = ...;                                          // N x D, surface samples
/// auto graph = nldr::CurvatureAdaptive{nldr::KNearest{20}}(X);           // k_max = 20, tolerance 10%
/// auto loose = nldr::CurvatureAdaptive{nldr::KNearest{20}, {.tolerance = 0.25, .mean_floor = 0.01}}(X);
/// \endcode
template <class Candidates = KNearest>
struct CurvatureAdaptive {
  Candidates candidates{};
  CurvatureAdaptiveOptions options{};

  /// X: N x D points (float or double, finite, D > intrinsic_dim). Returns the symmetric graph.
  /// \throws nldr::invalid_argument naming "tolerance", "mean_floor", "gaussian_floor",
  /// "curvature_neighbors", "intrinsic_dim", "min_neighbors", "X" or the candidate's parameters.
  template <class Derived>
  NeighborGraph<typename Derived::Scalar> operator()(const Eigen::MatrixBase<Derived>& X) const {
    using T = typename Derived::Scalar;
    if (!(std::isfinite(options.tolerance) && options.tolerance >= 0))
      throw_invalid("tolerance", "tolerance = ", options.tolerance, " must be finite and >= 0 (Roy 2015 uses 0.10)");
    auto check_floor = [](const std::optional<double>& floor, const char* name) {
      if (floor && !(std::isfinite(*floor) && *floor >= 0))
        throw_invalid(name, name, " = ", *floor, " must be finite and >= 0 (or left empty for the automatic floor)");
    };
    check_floor(options.mean_floor, "mean_floor");
    check_floor(options.gaussian_floor, "gaussian_floor");
    if (options.curvature_neighbors < 0)
      throw_invalid("curvature_neighbors", "curvature_neighbors = ", options.curvature_neighbors,
                    " must be >= 0 (0: the whole candidate list)");
    validate_dimension(options.intrinsic_dim, X.cols(), "D (the columns of X)", "intrinsic_dim");
    detail::validate_min_neighbors(options.min_neighbors);
    return detail::curvature_adaptive_rule<T>(detail::candidate_graph(candidates, X, options.progress),
                                              X.derived(), options);
  }
};

template <class Candidates>
CurvatureAdaptive(Candidates) -> CurvatureAdaptive<Candidates>;
template <class Candidates>
CurvatureAdaptive(Candidates, CurvatureAdaptiveOptions) -> CurvatureAdaptive<Candidates>;

static_assert(NeighborSelector<CurvatureAdaptive<>, float> && NeighborSelector<CurvatureAdaptive<>, double>);

}  // namespace nldr
