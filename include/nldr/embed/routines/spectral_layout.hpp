// A spectral layout of a symmetric weighted graph, the starting layout of UMAP (McInnes, Healy &
// Melville 2018, sec. 4.1) and of t-SNE's init = spectral: the bottom non-trivial eigenvectors u of
// the normalized Laplacian I - D^-1/2 W D^-1/2, built as Laplacian Eigenmaps builds it
// (embed/laplacian_eigenmaps.hpp; Belkin & Niyogi 2003) and solved by plain Lanczos where its
// factorization would be costly (embed/detail/bounded_eigen.hpp). Laplacian Eigenmaps' coordinates
// are f = D^-1/2 u; umap-learn's and uwot's spectral starts are u itself, kept here.
//
// A disconnected graph is not an error: as umap-learn's multi_component_layout, each component is
// laid out on its own and placed around its own centre (with at most 2 d components, the centres
// are +-e_1, +-e_2, ...; with more, the components' centroids in input space projected on their
// first d principal axes, where umap-learn takes a spectral embedding of the centroids' Gaussian
// affinities), scaled to half the distance to the nearest other centre; a component too small for
// d eigenvectors (fewer than 2 d points, or d + 1 or fewer) gets seeded uniform coordinates there.
#pragma once

#include <nldr/core/random.hpp>
#include <nldr/core/types.hpp>
#include <nldr/embed/detail/signs.hpp>
#include <nldr/embed/detail/bounded_eigen.hpp>
#include <nldr/embed/eigen_options.hpp>
#include <nldr/embed/laplacian_eigenmaps.hpp>
#include <nldr/embed/pca.hpp>
#include <nldr/embed/routines/weighted_graph.hpp>
#include <nldr/neighbors/components.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace nldr::routines {

/// The d bottom non-trivial eigenvectors u of the normalized Laplacian of the connected symmetric
/// graph `graph` (N x d, each column's largest entry positive: detail::fix_signs).
/// \throws nldr::convergence_error when the eigensolver fails.
/// (A template only so that a unit instantiates the eigensolver where it calls it: docs/building.md,
/// "Compile time".)
Eigen::MatrixXd laplacian_eigenvectors(const std::same_as<WeightedGraph> auto& graph, index_t dim,
                                       const BottomEigenOptions& eigen, const std::string& method) {
  const detail::NormalizedLaplacian laplacian =
      detail::normalized_laplacian_of_weights(graph, graph.values, [&](index_t i) {
        throw_invalid("graph", method, ": point ", i, " has no edge of positive weight");
      });
  // L_sym D^1/2 1 = 0: the trivial pair, deflated and dropped. Its spectrum lies in [0, 2].
  const detail::BottomEigenpairs pairs = detail::bounded_bottom_eigenpairs(
      laplacian.lower, 2.0, int(dim) + 1, eigen, method, laplacian.inv_sqrt_degree.cwiseInverse());
  Eigen::MatrixXd u = pairs.vectors.rightCols(dim);
  detail::fix_signs(u);
  return u;
}

/// The subgraph of `graph` on the points with label[i] == component, renumbered in index order.
inline WeightedGraph component_subgraph(const WeightedGraph& graph, const Components& components, index_t component,
                                        const std::vector<index_t>& local_index) {
  WeightedGraph sub;
  for (index_t i = 0; i < graph.size(); ++i) {
    if (components.label[i] != component) continue;
    const auto neighbors = graph.neighbors(i);
    const auto weights = graph.weights(i);
    for (std::size_t a = 0; a < neighbors.size(); ++a) {
      sub.columns.push_back(local_index[neighbors[a]]);
      sub.values.push_back(weights[a]);
    }
    sub.row_offsets.push_back(offset_t(sub.columns.size()));
  }
  return sub;
}

/// Centres of the components (count x d): +-e_k for at most 2 d of them; else their centroids in
/// `points` (when given and D >= d) on the centroids' first d principal axes, else seeded uniform
/// coordinates in [0, 10); scaled so that the largest coordinate is 1.
template <Real T>
Eigen::MatrixXd component_centres(const Components& components, index_t dim, const Matrix<T>* points, Random& random) {
  const index_t count = components.count();
  Eigen::MatrixXd centres = Eigen::MatrixXd::Zero(count, dim);
  if (count <= 2 * dim) {
    const index_t half = (count + 1) / 2;
    for (index_t c = 0; c < count; ++c) centres(c, c % half) = c < half ? 1.0 : -1.0;
    return centres;
  }
  if (points != nullptr && points->cols() >= dim && count > dim) {
    Matrix<double> centroids = Matrix<double>::Zero(count, points->cols());
    for (index_t i = 0; i < points->rows(); ++i) centroids.row(components.label[i]) += points->row(i).template cast<double>();
    for (index_t c = 0; c < count; ++c) centroids.row(c) /= double(components.sizes[c]);
    centres = Pca{{.dim = dim, .algorithm = PcaAlgorithm::covariance}}.fit(centroids).coordinates;
  } else {
    for (index_t c = 0; c < count; ++c)
      for (index_t k = 0; k < dim; ++k) centres(c, k) = random.uniform(0, 10);
  }
  const double largest = centres.maxCoeff();
  if (largest > 0) centres /= largest;
  return centres;
}

/// The spectral layout of the symmetric weighted graph `graph` (N x d; see the file comment).
/// `points` (N x D, may be null) places the components when there are more than 2 d of them;
/// `seed` drives the coordinates of components too small for an eigensolve.
/// \throws nldr::convergence_error when an eigensolve fails.
template <Real T>
Eigen::MatrixXd spectral_layout(const WeightedGraph& graph, index_t dim, const Matrix<T>* points, std::uint64_t seed,
                                const BottomEigenOptions& eigen, const std::string& method) {
  const index_t n = graph.size();
  const Components components = connected_components(graph);
  if (components.connected() && n >= 2 * dim && n > dim + 1) return laplacian_eigenvectors(graph, dim, eigen, method);

  Random random(seed);
  const Eigen::MatrixXd centres = component_centres(components, dim, points, random);
  Eigen::MatrixXd layout(n, dim);
  std::vector<index_t> local_index(static_cast<std::size_t>(n));
  std::vector<index_t> members;
  for (index_t c = 0; c < components.count(); ++c) {
    members.clear();
    for (index_t i = 0; i < n; ++i)
      if (components.label[i] == c) {
        local_index[i] = index_t(members.size());
        members.push_back(i);
      }
    double nearest = std::numeric_limits<double>::infinity();
    for (index_t other = 0; other < components.count(); ++other) {
      const double distance = (centres.row(other) - centres.row(c)).norm();
      if (distance > 0) nearest = std::min(nearest, distance);
    }
    const double range = std::isfinite(nearest) ? nearest / 2 : 1.0;
    const auto size = index_t(members.size());
    if (size < 2 * dim || size <= dim + 1) {
      for (index_t i : members)
        for (index_t k = 0; k < dim; ++k) layout(i, k) = centres(c, k) + random.uniform(-range, range);
      continue;
    }
    Eigen::MatrixXd u = laplacian_eigenvectors(component_subgraph(graph, components, c, local_index), dim, eigen, method);
    u *= range / u.cwiseAbs().maxCoeff();
    for (index_t r = 0; r < size; ++r) layout.row(members[r]) = centres.row(c) + u.row(r);
  }
  return layout;
}

}  // namespace nldr::routines
