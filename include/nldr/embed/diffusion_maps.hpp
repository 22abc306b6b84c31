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

#include <nldr/core/described.hpp>
#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/precompiled.hpp>
#include <nldr/core/progress.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>
#include <nldr/embed/detail/connectivity.hpp>
#include <nldr/embed/detail/graph_matrix.hpp>
#include <nldr/embed/detail/sparse_eigen.hpp>
#include <nldr/embed/eigen_options.hpp>
#include <nldr/embed/embedder.hpp>
#include <nldr/embed/embedding.hpp>
#include <nldr/embed/model_fields.hpp>
#include <nldr/embed/routines/out_of_sample.hpp>
#include <nldr/embed/routines/spectral_fit.hpp>
#include <nldr/neighbors/graph.hpp>
#include <nldr/neighbors/point_index.hpp>

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
  BottomEigenOptions eigen{};  ///< bottom-eigenpair solver settings (docs/spectral-solver.md)
  /// Optional progress and cancel hook (core/progress.hpp): 0.1 once the diffusion operator is built (O(N k)),
  /// then the eigensolver 0.1 .. 1 (docs/tool.md, "Progress and logging").
  ProgressCallback progress{};

  /// The parameters a caller names (core/described.hpp; docs/registry.md).
  template <class Visitor>
  void describe(Visitor& v) {
    v.number("dim", dim, {1, 1e9}, "target dimension d");
    v.number("alpha", alpha, {0, 1}, "density normalization: 0 graph Laplacian, 0.5 Fokker-Planck, 1 Laplace-Beltrami");
    v.number("diffusion_time", diffusion_time, {0, 1e300}, "diffusion time t: coordinates lambda^t psi");
    v.number("bandwidth", bandwidth, {0, 1e300},
             "kernel width epsilon of exp(-d^2 / epsilon) (0: the median squared edge length)");
    eigen.describe(v);
  }
};

/// A fitted diffusion map: coordinates lambda_j^t psi_j, `eigenvalues` lambda_1 >= ... >= lambda_d of
/// the Markov matrix P, and what the Nystrom extension (transform) needs.
template <Real T>
struct DiffusionMapsModel : Embedding<T>, routines::PlacesByTrainingNeighbors<DiffusionMapsModel<T>> {
  double bandwidth = 0;       ///< epsilon used (the automatic value when options.bandwidth was 0)
  double alpha = 1;           ///< the alpha normalization used
  double diffusion_time = 1;  ///< the t used
  /// Training points, their search index and the rule that gives a new point its neighbors.
  routines::TrainingNeighbors<T> training;
  Eigen::VectorXd kernel_degrees;  ///< q_i = sum_j K_ij, N (before the alpha normalization)

  /// Throws invalid_argument("model") unless the fields fit together (e.g. after a model file).
  void check_state() const {
    check_embedding_state(*this);
    training.check_state(this->coordinates.rows());
    require_state(kernel_degrees.size() == training.size() && (kernel_degrees.array() > 0).all(),
                  "N positive kernel degrees");
    require_state(bandwidth > 0 && alpha >= 0 && alpha <= 1, "bandwidth > 0, alpha in [0, 1]");
    require_state((this->eigenvalues.array() > 0).all(), "positive eigenvalues");
  }

  template <class Visitor>
  void visit(Visitor& v) {
    v("bandwidth", bandwidth, FieldRole::result);
    v("alpha", alpha, FieldRole::result);
    v("diffusion_time", diffusion_time, FieldRole::result);
    training.visit(v);
    v("kernel_degrees", kernel_degrees, FieldRole::state);
  }

 private:
  friend routines::PlacesByTrainingNeighbors<DiffusionMapsModel<T>>;

  /// What transform(X_new[, k]) (routines::PlacesByTrainingNeighbors) does with the neighbors it finds:
  /// Nystrom extension (Coifman & Lafon 2006, sec. 3; Bengio et al. 2004) of new points (P x D,
  /// finite, same D) over the training points the graph's selector would join them to (docs/models.md,
  /// "What a new point gets"): for a new point x, the kernel to them with the same epsilon and alpha
  /// normalization, p(x, x_i) = K^(a)(x, x_i) / sum_i K^(a)(x, x_i), and coordinate
  /// j = (1 / lambda_j) sum_i p(x, x_i) Y_ij (Y = the training coordinates); a new point equal to a
  /// training point gets its coordinates. O(P k (log N + d)) for k neighbors each.
  /// \throws nldr::invalid_argument naming "X_new" (bad shape, non-finite, or a point so far from the
  /// training data that every kernel value underflows).
  Matrix<T> place(const detail::NeighborLists<T>& neighbors, const PointsRef<T>& X_new) const;
};

template <Real T>
Matrix<T> DiffusionMapsModel<T>::place(const detail::NeighborLists<T>& neighbors, const PointsRef<T>& X_new) const {
  const Eigen::Index dim = this->coordinates.cols();
  Matrix<T> Y = routines::place_by_neighbors(
      neighbors, this->coordinates, X_new, [&](const Eigen::RowVectorXd&, auto members, auto distances) {
        std::vector<double> kernel(members.size());
        double q = 0;
        for (std::size_t a = 0; a < members.size(); ++a) {
          const double dist = double(distances[a]);
          kernel[a] = std::exp(-dist * dist / bandwidth);
          q += kernel[a];
        }
        Eigen::RowVectorXd sum = Eigen::RowVectorXd::Zero(dim);
        if (!(q > 0))  // every kernel value underflows: a NaN row, refused below
          return Eigen::RowVectorXd(Eigen::RowVectorXd::Constant(dim, std::numeric_limits<double>::quiet_NaN()));
        double degree = 0;
        for (std::size_t a = 0; a < members.size(); ++a) {
          const double w = kernel[a] / std::pow(q * kernel_degrees[members[a]], alpha);
          sum += w * this->coordinates.row(members[a]).template cast<double>();
          degree += w;
        }
        return Eigen::RowVectorXd((sum / degree).cwiseQuotient(this->eigenvalues.transpose().template cast<double>()));
      });
  for (Eigen::Index p = 0; p < Y.rows(); ++p)
    if (!Y.row(p).allFinite())
      throw_invalid("X_new", "X_new row ", p, " is so far from the training points that the kernel to all its ",
                    neighbors.offsets[p + 1] - neighbors.offsets[p], " training neighbors underflows to 0 ",
                    "(bandwidth = ", bandwidth, "): it cannot be placed; raise the bandwidth");
  return Y;
}

NLDR_PRECOMPILED(Matrix<float> DiffusionMapsModel<float>::place(
    const detail::NeighborLists<float>&, const PointsRef<float>&) const)
NLDR_PRECOMPILED(Matrix<double> DiffusionMapsModel<double>::place(
    const detail::NeighborLists<double>&, const PointsRef<double>&) const)

namespace detail {

/// Checks alpha, diffusion_time and bandwidth (the rules of DiffusionMapsOptions); also used by the
/// distributed diffusion maps (nldr/mpi/diffusion_maps.hpp).
inline void validate_diffusion_parameters(double alpha, double diffusion_time, double bandwidth) {
  if (!(alpha >= 0 && alpha <= 1))
    throw_invalid("alpha", "alpha = ", alpha, " must lie in [0, 1] (0 graph Laplacian, 0.5 Fokker-Planck, "
                  "1 Laplace-Beltrami)");
  if (!(std::isfinite(diffusion_time) && diffusion_time >= 0))
    throw_invalid("diffusion_time", "diffusion_time = ", diffusion_time, " must be finite and >= 0");
  if (!(std::isfinite(bandwidth) && bandwidth >= 0))
    throw_invalid("bandwidth", "bandwidth = ", bandwidth, " must be finite and > 0, or 0 (automatic)");
}

/// I - S for S = D^-1/2 K^(a) D^-1/2 (lower triangle), with sqrt(D) (the deflated top vector) and epsilon.
struct DiffusionOperator {
  SparseLower lower;
  Eigen::VectorXd sqrt_degree;
  Eigen::VectorXd kernel_degrees;
  double bandwidth = 0;
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
  // The bandwidth that keeps every point's nearest neighbor above e^-30 ~ 1e-13 (not lost beside K_ii = 1).
  double needed = 0;
  index_t first = -1;
  for (index_t i = 0; i < n; ++i) {
    if (!isolated[std::size_t(i)]) continue;
    if (first < 0) first = i;
    double nearest = std::numeric_limits<double>::infinity();
    for (offset_t e = offsets[i]; e < offsets[i + 1]; ++e) nearest = std::min(nearest, double(distances[e]));
    needed = std::max(needed, nearest * nearest / 30);
  }
  if (first >= 0)
    throw_invalid("bandwidth", "bandwidth = ", op.bandwidth, " makes every kernel value of point ", first,
                  " to its neighbors underflow to 0, cutting it off the graph: use bandwidth = ", needed,
                  " or more, or standardize the features (features on very different scales do this)");
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

  // Lower triangle of I - S.
  op.lower = lower_on_graph(
      sym, [&](index_t i) { return 1.0 - q_alpha[i] * q_alpha[i] / (op.sqrt_degree[i] * op.sqrt_degree[i]); },
      [&](offset_t e, index_t i, index_t j) { return -kernel[e] / (op.sqrt_degree[i] * op.sqrt_degree[j]); });
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
  template <Real T>
  DiffusionMapsModel<T> fit(const PointsArg<T>& X, const NeighborGraph<T>& graph) const;
};

template <Real T>
DiffusionMapsModel<T> DiffusionMaps::fit(const PointsArg<T>& X, const NeighborGraph<T>& graph) const {
  routines::validate_graph_fit(X, graph, options.dim);
  detail::validate_diffusion_parameters(options.alpha, options.diffusion_time, options.bandwidth);
  detail::require_connected(graph, "diffusion-maps");

  DiffusionMapsModel<T> model;
  detail::DiffusionOperator op = detail::diffusion_operator(graph, options.bandwidth, options.alpha, model.times);
  report_progress(options.progress, 0.1, "diffusion-maps");
  // psi_j = phi_j / phi_0 with phi_0 = sqrt(D) / ||sqrt(D)||: psi_0 = 1, sum_i pi_i psi_j(i)^2 = 1.
  const detail::BottomEigenpairs pairs = routines::spectral_embedding(
      model, op.lower, options.dim, options.eigen, "diffusion-maps", op.sqrt_degree,
      op.sqrt_degree.norm() * op.sqrt_degree.cwiseInverse(), progress_part(options.progress, 0.1, 1));
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
  model.kernel_degrees = std::move(op.kernel_degrees);
  routines::keep_training_points(model, X, graph, 1);
  report_progress(options.progress, 1, "diffusion-maps");
  return model;
}

NLDR_GRAPH_EMBEDDER_FIT(DiffusionMaps, DiffusionMapsModel)

}  // namespace nldr
