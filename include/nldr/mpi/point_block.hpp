// Distributed points: each rank holds one contiguous block of the N x D rows, never all of them.
// The block is read from a .npy file by offset (every rank reads only its own rows; the header is
// parsed and the values decoded by nldr/io/npy.hpp) or handed in by the caller.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/types.hpp>
#include <nldr/core/validate.hpp>
#include <nldr/io/npy.hpp>
#include <nldr/mpi/collective.hpp>
#include <nldr/mpi/row_blocks.hpp>

#include <Eigen/Core>
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <utility>

namespace nldr::mpi {

/// This rank's rows of the N x D points X: global rows [blocks.first(rank), ... + rows.rows()).
template <Real T>
struct PointBlock {
  Matrix<T> rows;     ///< the rank's rows, in global order
  RowBlocks blocks;   ///< every rank's rows
  int rank = 0;

  index_t first() const { return blocks.first(rank); }
  index_t total() const { return blocks.total(); }
};

namespace detail {

/// Checks, collectively, that every rank's block is finite and has the same D, and that squared
/// distances over the whole X fit T (the single-process rule, on the global bounding box).
template <Real T>
void validate_blocks(MPI_Comm comm, const PointBlock<T>& points) {
  const auto d = std::int64_t(points.rows.cols());
  std::int64_t low = d, high = d;
  MPI_Allreduce(MPI_IN_PLACE, &low, 1, MPI_INT64_T, MPI_MIN, comm);
  MPI_Allreduce(MPI_IN_PLACE, &high, 1, MPI_INT64_T, MPI_MAX, comm);
  if (low != high)
    throw_invalid("X", "the blocks of X have different numbers of columns (from ", low, " to ", high,
                  " over the ranks): every rank must hand in rows of the same D");
  if (d == 0) throw_invalid("X", "X has no columns: supply points with at least one coordinate");
  if (points.total() < 2) throw_invalid("X", "X has N = ", points.total(), " points over all ranks: supply at least 2");
  collectively(comm, [&] {
    if (points.rows.rows() > 0) nldr::validate_points(points.rows, "X");
  });
  // The bounding box of all blocks, then the single-process range rule on its two corners.
  Matrix<T> box(2, d);
  box.row(0).setConstant(std::numeric_limits<T>::max());
  box.row(1).setConstant(std::numeric_limits<T>::lowest());
  if (points.rows.rows() > 0) {
    box.row(0) = points.rows.colwise().minCoeff();
    box.row(1) = points.rows.colwise().maxCoeff();
  }
  MPI_Allreduce(MPI_IN_PLACE, box.row(0).data(), int(d), datatype<T>(), MPI_MIN, comm);
  MPI_Allreduce(MPI_IN_PLACE, box.row(1).data(), int(d), datatype<T>(), MPI_MAX, comm);
  validate_distance_range<T>(box, 1);
}

}  // namespace detail

/// Makes the caller's rows of this rank (a collective call: every rank of `comm` hands in its own,
/// in rank order; blocks may differ in size, some may be empty) into a PointBlock.
/// \throws nldr::invalid_argument ("X") on every rank when the blocks differ in D, hold a NaN/Inf,
///         N < 2, or squared distances may overflow T.
template <Real T>
PointBlock<T> hand_in_block(MPI_Comm comm, Matrix<T> rows) {
  PointBlock<T> points;
  points.rank = rank_of(comm);
  points.blocks = RowBlocks::gather(comm, rows.rows());
  points.rows = std::move(rows);
  detail::validate_blocks(comm, points);
  return points;
}

/// Reads this rank's block of the .npy file at `path` (a collective call): rows
/// [first, first + count) of RowBlocks::even(N, P), read by offset (C or Fortran order), converted to T by the rules of
/// nldr::io::parse_npy (docs/io.md). Memory: the rank's N D / P values.
/// \throws nldr::io_error on every rank for a missing or unreadable file, a header or dtype
///         parse_npy refuses, or a file shorter or longer than its shape; and what
///         hand_in_block throws.
template <Real T>
PointBlock<T> read_npy_block(MPI_Comm comm, const std::filesystem::path& path) {
  const std::string source = path.string();
  PointBlock<T> points;
  points.rank = rank_of(comm);
  collectively(comm, [&] {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw io_error(nldr::detail::concat(source, ": cannot be opened: check the path and its permissions"));
    in.seekg(0, std::ios::end);
    const auto file_size = std::uint64_t(in.tellg());
    // A .npy header of a 2-D array is well under 64 KiB (format 1.0 caps it there).
    std::string head(std::size_t(std::min<std::uint64_t>(file_size, 65536 + 10)), '\0');
    in.seekg(0);
    in.read(head.data(), std::streamsize(head.size()));
    const io::NpyHeader header = io::parse_npy_header(head, source);
    const io::NpyLayout layout = io::npy_layout(header, source);
    const std::uint64_t row_bytes = layout.cols * layout.item_size;
    const std::uint64_t data_bytes = file_size - header.data_offset;
    if (layout.cols > data_bytes / layout.item_size || layout.rows != data_bytes / row_bytes ||
        data_bytes % row_bytes != 0)
      throw io_error(nldr::detail::concat(source, ": the header's shape (", layout.rows, ", ", layout.cols,
                                          ") needs ", layout.rows, " x ", row_bytes, " bytes of data but ",
                                          data_bytes, " follow the header (a truncated or appended file?)"));
    points.blocks = RowBlocks::even(layout.rows, size_of(comm));
    const std::uint64_t first = std::uint64_t(points.first()), count = std::uint64_t(points.blocks.count(points.rank));
    // C order: the block is one run of bytes. Fortran order: one run per column, read one after
    // the other, which is the Fortran layout of the count x D block.
    std::string bytes(std::size_t(count * row_bytes), '\0');
    const bool by_columns = layout.fortran_order && layout.cols > 1;
    const std::uint64_t runs = by_columns ? layout.cols : 1, run_bytes = bytes.size() / runs;
    for (std::uint64_t c = 0; c < runs; ++c) {
      const std::uint64_t start = by_columns ? (c * layout.rows + first) * layout.item_size : first * row_bytes;
      in.seekg(std::streamoff(header.data_offset + start));
      in.read(bytes.data() + c * run_bytes, std::streamsize(run_bytes));
    }
    if (!in) throw io_error(nldr::detail::concat(source, ": reading rows ", first, " to ", first + count, " failed"));
    io::decode_npy_rows<T>(bytes.data(), layout, first, count, points.rows, source);
  });
  detail::validate_blocks(comm, points);
  return points;
}

}  // namespace nldr::mpi
