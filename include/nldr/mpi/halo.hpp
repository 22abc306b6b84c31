// The rows of other ranks a rank needs: LLE's weights and LTSA's tangent bases of a point read the
// coordinates of its neighbors, some owned by other ranks. Each rank asks the owners for the rows
// it lacks (one exchange of indices) and gets them back (one exchange of rows): the halo.
#pragma once

#include <nldr/core/types.hpp>
#include <nldr/mpi/all_to_all.hpp>
#include <nldr/mpi/point_block.hpp>

#include <Eigen/Core>
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace nldr::mpi {

/// This rank's rows and the rows of other ranks it fetched, in double: row r of `rows` is point
/// `global(r)`; own rows first (global first .. first + count - 1), then the fetched ones ascending.
struct HaloTable {
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic> rows;
  index_t first = 0, own = 0;
  std::vector<index_t> fetched;  ///< global indices of the fetched rows, ascending
  std::uint64_t bytes_sent = 0;  ///< indices and rows this rank sent to other ranks

  /// The row of `rows` holding global point i (own or fetched).
  index_t row_of(index_t i) const {
    if (i >= first && i < first + own) return i - first;
    return own + index_t(std::lower_bound(fetched.begin(), fetched.end(), i) - fetched.begin());
  }
};

/// The table of this rank's points and of the points of other ranks listed in `wanted` (global
/// indices, any order, repeats and own indices allowed; a collective call).
template <Real T>
HaloTable fetch_halo(MPI_Comm comm, const PointBlock<T>& points, std::vector<index_t> wanted) {
  const int parts = points.blocks.parts();
  const Eigen::Index dim = points.rows.cols();
  HaloTable table;
  table.first = points.first();
  table.own = index_t(points.rows.rows());
  std::sort(wanted.begin(), wanted.end());
  wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
  std::vector<std::vector<index_t>> requests(static_cast<std::size_t>(parts));
  for (index_t i : wanted)
    if (i < table.first || i >= table.first + table.own) {
      requests[std::size_t(points.blocks.owner(i))].push_back(i);
      table.fetched.push_back(i);
    }
  wanted = {};
  const auto asked = all_to_all(comm, requests, &table.bytes_sent);
  // Rows go back in the order asked, one flat run of D values per row.
  std::vector<std::vector<T>> replies(static_cast<std::size_t>(parts));
  for (int r = 0; r < parts; ++r)
    for (index_t i : asked.from(r))
      for (Eigen::Index c = 0; c < dim; ++c) replies[std::size_t(r)].push_back(points.rows(i - table.first, c));
  const auto answers = all_to_all(comm, replies, &table.bytes_sent);
  replies = {};
  table.rows.resize(table.own + index_t(table.fetched.size()), dim);
  table.rows.topRows(table.own) = points.rows.template cast<double>();
  index_t row = table.own;  // answers arrive by rank, and the ranks' blocks ascend: global order
  for (std::size_t a = 0; a < answers.items.size(); a += std::size_t(dim), ++row)
    for (Eigen::Index c = 0; c < dim; ++c) table.rows(row, c) = double(answers.items[a + std::size_t(c)]);
  return table;
}

}  // namespace nldr::mpi
