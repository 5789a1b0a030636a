// A top-down level of the two-bit search over one chunk of cell words: expand every cell
// holding the current code and claim unseen successors with the next code, through the
// shared expansion step (engines/expansion_kernel.hpp) with every successor local. The
// expanded cells are retired (done) as their word is read.
#pragma once

#include <cstdint>

#include "core/concepts.hpp"
#include "core/two_bit_cells.hpp"
#include "engines/expansion_kernel.hpp"
#include "engines/parallel/two_bit_scratch.hpp"

namespace searchbench {

template <Puzzle P, Encoder<P> E>
void two_bit_top_down_chunk(const P& puzzle, const E& enc, TwoBitCells& cells, int depth, std::uint64_t begin,
                            std::uint64_t end, TwoBitScratch<typename P::State>& local) {
  ClaimLocally local_claims;
  expand_and_route(puzzle, enc, cells, begin, end, TwoBitCells::current_code(depth), TwoBitCells::next_code(depth), local,
                   local_claims);
}

}  // namespace searchbench
