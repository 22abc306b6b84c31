// Sammon's mapping (Sammon 1969): minimizes Sammon's stress
//   E = (1 / sum_{i<j} delta_ij) sum_{i<j} (delta_ij - d_ij)^2 / delta_ij,
// which weighs the errors of small dissimilarities up, so local structure is kept first. Sammon's own
// pseudo-Newton step with a "magic factor" can increase E; here E is minimized by stress majorization
// with weights w_ij = 1 / delta_ij (SMACOF, de Leeuw 1977; Borg & Groenen 2005, sec. 11.3), which never
// increases it (embed/routines/majorization.hpp; docs/methods/sammon.md).
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/progress.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>
#include <nldr/core/precomputed.hpp>
#include <nldr/embed/embedder.hpp>
#include <nldr/embed/embedding.hpp>
#include <nldr/embed/model_fields.hpp>
#include <nldr/embed/routines/majorization.hpp>

#include <Eigen/Core>

#include <cstdint>
#include <type_traits>
#include <vector>

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
  std::uint64_t memory_limit = 0;  ///< bytes for the N x N matrices (0: the memory available now)  /// Optional progress and cancel hook (core/progress.hpp): each Guttman transform reports the
  /// fraction of the runs' iteration budget used (a converged run jumps to its end), 1 at the end
  /// (docs/tool.md, "Progress and logging").
  ProgressCallback progress{};
};

/// A fitted Sammon mapping.
template <Real T>
struct SammonModel : Embedding<T> {
  double stress = 0;  ///< Sammon's stress E of the configuration (as MASS::sammon's `stress`), in [0, 1]
  int iterations = 0;  ///< majorization steps of the kept run
  MajorizationStatus status = MajorizationStatus::iteration_limit;
  int best_run = 0;                    ///< the kept run (0-based)
  std::vector<double> stress_history;  ///< Sammon's stress of the kept run, before and after each step
  Matrix<T> training_points;           ///< N x D copy of the points (empty when fit on distances)
  bool from_distances = false;         ///< fit on dissimilarities: transform takes distances (P x N)
  int transform_iterations = 500;
  double transform_tolerance = 1e-5;

  /// Places new points (P x D, same D) with the configuration fixed: each minimizes its own Sammon
  /// stress sum_i (delta_i - ||y - y_i||)^2 / delta_i to the N training points by the single-point
  /// majorization update, from the coordinates of its nearest training point (a point at distance 0
  /// from a training point is placed on it). O(P N (D + d * iterations)).
  /// A model fit on distances takes the P x N distances instead (transform_distances).
  /// \throws nldr::invalid_argument naming "X_new" or "distances".
  template <class Derived>
  Matrix<T> transform(const Eigen::MatrixBase<Derived>& X_new) const {
    static_assert(std::is_same_v<typename Derived::Scalar, T>, "SammonModel::transform: same scalar as fit");
    if (from_distances) return transform_distances(X_new);
    if (X_new.rows() == 0) return Matrix<T>(0, this->coordinates.cols());
    return place(detail::distances_to_training(training_points, X_new));
  }

  /// The same from dissimilarities: `distances` P x N, row p = new point p to every training point.
  template <class Derived>
  Matrix<T> transform_distances(const Eigen::MatrixBase<Derived>& distances) const {
    if (distances.rows() == 0) return Matrix<T>(0, this->coordinates.cols());
    return place(detail::validated_new_dissimilarities(distances, this->coordinates.rows()));
  }

 private:
  Matrix<T> place(const Matrix<double>& targets) const {
    return detail::place_points(this->coordinates.template cast<double>(), targets, true, transform_iterations,
                                transform_tolerance)
        .template cast<T>();
  }

 public:
  /// Throws invalid_argument("model") unless the fields fit together (e.g. after a model file).
  void check_state() const {
    check_embedding_state(*this);
    require_state(from_distances ? training_points.size() == 0
                                 : training_points.rows() == this->coordinates.rows() && training_points.cols() >= 1,
                  "training points (or none, fit on distances)");
    require_state(transform_iterations >= 1 && transform_tolerance >= 0, "transform settings");
    require_state(status == MajorizationStatus::converged || status == MajorizationStatus::iteration_limit, "status");
  }

  template <class Visitor>
  void visit(Visitor& v) {
    visit_embedding(v, *this);
    v("stress", stress, FieldRole::result);
    v("iterations", iterations, FieldRole::result);
    v("status", status, FieldRole::state);
    v("best_run", best_run, FieldRole::result);
    v("stress_history", stress_history, FieldRole::result);
    v("from_distances", from_distances, FieldRole::state);
    v("training_points", training_points, FieldRole::state);
    v("transform_iterations", transform_iterations, FieldRole::state);
    v("transform_tolerance", transform_tolerance, FieldRole::state);
  }
};

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
    validate_points(X, "X", 3);
    validate_distance_range<double>(X, X.rows() * X.rows());
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

  template <Real T>
  SammonModel<T> solve(Matrix<double> delta, const char* name, Stopwatch& clock) const {
    const Eigen::Index n = delta.rows();
    const detail::MajorizationSettings settings{options.dim,  options.init,           options.n_init,
                                                options.seed, options.max_iterations, options.tolerance,
                                                options.progress, options.memory_limit};
    detail::validate_settings(settings, n);
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
    clock.restart();
    detail::MajorizationResult best = detail::majorize(problem, settings, "Sammon");
    times.add("majorization", clock.seconds());
    SammonModel<T> model;
    model.coordinates = best.X.cast<T>();
    model.times = std::move(times);
    model.diagnostics.solver = "smacof-sammon";
    model.diagnostics.iterations = best.iterations;
    model.diagnostics.status =
        best.status == MajorizationStatus::converged ? SolverStatus::success : SolverStatus::not_converging;
    model.stress = best.raw_stress / total;
    model.iterations = best.iterations;
    model.status = best.status;
    model.best_run = best.best_run;
    model.stress_history = std::move(best.stress_history);
    for (double& s : model.stress_history) s /= total;
    model.transform_iterations = options.max_iterations;
    model.transform_tolerance = options.tolerance;
    return model;
  }
};

static_assert(PointEmbedder<Sammon, float> && PointEmbedder<Sammon, double>);
static_assert(DistanceEmbedder<Sammon, float> && DistanceEmbedder<Sammon, double>);

}  // namespace nldr
