// t-SNE's input affinities (van der Maaten & Hinton 2008; van der Maaten 2014; docs/methods/tsne.md):
// for each point i a Gaussian bandwidth beta_i = 1 / (2 sigma_i^2) found by bisection so that the
// conditional distribution p_{j|i} = exp(-beta_i d_ij^2) / sum_l exp(-beta_i d_il^2) over i's
// neighbors has perplexity 2^H = `perplexity` (H its entropy in bits), then the joint, symmetric
// P = (P_cond + P_cond^T) / 2N, which sums to 1. The neighbors are the lists of any selector's graph
// (van der Maaten 2014 uses the 3 x perplexity nearest), or every other point of a distance matrix.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>
#include <nldr/core/types.hpp>
#include <nldr/neighbors/graph.hpp>

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <utility>
#include <vector>

namespace nldr::detail {

/// Symmetric joint affinities P (row-major, no diagonal, entries sum to 1).
using TsneAffinities = Eigen::SparseMatrix<double, Eigen::RowMajor>;

/// The rule for how many neighbors a perplexity needs: a point with k neighbors reaches at most
/// perplexity k (uniform p_{j|i}), so every point needs more than `perplexity` neighbors.
inline bool enough_neighbors(index_t k, double perplexity) { return double(k) > perplexity; }

/// Conditional affinities p (one per neighbor) of a point whose neighbors lie at squared distances
/// `squared`, with the bandwidth found by bisection on beta until the entropy is log(perplexity)
/// (natural log; 2^H in bits is the same perplexity) to within 1e-10 or beta stops changing.
/// Distances are taken relative to the nearest (a common factor of every p), so no exp underflows
/// for the nearest neighbor. Returns beta. Duplicates (all distances equal) give the uniform p.
inline double calibrate_conditional(std::span<const double> squared, double perplexity, std::span<double> p) {
  const std::size_t k = squared.size();
  const double nearest = *std::min_element(squared.begin(), squared.end());
  const double target = std::log(perplexity);
  double beta = 1, low = 0, high = std::numeric_limits<double>::infinity();
  // A scale-free start: beta = 1 / (mean squared distance above the nearest).
  double spread = 0;
  for (double s : squared) spread += s - nearest;
  if (spread > 0) beta = double(k) / spread;
  double used = beta;  // the beta p was computed with
  for (int step = 0; step < 200; ++step) {
    used = beta;
    double sum = 0, weighted = 0;
    for (std::size_t j = 0; j < k; ++j) {
      p[j] = std::exp(-beta * (squared[j] - nearest));
      sum += p[j];
      weighted += p[j] * (squared[j] - nearest);
    }
    // H = log(sum) + beta <d^2 - nearest>_p.
    const double entropy = std::log(sum) + beta * weighted / sum;
    for (std::size_t j = 0; j < k; ++j) p[j] /= sum;
    if (std::abs(entropy - target) < 1e-10) break;
    if (entropy > target) {  // too flat: narrower kernel
      low = beta;
      beta = std::isinf(high) ? beta * 2 : (beta + high) / 2;
    } else {
      high = beta;
      beta = (beta + low) / 2;
    }
    if (beta == low || beta == high) break;  // the bracket has shrunk to one double
  }
  return used;
}

/// The joint P = (C + C^T) / 2N from conditional rows (row i holds (j, p_{j|i}) in offsets[i] ..
/// offsets[i + 1]), numbered by `order` (point order[r] becomes row and column r; empty: as given).
/// Built straight into compressed rows, without a list of triplets or a permuted copy, whose peaks
/// were most of t-SNE's memory at 10^6 points (docs/methods/tsne.md, "Cost"). An entry is
/// p_{j|i} / 2N + p_{i|j} / 2N, or one of the two where only one list holds the pair; a self-loop
/// carries nothing and is left out. Rows in parallel, each summed in its own fixed order: the same on
/// any thread count.
inline TsneAffinities symmetrize_conditional(index_t n, std::span<const offset_t> offsets,
                                             std::span<const index_t> columns, std::span<const double> values,
                                             std::span<const index_t> order = {}) {
  const auto point_of = [&](index_t r) { return order.empty() ? r : order[std::size_t(r)]; };
  std::vector<index_t> number(static_cast<std::size_t>(n));  // point -> its row in P
  for (index_t r = 0; r < n; ++r) number[point_of(r)] = r;
  const double scale = 1.0 / (2.0 * double(n));

  // C^T in the new numbering: for row r, the rows that list it, ascending, with their p.
  std::vector<offset_t> in_offsets(static_cast<std::size_t>(n) + 1, 0);
  for (index_t i = 0; i < n; ++i)
    for (offset_t e = offsets[i]; e < offsets[i + 1]; ++e)
      if (columns[e] != i) ++in_offsets[number[columns[e]] + 1];
  for (index_t r = 0; r < n; ++r) in_offsets[r + 1] += in_offsets[r];
  std::vector<index_t> in_rows(static_cast<std::size_t>(in_offsets[n]));
  std::vector<double> in_values(in_rows.size());
  {
    std::vector<offset_t> next(in_offsets.begin(), in_offsets.end() - 1);
    for (index_t s = 0; s < n; ++s) {
      const index_t i = point_of(s);
      for (offset_t e = offsets[i]; e < offsets[i + 1]; ++e)
        if (columns[e] != i) {
          const offset_t k = next[number[columns[e]]]++;
          in_rows[k] = s;
          in_values[k] = values[e];
        }
    }
  }

  // Row r: its own list, sorted by column in the new numbering, merged with what lists it;
  // `emit(column, value)` for each entry of the row, in column order.
  std::vector<std::vector<std::pair<index_t, double>>> scratch(static_cast<std::size_t>(max_threads()));
  const auto merge_row = [&](index_t r, auto&& emit) {
    auto& own = scratch[std::size_t(thread_index())];
    own.clear();
    const index_t i = point_of(r);
    for (offset_t e = offsets[i]; e < offsets[i + 1]; ++e)
      if (columns[e] != i) own.emplace_back(number[columns[e]], values[e]);
    std::stable_sort(own.begin(), own.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    std::size_t a = 0;
    offset_t b = in_offsets[r];
    while (a < own.size() || b < in_offsets[r + 1]) {
      const index_t column = std::min(a < own.size() ? own[a].first : n, b < in_offsets[r + 1] ? in_rows[b] : n);
      double sum = 0;
      for (; a < own.size() && own[a].first == column; ++a) sum += own[a].second * scale;
      for (; b < in_offsets[r + 1] && in_rows[b] == column; ++b) sum += in_values[b] * scale;
      emit(column, sum);
    }
  };
  TsneAffinities P(n, n);
  std::vector<offset_t> sizes(static_cast<std::size_t>(n));
  parallel_for(0, n, [&](std::int64_t r) {
    offset_t count = 0;
    merge_row(index_t(r), [&](index_t, double) { ++count; });
    sizes[r] = count;
  });
  offset_t total = 0;
  for (offset_t size : sizes) total += size;
  // Eigen's sparse matrices count their entries in int.
  if (total > std::numeric_limits<int>::max())
    throw_invalid("graph", "t-SNE's P would hold ", total, " entries, more than the ", std::numeric_limits<int>::max(),
                  " a sparse matrix can: use fewer neighbors per point (k) with a lower perplexity, or fewer points");
  P.outerIndexPtr()[0] = 0;
  for (index_t r = 0; r < n; ++r) P.outerIndexPtr()[r + 1] = int(P.outerIndexPtr()[r] + sizes[r]);
  P.resizeNonZeros(P.outerIndexPtr()[n]);
  parallel_for(0, n, [&](std::int64_t r) {
    auto k = std::ptrdiff_t(P.outerIndexPtr()[r]);
    merge_row(index_t(r), [&](index_t column, double value) {
      P.innerIndexPtr()[k] = int(column);
      P.valuePtr()[k++] = value;
    });
  });
  return P;
}

/// The error for a graph with too few neighbors for the perplexity, naming the flags of the tool and
/// of Python that fix it.
[[noreturn]] inline void throw_too_few_neighbors(index_t point, index_t degree, double perplexity) {
  throw_invalid("perplexity", "point ", point, " has ", degree, " neighbors in the graph, but perplexity ", perplexity,
                " needs more than ", perplexity, " per point (a point with k neighbors reaches at most perplexity k): "
                "raise the graph's k to about 3 x perplexity = ", std::ceil(3 * perplexity),
                " or lower the perplexity below ", degree, " (tool: --k and --perplexity; Python: n_neighbors and "
                "perplexity); a pruning selector also needs min_neighbors above the perplexity");
}

/// P from the lists of `graph` (directed lists as the selector built them; lengths as the graph
/// holds them), numbered by `order` as symmetrize_conditional. Every point needs more neighbors than
/// the perplexity (enough_neighbors). \throws nldr::invalid_argument naming "perplexity" otherwise.
template <Real T>
TsneAffinities graph_affinities(const NeighborGraph<T>& graph, double perplexity, std::span<const index_t> order = {}) {
  const index_t n = graph.size();
  for (index_t i = 0; i < n; ++i) {
    index_t degree = 0;
    for (index_t j : graph.neighbors(i)) degree += j != i;
    if (!enough_neighbors(degree, perplexity)) throw_too_few_neighbors(i, degree, perplexity);
  }
  const auto offsets = graph.offsets();
  const auto indices = graph.indices();
  const auto lengths = graph.distances();
  std::vector<double> conditional(indices.size(), 0.0);
  parallel_for(0, n, [&](std::int64_t i) {
    // A self-loop (a user's graph) carries no affinity: calibrate over the others.
    std::vector<double> own, p;
    std::vector<offset_t> where;
    for (offset_t e = offsets[i]; e < offsets[i + 1]; ++e)
      if (indices[e] != i) {
        own.push_back(double(lengths[e]) * double(lengths[e]));
        where.push_back(e);
      }
    p.resize(own.size());
    calibrate_conditional(own, perplexity, p);
    for (std::size_t a = 0; a < where.size(); ++a) conditional[where[a]] = p[a];
  });
  return symmetrize_conditional(n, offsets, indices, conditional, order);
}

/// P over all pairs from an N x N distance matrix (symmetric, zero diagonal; the exact affinities
/// of van der Maaten & Hinton 2008). O(N^2) time and memory for the matrix the caller holds; P itself
/// keeps every pair. Needs N - 1 > perplexity.
/// \throws nldr::invalid_argument naming "perplexity".
template <class Derived>
TsneAffinities distance_affinities(const Eigen::MatrixBase<Derived>& D, double perplexity) {
  const auto n = index_t(D.rows());
  if (!enough_neighbors(n - 1, perplexity)) throw_too_few_neighbors(0, n - 1, perplexity);
  std::vector<offset_t> offsets(std::size_t(n) + 1);
  for (index_t i = 0; i <= n; ++i) offsets[i] = offset_t(i) * (n - 1);
  std::vector<index_t> columns(std::size_t(n) * std::size_t(n - 1));
  std::vector<double> conditional(columns.size());
  parallel_for(0, n, [&](std::int64_t i) {
    std::vector<double> squared;
    squared.reserve(std::size_t(n - 1));
    for (index_t j = 0; j < n; ++j)
      if (j != i) {
        columns[offsets[i] + offset_t(squared.size())] = j;
        squared.push_back(double(D(i, j)) * double(D(i, j)));
      }
    calibrate_conditional(squared, perplexity, std::span<double>(conditional.data() + offsets[i], squared.size()));
  });
  return symmetrize_conditional(n, offsets, columns, conditional);
}

}  // namespace nldr::detail
