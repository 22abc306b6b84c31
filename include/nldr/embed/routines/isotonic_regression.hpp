// Weighted monotone (isotonic) regression by pool-adjacent-violators (Kruskal 1964; Barlow et al. 1972),
// in parallel chunks: the fit behind non-metric MDS's disparities (embed/routines/monotone_regression.hpp).
#pragma once

#include <nldr/core/parallel.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace nldr {
namespace detail {

/// One block of a monotone (isotonic) fit: the entries from the previous block's `end` up to `end`
/// (exclusive) all take the block's mean; `weight` is their total weight. While pooling, `value` is the
/// weighted sum of the entries; pool_adjacent_violators leaves their mean there.
struct PoolBlock {
  double value, weight;
  std::size_t end;
};

/// The blocks of pool-adjacent-violators (Kruskal 1964; Barlow et al. 1972) as a stack of increasing
/// means: the last block in registers, the ones below it at base[0, depth). push() appends a block
/// (value = weighted sum), pooling it with the last ones while their mean is not below its own. Weights
/// > 0; means compared as a / u >= b / v <=> a v >= b u, so that no division waits on the one before.
struct PoolStack {
  PoolBlock* base;
  std::size_t depth = 0;
  PoolBlock top{0, 0, 0};  // weight 0: no block yet

  void push(const PoolBlock& next) {
    if (top.weight > 0 && top.value * next.weight >= next.value * top.weight) {
      top.value += next.value;
      top.weight += next.weight;
      top.end = next.end;
      while (depth > 0 && base[depth - 1].value * top.weight >= top.value * base[depth - 1].weight) {
        --depth;
        top.value += base[depth].value;
        top.weight += base[depth].weight;
      }
    } else {
      if (top.weight > 0) base[depth++] = top;
      top = next;
    }
  }
  /// Stores the last block; returns the number of blocks.
  std::size_t finish() {
    if (top.weight > 0) base[depth++] = top;
    top.weight = 0;
    return depth;
  }
};

/// Room for one block per entry, allocated without initialization: a chunk's stack uses only the start
/// of its part, so most pages are never touched. Grows, never shrinks.
class PoolBuffer {
 public:
  PoolBlock* reserve(std::size_t m) {
    if (m > capacity_) {
      blocks_.reset(new PoolBlock[m]);
      capacity_ = m;
    }
    return blocks_.get();
  }
  const PoolBlock* data() const { return blocks_.get(); }

 private:
  std::unique_ptr<PoolBlock[]> blocks_;
  std::size_t capacity_ = 0;
};

/// A fit as pool_adjacent_violators leaves it: blocks[0, count), and sum w f^2 over its entries.
struct MonotoneFit {
  std::size_t count = 0;
  double squares = 0;
};

/// Weighted monotone (isotonic, non-decreasing) regression of values[0, m) by pool-adjacent-violators,
/// O(m): entry e has weight weights[e] > 0 (nullptr: every weight 1) and ends at ends[e] (nullptr:
/// e + 1), the position the blocks' ends count in. Chunks of `chunk` entries are pooled on their own
/// in parallel, each onto a stack in `buffer` where its entries start; then the chunks' blocks, in
/// order, are pooled onto one stack at the front (a chunk's pools are pools of the whole fit too, as any
/// pool of adjacent violators is, so only blocks near a boundary change). A block is read before a
/// block is written at or below its place, so one buffer of m blocks holds all. The chunks depend on
/// m only: the fit does not depend on the thread count. The fit: buffer.data()[0, count).
inline MonotoneFit pool_adjacent_violators(const double* values, const double* weights, const std::size_t* ends,
                                           std::size_t m, PoolBuffer& buffer,
                                           std::size_t chunk = std::size_t(1) << 16) {
  PoolBlock* blocks = buffer.reserve(m);
  const auto chunks = std::int64_t((m + chunk - 1) / chunk);
  std::vector<std::size_t> tops(std::size_t(chunks), 0);
  parallel_for(
      0, chunks,
      [&](std::int64_t c) {
        const std::size_t begin = std::size_t(c) * chunk, end = std::min(m, begin + chunk);
        PoolStack stack{blocks + begin};
        if (weights == nullptr && ends == nullptr)  // the common case, without the multiplications by 1
          for (std::size_t e = begin; e < end; ++e) stack.push({values[e], 1.0, e + 1});
        else
          for (std::size_t e = begin; e < end; ++e) {
            const double w = weights != nullptr ? weights[e] : 1.0;
            stack.push({w * values[e], w, ends != nullptr ? ends[e] : e + 1});
          }
        tops[std::size_t(c)] = stack.finish();
      },
      1);
  PoolStack stack{blocks};
  for (std::int64_t c = 0; c < chunks; ++c)
    for (std::size_t k = 0; k < tops[std::size_t(c)]; ++k) stack.push(blocks[std::size_t(c) * chunk + k]);
  MonotoneFit fit;
  fit.count = stack.finish();
  for (std::size_t b = 0; b < fit.count; ++b) {
    blocks[b].value /= blocks[b].weight;
    fit.squares += blocks[b].weight * blocks[b].value * blocks[b].value;
  }
  return fit;
}

}  // namespace detail
}  // namespace nldr
