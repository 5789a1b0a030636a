// Per-thread scratch of the two-bit levels (engines/parallel/two_bit_levels.hpp): the batch
// being worked on and the thread's counts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/concepts.hpp"

namespace searchbench {

// States handled together: their successor (or parent) keys are computed and prefetched as
// a batch before any is claimed, so the random accesses into a table far larger than the
// caches overlap instead of stalling one after another.
inline constexpr std::size_t kTwoBitBatch = 64;

template <class State>
struct TwoBitScratch {
  std::vector<Key> keys, neighbours;
  std::vector<State> states;
  std::uint64_t found = 0, expanded = 0, generated = 0;
};

}  // namespace searchbench
