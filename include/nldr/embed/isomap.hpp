// Isomap (Tenenbaum, de Silva & Langford 2000; ALGORITHMS.md sec. 3): geodesic distances along the
// union-symmetrized neighbor graph with Euclidean edge lengths, by Dijkstra from every source in
// parallel, then classical MDS on them. The residual variance 1 - r^2 between the geodesics and
// the embedding distances (Tenenbaum et al. 2000, fig. 2) is part of the result.
#pragma once

#include <nldr/core/correlation.hpp>
#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/random.hpp>
#include <nldr/core/resources.hpp>
#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>
#include <nldr/embed/detail/connectivity.hpp>
#include <nldr/embed/mds.hpp>
#include <nldr/neighbors/graph.hpp>
#include <nldr/neighbors/shortest_paths.hpp>

#include <Eigen/Core>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace nldr {

/// Element type of the N x N geodesic matrix.
enum class GeodesicStorage {
  input,   ///< the scalar type of X
  single,  ///< float: half the memory for double input (N = 50000 needs 9.3 GiB instead of 18.6)
};

/// Options of Isomap.
struct IsomapOptions {
  /// Target dimension d, 1 <= d < N.
  index_t dim = 2;
  /// Storage of the geodesic matrix (sums are formed in double either way).
  GeodesicStorage storage = GeodesicStorage::input;
  /// Most negative eigenvalues of the centered geodesic matrix to report (0 <= count <= N - dim).
  index_t negative_eigenvalues = 0;
  /// Residual variance uses all N(N-1)/2 pairs when there are at most this many, otherwise this
  /// many pairs drawn uniformly (with replacement) with `seed`; >= 1.
  std::int64_t residual_pairs = 1'000'000;
  /// Seed of the pair sample.
  std::uint64_t seed = 0;
  /// Eigensolver settings.
  TopEigenOptions eigen{};
  /// Memory limit in bytes for the geodesic matrix (0: the memory available now).
  std::uint64_t memory_limit = 0;
};

/// Result of Isomap: MDS of the geodesics plus the geodesic fit.
template <Real T>
struct IsomapEmbedding : MdsEmbedding<T> {
  /// 1 - r^2 (Pearson) between geodesic and embedding distances, in [0, 1].
  double residual_variance = 0;
  /// Number of pairs behind residual_variance, and whether they were a random sample.
  std::int64_t residual_pairs = 0;
  bool residual_sampled = false;
  /// Bytes of the N x N geodesic matrix and its element type ("float" or "double").
  std::uint64_t geodesic_bytes = 0;
  std::string geodesic_storage;
  /// Directed entries of the symmetrized graph the geodesics were computed on.
  offset_t graph_edges = 0;
};

namespace detail {

/// The union-symmetrized graph of `graph` with every edge length recomputed as the Euclidean
/// distance between the rows of X (in double, stored as T), so any selector's graph can be used.
template <Real T>
NeighborGraph<T> euclidean_symmetric_graph(const PointsRef<T>& X, const NeighborGraph<T>& graph) {
  const NeighborGraph<T> symmetric = graph.symmetrized(Symmetrization::union_edges);
  const auto offsets = symmetric.offsets();
  const auto indices = symmetric.indices();
  std::vector<T> lengths(indices.size());
  parallel_for(0, symmetric.size(), [&](std::int64_t i) {
    for (offset_t e = offsets[i]; e < offsets[i + 1]; ++e)
      lengths[e] = T((X.row(i).template cast<double>() - X.row(indices[e]).template cast<double>()).norm());
  });
  return NeighborGraph<T>::from_csr(symmetric.size(), std::vector<offset_t>(offsets.begin(), offsets.end()),
                                    std::vector<index_t>(indices.begin(), indices.end()), std::move(lengths));
}

/// Checks that the graph has one vertex per row of X.
template <Real T>
void validate_graph_size(const NeighborGraph<T>& graph, Eigen::Index rows) {
  if (graph.size() != rows)
    throw_invalid("graph", "graph has ", graph.size(), " points but X has N = ", rows,
                  " rows: build the graph from the same X");
}

/// Pairs (i, j), i != j, over which residual variance is measured: all i < j when there are at
/// most `limit`, else `limit` pairs drawn uniformly with `seed`.
inline std::vector<std::pair<index_t, index_t>> residual_pair_sample(index_t n, std::int64_t limit,
                                                                     std::uint64_t seed) {
  if (limit < 1) throw_invalid("residual_pairs", "residual_pairs = ", limit, " must be >= 1");
  std::vector<std::pair<index_t, index_t>> pairs;
  const std::int64_t all = std::int64_t(n) * (n - 1) / 2;
  if (all <= limit) {
    pairs.reserve(std::size_t(all));
    for (index_t i = 0; i < n; ++i)
      for (index_t j = i + 1; j < n; ++j) pairs.emplace_back(i, j);
    return pairs;
  }
  Random random(seed);
  pairs.reserve(std::size_t(limit));
  for (std::int64_t p = 0; p < limit; ++p) {
    const auto i = index_t(random.below(std::uint64_t(n)));
    auto j = index_t(random.below(std::uint64_t(n - 1)));
    if (j >= i) ++j;
    pairs.emplace_back(i, j);
  }
  return pairs;
}

/// 1 - r^2 between reference distances and embedding distances of the same pairs, accumulated in
/// pair order (deterministic).
template <Real T>
double residual_variance(const std::vector<std::pair<index_t, index_t>>& pairs, const std::vector<double>& reference,
                         const Matrix<T>& Y) {
  PearsonAccumulator accumulator;
  for (std::size_t p = 0; p < pairs.size(); ++p)
    accumulator.add(reference[p], (Y.row(pairs[p].first).template cast<double>() -
                                   Y.row(pairs[p].second).template cast<double>())
                                      .norm());
  const double r = accumulator.correlation();
  return std::isnan(r) ? 1.0 : 1.0 - r * r;
}

}  // namespace detail

/// Isomap embedding of X along a neighbor graph from any selector.
///
/// Memory: the N x N geodesic matrix, N^2 sizeof(storage) bytes (N = 20000: 1.5 GiB float,
/// 3 GiB double), checked before it is allocated; it is centered in place (no second copy).
/// Time: O(N E log N) for the shortest paths (parallel), O(N^2) per Lanczos mat-vec.
/// For larger N use nldr::LandmarkIsomap (O(m N) memory).
///
/// \code
/// auto data = nldr::datasets::swiss_roll<double>({.n = 2000, .seed = 1});
/// auto graph = nldr::KNearest{12}(data.points);
/// auto iso = nldr::Isomap{{.dim = 2}}.embed(data.points, graph);
/// iso.coordinates;          // 2000 x 2
/// iso.residual_variance;    // about 0.0x for a well sampled roll
/// \endcode
struct Isomap {
  IsomapOptions options;

  /// X: N x D points (finite, N >= 2); graph: any NeighborGraph on the N points (directed or
  /// symmetric; it is union-symmetrized and its edge lengths recomputed from X).
  /// \throws nldr::invalid_argument ("X", "graph", "dim", ...), nldr::disconnected_graph naming the
  /// component sizes, nldr::memory_limit_exceeded suggesting LandmarkIsomap.
  template <class Derived>
  IsomapEmbedding<typename Derived::Scalar> embed(const Eigen::MatrixBase<Derived>& X,
                                                  const NeighborGraph<typename Derived::Scalar>& graph) const {
    using T = typename Derived::Scalar;
    static_assert(Real<T>, "nldr::Isomap: the points must be float or double");
    if (options.storage == GeodesicStorage::single) return run<T, float>(X, graph);
    return run<T, T>(X, graph);
  }

 private:
  template <Real T, Real S, class Derived>
  IsomapEmbedding<T> run(const Eigen::MatrixBase<Derived>& X, const NeighborGraph<T>& graph) const {
    validate_points(X, "X", 2);
    validate_not_all_identical(X);
    const PointsRef<T> points(X.derived());
    const auto n = index_t(points.rows());
    detail::validate_graph_size(graph, n);
    detail::validate_mds_sizes(options.dim, options.negative_eigenvalues, n);
    const std::uint64_t bytes = std::uint64_t(n) * std::uint64_t(n) * sizeof(S);
    const std::string type = sizeof(S) == 4 ? "float" : "double";
    check_memory(bytes, detail::concat("Isomap: the ", n, " x ", n, " geodesic matrix (", type, ")"),
                 sizeof(S) == 4 ? "use nldr::LandmarkIsomap (m x N memory)"
                                : "use nldr::LandmarkIsomap (m x N memory), or storage = GeodesicStorage::single "
                                  "for float (half the memory)",
                 options.memory_limit);

    const auto pairs = detail::residual_pair_sample(n, options.residual_pairs, options.seed);
    StageTimes times;
    Stopwatch watch;
    const NeighborGraph<T> symmetric = detail::euclidean_symmetric_graph<T>(points, graph);
    detail::require_connected(symmetric, "Isomap");
    times.add("symmetrize", watch.seconds());

    watch.restart();
    Matrix<S> geodesic = all_pairs_shortest_paths<S>(symmetric, options.memory_limit);
    times.add("shortest paths", watch.seconds());

    // Keep the geodesics of the residual-variance pairs before B overwrites the matrix.
    std::vector<double> reference(pairs.size());
    for (std::size_t p = 0; p < pairs.size(); ++p) reference[p] = double(geodesic(pairs[p].first, pairs[p].second));

    watch.restart();
    parallel_for(0, n, [&](std::int64_t i) { geodesic.row(i) = geodesic.row(i).cwiseAbs2(); });
    detail::double_center_squared(geodesic);
    times.add("centering", watch.seconds());

    IsomapEmbedding<T> result;
    static_cast<MdsEmbedding<T>&>(result) =
        detail::embed_centered<T>(geodesic, options.dim, options.negative_eigenvalues, options.eigen, "Isomap");
    times.stages.insert(times.stages.end(), result.times.stages.begin(), result.times.stages.end());

    watch.restart();
    result.residual_variance = detail::residual_variance(pairs, reference, result.coordinates);
    result.residual_pairs = std::int64_t(pairs.size());
    result.residual_sampled = std::int64_t(pairs.size()) < std::int64_t(n) * (n - 1) / 2;
    times.add("residual variance", watch.seconds());
    result.times = std::move(times);
    result.geodesic_bytes = bytes;
    result.geodesic_storage = type;
    result.graph_edges = symmetric.num_edges();
    return result;
  }
};

}  // namespace nldr
