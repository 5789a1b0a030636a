// The level loop of the two-bit whole-space counts, written once for the parallel engine
// (engines/parallel/two_bit_levels.hpp) and the mpi engine (engines/mpi_bfs.hpp): the depth
// limit, the direction of each level, and the bookkeeping of each depth found. The
// direction comes from one rule, should_go_bottom_up, so that both engines honour
// --top-down and --bottom-up-ratio (LevelStrategyOptions) the same way (the mpi engine once compared
// the frontier with the unseen states directly, ignoring the ratio).
#pragma once

#include <cstdint>

#include "core/concepts.hpp"
#include "core/progress_reporter.hpp"
#include "core/result.hpp"

namespace searchbench {

// Bottom-up once asking every unseen state for a parent in the frontier (stopping at the
// first) is cheaper than expanding the frontier: when bottom-up levels are `allowed` (the
// option, a perfect encoder, and whatever else the engine needs) and the frontier
// outnumbers the unseen states by `ratio`.
inline bool should_go_bottom_up(bool allowed, double ratio, std::uint64_t frontier, std::uint64_t unseen) {
  return allowed && static_cast<double>(frontier) > ratio * static_cast<double>(unseen);
}

// What the loop needs to know of a run: the values the engine read from its options.
struct LevelRule {
  int max_depth = -1;  // -1: unlimited
  bool bottom_up_allowed = false;
  double bottom_up_ratio = 1.0;
  Key bound = 0;  // keys in the space (every one a state where bottom-up levels are allowed)
};

// Levels from `depth` on, while they find states and the depth limit allows:
// level(depth, bottom_up) expands (or, bottom-up, resolves) one level and returns the
// states it found (in a distributed run, on all ranks: the same figure everywhere). `seen`
// counts the states reached so far, `result` gets each depth's count and time, and
// `progress` its line where `report` (rank 0 of a distributed run).
template <class Level>
void run_levels(const LevelRule& rule, int depth, std::uint64_t& seen, SearchResult& result, ProgressReporter& progress,
                bool report, Level&& level) {
  for (;; ++depth) {
    if (rule.max_depth >= 0 && depth >= rule.max_depth) break;
    const bool bottom_up =
        should_go_bottom_up(rule.bottom_up_allowed, rule.bottom_up_ratio, result.depth_counts.back(), rule.bound - seen);
    const std::uint64_t found = level(depth, bottom_up);
    if (found == 0) break;
    seen += found;
    result.depth_counts.push_back(found);
    result.depth_seconds.push_back(progress.seconds());
    if (report) progress.depth_done(depth + 1, found, seen, seen - found, *result.depth_seconds.back());
  }
}

}  // namespace searchbench
