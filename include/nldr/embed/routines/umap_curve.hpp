// UMAP's low-dimensional similarity 1 / (1 + a d^(2b)) (McInnes, Healy & Melville 2018, sec. 3.2):
// a and b are fitted, by least squares on 300 points of [0, 3 spread], to the curve that is 1 up to
// min_dist and exp(-(d - min_dist) / spread) beyond, as umap-learn's find_ab_params does (there with
// scipy's curve_fit; here by Levenberg-Marquardt from the same start a = b = 1).
#pragma once

#include <nldr/core/error.hpp>

#include <Eigen/Core>
#include <Eigen/Dense>

#include <cmath>
#include <concepts>

namespace nldr::routines {

struct UmapCurve {
  double a = 0;
  double b = 0;
};

/// a and b for `min_dist` (>= 0) and `spread` (> 0, min_dist <= spread). Spread 1: min_dist 0.1 gives
/// a = 1.5769, b = 0.8951 (umap-learn's defaults); min_dist 0.01, a = 1.8956, b = 0.8006 (uwot's).
/// \throws nldr::invalid_argument naming "min_dist" or "spread".
/// (A template only so that a unit instantiates the 2 x 2 solves where it calls it: docs/building.md,
/// "Compile time".)
UmapCurve fit_umap_curve(std::same_as<double> auto min_dist, std::same_as<double> auto spread) {
  if (!(spread > 0) || !std::isfinite(spread)) throw_invalid("spread", "spread = ", spread, " must be finite and > 0");
  if (!(min_dist >= 0) || !(min_dist <= spread))
    throw_invalid("min_dist", "min_dist = ", min_dist, " must lie in [0, spread = ", spread,
                  "]: it is the distance below which embedded neighbors count as fully similar");
  constexpr int samples = 300;
  Eigen::ArrayXd x(samples), y(samples);
  for (int s = 0; s < samples; ++s) {
    x[s] = 3 * spread * s / (samples - 1);
    y[s] = x[s] < min_dist ? 1.0 : std::exp(-(x[s] - min_dist) / spread);
  }
  // Residuals r = 1 / (1 + a x^(2b)) - y and their Jacobian; x = 0 contributes nothing to d/db.
  auto residuals = [&](double a, double b, Eigen::MatrixXd* jacobian) {
    Eigen::VectorXd r(samples);
    if (jacobian) jacobian->resize(samples, 2);
    for (int s = 0; s < samples; ++s) {
      const double power = x[s] > 0 ? std::pow(x[s], 2 * b) : 0.0;
      const double denominator = 1 + a * power;
      r[s] = 1 / denominator - y[s];
      if (jacobian) {
        const double squared = denominator * denominator;
        (*jacobian)(s, 0) = -power / squared;
        (*jacobian)(s, 1) = x[s] > 0 ? -a * power * 2 * std::log(x[s]) / squared : 0.0;
      }
    }
    return r;
  };
  Eigen::Vector2d p(1, 1);
  double lambda = 1e-3;
  Eigen::MatrixXd J;
  Eigen::VectorXd r = residuals(p[0], p[1], &J);
  double cost = r.squaredNorm();
  for (int iteration = 0; iteration < 500 && lambda < 1e16; ++iteration) {
    const Eigen::Matrix2d normal = J.transpose() * J;
    Eigen::Matrix2d damped = normal;
    damped.diagonal() += lambda * normal.diagonal();
    const Eigen::Vector2d step = damped.ldlt().solve(-J.transpose() * r);
    const Eigen::Vector2d trial = p + step;
    const Eigen::VectorXd r_trial = residuals(trial[0], trial[1], nullptr);
    const double trial_cost = r_trial.squaredNorm();
    if (trial[0] > 0 && std::isfinite(trial_cost) && trial_cost <= cost) {
      const bool done = cost - trial_cost <= 1e-15 * cost && step.norm() <= 1e-12 * (1 + p.norm());
      p = trial;
      r = residuals(p[0], p[1], &J);
      cost = trial_cost;
      lambda = std::max(lambda / 10, 1e-12);
      if (done) break;
    } else {
      lambda *= 10;
    }
  }
  return {p[0], p[1]};
}

}  // namespace nldr::routines
