// Deterministic eigenvector signs: an eigenvector is defined up to sign, so each
// column is flipped to make its largest-magnitude entry positive (ties: the first).
#pragma once

#include <Eigen/Core>

namespace nldr::detail {

template <class Derived>
void fix_signs(Eigen::MatrixBase<Derived>& vectors) {
  for (Eigen::Index c = 0; c < vectors.cols(); ++c) {
    Eigen::Index arg = 0;
    vectors.col(c).cwiseAbs().maxCoeff(&arg);
    if (vectors(arg, c) < 0) vectors.col(c) *= -1;
  }
}

}  // namespace nldr::detail
