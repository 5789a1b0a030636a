// The parallel engine's whole-space counting with two bits per key and no frontier list
// (Korf's two-bit breadth-first search, core/two_bit_cells.hpp). Memory is bound/4 bytes
// whatever the level widths, where frontier lists of 64-bit keys would need several times
// that. Each level is one pass over the cells in key order, split into chunks over the
// threads, either top-down (engines/parallel/two_bit_top_down.hpp) or, once the frontier
// outnumbers the unseen states by SearchOptions::bottom_up_ratio and the encoder is
// perfect, bottom-up (engines/parallel/two_bit_bottom_up.hpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>

#include <tbb/enumerable_thread_specific.h>

#include "core/concepts.hpp"
#include "core/parallel_chunks.hpp"
#include "core/result.hpp"
#include "core/timer.hpp"
#include "core/two_bit_cells.hpp"
#include "engines/parallel/two_bit_bottom_up.hpp"
#include "engines/parallel/two_bit_scratch.hpp"
#include "engines/parallel/two_bit_top_down.hpp"

namespace searchbench {

template <Puzzle P, Encoder<P> E>
SearchResult two_bit_levels(const P& puzzle, const E& enc, const SearchOptions& options, const typename P::State& start) {
  SearchResult result;
  Timer timer;
  const Key bound = enc.key_bound();
  TwoBitCells cells(bound);
  parallel_chunks(cells.words(), 4096, [&](std::uint64_t begin, std::uint64_t end) { cells.clear(begin, end); });
  cells.mark_key(enc.encode(start), TwoBitCells::current_code(0));
  result.depth_counts.push_back(1);
  std::uint64_t seen = 1;
  tbb::enumerable_thread_specific<TwoBitScratch<typename P::State>> scratch;
  const std::uint64_t grain = std::max<std::uint64_t>(64, cells.words() / (256 * static_cast<std::uint64_t>(options.threads)));
  for (int depth = 0;; ++depth) {
    if (options.max_depth >= 0 && depth >= options.max_depth) break;
    // Bottom-up once asking every unseen state for a parent in the frontier (stopping at
    // the first) is cheaper than expanding the frontier.
    const bool bottom_up = every_key_is_state<E>() && options.bottom_up &&
                           static_cast<double>(result.depth_counts.back()) >
                               options.bottom_up_ratio * static_cast<double>(bound - seen);
    parallel_chunks(cells.words(), grain, [&](std::uint64_t begin, std::uint64_t end) {
      if (bottom_up) two_bit_bottom_up_chunk(puzzle, enc, cells, depth, begin, end, scratch.local());
      else two_bit_top_down_chunk(puzzle, enc, cells, depth, begin, end, scratch.local());
    });
    if (bottom_up) {  // the frontier stayed readable all level; retire it now
      const unsigned current = TwoBitCells::current_code(depth);
      parallel_chunks(cells.words(), 4096, [&](std::uint64_t begin, std::uint64_t end) {
        for (std::uint64_t w = begin; w != end; ++w)
          cells.mark(w, TwoBitCells::cells_with(cells.word(w), current), TwoBitCells::kDone);
      });
    }
    std::uint64_t found = 0;
    for (auto& local : scratch) found += std::exchange(local.found, 0);
    if (found == 0) break;
    seen += found;
    result.depth_counts.push_back(found);
    if (options.progress) options.progress(depth + 1, found, timer.seconds());
  }
  for (auto& local : scratch) {
    result.expanded += local.expanded;
    result.generated += local.generated;
  }
  result.peak_bytes = cells.bytes();
  return result;
}

}  // namespace searchbench
