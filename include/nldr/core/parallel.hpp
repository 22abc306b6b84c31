// Optional OpenMP parallelism with results that do not depend on the thread count.
//
// The rule that makes results thread-count independent: a parallel loop only
// writes to per-iteration outputs (row i of a result, list i of a graph); any
// reduction is done afterwards, serially, in index order.
#pragma once

#include <cstdint>

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace nldr {

/// Number of threads nldr's parallel loops will use (1 without OpenMP).
inline int max_threads() {
#if defined(_OPENMP)
  return omp_get_max_threads();
#else
  return 1;
#endif
}

/// Sets the number of threads for subsequent parallel loops (ignored without OpenMP).
/// threads <= 0 keeps the current setting.
inline void set_threads(int threads) {
#if defined(_OPENMP)
  if (threads > 0) omp_set_num_threads(threads);
#else
  (void)threads;
#endif
}

/// Calls body(i) for every i in [begin, end), in parallel when OpenMP is enabled.
/// Iterations must be independent. Dynamic scheduling in chunks of `chunk` balances
/// uneven work (e.g. Dijkstra from different sources).
template <class Body>
void parallel_for(std::int64_t begin, std::int64_t end, Body&& body, std::int64_t chunk = 16) {
#if defined(_OPENMP)
#pragma omp parallel for schedule(dynamic, chunk)
  for (std::int64_t i = begin; i < end; ++i) body(i);
#else
  (void)chunk;
  for (std::int64_t i = begin; i < end; ++i) body(i);
#endif
}

/// Index of the calling thread inside a parallel region (0 outside or without OpenMP).
inline int thread_index() {
#if defined(_OPENMP)
  return omp_get_thread_num();
#else
  return 0;
#endif
}

}  // namespace nldr
