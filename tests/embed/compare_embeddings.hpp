// Comparing embeddings whose columns are defined up to sign (eigenvectors).
#pragma once

#include <Eigen/Core>

#include <algorithm>

namespace embed_test {

/// Largest |difference| between two embeddings after flipping each column of b to match a's sign.
template <class A, class B>
double max_difference_up_to_sign(const A& a, const B& b) {
  double worst = 0;
  for (Eigen::Index c = 0; c < a.cols(); ++c) {
    const Eigen::VectorXd x = a.col(c).template cast<double>(), y = b.col(c).template cast<double>();
    const double sign = x.dot(y) < 0 ? -1 : 1;
    worst = std::max(worst, (x - sign * y).cwiseAbs().maxCoeff());
  }
  return worst;
}

}  // namespace embed_test
