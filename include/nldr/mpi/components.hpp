// Whether a distributed neighbor graph is connected (edges in either list join their points, as
// nldr::connected_components counts them). LLE and LTSA need it checked on the graph: a second
// component adds a second null vector to their matrices, but their bottom eigenvalues fall like
// N^-2 towards rounding, so no threshold on the eigenvalues tells the two apart at large N.
//
// Each rank joins its own points by the edges between them (union-find), labels each local
// component by its smallest global index, then sends the label across every edge to another rank,
// where the smaller label wins, until no label changes anywhere: as many exchanges as the longest
// chain of rank boundaries a component's smallest index must cross, plus one.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/types.hpp>
#include <nldr/mpi/all_to_all.hpp>
#include <nldr/mpi/knn.hpp>
#include <nldr/mpi/spectral.hpp>

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

namespace nldr::mpi::detail {

/// Throws nldr::disconnected_graph (the same on every rank) unless `graph` is connected (a collective call).
template <Real T>
void require_connected(MPI_Comm comm, const GraphBlock<T>& graph, const std::string& method) {
  const index_t first = graph.first(), rows = graph.rows();
  const auto sym = union_rows(comm, graph);  // both ends of an edge across ranks know it
  std::vector<index_t> parent(static_cast<std::size_t>(rows));
  std::iota(parent.begin(), parent.end(), index_t{0});
  auto find = [&](index_t x) {
    while (parent[std::size_t(x)] != x) x = parent[std::size_t(x)] = parent[std::size_t(parent[std::size_t(x)])];
    return x;
  };
  struct Label {
    index_t target, label;
  };
  std::vector<std::pair<index_t, index_t>> across;  // (own row, global index on another rank)
  for (index_t i = 0; i < rows; ++i)
    for (const auto& [distance, j] : sym[std::size_t(i)]) {
      if (j < first || j >= first + rows) {
        across.emplace_back(i, j);
        continue;
      }
      const index_t a = find(i), b = find(j - first);
      if (a != b) parent[std::size_t(std::max(a, b))] = std::min(a, b);
    }
  std::vector<index_t> label(static_cast<std::size_t>(rows));  // per root: the smallest global index known
  for (index_t i = 0; i < rows; ++i) label[std::size_t(i)] = first + find(i);
  for (int changed = 1; changed;) {
    std::vector<std::vector<Label>> outgoing(static_cast<std::size_t>(graph.blocks.parts()));
    for (const auto& [i, j] : across)
      outgoing[std::size_t(graph.blocks.owner(j))].push_back({j, label[std::size_t(find(i))]});
    changed = 0;
    for (const Label& l : all_to_all(comm, outgoing).items) {
      index_t& mine = label[std::size_t(find(l.target - first))];
      if (l.label < mine) {
        mine = l.label;
        changed = 1;
      }
    }
    MPI_Allreduce(MPI_IN_PLACE, &changed, 1, MPI_INT, MPI_MAX, comm);
  }
  // One point per component keeps its own index as the label: the component's smallest.
  std::int64_t components = 0;
  for (index_t i = 0; i < rows; ++i) components += label[std::size_t(find(i))] == first + i;
  MPI_Allreduce(MPI_IN_PLACE, &components, 1, MPI_INT64_T, MPI_SUM, comm);
  if (components > 1)
    throw disconnected_graph(nldr::detail::concat(
        method, ": the neighbor graph has ", components,
        " connected components; increase k, or embed each component separately"));
}

}  // namespace nldr::mpi::detail
