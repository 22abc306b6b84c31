// The lower triangle of a symmetric sparse matrix on the pattern of a symmetric neighbor graph, the
// matrix behind Laplacian Eigenmaps' L_sym and the diffusion maps' I - S.
#pragma once

#include <nldr/core/types.hpp>
#include <nldr/embed/detail/sparse_eigen.hpp>
#include <nldr/neighbors/graph.hpp>

#include <Eigen/Core>

namespace nldr::detail {

/// For a symmetric graph `sym` (N points; a NeighborGraph or a routines::WeightedGraph): entry (i, i) =
/// diagonal(i) and, for each edge e = (i, j) with j > i, entry (j, i) = off_diagonal(e, i, j). Built column
/// by column (CSR row i of a symmetric graph is column i), so no triplets are needed.
template <class Graph, class Diagonal, class OffDiagonal>
SparseLower lower_on_graph(const Graph& sym, const Diagonal& diagonal, const OffDiagonal& off_diagonal) {
  const index_t n = sym.size();
  const auto offsets = sym.offsets();
  const auto indices = sym.indices();
  SparseLower lower(n, n);
  Eigen::VectorXi column_sizes(n);
  for (index_t i = 0; i < n; ++i) {
    int below = 1;
    for (index_t j : sym.neighbors(i)) below += j > i;
    column_sizes[i] = below;
  }
  lower.reserve(column_sizes);
  for (index_t i = 0; i < n; ++i) {
    lower.insert(i, i) = diagonal(i);
    for (offset_t e = offsets[i]; e < offsets[i + 1]; ++e)
      if (indices[e] > i) lower.insert(indices[e], i) = off_diagonal(e, i, indices[e]);
  }
  lower.makeCompressed();
  return lower;
}

}  // namespace nldr::detail
