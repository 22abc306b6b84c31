// All-to-all exchange of lists between the ranks: the one MPI_Alltoallv pattern behind the
// reverse edges of the union symmetrization, the neighbor rows LLE and LTSA fetch, and the labels
// of the connectivity check.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/mpi/collective.hpp>

#include <mpi.h>

#include <climits>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace nldr::mpi {

/// Sends outgoing[r] to rank r (emptying `outgoing`) and returns incoming[r], what rank r sent to
/// this one (a collective call). `bytes_sent`, when given, grows by the bytes sent to other ranks.
/// \throws nldr::invalid_argument ("X") on every rank when one rank's lists exceed one MPI message.
template <class Item>
std::vector<std::vector<Item>> exchange(MPI_Comm comm, std::vector<std::vector<Item>>& outgoing,
                                        std::uint64_t* bytes_sent = nullptr) {
  static_assert(std::is_trivially_copyable_v<Item>, "exchange sends items as bytes");
  const std::size_t parts = outgoing.size();
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::size_t total = 0;
  for (const auto& list : outgoing) total += list.size();
  collectively(comm, [&] {
    if (total * sizeof(Item) > std::size_t(INT_MAX))
      throw_invalid("X", "the data one rank sends in one exchange exceed one MPI message (2^31 - 1 bytes): use more ranks");
  });
  std::vector<int> send_counts(parts), receive_counts(parts), send_offsets(parts, 0), receive_offsets(parts, 0);
  std::vector<Item> send;
  send.reserve(total);
  for (std::size_t r = 0; r < parts; ++r) {
    send_counts[r] = int(outgoing[r].size() * sizeof(Item));
    if (r > 0) send_offsets[r] = send_offsets[r - 1] + send_counts[r - 1];
    send.insert(send.end(), outgoing[r].begin(), outgoing[r].end());
    if (bytes_sent && int(r) != rank) *bytes_sent += std::uint64_t(send_counts[r]);
    outgoing[r] = {};
  }
  MPI_Alltoall(send_counts.data(), 1, MPI_INT, receive_counts.data(), 1, MPI_INT, comm);
  std::int64_t received_bytes = 0;
  for (std::size_t r = 0; r < parts; ++r) {
    receive_offsets[r] = int(received_bytes);
    received_bytes += receive_counts[r];
  }
  collectively(comm, [&] {
    if (received_bytes > std::int64_t(INT_MAX))
      throw_invalid("X", "the data one rank receives in one exchange exceed one MPI message (2^31 - 1 bytes): use more "
                    "ranks");
  });
  std::vector<Item> received(std::size_t(received_bytes) / sizeof(Item));
  MPI_Alltoallv(send.data(), send_counts.data(), send_offsets.data(), MPI_BYTE, received.data(), receive_counts.data(),
                receive_offsets.data(), MPI_BYTE, comm);
  std::vector<std::vector<Item>> incoming(parts);
  for (std::size_t r = 0; r < parts; ++r) {
    const auto begin = received.begin() + receive_offsets[r] / int(sizeof(Item));
    incoming[r].assign(begin, begin + receive_counts[r] / int(sizeof(Item)));
  }
  return incoming;
}

}  // namespace nldr::mpi
