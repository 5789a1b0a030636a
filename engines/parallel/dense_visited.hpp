// The parallel engine's visited set for dense encoders with frontier lists: an atomic
// bitset decides who wins a key (one fetch_or test-and-set); when paths are wanted the
// winner also writes the depth mod 256 into a byte array. A byte, not Korf's two bits,
// because the move graph is directed: undoing B takes three more B moves, so a predecessor
// of a depth-d state can lie anywhere in d-1 .. d+3, and a residue modulo 3 cannot tell
// those apart. Each depth byte is written once, by the winner, and read only after the
// level's parallel loop has joined, so plain bytes are race-free.
#pragma once

#include <cstdint>
#include <memory>

#include "core/atomic_bitset.hpp"
#include "core/concepts.hpp"

namespace searchbench {

class DenseVisited {
 public:
  DenseVisited(Key bound, bool with_depths) : seen_(bound), bound_(bound) {
    if (with_depths) depths_.reset(new std::uint8_t[bound]);  // written before ever read
  }
  bool claim(Key k, int depth) {
    if (!seen_.test_and_set(k)) return false;
    if (depths_) depths_[k] = static_cast<std::uint8_t>(depth);
    return true;
  }
  // depth mod 256, or -1 when not reached
  int depth_mod(Key k) const { return seen_.test(k) && depths_ ? depths_[k] : -1; }
  std::uint64_t bytes() const { return seen_.bytes() + (depths_ ? bound_ : 0); }

 private:
  AtomicBitset seen_;
  Key bound_;
  std::unique_ptr<std::uint8_t[]> depths_;
};

}  // namespace searchbench
