// Stress majorization (SMACOF: de Leeuw 1977; Borg & Groenen 2005, ch. 8-9), the optimizer shared by
// nldr::Smacof (metric and non-metric) and nldr::Sammon (docs/methods/smacof.md, sammon.md).
//
// Raw stress sigma(X) = sum_{i<j} w_ij (dhat_ij - d_ij(X))^2, d_ij = ||x_i - x_j||. Each iteration is a
// Guttman transform X+ = V^+ B(X) X with V = sum_{i<j} w_ij (e_i - e_j)(e_i - e_j)^T and
// B(X)_ij = -w_ij dhat_ij / d_ij (i != j; 0 where d_ij = 0), B_ii = -sum_{j != i} B_ij. It minimizes a
// majorizing function of sigma that touches it at X, so sigma never increases (de Leeuw 1977;
// Borg & Groenen 2005, sec. 8.4). With every weight 1, V^+ B X = B X / N; otherwise
// V^+ B X = (V + 11^T / N)^-1 B X (B X is orthogonal to 1), the inverse formed once, O(N^3).
// Non-metric: before each transform the disparities dhat become the weighted monotone (isotonic)
// regression of the distances on the order of the dissimilarities (Kruskal 1964, pool-adjacent-
// violators), rescaled to sum w dhat^2 = sum w delta^2. That is the least-squares dhat under this
// norm (de Leeuw 1977), so the alternation stays monotone too.
// Everything is double: the N x N matrices would be the same size in float plus rounding.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/progress.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/random.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>
#include <nldr/embed/routines/mds.hpp>

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

namespace nldr {

/// How a stress-majorization fit ended.
enum class MajorizationStatus {
  converged,        ///< the relative stress decrease of one iteration fell below `tolerance` (or stress hit 0)
  iteration_limit,  ///< `max_iterations` Guttman transforms ran without that happening
};

/// Where the runs of a stress-majorization fit start.
enum class MajorizationInit {
  classical_mds,  ///< run 0 from classical (Torgerson) MDS of the dissimilarities, runs 1.. random
  random,         ///< every run from a seeded random Gaussian configuration
};

/// Ties among the dissimilarities in non-metric MDS (Kruskal 1964; Borg & Groenen 2005, sec. 9.5).
enum class TieApproach {
  primary,    ///< tied dissimilarities may get unequal disparities (ordered like their distances)
  secondary,  ///< tied dissimilarities get one common disparity
};

namespace detail {

/// What the optimizer minimizes: dissimilarities, weights and, for non-metric MDS, the order.
struct MajorizationProblem {
  Matrix<double> delta;    ///< N x N dissimilarities, symmetric, zero diagonal
  Matrix<double> weights;  ///< N x N, symmetric, >= 0; empty: every weight 1
  bool nonmetric = false;
  TieApproach ties = TieApproach::primary;
};

/// Settings of one optimizer call (the fields the embedders' options share).
struct MajorizationSettings {
  index_t dim = 2;
  MajorizationInit init = MajorizationInit::classical_mds;
  int n_init = 1;
  std::uint64_t seed = 0;
  int max_iterations = 300;
  double tolerance = 1e-4;
  /// Hears (run + t / max_iterations) / n_init after transform t of each run, (run + 1) / n_init
  /// when a run stops: the fraction of the iteration budget used, which a converging run skips ahead.
  ProgressCallback progress{};
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

/// Refuses the dense matrices of a fit of N points (`matrices` N x N doubles) beyond the memory limit.
inline void check_majorization_memory(Eigen::Index n, int matrices, const std::string& method, std::uint64_t limit) {
  check_memory(std::uint64_t(matrices) * std::uint64_t(n) * std::uint64_t(n) * sizeof(double),
               concat(method, ": ", matrices, " dense ", n, " x ", n, " matrices"),
               "subsample the points, fit on the subsample and place the rest with transform(); or use a method "
               "of sparse memory (nldr::LandmarkIsomap, nldr::LaplacianEigenmaps, nldr::DiffusionMaps)",
               limit);
}

/// Euclidean distances of the rows of X (N x D) in double, N x N.
template <class Derived>
Matrix<double> euclidean_dissimilarities(const Eigen::MatrixBase<Derived>& X) {
  const Eigen::Index n = X.rows();
  const Matrix<double> points = X.template cast<double>();
  Matrix<double> delta(n, n);
  parallel_for(0, n, [&](std::int64_t i) {
    for (Eigen::Index j = 0; j < n; ++j) delta(i, j) = (points.row(i) - points.row(j)).norm();
  });
  return delta;
}

/// Validates a user's N x N dissimilarity matrix (square, finite, >= 0, zero diagonal, symmetric up to
/// sqrt(epsilon) of the largest entry, averaged) and returns it in double.
template <class Derived>
Matrix<double> validated_dissimilarities(const Eigen::MatrixBase<Derived>& D, const std::string& name,
                                         Eigen::Index min_points) {
  using T = typename Derived::Scalar;
  const Eigen::Index n = D.rows();
  if (D.cols() != n)
    throw_invalid(name, name, " is ", n, " x ", D.cols(), ": it must be square, N x N, one row and one column per point");
  validate_points(D, name, min_points);
  const double largest = double(D.cwiseAbs().maxCoeff());
  if (!std::isfinite(largest * largest * double(n) * double(n)))
    throw_invalid(name, "the largest dissimilarity ", largest, " squared and summed over N^2 = ", double(n) * double(n),
                  " pairs overflows a double: rescale ", name);
  const double slack = std::sqrt(double(std::numeric_limits<T>::epsilon())) * largest;
  Matrix<double> delta(n, n);
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < n; ++j) {
      if (D(i, j) < 0)
        throw_invalid(name, name, "(", i, ", ", j, ") = ", D(i, j), " is negative: dissimilarities must be >= 0");
      if (i == j && D(i, i) != 0)
        throw_invalid(name, name, "(", i, ", ", i, ") = ", D(i, i),
                      " must be 0 (a point's dissimilarity to itself): is this a similarity matrix?");
      if (j > i && std::abs(double(D(i, j)) - double(D(j, i))) > slack)
        throw_invalid(name, name, "(", i, ", ", j, ") = ", D(i, j), " but ", name, "(", j, ", ", i, ") = ", D(j, i),
                      ": the matrix must be symmetric");
      delta(i, j) = 0.5 * (double(D(i, j)) + double(D(j, i)));
    }
  if (!(largest > 0))
    throw_invalid(name, "every dissimilarity in ", name, " is 0: there is no structure to embed");
  return delta;
}

/// Validates N x N weights (finite, >= 0, symmetric) whose positive entries connect all N points.
template <class Derived>
Matrix<double> validated_weights(const Eigen::MatrixBase<Derived>& W, Eigen::Index n) {
  if (W.rows() != n || W.cols() != n)
    throw_invalid("weights", "weights is ", W.rows(), " x ", W.cols(), " but there are N = ", n,
                  " points: supply N x N weights (0 marks a missing dissimilarity)");
  Matrix<double> weights(n, n);
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < n; ++j) {
      const double w = double(W(i, j));
      if (!(std::isfinite(w) && w >= 0))
        throw_invalid("weights", "weights(", i, ", ", j, ") = ", W(i, j), " must be finite and >= 0");
      if (j > i && w != double(W(j, i)))
        throw_invalid("weights", "weights(", i, ", ", j, ") = ", W(i, j), " but weights(", j, ", ", i, ") = ",
                      W(j, i), ": the weights must be symmetric");
      weights(i, j) = i == j ? 0.0 : w;
    }
  // Breadth-first search over positive weights: V is singular unless they connect every point.
  std::vector<char> seen(std::size_t(n), 0);
  std::vector<Eigen::Index> queue{0};
  seen[0] = 1;
  for (std::size_t head = 0; head < queue.size(); ++head)
    for (Eigen::Index j = 0; j < n; ++j)
      if (!seen[std::size_t(j)] && weights(queue[head], j) > 0) {
        seen[std::size_t(j)] = 1;
        queue.push_back(j);
      }
  if (Eigen::Index(queue.size()) < n)
    throw_invalid("weights", "the pairs of positive weight connect only ", queue.size(), " of the N = ", n,
                  " points to point 0 (e.g. point ", std::find(seen.begin(), seen.end(), 0) - seen.begin(),
                  " is not reached): the configuration of the parts would be arbitrary; add weights between them");
  return weights;
}

/// Weighted monotone (isotonic, non-decreasing) regression of values by pool-adjacent-violators,
/// in place. Zero weights are allowed (such an entry takes its block's mean).
inline void pool_adjacent_violators(std::vector<double>& values, const std::vector<double>& weights) {
  struct Block {
    double mean, weight;
    std::size_t end;  // one past the last member
  };
  std::vector<Block> blocks;
  blocks.reserve(values.size());
  for (std::size_t p = 0; p < values.size(); ++p) {
    Block block{values[p], weights[p], p + 1};
    while (!blocks.empty() && blocks.back().mean >= block.mean) {
      const Block& last = blocks.back();
      const double weight = last.weight + block.weight;
      block.mean = weight > 0 ? (last.mean * last.weight + block.mean * block.weight) / weight
                              : 0.5 * (last.mean + block.mean);
      block.weight = weight;
      blocks.pop_back();
    }
    blocks.push_back(block);
  }
  std::size_t begin = 0;
  for (const Block& block : blocks) {
    std::fill(values.begin() + std::ptrdiff_t(begin), values.begin() + std::ptrdiff_t(block.end), block.mean);
    begin = block.end;
  }
}

/// The non-metric step: pairs of positive weight sorted by dissimilarity, with their tie blocks.
class MonotoneRegression {
 public:
  explicit MonotoneRegression(const MajorizationProblem& problem) : ties_(problem.ties) {
    const Eigen::Index n = problem.delta.rows();
    for (index_t i = 0; i < n; ++i)
      for (index_t j = i + 1; j < n; ++j)
        if (weight(problem, i, j) > 0) pairs_.push_back({i, j});
    std::stable_sort(pairs_.begin(), pairs_.end(),
                     [&](const Pair& a, const Pair& b) { return problem.delta(a.i, a.j) < problem.delta(b.i, b.j); });
    block_starts_.push_back(0);
    for (std::size_t p = 1; p < pairs_.size(); ++p)
      if (problem.delta(pairs_[p].i, pairs_[p].j) != problem.delta(pairs_[p - 1].i, pairs_[p - 1].j))
        block_starts_.push_back(p);
    block_starts_.push_back(pairs_.size());
    for (const Pair& pair : pairs_) {
      const double w = weight(problem, pair.i, pair.j), delta = problem.delta(pair.i, pair.j);
      target_norm_ += w * delta * delta;
    }
  }

  static double weight(const MajorizationProblem& problem, index_t i, index_t j) {
    return problem.weights.size() == 0 ? 1.0 : problem.weights(i, j);
  }

  /// The monotone regression f of the distances `d` (N x N) on the dissimilarity order, written as
  /// dhat = scale * f into `dhat` (symmetric); scale makes sum w dhat^2 = sum w delta^2.
  /// Returns scale (0 when every distance is 0).
  double fit(const MajorizationProblem& problem, const Matrix<double>& d, Matrix<double>& dhat) {
    const std::size_t count = pairs_.size();
    if (ties_ == TieApproach::primary)  // within a tie block the order that fits best: by distance
      for (std::size_t b = 0; b + 1 < block_starts_.size(); ++b)
        if (block_starts_[b + 1] - block_starts_[b] > 1)
          std::stable_sort(pairs_.begin() + std::ptrdiff_t(block_starts_[b]),
                           pairs_.begin() + std::ptrdiff_t(block_starts_[b + 1]),
                           [&](const Pair& x, const Pair& y) { return d(x.i, x.j) < d(y.i, y.j); });
    values_.clear();
    weights_.clear();
    if (ties_ == TieApproach::primary) {
      for (const Pair& pair : pairs_) {
        values_.push_back(d(pair.i, pair.j));
        weights_.push_back(weight(problem, pair.i, pair.j));
      }
    } else {  // one entry per tie block: its weighted mean distance
      for (std::size_t b = 0; b + 1 < block_starts_.size(); ++b) {
        double sum = 0, weight_sum = 0;
        for (std::size_t p = block_starts_[b]; p < block_starts_[b + 1]; ++p) {
          const double w = weight(problem, pairs_[p].i, pairs_[p].j);
          sum += w * d(pairs_[p].i, pairs_[p].j);
          weight_sum += w;
        }
        values_.push_back(sum / weight_sum);
        weights_.push_back(weight_sum);
      }
    }
    pool_adjacent_violators(values_, weights_);
    fitted_.resize(count);
    for (std::size_t b = 0, p = 0; p < count; ++p) {
      if (ties_ == TieApproach::secondary && p == block_starts_[b + 1]) ++b;
      fitted_[p] = ties_ == TieApproach::primary ? values_[p] : values_[b];
    }
    double norm = 0;
    for (std::size_t p = 0; p < count; ++p) norm += weight(problem, pairs_[p].i, pairs_[p].j) * fitted_[p] * fitted_[p];
    const double scale = norm > 0 ? std::sqrt(target_norm_ / norm) : 0.0;
    for (std::size_t p = 0; p < count; ++p) {
      dhat(pairs_[p].i, pairs_[p].j) = dhat(pairs_[p].j, pairs_[p].i) = scale * fitted_[p];
    }
    return scale;
  }

  /// The last fit as a map: one knot per distinct dissimilarity (its mean disparity), increasing.
  void knots(const MajorizationProblem& problem, const Matrix<double>& dhat, std::vector<double>& delta,
             std::vector<double>& value) const {
    delta.clear();
    value.clear();
    for (std::size_t b = 0; b + 1 < block_starts_.size(); ++b) {
      double sum = 0;
      for (std::size_t p = block_starts_[b]; p < block_starts_[b + 1]; ++p) sum += dhat(pairs_[p].i, pairs_[p].j);
      delta.push_back(problem.delta(pairs_[block_starts_[b]].i, pairs_[block_starts_[b]].j));
      value.push_back(sum / double(block_starts_[b + 1] - block_starts_[b]));
    }
  }

 private:
  struct Pair {
    index_t i, j;
  };
  TieApproach ties_;
  std::vector<Pair> pairs_;
  std::vector<std::size_t> block_starts_;  // tie blocks [starts[b], starts[b + 1])
  std::vector<double> values_, weights_, fitted_;
  double target_norm_ = 0;
};

/// Classical (Torgerson) MDS of the dissimilarities as a start (entries of weight 0 replaced by the
/// mean present dissimilarity). A coordinate whose eigenvalue is <= 0 would stay identically 0 under
/// every Guttman transform, so it gets small seeded noise instead.
inline Matrix<double> classical_start(const MajorizationProblem& problem, index_t dim, std::uint64_t seed,
                                      const std::string& method) {
  const Eigen::Index n = problem.delta.rows();
  double present_sum = 0, present = 0;
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = i + 1; j < n; ++j)
      if (MonotoneRegression::weight(problem, index_t(i), index_t(j)) > 0) {
        present_sum += problem.delta(i, j);
        ++present;
      }
  const double fill = present > 0 ? present_sum / present : 0.0;
  Matrix<double> B(n, n);
  parallel_for(0, n, [&](std::int64_t i) {
    for (Eigen::Index j = 0; j < n; ++j) {
      const bool missing = i != j && MonotoneRegression::weight(problem, index_t(i), index_t(j)) == 0;
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

/// A seeded Gaussian configuration whose root-mean-square distance matches the dissimilarities'.
inline Matrix<double> random_start(const MajorizationProblem& problem, index_t dim, std::uint64_t seed) {
  const Eigen::Index n = problem.delta.rows();
  double sum = 0, count = 0;
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = i + 1; j < n; ++j)
      if (MonotoneRegression::weight(problem, index_t(i), index_t(j)) > 0) {
        sum += problem.delta(i, j) * problem.delta(i, j);
        ++count;
      }
  const double scale = std::sqrt(sum / count / (2.0 * double(dim)));  // E||x - y||^2 = 2 d s^2
  Random random(seed);
  Matrix<double> X(n, dim);
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index c = 0; c < dim; ++c) X(i, c) = scale * random.normal();
  return X;
}

/// One pass over all pairs at configuration X with disparities dhat: the raw stress, sum w d^2,
/// sum w dhat^2 and B(X) X. Rows run in parallel, each summing its j in a fixed order, and the row sums
/// are added in row order (thread-count independent). Every pair is visited from both ends (the sums
/// halved): no cross-row reduction, and the loops over j run on contiguous coordinate arrays.
struct StressPass {
  double raw = 0, distance_norm = 0, disparity_norm = 0;
  Matrix<double> BX;
};

inline StressPass stress_pass(const MajorizationProblem& problem, const Matrix<double>& dhat, const Matrix<double>& X) {
  const Eigen::Index n = X.rows(), dim = X.cols();
  const Matrix<double> columns = X.transpose();  // d x N: coordinate c of every point contiguous
  StressPass pass;
  pass.BX.resize(n, dim);
  Eigen::VectorXd raw(n), dnorm(n), hnorm(n);
  const bool unit = problem.weights.size() == 0;
  struct Scratch {
    Eigen::ArrayXd d, ratio;
  };
  std::vector<Scratch> scratch(static_cast<std::size_t>(max_threads()));
  // Eigen's array reductions are vectorized in a fixed order for a given N (the compiler would not
  // reorder the sums); the diagonal needs no exception: dhat_ii = d_ii = 0 contributes 0 everywhere.
  parallel_for(0, n, [&](std::int64_t i) {
    Scratch& s = scratch[std::size_t(thread_index())];
    s.d.setZero(n);
    for (Eigen::Index c = 0; c < dim; ++c) s.d += (columns.row(c).array() - columns(c, i)).square();
    s.d = s.d.sqrt();
    const auto h = dhat.row(i).array().transpose();
    if (unit) {
      raw[i] = (h - s.d).square().sum();
      dnorm[i] = s.d.square().sum();
      hnorm[i] = h.square().sum();
      s.ratio = (s.d > 0).select(h / s.d, 0.0);  // -B_ij
    } else {
      const auto w = problem.weights.row(i).array().transpose();
      raw[i] = (w * (h - s.d).square()).sum();
      dnorm[i] = (w * s.d.square()).sum();
      hnorm[i] = (w * h.square()).sum();
      s.ratio = (s.d > 0).select(w * h / s.d, 0.0);
    }
    for (Eigen::Index c = 0; c < dim; ++c)
      pass.BX(i, c) = (s.ratio * (columns(c, i) - columns.row(c).array().transpose())).sum();
  });
  for (Eigen::Index i = 0; i < n; ++i) {
    pass.raw += raw[i];
    pass.distance_norm += dnorm[i];
    pass.disparity_norm += hnorm[i];
  }
  pass.raw /= 2;
  pass.distance_norm /= 2;
  pass.disparity_norm /= 2;
  return pass;
}

/// (V + 11^T / N)^-1 for the weights (the Guttman transform's V^+ on vectors orthogonal to 1). Factorized
/// in place: two N x N matrices at the peak.
inline Matrix<double> guttman_inverse(const Matrix<double>& weights) {
  const Eigen::Index n = weights.rows();
  Eigen::MatrixXd V = -weights;
  V.diagonal() = weights.rowwise().sum();
  V.array() += 1.0 / double(n);
  Eigen::LLT<Eigen::Ref<Eigen::MatrixXd>> llt(V);
  if (llt.info() != Eigen::Success)
    throw convergence_error("stress majorization: V + 11^T/N is not positive definite (weights spanning "
                            "orders of magnitude?): rescale the weights");
  Matrix<double> inverse = Matrix<double>::Identity(n, n);
  llt.solveInPlace(inverse);
  return inverse;
}

/// Distances of the rows of X, N x N (the non-metric step needs all of them at once); loops over
/// contiguous coordinates, as stress_pass.
inline void configuration_distances(const Matrix<double>& X, Matrix<double>& d) {
  const Eigen::Index n = X.rows();
  const Matrix<double> columns = X.transpose();
  d.resize(n, n);
  parallel_for(0, n, [&](std::int64_t i) {
    auto row = d.row(i).array();
    row.setZero();
    for (Eigen::Index c = 0; c < columns.rows(); ++c) row += (columns.row(c).array() - columns(c, i)).square();
    row = row.sqrt();
  });
}

/// The optimizer: n_init runs of Guttman transforms, the one of least raw stress kept.
/// A run stops when (sigma_old - sigma_new) / sigma_old < tolerance, when sigma reaches 0, or after
/// max_iterations transforms.
inline MajorizationResult majorize(const MajorizationProblem& problem, const MajorizationSettings& settings,
                                   const std::string& method) {
  const Eigen::Index n = problem.delta.rows();
  const bool unit = problem.weights.size() == 0;
  const Matrix<double> inverse = unit ? Matrix<double>() : guttman_inverse(problem.weights);
  std::optional<MonotoneRegression> regression;
  if (problem.nonmetric) regression.emplace(problem);
  Matrix<double> dhat = problem.nonmetric ? Matrix<double>::Zero(n, n) : Matrix<double>();
  const Matrix<double>& disparities = problem.nonmetric ? dhat : problem.delta;
  Matrix<double> distances;
  double scale = 1;

  auto evaluate = [&](const Matrix<double>& X) {
    if (problem.nonmetric) {
      configuration_distances(X, distances);
      scale = regression->fit(problem, distances, dhat);
    }
    return stress_pass(problem, disparities, X);
  };

  MajorizationResult best;
  for (int run = 0; run < settings.n_init; ++run) {
    const std::uint64_t run_seed = settings.seed ^ (0x9e3779b97f4a7c15ULL * std::uint64_t(run + 1));
    Matrix<double> X = run == 0 && settings.init == MajorizationInit::classical_mds
                           ? classical_start(problem, settings.dim, run_seed, method)
                           : random_start(problem, settings.dim, run_seed);
    StressPass pass = evaluate(X);
    std::vector<double> history{pass.raw};
    MajorizationStatus status = MajorizationStatus::iteration_limit;
    int iterations = 0;
    while (iterations < settings.max_iterations) {
      if (pass.raw == 0) {
        status = MajorizationStatus::converged;
        break;
      }
      Matrix<double> next(n, settings.dim);
      if (unit) {
        next = pass.BX / double(n);
      } else {
        parallel_for(0, n, [&](std::int64_t i) { next.row(i).noalias() = inverse.row(i) * pass.BX; });
      }
      X = std::move(next);
      ++iterations;
      const double previous = pass.raw;
      pass = evaluate(X);
      history.push_back(pass.raw);
      if (!std::isfinite(pass.raw))
        throw convergence_error(concat(method, ": the stress became ", pass.raw, " at iteration ", iterations,
                                       " (dissimilarities or weights of extreme range?): rescale the input"));
      if ((previous - pass.raw) < settings.tolerance * previous) {
        status = MajorizationStatus::converged;
        break;
      }
      report_progress(settings.progress, (run + double(iterations) / settings.max_iterations) / settings.n_init,
                      method);
    }
    report_progress(settings.progress, double(run + 1) / settings.n_init, method);
    if (run > 0 && !(pass.raw < best.raw_stress)) continue;
    best.X = std::move(X);
    best.raw_stress = pass.raw;
    best.disparity_norm = pass.disparity_norm;
    best.iterations = iterations;
    best.status = status;
    best.best_run = run;
    best.stress_history = std::move(history);
    // Kruskal's stress-1 against the unscaled fit f = dhat / scale (metric: f = delta).
    const double s = problem.nonmetric && scale > 0 ? scale : 1.0;
    const double f_norm = pass.disparity_norm / (s * s), cross = (pass.distance_norm + pass.disparity_norm - pass.raw) / 2 / s;
    const double residual = std::max(0.0, pass.distance_norm - 2 * cross + f_norm);
    best.kruskal_stress = pass.distance_norm > 0 ? std::sqrt(residual / pass.distance_norm) : 0.0;
    if (problem.nonmetric) regression->knots(problem, dhat, best.map_delta, best.map_dhat);
  }
  return best;
}

/// Places new points with the configuration X (N x d) fixed: point p minimizes
/// sum_i w_i (target(p, i) - ||y - x_i||)^2 by the single-point Guttman update
/// y+ = sum_i w_i (x_i + target_i (y - x_i) / ||y - x_i||) / sum_i w_i (majorization: never increases the
/// stress), from the x_i of least target; a point at target 0 is placed on that training point.
/// sammon_weights: w_i = 1 / target_i, else w_i = 1. Rows run in parallel. Returns P x d.
inline Matrix<double> place_points(const Matrix<double>& X, const Matrix<double>& target, bool sammon_weights,
                                   int max_iterations, double tolerance) {
  const Eigen::Index n = X.rows(), dim = X.cols();
  Matrix<double> Y(target.rows(), dim);
  parallel_for(0, target.rows(), [&](std::int64_t p) {
    Eigen::Index nearest = 0;
    const double least = target.row(p).minCoeff(&nearest);
    Eigen::RowVectorXd y = X.row(nearest);
    if (least == 0) {  // a duplicate of a training point lands on it, as in every nldr transform
      Y.row(p) = y;
      return;
    }
    auto stress = [&](const Eigen::RowVectorXd& at) {
      double s = 0;
      for (Eigen::Index i = 0; i < n; ++i) {
        const double w = sammon_weights ? 1.0 / target(p, i) : 1.0, e = target(p, i) - (at - X.row(i)).norm();
        s += w * e * e;
      }
      return s;
    };
    double current = stress(y);
    for (int it = 0; it < max_iterations && current > 0; ++it) {
      Eigen::RowVectorXd sum = Eigen::RowVectorXd::Zero(dim);
      double weight_sum = 0;
      for (Eigen::Index i = 0; i < n; ++i) {
        const double w = sammon_weights ? 1.0 / target(p, i) : 1.0, d = (y - X.row(i)).norm();
        sum += w * X.row(i);
        if (d > 0) sum += (w * target(p, i) / d) * (y - X.row(i));
        weight_sum += w;
      }
      y = sum / weight_sum;
      const double next = stress(y);
      const bool done = current - next < tolerance * current;
      current = next;
      if (done) break;
    }
    Y.row(p) = y;
  });
  return Y;
}

/// Euclidean distances from each new point (P x D) to each training point (N x D), P x N, in double.
template <Real T, class Derived>
Matrix<double> distances_to_training(const Matrix<T>& training, const Eigen::MatrixBase<Derived>& X_new) {
  validate_points(X_new, "X_new");
  if (X_new.cols() != training.cols())
    throw_invalid("X_new", "X_new has D = ", X_new.cols(), " columns but the model was fit on D = ", training.cols(),
                  ": supply points of the same dimension");
  const Matrix<double> train = training.template cast<double>(), points = X_new.template cast<double>();
  Matrix<double> D(points.rows(), train.rows());
  parallel_for(0, points.rows(), [&](std::int64_t p) {
    for (Eigen::Index i = 0; i < train.rows(); ++i) D(p, i) = (points.row(p) - train.row(i)).norm();
  });
  return D;
}

/// Validates P x N dissimilarities of new points to the N training points.
template <class Derived>
Matrix<double> validated_new_dissimilarities(const Eigen::MatrixBase<Derived>& D, Eigen::Index n) {
  if (D.cols() != n)
    throw_invalid("distances", "distances has ", D.cols(), " columns but the model was fit on N = ", n,
                  " points: supply one column per training point");
  validate_points(D, "distances");
  if ((D.array() < 0).any())
    throw_invalid("distances", "distances has a negative entry: dissimilarities must be >= 0");
  return D.template cast<double>();
}

}  // namespace detail
}  // namespace nldr
