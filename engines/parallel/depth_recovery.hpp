// Paths from the parallel engine's kept table, which holds each state's depth mod 256 only:
// the exact distance comes from stepping back to any predecessor one level nearer the
// start (depth mod 256 is unambiguous between neighbours) and counting the steps; the path
// itself is then the lexicographically smallest shortest one (core/lex_path.hpp), whatever
// order the threads discovered the states in.
#pragma once

#include <stdexcept>
#include <string>

#include "core/concepts.hpp"
#include "core/lex_path.hpp"

namespace searchbench {

// depth_mod(key): the key's depth mod 256, or -1 when the search did not reach it. The
// target must have been reached.
template <Puzzle P, Encoder<P> E, class DepthMod>
std::string path_from_depths(const P& puzzle, const E& enc, const typename P::State& start,
                             const typename P::State& target, DepthMod depth_mod) {
  using State = typename P::State;
  int distance = 0;
  const Key start_key = enc.encode(start);
  State state = target, prev;
  for (Key k = enc.encode(target); k != start_key; ++distance) {
    const int want = (depth_mod(k) + 255) & 0xFF;
    bool stepped = false;
    for (int m = 0; m < puzzle.move_count() && !stepped; ++m) {
      if (!puzzle.apply_inverse(state, m, prev)) continue;
      const Key pk = enc.encode(prev);
      if (depth_mod(pk) == want) {
        state = prev;
        k = pk;
        stepped = true;
      }
    }
    if (!stepped) throw std::logic_error("parallel: inconsistent depths");
  }
  return lex_smallest_path(puzzle, enc, start, target, distance,
                           [&](Key k, int d) { return depth_mod(k) == (d & 0xFF); });
}

}  // namespace searchbench
