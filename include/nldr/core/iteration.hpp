// Observing, recording and stopping an iterative optimizer (t-SNE, UMAP, stress majorization)
// between its iterations (docs/iterative.md).
//
// An optimizer owns an IterationObserver: after each iteration it hands the observer the current
// coordinates and, when it computed one, the objective. The observer keeps the objective trace in
// the model's OptimizerDiagnostics, reports the fraction of the schedule done to the progress hook,
// and calls the user's IterationCallback, which may look at the embedding and end the fit early.
// Without a callback and a progress hook an iteration costs one branch.
#pragma once

#include <nldr/core/progress.hpp>
#include <nldr/core/types.hpp>

#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace nldr {

/// How an iterative fit ended.
enum class OptimizerStatus {
  completed,  ///< ran its whole schedule (iterations, epochs)
  converged,  ///< its stopping rule held before the end of the schedule
  stopped,    ///< the IterationCallback asked to stop; the model holds the coordinates of that moment
};

/// Name of a status as the tool's JSON and docs spell it.
inline const char* status_name(OptimizerStatus status) {
  switch (status) {
    case OptimizerStatus::completed: return "completed";
    case OptimizerStatus::converged: return "converged";
    case OptimizerStatus::stopped: return "stopped";
  }
  return "unknown";
}

/// What an iterative fit took, beside (not instead of) Embedding::diagnostics of the eigen methods.
struct OptimizerDiagnostics {
  int iterations = 0;  ///< iterations (or epochs) run
  OptimizerStatus status = OptimizerStatus::completed;
  std::vector<double> objective;             ///< the objective where it was computed, in order
  std::vector<index_t> objective_iterations;  ///< the iteration after which each value was taken

  /// The last objective computed; NaN when none was.
  double final_objective() const { return objective.empty() ? std::numeric_limits<double>::quiet_NaN() : objective.back(); }
};

/// What an IterationCallback is told after an iteration. The coordinates are the optimizer's own
/// (float or double); coordinates() copies them to double, so a callback that does not look at
/// them costs nothing.
class IterationReport {
 public:
  std::string_view phase;             ///< the schedule's part, e.g. "early exaggeration", "optimization"
  int iteration = 0;                  ///< 1-based, counted over the whole fit
  int total_iterations = 0;           ///< the schedule's length
  std::optional<double> objective;    ///< the objective after this iteration, when it was computed

  template <Real T>
  IterationReport(std::string_view phase_, int iteration_, int total, std::optional<double> objective_,
                  const Matrix<T>& coordinates)
      : phase(phase_), iteration(iteration_), total_iterations(total), objective(objective_) {
    if constexpr (std::is_same_v<T, float>)
      float_ = &coordinates;
    else
      double_ = &coordinates;
  }

  /// The current N x d embedding (a copy in double).
  Matrix<double> coordinates() const { return float_ ? float_->template cast<double>().eval() : *double_; }

 private:
  const Matrix<float>* float_ = nullptr;
  const Matrix<double>* double_ = nullptr;
};

/// Called after every iteration of an iterative fit, from the calling thread; returns true to go on,
/// false to stop the fit there (OptimizerStatus::stopped: the model keeps the current coordinates,
/// unlike a ProgressCallback's cancel, which throws). Exceptions it throws leave the fit.
///
/// \code
/// options.on_iteration = [](const nldr::IterationReport& r) {
///   if (r.objective) std::printf("%d %s %g\n", r.iteration, std::string(r.phase).c_str(), *r.objective);
///   return true;
/// };
/// \endcode
using IterationCallback = std::function<bool(const IterationReport&)>;

/// An optimizer's side of the above: records the objective trace, reports progress
/// (iteration / total to the progress hook) and calls the callback.
class IterationObserver {
 public:
  IterationObserver(OptimizerDiagnostics& diagnostics, IterationCallback callback, ProgressCallback progress,
                    int total_iterations, std::string what)
      : diagnostics_(diagnostics),
        callback_(std::move(callback)),
        progress_(std::move(progress)),
        total_(total_iterations),
        what_(std::move(what)) {}

  /// After iteration `iteration` (1-based) of `phase`, with the objective if it was computed.
  /// Returns false when the callback asks to stop (and sets the status to stopped).
  /// \throws nldr::cancelled when the progress hook cancels.
  template <Real T>
  bool after(int iteration, std::string_view phase, const Matrix<T>& coordinates,
             std::optional<double> objective = std::nullopt) {
    diagnostics_.iterations = iteration;
    if (objective) {
      diagnostics_.objective.push_back(*objective);
      diagnostics_.objective_iterations.push_back(index_t(iteration));
    }
    if (progress_) report_progress(progress_, double(iteration) / double(total_), what_);
    if (!callback_ || callback_(IterationReport(phase, iteration, total_, objective, coordinates))) return true;
    diagnostics_.status = OptimizerStatus::stopped;
    return false;
  }

  /// Whether anyone listens (an optimizer may skip work done only for the callback).
  bool observed() const { return bool(callback_); }

 private:
  OptimizerDiagnostics& diagnostics_;
  IterationCallback callback_;
  ProgressCallback progress_;
  int total_;
  std::string what_;
};

}  // namespace nldr
