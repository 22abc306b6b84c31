// The choice of distributed exact kNN algorithm: the spatial partition (nldr/mpi/spatial_knn.hpp)
// where KNearest searches by a k-d tree (D <= 20), the ring pass (nldr/mpi/knn.hpp) above. Both
// give KNearest's graph exactly; docs/scaling.md has the measurements behind the rule.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/mpi/knn.hpp>
#include <nldr/mpi/spatial_knn.hpp>
#include <nldr/neighbors/detail/exact_search.hpp>

#include <array>
#include <string>
#include <string_view>
#include <utility>

namespace nldr::mpi {

/// How the distributed kNN graph is searched.
enum class KnnAlgorithm { automatic, ring, spatial };

/// Every algorithm with its name (the tool's --knn values): the one list.
inline constexpr std::array<std::pair<KnnAlgorithm, std::string_view>, 3> knn_algorithms{
    {{KnnAlgorithm::automatic, "automatic"}, {KnnAlgorithm::ring, "ring"}, {KnnAlgorithm::spatial, "spatial"}}};

inline std::string_view knn_algorithm_name(KnnAlgorithm algorithm) {
  for (const auto& [value, name] : knn_algorithms)
    if (value == algorithm) return name;
  return "?";
}

/// The algorithm called `name`. \throws nldr::invalid_argument ("knn") for an unknown name.
inline KnnAlgorithm knn_algorithm_named(std::string_view name) {
  std::string known;
  for (const auto& [value, candidate] : knn_algorithms) {
    if (candidate == name) return value;
    known += (known.empty() ? "" : ", ") + std::string(candidate);
  }
  throw_invalid("knn", "knn = '", name, "' is not a distributed kNN algorithm: use one of ", known);
}

/// What `automatic` means for D input dimensions: the spatial partition where KNearest uses a
/// k-d tree (the partition's per-slab search and halo need one), the ring pass otherwise.
inline KnnAlgorithm resolve_knn_algorithm(KnnAlgorithm algorithm, Eigen::Index dim) {
  if (algorithm != KnnAlgorithm::automatic) return algorithm;
  return nldr::detail::uses_kdtree(SearchBackend::automatic, dim) ? KnnAlgorithm::spatial : KnnAlgorithm::ring;
}

/// The exact directed kNN graph of the distributed points (a collective call), equal row for row
/// to nldr::KNearest{k}(X), by `algorithm` (resolve_knn_algorithm for automatic).
/// \throws nldr::invalid_argument ("k") on every rank unless 1 <= k < N.
template <Real T>
GraphBlock<T> nearest_neighbors(MPI_Comm comm, const PointBlock<T>& points, index_t k,
                                KnnAlgorithm algorithm = KnnAlgorithm::automatic, KnnStatistics* statistics = nullptr) {
  if (resolve_knn_algorithm(algorithm, points.rows.cols()) == KnnAlgorithm::spatial)
    return spatial_nearest_neighbors(comm, points, k, statistics);
  return knearest(comm, points, k, statistics);
}

}  // namespace nldr::mpi
