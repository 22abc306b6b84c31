// Principal component analysis (Pearson 1901; Hotelling 1933; docs/algorithms.md sec. 3.1).
// Two paths, chosen automatically, both on BLAS products in the data's scalar (float data stays
// float; embed/detail/dense_products.hpp), with the small decompositions in double:
//  - covariance: eigen-decomposition of the D x D covariance C = Xc^T Xc / (N - 1), O(N D^2 + D^3);
//    exact, the right choice for small D;
//  - randomized: truncated SVD by randomized subspace iteration (Halko, Martinsson & Tropp 2011,
//    Algorithm 4.4) with l = dim + oversampling Gaussian test vectors and q power iterations, then
//    Rayleigh-Ritz on the l-dimensional subspace found; O(N D l q). The right choice for large D
//    (e.g. 784-D images) when dim is small.
// Variances use the N - 1 normalization, as scikit-learn's explained_variance_.
#pragma once

#include <nldr/core/described.hpp>
#include <nldr/core/error.hpp>
#include <nldr/core/precompiled.hpp>
#include <nldr/core/progress.hpp>
#include <nldr/core/random.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>
#include <nldr/embed/detail/dense_products.hpp>
#include <nldr/embed/detail/signs.hpp>
#include <nldr/embed/embedder.hpp>
#include <nldr/embed/embedding.hpp>
#include <nldr/embed/model_fields.hpp>

#include <Eigen/Core>
#include <Eigen/Eigenvalues>
#include <Eigen/QR>
#include <Spectra/MatOp/DenseSymMatProd.h>
#include <Spectra/SymEigsSolver.h>
#include <algorithm>
#include <array>
#include <concepts>
#include <cstdint>
#include <string>
#include <type_traits>

namespace nldr {

/// Which PCA algorithm runs.
enum class PcaAlgorithm {
  automatic,   ///< the fewer flops: covariance when D <= 2 (2 q + 3) l (l = dim + oversampling), else randomized
  covariance,  ///< exact: eigenpairs of the D x D covariance
  randomized,  ///< approximate: randomized truncated SVD (accuracy set by oversampling, power_iterations)
};

inline constexpr std::array<Choice<PcaAlgorithm>, 3> pca_algorithms{
    {{"automatic", PcaAlgorithm::automatic}, {"covariance", PcaAlgorithm::covariance},
     {"randomized", PcaAlgorithm::randomized}}};

/// Options of PCA.
struct PcaOptions {
  /// Number of components d, 1 <= d <= min(D, N).
  index_t dim = 2;
  PcaAlgorithm algorithm = PcaAlgorithm::automatic;
  /// Extra random test vectors of the randomized path (Halko et al. recommend 5-10); >= 0.
  index_t oversampling = 10;
  /// Power (subspace) iterations of the randomized path; more iterations sharpen a slowly
  /// decaying spectrum; >= 0.
  int power_iterations = 4;
  /// Seed of the random test matrix (randomized path only).
  std::uint64_t seed = 0;
  /// Optional progress and cancel hook (core/progress.hpp): 0.1 after the centering; the randomized
  /// path 0.1 .. 0.9 by passes over the data (the covariance path, one O(N D^2) product, reports
  /// nothing in between); 1 at the end (docs/tool.md, "Progress and logging").
  ProgressCallback progress{};

  /// The parameters a caller names (core/described.hpp; docs/registry.md).
  template <class Visitor>
  void describe(Visitor& v) {
    v.number("dim", dim, {1, 1e9}, "target dimension d");
    v.choice("algorithm", algorithm, pca_algorithms,
             "covariance eigen-decomposition (exact) or randomized SVD (large D)");
    v.number("seed", seed, seed_range, "random seed");
  }
};

/// A fitted PCA: the training embedding plus what `transform` needs.
template <Real T>
struct PcaModel : Embedding<T> {
  Vector<T> mean;                      ///< D: the training mean
  Matrix<T> components;                ///< d x D: orthonormal principal axes, one per row, by variance
  Vector<T> explained_variance;        ///< d: variance along each axis (also in `eigenvalues`)
  Vector<T> explained_variance_ratio;  ///< d: explained_variance / total_variance (0 if total is 0)
  double total_variance = 0;           ///< sum of the variances of all D coordinates

  /// Projects new points (P x D, finite, same D): (X_new - mean) components^T, P x d.
  /// The training points give back `coordinates`.
  /// \throws nldr::invalid_argument naming "X_new".
  template <class Derived>
  Matrix<T> transform(const Eigen::MatrixBase<Derived>& X_new) const {
    static_assert(std::is_same_v<typename Derived::Scalar, T>, "PcaModel::transform: same scalar as fit");
    if (X_new.rows() == 0) return Matrix<T>(0, components.rows());
    validate_points(X_new, "X_new");
    if (X_new.cols() != components.cols())
      throw_invalid("X_new", "X_new has D = ", X_new.cols(), " columns but the model was fit on D = ",
                    components.cols(), ": supply points of the same dimension");
    return (X_new.rowwise() - mean.transpose()) * components.transpose();
  }

  /// Throws invalid_argument("model") unless the fields fit together (e.g. after a model file).
  void check_state() const {
    check_embedding_state(*this);
    require_state(components.rows() == this->coordinates.cols() && components.cols() == mean.size() &&
                      mean.size() >= 1,
                  "components are d x D");
  }

  template <class Visitor>
  void visit(Visitor& v) {
    v("explained_variance", explained_variance, FieldRole::result);
    v("explained_variance_ratio", explained_variance_ratio, FieldRole::result);
    v("total_variance", total_variance, FieldRole::result);
    v("mean", mean, FieldRole::state);
    v("components", components, FieldRole::state);
  }
};

/// PCA of N x D points.
///
/// \code
/// nldr::Matrix<double> X = ...;                    // N x D
/// auto pca = nldr::Pca{{.dim = 2}}.fit(X);
/// pca.coordinates;                                 // N x 2
/// pca.explained_variance_ratio;                    // 2
/// auto y = pca.transform(X_new);                   // P x 2
/// \endcode
struct Pca {
  PcaOptions options;

  /// X: N x D points, finite, N >= 2 (one point per row).
  /// \throws nldr::invalid_argument naming "X", "dim", "oversampling" or "power_iterations".
  template <class Derived>
  PcaModel<typename Derived::Scalar> fit(const Eigen::MatrixBase<Derived>& X) const {
    using T = typename Derived::Scalar;
    static_assert(Real<T>, "nldr::Pca: the points must be float or double");
    return fit_points<T>(X.derived());
  }

 private:
  /// The top options.dim eigenpairs of the D x D covariance, descending: all D of them by one
  /// dense decomposition for small D (or dim near D), else by Lanczos on the covariance (Spectra's
  /// implicitly restarted Lanczos, to a relative 1e-12; a mat-vec costs D^2, nothing beside the
  /// N D^2 of forming the covariance), with the dense decomposition as the fallback.
  /// (A template only so that a unit instantiates the solvers where it calls them: docs/building.md,
  /// "Compile time".)
  void covariance_axes(const std::same_as<Eigen::MatrixXd> auto& covariance, Eigen::MatrixXd& axes,
                       Eigen::VectorXd& variance) const {
    const Eigen::Index d = covariance.rows(), dim = options.dim;
    const Eigen::Index ncv = std::min<Eigen::Index>(d, 2 * dim + 20);
    if (d > 200 && ncv < d) {
      Spectra::DenseSymMatProd<double> product(covariance);
      Spectra::SymEigsSolver<Spectra::DenseSymMatProd<double>> lanczos(product, dim, ncv);
      lanczos.init();
      lanczos.compute(Spectra::SortRule::LargestAlge, 1000, 1e-12);
      if (lanczos.info() == Spectra::CompInfo::Successful) {
        axes = lanczos.eigenvectors();
        variance = lanczos.eigenvalues().cwiseMax(0.0);
        return;
      }
    }
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(covariance);
    axes = solver.eigenvectors().rightCols(dim).rowwise().reverse();
    variance = solver.eigenvalues().tail(dim).reverse().cwiseMax(0.0);
  }

  /// Randomized subspace iteration (Halko, Martinsson & Tropp 2011, Alg. 4.4) on the covariance,
  /// then Rayleigh-Ritz: V spans (Xc^T Xc)^(q+1) Omega, the subspace Alg. 4.4 with q power
  /// iterations finds, each application of Xc^T Xc being two BLAS products in T followed by a QR of
  /// the small D x l result (in double). Orthonormalizing only there, not also the N x l product in
  /// between, saves the tall QRs; it resolves singular values down to sqrt(eps) of the largest
  /// (Halko et al., sec. 4.5), variances down to eps of the largest. Then Y = Xc V, the l x l Gram
  /// matrix Y^T Y = V^T (Xc^T Xc) V is decomposed in double: its eigenvectors W rotate V onto the
  /// axes (V W), its eigenvalues are the variances times N - 1, and Y W are the coordinates.
  template <Real T>
  void randomized_axes(const Matrix<T>& centered, Eigen::Index width, Eigen::MatrixXd& axes, Eigen::VectorXd& variance,
                       Matrix<T>& coordinates) const {
    const Eigen::Index n = centered.rows(), d = centered.cols();
    Random random(options.seed);
    Eigen::MatrixXd test(d, width);
    for (Eigen::Index j = 0; j < width; ++j)
      for (Eigen::Index i = 0; i < d; ++i) test(i, j) = random.normal();
    const auto orthonormal = [](const Eigen::MatrixXd& m) -> Matrix<T> {
      const Eigen::HouseholderQR<Eigen::MatrixXd> qr(m);
      return (qr.householderQ() * Eigen::MatrixXd::Identity(m.rows(), m.cols())).template cast<T>();
    };
    // Each application of the covariance is one pass over the data (two products).
    const auto passes_done = [&](int passes) {
      report_progress(options.progress, 0.1 + 0.8 * passes / (options.power_iterations + 2.0), "PCA");
    };
    Matrix<T> basis = orthonormal(test);  // D x width
    for (int q = 0; q <= options.power_iterations; ++q) {
      const Matrix<T> image = detail::product(centered, basis);                    // N x width
      basis = orthonormal(detail::transposed_product(centered, image));  // D x width
      passes_done(q + 1);
    }
    const Matrix<T> image = detail::product(centered, basis);  // N x width
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> ritz(detail::gram(image));
    Eigen::MatrixXd rotation = ritz.eigenvectors().rightCols(options.dim).rowwise().reverse();  // width x dim
    axes = basis.template cast<double>() * rotation;
    for (Eigen::Index c = 0; c < axes.cols(); ++c) {  // the signs of detail::fix_signs, carried to the rotation
      Eigen::Index arg = 0;
      axes.col(c).cwiseAbs().maxCoeff(&arg);
      if (axes(arg, c) < 0) {
        axes.col(c) *= -1;
        rotation.col(c) *= -1;
      }
    }
    variance = ritz.eigenvalues().tail(options.dim).reverse().cwiseMax(0.0) / double(n - 1);
    coordinates = detail::product(image, Matrix<T>(rotation.template cast<T>()));
  }

  /// The fit for one scalar (compiled once in nldr::registry: core/precompiled.hpp).
  template <Real T>
  PcaModel<T> fit_points(const PointsRef<T>& X) const;
};

template <Real T>
PcaModel<T> Pca::fit_points(const PointsRef<T>& X) const {
  validate_points(X, "X", 2);
  validate_not_all_identical(X);
  validate_distance_range<double>(X, X.rows());  // the covariance sums N squares, in double
  const Eigen::Index n = X.rows(), d = X.cols();
  if (options.dim < 1 || options.dim > std::min(d, n))
    throw_invalid("dim", "dim = ", options.dim, " must lie in [1, min(D, N) = ", std::min(d, n),
                  "]: lower dim");
  if (options.oversampling < 0)
    throw_invalid("oversampling", "oversampling = ", options.oversampling, " must be >= 0");
  if (options.power_iterations < 0)
    throw_invalid("power_iterations", "power_iterations = ", options.power_iterations, " must be >= 0");

  PcaModel<T> model;
  Stopwatch watch;
  // The centered copy is in T (float data: half the memory, and every product below runs in
  // float on the BLAS); the mean and the total variance are summed in double.
  // Row by row: contiguous for row-major input (Eigen's colwise() on it strides).
  Eigen::RowVectorXd mean = Eigen::RowVectorXd::Zero(d);
  for (Eigen::Index i = 0; i < n; ++i) mean += X.row(i).template cast<double>();
  mean /= double(n);
  Matrix<T> centered(n, d);
  double squares = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    centered.row(i) = (X.row(i).template cast<double>() - mean).template cast<T>();
    squares += centered.row(i).template cast<double>().squaredNorm();
  }
  model.total_variance = squares / double(n - 1);
  model.times.add("centering", watch.seconds());
  report_progress(options.progress, 0.1, "PCA");

  watch.restart();
  // automatic: the fewer flops. The covariance costs N D^2 (its eigenpairs, at most O(D^3), are
  // small beside it for N >> D); the randomized path 2 N D l per product, 2 q + 3 products.
  const Eigen::Index width = std::min({Eigen::Index(options.dim) + options.oversampling, d, n});
  const bool randomized = options.algorithm == PcaAlgorithm::randomized ||
                          (options.algorithm == PcaAlgorithm::automatic &&
                           d > 2 * (2 * Eigen::Index(options.power_iterations) + 3) * width);
  Eigen::MatrixXd axes;  // D x dim, columns
  Eigen::VectorXd variance;
  if (randomized) {
    randomized_axes(centered, width, axes, variance, model.coordinates);
    model.diagnostics.solver = "randomized-svd";
    model.diagnostics.iterations = options.power_iterations;
  } else {
    covariance_axes(Eigen::MatrixXd(detail::gram(centered) / double(n - 1)), axes, variance);
    detail::fix_signs(axes);
    model.diagnostics.solver = "covariance";
  }
  model.times.add("eigensolve", watch.seconds());

  watch.restart();
  model.mean = mean.transpose().template cast<T>();
  model.components = axes.transpose().template cast<T>();
  model.explained_variance = variance.template cast<T>();
  model.eigenvalues = model.explained_variance;
  model.explained_variance_ratio =
      model.total_variance > 0 ? Vector<T>((variance / model.total_variance).template cast<T>())
                               : Vector<T>(Vector<T>::Zero(options.dim));
  if (!randomized) model.coordinates = detail::product(centered, Matrix<T>(axes.template cast<T>()));
  model.times.add("projection", watch.seconds());
  report_progress(options.progress, 1, "PCA");
  return model;
}

NLDR_PRECOMPILED(PcaModel<float> Pca::fit_points<float>(const PointsRef<float>&) const)
NLDR_PRECOMPILED(PcaModel<double> Pca::fit_points<double>(const PointsRef<double>&) const)

static_assert(PointEmbedder<Pca, float> && PointEmbedder<Pca, double>);

}  // namespace nldr
