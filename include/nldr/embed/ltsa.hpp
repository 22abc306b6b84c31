// Local Tangent Space Alignment (Zhang & Zha 2004; ALGORITHMS.md sec. 3).
//
// Per point i, its neighborhood with the point itself (m = k_i + 1 members), centered; the top-d
// left singular vectors V_i of that m x D matrix are the local tangent coordinates. With
// G_i = [1/sqrt(m), V_i] (orthonormal columns), the alignment matrix is
//   B = sum_i S_i (I - G_i G_i^T) S_i^T,
// sparse, symmetric PSD, with the constant vector in its null space; the embedding is its bottom
// d+1 eigenvectors without the first. The graph is used as given (variable neighbor counts are fine).
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>
#include <nldr/embed/detail/connectivity.hpp>
#include <nldr/embed/detail/local_blocks.hpp>
#include <nldr/embed/detail/local_tangent.hpp>
#include <nldr/embed/detail/sparse_eigen.hpp>
#include <nldr/embed/embedding.hpp>
#include <nldr/neighbors/graph.hpp>

#include <Eigen/Core>

#include <cmath>
#include <string>

namespace nldr {

/// Options of Ltsa.
struct LtsaOptions {
  index_t dim = 2;                 ///< target dimension d, 1 <= d <= D and d + 1 < N
  SpectralSolverOptions solver{};  ///< bottom-eigenpair solver settings
};

namespace detail {

/// The LTSA alignment matrix B (lower triangle, N x N) for points (N x D) and the graph's lists, with
/// d tangent directions per neighborhood. Records the "weights" and "assembly" stages.
template <Real T>
SparseLower ltsa_matrix(const Matrix<double>& points, const NeighborGraph<T>& graph, index_t dim, StageTimes& times) {
  const IndexSets sets = index_sets(graph, true);
  const Eigen::Index d = dim;
  return assemble_blocks(
      sets,
      [&](index_t i, Eigen::Map<Eigen::MatrixXd>& block) {
        const auto members = sets.set(i);
        const Eigen::Index m = Eigen::Index(members.size());
        const LocalSpectrum local = gram_spectrum(centered_neighborhood(points, members));
        Eigen::MatrixXd G(m, d + 1);
        G.col(0).setConstant(1.0 / std::sqrt(double(m)));
        G.rightCols(d) = local.vectors.leftCols(d);
        block = -G * G.transpose();
        block.diagonal().array() += 1.0;
      },
      times);
}

}  // namespace detail

/// LTSA. Usage: `Ltsa{{.dim = 2}}.embed(X, graph)`.
struct Ltsa {
  LtsaOptions options;

  /// Embeds X (N x D, finite) with the neighbor lists of `graph` (N points, connected, every point with
  /// at least d neighbors). Result: N x d coordinates (unit-norm orthogonal columns), the d eigenvalues
  /// of B behind them, timings ("weights", "assembly", "eigensolve"), solver diagnostics. Runs in double.
  /// Cost: O(N (k^2 D + k^3)) for the local bases, then one sparse LDLT of B.
  /// \throws nldr::invalid_argument, nldr::disconnected_graph, nldr::convergence_error.
  template <class Derived>
  Embedding<typename Derived::Scalar> embed(const Eigen::MatrixBase<Derived>& X,
                                            const NeighborGraph<typename Derived::Scalar>& graph) const {
    using T = typename Derived::Scalar;
    static_assert(Real<T>, "X must hold float or double");
    validate_points(X, "X", 3);
    validate_not_all_identical(X);
    validate_same_rows(X.rows(), graph.size(), "X", "graph");
    validate_dimension(options.dim, X.rows() - 1, "N - 1");
    if (options.dim > X.cols())
      throw_invalid("dim", "dim = ", options.dim, " exceeds the input dimension D = ", X.cols(), ": lower dim");
    detail::require_min_degree(graph, options.dim, "ltsa", "d, so that the d + 1 members span d tangent directions");
    detail::require_connected(graph, "ltsa");

    const Matrix<double> points = X.template cast<double>();
    Embedding<T> result;
    const Eigen::Index d = options.dim;
    const detail::SparseLower B = detail::ltsa_matrix(points, graph, options.dim, result.times);

    Stopwatch clock;
    // Each block I - G G^T has the constant vector in G's span, so B 1 = 0: deflate it.
    const auto pairs = detail::bottom_eigenpairs(B, int(d) + 1, options.solver, "ltsa", Eigen::VectorXd::Ones(B.rows()));
    result.times.add("eigensolve", clock.seconds());
    detail::fill_spectral_embedding(result, pairs, Eigen::VectorXd());
    return result;
  }
};

}  // namespace nldr
