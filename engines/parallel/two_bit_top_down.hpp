// A top-down level of the two-bit search over one chunk of cell words: expand every cell
// holding the current code and claim unseen successors with the next code. The expanded
// cells are retired (done) as their word is read.
#pragma once

#include <cstdint>

#include "core/concepts.hpp"
#include "core/two_bit_cells.hpp"
#include "engines/parallel/two_bit_scratch.hpp"

namespace searchbench {

template <Puzzle P, Encoder<P> E>
void two_bit_top_down_chunk(const P& puzzle, const E& enc, TwoBitCells& cells, int depth, std::uint64_t begin,
                            std::uint64_t end, TwoBitScratch<typename P::State>& local) {
  using State = typename P::State;
  const unsigned current = TwoBitCells::current_code(depth), next = TwoBitCells::next_code(depth);
  for_each_frontier_batch(cells, begin, end, current, 0, local.keys, kTwoBitBatch, [&] {
    local.neighbours.clear();
    State successor;
    for (const Key k : local.keys)
      for_each_successor_key(puzzle, enc, k, successor, [&](Key n) {
        __builtin_prefetch(cells.address_of(n), 1);
        local.neighbours.push_back(n);
      });
    for (const Key n : local.neighbours) local.found += cells.claim(n, next);
    local.expanded += local.keys.size();
    local.generated += local.neighbours.size();
  });
}

}  // namespace searchbench
