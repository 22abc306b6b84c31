// Classical (Torgerson) multidimensional scaling (Torgerson 1952; Gower 1966; docs/algorithms.md
// sec. 3): B = -1/2 J D^2 J with J = I - 11^T/N, top-d eigenpairs (lambda_k, v_k), Y = [v_k sqrt(lambda_k)].
// For Euclidean distances B is the Gram matrix of the centered points, so the result equals PCA
// up to the signs of the axes. Negative eigenvalues of B (a non-Euclidean input) are reported.
// Out of sample (docs/methods/mds.md): the distance-based triangulation (de Silva & Tenenbaum 2004),
// which for a model fit on points is the projection onto the axes Xc^T v_k / sqrt(lambda_k).
#pragma once

#include <nldr/core/described.hpp>
#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/precompiled.hpp>
#include <nldr/core/precomputed.hpp>
#include <nldr/core/progress.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>
#include <nldr/embed/eigen_options.hpp>
#include <nldr/embed/embedder.hpp>
#include <nldr/embed/embedding.hpp>
#include <nldr/embed/model_fields.hpp>
#include <nldr/embed/routines/mds.hpp>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

namespace nldr {

/// Options of classical MDS.
struct MdsOptions {
  /// Target dimension d, 1 <= d < N.
  index_t dim = 2;
  /// How many of the most negative eigenvalues of B to compute and report (0 <= count <= N - dim).
  /// A diagnostic: costs one more eigensolve for large N, and never fails the embedding.
  index_t negative_eigenvalues = 1;
  /// Eigensolver settings (dense below a small N, Lanczos above).
  TopEigenOptions eigen{};
  /// Memory limit in bytes for the N x N matrix (0: the memory available now).
  std::uint64_t memory_limit = 0;
  /// Optional progress and cancel hook (core/progress.hpp): the N x N matrix reports 0 .. 0.3 by
  /// rows, the eigensolver 0.3 .. 1 (docs/tool.md, "Progress and logging").
  ProgressCallback progress{};

  /// The parameters a caller names (core/described.hpp; docs/registry.md).
  template <class Visitor>
  void describe(Visitor& v) {
    v.number("dim", dim, {1, 1e9}, "target dimension d");
    v.number("negative_eigenvalues", negative_eigenvalues, {0, 1e9},
             "most negative eigenvalues of B to report (a diagnostic)");
    eigen.describe(v);
  }
};

/// A fitted classical MDS: coordinates (N x d) = eigenvectors scaled by sqrt(max(lambda, 0)),
/// `eigenvalues` = the top d eigenvalues of B, descending (a coordinate whose eigenvalue is <= 0
/// is identically 0), and what transform needs.
template <Real T>
struct MdsModel : Embedding<T> {
  /// Most negative eigenvalues of B found (ascending, only values below -1e-6 eigenvalues[0], the
  /// diagnostic's accuracy; always empty for points, whose B is a Gram matrix). Their size relative
  /// to `eigenvalues` measures how non-Euclidean the input is.
  Eigen::VectorXd negative_eigenvalues;
  /// Whether they were computed: success, not_computed (negative_eigenvalues = 0) or not_converging
  /// (Lanczos did not converge within the eigensolver's max_iterations; the embedding is unaffected).
  SolverStatus negative_status = SolverStatus::not_computed;
  /// trace(B) = sum of all N eigenvalues: the total (signed) variance of the configuration.
  double trace = 0;
  /// True when fit on precomputed distances: transform then takes distances, not points.
  bool from_distances = false;
  /// Fit on points: the training mean (D) and axes (D x d), y = (x - mean) axes.
  Vector<T> mean;
  Eigen::MatrixXd axes;
  /// Fit on distances: the triangulation from the distances to the N training points.
  Eigen::MatrixXd pseudo_inverse;  ///< d x N
  Eigen::VectorXd mean_squared;    ///< N

  /// Places new points: P x D points for a model fit on points, or P x N distances from each new
  /// point to the N training points (finite, >= 0) for a model fit on distances; returns P x d.
  /// The training points (or their distance rows) give back `coordinates`.
  /// \throws nldr::invalid_argument naming "X_new".
  template <class Derived>
  Matrix<T> transform(const Eigen::MatrixBase<Derived>& X_new) const {
    static_assert(std::is_same_v<typename Derived::Scalar, T>, "MdsModel::transform: same scalar as fit");
    const Eigen::Index d = this->coordinates.cols();
    if (X_new.rows() == 0) return Matrix<T>(0, d);
    validate_points(X_new, "X_new");
    if (from_distances) {
      if (X_new.cols() != mean_squared.size())
        throw_invalid("X_new", "X_new has ", X_new.cols(), " columns but a model fit on distances takes the distances "
                      "to its N = ", mean_squared.size(), " training points: one column per training point");
      if ((X_new.array() < 0).any()) throw_invalid("X_new", "X_new has a negative distance: distances are >= 0");
      const Eigen::MatrixXd squared = X_new.template cast<double>().cwiseAbs2();
      return routines::Triangulation{pseudo_inverse, mean_squared}.template place<T>(squared);
    }
    if (X_new.cols() != mean.size())
      throw_invalid("X_new", "X_new has D = ", X_new.cols(), " columns but the model was fit on D = ", mean.size(),
                    ": supply points of the same dimension");
    return ((X_new.template cast<double>().rowwise() - mean.template cast<double>().transpose()) * axes)
        .template cast<T>();
  }

  /// Throws invalid_argument("model") unless the fields fit together (e.g. after a model file).
  void check_state() const {
    check_embedding_state(*this);
    const Eigen::Index d = this->coordinates.cols();
    if (from_distances)
      require_state(pseudo_inverse.rows() == d && pseudo_inverse.cols() == this->coordinates.rows() &&
                        mean_squared.size() == this->coordinates.rows(),
                    "L# is d x N with N mean squared distances");
    else
      require_state(axes.cols() == d && axes.rows() == mean.size() && mean.size() >= 1, "axes are D x d");
  }

  template <class Visitor>
  void visit(Visitor& v) {
    routines::visit_scaling_results(v, *this);
    v("from_distances", from_distances, FieldRole::state);
    v("mean", mean, FieldRole::state);
    v("axes", axes, FieldRole::state);
    v("pseudo_inverse", pseudo_inverse, FieldRole::state);
    v("mean_squared", mean_squared, FieldRole::state);
  }
};

/// Classical MDS of points (Euclidean distances) or of a user's own dissimilarity matrix.
///
/// Cost: an N x N matrix (N^2 sizeof(T) bytes, checked against the memory limit before it is
/// allocated) and O(N^2) per Lanczos mat-vec; never a full O(N^3) decomposition above
/// `eigen.dense_below` points. For points, `Pca` gives the same coordinates in O(N D^2).
///
/// \code
/// nldr::Matrix<double> D = ...;                                  // N x N dissimilarities
/// auto mds = nldr::ClassicalMds{{.dim = 2}}.fit(nldr::precomputed(D));
/// mds.coordinates;            // N x 2
/// mds.negative_eigenvalues;   // non-empty when D is not Euclidean
/// \endcode
struct ClassicalMds {
  MdsOptions options;

  /// X: N x D points (finite, N >= 2). Embeds the Euclidean distances of X (through the Gram matrix
  /// of the centered points, which is B exactly).
  /// \throws nldr::invalid_argument ("X", "dim", "negative_eigenvalues"), nldr::memory_limit_exceeded.
  template <class Derived>
  MdsModel<typename Derived::Scalar> fit(const Eigen::MatrixBase<Derived>& X) const {
    using T = typename Derived::Scalar;
    static_assert(Real<T>, "nldr::ClassicalMds: the points must be float or double");
    return fit_points<T>(X.derived());
  }

  /// distances: precomputed(D), D N x N symmetric dissimilarities (finite, >= 0, zero diagonal;
  /// asymmetry up to sqrt(epsilon) of the largest entry is averaged away), N >= 2.
  /// \throws nldr::invalid_argument naming "distances" and the first offending entry.
  template <class Derived>
  MdsModel<typename Derived::Scalar> fit(const Precomputed<Derived>& input) const {
    using T = typename Derived::Scalar;
    static_assert(Real<T>, "nldr::ClassicalMds: the distances must be float or double");
    return fit_distances<T>(input.matrix.derived());
  }

 private:
  template <class Derived>
  static void validate_dissimilarities(const Eigen::MatrixBase<Derived>& distances) {
    using T = typename Derived::Scalar;
    const Eigen::Index n = distances.rows();
    if (distances.cols() != n)
      throw_invalid("distances", "distances is ", n, " x ", distances.cols(),
                    ": it must be square, N x N, one row and one column per point");
    validate_points(distances, "distances", 2);
    const double largest = double(distances.cwiseAbs().maxCoeff());
    if (!std::isfinite(T(largest) * T(largest) * T(n)))  // B sums N squared distances, in T
      throw_invalid("distances", "the largest dissimilarity ", largest, " squared and summed over N = ", n,
                    " points overflows the ", sizeof(T) * 8, "-bit scalar type: rescale the distances");
    const double slack = std::sqrt(double(std::numeric_limits<T>::epsilon())) * largest;
    for (Eigen::Index i = 0; i < n; ++i) {
      if (std::abs(double(distances(i, i))) > slack)
        throw_invalid("distances", "distances(", i, ", ", i, ") = ", distances(i, i),
                      " must be 0: a point is at distance 0 from itself");
      for (Eigen::Index j = 0; j < n; ++j) {
        if (distances(i, j) < 0)
          throw_invalid("distances", "distances(", i, ", ", j, ") = ", distances(i, j),
                        " is negative: dissimilarities must be >= 0");
        if (j > i && std::abs(double(distances(i, j)) - double(distances(j, i))) > slack)
          throw_invalid("distances", "distances(", i, ", ", j, ") = ", distances(i, j), " but distances(", j, ", ",
                        i, ") = ", distances(j, i), ": the matrix must be symmetric");
      }
    }
  }

  /// The fits for one scalar (compiled once in nldr::registry: core/precompiled.hpp).
  template <Real T>
  MdsModel<T> fit_points(const PointsRef<T>& X) const;
  template <Real T>
  MdsModel<T> fit_distances(const PointsRef<T>& distances) const;
};

template <Real T>
MdsModel<T> ClassicalMds::fit_distances(const PointsRef<T>& distances) const {
  validate_dissimilarities(distances);
  const Eigen::Index n = distances.rows();
  routines::validate_scaling_sizes(options.dim, options.negative_eigenvalues, n);
  check_memory(std::uint64_t(n) * std::uint64_t(n) * sizeof(T), "ClassicalMds: the N x N matrix B",
               "reduce N (e.g. landmark MDS via Landmark Isomap)", options.memory_limit);
  MdsModel<T> model;
  Stopwatch watch;
  Matrix<T> squared(n, n);
  parallel_for_reporting(
      0, n,
      [&](std::int64_t i) {
        for (Eigen::Index j = 0; j < n; ++j) {
          const double d = 0.5 * (double(distances(i, j)) + double(distances(j, i)));
          squared(i, j) = T(d * d);
        }
      },
      progress_part(options.progress, 0, 0.3), "ClassicalMds: the N x N matrix");
  model.mean_squared = squared.template cast<double>().rowwise().mean();
  routines::double_center_squared(squared);
  model.times.add("centering", watch.seconds());
  const routines::Scaling scaling =
      routines::scale_centered(squared, options.dim, options.negative_eigenvalues, options.eigen, "ClassicalMds",
                               model.times, progress_part(options.progress, 0.3, 1));
  routines::fill_scaling_results(model, scaling);
  model.from_distances = true;
  model.pseudo_inverse = routines::Triangulation::of(scaling, Eigen::VectorXd()).pseudo_inverse;
  return model;
}

NLDR_PRECOMPILED(MdsModel<float> ClassicalMds::fit_distances<float>(const PointsRef<float>&) const)
NLDR_PRECOMPILED(MdsModel<double> ClassicalMds::fit_distances<double>(const PointsRef<double>&) const)

template <Real T>
MdsModel<T> ClassicalMds::fit_points(const PointsRef<T>& X) const {
  validate_points(X, "X", 2);
  validate_not_all_identical(X);
  validate_distance_range<T>(X, X.rows());  // Gram entries and their row sums, in T
  const Eigen::Index n = X.rows();
  routines::validate_scaling_sizes(options.dim, options.negative_eigenvalues, n);
  check_memory(std::uint64_t(n) * std::uint64_t(n) * sizeof(T), "ClassicalMds: the N x N Gram matrix",
               "use PCA on the points (same embedding, O(D^2) memory)", options.memory_limit);
  MdsModel<T> model;
  Stopwatch watch;
  const Matrix<T> centered = X.rowwise() - X.colwise().mean();
  Matrix<T> gram(n, n);
  parallel_for_reporting(
      0, n, [&](std::int64_t i) { gram.row(i).noalias() = centered.row(i) * centered.transpose(); },
      progress_part(options.progress, 0, 0.3), "ClassicalMds: the N x N matrix");
  model.times.add("gram", watch.seconds());
  // B = X_c X_c^T is positive semidefinite: it has no negative eigenvalue to look for.
  const routines::Scaling scaling = routines::scale_centered(gram, options.dim, 0, options.eigen, "ClassicalMds",
                                                             model.times, progress_part(options.progress, 0.3, 1));
  routines::fill_scaling_results(model, scaling);
  if (options.negative_eigenvalues > 0) model.negative_status = SolverStatus::success;
  model.mean = X.colwise().mean().transpose();
  // x's row of the Gram matrix is X_c (x - mean), placed by L#: axes = X_c^T L#^T (an empty axis stays 0).
  model.axes = centered.template cast<double>().transpose() *
               routines::Triangulation::of(scaling, Eigen::VectorXd()).pseudo_inverse.transpose();
  return model;
}

NLDR_PRECOMPILED(MdsModel<float> ClassicalMds::fit_points<float>(const PointsRef<float>&) const)
NLDR_PRECOMPILED(MdsModel<double> ClassicalMds::fit_points<double>(const PointsRef<double>&) const)

static_assert(PointEmbedder<ClassicalMds, float> && PointEmbedder<ClassicalMds, double>);
static_assert(DistanceEmbedder<ClassicalMds, float> && DistanceEmbedder<ClassicalMds, double>);

}  // namespace nldr
