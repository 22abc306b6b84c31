// A graph with a weight on each directed entry (CSR, each list ordered by index): UMAP's fuzzy
// simplicial set (McInnes, Healy & Melville 2018), and the weighted graph a spectral layout is taken
// of (embed/routines/spectral_layout.hpp). Where a NeighborGraph holds distances, this holds
// affinities in (0, 1].
#pragma once

#include <nldr/core/types.hpp>

#include <span>
#include <vector>

namespace nldr::routines {

struct WeightedGraph {
  std::vector<offset_t> row_offsets{0};  ///< list i = entries [row_offsets[i], row_offsets[i + 1])
  std::vector<index_t> columns;          ///< neighbor of each entry, ascending within a list
  std::vector<double> values;            ///< weight of each entry

  index_t size() const { return index_t(row_offsets.size() - 1); }
  offset_t num_edges() const { return row_offsets.back(); }
  std::span<const offset_t> offsets() const { return row_offsets; }
  std::span<const index_t> indices() const { return columns; }
  std::span<const index_t> neighbors(index_t i) const {
    return {columns.data() + row_offsets[i], std::size_t(row_offsets[i + 1] - row_offsets[i])};
  }
  std::span<const double> weights(index_t i) const {
    return {values.data() + row_offsets[i], std::size_t(row_offsets[i + 1] - row_offsets[i])};
  }
};

/// The symmetric graph with entry (i, j) = combine(a_ij, a_ji) on the union of the entries of `a` and
/// its transpose (a missing entry counts 0), zero results dropped. Lists in index order; O(E log k).
template <class Combine>
WeightedGraph combine_with_transpose(const WeightedGraph& a, const Combine& combine) {
  const index_t n = a.size();
  std::vector<offset_t> in_offsets(std::size_t(n) + 1, 0);
  for (index_t j : a.columns) ++in_offsets[std::size_t(j) + 1];
  for (index_t i = 0; i < n; ++i) in_offsets[i + 1] += in_offsets[i];
  std::vector<index_t> in_columns(a.columns.size());
  std::vector<double> in_values(a.columns.size());
  {
    std::vector<offset_t> cursor(in_offsets.begin(), in_offsets.end() - 1);
    for (index_t i = 0; i < n; ++i)  // rows visited in order, so each transposed list is ordered by index
      for (offset_t e = a.row_offsets[i]; e < a.row_offsets[i + 1]; ++e) {
        const offset_t slot = cursor[a.columns[e]]++;
        in_columns[slot] = i;
        in_values[slot] = a.values[e];
      }
  }
  WeightedGraph result;
  result.row_offsets.assign(std::size_t(n) + 1, 0);
  for (index_t i = 0; i < n; ++i) {
    offset_t p = a.row_offsets[i], q = in_offsets[i];
    const offset_t p_end = a.row_offsets[i + 1], q_end = in_offsets[i + 1];
    while (p < p_end || q < q_end) {
      index_t j;
      double out = 0, in = 0;
      if (q == q_end || (p < p_end && a.columns[p] < in_columns[q])) {
        j = a.columns[p];
        out = a.values[p++];
      } else if (p == p_end || in_columns[q] < a.columns[p]) {
        j = in_columns[q];
        in = in_values[q++];
      } else {
        j = a.columns[p];
        out = a.values[p++];
        in = in_values[q++];
      }
      const double value = combine(out, in);
      if (value > 0) {
        result.columns.push_back(j);
        result.values.push_back(value);
      }
    }
    result.row_offsets[i + 1] = offset_t(result.columns.size());
  }
  return result;
}

}  // namespace nldr::routines
