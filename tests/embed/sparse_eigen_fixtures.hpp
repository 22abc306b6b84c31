// Test data for the spectral embedders (LLE variants, Laplacian Eigenmaps, LTSA), written here so the
// tests depend only on the code under test: a Swiss roll and an S-curve with their isometric intrinsic
// coordinates, a literal brute-force kNN graph, and the two quality figures the tests of purpose use.
#pragma once

#include <nldr/core/correlation.hpp>
#include <nldr/core/random.hpp>
#include <nldr/core/types.hpp>
#include <nldr/neighbors/graph.hpp>

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <utility>
#include <vector>

namespace spectral_test {

template <class T>
struct Manifold {
  nldr::Matrix<T> points;      // N x 3
  Eigen::MatrixXd intrinsic;   // N x 2, isometric coordinates (arc length, height)
};

// Swiss roll (x, y, z) = (t cos t, h, t sin t), t in [1.5 pi, 4.5 pi], h in [0, height]; the
// arc length of the spiral r = t is s(t) = (t sqrt(t^2 + 1) + asinh t) / 2.
template <class T>
Manifold<T> swiss_roll(int n, double height, std::uint64_t seed) {
  nldr::Random random(seed);
  Manifold<T> m{nldr::Matrix<T>(n, 3), Eigen::MatrixXd(n, 2)};
  for (int i = 0; i < n; ++i) {
    const double t = 1.5 * std::numbers::pi * (1 + 2 * random.uniform()), h = height * random.uniform();
    m.points.row(i) << T(t * std::cos(t)), T(h), T(t * std::sin(t));
    m.intrinsic.row(i) << (t * std::sqrt(t * t + 1) + std::asinh(t)) / 2, h;
  }
  return m;
}

// S-curve (x, y, z) = (sin t, h, sign(t) (cos t - 1)), t in [-1.5 pi, 1.5 pi], h in [0, 2]: the curve has
// unit speed, so (t, h) are isometric coordinates.
template <class T>
Manifold<T> s_curve(int n, std::uint64_t seed) {
  nldr::Random random(seed);
  Manifold<T> m{nldr::Matrix<T>(n, 3), Eigen::MatrixXd(n, 2)};
  for (int i = 0; i < n; ++i) {
    const double t = 3 * std::numbers::pi * (random.uniform() - 0.5), h = 2 * random.uniform();
    m.points.row(i) << T(std::sin(t)), T(h), T((t < 0 ? -1 : 1) * (std::cos(t) - 1));
    m.intrinsic.row(i) << t, h;
  }
  return m;
}

// The k nearest other points of every point by literal O(N^2) search (ties by smaller index).
template <class T>
nldr::NeighborGraph<T> brute_knn(const nldr::Matrix<T>& X, int k) {
  const int n = int(X.rows());
  std::vector<std::vector<std::pair<nldr::index_t, T>>> lists(n);
  std::vector<std::pair<double, int>> all;
  for (int i = 0; i < n; ++i) {
    all.clear();
    for (int j = 0; j < n; ++j)
      if (j != i) all.emplace_back((X.row(i).template cast<double>() - X.row(j).template cast<double>()).norm(), j);
    std::partial_sort(all.begin(), all.begin() + k, all.end());
    for (int c = 0; c < k; ++c) lists[i].emplace_back(all[c].second, T(all[c].first));
  }
  return nldr::NeighborGraph<T>::from_lists(lists);
}

// Residual variance 1 - r^2 (Tenenbaum et al. 2000) between all pairwise distances of the true
// intrinsic coordinates and of the embedding.
template <class Derived>
double residual_variance(const Eigen::MatrixXd& intrinsic, const Eigen::MatrixBase<Derived>& Y) {
  const Eigen::MatrixXd y = Y.template cast<double>();
  nldr::PearsonAccumulator acc;
  for (Eigen::Index i = 0; i < y.rows(); ++i)
    for (Eigen::Index j = i + 1; j < y.rows(); ++j)
      acc.add((intrinsic.row(i) - intrinsic.row(j)).norm(), (y.row(i) - y.row(j)).norm());
  const double r = acc.correlation();
  return 1 - r * r;
}

// How well the embedding determines each intrinsic coordinate linearly: the smaller, over the
// intrinsic coordinates, of the R^2 of the least-squares fit c ~ a + Y b (1 = exact affine map).
template <class Derived>
double intrinsic_r2(const Eigen::MatrixXd& intrinsic, const Eigen::MatrixBase<Derived>& Y) {
  Eigen::MatrixXd A(Y.rows(), Y.cols() + 1);
  A.col(0).setOnes();
  A.rightCols(Y.cols()) = Y.template cast<double>();
  double worst = 1;
  for (Eigen::Index c = 0; c < intrinsic.cols(); ++c) {
    const Eigen::VectorXd target = intrinsic.col(c);
    const Eigen::VectorXd fit = A * A.colPivHouseholderQr().solve(target);
    const double ss_res = (target - fit).squaredNorm();
    const double ss_tot = (target.array() - target.mean()).square().sum();
    worst = std::min(worst, 1 - ss_res / ss_tot);
  }
  return worst;
}

// The full dense matrix of a sparse matrix that stores its lower triangle only (the spectral layer's
// SparseLower), for comparison with dense references.
template <class SparseLower>
Eigen::MatrixXd full_dense(const SparseLower& lower) {
  const SparseLower full = lower.template selfadjointView<Eigen::Lower>();
  return Eigen::MatrixXd(full);
}

// max over embedding columns of |Pearson(Y_c, intrinsic_c)|: how well one axis follows an intrinsic coordinate.
template <class Derived>
double best_axis_correlation(const Eigen::VectorXd& intrinsic, const Eigen::MatrixBase<Derived>& Y) {
  double best = 0;
  for (Eigen::Index c = 0; c < Y.cols(); ++c) {
    nldr::PearsonAccumulator acc;
    for (Eigen::Index i = 0; i < Y.rows(); ++i) acc.add(intrinsic[i], double(Y(i, c)));
    best = std::max(best, std::abs(acc.correlation()));
  }
  return best;
}

// Residual variance of the true coordinates scaled to unit norm per axis: LLE, HLLE, MLLE and LTSA return
// orthonormal columns, which cannot keep a 4:1 aspect ratio, so this is the floor they can reach.
inline double whitened_truth_residual_variance(const Eigen::MatrixXd& intrinsic) {
  Eigen::MatrixXd w = intrinsic.rowwise() - intrinsic.colwise().mean();
  for (Eigen::Index c = 0; c < w.cols(); ++c) w.col(c) /= w.col(c).norm();
  return residual_variance(intrinsic, w);
}

// Points on a plane through (1, 2, 3) spanned by two orthonormal directions of R^3, with the plane
// coordinates in [0, 3] x [0, 1] as intrinsic coordinates.
template <class T>
Manifold<T> tilted_plane(int n, std::uint64_t seed) {
  nldr::Random random(seed);
  const Eigen::Vector3d u = Eigen::Vector3d(1, 2, 2) / 3, v = Eigen::Vector3d(2, 1, -2) / 3;  // orthonormal
  Manifold<T> m{nldr::Matrix<T>(n, 3), Eigen::MatrixXd(n, 2)};
  for (int i = 0; i < n; ++i) {
    const double a = 3 * random.uniform(), b = random.uniform();
    m.points.row(i) = (Eigen::Vector3d(1, 2, 3) + a * u + b * v).cast<T>().transpose();
    m.intrinsic.row(i) << a, b;
  }
  return m;
}

// Largest |cosine| between column c of A and its counterpart in B, reduced over columns to the worst:
// 1 when each column of A equals the matching column of B up to sign (both normalized here).
template <class DA, class DB>
double worst_column_alignment(const Eigen::MatrixBase<DA>& A, const Eigen::MatrixBase<DB>& B) {
  double worst = 1;
  for (Eigen::Index c = 0; c < A.cols(); ++c) {
    const Eigen::VectorXd a = A.col(c).template cast<double>().normalized();
    const Eigen::VectorXd b = B.col(c).template cast<double>().normalized();
    worst = std::min(worst, std::abs(a.dot(b)));
  }
  return worst;
}

// A kNN graph whose lists are cut to varying lengths in [k_min, k] (as pruning selectors produce).
template <class T>
nldr::NeighborGraph<T> variable_knn(const nldr::Matrix<T>& X, int k_min, int k, std::uint64_t seed) {
  const nldr::NeighborGraph<T> full = brute_knn(X, k);
  nldr::Random random(seed);
  std::vector<std::vector<std::pair<nldr::index_t, T>>> lists(full.size());
  for (nldr::index_t i = 0; i < full.size(); ++i) {
    const int keep = k_min + int(random.below(std::uint64_t(k - k_min + 1)));
    for (int c = 0; c < keep; ++c) lists[i].emplace_back(full.neighbors(i)[c], full.distances(i)[c]);
  }
  return nldr::NeighborGraph<T>::from_lists(lists);
}

}  // namespace spectral_test
