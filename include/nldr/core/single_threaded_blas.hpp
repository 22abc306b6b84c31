// Keeps OpenBLAS on its calling thread while nldr runs its own threads over blocks of a product.
// nldr's parallel loops already use every core, and OpenBLAS's threads on top of them would
// oversubscribe the cores; OpenBLAS's threaded drivers also round differently with different thread
// counts (measured with OpenBLAS 0.3.21), which nldr's own blocking does not (core/parallel.hpp).
#pragma once

#if defined(NLDR_HAVE_OPENBLAS)
#include <cblas.h>
#endif

namespace nldr::detail {

#if defined(NLDR_HAVE_OPENBLAS)
/// While alive, OpenBLAS runs every call on its calling thread; the previous thread count is
/// restored on destruction.
class SingleThreadedBlas {
 public:
  SingleThreadedBlas() : saved_(openblas_get_num_threads()) { openblas_set_num_threads(1); }
  ~SingleThreadedBlas() { openblas_set_num_threads(saved_); }
  SingleThreadedBlas(const SingleThreadedBlas&) = delete;
  SingleThreadedBlas& operator=(const SingleThreadedBlas&) = delete;

 private:
  int saved_;
};
#else
/// Without OpenBLAS, Eigen's products run on the calling thread inside parallel regions anyway.
struct SingleThreadedBlas {};
#endif

}  // namespace nldr::detail
