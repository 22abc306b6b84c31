// Personalized all-to-all of plain records: each rank sends its own list of items to every rank
// (MPI_Alltoallv on bytes) and receives the lists sent to it, concatenated in source-rank order.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/mpi/collective.hpp>

#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace nldr::mpi {

/// Sends outgoing[r] to rank r, for every rank r of `comm` (a collective call), and returns what
/// every rank sent to this one: the items of rank 0, then rank 1, ..., each in its sender's order.
/// Adds the bytes this rank sent to other ranks to *bytes_sent (when given).
/// \throws nldr::invalid_argument ("X") on every rank when one rank's send or receive exceeds one
///         MPI message (2^31 - 1 bytes).
template <class Item>
std::vector<Item> exchange(MPI_Comm comm, const std::vector<std::vector<Item>>& outgoing,
                           std::uint64_t* bytes_sent = nullptr) {
  static_assert(std::is_trivially_copyable_v<Item>, "exchange() sends items as bytes");
  const auto parts = outgoing.size();
  const int rank = rank_of(comm);
  std::vector<std::int64_t> send_bytes(parts), receive_bytes(parts);
  std::int64_t send_total = 0;
  for (std::size_t r = 0; r < parts; ++r) {
    send_bytes[r] = std::int64_t(outgoing[r].size() * sizeof(Item));
    send_total += send_bytes[r];
  }
  MPI_Alltoall(send_bytes.data(), 1, MPI_INT64_T, receive_bytes.data(), 1, MPI_INT64_T, comm);
  std::int64_t receive_total = 0;
  for (std::int64_t b : receive_bytes) receive_total += b;
  collectively(comm, [&] {
    if (send_total > INT_MAX || receive_total > INT_MAX)
      throw_invalid("X", "one rank's share of an all-to-all exchange (", std::max(send_total, receive_total),
                    " bytes) exceeds one MPI message of 2^31 - 1 bytes: use more ranks");
  });
  std::vector<int> send_counts(parts), receive_counts(parts), send_offsets(parts, 0), receive_offsets(parts, 0);
  std::vector<Item> send;
  send.reserve(std::size_t(send_total) / sizeof(Item));
  for (std::size_t r = 0; r < parts; ++r) {
    send_counts[r] = int(send_bytes[r]);
    receive_counts[r] = int(receive_bytes[r]);
    if (r > 0) {
      send_offsets[r] = send_offsets[r - 1] + send_counts[r - 1];
      receive_offsets[r] = receive_offsets[r - 1] + receive_counts[r - 1];
    }
    send.insert(send.end(), outgoing[r].begin(), outgoing[r].end());
    if (bytes_sent && int(r) != rank) *bytes_sent += std::uint64_t(send_bytes[r]);
  }
  std::vector<Item> received(std::size_t(receive_total) / sizeof(Item));
  MPI_Alltoallv(send.data(), send_counts.data(), send_offsets.data(), MPI_BYTE, received.data(),
                receive_counts.data(), receive_offsets.data(), MPI_BYTE, comm);
  return received;
}

}  // namespace nldr::mpi
