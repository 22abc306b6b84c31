// Pearson correlation accumulated in one pass, in double, in the order values are added
// (so a fixed order gives bit-identical results). Shared by the residual-variance metric
// and the embedders that report residual variance (Isomap, Landmark Isomap).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

namespace nldr {

/// Running sums for the Pearson correlation of pairs (a, b). Values are shifted by the first
/// pair seen, which keeps the sums well conditioned for large, nearly constant inputs.
class PearsonAccumulator {
 public:
  void add(double a, double b) {
    if (count_ == 0) {
      shift_a_ = a;
      shift_b_ = b;
    }
    a -= shift_a_;
    b -= shift_b_;
    ++count_;
    sum_a_ += a;
    sum_b_ += b;
    sum_aa_ += a * a;
    sum_bb_ += b * b;
    sum_ab_ += a * b;
  }
  /// Merges another accumulator (e.g. one per thread, merged in a fixed order).
  void merge(const PearsonAccumulator& other) {
    if (other.count_ == 0) return;
    if (count_ == 0) {
      *this = other;
      return;
    }
    // Re-express other's sums around this shift: x' = x + delta.
    const double da = other.shift_a_ - shift_a_, db = other.shift_b_ - shift_b_;
    const double n = double(other.count_);
    sum_aa_ += other.sum_aa_ + 2 * da * other.sum_a_ + n * da * da;
    sum_bb_ += other.sum_bb_ + 2 * db * other.sum_b_ + n * db * db;
    sum_ab_ += other.sum_ab_ + da * other.sum_b_ + db * other.sum_a_ + n * da * db;
    sum_a_ += other.sum_a_ + n * da;
    sum_b_ += other.sum_b_ + n * db;
    count_ += other.count_;
  }
  std::uint64_t count() const { return count_; }
  /// Whether the a values (b values) added so far vary: at least 2 pairs and a positive sum of
  /// squared deviations. Where one side does not, the correlation is undefined.
  bool a_varies() const { return count_ >= 2 && deviation_aa() > 0; }
  bool b_varies() const { return count_ >= 2 && deviation_bb() > 0; }
  /// Pearson r; NaN when fewer than 2 pairs or either side is constant.
  double correlation() const {
    if (!a_varies() || !b_varies()) return std::numeric_limits<double>::quiet_NaN();
    const double cov = sum_ab_ - sum_a_ * sum_b_ / double(count_);
    return cov / std::sqrt(deviation_aa() * deviation_bb());
  }

 private:
  double deviation_aa() const { return sum_aa_ - sum_a_ * sum_a_ / double(count_); }
  double deviation_bb() const { return sum_bb_ - sum_b_ * sum_b_ / double(count_); }

  std::uint64_t count_ = 0;
  double shift_a_ = 0, shift_b_ = 0;
  double sum_a_ = 0, sum_b_ = 0, sum_aa_ = 0, sum_bb_ = 0, sum_ab_ = 0;
};

/// Residual variance 1 - r^2 of the pairs accumulated (Tenenbaum, de Silva & Langford 2000): the
/// one definition behind the metric and the embedders that report it. NaN where r is undefined
/// (fewer than 2 pairs, or either side constant): the metric refuses such input before asking,
/// and an embedder's diagnostic reports NaN rather than failing the embedding it describes.
inline double residual_variance_of(const PearsonAccumulator& accumulator) {
  const double r = accumulator.correlation();
  return std::isnan(r) ? std::numeric_limits<double>::quiet_NaN() : 1.0 - r * r;
}

}  // namespace nldr
