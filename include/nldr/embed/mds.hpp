// Classical (Torgerson) multidimensional scaling (Torgerson 1952; Gower 1966; ALGORITHMS.md sec. 3):
// B = -1/2 J D^2 J with J = I - 11^T/N, top-d eigenpairs (lambda_k, v_k), Y = [v_k sqrt(lambda_k)].
// For Euclidean distances B is the Gram matrix of the centered points, so the result equals PCA
// up to the signs of the axes. Negative eigenvalues of B (a non-Euclidean input) are reported.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>
#include <nldr/embed/detail/dense_top_eigen.hpp>
#include <nldr/embed/detail/signs.hpp>
#include <nldr/embed/embedding.hpp>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

namespace nldr {

/// Options of classical MDS.
struct MdsOptions {
  /// Target dimension d, 1 <= d < N.
  index_t dim = 2;
  /// How many of the most negative eigenvalues of B to compute and report (0 <= count <= N - dim).
  /// Costs one more eigensolve for large N; 0 skips it.
  index_t negative_eigenvalues = 1;
  /// Eigensolver settings (dense below a small N, Lanczos above).
  TopEigenOptions eigen{};
  /// Memory limit in bytes for the N x N matrix (0: the memory available now).
  std::uint64_t memory_limit = 0;
};

/// Result of classical MDS: coordinates (N x d) = eigenvectors scaled by sqrt(max(lambda, 0)),
/// `eigenvalues` = the top d eigenvalues of B, descending (a coordinate whose eigenvalue is <= 0
/// is identically 0).
template <Real T>
struct MdsEmbedding : Embedding<T> {
  /// Most negative eigenvalues of B found (ascending, only values < 0; empty for Euclidean input
  /// up to rounding). Their size relative to `eigenvalues` measures how non-Euclidean the input is.
  Eigen::VectorXd negative_eigenvalues;
  /// trace(B) = sum of all N eigenvalues: the total (signed) variance of the configuration.
  double trace = 0;
};

namespace detail {

/// In place: squared distances D^2 (N x N, symmetric) become B = -1/2 J D^2 J (Torgerson 1952).
/// Row means are accumulated in double; each row is rewritten by one thread.
template <Real S>
void double_center_squared(Matrix<S>& squared) {
  const Eigen::Index n = squared.rows();
  Eigen::VectorXd row_mean(n);
  parallel_for(0, n, [&](std::int64_t i) { row_mean[i] = squared.row(i).template cast<double>().sum() / double(n); });
  const double total_mean = row_mean.sum() / double(n);
  parallel_for(
      0, n,
      [&](std::int64_t i) {
        const double ri = row_mean[i];
        for (Eigen::Index j = 0; j < n; ++j)
          squared(i, j) = S(-0.5 * (double(squared(i, j)) - ri - row_mean[j] + total_mean));
      },
      16);
}

/// Top-d eigenpairs of the doubly centered B (N x N, any storage S) turned into an embedding.
template <Real T, Real S>
MdsEmbedding<T> embed_centered(const Matrix<S>& centered, index_t dim, index_t negative, const TopEigenOptions& eigen,
                               const std::string& method) {
  const Eigen::Index n = centered.rows();
  MdsEmbedding<T> result;
  Stopwatch watch;
  auto pairs = dense_top_eigenpairs(centered, dim, negative, eigen, method);
  fix_signs(pairs.vectors);
  const Eigen::VectorXd scale = pairs.values.cwiseMax(0.0).cwiseSqrt();
  result.coordinates = (pairs.vectors * scale.asDiagonal()).template cast<T>();
  result.eigenvalues = pairs.values.template cast<T>();
  Eigen::Index count = 0;
  while (count < pairs.smallest.size() && pairs.smallest[count] < 0) ++count;
  result.negative_eigenvalues = pairs.smallest.head(count);
  double trace = 0;
  for (Eigen::Index i = 0; i < n; ++i) trace += double(centered(i, i));
  result.trace = trace;
  result.solver = pairs.diagnostics;
  result.times.add("eigensolve", watch.seconds());
  return result;
}

/// Checks dim and the negative-eigenvalue count against N.
inline void validate_mds_sizes(index_t dim, index_t negative, Eigen::Index n) {
  validate_dimension(dim, n, "N");
  if (negative < 0 || negative > n - dim)
    throw_invalid("negative_eigenvalues", "negative_eigenvalues = ", negative, " must lie in [0, N - dim = ", n - dim,
                  "]");
}

}  // namespace detail

/// Classical MDS of points (Euclidean distances) or of a user's own dissimilarity matrix.
///
/// Cost: an N x N matrix (N^2 sizeof(T) bytes, checked against the memory limit before it is
/// allocated) and O(N^2) per Lanczos mat-vec; never a full O(N^3) decomposition above
/// `eigen.dense_below` points. For points, `Pca` gives the same coordinates in O(N D^2).
///
/// \code
/// nldr::Matrix<double> D = ...;                                  // N x N dissimilarities
/// auto mds = nldr::ClassicalMds{{.dim = 2}}.embed_distances(D);
/// mds.coordinates;            // N x 2
/// mds.negative_eigenvalues;   // non-empty when D is not Euclidean
/// \endcode
struct ClassicalMds {
  MdsOptions options;

  /// X: N x D points (finite, N >= 2). Embeds the Euclidean distances of X (through the Gram matrix
  /// of the centered points, which is B exactly).
  /// \throws nldr::invalid_argument ("X", "dim", "negative_eigenvalues"), nldr::memory_limit_exceeded.
  template <class Derived>
  MdsEmbedding<typename Derived::Scalar> embed(const Eigen::MatrixBase<Derived>& X) const {
    using T = typename Derived::Scalar;
    static_assert(Real<T>, "nldr::ClassicalMds: the points must be float or double");
    validate_points(X, "X", 2);
    validate_not_all_identical(X);
    validate_distance_range<T>(X, X.rows());  // Gram entries and their row sums, in T
    const Eigen::Index n = X.rows();
    detail::validate_mds_sizes(options.dim, options.negative_eigenvalues, n);
    check_memory(std::uint64_t(n) * std::uint64_t(n) * sizeof(T), "ClassicalMds: the N x N Gram matrix",
                 "use nldr::Pca on the points (same embedding, O(D^2) memory)", options.memory_limit);
    Stopwatch watch;
    const Matrix<T> centered = X.rowwise() - X.colwise().mean();
    Matrix<T> gram(n, n);
    parallel_for(0, n, [&](std::int64_t i) { gram.row(i).noalias() = centered.row(i) * centered.transpose(); });
    const double seconds = watch.seconds();
    auto result = detail::embed_centered<T>(gram, options.dim, options.negative_eigenvalues, options.eigen,
                                            "ClassicalMds");
    result.times.stages.insert(result.times.stages.begin(), {"gram", seconds});
    return result;
  }

  /// distances: N x N symmetric dissimilarities (finite, >= 0, zero diagonal; asymmetry up to
  /// sqrt(epsilon) of the largest entry is averaged away), N >= 2.
  /// \throws nldr::invalid_argument naming "distances" and the first offending entry.
  template <class Derived>
  MdsEmbedding<typename Derived::Scalar> embed_distances(const Eigen::MatrixBase<Derived>& distances) const {
    using T = typename Derived::Scalar;
    static_assert(Real<T>, "nldr::ClassicalMds: the distances must be float or double");
    const Eigen::Index n = distances.rows();
    if (distances.cols() != n)
      throw_invalid("distances", "distances is ", n, " x ", distances.cols(),
                    ": it must be square, N x N, one row and one column per point");
    validate_points(distances, "distances", 2);
    detail::validate_mds_sizes(options.dim, options.negative_eigenvalues, n);
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
    check_memory(std::uint64_t(n) * std::uint64_t(n) * sizeof(T), "ClassicalMds: the N x N matrix B",
                 "reduce N (e.g. landmark MDS via nldr::LandmarkIsomap)", options.memory_limit);
    Stopwatch watch;
    Matrix<T> squared(n, n);
    parallel_for(0, n, [&](std::int64_t i) {
      for (Eigen::Index j = 0; j < n; ++j) {
        const double d = 0.5 * (double(distances(i, j)) + double(distances(j, i)));
        squared(i, j) = T(d * d);
      }
    });
    detail::double_center_squared(squared);
    const double seconds = watch.seconds();
    auto result = detail::embed_centered<T>(squared, options.dim, options.negative_eigenvalues, options.eigen,
                                            "ClassicalMds");
    result.times.stages.insert(result.times.stages.begin(), {"centering", seconds});
    return result;
  }
};

}  // namespace nldr
