// SMACOF: metric and non-metric multidimensional scaling by stress majorization (de Leeuw 1977;
// Borg & Groenen 2005, ch. 8-9; Kruskal 1964 for the non-metric monotone regression). The optimizer is
// shared with Sammon's mapping (embed/routines/majorization.hpp, embed/majorization_model.hpp);
// docs/methods/smacof.md.
#pragma once

#include <nldr/core/described.hpp>
#include <nldr/core/error.hpp>
#include <nldr/core/iteration.hpp>
#include <nldr/core/precompiled.hpp>
#include <nldr/core/progress.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>
#include <nldr/core/precomputed.hpp>
#include <nldr/embed/embedder.hpp>
#include <nldr/embed/majorization_model.hpp>
#include <nldr/embed/majorization_options.hpp>
#include <nldr/embed/model_fields.hpp>
#include <nldr/embed/routines/majorization.hpp>
#include <nldr/embed/routines/majorization_problem.hpp>
#include <nldr/embed/routines/stress_placement.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

namespace nldr {

/// Options of Smacof.
struct SmacofOptions {
  index_t dim = 2;  ///< target dimension d, 1 <= d < N
  /// true: disparities = the dissimilarities (metric MDS); false: their monotone regression on the
  /// distances (non-metric MDS, Kruskal 1964), so only the order of the dissimilarities matters.
  bool metric = true;
  TieApproach ties = TieApproach::primary;  ///< non-metric only: how tied dissimilarities are treated
  MajorizationInit init = MajorizationInit::classical_mds;
  int n_init = 1;              ///< runs (restarts), >= 1; the one of least stress is kept
  std::uint64_t seed = 0;      ///< seed of the random starts (run r uses its own stream)
  int max_iterations = 300;    ///< Guttman transforms per run, >= 1 (scikit-learn's max_iter)
  /// Stop when one transform lowers the raw stress by less than this fraction of it, >= 0.
  double tolerance = 1e-4;
  std::uint64_t memory_limit = 0;  ///< bytes for the N x N matrices (0: the memory available now)
  ProgressCallback progress{};       ///< optional progress and cancel hook (majorization_options.hpp)
  IterationCallback on_iteration{};  ///< optional observer of each step (majorization_options.hpp)

  /// The parameters a caller names (core/described.hpp; docs/registry.md).
  template <class Visitor>
  void describe(Visitor& v) {
    v.number("dim", dim, {1, 1e9}, "target dimension d");
    describe_majorization_runs(v, n_init, init, seed, max_iterations, tolerance, "Guttman transforms per run");
    if (!metric)
      v.choice("ties", ties, tie_approaches,
               "tied dissimilarities: primary (may get unequal disparities) or secondary (one common)");
  }
};

/// A fitted SMACOF: the configuration, every stress normalization, and what transform() needs.
/// Stress numbers (w = weights, dhat = disparities, d = configuration distances, over pairs i < j);
/// stress_history holds the raw stress of the kept run.
template <Real T>
struct SmacofModel : MajorizationModel<T, SmacofModel<T>> {
  /// Raw stress sum w (dhat - d)^2: scikit-learn 1.2's MDS.stress_ (metric; normalized_stress=False).
  /// Non-metric: dhat is scaled to sum w dhat^2 = sum w delta^2 (scikit-learn scales differently).
  double stress = 0;
  /// sqrt(stress / sum w dhat^2), stress-1 with the disparities in the denominator: scikit-learn 1.2's
  /// stress_ with normalized_stress=True, and R smacof's `stress`.
  double normalized_stress = 0;
  /// Kruskal's stress-1 with the distances in the denominator, sqrt(sum w (d - f)^2 / sum w d^2),
  /// f the unscaled monotone regression of d (metric: f = delta): R's MASS::isoMDS `stress` / 100.
  double kruskal_stress = 0;
  bool metric = true;
  /// Non-metric: the fitted map dissimilarity -> disparity (knots, increasing), used by transform.
  std::vector<double> map_dissimilarities, map_disparities;

  /// Throws invalid_argument("model") unless the fields fit together (e.g. after a model file).
  void check_state() const {
    this->check_majorization_state();
    require_state(metric || (!map_dissimilarities.empty() && map_dissimilarities.size() == map_disparities.size() &&
                             std::is_sorted(map_dissimilarities.begin(), map_dissimilarities.end())),
                  "a monotone map with increasing knots");
  }

  template <class Visitor>
  void visit(Visitor& v) {
    this->visit_majorization(v);
    v("stress", stress, FieldRole::result);
    v("normalized_stress", normalized_stress, FieldRole::result);
    v("kruskal_stress", kruskal_stress, FieldRole::result);
    v("metric", metric, FieldRole::state);
    v("map_dissimilarities", map_dissimilarities, FieldRole::state);
    v("map_disparities", map_disparities, FieldRole::state);
  }

 private:
  friend MajorizationModel<T, SmacofModel<T>>;
  /// transform() places each new point where its own stress to the N training points,
  /// sum_i (dhat_i - ||y - y_i||)^2, is least, by the single-point Guttman update (dhat_i = the
  /// Euclidean distance; non-metric: its image under the fitted monotone map, linear between knots,
  /// constant beyond the ends).
  Matrix<T> place(Matrix<double> targets) const;
  double disparity_of(double delta) const {
    const auto upper = std::upper_bound(map_dissimilarities.begin(), map_dissimilarities.end(), delta);
    if (upper == map_dissimilarities.begin()) return map_disparities.front();
    if (upper == map_dissimilarities.end()) return map_disparities.back();
    const auto b = std::size_t(upper - map_dissimilarities.begin());
    const double t = (delta - map_dissimilarities[b - 1]) / (map_dissimilarities[b] - map_dissimilarities[b - 1]);
    return map_disparities[b - 1] + t * (map_disparities[b] - map_disparities[b - 1]);
  }
};

template <Real T>
Matrix<T> SmacofModel<T>::place(Matrix<double> targets) const {
  const Matrix<double> X = this->coordinates.template cast<double>();
  if (metric)
    return detail::place_points(X, targets, false, this->transform_iterations, this->transform_tolerance)
        .template cast<T>();
  // Non-metric: the disparities of the dissimilarities; a duplicate of a training point (dissimilarity
  // 0, whose disparity need not be 0) still lands on it.
  std::vector<Eigen::Index> duplicate_of(std::size_t(targets.rows()), -1);
  for (Eigen::Index p = 0; p < targets.rows(); ++p) {
    Eigen::Index nearest = 0;
    if (targets.row(p).minCoeff(&nearest) == 0) duplicate_of[std::size_t(p)] = nearest;
    for (Eigen::Index i = 0; i < targets.cols(); ++i) targets(p, i) = disparity_of(targets(p, i));
  }
  Matrix<T> Y =
      detail::place_points(X, targets, false, this->transform_iterations, this->transform_tolerance).template cast<T>();
  for (Eigen::Index p = 0; p < Y.rows(); ++p)
    if (duplicate_of[std::size_t(p)] >= 0) Y.row(p) = this->coordinates.row(duplicate_of[std::size_t(p)]);
  return Y;
}

NLDR_PRECOMPILED(Matrix<float> SmacofModel<float>::place(Matrix<double>) const)
NLDR_PRECOMPILED(Matrix<double> SmacofModel<double>::place(Matrix<double>) const)

/// SMACOF multidimensional scaling of points (Euclidean distances) or of dissimilarities.
///
/// Cost per Guttman transform O(N^2 d), parallel; non-metric sorts the N(N-1)/2 pairs once (a bucket
/// sort: O(N^2) for evenly spread dissimilarities, O(N^2 log N) at worst) and adds a monotone
/// regression over them per transform, O(N^2), in parallel chunks.
/// Weights other than all-ones add one O(N^3 / 3) Cholesky factorization.
/// Memory: 2 to 9 dense N x N doubles (checked before allocating).
///
/// \code
/// auto mds = nldr::Smacof{{.dim = 2, .metric = false, .n_init = 4}}.fit(X);
/// mds.kruskal_stress;               // as MASS::isoMDS (/100)
/// auto placed = mds.transform(X_new);
/// auto from_d = nldr::Smacof{{.dim = 2}}.fit(nldr::precomputed(D), W);   // W(i, j) = 0: D(i, j) missing
/// \endcode
struct Smacof {
  SmacofOptions options;

  /// X: N x D points (finite, N >= 3, not all identical).
  /// \throws nldr::invalid_argument ("X", "dim", "n_init", ...), nldr::memory_limit_exceeded.
  template <class Derived>
  SmacofModel<typename Derived::Scalar> fit(const Eigen::MatrixBase<Derived>& X) const {
    using T = typename Derived::Scalar;
    static_assert(Real<T>, "nldr::Smacof: the points must be float or double");
    detail::validate_majorization_points(X);
    check_memory_for(X.rows(), false);
    Stopwatch clock;
    SmacofModel<T> model = solve<T>(detail::euclidean_dissimilarities(X), Matrix<double>(), clock);
    model.training_points = X;
    return model;
  }

  /// distances: N x N dissimilarities (finite, >= 0, symmetric, zero diagonal), N >= 3.
  template <class Derived>
  SmacofModel<typename Derived::Scalar> fit(const Precomputed<Derived>& input) const {
    return fit_dissimilarities(input.matrix, [](Eigen::Index) { return Matrix<double>(); }, false);
  }

  /// The same with weights (N x N, finite, >= 0, symmetric; 0 marks a missing dissimilarity, whose
  /// entry in `distances` is then not read beyond validation). The positive weights must connect all
  /// points. \throws nldr::invalid_argument naming "weights".
  template <class Derived, class WeightDerived>
  SmacofModel<typename Derived::Scalar> fit(const Precomputed<Derived>& input,
                                            const Eigen::MatrixBase<WeightDerived>& weights) const {
    return fit_dissimilarities(
        input.matrix, [&](Eigen::Index n) { return detail::validated_weights(weights, n); }, true);
  }

 private:
  /// The fit on distances, with the weights weights_for(N) (empty: every weight 1).
  template <class Derived, class Weights>
  SmacofModel<typename Derived::Scalar> fit_dissimilarities(const Eigen::MatrixBase<Derived>& distances,
                                                            const Weights& weights_for, bool weighted) const {
    using T = typename Derived::Scalar;
    static_assert(Real<T>, "nldr::Smacof: the distances must be float or double");
    check_memory_for(distances.rows(), weighted);
    Stopwatch clock;
    Matrix<double> delta = detail::validated_dissimilarities(distances, "distances", 3);
    Matrix<double> weights = weights_for(delta.rows());
    SmacofModel<T> model = solve<T>(std::move(delta), std::move(weights), clock);
    model.from_distances = true;
    return model;
  }

  void check_memory_for(Eigen::Index n, bool weighted) const {
    // delta and the classical start's B; weights and the Cholesky factor of V; non-metric: the sorted
    // pairs (N^2 / 2 x 24 bytes, 40 while sorting) and one run's distances, regression and copies
    // (N^2 / 2 x 48 bytes at most)
    const int matrices = 2 + (weighted ? 2 : 0) + (options.metric ? 0 : 5);
    detail::check_majorization_memory(n, options.dim, matrices, "Smacof", options.memory_limit);
  }

  /// `clock` has run since the dissimilarities were begun (stage "dissimilarities").
  template <Real T>
  SmacofModel<T> solve(Matrix<double> delta, Matrix<double> weights, const Stopwatch& clock) const;
};

template <Real T>
SmacofModel<T> Smacof::solve(Matrix<double> delta, Matrix<double> weights, const Stopwatch& clock) const {
  StageTimes times;
  times.add("dissimilarities", clock.seconds());
  if (options.ties != TieApproach::primary && options.ties != TieApproach::secondary)
    throw_invalid("ties", "ties = ", int(options.ties), " is not a TieApproach");
  const detail::MajorizationProblem problem{std::move(delta), std::move(weights), !options.metric, options.ties};
  const detail::MajorizationSettings settings = detail::majorization_settings(options, problem.delta.rows());
  SmacofModel<T> model;
  detail::MajorizationResult best = detail::fit_majorization(model, problem, settings, std::move(times), "Smacof",
                                                             options.metric ? "smacof" : "smacof-nonmetric");
  model.stress = best.raw_stress;
  model.normalized_stress = best.disparity_norm > 0 ? std::sqrt(best.raw_stress / best.disparity_norm) : 0.0;
  model.kruskal_stress = best.kruskal_stress;
  model.metric = options.metric;
  model.map_dissimilarities = std::move(best.map_delta);
  model.map_disparities = std::move(best.map_dhat);
  return model;
}

NLDR_PRECOMPILED(SmacofModel<float> Smacof::solve<float>(Matrix<double>, Matrix<double>, const Stopwatch&) const)
NLDR_PRECOMPILED(SmacofModel<double> Smacof::solve<double>(Matrix<double>, Matrix<double>, const Stopwatch&) const)

static_assert(PointEmbedder<Smacof, float> && PointEmbedder<Smacof, double>);
static_assert(DistanceEmbedder<Smacof, float> && DistanceEmbedder<Smacof, double>);

}  // namespace nldr
