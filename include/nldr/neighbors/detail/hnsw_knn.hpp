// The HNSW search behind nldr::ApproximateKNearest (neighbors/approximate_knn.hpp): hnswlib's index
// (Malkov & Yashunin 2018) with nldr's own distance kernels. Needs hnswlib (Debian libhnswlib-dev)
// and NLDR_HAVE_HNSWLIB, which the CMake target nldr::hnswlib provides.
#pragma once

#if !defined(NLDR_HAVE_HNSWLIB)
#error "nldr/neighbors/detail/hnsw_knn.hpp needs hnswlib: link nldr::hnswlib (apt-get install libhnswlib-dev)"
#endif

#include <nldr/core/cpu.hpp>
#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/random.hpp>
#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>
#include <nldr/neighbors/detail/distance.hpp>
#include <nldr/neighbors/detail/exact_search.hpp>
#include <nldr/neighbors/detail/hnsw_build.hpp>
#include <nldr/neighbors/graph.hpp>
#include <nldr/neighbors/selector.hpp>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

namespace nldr::detail {


/// Squared Euclidean distance of two float d-vectors, the index's only arithmetic.
inline float hnsw_squared_l2(const float* a, const float* b, std::size_t d) {
  using Row = Eigen::Map<const Eigen::VectorXf>;
  return (Row(a, Eigen::Index(d)) - Row(b, Eigen::Index(d))).squaredNorm();
}

#if defined(NLDR_X86_KERNELS)
// The same with AVX2 + FMA and with AVX-512, picked at run time (the build targets baseline
// x86-64, where Eigen uses SSE2 only): 2-4x faster in high D, and the index spends nearly all its
// time here. Fixed summation order: the same input gives the same float on every call.
__attribute__((target("avx2,fma"))) inline float hnsw_squared_l2_avx2(const float* a, const float* b,
                                                                      std::size_t d) {
  __m256 s0 = _mm256_setzero_ps(), s1 = _mm256_setzero_ps();
  std::size_t i = 0;
  for (; i + 16 <= d; i += 16) {
    const __m256 x0 = _mm256_sub_ps(_mm256_loadu_ps(a + i), _mm256_loadu_ps(b + i));
    const __m256 x1 = _mm256_sub_ps(_mm256_loadu_ps(a + i + 8), _mm256_loadu_ps(b + i + 8));
    s0 = _mm256_fmadd_ps(x0, x0, s0);
    s1 = _mm256_fmadd_ps(x1, x1, s1);
  }
  for (; i + 8 <= d; i += 8) {
    const __m256 x = _mm256_sub_ps(_mm256_loadu_ps(a + i), _mm256_loadu_ps(b + i));
    s0 = _mm256_fmadd_ps(x, x, s0);
  }
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, _mm256_add_ps(s0, s1));
  float sum = ((lanes[0] + lanes[1]) + (lanes[2] + lanes[3])) + ((lanes[4] + lanes[5]) + (lanes[6] + lanes[7]));
  for (; i < d; ++i) sum += (a[i] - b[i]) * (a[i] - b[i]);
  return sum;
}

__attribute__((target("avx512f"))) inline float hnsw_squared_l2_avx512(const float* a, const float* b, std::size_t d) {
  __m512 s0 = _mm512_setzero_ps(), s1 = _mm512_setzero_ps();
  std::size_t i = 0;
  for (; i + 32 <= d; i += 32) {
    const __m512 x0 = _mm512_sub_ps(_mm512_loadu_ps(a + i), _mm512_loadu_ps(b + i));
    const __m512 x1 = _mm512_sub_ps(_mm512_loadu_ps(a + i + 16), _mm512_loadu_ps(b + i + 16));
    s0 = _mm512_fmadd_ps(x0, x0, s0);
    s1 = _mm512_fmadd_ps(x1, x1, s1);
  }
  for (; i < d; i += 16) {  // the rest, under a mask
    const __mmask16 mask = d - i >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << (d - i)) - 1);
    const __m512 x = _mm512_sub_ps(_mm512_maskz_loadu_ps(mask, a + i), _mm512_maskz_loadu_ps(mask, b + i));
    s0 = _mm512_fmadd_ps(x, x, s0);
  }
  alignas(64) float lanes[16];  // _mm512_reduce_add_ps trips GCC 12's -Wuninitialized
  _mm512_store_ps(lanes, _mm512_add_ps(s0, s1));
  float sum = 0;
  for (const float lane : lanes) sum += lane;
  return sum;
}
#endif

/// hnswlib's distance space for float rows of `dim` values: squared Euclidean distance, with the
/// fastest kernel this CPU runs.
class HnswSquaredL2 final : public hnswlib::SpaceInterface<float> {
 public:
  explicit HnswSquaredL2(std::size_t dim) : dim_(dim) {
#if defined(NLDR_X86_KERNELS)
    if (has_avx512())
      distance_ = &kernel<hnsw_squared_l2_avx512>;
    else if (has_avx2_fma())
      distance_ = &kernel<hnsw_squared_l2_avx2>;
#endif
  }
  std::size_t get_data_size() override { return dim_ * sizeof(float); }
  hnswlib::DISTFUNC<float> get_dist_func() override { return distance_; }
  void* get_dist_func_param() override { return &dim_; }

 private:
  template <float (*Kernel)(const float*, const float*, std::size_t)>
  static float kernel(const void* a, const void* b, const void* dim) {
    return Kernel(static_cast<const float*>(a), static_cast<const float*>(b), *static_cast<const std::size_t*>(dim));
  }
  std::size_t dim_;
  hnswlib::DISTFUNC<float> distance_ = &kernel<hnsw_squared_l2>;
};

/// Checks what hnswlib needs of ApproximateKNearest's settings (`s`), naming the field.
template <class Settings>
void validate_hnsw_settings(const Settings& s) {
  if (s.ef != 0 && s.ef < s.k)
    throw_invalid("ef", "ef = ", s.ef, " must be >= k = ", s.k,
                  " (a query keeps ef candidates and returns the best k of them), or 0 for max(2 k, 32)");
  if (s.M < 2)
    throw_invalid("M", "M = ", s.M, " must be >= 2 (links per point and layer; 8 to 48 are usual, 12 the default)");
  if (s.ef_construction < s.M)
    throw_invalid("ef_construction", "ef_construction = ", s.ef_construction, " must be >= M = ", s.M,
                  " (an insertion chooses its M links among ef_construction candidates)");
  if (s.recall_sample < 0)
    throw_invalid("recall_sample", "recall_sample = ", s.recall_sample, " must be >= 0 (0 skips the recall estimate)");
}

template <Real T>
bool by_distance_then_index(const typename NearestSet<T>::Entry& a, const typename NearestSet<T>::Entry& b) {
  return a.distance < b.distance || (a.distance == b.distance && a.index < b.index);
}

/// Mean over a seeded sample of `sample_size` points of |found list ∩ exact k nearest| / k, where a
/// found neighbor counts when its distance is at most the exact k-th distance (ties at the k-th
/// distance are interchangeable).
template <Real T>
double estimate_hnsw_recall(const NeighborGraph<T>& graph, const PointRows<T>& rows, index_t sample_size,
                            std::uint64_t seed, index_t k) {
  const index_t n = rows.rows, s = std::min(sample_size, n);
  const std::vector<index_t> sample = random_subset(n, s, seed);
  const auto exact = exact_neighbors_of<T>(rows, sample, k);
  double hits = 0;
  for (index_t a = 0; a < s; ++a) {
    const T kth = exact[std::size_t(a)].back().distance;
    for (const T d : graph.distances(sample[a])) hits += d <= kth ? 1 : 0;
  }
  return hits / (double(s) * double(k));
}

/// ApproximateKNearest's graph of X with the settings `s` (neighbors/approximate_knn.hpp).
template <class Settings, class Derived>
NeighborGraph<typename Derived::Scalar> hnsw_knn_graph(const Settings& s, const Eigen::MatrixBase<Derived>& X) {

  using T = typename Derived::Scalar;
  static_assert(Real<T>, "nldr::ApproximateKNearest: the points must be float or double");
  validate_points(X, "X");
  validate_neighbor_count(s.k, X.rows(), "k");
  validate_hnsw_settings(s);
  if (X.rows() >= Eigen::Index(std::numeric_limits<index_t>::max()))
    throw_invalid("X", "X has N = ", X.rows(), " points, more than the ", std::numeric_limits<index_t>::max() - 1,
                  " a neighbor graph can index: subsample X");
  validate_distance_range<float>(X, 1);  // the index computes distances in float
  const PointsRef<T> points(X.derived());
  const PointRows<T> rows(points);
  const index_t n = rows.rows;
  const index_t search_ef = s.ef > 0 ? s.ef : std::max<index_t>(2 * s.k, 32);

  HnswSquaredL2 space{std::size_t(rows.cols)};
  const auto index = std::make_unique<HnswIndex>(
      &space, std::size_t(n), std::size_t(s.M), std::size_t(s.ef_construction), std::size_t(s.seed));
  build_hnsw_index(*index, rows, s.deterministic, s.seed);
  // The point itself is in the index (usually its own first hit): ask for one more.
  index->setEf(std::size_t(std::max<index_t>(search_ef, s.k + 1)));

  std::vector<offset_t> offsets(std::size_t(n) + 1);
  for (index_t i = 0; i <= n; ++i) offsets[i] = offset_t(i) * s.k;
  std::vector<index_t> indices(std::size_t(n) * std::size_t(s.k));
  std::vector<T> distances(indices.size());
  std::vector<unsigned char> short_list(std::size_t(n), 0);
  parallel_for(
      0, n,
      [&](std::int64_t i) {
        std::vector<float> query;
        auto found = index->searchKnn(float_row(rows, index_t(i), query), std::size_t(s.k) + 1);
        std::vector<typename NearestSet<T>::Entry> list;
        for (; !found.empty(); found.pop()) {
          const auto j = index_t(found.top().second);
          if (j != index_t(i))
            list.push_back({std::sqrt(squared_distance(rows.row(index_t(i)), rows.row(j), rows.cols)), j});
        }
        if (index_t(list.size()) < s.k) {  // the search reached too few points: see below
          short_list[std::size_t(i)] = 1;
          return;
        }
        std::sort(list.begin(), list.end(), by_distance_then_index<T>);
        for (index_t a = 0; a < s.k; ++a) {
          indices[std::size_t(i) * std::size_t(s.k) + std::size_t(a)] = list[std::size_t(a)].index;
          distances[std::size_t(i) * std::size_t(s.k) + std::size_t(a)] = list[std::size_t(a)].distance;
        }
      },
      64);

  // HNSW's bottom layer can, rarely, leave a point's search with fewer than k others reachable;
  // such lists are completed by the exact search, so every point still gets k neighbors.
  std::vector<index_t> fallback;
  for (index_t i = 0; i < n; ++i)
    if (short_list[std::size_t(i)]) fallback.push_back(i);
  const auto exact = exact_neighbors_of<T>(rows, fallback, s.k);
  for (std::size_t f = 0; f < fallback.size(); ++f)
    for (index_t a = 0; a < s.k; ++a) {
      indices[std::size_t(fallback[f]) * std::size_t(s.k) + std::size_t(a)] = exact[f][std::size_t(a)].index;
      distances[std::size_t(fallback[f]) * std::size_t(s.k) + std::size_t(a)] = exact[f][std::size_t(a)].distance;
    }

  auto graph = NeighborGraph<T>::from_sorted_csr_unchecked(std::move(offsets), std::move(indices),
                                                           std::move(distances), false);
  SelectionReport report;
  report.selector = concat("approximate_knn(k=", s.k, ", ef=", search_ef, ", M=", s.M,
                                   ", ef_construction=", s.ef_construction, s.deterministic ? "" : ", parallel build",
                                   fallback.empty() ? "" : concat(", exact lists for ", fallback.size(), " points"),
                                   ")");
  report.search = search_name(NeighborSearch::hnsw);
  report.candidate_edges = graph.num_edges();
  report.new_point = {NewPointRule::nearest, s.k, 0.0};  // found exactly by the model's index
  // The sample from a stream of its own: `seed` draws the insertion order (build_hnsw_index), whose
  // first points, linked one at a time, the sample would otherwise be; hnswlib takes seed + 1.
  if (s.recall_sample > 0)
    report.estimated_recall = estimate_hnsw_recall(graph, rows, s.recall_sample, s.seed + 2, s.k);
  graph.set_selection(std::move(report));
  return graph;
}

}  // namespace nldr::detail
