// The mpi engine's traffic between ranks during a search (engines/mpi_bfs.hpp), apart from
// the search itself: the successors a round routed to other ranks (one buffer per thread
// and destination, see RouteByRank in engines/two_bit/expansion_kernel.hpp) joined into one buffer
// ordered by destination and swapped with MPI_Alltoall (counts) and MPI_Alltoallv
// (offsets); the frontier bitmap of bottom-up levels gathered with MPI_Allgather; and the
// sums every rank needs. All of it runs on the thread that started MPI (MPI_THREAD_FUNNELED),
// between the parallel phases, when no worker touches the buffers.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "core/two_bit_cells.hpp"

namespace searchbench {

template <class Wire>
MPI_Datatype mpi_wire_type() {
  static_assert(std::is_same_v<Wire, std::uint32_t> || std::is_same_v<Wire, std::uint64_t>);
  return std::is_same_v<Wire, std::uint32_t> ? MPI_UINT32_T : MPI_UINT64_T;
}

// Collective: the sum of `mine` over all ranks.
inline std::uint64_t sum_over_ranks(std::uint64_t mine) {
  std::uint64_t sum = 0;
  MPI_Allreduce(&mine, &sum, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  return sum;
}

// One rank's buffers for the exchange of routed successors, kept from round to round.
template <class Wire>
class BatchExchange {
 public:
  explicit BatchExchange(int ranks) : ranks_(ranks), send_counts_(ranks), recv_counts_(ranks), send_displs_(ranks), recv_displs_(ranks) {}

  // Collective: joins every thread's outgoing buffers (`threads`: each element has
  // `outgoing`, one vector per destination rank; emptied here), swaps them with the other
  // ranks and returns the offsets this rank received. Adds the bytes sent to `bytes_sent`.
  template <class Threads>
  const std::vector<Wire>& exchange(Threads& threads, std::uint64_t& bytes_sent) {
    std::fill(send_counts_.begin(), send_counts_.end(), 0);
    for (auto& s : threads)
      for (int r = 0; r < ranks_; ++r) send_counts_[r] += static_cast<int>(s.outgoing[r].size());
    for (int r = 0, offset = 0; r < ranks_; offset += send_counts_[r], ++r) send_displs_[r] = offset;
    send_.resize(static_cast<std::size_t>(send_displs_[ranks_ - 1] + send_counts_[ranks_ - 1]));
    std::vector<int> fill = send_displs_;
    for (auto& s : threads)
      for (int r = 0; r < ranks_; ++r) {
        std::copy(s.outgoing[r].begin(), s.outgoing[r].end(), send_.begin() + fill[r]);
        fill[r] += static_cast<int>(s.outgoing[r].size());
        s.outgoing[r].clear();
      }
    MPI_Alltoall(send_counts_.data(), 1, MPI_INT, recv_counts_.data(), 1, MPI_INT, MPI_COMM_WORLD);
    for (int r = 0, offset = 0; r < ranks_; offset += recv_counts_[r], ++r) recv_displs_[r] = offset;
    received_.resize(static_cast<std::size_t>(recv_displs_[ranks_ - 1] + recv_counts_[ranks_ - 1]));
    MPI_Alltoallv(send_.data(), send_counts_.data(), send_displs_.data(), mpi_wire_type<Wire>(), received_.data(),
                  recv_counts_.data(), recv_displs_.data(), mpi_wire_type<Wire>(), MPI_COMM_WORLD);
    bytes_sent += send_.size() * sizeof(Wire) + static_cast<std::uint64_t>(ranks_ - 1) * sizeof(int);
    return received_;
  }

  // Bytes the send and receive buffers hold now.
  std::uint64_t buffer_bytes() const { return (send_.capacity() + received_.capacity()) * sizeof(Wire); }

 private:
  int ranks_;
  std::vector<int> send_counts_, recv_counts_, send_displs_, recv_displs_;
  std::vector<Wire> send_, received_;
};

// Collective: every rank's `words` words of `bits` (rank r's at r * words, already filled
// in on each rank) to every rank. Returns the bytes this rank sent.
inline std::uint64_t allgather_frontier_bits(std::vector<std::uint32_t>& bits, std::uint64_t words, int ranks) {
  MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, bits.data(), static_cast<int>(words), MPI_UINT32_T, MPI_COMM_WORLD);
  return words * static_cast<std::uint64_t>(ranks - 1) * sizeof(std::uint32_t);
}

// The low bits of the 32 two-bit cells of a word, packed into 32 bits (a word of the
// frontier bitmap).
inline std::uint32_t compress_cells(std::uint64_t low_bits) {
  std::uint64_t x = low_bits & TwoBitCells::kLow;
  x = (x | x >> 1) & 0x3333333333333333ULL;
  x = (x | x >> 2) & 0x0F0F0F0F0F0F0F0FULL;
  x = (x | x >> 4) & 0x00FF00FF00FF00FFULL;
  x = (x | x >> 8) & 0x0000FFFF0000FFFFULL;
  x = (x | x >> 16) & 0x00000000FFFFFFFFULL;
  return static_cast<std::uint32_t>(x);
}

}  // namespace searchbench
