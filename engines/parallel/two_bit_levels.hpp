// The parallel engine's whole-space counting with two bits per key and no frontier list
// (Korf's two-bit breadth-first search, core/two_bit_cells.hpp). Memory is bound/4 bytes
// whatever the level widths, where frontier lists of 64-bit keys would need several times
// that. Each level is one pass over the cells in key order, split into chunks over the
// threads, either top-down (two_bit_top_down_chunk, below) or, once the frontier
// outnumbers the unseen states by --bottom-up-ratio (LevelStrategyOptions) and the encoder is
// perfect (should_go_bottom_up, engines/two_bit/level_loop.hpp: the loop the mpi engine
// shares), bottom-up (engines/two_bit/bottom_up.hpp). The first, tiny levels run
// serially from a list instead (two_bit_serial_levels).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <tbb/enumerable_thread_specific.h>
#include <tbb/task_arena.h>

#include "core/concepts.hpp"
#include "core/parallel_chunks.hpp"
#include "core/progress_reporter.hpp"
#include "core/result.hpp"
#include "core/search_options.hpp"
#include "core/timer.hpp"
#include "core/two_bit_cells.hpp"
#include "engines/two_bit/bottom_up.hpp"
#include "engines/two_bit/expansion_kernel.hpp"
#include "engines/two_bit/level_loop.hpp"
#include "engines/two_bit/level_strategy.hpp"

namespace searchbench {

// A top-down level over one chunk of cell words: expand every cell holding the current
// code and claim unseen successors with the next code, through the shared expansion step
// with every successor local. The expanded cells are retired (done) as their word is read.
template <Puzzle P, Encoder<P> E>
void two_bit_top_down_chunk(const P& puzzle, const E& enc, TwoBitCells& cells, int depth, std::uint64_t begin,
                            std::uint64_t end, TwoBitScratch<typename P::State>& local) {
  ClaimLocally local_claims;
  expand_and_route(puzzle, enc, cells, begin, end, TwoBitCells::current_code(depth), TwoBitCells::next_code(depth), local,
                   local_claims);
}

// The first levels are tiny (1, 3, 7, 14, ... states on msquare): for them a scan of the
// whole table and a fork-join per level cost more than the states, and on a busy machine
// every fork-join also waits for the slowest worker to be scheduled. So they run on the
// calling thread from a list of keys, claiming cells with the same codes a scan would,
// while a level holds at most words/64 states (expanding a state costs about as much as
// scanning 64 words) and at most kSerialFrontier (so the serial part stays small however
// many threads wait). From then on every level is a parallel scan, which finds that
// level's cells under the current code. Returns the depth the scans start at, or -1 when
// the search ended (or reached max_depth) before.
inline constexpr std::uint64_t kSerialFrontier = 4096, kWordsPerSerialState = 64;

template <Puzzle P, Encoder<P> E>
int two_bit_serial_levels(const P& puzzle, const E& enc, const SearchOptions& options, TwoBitCells& cells, Key start_key,
                          SearchResult& result, ProgressReporter& progress) {
  std::vector<Key> frontier{start_key}, next;
  typename P::State successor;
  for (int depth = 0;; ++depth) {
    if (options.max_depth >= 0 && depth >= options.max_depth) return -1;
    if (frontier.size() > std::min(kSerialFrontier, cells.words() / kWordsPerSerialState)) return depth;
    const unsigned next_code = TwoBitCells::next_code(depth);
    next.clear();
    for (const Key k : frontier) {
      cells.mark_key(k, TwoBitCells::kDone);
      const typename P::State state = enc.decode(k);
      for (int m = 0; m < puzzle.move_count(); ++m) {
        if (!puzzle.apply(state, m, successor)) continue;
        ++result.generated;
        const Key n = enc.encode(successor);
        if (cells.claim(n, next_code)) next.push_back(n);
      }
    }
    result.expanded += frontier.size();
    if (next.empty()) return -1;
    result.depth_counts.push_back(next.size());
    result.depth_seconds.push_back(progress.seconds());
    progress.depth_done(depth + 1, next.size(), result.states(), result.expanded, *result.depth_seconds.back());
    frontier.swap(next);
  }
}

template <Puzzle P, Encoder<P> E>
SearchResult two_bit_levels(const P& puzzle, const E& enc, const SearchOptions& options, const LevelStrategyOptions& strategy,
                            const typename P::State& start) {
  SearchResult result;
  Timer timer;
  ProgressReporter progress(options, timer);
  const Key bound = enc.key_bound();
  TwoBitCells cells(bound);
  cells.set_single_writer(tbb::this_task_arena::max_concurrency() == 1);  // the engine runs in its arena
  parallel_chunks(cells.words(), 4096, [&](std::uint64_t begin, std::uint64_t end) { cells.clear(begin, end); });
  const Key start_key = enc.encode(start);
  cells.mark_key(start_key, TwoBitCells::current_code(0));
  result.depth_counts.push_back(1);
  result.depth_seconds.push_back(0.0);
  const int first_scan = two_bit_serial_levels(puzzle, enc, options, cells, start_key, result, progress);
  if (first_scan < 0) {  // the search ended within the small levels
    result.peak_bytes = cells.bytes();
    return result;
  }
  std::uint64_t seen = result.states();
  tbb::enumerable_thread_specific<TwoBitScratch<typename P::State>> scratch;
  const std::uint64_t grain = std::max<std::uint64_t>(64, cells.words() / (256 * static_cast<std::uint64_t>(options.threads)));
  const LevelRule rule{options.max_depth, every_key_is_state<E>() && !strategy.top_down, strategy.bottom_up_ratio, bound};
  run_levels(rule, first_scan, seen, result, progress, true, [&](int depth, bool bottom_up) {
    // Heartbeats: the words scanned and states found so far, published once per chunk.
    const std::uint64_t frontier = result.depth_counts.back(), settled = seen - frontier;
    std::atomic<std::uint64_t> words_done{0}, found_so_far{0};
    parallel_chunks(cells.words(), grain, [&](std::uint64_t begin, std::uint64_t end) {
      auto& local = scratch.local();
      const std::uint64_t found_before = local.found;
      if (bottom_up) two_bit_bottom_up_chunk(puzzle, enc, cells, depth, begin, end, local);
      else two_bit_top_down_chunk(puzzle, enc, cells, depth, begin, end, local);
      if (!progress.on()) return;
      const std::uint64_t words = words_done.fetch_add(end - begin, std::memory_order_relaxed) + (end - begin);
      const std::uint64_t found = found_so_far.fetch_add(local.found - found_before, std::memory_order_relaxed) + (local.found - found_before);
      if (progress.heartbeat_due()) {
        const double share = static_cast<double>(words) / static_cast<double>(cells.words());
        progress.heartbeat(depth + 1, found, seen + found, settled + static_cast<std::uint64_t>(share * static_cast<double>(frontier)),
                           std::string(bottom_up ? "bottom-up" : "top-down") + " scan " + ProgressReporter::percent(words, cells.words()));
      }
    });
    if (bottom_up) {  // the frontier stayed readable all level; retire it now
      const unsigned current = TwoBitCells::current_code(depth);
      parallel_chunks(cells.words(), 4096, [&](std::uint64_t begin, std::uint64_t end) { cells.retire_owned(begin, end, current); });
    }
    std::uint64_t found = 0;
    for (auto& local : scratch) found += std::exchange(local.found, 0);
    return found;
  });
  for (auto& local : scratch) {
    result.expanded += local.expanded;
    result.generated += local.generated;
  }
  result.peak_bytes = cells.bytes();
  return result;
}

}  // namespace searchbench
