// Sammon's mapping (Sammon 1969): minimizes Sammon's stress
//   E = (1 / sum_{i<j} delta_ij) sum_{i<j} (delta_ij - d_ij)^2 / delta_ij,
// which weighs the errors of small dissimilarities up, so local structure is kept first. Sammon's own
// pseudo-Newton step with a "magic factor" can increase E; here E is minimized by stress majorization
// with weights w_ij = 1 / delta_ij (SMACOF, de Leeuw 1977; Borg & Groenen 2005, sec. 11.3), which never
// increases it (embed/routines/majorization.hpp, embed/majorization_model.hpp; docs/methods/sammon.md).
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

#include <cstdint>
#include <utility>

namespace nldr {

/// Options of Sammon.
struct SammonOptions {
  index_t dim = 2;  ///< target dimension d, 1 <= d < N
  /// Start of run 0: classical MDS, as MASS::sammon's default cmdscale; further runs are random.
  MajorizationInit init = MajorizationInit::classical_mds;
  int n_init = 1;            ///< runs (restarts), >= 1; the one of least stress is kept
  std::uint64_t seed = 0;    ///< seed of the random starts
  int max_iterations = 500;  ///< majorization steps per run, >= 1
  /// Stop when one step lowers Sammon's stress by less than this fraction of it, >= 0
  /// (MASS::sammon's tol = 1e-4 is the same test on its own steps).
  double tolerance = 1e-5;
  std::uint64_t memory_limit = 0;  ///< bytes for the N x N matrices (0: the memory available now)
  ProgressCallback progress{};       ///< optional progress and cancel hook (majorization_options.hpp)
  IterationCallback on_iteration{};  ///< optional observer of each step (majorization_options.hpp)

  /// The parameters a caller names (core/described.hpp; docs/registry.md).
  template <class Visitor>
  void describe(Visitor& v) {
    v.number("dim", dim, {1, 1e9}, "target dimension d");
    describe_majorization_runs(v, n_init, init, seed, max_iterations, tolerance, "majorization steps per run");
  }
};

/// A fitted Sammon mapping. stress_history holds Sammon's stress of the kept run.
template <Real T>
struct SammonModel : MajorizationModel<T, SammonModel<T>> {
  double stress = 0;  ///< Sammon's stress E of the configuration (as MASS::sammon's `stress`), in [0, 1]

  /// Throws invalid_argument("model") unless the fields fit together (e.g. after a model file).
  void check_state() const { this->check_majorization_state(); }

  template <class Visitor>
  void visit(Visitor& v) {
    this->visit_majorization(v);
    v("stress", stress, FieldRole::result);
  }

 private:
  friend MajorizationModel<T, SammonModel<T>>;
  /// transform() places each new point where its own Sammon stress sum_i (delta_i - ||y - y_i||)^2 / delta_i
  /// to the N training points is least, by the single-point majorization update.
  Matrix<T> place(const Matrix<double>& targets) const;
};

template <Real T>
Matrix<T> SammonModel<T>::place(const Matrix<double>& targets) const {
  return detail::place_points(this->coordinates.template cast<double>(), targets, true, this->transform_iterations,
                              this->transform_tolerance)
      .template cast<T>();
}

NLDR_PRECOMPILED(Matrix<float> SammonModel<float>::place(const Matrix<double>&) const)
NLDR_PRECOMPILED(Matrix<double> SammonModel<double>::place(const Matrix<double>&) const)

/// Sammon's mapping of points (Euclidean distances) or of dissimilarities.
///
/// Cost: one O(N^3 / 3) Cholesky factorization of the weighted V, then O(N^2 d) per step (the stress
/// pass parallel over row blocks, two triangular solves per coordinate).
/// Memory: 4 dense N x N doubles at the peak (checked before allocating).
///
/// \code
/// auto map = nldr::Sammon{{.dim = 2}}.fit(X);
/// map.stress;  map.status;  map.iterations;
/// auto placed = map.transform(X_new);
/// \endcode
struct Sammon {
  SammonOptions options;

  /// X: N x D points (finite, N >= 3, no two identical: Sammon's stress divides by every distance).
  /// \throws nldr::invalid_argument ("X", "dim", "n_init", ...), nldr::memory_limit_exceeded.
  template <class Derived>
  SammonModel<typename Derived::Scalar> fit(const Eigen::MatrixBase<Derived>& X) const {
    using T = typename Derived::Scalar;
    static_assert(Real<T>, "nldr::Sammon: the points must be float or double");
    detail::validate_majorization_points(X);
    check_memory_for(X.rows());
    Stopwatch clock;
    SammonModel<T> model = solve<T>(detail::euclidean_dissimilarities(X), "X", clock);
    model.training_points = X;
    return model;
  }

  /// distances: N x N dissimilarities (finite, symmetric, zero diagonal, > 0 off the diagonal), N >= 3.
  template <class Derived>
  SammonModel<typename Derived::Scalar> fit(const Precomputed<Derived>& input) const {
    const auto& distances = input.matrix;
    using T = typename Derived::Scalar;
    static_assert(Real<T>, "nldr::Sammon: the distances must be float or double");
    check_memory_for(distances.rows());
    Stopwatch clock;
    SammonModel<T> model = solve<T>(detail::validated_dissimilarities(distances, "distances", 3), "distances", clock);
    model.from_distances = true;
    return model;
  }

 private:
  void check_memory_for(Eigen::Index n) const {
    // delta, weights, the Cholesky factor of V (factorized in place) and the classical start's B
    detail::check_majorization_memory(n, options.dim, 4, "Sammon", options.memory_limit);
  }

  /// Sammon's stress is SMACOF's raw stress with the weights w_ij = 1 / delta_ij, divided by sum_{i<j} delta_ij.
  template <Real T>
  SammonModel<T> solve(Matrix<double> delta, const char* name, const Stopwatch& clock) const;
};

template <Real T>
SammonModel<T> Sammon::solve(Matrix<double> delta, const char* name, const Stopwatch& clock) const {
  const Eigen::Index n = delta.rows();
  const detail::MajorizationSettings settings = detail::majorization_settings(options, n);
  detail::MajorizationProblem problem{std::move(delta), Matrix<double>(n, n), false, TieApproach::primary};
  double total = 0;
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < n; ++j) {
      const double d = problem.delta(i, j);
      if (i != j && !(d > 0))
        throw_invalid(name, "points ", i, " and ", j, " of ", name, " are at dissimilarity 0: Sammon's stress "
                      "divides by it; remove duplicate points, or use SMACOF, which allows them (nldr::Smacof, method smacof)");
      problem.weights(i, j) = i == j ? 0.0 : 1.0 / d;
      if (j > i) total += d;
    }
  StageTimes times;
  times.add("dissimilarities", clock.seconds());
  SammonModel<T> model;
  const detail::MajorizationResult best =
      detail::fit_majorization(model, problem, settings, std::move(times), "Sammon", "smacof-sammon");
  model.stress = best.raw_stress / total;
  for (double& s : model.stress_history) s /= total;
  return model;
}

NLDR_PRECOMPILED(SammonModel<float> Sammon::solve<float>(Matrix<double>, const char*, const Stopwatch&) const)
NLDR_PRECOMPILED(SammonModel<double> Sammon::solve<double>(Matrix<double>, const char*, const Stopwatch&) const)

static_assert(PointEmbedder<Sammon, float> && PointEmbedder<Sammon, double>);
static_assert(DistanceEmbedder<Sammon, float> && DistanceEmbedder<Sammon, double>);

}  // namespace nldr
