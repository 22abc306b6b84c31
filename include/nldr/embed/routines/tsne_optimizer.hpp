// t-SNE's gradient descent (van der Maaten & Hinton 2008; docs/methods/tsne.md): the gradient of
// KL(P || Q), Q_ij = w_ij / Z, is
//     dC/dy_i = 4 (sum_j p_ij w_ij^{1/a} (y_i - y_j) - F_i / Z)
// with the repulsion F, Z of routines/tsne_repulsion.hpp (the factor 4 kept: this is the true
// gradient, checked against finite differences of the KL in tests/embed/tsne.cpp). The schedule:
// early exaggeration (P multiplied, momentum 0.5), then the optimization (momentum 0.8, optional late
// exaggeration), delta-bar-delta gains (Jacobs 1988) as bhtsne, scikit-learn and openTSNE use them,
// the step and the gains restarted at the phase change as scikit-learn does. The attraction runs in
// parallel per point over P's row; every sum over points is reduced in index order.
#pragma once

#include <nldr/core/iteration.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/types.hpp>
#include <nldr/embed/routines/tsne_affinities.hpp>
#include <nldr/embed/routines/tsne_repulsion.hpp>

#include <Eigen/Core>

#include <cmath>
#include <functional>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace nldr::detail {

/// Any repulsion of the contract in routines/tsne_repulsion.hpp with its settings bound.
using TsneRepulsionFunction = std::function<double(const Matrix<double>& Y, Matrix<double>& forces)>;

/// The descent's schedule, resolved (the learning rate a number, not "auto").
struct TsneSchedule {
  int max_iterations = 1000;           ///< total, the exaggeration phase included
  int exaggeration_iterations = 250;   ///< the first ones, with P multiplied by early_exaggeration
  double early_exaggeration = 12;
  double late_exaggeration = 1;        ///< P's factor for the rest (1: none)
  double learning_rate = 200;
  double momentum = 0.5;               ///< during early exaggeration
  double final_momentum = 0.8;         ///< afterwards
  int objective_every = 50;            ///< KL every this many iterations and at the last one
};

/// A = sum_j p_ij w_ij^{1/a} (y_i - y_j) per row (P's stored row order). The loop reads P's arrays
/// directly with d a compile-time constant for d = 1, 2, 3 (the same operations in the same order
/// as for any d: only the speed differs). A row's sums stay in registers until its last edge:
/// added into A itself, which might alias Y or P for all the compiler knows, every edge waited on
/// the store and reload of the previous one's sum (this loop was 20% of a 20,000-point fit's time).
template <int Dim = Eigen::Dynamic>
void tsne_attraction(const TsneAffinities& P, const Matrix<double>& Y, const TsneKernel& kernel, Matrix<double>& A) {
  if constexpr (Dim == Eigen::Dynamic) {
    switch (Y.cols()) {
      case 1: return tsne_attraction<1>(P, Y, kernel, A);
      case 2: return tsne_attraction<2>(P, Y, kernel, A);
      case 3: return tsne_attraction<3>(P, Y, kernel, A);
      default: break;
    }
  }
  A.setZero(Y.rows(), Y.cols());
  const Eigen::Index d = Dim == Eigen::Dynamic ? Y.cols() : Dim;
  const auto* outer = P.outerIndexPtr();
  const auto* inner = P.innerIndexPtr();
  const double* value = P.valuePtr();
  const double* y = Y.data();  // row-major: point i at y + i d
  parallel_for(0, P.outerSize(), [&](std::int64_t i) {
    const double* yi = y + i * d;
    // The running sums: d of them on the stack for d = 1, 2, 3; A's row itself otherwise.
    double local[Dim == Eigen::Dynamic ? 1 : Dim] = {};
    double* a = Dim == Eigen::Dynamic ? A.data() + i * d : local;
    for (auto e = outer[i]; e < outer[i + 1]; ++e) {
      const double* yj = y + Eigen::Index(inner[e]) * d;
      double r2 = 0;
      for (Eigen::Index c = 0; c < d; ++c) r2 += (yi[c] - yj[c]) * (yi[c] - yj[c]);
      const double g = value[e] * kernel.attraction(r2);
      for (Eigen::Index c = 0; c < d; ++c) a[c] += g * (yi[c] - yj[c]);
    }
    if constexpr (Dim != Eigen::Dynamic)
      for (Eigen::Index c = 0; c < d; ++c) A(i, c) = local[c];
  });
}

/// KL(P || Q) = sum_ij p_ij log(p_ij Z / w_ij) for the coordinates Y whose repulsion gave Z. As exact as
/// Z is: exact with the exact repulsion, within the approximation's error otherwise (FIt-SNE too
/// reports the KL from its approximate Z). O(nnz(P)).
inline double tsne_kl_divergence(const TsneAffinities& P, const Matrix<double>& Y, const TsneKernel& kernel, double Z) {
  std::vector<double> partial(std::size_t(P.outerSize()), 0.0);
  const double log_z = std::log(Z);
  parallel_for(0, P.outerSize(), [&](std::int64_t i) {
    double sum = 0;
    for (TsneAffinities::InnerIterator it(P, i); it; ++it) {
      if (!(it.value() > 0)) continue;
      const double r2 = (Y.row(i) - Y.row(it.col())).squaredNorm();
      sum += it.value() * (std::log(it.value()) + log_z - std::log(kernel.weight(r2)));
    }
    partial[std::size_t(i)] = sum;
  });
  return ordered_sum(partial);
}

/// Runs `schedule` from Y (N x d, updated in place), observed after every iteration. P and Y may be
/// in another numbering than the caller's (for locality: embed/tsne.hpp); `original` then maps each
/// row to the caller's point, so that the observer sees the caller's order. Returns the last KL
/// computed (NaN if none was).
inline double optimize_tsne(const TsneAffinities& P, Matrix<double>& Y, const TsneSchedule& schedule,
                            const TsneKernel& kernel, const TsneRepulsionFunction& repulsion,
                            IterationObserver& observer, std::span<const index_t> original = {}) {
  const auto n = Y.rows(), d = Y.cols();
  Matrix<double> attraction(n, d), forces(n, d), gradient(n, d), update(n, d), gains(n, d), in_original_order;
  double kl = std::numeric_limits<double>::quiet_NaN();
  for (int iteration = 1; iteration <= schedule.max_iterations; ++iteration) {
    const bool early = iteration <= schedule.exaggeration_iterations;
    if (iteration == 1 || iteration == schedule.exaggeration_iterations + 1) {
      update.setZero();
      gains.setOnes();
    }
    const double exaggeration = early ? schedule.early_exaggeration : schedule.late_exaggeration;
    const double momentum = early ? schedule.momentum : schedule.final_momentum;

    tsne_attraction(P, Y, kernel, attraction);
    const double Z = repulsion(Y, forces);
    std::optional<double> objective;
    if (iteration % schedule.objective_every == 0 || iteration == schedule.max_iterations) {
      kl = tsne_kl_divergence(P, Y, kernel, Z);
      objective = kl;
    }
    gradient = 4.0 * (exaggeration * attraction - forces / Z);
    parallel_for(0, n, [&](std::int64_t i) {
      for (Eigen::Index c = 0; c < d; ++c) {
        double& gain = gains(i, c);
        // Delta-bar-delta: grow the gain while the step keeps its sign, shrink it when it turns.
        gain = (update(i, c) * gradient(i, c) < 0) ? gain + 0.2 : std::max(gain * 0.8, 0.01);
        update(i, c) = momentum * update(i, c) - schedule.learning_rate * gain * gradient(i, c);
        Y(i, c) += update(i, c);
      }
    });
    // The objective does not see translations; keeping the centre at 0 keeps the coordinates small.
    Y.rowwise() -= Y.colwise().mean();
    if (!original.empty() && observer.observed()) {
      in_original_order.resize(n, d);
      for (Eigen::Index r = 0; r < n; ++r) in_original_order.row(original[std::size_t(r)]) = Y.row(r);
    }
    const Matrix<double>& seen = original.empty() || !observer.observed() ? Y : in_original_order;
    if (!observer.after(iteration, early ? "early exaggeration" : "optimization", seen, objective)) break;
  }
  return kl;
}

}  // namespace nldr::detail
