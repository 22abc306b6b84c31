// A Spectra operator that reports progress after every product: how the Lanczos eigensolvers
// (sparse_eigen.hpp, dense_top_eigen.hpp, gram_eigen.hpp) report and can be cancelled.
//
// Spectra calls perform_op from the calling thread, between its own steps, so the callback runs
// outside any parallel region (a product's own parallel loop has ended when it returns). The number
// of products is not known in advance (Lanczos restarts until the Ritz values converge), so the
// fraction is OpenEndedProgress's k / (k + ncv) after k products: ncv (the Lanczos basis size) is
// what one restart costs, and most of the project's solves converge within one or two restarts.
// A cancel throws nldr::cancelled out of Spectra's compute(), which holds no resources of its own.
#pragma once

#include <nldr/core/progress.hpp>

#include <Eigen/Core>

namespace nldr::detail {

/// Wraps the operator `Op` (Scalar, rows, cols, perform_op, and set_shift for the shift-invert
/// solver) and steps `progress` after each product.
template <class Op>
class ReportingOperator {
 public:
  using Scalar = typename Op::Scalar;
  ReportingOperator(Op& op, OpenEndedProgress& progress) : op_(op), progress_(progress) {}
  Eigen::Index rows() const { return op_.rows(); }
  Eigen::Index cols() const { return op_.cols(); }
  void set_shift(Scalar sigma) { op_.set_shift(sigma); }
  void perform_op(const Scalar* x, Scalar* y) const {
    op_.perform_op(x, y);
    progress_.step();
  }

 private:
  Op& op_;
  OpenEndedProgress& progress_;
};

}  // namespace nldr::detail
