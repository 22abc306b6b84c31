// The optional sparse LU behind standard LLE's eigensolver (gram_eigen.hpp): SuiteSparse's UMFPACK
// (Davis 2004) through Eigen's UmfPackSupport. Compiled only when NLDR_HAVE_SUITESPARSE is defined,
// which the CMake target nldr::suitesparse does (it also links UMFPACK).
#pragma once

#if !defined(NLDR_HAVE_SUITESPARSE)
#error "nldr/embed/detail/umfpack_factor.hpp needs SuiteSparse: link the CMake target nldr::suitesparse"
#endif

#include <Eigen/SparseCore>
#include <Eigen/UmfPackSupport>

#include <type_traits>

namespace nldr::detail {

/// UMFPACK's LU of a square sparse matrix with what Eigen's wrapper lacks: solves with the
/// transpose. Configured for the matrices it gets here (I - W of a kNN graph, nearly symmetric
/// pattern, unit diagonal): the symmetric strategy (AMD on the pattern of A + A^T, diagonal pivots
/// preferred), and no iterative refinement, so that a solve is one pass through L and U (refinement
/// made each solve 5x slower, for residuals already at 1e-11 of the right-hand side).
template <class SparseMatrix>
class UmfpackLu : public Eigen::UmfPackLU<SparseMatrix> {
  static_assert(std::is_same_v<typename SparseMatrix::StorageIndex, int>, "UmfpackLu calls UMFPACK's int interface");

 public:
  UmfpackLu() {
    this->umfpackControl()(UMFPACK_STRATEGY) = UMFPACK_STRATEGY_SYMMETRIC;
    this->umfpackControl()(UMFPACK_IRSTEP) = 0;
  }

  /// x = A^-1 b, or A^-T b when `transposed` (b, x: N entries each, distinct); false on a UMFPACK error.
  bool solve(bool transposed, const double* b, double* x) const {
    return umfpack_di_solve(transposed ? UMFPACK_At : UMFPACK_A, this->mp_matrix.outerIndexPtr(),
                            this->mp_matrix.innerIndexPtr(), this->mp_matrix.valuePtr(), x, b, this->m_numeric,
                            this->m_control.data(), this->m_umfpackInfo.data()) == UMFPACK_OK;
  }
};

}  // namespace nldr::detail
