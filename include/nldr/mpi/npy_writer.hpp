// Writing a distributed matrix (e.g. an embedding, one block of rows per rank) as one .npy file.
// Rank 0 opens the output through an AtomicFile when the writer is made, so an unwritable path
// fails before the work, and receives the blocks one at a time in rank order: memory on rank 0 is
// one block, and the file appears complete at commit or not at all.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/types.hpp>
#include <nldr/io/atomic_file.hpp>
#include <nldr/io/npy.hpp>
#include <nldr/mpi/collective.hpp>
#include <nldr/mpi/row_blocks.hpp>

#include <Eigen/Core>
#include <mpi.h>

#include <climits>
#include <filesystem>
#include <optional>
#include <string>

namespace nldr::mpi {

class NpyBlockWriter {
 public:
  /// Opens `path` on rank 0 (a collective call).
  /// \throws nldr::io_error on every rank when the file cannot be created.
  NpyBlockWriter(MPI_Comm comm, const std::filesystem::path& path) : comm_(comm) {
    collectively(comm_, [&] {
      if (rank_of(comm_) == 0) file_.emplace(path);
    });
  }

  /// Writes the N x d matrix whose rows `block` this rank holds (rows in rank order, as `blocks`
  /// says) and renames the file into place (a collective call).
  /// \throws nldr::io_error on every rank when writing fails; the target is then left as it was.
  template <Real T>
  void write(const RowBlocks& blocks, const Matrix<T>& block) {
    const int rank = rank_of(comm_), parts = blocks.parts();
    const auto cols = std::int64_t(block.cols());
    collectively(comm_, [&] {
      if (std::int64_t(blocks.count(rank)) * cols > INT_MAX)
        throw_invalid("X", "a block of ", blocks.count(rank), " x ", cols, " values exceeds one MPI message: use more ranks");
    });
    if (rank != 0) {
      MPI_Send(block.data(), int(block.size()), datatype<T>(), 0, 2, comm_);
      collectively(comm_, [] {});
      return;
    }
    // Rank 0 receives every block even after a failed write, so that no sender waits forever.
    std::exception_ptr failure;
    const auto append = [&](const auto& rows) {
      if (failure) return;
      try {
        std::string bytes;
        io::append_npy_rows(rows, bytes);
        file_->write(bytes);
      } catch (...) {
        failure = std::current_exception();
      }
    };
    try {
      file_->write(io::npy_header_bytes<T>(blocks.total(), block.cols()));
    } catch (...) {
      failure = std::current_exception();
    }
    append(block);
    Matrix<T> received;
    for (int r = 1; r < parts; ++r) {
      received.resize(blocks.count(r), block.cols());
      MPI_Recv(received.data(), int(received.size()), datatype<T>(), r, 2, comm_, MPI_STATUS_IGNORE);
      append(received);
    }
    collectively(comm_, [&] {
      if (failure) std::rethrow_exception(failure);
      file_->commit();
    });
  }

 private:
  MPI_Comm comm_;
  std::optional<io::AtomicFile> file_;
};

}  // namespace nldr::mpi
