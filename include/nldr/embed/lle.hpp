// Locally Linear Embedding (Roweis & Saul 2000) with its modified (Zhang & Wang 2007) and
// Hessian (Donoho & Grimes 2003) variants (Roy 2015, table 3.1; docs/algorithms.md sec. 3.5-3.7).
// Out of sample, for every variant (Saul & Roweis 2003, sec. 6.1; docs/methods/lle.md): a new point's
// regularized barycenter weights over its k nearest training points, applied to their coordinates.
//
// Every variant builds a sparse symmetric PSD matrix M = sum_i S_i B_i S_i^T from one small block
// per neighborhood, and embeds with the bottom d+1 eigenvectors of M, dropping the constant one:
//  - standard: B_i = v v^T, v = [1; -w_i], w_i the regularized barycenter weights, so M = (I-W)^T (I-W).
//  - modified: several weight vectors per point spanning the "almost null space" of the local Gram
//    (Zhang & Wang 2007, sec. 3-4), which makes the result stable when k > D and the weights degenerate.
//  - hessian:  B_i = H_i^T H_i, H_i the local Hessian estimator from the quadratic terms of the
//    tangent coordinates (Donoho & Grimes 2003, sec. 4 and their reference code hlle.m).
// The graph is used as given (directed kNN lists are fine, and so are the variable neighbor counts of
// pruning selectors); it must be connected, else M's null space is multiple (Xia et al. 2008, sec. 3).
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
#include <nldr/embed/detail/lle_weights.hpp>
#include <nldr/embed/detail/local_blocks.hpp>
#include <nldr/embed/detail/local_tangent.hpp>
#include <nldr/embed/detail/sparse_eigen.hpp>
#include <nldr/embed/eigen_options.hpp>
#include <nldr/embed/embedder.hpp>
#include <nldr/embed/embedding.hpp>
#include <nldr/embed/model_fields.hpp>
#include <nldr/embed/routines/out_of_sample.hpp>
#include <nldr/embed/routines/spectral_fit.hpp>
#if defined(NLDR_HAVE_SUITESPARSE)
#include <nldr/embed/detail/gram_eigen.hpp>
#endif
#include <nldr/neighbors/graph.hpp>
#include <nldr/neighbors/point_index.hpp>

#include <Eigen/Core>
#include <Eigen/QR>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace nldr {

/// Which LLE: the original, modified LLE (MLLE) or Hessian LLE (HLLE).
enum class LleVariant { standard, modified, hessian };

/// Options of LocallyLinearEmbedding.
struct LleOptions {
  index_t dim = 2;                          ///< target dimension d, 1 <= d <= D and d + 1 < N
  double reg = 1e-3;                        ///< Gram regularization r = reg * trace(C) (fit: standard, modified; transform: all), > 0
  LleVariant variant = LleVariant::standard;
  double hessian_tol = 1e-4;                ///< HLLE: Hessian-estimator columns whose sum is below this are not rescaled, >= 0
  double modified_tol = 1e-12;              ///< MLLE: a Householder vector shorter than this is taken as 0, >= 0
  BottomEigenOptions eigen{};               ///< bottom-eigenpair solver settings
  /// Optional progress and cancel hook (core/progress.hpp): the local weights report 0 .. 0.5 by
  /// blocks of ~1% of the points, the eigensolver 0.5 .. 1 (docs/tool.md, "Progress and logging").
  ProgressCallback progress{};

  /// The parameters a caller names (core/described.hpp; docs/registry.md).
  template <class Visitor>
  void describe(Visitor& v) {
    v.number("dim", dim, {1, 1e9}, "target dimension d");
    if (variant == LleVariant::hessian)
      v.number("hessian_tol", hessian_tol, {0, 1e300},
               "Hessian-estimator columns whose sum is below this are not rescaled");
    else
      v.number("reg", reg, {1e-300, 1e300}, "regularization of the local Gram matrices, relative to their trace");
    eigen.describe(v);
  }
};

/// A fitted LLE: N x d coordinates (unit-norm, mutually orthogonal columns), the d eigenvalues of M
/// behind them, timings ("weights", "assembly", "eigensolve"), solver diagnostics, and what transform needs.
template <Real T>
struct LleModel : Embedding<T>, routines::PlacesByTrainingNeighbors<LleModel<T>> {
  /// sum_i ||x_i - sum_j w_ij x_j||^2 with the regularized barycenter weights (standard, modified);
  /// NaN for hessian, which has no reconstruction weights.
  double reconstruction_error = std::numeric_limits<double>::quiet_NaN();
  /// tr(Y^T M Y) = sum of the d eigenvalues: the embedding's cost (scikit-learn's reconstruction_error_).
  double embedding_cost = 0;
  /// Regularization of the transform's weights (the fit's reg).
  double reg = 1e-3;
  /// Training points, their search index and the rule that gives a new point its neighbors (>= d + 1).
  routines::TrainingNeighbors<T> training;

  /// Throws invalid_argument("model") unless the fields fit together (e.g. after a model file).
  void check_state() const {
    check_embedding_state(*this);
    training.check_state(this->coordinates.rows());
    require_state(training.minimum > this->coordinates.cols(), "new points get more than d neighbors");
    require_state(reg > 0, "reg > 0");
  }

  template <class Visitor>
  void visit(Visitor& v) {
    v("reconstruction_error", reconstruction_error, FieldRole::result);
    v("embedding_cost", embedding_cost, FieldRole::result);
    v("reg", reg, FieldRole::state);
    training.visit(v);
  }

 private:
  friend routines::PlacesByTrainingNeighbors<LleModel<T>>;

  /// What transform(X_new[, k]) (routines::PlacesByTrainingNeighbors) does with the neighbors it finds:
  /// Places new points (P x D, finite, same D) from the training points the graph's selector
  /// would join them to (docs/models.md, "What a new point gets"): y = sum_j w_j y_j with
  /// the barycenter weights of x over its k neighbors (a new point equal to a training point gets
  /// that point's coordinates). O(P k^2 D).
  /// \throws nldr::invalid_argument naming "X_new".
  Matrix<T> place(const detail::NeighborLists<T>& neighbors, const PointsRef<T>& X_new) const;
};

template <Real T>
Matrix<T> LleModel<T>::place(const detail::NeighborLists<T>& neighbors, const PointsRef<T>& X_new) const {
  const Eigen::Index d = this->coordinates.cols();
  const Matrix<T>& points = training.points.points();
  return routines::place_by_neighbors(
      neighbors, this->coordinates, X_new, [&](const Eigen::RowVectorXd& x, auto members, auto) {
        const auto k = index_t(members.size());
        Eigen::MatrixXd Z(k, points.cols());
        for (index_t a = 0; a < k; ++a) Z.row(a) = points.row(members[a]).template cast<double>() - x;
        const Eigen::VectorXd w = detail::barycenter_weights(Z, reg);
        Eigen::RowVectorXd y = Eigen::RowVectorXd::Zero(d);
        for (index_t a = 0; a < k; ++a) y += w[a] * this->coordinates.row(members[a]).template cast<double>();
        return y;
      });
}

NLDR_PRECOMPILED(Matrix<float> LleModel<float>::place(
    const detail::NeighborLists<float>&, const PointsRef<float>&) const)
NLDR_PRECOMPILED(Matrix<double> LleModel<double>::place(
    const detail::NeighborLists<double>&, const PointsRef<double>&) const)

/// Fewest neighbors per point each variant needs for dimension d: standard and modified d + 1 (the
/// weights must span d directions), hessian 1 + d + d(d+1)/2 (a full quadratic fit in d variables).
inline index_t lle_min_neighbors(LleVariant variant, index_t dim) {
  return variant == LleVariant::hessian ? 1 + dim + dim * (dim + 1) / 2 : dim + 1;
}

/// "lle", "modified-lle" or "hessian-lle".
inline std::string lle_name(LleVariant variant) {
  switch (variant) {
    case LleVariant::modified: return "modified-lle";
    case LleVariant::hessian: return "hessian-lle";
    default: return "lle";
  }
}

/// Why each variant needs lle_min_neighbors, for the error message.
inline const char* lle_min_neighbors_reason(LleVariant variant) {
  return variant == LleVariant::hessian ? "1 + d + d(d+1)/2 for the local quadratic fit" : "d + 1 for the local weights";
}

namespace detail {

/// The checks of reg and hessian_tol (shared with the distributed LLE, nldr/mpi/lle.hpp).
inline void validate_reg_and_hessian_tol(double reg, double hessian_tol) {
  validate_positive(reg, "reg");
  if (!(std::isfinite(hessian_tol) && hessian_tol >= 0))
    throw_invalid("hessian_tol", "hessian_tol = ", hessian_tol, " must be finite and >= 0");
}

/// The regularized barycenter weights of row `center` of `points` over the rows `neighbors` (list
/// order); `error` receives ||x_center - sum_j w_j x_j||^2.
template <class Points, class Members>
Eigen::VectorXd point_weights(const Points& points, const Members& neighbors, Eigen::Index center, double reg,
                              double& error) {
  const Eigen::MatrixXd Z = neighborhood(points, neighbors, points.row(center));
  Eigen::VectorXd w = barycenter_weights(Z, reg);
  error = (Z.transpose() * w).squaredNorm();
  return w;
}

/// Standard LLE's block of one point on [center, neighbors...]: v v^T with v = [1; -w], w its
/// barycenter weights; returns their reconstruction error. Shared with the distributed LLE
/// (nldr/mpi/lle.hpp), which passes a table of its own and its fetched rows as `points`.
template <class Points, class Members>
double standard_lle_block(const Points& points, const Members& neighbors, Eigen::Index center, double reg,
                          Eigen::Map<Eigen::MatrixXd>& block) {
  double error = 0;
  const Eigen::VectorXd w = point_weights(points, neighbors, center, reg, error);
  Eigen::VectorXd v(w.size() + 1);
  v << 1.0, -w;
  block = v * v.transpose();
  return error;
}

/// HLLE block of one point (Donoho & Grimes 2003, sec. 4): on its k neighbors (not the point itself, as
/// in hlle.m and scikit-learn), U = top-d local PCA coordinates, Yi = [1, U, U_a * U_b (a <= b)];
/// orthonormalizing Yi (thin QR), the columns past the 1 + d affine ones span the quadratic part and
/// estimate the Hessian: W = those columns, B_i = W W^T. Each column of W is divided by its sum unless
/// |sum| < hessian_tol (hlle.m's normalization, kept by scikit-learn). Unlike scikit-learn, which takes
/// all k - 1 - d columns of the *full* Q (adding the orthogonal complement of Yi), only the d(d+1)/2
/// Hessian columns are used, as in the paper.
template <class Points, class Members>
void hessian_block(const Points& points, const Members& members, index_t dim, double hessian_tol,
                   Eigen::Map<Eigen::MatrixXd>& block) {
  const Eigen::Index k = Eigen::Index(members.size()), d = dim, dp = d * (d + 1) / 2;
  const LocalSpectrum local = gram_spectrum(centered_neighborhood(points, members));
  Eigen::MatrixXd Yi(k, 1 + d + dp);
  Yi.col(0).setOnes();
  Yi.middleCols(1, d) = local.vectors.leftCols(d);
  Eigen::Index column = 1 + d;
  for (Eigen::Index a = 0; a < d; ++a)
    for (Eigen::Index b = a; b < d; ++b) Yi.col(column++) = local.vectors.col(a).cwiseProduct(local.vectors.col(b));
  const Eigen::HouseholderQR<Eigen::MatrixXd> qr(Yi);
  const Eigen::MatrixXd Q = qr.householderQ() * Eigen::MatrixXd::Identity(k, 1 + d + dp);
  Eigen::MatrixXd W = Q.rightCols(dp);
  for (Eigen::Index c = 0; c < dp; ++c) {
    const double sum = W.col(c).sum();
    if (std::abs(sum) >= hessian_tol) W.col(c) /= sum;
  }
  block = W * W.transpose();
}

/// MLLE's spectral ratio of one neighborhood (Zhang & Wang 2007, eq. 11): the sum of the local Gram
/// eigenvalues past the d-th over the sum of the top d, over the min(k, D) possibly non-zero ones.
inline double modified_lle_ratio(const Eigen::VectorXd& values, Eigen::Index dim, Eigen::Index nonzero) {
  const double top = values.head(dim).sum();
  return top > 0 ? values.segment(dim, nonzero - dim).sum() / top : 0.0;
}

/// The MLLE matrix (Zhang & Wang 2007, Algorithm MLLE; the formulation of scikit-learn 1.2):
/// per point, with Z = neighbors - x_i (k x D), V = eigenvectors of Z Z^T (descending), lambda its
/// eigenvalues, w the regularized barycenter weights:
///  - eta = median over points of the spectral ratio rho_i (modified_lle_ratio);
///  - s_i = (k - nev) + #{j < nev - 1 : sum_{l>j} lambda_l / sum_{l<=j} lambda_l < eta}, nev = min(k, D),
///    clamped to [1, k - d]: the size of the "almost null space";
///  - V_i = the bottom s_i eigenvectors, alpha = ||V_i^T 1|| / sqrt(s_i), h = alpha 1 - V_i^T 1 normalized
///    (0 when shorter than modified_tol), W_i = V_i (I - 2 h h^T) + (1 - alpha) w 1^T  (k x s_i);
///  - block on [i, N(i)]: [[s_i, -(W_i 1)^T], [-W_i 1, W_i W_i^T]].
/// errors[i] receives the reconstruction error of w.
template <Real T>
SparseLower modified_lle_matrix(const Matrix<double>& points, const NeighborGraph<T>& graph, index_t dim, double reg,
                                double modified_tol, std::vector<double>& errors, StageTimes& times,
                                const ProgressCallback& progress = {}) {
  const index_t n = graph.size();
  const Eigen::Index d = dim, d_in = points.cols();
  Stopwatch clock;
  std::vector<double> ratios(static_cast<std::size_t>(n));
  parallel_for_reporting(
      0, n,
      [&](std::int64_t i) {
        const auto members = graph.neighbors(index_t(i));
        const LocalSpectrum local = gram_spectrum(neighborhood(points, members, points.row(i)));
        ratios[i] = modified_lle_ratio(local.values, d, std::min<Eigen::Index>(Eigen::Index(members.size()), d_in));
      },
      progress_part(progress, 0, 0.5), "the local spectra");
  // np.median: the mean of the two middle values for even N.
  std::vector<double> sorted = ratios;
  std::sort(sorted.begin(), sorted.end());
  const double eta = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
  const double ratio_seconds = clock.seconds();

  SparseLower M = assemble_blocks(
      index_sets(graph, true),
      [&](index_t i, Eigen::Map<Eigen::MatrixXd>& block) {
        const auto members = graph.neighbors(i);
        const Eigen::Index k = Eigen::Index(members.size()), nev = std::min(k, d_in);
        const Eigen::MatrixXd Z = neighborhood(points, members, points.row(i));
        const Eigen::VectorXd w = barycenter_weights(Z, reg);
        errors[i] = (Z.transpose() * w).squaredNorm();
        const LocalSpectrum local = gram_spectrum(Z);
        Eigen::Index s = k - nev;
        double head = 0, total = local.values.head(nev).sum();
        for (Eigen::Index j = 0; j + 1 < nev; ++j) {
          head += local.values[j];
          if (head > 0 && total / head - 1 < eta) ++s;
        }
        s = std::clamp<Eigen::Index>(s, 1, k - d);
        const Eigen::MatrixXd V = local.vectors.rightCols(s);
        const Eigen::VectorXd column_sums = V.colwise().sum().transpose();
        const double alpha = column_sums.norm() / std::sqrt(double(s));
        Eigen::VectorXd h = Eigen::VectorXd::Constant(s, alpha) - column_sums;
        const double h_norm = h.norm();
        if (h_norm < modified_tol) h.setZero();
        else h /= h_norm;
        Eigen::MatrixXd Wi = V - 2 * (V * h) * h.transpose();
        Wi.colwise() += (1 - alpha) * w;
        const Eigen::VectorXd row_sums = Wi.rowwise().sum();
        block(0, 0) = double(s);
        block.col(0).tail(k) = -row_sums;
        block.row(0).tail(k) = -row_sums.transpose();
        block.bottomRightCorner(k, k) = Wi * Wi.transpose();
      },
      times, progress_part(progress, 0.5, 1));
  times.stages[times.stages.size() - 2].second += ratio_seconds;  // the eta pass is part of the weights stage
  return M;
}

/// The LLE matrix M of `options.variant` (lower triangle, N x N) for points (N x D) and the graph's
/// neighbor lists; errors[i] (size N) receives point i's weight reconstruction error (standard, modified).
/// Records the "weights" and "assembly" stages; `progress` hears the local weights done. Inputs are
/// assumed validated (see embed()).
template <Real T>
SparseLower lle_matrix(const Matrix<double>& points, const NeighborGraph<T>& graph, const LleOptions& options,
                       std::vector<double>& errors, StageTimes& times, const ProgressCallback& progress = {}) {
  SparseLower M;
  switch (options.variant) {
    case LleVariant::standard:
      M = assemble_blocks(
          index_sets(graph, true),
          [&](index_t i, Eigen::Map<Eigen::MatrixXd>& block) {
            errors[i] = standard_lle_block(points, graph.neighbors(i), i, options.reg, block);
          },
          times, progress);
      break;
    case LleVariant::modified:
      M = modified_lle_matrix(points, graph, options.dim, options.reg, options.modified_tol, errors, times, progress);
      break;
    case LleVariant::hessian:
      M = assemble_blocks(
          index_sets(graph, false),
          [&](index_t i, Eigen::Map<Eigen::MatrixXd>& block) {
            hessian_block(points, graph.neighbors(i), options.dim, options.hessian_tol, block);
          },
          times, progress);
      break;
  }
  return M;
}

#if defined(NLDR_HAVE_SUITESPARSE)
/// A = I - W (N x N) for standard LLE's LU path (gram_eigen.hpp): row i holds 1 at i and -w_ij at
/// its neighbors j; errors[i] receives point i's reconstruction error. Records the "weights" and
/// "assembly" stages; `progress` hears the weights done.
template <Real T>
SparseSquare lle_weight_matrix(const Matrix<double>& points, const NeighborGraph<T>& graph, double reg,
                               std::vector<double>& errors, StageTimes& times, const ProgressCallback& progress = {}) {
  Stopwatch clock;
  const index_t n = graph.size();
  std::vector<int> offsets(std::size_t(n) + 1, 0);
  for (index_t i = 0; i < n; ++i) offsets[i + 1] = offsets[i] + int(graph.degree(i)) + 1;
  std::vector<int> columns(std::size_t(offsets.back()));
  std::vector<double> values(columns.size());
  parallel_for_reporting(
      0, n,
      [&](std::int64_t i) {
        const Eigen::VectorXd w = point_weights(points, graph.neighbors(index_t(i)), i, reg, errors[i]);
        const auto neighbors = graph.neighbors(index_t(i));
        int e = offsets[i];
        columns[e] = int(i);
        values[e++] = 1.0;
        for (std::size_t a = 0; a < neighbors.size(); ++a, ++e) {
          columns[e] = neighbors[a];
          values[e] = -w[Eigen::Index(a)];
        }
      },
      progress, "the local weights");
  times.add("weights", clock.seconds());
  clock.restart();
  const Eigen::Map<const Eigen::SparseMatrix<double, Eigen::RowMajor, int>> rows(
      n, n, offsets.back(), offsets.data(), columns.data(), values.data());
  SparseSquare A = rows;  // column-major copy, rows ascending in every column
  times.add("assembly", clock.seconds());
  return A;
}
#endif

}  // namespace detail

/// Locally Linear Embedding. Usage: `LocallyLinearEmbedding{{.dim = 2, .reg = 1e-3}}.fit(X, graph)`.
struct LocallyLinearEmbedding {
  LleOptions options;

  /// Embeds X (N x D, finite) using the neighbor lists of `graph` (N points, connected, every point with
  /// at least lle_min_neighbors(variant, dim) neighbors). Local geometry and the eigenproblem run in
  /// double whatever T is. Cost: O(N k^3 + N k^2 D) for the weights, then one sparse LDLT of M.
  /// \throws nldr::invalid_argument on bad input or options, nldr::disconnected_graph,
  ///         nldr::convergence_error when the eigensolver fails.
  template <Real T>
  LleModel<T> fit(const PointsArg<T>& X, const NeighborGraph<T>& graph) const;

  /// "lle", "modified-lle" or "hessian-lle".
  std::string name() const { return lle_name(options.variant); }

 private:
  void validate_options(Eigen::Index d_in) const {
    validate_dim_within_input(options.dim, d_in);
    detail::validate_reg_and_hessian_tol(options.reg, options.hessian_tol);
    if (!(std::isfinite(options.modified_tol) && options.modified_tol >= 0))
      throw_invalid("modified_tol", "modified_tol = ", options.modified_tol, " must be finite and >= 0");
    if (options.variant != LleVariant::standard && options.variant != LleVariant::modified &&
        options.variant != LleVariant::hessian)
      throw_invalid("variant", "variant = ", int(options.variant), " is not a LleVariant");
    detail::validate_solver_options(options.eigen);
    if (options.eigen.factorization == Factorization::lu && options.variant != LleVariant::standard)
      throw_invalid("factorization", name(), ": factorization = lu applies to standard LLE only (it factorizes I - W, "
                    "which the ", name(), " matrix is not built from): use automatic or supernodal");
  }
};

template <Real T>
LleModel<T> LocallyLinearEmbedding::fit(const PointsArg<T>& X, const NeighborGraph<T>& graph) const {
  const std::string method = name();
  routines::validate_graph_fit(X, graph, options.dim);
  validate_options(X.cols());
  detail::require_min_degree(graph, lle_min_neighbors(options.variant, options.dim), method,
                             lle_min_neighbors_reason(options.variant));
  detail::require_connected(graph, method);

  const Matrix<double> points = X.template cast<double>();
  LleModel<T> result;
  std::vector<double> errors(std::size_t(graph.size()), 0.0);
  const int nev = int(options.dim) + 1;
  std::optional<detail::BottomEigenpairs> pairs;
  ProgressCallback weights_progress = progress_part(options.progress, 0, 0.5);
  const ProgressCallback eigen_progress = progress_part(options.progress, 0.5, 1);
#if defined(NLDR_HAVE_SUITESPARSE)
  if (options.variant == LleVariant::standard && detail::use_weights_lu(options.eigen, X.rows(), nev)) {
    const detail::SparseSquare A =
        detail::lle_weight_matrix(points, graph, options.reg, errors, result.times, weights_progress);
    Stopwatch clock;
    pairs = detail::gram_bottom_eigenpairs(A, nev, options.eigen, method, eigen_progress);
    result.times.add("eigensolve", clock.seconds());
    if (!pairs && options.eigen.factorization == Factorization::lu)
      throw convergence_error(method + ": the sparse LU of I - W failed (singular or too ill-conditioned): check "
                                       "the input for duplicate points, raise reg, or use "
                                       "eigen.factorization = supernodal");
    weights_progress = progress_part(options.progress, 0.5, 0.5);  // weights again: the fraction stays
  }
#endif
  if (pairs) {
    detail::fill_spectral_embedding(result, *pairs, Eigen::VectorXd());
  } else {  // M itself, factorized (also where the LU of I - W failed under `automatic`)
    const detail::SparseLower M = detail::lle_matrix(points, graph, options, errors, result.times, weights_progress);
    // Every variant's blocks annihilate the constant vector (weights sum to 1; HLLE's and MLLE's
    // block columns are orthogonal to 1), so M 1 = 0: deflate it.
    pairs = routines::spectral_embedding(result, M, options.dim, options.eigen, method, Eigen::VectorXd::Ones(M.rows()),
                                         Eigen::VectorXd(), eigen_progress);
  }
  result.embedding_cost = pairs->values.tail(options.dim).sum();
  if (options.variant != LleVariant::hessian) {
    result.reconstruction_error = 0;
    for (double e : errors) result.reconstruction_error += e;  // serial: thread-count independent
  }
  result.reg = options.reg;
  routines::keep_training_points(result, X, graph, options.dim + 1);
  report_progress(options.progress, 1, method);
  return result;
}

NLDR_GRAPH_EMBEDDER_FIT(LocallyLinearEmbedding, LleModel)

}  // namespace nldr
