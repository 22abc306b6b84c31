// Stress majorization (SMACOF: de Leeuw 1977; Borg & Groenen 2005, ch. 8-9), the optimizer shared by
// nldr::Smacof (metric and non-metric) and nldr::Sammon (docs/methods/smacof.md, sammon.md).
//
// Raw stress sigma(X) = sum_{i<j} w_ij (dhat_ij - d_ij(X))^2, d_ij = ||x_i - x_j||. Each iteration is a
// Guttman transform X+ = V^+ B(X) X with V = sum_{i<j} w_ij (e_i - e_j)(e_i - e_j)^T and
// B(X)_ij = -w_ij dhat_ij / d_ij (i != j; 0 where d_ij = 0), B_ii = -sum_{j != i} B_ij. It minimizes a
// majorizing function of sigma that touches it at X, so sigma never increases (de Leeuw 1977;
// Borg & Groenen 2005, sec. 8.4). With every weight 1, V^+ B X = B X / N; otherwise
// V^+ B X = (V + 11^T / N)^-1 B X (B X is orthogonal to 1), solved with a Cholesky factor formed once.
// Non-metric: before each transform the disparities dhat become the weighted monotone (isotonic)
// regression of the distances on the order of the dissimilarities (Kruskal 1964, pool-adjacent-
// violators), rescaled to sum w dhat^2 = sum w delta^2. That is the least-squares dhat under this
// norm (de Leeuw 1977), so the alternation stays monotone too.
// Everything is double: the N x N matrices would be the same size in float plus rounding.
// The pieces: the problem (routines/majorization_problem.hpp), the stress pass (routines/stress_kernel.hpp),
// the non-metric step (routines/monotone_regression.hpp over routines/isotonic_regression.hpp); this header
// holds the starts and the Guttman transforms. New points: routines/stress_placement.hpp.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/iteration.hpp>
#include <nldr/core/progress.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/random.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>
#include <nldr/embed/majorization_options.hpp>
#include <nldr/embed/routines/majorization_problem.hpp>
#include <nldr/embed/routines/mds.hpp>
#include <nldr/embed/routines/monotone_regression.hpp>
#include <nldr/embed/routines/stress_kernel.hpp>

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace nldr {
namespace detail {

/// Settings of one optimizer call (the fields the embedders' options share).
struct MajorizationSettings {
  index_t dim = 2;
  MajorizationInit init = MajorizationInit::classical_mds;
  int n_init = 1;
  std::uint64_t seed = 0;
  int max_iterations = 300;
  double tolerance = 1e-4;
  /// Hears (run + t / max_iterations) / n_init after transform t of each run, (run + 1) / n_init
  /// when a run stops: the fraction of the iteration budget used, which a converging run skips ahead
  /// (with runs in parallel, `run` counts the runs finished so far).
  ProgressCallback progress{};
  /// Bytes the fit may use (0: the memory available now); runs go in parallel only if their extra
  /// workspaces (non-metric: N^2 x 28 bytes each) fit in half of it.
  std::uint64_t memory_limit = 0;
  /// Told each transform of each run (phase "run r", the raw stress); false stops the fit.
  IterationCallback on_iteration{};
};

/// The best run: configuration, disparities and the sums behind every stress normalization.
struct MajorizationResult {
  Matrix<double> X;                  ///< N x d
  double raw_stress = 0;             ///< sum_{i<j} w (dhat - d)^2
  double disparity_norm = 0;         ///< sum_{i<j} w dhat^2
  double kruskal_stress = 0;         ///< sqrt(sum w (d - f)^2 / sum w d^2), f the unscaled fit (see below)
  int iterations = 0;                ///< Guttman transforms of the best run
  MajorizationStatus status = MajorizationStatus::iteration_limit;
  int best_run = 0;                  ///< 0-based run that gave X
  std::vector<double> stress_history;  ///< raw stress before the first and after every transform
  /// Non-metric only: the fitted monotone map, knots (dissimilarity, disparity) in increasing order.
  std::vector<double> map_delta, map_dhat;
};

inline void validate_settings(const MajorizationSettings& s, Eigen::Index n) {
  validate_dimension(s.dim, n, "N");
  if (s.n_init < 1) throw_invalid("n_init", "n_init = ", s.n_init, " must be >= 1 (the number of runs)");
  if (s.max_iterations < 1) throw_invalid("max_iterations", "max_iterations = ", s.max_iterations, " must be >= 1");
  if (!(std::isfinite(s.tolerance) && s.tolerance >= 0))
    throw_invalid("tolerance", "tolerance = ", s.tolerance, " must be finite and >= 0 (relative stress decrease)");
  if (s.init != MajorizationInit::classical_mds && s.init != MajorizationInit::random)
    throw_invalid("init", "init = ", int(s.init), " is not a MajorizationInit");
}

/// Refuses the dense matrices of a fit of N points in d dimensions (`matrices` N x N doubles and the
/// stress pass's workspace) beyond the memory limit.
inline void check_majorization_memory(Eigen::Index n, Eigen::Index dim, int matrices, const std::string& method,
                                      std::uint64_t limit) {
  check_memory(std::uint64_t(matrices) * std::uint64_t(n) * std::uint64_t(n) * sizeof(double) +
                   StressKernel::workspace_bytes(n, dim),
               concat(method, ": ", matrices, " dense ", n, " x ", n, " matrices"),
               "subsample the points, fit on the subsample and place the rest with transform(); or use a method "
               "of sparse memory (nldr::LandmarkIsomap, nldr::LaplacianEigenmaps, nldr::DiffusionMaps)",
               limit);
}

/// Sums over the present pairs i < j (positive weight) that both starts need, taken once per fit.
struct PresentDissimilarities {
  double count = 0, sum = 0, squares = 0;

  explicit PresentDissimilarities(const MajorizationProblem& problem) {
    const Eigen::Index n = problem.delta.rows();
    for (Eigen::Index i = 0; i < n; ++i)
      for (Eigen::Index j = i + 1; j < n; ++j)
        if (pair_present(problem, index_t(i), index_t(j))) {
          sum += problem.delta(i, j);
          squares += problem.delta(i, j) * problem.delta(i, j);
          ++count;
        }
  }
};

/// Classical (Torgerson) MDS of the dissimilarities as a start (entries of weight 0 replaced by the
/// mean present dissimilarity). A coordinate whose eigenvalue is <= 0 would stay identically 0 under
/// every Guttman transform, so it gets small seeded noise instead.
/// (The entry points from here on are templates only so that a unit instantiates the solvers where it calls
/// them: docs/building.md, "Compile time".)
Matrix<double> classical_start(const std::same_as<MajorizationProblem> auto& problem,
                               const PresentDissimilarities& present, index_t dim, std::uint64_t seed,
                               const std::string& method) {
  const Eigen::Index n = problem.delta.rows();
  const double fill = present.count > 0 ? present.sum / present.count : 0.0;
  Matrix<double> B(n, n);
  parallel_for(0, n, [&](std::int64_t i) {
    for (Eigen::Index j = 0; j < n; ++j) {
      const bool missing = i != j && !pair_present(problem, index_t(i), index_t(j));
      const double d = missing ? fill : problem.delta(i, j);
      B(i, j) = d * d;
    }
  });
  routines::double_center_squared(B);
  StageTimes stages;
  const routines::Scaling scaling = routines::scale_centered(B, dim, 0, TopEigenOptions{}, method, stages);
  Matrix<double> X = scaling.coordinates;
  const Eigen::VectorXd& values = scaling.values;
  Random random(seed);
  const double noise = 1e-6 * std::sqrt(std::max(values[0], 0.0) / double(n)) + 1e-300;
  for (Eigen::Index c = 0; c < dim; ++c)
    if (!(values[c] > 0))
      for (Eigen::Index i = 0; i < n; ++i) X(i, c) = noise * random.normal();
  return X;
}

/// A seeded Gaussian configuration of n points whose root-mean-square distance matches the
/// dissimilarities'.
inline Matrix<double> random_start(const PresentDissimilarities& present, Eigen::Index n, index_t dim,
                                   std::uint64_t seed) {
  const double scale = std::sqrt(present.squares / present.count / (2.0 * double(dim)));  // E||x - y||^2 = 2 d s^2
  Random random(seed);
  Matrix<double> X(n, dim);
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index c = 0; c < dim; ++c) X(i, c) = scale * random.normal();
  return X;
}

/// Solves (V + 11^T / N) Y = B X for the weights (the Guttman transform's V^+ B X, as B X is orthogonal to
/// 1) with the Cholesky factor of V + 11^T / N, factorized once in place: O(N^3 / 3) at the start (forming
/// the inverse would cost 7x that: two more triangular solves with N right-hand sides) and two triangular
/// solves, O(N^2 d), per transform. Holds one N x N matrix; neither copyable nor movable (the factor
/// refers to it).
class GuttmanSolve {
 public:
  /// (Templates only so that a unit instantiates the factorization where it uses it: docs/building.md,
  /// "Compile time".)
  explicit GuttmanSolve(const std::same_as<Matrix<double>> auto& weights)
      : factor_(shifted_laplacian(weights)), llt_(factor_) {
    if (llt_.info() != Eigen::Success)
      throw convergence_error("stress majorization: V + 11^T/N is not positive definite (weights spanning "
                              "orders of magnitude?): rescale the weights");
  }
  GuttmanSolve(const GuttmanSolve&) = delete;
  GuttmanSolve& operator=(const GuttmanSolve&) = delete;

  Matrix<double> operator()(const std::same_as<Matrix<double>> auto& BX) const {
    // One coordinate at a time: Eigen's vector solves (blocked matrix-vector products) took half the
    // time of one solve with d right-hand sides (N = 2000, d = 2: 3.6 against 6.7 ms).
    Matrix<double> Y(BX.rows(), BX.cols());
    Eigen::VectorXd y;
    for (Eigen::Index c = 0; c < BX.cols(); ++c) {
      y = BX.col(c);
      llt_.solveInPlace(y);
      Y.col(c) = y;
    }
    return Y;
  }

 private:
  static Eigen::MatrixXd shifted_laplacian(const Matrix<double>& weights) {
    Eigen::MatrixXd V = -weights;
    V.diagonal() = weights.rowwise().sum();
    V.array() += 1.0 / double(weights.rows());
    return V;
  }

  Eigen::MatrixXd factor_;
  Eigen::LLT<Eigen::Ref<Eigen::MatrixXd>> llt_;
};

/// The optimizer: n_init runs of Guttman transforms, the one of least raw stress kept (the first such
/// run on a tie). A run stops when (sigma_old - sigma_new) / sigma_old < tolerance, when sigma reaches 0,
/// or after max_iterations transforms.
/// With several runs and threads the runs themselves run in parallel, each on one thread (its loops
/// nested, so serial): one parallel region for the whole fit instead of two or more per transform,
/// whose barriers cost most of the time when other processes share the cores. Otherwise runs follow
/// each other with their loops parallel. Every run computes the same numbers either way. Progress comes
/// from the calling thread only; an error or a cancellation in one run stops the others and is rethrown.
MajorizationResult majorize(const std::same_as<MajorizationProblem> auto& problem, const MajorizationSettings& settings,
                            const std::string& method) {
  const Eigen::Index n = problem.delta.rows();
  const bool unit = problem.weights.size() == 0;
  std::optional<GuttmanSolve> solve;
  if (!unit) solve.emplace(problem.weights);
  std::optional<SortedPairs> sorted;  // the pairs in dissimilarity order, sorted once for every run
  if (problem.nonmetric) sorted.emplace(problem);
  const PresentDissimilarities present(problem);

  struct Run {
    MajorizationResult result;
    double scale = 1;
  };
  // on_transform(t) after transform t; returns false to stop the run (another one failed).
  auto one_run = [&](int run, const std::function<bool(int)>& on_transform) {
    std::optional<MonotoneRegression> regression;
    if (problem.nonmetric) regression.emplace(*sorted, problem.ties);
    StressKernel stress_pass;
    Run out;
    auto evaluate = [&](const Matrix<double>& X) {
      if (!problem.nonmetric) return stress_pass(problem, problem.delta, X);
      out.scale = regression->fit(X);
      return regression->stress_pass(X);
    };
    const std::uint64_t run_seed = settings.seed ^ (0x9e3779b97f4a7c15ULL * std::uint64_t(run + 1));
    Matrix<double> X = run == 0 && settings.init == MajorizationInit::classical_mds
                           ? classical_start(problem, present, settings.dim, run_seed, method)
                           : random_start(present, n, settings.dim, run_seed);
    StressPass pass = evaluate(X);
    MajorizationResult& r = out.result;
    r.stress_history = {pass.raw};
    while (r.iterations < settings.max_iterations) {
      if (pass.raw == 0) {
        r.status = MajorizationStatus::converged;
        break;
      }
      X = unit ? Matrix<double>(pass.BX / double(n)) : (*solve)(pass.BX);
      ++r.iterations;
      const double previous = pass.raw;
      pass = evaluate(X);
      r.stress_history.push_back(pass.raw);
      if (!std::isfinite(pass.raw))
        throw convergence_error(concat(method, ": the stress became ", pass.raw, " at iteration ", r.iterations,
                                       " (dissimilarities or weights of extreme range?): rescale the input"));
      if (settings.on_iteration) {
        const std::string phase = concat("run ", run);
        if (!settings.on_iteration(IterationReport(phase, r.iterations, settings.max_iterations, pass.raw, X))) {
          r.status = MajorizationStatus::stopped;
          break;
        }
      }
      if ((previous - pass.raw) < settings.tolerance * previous) {
        r.status = MajorizationStatus::converged;
        break;
      }
      if (!on_transform(r.iterations)) break;
    }
    r.X = std::move(X);
    r.raw_stress = pass.raw;
    r.disparity_norm = pass.disparity_norm;
    r.best_run = run;
    // Kruskal's stress-1 against the unscaled fit f = dhat / scale (metric: f = delta).
    const double s = problem.nonmetric && out.scale > 0 ? out.scale : 1.0;
    const double f_norm = pass.disparity_norm / (s * s), cross = (pass.distance_norm + pass.disparity_norm - pass.raw) / 2 / s;
    const double residual = std::max(0.0, pass.distance_norm - 2 * cross + f_norm);
    r.kruskal_stress = pass.distance_norm > 0 ? std::sqrt(residual / pass.distance_norm) : 0.0;
    if (problem.nonmetric) regression->knots(r.map_delta, r.map_dhat);
    return out;
  };

  std::vector<Run> runs(static_cast<std::size_t>(settings.n_init));
  const auto fraction = [&](double runs_done) { return runs_done / settings.n_init; };
  const auto concurrent = std::uint64_t(std::min(settings.n_init, max_threads()));
  const std::uint64_t pairs = std::uint64_t(n) * std::uint64_t(n - 1) / 2;
  const std::uint64_t run_bytes = problem.nonmetric ? MonotoneRegression::pair_bytes * pairs +
                                                          (pairs / MonotoneRegression::chunk_pairs(n) + 1) *
                                                              std::uint64_t(n) * std::uint64_t(settings.dim) * 8
                                                    : StressKernel::workspace_bytes(n, settings.dim);
  const std::uint64_t budget = settings.memory_limit > 0 ? settings.memory_limit : available_memory_bytes();
  // An observer sees the runs one after the other, and stopping one ends the fit.
  const bool parallel_runs = concurrent > 1 && !settings.on_iteration &&
                             (budget == 0 || (concurrent - 1) * run_bytes <= budget / 2);
  if (!parallel_runs) {
    runs.resize(0);
    for (int run = 0; run < settings.n_init && (runs.empty() || runs.back().result.status != MajorizationStatus::stopped);
         ++run) {
      runs.push_back(one_run(run, [&](int t) {
        report_progress(settings.progress, fraction(run + double(t) / settings.max_iterations), method);
        return true;
      }));
      report_progress(settings.progress, fraction(run + 1), method);
    }
  } else {
    std::atomic<bool> stop{false};
    std::atomic<int> finished{0};
    std::exception_ptr failure;
    std::mutex failure_mutex;
    parallel_for(
        0, settings.n_init,
        [&](std::int64_t run) {
          if (stop) return;
          const bool caller = thread_index() == 0;
          try {
            runs[std::size_t(run)] = one_run(int(run), [&](int t) {
              if (caller)
                report_progress(settings.progress, fraction(finished + double(t) / settings.max_iterations), method);
              return !stop;
            });
            ++finished;
            if (caller) report_progress(settings.progress, fraction(finished), method);
          } catch (...) {
            const std::lock_guard<std::mutex> lock(failure_mutex);
            if (!failure) failure = std::current_exception();
            stop = true;
          }
        },
        1);
    if (failure) std::rethrow_exception(failure);
    report_progress(settings.progress, 1.0, method);  // the calling thread's last run may end first
  }
  std::size_t best = 0;
  for (std::size_t run = 1; run < runs.size(); ++run)
    if (runs[run].result.raw_stress < runs[best].result.raw_stress) best = run;
  const bool stopped = runs.back().result.status == MajorizationStatus::stopped;  // only the last run may stop
  MajorizationResult result = std::move(runs[best].result);
  if (stopped) result.status = MajorizationStatus::stopped;
  return result;
}

}  // namespace detail
}  // namespace nldr
