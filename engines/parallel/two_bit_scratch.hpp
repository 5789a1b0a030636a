// Per-thread scratch of the two-bit levels (engines/parallel/two_bit_levels.hpp): the batch
// being worked on and the thread's counts, those of the shared expansion step
// (engines/expansion_kernel.hpp) plus the parents looked up by bottom-up levels.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/concepts.hpp"
#include "engines/expansion_kernel.hpp"

namespace searchbench {

// Unseen cells resolved together by a bottom-up level: the same batch as the expansion
// step's, for the same reason (their parents' cells are prefetched as a batch).
inline constexpr std::size_t kTwoBitBatch = kExpansionBatch;

template <class State>
struct TwoBitScratch : ExpansionScratch {
  std::vector<Key> neighbours;  // bottom-up: a parent key per open cell of the batch
  std::vector<State> states;
};

}  // namespace searchbench
