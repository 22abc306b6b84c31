// Principal component analysis (Pearson 1901; Hotelling 1933; docs/algorithms.md sec. 3.1).
// Two paths, chosen automatically:
//  - covariance: eigen-decomposition of the D x D covariance C = Xc^T Xc / (N - 1), O(N D^2 + D^3);
//    exact, the right choice for small D;
//  - randomized: truncated SVD by randomized subspace iteration (Halko, Martinsson & Tropp 2011,
//    Algorithms 4.4 and 5.1): l = dim + oversampling Gaussian test vectors, q power iterations
//    with QR re-orthonormalization, then the SVD of the small l x D matrix Q^T Xc; O(N D l q).
//    The right choice for large D (e.g. 784-D images) when dim is small.
// Variances use the N - 1 normalization, as scikit-learn's explained_variance_.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/progress.hpp>
#include <nldr/core/random.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>
#include <nldr/embed/detail/signs.hpp>
#include <nldr/embed/embedder.hpp>
#include <nldr/embed/embedding.hpp>
#include <nldr/embed/model_fields.hpp>

#include <Eigen/Core>
#include <Eigen/Eigenvalues>
#include <Eigen/QR>
#include <Eigen/SVD>
#include <algorithm>
#include <concepts>
#include <cstdint>
#include <string>
#include <type_traits>

namespace nldr {

/// Which PCA algorithm runs.
enum class PcaAlgorithm {
  automatic,   ///< covariance when D <= 256 or dim + oversampling > D / 4, else randomized
  covariance,  ///< exact: D x D covariance eigen-decomposition
  randomized,  ///< approximate: randomized truncated SVD (accuracy set by oversampling, power_iterations)
};

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
    visit_embedding(v, *this);
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
    const Eigen::RowVectorXd mean = X.template cast<double>().colwise().mean();
    const Eigen::MatrixXd centered = X.template cast<double>().rowwise() - mean;
    model.total_variance = centered.squaredNorm() / double(n - 1);
    model.times.add("centering", watch.seconds());
    report_progress(options.progress, 0.1, "PCA");

    watch.restart();
    const bool randomized = options.algorithm == PcaAlgorithm::randomized ||
                            (options.algorithm == PcaAlgorithm::automatic && d > 256 &&
                             4 * (Eigen::Index(options.dim) + options.oversampling) <= d);
    Eigen::MatrixXd axes;  // D x dim, columns
    Eigen::VectorXd variance;
    if (randomized) {
      randomized_axes(centered, axes, variance);
      model.diagnostics.solver = "randomized-svd";
      model.diagnostics.iterations = options.power_iterations;
    } else {
      const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(centered.transpose() * centered / double(n - 1));
      axes = solver.eigenvectors().rightCols(options.dim).rowwise().reverse();
      variance = solver.eigenvalues().tail(options.dim).reverse().cwiseMax(0.0);
      model.diagnostics.solver = "covariance";
    }
    detail::fix_signs(axes);
    model.times.add("eigensolve", watch.seconds());

    watch.restart();
    model.mean = mean.transpose().template cast<T>();
    model.components = axes.transpose().template cast<T>();
    model.explained_variance = variance.template cast<T>();
    model.eigenvalues = model.explained_variance;
    model.explained_variance_ratio =
        model.total_variance > 0 ? Vector<T>((variance / model.total_variance).template cast<T>())
                                 : Vector<T>(Vector<T>::Zero(options.dim));
    model.coordinates = (centered * axes).template cast<T>();
    model.times.add("projection", watch.seconds());
    report_progress(options.progress, 1, "PCA");
    return model;
  }

 private:
  /// Halko et al. (2011), Alg. 4.4 (randomized subspace iteration) + Alg. 5.1 (direct SVD). (A template only
  /// so that a unit instantiates the solvers where it calls them: docs/building.md, "Compile time".)
  void randomized_axes(const std::same_as<Eigen::MatrixXd> auto& centered, Eigen::MatrixXd& axes,
                       Eigen::VectorXd& variance) const {
    const Eigen::Index n = centered.rows(), d = centered.cols();
    const Eigen::Index width = std::min({Eigen::Index(options.dim) + options.oversampling, d, n});
    Random random(options.seed);
    Eigen::MatrixXd test(d, width);
    for (Eigen::Index j = 0; j < width; ++j)
      for (Eigen::Index i = 0; i < d; ++i) test(i, j) = random.normal();
    const auto orthonormal = [](const Eigen::MatrixXd& m) -> Eigen::MatrixXd {
      const Eigen::HouseholderQR<Eigen::MatrixXd> qr(m);
      return qr.householderQ() * Eigen::MatrixXd::Identity(m.rows(), m.cols());
    };
    // The range finder and each power iteration are one pass (or two) over the data.
    const auto passes_done = [&](int passes) {
      report_progress(options.progress, 0.1 + 0.8 * passes / (options.power_iterations + 1.0), "PCA");
    };
    Eigen::MatrixXd basis = orthonormal(centered * test);  // N x width
    passes_done(1);
    for (int q = 0; q < options.power_iterations; ++q) {
      const Eigen::MatrixXd row_basis = orthonormal(centered.transpose() * basis);  // D x width
      basis = orthonormal(centered * row_basis);
      passes_done(q + 2);
    }
    const Eigen::MatrixXd small = basis.transpose() * centered;  // width x D
    const Eigen::JacobiSVD<Eigen::MatrixXd> svd(small, Eigen::ComputeThinV);
    axes = svd.matrixV().leftCols(options.dim);
    variance = svd.singularValues().head(options.dim).cwiseAbs2() / double(n - 1);
  }
};

static_assert(PointEmbedder<Pca, float> && PointEmbedder<Pca, double>);

}  // namespace nldr
