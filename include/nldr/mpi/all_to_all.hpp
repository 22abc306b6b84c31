// Personalized all-to-all of plain records: the one MPI_Alltoallv pattern behind the reverse edges
// of the union symmetrization, the neighbor rows LLE and LTSA fetch, the labels of the
// connectivity check and the spatial partition's points, queries and lists.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/mpi/collective.hpp>

#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

namespace nldr::mpi {

/// What the ranks sent to this one: all items, rank 0's first, each rank's in its sending order.
template <class Item>
struct Received {
  std::vector<Item> items;
  std::vector<std::size_t> begin;  ///< rank r's items are [begin[r], begin[r + 1])

  std::span<const Item> from(int rank) const {
    const auto r = std::size_t(rank);
    return {items.data() + begin[r], begin[r + 1] - begin[r]};
  }
};

/// Sends outgoing[r] to rank r, for every rank r of `comm` (a collective call), and returns what
/// every rank sent to this one. Adds the bytes this rank sent to other ranks to *bytes_sent (when
/// given).
/// \throws nldr::invalid_argument ("X") on every rank when one rank's send or receive exceeds one
///         MPI message (2^31 - 1 bytes).
template <class Item>
Received<Item> all_to_all(MPI_Comm comm, const std::vector<std::vector<Item>>& outgoing,
                        std::uint64_t* bytes_sent = nullptr) {
  static_assert(std::is_trivially_copyable_v<Item>, "all_to_all() sends items as bytes");
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
  Received<Item> received;
  received.items.resize(std::size_t(receive_total) / sizeof(Item));
  MPI_Alltoallv(send.data(), send_counts.data(), send_offsets.data(), MPI_BYTE, received.items.data(),
                receive_counts.data(), receive_offsets.data(), MPI_BYTE, comm);
  received.begin.resize(parts + 1, 0);
  for (std::size_t r = 0; r < parts; ++r)
    received.begin[r + 1] = received.begin[r] + std::size_t(receive_counts[r]) / sizeof(Item);
  return received;
}

}  // namespace nldr::mpi
