// What the stress-majorization models share (nldr::SmacofModel, nldr::SammonModel): the kept run of the
// optimizer (embed/routines/majorization.hpp) and transform(), which places new points, or their
// distances to the training points, against the fixed configuration (embed/routines/stress_placement.hpp).
// Sammon's mapping is SMACOF with the weights 1 / delta_ij (docs/methods/sammon.md): the models differ
// only in their stress normalizations and in how a new point's targets and weights are formed.
#pragma once

#include <nldr/core/resources.hpp>
#include <nldr/core/types.hpp>
#include <nldr/embed/embedding.hpp>
#include <nldr/embed/majorization_options.hpp>
#include <nldr/embed/model_fields.hpp>
#include <nldr/embed/routines/majorization.hpp>
#include <nldr/embed/routines/stress_placement.hpp>

#include <Eigen/Core>

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace nldr {

/// The fields and transform() of a stress-majorization model. `Model` (the derived model) places new
/// points from their P x N dissimilarities to the training points: Matrix<T> place(Matrix<double>) const.
template <Real T, class Model>
struct MajorizationModel : Embedding<T> {
  int iterations = 0;  ///< Guttman transforms of the kept run
  MajorizationStatus status = MajorizationStatus::iteration_limit;
  int best_run = 0;                    ///< the kept run (0-based; run 0 starts from classical MDS by default)
  std::vector<double> stress_history;  ///< the model's stress of the kept run, before and after each transform
  Matrix<T> training_points;           ///< N x D copy of the points (empty when fit on distances)
  bool from_distances = false;         ///< fit on dissimilarities: transform takes distances (P x N)
  int transform_iterations = 300;      ///< single-point updates per new point (the fit's max_iterations)
  double transform_tolerance = 1e-4;   ///< and their stopping rule (the fit's tolerance)

  /// Places new points (P x D, same D) with the configuration fixed, each from the coordinates of its
  /// nearest training point (a point at distance 0 from a training point is placed on it); see the
  /// model's own place(). A model fit on distances takes the P x N distances instead (transform_distances).
  /// O(P N (D + d * iterations)). \throws nldr::invalid_argument naming "X_new" or "distances".
  template <class Derived>
  Matrix<T> transform(const Eigen::MatrixBase<Derived>& X_new) const {
    static_assert(std::is_same_v<typename Derived::Scalar, T>, "transform: the same scalar as the fit");
    if (from_distances) return transform_distances(X_new);
    if (X_new.rows() == 0) return Matrix<T>(0, this->coordinates.cols());
    return model().place(detail::distances_to_training(training_points, X_new));
  }

  /// The same from dissimilarities: `distances` P x N, row p = new point p to every training point.
  template <class Derived>
  Matrix<T> transform_distances(const Eigen::MatrixBase<Derived>& distances) const {
    if (distances.rows() == 0) return Matrix<T>(0, this->coordinates.cols());
    return model().place(detail::validated_new_dissimilarities(distances, this->coordinates.rows()));
  }

 protected:
  /// The checks of the shared fields (the model's check_state adds its own).
  void check_majorization_state() const {
    check_embedding_state(*this);
    require_state(from_distances ? training_points.size() == 0
                                 : training_points.rows() == this->coordinates.rows() && training_points.cols() >= 1,
                  "training points (or none, fit on distances)");
    require_state(transform_iterations >= 1 && transform_tolerance >= 0, "transform settings");
    require_state(status == MajorizationStatus::converged || status == MajorizationStatus::iteration_limit ||
                      status == MajorizationStatus::stopped,
                  "status");
  }

  /// The fields SMACOF's and Sammon's models share (each model's visit adds its own).
  template <class Visitor>
  void visit_majorization(Visitor& v) {
    v("iterations", iterations, FieldRole::result);
    v("status", status, FieldRole::state);
    v("best_run", best_run, FieldRole::result);
    v("stress_history", stress_history, FieldRole::result);
    v("from_distances", from_distances, FieldRole::state);
    v("training_points", training_points, FieldRole::state);
    v("transform_iterations", transform_iterations, FieldRole::state);
    v("transform_tolerance", transform_tolerance, FieldRole::state);
  }

 private:
  const Model& model() const { return static_cast<const Model&>(*this); }
};

namespace detail {

/// The optimizer's settings from an embedder's options (the fields SmacofOptions and SammonOptions
/// share), validated for N points.
template <class Options>
MajorizationSettings majorization_settings(const Options& options, Eigen::Index n) {
  const MajorizationSettings settings{options.dim,  options.init,           options.n_init,
                                      options.seed, options.max_iterations, options.tolerance,
                                      options.progress, options.memory_limit, options.on_iteration};
  validate_settings(settings, n);
  return settings;
}

/// Runs the optimizer on `problem` and fills the model's shared fields from its best run (stage
/// "majorization" added to `times`, transform's settings from the fit's); returns that run for the
/// model's own stress normalizations.
template <Real T, class Model>
MajorizationResult fit_majorization(MajorizationModel<T, Model>& model, const MajorizationProblem& problem,
                                    const MajorizationSettings& settings, StageTimes times, const std::string& method,
                                    const char* solver) {
  Stopwatch clock;
  MajorizationResult best = majorize(problem, settings, method);
  times.add("majorization", clock.seconds());
  model.coordinates = best.X.cast<T>();
  model.times = std::move(times);
  model.diagnostics.solver = solver;
  model.diagnostics.iterations = best.iterations;
  model.diagnostics.status =
      best.status == MajorizationStatus::converged ? SolverStatus::success : SolverStatus::not_converging;
  model.iterations = best.iterations;
  model.status = best.status;
  model.best_run = best.best_run;
  model.stress_history = std::move(best.stress_history);
  model.transform_iterations = settings.max_iterations;
  model.transform_tolerance = settings.tolerance;
  return best;
}

}  // namespace detail
}  // namespace nldr
