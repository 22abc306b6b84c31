// How N rows are split over the ranks of a communicator: rank r owns the contiguous rows
// [first(r), first(r) + count(r)).
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/types.hpp>

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

namespace nldr::mpi {

/// A partition of rows 0..N-1 into one contiguous block per rank.
class RowBlocks {
 public:
  /// Blocks of N / P rows, the first N mod P blocks one row longer (what each rank reads of a file).
  static RowBlocks even(std::uint64_t total, int parts) {
    if (total >= std::uint64_t(std::numeric_limits<index_t>::max()))
      throw_invalid("X", "X has N = ", total, " points, more than the ", std::numeric_limits<index_t>::max() - 1,
                    " a neighbor graph can index");
    RowBlocks blocks;
    blocks.offsets_.resize(std::size_t(parts) + 1, 0);
    const auto n = index_t(total);
    for (int r = 0; r < parts; ++r) blocks.offsets_[r + 1] = blocks.offsets_[r] + n / parts + (r < n % parts ? 1 : 0);
    return blocks;
  }

  /// The blocks the ranks of `comm` hold, `local_rows` on this one (a collective call).
  static RowBlocks gather(MPI_Comm comm, std::int64_t local_rows) {
    int parts = 1;
    MPI_Comm_size(comm, &parts);
    std::vector<std::int64_t> counts(std::size_t(parts), 0);
    MPI_Allgather(&local_rows, 1, MPI_INT64_T, counts.data(), 1, MPI_INT64_T, comm);
    std::int64_t total = 0;
    for (std::int64_t c : counts) total += c;
    if (total >= std::int64_t(std::numeric_limits<index_t>::max()))
      throw_invalid("X", "X has N = ", total, " points over all ranks, more than the ",
                    std::numeric_limits<index_t>::max() - 1, " a neighbor graph can index");
    RowBlocks blocks;
    blocks.offsets_.resize(std::size_t(parts) + 1, 0);
    for (int r = 0; r < parts; ++r) blocks.offsets_[r + 1] = blocks.offsets_[r] + index_t(counts[std::size_t(r)]);
    return blocks;
  }

  int parts() const { return int(offsets_.size()) - 1; }
  index_t total() const { return offsets_.back(); }
  index_t first(int rank) const { return offsets_[std::size_t(rank)]; }
  index_t count(int rank) const { return offsets_[std::size_t(rank) + 1] - offsets_[std::size_t(rank)]; }
  /// The rank owning row i (0 <= i < total()).
  int owner(index_t i) const {
    return int(std::upper_bound(offsets_.begin(), offsets_.end(), i) - offsets_.begin()) - 1;
  }

 private:
  std::vector<index_t> offsets_{0};
};

/// This rank's number in `comm`.
inline int rank_of(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return rank;
}

/// The number of ranks in `comm`.
inline int size_of(MPI_Comm comm) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  return size;
}

/// The MPI datatype of float or double.
template <Real T>
MPI_Datatype datatype() {
  return std::is_same_v<T, float> ? MPI_FLOAT : MPI_DOUBLE;
}

}  // namespace nldr::mpi
