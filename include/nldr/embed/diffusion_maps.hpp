// Diffusion maps (Coifman & Lafon 2006; docs/methods/diffusion-maps.md).
//
// On the union-symmetrized neighbor graph, Gaussian kernel K_ij = exp(-||x_i - x_j||^2 / epsilon) on
// the edges and K_ii = 1 (the kernel at distance 0; it makes the walk lazy, which keeps the top
// eigenvalues positive). The alpha normalization (Coifman & Lafon 2006, sec. 2.3) divides out the
// sampling density q_i = sum_j K_ij: K^(a)_ij = K_ij / (q_i q_j)^alpha; alpha = 0 is the normalized graph
// Laplacian, 1/2 the Fokker-Planck operator, 1 the Laplace-Beltrami operator whatever the density.
// The Markov matrix P = D^-1 K^(a) (D_ii = sum_j K^(a)_ij) is solved through its symmetric conjugate
// S = D^-1/2 K^(a) D^-1/2 (same eigenvalues; right eigenvectors psi = D^-1/2 phi): the top eigenpairs
// of S are the bottom ones of I - S, which the sparse layer of Laplacian Eigenmaps finds
// (embed/detail/sparse_eigen.hpp), with the known top vector phi_0 = D^1/2 1 deflated. The trivial
// pair (lambda_0 = 1, psi_0 = 1) is dropped; coordinate j is lambda_j^t psi_j (diffusion time t),
// psi_j normalized to sum_i pi_i psi_j(i)^2 = 1 under the stationary pi = D 1 / sum D.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>
#include <nldr/embed/detail/connectivity.hpp>
#include <nldr/embed/detail/sparse_eigen.hpp>
#include <nldr/embed/embedding.hpp>
#include <nldr/neighbors/detail/nanoflann_adapter.hpp>
#include <nldr/neighbors/detail/result_sets.hpp>
#include <nldr/neighbors/graph.hpp>

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

namespace nldr {

/// Options of DiffusionMaps.
struct DiffusionMapsOptions {
  index_t dim = 2;  ///< diffusion coordinates d, 1 <= d and d + 1 < N
  /// Density normalization in [0, 1]: 0 graph Laplacian, 0.5 Fokker-Planck, 1 Laplace-Beltrami
  /// (the geometry alone, the sampling density divided out; Coifman & Lafon 2006, sec. 2.3).
  double alpha = 1;
  /// Diffusion time t >= 0: coordinate j is lambda_j^t psi_j (t = 0: the eigenvectors themselves).
  double diffusion_time = 1;
  /// Kernel width epsilon > 0 of exp(-||x - y||^2 / epsilon); 0 (default) = automatic: the median of
  /// ||x_i - x_j||^2 over the edges of the symmetrized graph, so the typical edge weighs exp(-1)
  /// whatever the data's scale (the median, unlike the mean, ignores a few long edges).
  double bandwidth = 0;
  SpectralSolverOptions solver{};  ///< bottom-eigenpair solver settings (docs/spectral-solver.md)
};

/// A fitted diffusion map: coordinates lambda_j^t psi_j, `eigenvalues` lambda_1 >= ... >= lambda_d of
/// the Markov matrix P, and what the Nystrom extension (transform) needs.
template <Real T>
struct DiffusionMapsModel : Embedding<T> {
  double bandwidth = 0;       ///< epsilon used (the automatic value when options.bandwidth was 0)
  double alpha = 1;           ///< the alpha normalization used
  double diffusion_time = 1;  ///< the t used
  Matrix<T> training_points;  ///< N x D copy of X
  Eigen::VectorXd kernel_degrees;  ///< q_i = sum_j K_ij, N (before the alpha normalization)
  double mean_kernel_row = 0;      ///< mean non-zeros per row of K (neighbors + itself): transform's default k

  /// Nystrom extension (Coifman & Lafon 2006, sec. 3; Bengio et al. 2004): for a new point x, the
  /// kernel to its k nearest training points with the same epsilon and alpha normalization,
  /// p(x, x_i) = K^(a)(x, x_i) / sum_i K^(a)(x, x_i), and coordinate j = (1 / lambda_j) sum_i p(x, x_i) Y_ij
  /// (Y = the training coordinates). A training point whose kernel row holds its k nearest
  /// (itself included) is mapped onto its own coordinates. k = 0: the rounded mean_kernel_row.
  /// O(P k (log N + d)) with a k-d tree over the training points.
  /// \throws nldr::invalid_argument naming "X_new" (bad shape, non-finite, or a point so far from the
  /// training data that every kernel value underflows) or "k".
  template <class Derived>
  Matrix<T> transform(const Eigen::MatrixBase<Derived>& X_new, index_t k = 0) const {
    static_assert(std::is_same_v<typename Derived::Scalar, T>, "DiffusionMapsModel::transform: same scalar as fit");
    const auto n = index_t(training_points.rows());
    const Eigen::Index dim = this->coordinates.cols();
    if (X_new.rows() == 0) return Matrix<T>(0, dim);
    validate_points(X_new, "X_new");
    if (X_new.cols() != training_points.cols())
      throw_invalid("X_new", "X_new has D = ", X_new.cols(), " columns but the model was fit on D = ",
                    training_points.cols(), ": supply points of the same dimension");
    if (k == 0) k = std::clamp(index_t(std::lround(mean_kernel_row)), index_t(1), n);
    if (k < 1 || k > n) throw_invalid("k", "k = ", k, " must lie in [1, N = ", n, "] (0: automatic)");
    const Matrix<T> queries = X_new;
    const detail::PointRows<T> rows{PointsRef<T>(training_points)};
    const detail::KdTree<T> tree(rows, 16);
    Matrix<T> Y(queries.rows(), dim);
    std::vector<char> underflow(std::size_t(queries.rows()), 0);
    parallel_for(0, queries.rows(), [&](std::int64_t p) {
      detail::NearestSet<T> nearest(k, std::numeric_limits<double>::infinity(), queries.cols());
      nearest.reset(-1);  // no training point is the query itself
      tree.search(queries.row(p).data(), nearest);
      nearest.sort();
      std::vector<double> kernel;
      double q = 0;
      for (const auto& entry : nearest.entries()) {
        const double dist = entry.distance;
        kernel.push_back(std::exp(-dist * dist / bandwidth));
        q += kernel.back();
      }
      if (!(q > 0)) {
        underflow[std::size_t(p)] = 1;
        return;
      }
      Eigen::RowVectorXd sum = Eigen::RowVectorXd::Zero(dim);
      double degree = 0;
      std::size_t a = 0;
      for (const auto& entry : nearest.entries()) {
        const double w = kernel[a++] / std::pow(q * kernel_degrees[entry.index], alpha);
        sum += w * this->coordinates.row(entry.index).template cast<double>();
        degree += w;
      }
      Y.row(p) = (sum / degree).cwiseQuotient(this->eigenvalues.transpose().template cast<double>()).template cast<T>();
    });
    const auto bad = std::find(underflow.begin(), underflow.end(), 1);
    if (bad != underflow.end())
      throw_invalid("X_new", "X_new row ", bad - underflow.begin(), " is so far from the training points that the "
                    "kernel to all its ", k, " nearest underflows to 0 (bandwidth = ", bandwidth,
                    "): it cannot be placed; raise the bandwidth");
    return Y;
  }
};

namespace detail {

/// I - S for S = D^-1/2 K^(a) D^-1/2 (lower triangle), with sqrt(D) (the deflated top vector) and epsilon.
struct DiffusionOperator {
  SparseLower lower;
  Eigen::VectorXd sqrt_degree;
  Eigen::VectorXd kernel_degrees;
  double bandwidth = 0;
  double mean_kernel_row = 0;
};

/// Builds the diffusion operator of `graph` (see the file comment). Records "weights" and "assembly".
template <Real T>
DiffusionOperator diffusion_operator(const NeighborGraph<T>& graph, double bandwidth_option, double alpha,
                                     StageTimes& times) {
  Stopwatch clock;
  const NeighborGraph<T> sym = graph.symmetrized(Symmetrization::union_edges);
  const index_t n = sym.size();
  const auto offsets = sym.offsets();
  const auto indices = sym.indices();
  const auto distances = sym.distances();
  DiffusionOperator op;
  op.bandwidth = bandwidth_option;
  if (op.bandwidth == 0) {
    std::vector<double> squared(distances.size());
    for (std::size_t e = 0; e < distances.size(); ++e) squared[e] = double(distances[e]) * double(distances[e]);
    auto middle = squared.begin() + std::ptrdiff_t(squared.size() / 2);
    std::nth_element(squared.begin(), middle, squared.end());
    op.bandwidth = *middle;
    if (!(op.bandwidth > 0))
      throw_invalid("bandwidth", "at least half of the ", distances.size(), " graph edges have length 0 (duplicate "
                    "points), so the automatic bandwidth (their median squared length) is 0: remove duplicate points "
                    "or set the bandwidth");
  }
  op.mean_kernel_row = double(distances.size()) / double(n) + 1.0;
  std::vector<double> kernel(distances.size());
  op.kernel_degrees.resize(n);
  std::vector<char> isolated(std::size_t(n), 0);
  parallel_for(0, n, [&](std::int64_t i) {
    double q = 1;  // K_ii
    for (offset_t e = offsets[i]; e < offsets[i + 1]; ++e) {
      const double dist = distances[e];
      kernel[e] = std::exp(-dist * dist / op.bandwidth);
      q += kernel[e];
    }
    op.kernel_degrees[i] = q;
    isolated[std::size_t(i)] = q == 1 && offsets[i + 1] > offsets[i];
  });
  for (index_t i = 0; i < n; ++i)
    if (isolated[std::size_t(i)])
      throw_invalid("bandwidth", "bandwidth = ", op.bandwidth, " makes every kernel value of point ", i,
                    " to its neighbors underflow to 0, cutting it off the graph: raise the bandwidth");
  // K^(a)_ij = K_ij / (q_i q_j)^alpha, then D_ii = sum_j K^(a)_ij.
  const Eigen::VectorXd q_alpha = op.kernel_degrees.array().pow(-alpha);
  op.sqrt_degree.resize(n);
  parallel_for(0, n, [&](std::int64_t i) {
    double degree = q_alpha[i] * q_alpha[i];
    for (offset_t e = offsets[i]; e < offsets[i + 1]; ++e) {
      kernel[e] *= q_alpha[i] * q_alpha[indices[e]];
      degree += kernel[e];
    }
    op.sqrt_degree[i] = std::sqrt(degree);
  });
  times.add("weights", clock.seconds());
  clock.restart();

  // Lower triangle of I - S, column by column (CSR row i of the symmetric graph = column i).
  SparseLower M(n, n);
  Eigen::VectorXi column_sizes(n);
  for (index_t i = 0; i < n; ++i) {
    int below = 1;
    for (index_t j : sym.neighbors(i)) below += j > i;
    column_sizes[i] = below;
  }
  M.reserve(column_sizes);
  for (index_t i = 0; i < n; ++i) {
    const double s = op.sqrt_degree[i];
    M.insert(i, i) = 1.0 - q_alpha[i] * q_alpha[i] / (s * s);
    for (offset_t e = offsets[i]; e < offsets[i + 1]; ++e)
      if (indices[e] > i) M.insert(indices[e], i) = -kernel[e] / (s * op.sqrt_degree[indices[e]]);
  }
  M.makeCompressed();
  op.lower = std::move(M);
  times.add("assembly", clock.seconds());
  return op;
}

}  // namespace detail

/// Diffusion maps. Usage: `DiffusionMaps{{.dim = 2, .alpha = 1}}.fit(X, graph)`.
struct DiffusionMaps {
  DiffusionMapsOptions options;

  /// Embeds with `graph` (N points, from any selector; directed graphs are union-symmetrized; must be
  /// connected); X (N x D) is kept for transform. Cost: O(N k) for the operator plus one sparse LDLT and
  /// a few Lanczos solves, as Laplacian Eigenmaps.
  /// \throws nldr::invalid_argument ("X", "graph", "dim", "alpha", "diffusion_time", "bandwidth"),
  /// nldr::disconnected_graph, nldr::convergence_error.
  template <class Derived>
  DiffusionMapsModel<typename Derived::Scalar> fit(const Eigen::MatrixBase<Derived>& X,
                                                   const NeighborGraph<typename Derived::Scalar>& graph) const {
    using T = typename Derived::Scalar;
    static_assert(Real<T>, "nldr::DiffusionMaps: the points must be float or double");
    validate_points(X, "X", 3);
    validate_not_all_identical(X);
    validate_same_rows(X.rows(), graph.size(), "X", "graph");
    validate_dimension(options.dim, X.rows() - 1, "N - 1");
    if (!(options.alpha >= 0 && options.alpha <= 1))
      throw_invalid("alpha", "alpha = ", options.alpha, " must lie in [0, 1] (0 graph Laplacian, 0.5 Fokker-Planck, "
                    "1 Laplace-Beltrami)");
    if (!(std::isfinite(options.diffusion_time) && options.diffusion_time >= 0))
      throw_invalid("diffusion_time", "diffusion_time = ", options.diffusion_time, " must be finite and >= 0");
    if (!(std::isfinite(options.bandwidth) && options.bandwidth >= 0))
      throw_invalid("bandwidth", "bandwidth = ", options.bandwidth, " must be finite and > 0, or 0 (automatic)");
    detail::require_connected(graph, "diffusion-maps");

    DiffusionMapsModel<T> model;
    detail::DiffusionOperator op = detail::diffusion_operator(graph, options.bandwidth, options.alpha, model.times);
    Stopwatch clock;
    const auto pairs = detail::bottom_eigenpairs(op.lower, int(options.dim) + 1, options.solver, "diffusion-maps",
                                                 op.sqrt_degree);
    model.times.add("eigensolve", clock.seconds());
    // psi_j = phi_j / phi_0 with phi_0 = sqrt(D) / ||sqrt(D)||: psi_0 = 1, sum_i pi_i psi_j(i)^2 = 1.
    detail::fill_spectral_embedding(model, pairs, op.sqrt_degree.norm() * op.sqrt_degree.cwiseInverse());
    Eigen::MatrixXd coordinates = model.coordinates.template cast<double>();
    const Eigen::VectorXd lambda = 1.0 - pairs.values.tail(options.dim).array();
    for (Eigen::Index j = 0; j < lambda.size(); ++j) {
      if (!(lambda[j] > 0))
        throw convergence_error(detail::concat("diffusion-maps: eigenvalue ", j + 1, " of the Markov matrix is ",
                                               lambda[j], " <= 0, so lambda^t is undefined: lower dim, or use a "
                                               "larger bandwidth (a lazier walk)"));
      coordinates.col(j) *= std::pow(lambda[j], options.diffusion_time);
    }
    model.coordinates = coordinates.cast<T>();
    model.eigenvalues = lambda.cast<T>();
    model.bandwidth = op.bandwidth;
    model.alpha = options.alpha;
    model.diffusion_time = options.diffusion_time;
    model.training_points = X;
    model.kernel_degrees = std::move(op.kernel_degrees);
    model.mean_kernel_row = op.mean_kernel_row;
    return model;
  }
};

}  // namespace nldr
