// The optional supernodal factorization of the spectral embedders' shift-invert: SuiteSparse's
// CHOLMOD (Chen, Davis, Hager & Rajamanickam 2008) through Eigen's CholmodSupport. Compiled only
// when NLDR_HAVE_SUITESPARSE is defined, which the CMake target nldr::suitesparse does (it also links
// CHOLMOD); the spectral layer (sparse_eigen.hpp) then picks it for large matrices.
//
// Why: the supernodal method factorizes dense column blocks with BLAS-3 kernels instead of
// Eigen's SimplicialLDLT's one-column-at-a-time updates; with an optimized BLAS (OpenBLAS) that
// is several times faster on the LLE/LTSA matrices, whose 2-hop pattern fills in heavily.
#pragma once

#if !defined(NLDR_HAVE_SUITESPARSE)
#error "nldr/embed/detail/cholmod_factor.hpp needs SuiteSparse: link the CMake target nldr::suitesparse"
#endif

#include <Eigen/CholmodSupport>
#include <Eigen/SparseCore>

#include <algorithm>
#include <cmath>
#include <utility>

namespace nldr::detail {

/// CHOLMOD's supernodal LL^T of A + offset I (A symmetric, lower triangle stored), with what
/// the shift-invert needs beyond Eigen's wrapper: silence on stdout, the analysis status (a
/// factor too large for 32-bit indices fails there) and the range of the pivots.
template <class SparseMatrix>
class CholmodSupernodal : public Eigen::CholmodSupernodalLLT<SparseMatrix, Eigen::Lower> {
  using Base = Eigen::CholmodSupernodalLLT<SparseMatrix, Eigen::Lower>;

 public:
  /// CHOLMOD prints warnings (e.g. "not positive definite") on stdout; failures are read from
  /// info() and status instead.
  CholmodSupernodal() { this->cholmod().print = 0; }

  /// The fill-reducing ordering and the symbolic factor, with what the analysis reports.
  void analyzePattern(const SparseMatrix& matrix) {
    Base::analyzePattern(matrix);
    analyzed_ = this->m_cholmodFactor != nullptr && this->cholmod().status >= CHOLMOD_OK;
    predicted_flops_ = this->cholmod().fl;
  }

  /// True when analyzePattern() produced a symbolic factor (CHOLMOD status not an error).
  bool analyzed() const { return analyzed_; }

  /// The floating-point operations of the numeric factorization, as analyzePattern() predicts them
  /// from the symbolic factor (CHOLMOD's Common->fl); meaningful when analyzed().
  double predicted_flops() const { return predicted_flops_; }

  /// True when the last factorize() succeeded: every pivot (squared diagonal of L) finite and
  /// above `relative` times the largest, the test SimplicialLDLT's pivots get too.
  bool pivots_above(double relative) const {
    const cholmod_factor* factor = this->m_cholmodFactor;
    if (this->info() != Eigen::Success || factor == nullptr || !factor->is_super) return false;
    // Supernode s holds columns super[s] .. super[s+1]-1 as a dense column-major block of
    // pi[s+1] - pi[s] rows starting at x + px[s]; its diagonal has stride rows + 1.
    using Index = typename SparseMatrix::StorageIndex;
    const auto* super = static_cast<const Index*>(factor->super);
    const auto* pi = static_cast<const Index*>(factor->pi);
    const auto* px = static_cast<const Index*>(factor->px);
    const auto* x = static_cast<const double*>(factor->x);
    double smallest = INFINITY, largest = 0;
    for (std::size_t s = 0; s < factor->nsuper; ++s) {
      const std::size_t columns = std::size_t(super[s + 1] - super[s]), rows = std::size_t(pi[s + 1] - pi[s]);
      for (std::size_t c = 0; c < columns; ++c) {
        const double l = x[std::size_t(px[s]) + c * (rows + 1)];
        const double pivot = l * l;
        if (!std::isfinite(pivot)) return false;
        smallest = std::min(smallest, pivot);
        largest = std::max(largest, pivot);
      }
    }
    return smallest > relative * largest;
  }

 private:
  bool analyzed_ = false;
  double predicted_flops_ = 0;
};

}  // namespace nldr::detail
