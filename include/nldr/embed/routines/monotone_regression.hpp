// The non-metric step of stress majorization (Kruskal 1964; Borg & Groenen 2005, ch. 9): the pairs sorted
// once by dissimilarity, and per transform the monotone regression of the distances on that order with its
// stress pass (embed/routines/majorization.hpp; docs/methods/smacof.md).
#pragma once

#include <nldr/core/parallel.hpp>
#include <nldr/core/types.hpp>
#include <nldr/embed/majorization_options.hpp>
#include <nldr/embed/routines/isotonic_regression.hpp>
#include <nldr/embed/routines/majorization_problem.hpp>
#include <nldr/embed/routines/stress_kernel.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <limits>
#include <numeric>
#include <type_traits>
#include <utility>
#include <vector>

namespace nldr {
namespace detail {

/// The pairs i < j of positive weight in the order of their dissimilarities, ties in row-major order
/// (i, then j), sorted once per fit and shared by every run.
struct SortedPairs {
  struct Pair {
    index_t i, j;
  };
  std::vector<Pair> pairs;
  std::vector<double> weights;  ///< w_ij in this order; empty: every weight 1
  /// [begin, end) of every run of two or more equal dissimilarities (ascending).
  std::vector<std::pair<std::size_t, std::size_t>> ties;
  std::vector<double> distinct;  ///< the distinct dissimilarities, increasing
  double target_norm = 0;         ///< sum w delta^2, summed in this order

  /// Bytes per pair at most: pair, weight and distinct dissimilarity, and while sorting the 16-byte keys.
  static constexpr std::uint64_t pair_bytes = 40;

  /// A bucket sort: the pairs go, row block by row block in parallel, to about one bucket per four
  /// pairs splitting the range of the dissimilarities evenly (the bucket index is monotone in the
  /// value), in row-major order within each; each bucket is then sorted on its own by (delta, i, j).
  /// That reads the N x N matrix in its own order three times and sorts buckets of a few pairs in cache
  /// (a bucket crowded by a skewed spread is still sorted in O(k log k)), where one comparison sort of
  /// all N^2 / 2 keys took 2.7x as long (N = 2000). The order is unique: it does not depend on the
  /// thread count.
  explicit SortedPairs(const MajorizationProblem& problem) {
    struct Key {
      double delta;
      index_t i, j;
    };
    const auto n = index_t(problem.delta.rows());
    const bool unit = problem.weights.size() == 0;
    // Row blocks of about equal pair counts, one per thread.
    const std::uint64_t all = std::uint64_t(n) * std::uint64_t(n - 1) / 2;
    const auto parts = std::int64_t(std::clamp<std::uint64_t>(all >> 16, 1, std::uint64_t(max_threads())));
    std::vector<index_t> first_row(std::size_t(parts) + 1, n);
    first_row[0] = 0;
    for (index_t i = 0, q = 1; i < n && q < parts; ++i)  // pairs in rows before i: i (2n - i - 1) / 2
      if (std::uint64_t(i) * std::uint64_t(2 * n - i - 1) / 2 * std::uint64_t(parts) >= all * std::uint64_t(q))
        first_row[std::size_t(q++)] = i;
    auto rows_of = [&](std::int64_t q, auto&& visit) {
      for (index_t i = first_row[std::size_t(q)]; i < first_row[std::size_t(q) + 1]; ++i)
        for (index_t j = i + 1; j < n; ++j)
          if (pair_present(problem, i, j)) visit(i, j, problem.delta(i, j));
    };
    std::vector<double> least(std::size_t(parts), std::numeric_limits<double>::infinity()), most(std::size_t(parts), 0);
    std::vector<std::size_t> present(std::size_t(parts), 0);
    parallel_for(
        0, parts,
        [&](std::int64_t q) {
          rows_of(q, [&](index_t, index_t, double delta) {
            least[std::size_t(q)] = std::min(least[std::size_t(q)], delta);
            most[std::size_t(q)] = std::max(most[std::size_t(q)], delta);
            ++present[std::size_t(q)];
          });
        },
        1);
    const double low = *std::min_element(least.begin(), least.end());
    const double range = *std::max_element(most.begin(), most.end()) - low;
    // About four pairs a bucket; one bucket when the range is 0 (or so small that buckets / range overflows).
    std::size_t buckets = std::max<std::size_t>(1, std::accumulate(present.begin(), present.end(), std::size_t(0)) / 4);
    if (!std::isfinite(double(buckets) / range)) buckets = 1;
    const double scale = buckets > 1 ? double(buckets) / range : 0.0;
    auto bucket_of = [&](double delta) { return std::min(buckets - 1, std::size_t((delta - low) * scale)); };
    // counts[q * buckets + b]: part q's pairs in bucket b, then where they go.
    std::vector<std::size_t> counts(std::size_t(parts) * buckets, 0);
    parallel_for(
        0, parts,
        [&](std::int64_t q) {
          std::size_t* count = counts.data() + std::size_t(q) * buckets;
          rows_of(q, [&](index_t, index_t, double delta) { ++count[bucket_of(delta)]; });
        },
        1);
    std::vector<std::size_t> bucket_start(buckets + 1, 0);
    std::size_t offset = 0;
    for (std::size_t b = 0; b < buckets; ++b) {
      bucket_start[b] = offset;
      for (std::int64_t q = 0; q < parts; ++q) offset += std::exchange(counts[std::size_t(q) * buckets + b], offset);
    }
    bucket_start[buckets] = offset;
    std::vector<Key> keys(offset);
    parallel_for(
        0, parts,
        [&](std::int64_t q) {
          std::size_t* next = counts.data() + std::size_t(q) * buckets;
          rows_of(q, [&](index_t i, index_t j, double delta) { keys[next[bucket_of(delta)]++] = {delta, i, j}; });
        },
        1);
    parallel_for(
        0, std::int64_t(buckets),
        [&](std::int64_t b) {
          std::sort(keys.begin() + std::ptrdiff_t(bucket_start[std::size_t(b)]),
                    keys.begin() + std::ptrdiff_t(bucket_start[std::size_t(b) + 1]), [](const Key& u, const Key& v) {
                      return u.delta < v.delta || (u.delta == v.delta && (u.i < v.i || (u.i == v.i && u.j < v.j)));
                    });
        },
        4096);
    pairs.resize(keys.size());
    if (!unit) weights.resize(keys.size());
    for (std::size_t p = 0, tie = 0; p < keys.size(); ++p) {
      const Key& key = keys[p];
      const double w = unit ? 1.0 : problem.weights(key.i, key.j);
      pairs[p] = {key.i, key.j};
      if (!unit) weights[p] = w;
      target_norm += w * key.delta * key.delta;
      if (p == 0 || key.delta != keys[p - 1].delta) {
        tie = p;
        distinct.push_back(key.delta);
      }
      if (p > tie && (p + 1 == keys.size() || keys[p + 1].delta != key.delta)) ties.push_back({tie, p + 1});
    }
  }
};

/// The non-metric step of one run and its stress pass, both in the order of the dissimilarities
/// (SortedPairs). Each iteration computes the distances pair by pair in this order from the
/// configuration (N x d, in cache), sorts the tie runs by distance (primary ties) and fits the monotone
/// regression, kept as its blocks; the stress pass then reads each pair's distance and walks the blocks
/// for its disparity, in the same order, instead of scattering N^2 / 2 disparities into an N x N matrix
/// and reading them back row by row. The distances, the tie sorts and the pass run in parallel (the
/// pass in chunks of pairs fixed by N, each adding B X into an N x d slot of its own, summed in chunk
/// order: no sum depends on the thread count); pool-adjacent-violators in parallel chunks too.
/// Only a run with primary ties and tied dissimilarities reorders, so only it copies the pairs.
class MonotoneRegression {
 public:
  using Pair = SortedPairs::Pair;

  MonotoneRegression(const SortedPairs& sorted, TieApproach ties)
      : sorted_(sorted), primary_(ties == TieApproach::primary) {
    if (primary_ && !sorted.ties.empty()) {
      own_pairs_ = sorted.pairs;
      own_weights_ = sorted.weights;
    }
    pairs_ = own_pairs_.empty() ? sorted.pairs.data() : own_pairs_.data();
    const std::vector<double>& weights = own_pairs_.empty() ? sorted.weights : own_weights_;
    weights_ = weights.empty() ? nullptr : weights.data();
    if (!primary_ && !sorted.ties.empty()) {  // secondary ties: one regression entry per tie run
      std::size_t tie = 0;
      for (std::size_t p = 0; p < sorted.pairs.size();) {
        const std::size_t end = tie < sorted.ties.size() && sorted.ties[tie].first == p ? sorted.ties[tie++].second : p + 1;
        double weight_sum = 0;
        for (std::size_t q = p; q < end; ++q) weight_sum += weights_ != nullptr ? weights_[q] : 1.0;
        entry_ends_.push_back(end);
        entry_weights_.push_back(weight_sum);
        p = end;
      }
      entry_values_.resize(entry_ends_.size());
    }
  }
  MonotoneRegression(const MonotoneRegression&) = delete;
  MonotoneRegression& operator=(const MonotoneRegression&) = delete;

  /// Bytes per pair of one run: its distance, the regression's block, and with primary ties among tied
  /// dissimilarities its own copy of the pair and weight (secondary ties: per tie run, a value, a
  /// weight and an end, at most as much).
  static constexpr std::uint64_t pair_bytes = 8 + sizeof(PoolBlock) + 16;

  /// The monotone regression f of the distances of X (N x d) on the dissimilarity order; the
  /// disparities are dhat = scale * f with scale making sum w dhat^2 = sum w delta^2. Returns scale
  /// (0 when every distance is 0).
  /// (fit and stress_pass are templates only so that a unit instantiates their kernels where it calls them:
  /// docs/building.md, "Compile time".)
  double fit(const std::same_as<Matrix<double>> auto& X) {
    const Eigen::Index n = X.rows();
    const std::size_t count = sorted_.pairs.size(), chunk = chunk_pairs(n);
    distances_.resize(count);
    with_dimension(X.cols(), false, [&](auto fixed, auto) {
      const Eigen::Index dim = fixed > 0 ? Eigen::Index(fixed) : X.cols();
      const double* x = X.data();  // row-major: point i at x + i * dim
      parallel_for(
          0, std::int64_t((count + chunk - 1) / chunk),
          [&](std::int64_t c) {
            const std::size_t end = std::min(count, std::size_t(c + 1) * chunk);
            for (std::size_t p = std::size_t(c) * chunk; p < end; ++p) {
              const double *xi = x + pairs_[p].i * dim, *xj = x + pairs_[p].j * dim;
              double sum = 0;
              for (Eigen::Index k = 0; k < dim; ++k) sum += (xi[k] - xj[k]) * (xi[k] - xj[k]);
              distances_[p] = std::sqrt(sum);
            }
          },
          1);
    });
    MonotoneFit monotone;
    if (primary_) {  // tied dissimilarities ordered by distance, the order that fits best
      tie_scratch_.resize(std::size_t(max_threads()));
      parallel_for(
          0, std::int64_t(sorted_.ties.size()),
          [&](std::int64_t t) { sort_tie(sorted_.ties[std::size_t(t)], tie_scratch_[std::size_t(thread_index())]); }, 16);
      monotone = pool_adjacent_violators(distances_.data(), weights_, nullptr, count, blocks_);
    } else if (entry_ends_.empty()) {  // secondary ties but no tie: every pair is its own entry
      monotone = pool_adjacent_violators(distances_.data(), weights_, nullptr, count, blocks_);
    } else {  // secondary ties: each tie run one entry, its weighted mean distance
      parallel_for(
          0, std::int64_t(entry_ends_.size()),
          [&](std::int64_t e) {
            double sum = 0;
            for (std::size_t p = e > 0 ? entry_ends_[std::size_t(e) - 1] : 0; p < entry_ends_[std::size_t(e)]; ++p)
              sum += (weights_ != nullptr ? weights_[p] : 1.0) * distances_[p];
            entry_values_[std::size_t(e)] = sum / entry_weights_[std::size_t(e)];
          },
          4096);
      monotone = pool_adjacent_violators(entry_values_.data(), entry_weights_.data(), entry_ends_.data(),
                                         entry_ends_.size(), blocks_);
    }
    block_count_ = monotone.count;
    scale_ = monotone.squares > 0 ? std::sqrt(sorted_.target_norm / monotone.squares) : 0.0;
    return scale_;
  }

  /// The stress pass at the X of the last fit, with its disparities (see StressPass).
  StressPass stress_pass(const std::same_as<Matrix<double>> auto& X) {
    const Eigen::Index n = X.rows(), dim = X.cols();
    const std::size_t count = sorted_.pairs.size(), chunk = chunk_pairs(n);
    const auto chunks = std::int64_t((count + chunk - 1) / chunk);
    slots_.resize(chunks * n, dim);
    sums_.resize(chunks, 3);
    with_dimension(dim, weights_ != nullptr, [&](auto fixed, auto weighted) {
      const Eigen::Index d = fixed > 0 ? Eigen::Index(fixed) : dim;
      const double* x = X.data();
      parallel_for(
          0, chunks,
          [&](std::int64_t c) {
            double* slot = slots_.data() + c * n * d;  // row-major: point i at slot + i * d
            std::fill(slot, slot + n * d, 0.0);
            const std::size_t p0 = std::size_t(c) * chunk, p1 = std::min(count, p0 + chunk);
            const PoolBlock* block = std::upper_bound(blocks_.data(), blocks_.data() + block_count_, p0,
                                                      [](std::size_t p, const PoolBlock& b) { return p < b.end; });
            double raw = 0, distance_norm = 0, disparity_norm = 0;
            for (std::size_t p = p0; p < p1; ++block) {
              const double h = scale_ * block->value;
              for (const std::size_t end = std::min(p1, block->end); p < end; ++p) {
                const double dist = distances_[p], w = weighted ? weights_[p] : 1.0;
                raw += w * (h - dist) * (h - dist);
                distance_norm += w * dist * dist;
                disparity_norm += w * h * h;
                if (!(dist > 0)) continue;  // B_ij = 0 where d_ij = 0
                const double r = w * h / dist;
                const Pair pair = pairs_[p];
                const double *xi = x + pair.i * d, *xj = x + pair.j * d;
                double *si = slot + pair.i * d, *sj = slot + pair.j * d;
                if constexpr (fixed > 0) {  // one vector operation per step for d = 2 (SSE2)
                  using Point = Eigen::Array<double, decltype(fixed)::value, 1>;
                  const Point term = r * (Eigen::Map<const Point>(xi) - Eigen::Map<const Point>(xj));
                  Eigen::Map<Point>(si) += term;
                  Eigen::Map<Point>(sj) -= term;
                } else {
                  for (Eigen::Index k = 0; k < d; ++k) {
                    const double term = r * (xi[k] - xj[k]);
                    si[k] += term;
                    sj[k] -= term;
                  }
                }
              }
            }
            sums_.row(c) << raw, distance_norm, disparity_norm;
          },
          1);
    });
    StressPass pass;
    pass.BX = Matrix<double>::Zero(n, dim);
    parallel_for(0, n, [&](std::int64_t i) {
      for (std::int64_t c = 0; c < chunks; ++c) pass.BX.row(i) += slots_.row(c * n + i);
    });
    for (std::int64_t c = 0; c < chunks; ++c) {
      pass.raw += sums_(c, 0);
      pass.distance_norm += sums_(c, 1);
      pass.disparity_norm += sums_(c, 2);
    }
    return pass;
  }

  /// Pairs per chunk of the stress pass for N points: about N / 64 chunks, whose slots
  /// (N^2 d / 64 doubles) stay small beside the N^2 / 2 pairs.
  static std::size_t chunk_pairs(Eigen::Index n) { return std::max<std::size_t>(1024, 32 * std::size_t(n)); }

  /// The last fit as a map: one knot per distinct dissimilarity (its mean disparity), increasing.
  void knots(std::vector<double>& delta, std::vector<double>& value) const {
    delta = sorted_.distinct;
    value.clear();
    const PoolBlock* block = blocks_.data();
    std::size_t tie = 0;
    for (std::size_t p = 0; p < sorted_.pairs.size();) {
      const auto& ties = sorted_.ties;
      const std::size_t end = tie < ties.size() && ties[tie].first == p ? ties[tie++].second : p + 1;
      double sum = 0;
      for (std::size_t q = p; q < end; ++q) {
        while (block->end <= q) ++block;
        sum += block->value;
      }
      value.push_back(scale_ * sum / double(end - p));
      p = end;
    }
  }

 private:
  /// Calls f(std::integral_constant<int, dim>, std::bool_constant<weighted>) for dim = 1, 2, 3 (loops
  /// the compiler unrolls), dim 0 otherwise: the pair loops compiled for each case.
  template <class F>
  static void with_dimension(Eigen::Index dim, bool weighted, F&& f) {
    auto with_weights = [&](auto fixed) {
      if (weighted)
        f(fixed, std::true_type{});
      else
        f(fixed, std::false_type{});
    };
    switch (dim) {
      case 1: with_weights(std::integral_constant<int, 1>{}); break;
      case 2: with_weights(std::integral_constant<int, 2>{}); break;
      case 3: with_weights(std::integral_constant<int, 3>{}); break;
      default: with_weights(std::integral_constant<int, 0>{});
    }
  }

  /// Workspace of sort_tie, one per thread.
  struct TieScratch {
    std::vector<double> distances, weights;
    std::vector<Pair> pairs;
    std::vector<std::size_t> starts;
  };

  /// Insertion sort of n entries by distance, moving pairs and weights (nullptr: none) along: stable,
  /// O(n + inversions).
  static void insertion_sort(double* distances, Pair* pairs, double* weights, std::size_t n) {
    for (std::size_t p = 1; p < n; ++p) {
      const double distance = distances[p];
      if (!(distance < distances[p - 1])) continue;
      const Pair pair = pairs[p];
      const double weight = weights != nullptr ? weights[p] : 0.0;
      std::size_t q = p;
      for (; q > 0 && distance < distances[q - 1]; --q) {
        distances[q] = distances[q - 1];
        pairs[q] = pairs[q - 1];
        if (weights != nullptr) weights[q] = weights[q - 1];
      }
      distances[q] = distance;
      pairs[q] = pair;
      if (weights != nullptr) weights[q] = weight;
    }
  }

  /// Stable sort of the tie run [begin, end) by distance, moving pairs and weights along: a bucket sort
  /// over the run's range of distances, two buckets per entry (the bucket index is monotone in the
  /// distance), then insertion sort, which moves entries only within their buckets. O(n) for any
  /// smooth spread of distances, whatever order the run starts in; the result is the one stable order.
  void sort_tie(std::pair<std::size_t, std::size_t> run, TieScratch& scratch) {
    const auto [begin, end] = run;
    const std::size_t n = end - begin;
    double* distances = distances_.data() + begin;
    Pair* pairs = own_pairs_.data() + begin;
    double* weights = weights_ != nullptr ? own_weights_.data() + begin : nullptr;
    double low = distances[0], high = distances[0];
    for (std::size_t p = 1; p < n; ++p) low = std::min(low, distances[p]), high = std::max(high, distances[p]);
    const std::size_t buckets = 2 * n;  // few buckets hold two entries: the insertion sort rarely moves
    const double scale = double(buckets) / (high - low);
    if (n <= 16 || !std::isfinite(scale)) return insertion_sort(distances, pairs, weights, n);
    auto bucket = [&](double distance) { return std::min(buckets - 1, std::size_t((distance - low) * scale)); };
    scratch.starts.assign(buckets + 1, 0);
    for (std::size_t p = 0; p < n; ++p) ++scratch.starts[bucket(distances[p]) + 1];
    std::partial_sum(scratch.starts.begin(), scratch.starts.end(), scratch.starts.begin());
    scratch.distances.resize(n);
    scratch.pairs.resize(n);
    if (weights != nullptr) scratch.weights.resize(n);
    for (std::size_t p = 0; p < n; ++p) {
      const std::size_t to = scratch.starts[bucket(distances[p])]++;
      scratch.distances[to] = distances[p];
      scratch.pairs[to] = pairs[p];
      if (weights != nullptr) scratch.weights[to] = weights[p];
    }
    insertion_sort(scratch.distances.data(), scratch.pairs.data(), weights != nullptr ? scratch.weights.data() : nullptr, n);
    std::copy(scratch.distances.begin(), scratch.distances.end(), distances);
    std::copy(scratch.pairs.begin(), scratch.pairs.end(), pairs);
    if (weights != nullptr) std::copy(scratch.weights.begin(), scratch.weights.end(), weights);
  }

  const SortedPairs& sorted_;
  bool primary_;
  std::vector<Pair> own_pairs_;       // primary ties among tied dissimilarities: this run's order
  std::vector<double> own_weights_;   // and its weights
  std::vector<TieScratch> tie_scratch_;
  const Pair* pairs_ = nullptr;       // the pairs in this run's order
  const double* weights_ = nullptr;   // their weights, or nullptr: every weight 1
  std::vector<double> distances_;     // ||x_i - x_j|| of each pair at the last fit
  std::vector<std::size_t> entry_ends_;           // secondary ties: the regression's entries (tie runs)
  std::vector<double> entry_weights_, entry_values_;
  PoolBuffer blocks_;                 // the last fit: blocks_.data()[0, block_count_)
  std::size_t block_count_ = 0;
  double scale_ = 0;
  Matrix<double> slots_;              // the stress pass's chunk c: rows c N .. c N + N - 1
  Eigen::MatrixXd sums_;              // chunk c's raw stress, sum w d^2, sum w dhat^2
};

}  // namespace detail
}  // namespace nldr
