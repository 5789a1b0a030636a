// The first, narrow depths of an out-of-core run, in memory: breadth-first levels held as
// sorted key lists. Out of core, every depth costs a pass that reads and writes every
// segment's cells whatever the depth's width; msquare 2x7's first 28 depths hold 0.14% of
// its states and would cost 28 such passes. Here they cost one sort per depth, and the
// engine then writes the cells once (engines/external_bfs.hpp).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <vector>

#include <tbb/task_arena.h>

#include "core/concepts.hpp"
#include "core/interrupt.hpp"
#include "core/parallel_chunks.hpp"

namespace searchbench {

struct SortedLevels {
  std::vector<std::uint64_t> counts;  // states per depth, from depth 0 to the last level's
  std::vector<Key> visited;           // every level, sorted
  std::vector<Key> last;              // the last level, sorted (its states are not expanded)
  std::vector<std::vector<Key>> samples;  // per depth: up to `per_depth` keys from different segments
  std::uint64_t expanded = 0, generated = 0;
  bool complete = false;  // the last level had no new successor: the search is over
};

// Sorts `keys`: one slice per thread sorted on its own, then the slices merged pairwise
// through `scratch` (resized to the keys). Through parallel_chunks, whose hand-off
// ThreadSanitizer sees, where oneTBB's parallel_sort forks inside the uninstrumented library.
inline void sort_keys(std::vector<Key>& keys, std::vector<Key>& scratch) {
  const std::uint64_t n = keys.size();
  const auto slices = static_cast<std::uint64_t>(tbb::this_task_arena::max_concurrency());
  const auto at = [](std::vector<Key>& v, std::uint64_t i) { return v.begin() + static_cast<std::ptrdiff_t>(i); };
  if (slices < 2 || n < (1u << 16)) {
    std::sort(keys.begin(), keys.end());
    return;
  }
  const std::uint64_t width = (n + slices - 1) / slices;
  parallel_chunks(slices, 1, [&](std::uint64_t begin, std::uint64_t end) {
    for (std::uint64_t s = begin; s != end; ++s) std::sort(at(keys, std::min(n, s * width)), at(keys, std::min(n, (s + 1) * width)));
  });
  scratch.resize(n);
  for (std::uint64_t run = width; run < n; run *= 2) {
    parallel_chunks((n + 2 * run - 1) / (2 * run), 1, [&](std::uint64_t begin, std::uint64_t end) {
      for (std::uint64_t p = begin; p != end; ++p) {
        const std::uint64_t lo = p * 2 * run, mid = std::min(n, lo + run), hi = std::min(n, lo + 2 * run);
        std::merge(at(keys, lo), at(keys, mid), at(keys, mid), at(keys, hi), at(scratch, lo));
      }
    });
    keys.swap(scratch);
  }
}

// Levels from `start` while the next expansion fits `budget_keys` keys of memory (the
// visited list twice, for the merge, and the successors three times, for the sort and the
// difference), and at most up to depth `max_depth` (when >= 0). Samples: for each depth the
// first key of each of the first `per_depth` segments of `segment_keys` keys that hold one.
// `expanded(d, out)`, when given, is called as soon as depth d's successors are merged (the
// level after it, if any, is then out.counts[d + 1]).
template <Puzzle P, Encoder<P> E>
SortedLevels sorted_levels(const P& puzzle, const E& enc, Key start, std::uint64_t budget_keys, int max_depth,
                           std::uint64_t segment_keys, std::size_t per_depth,
                           const std::function<void(int, const SortedLevels&)>& expanded = {}) {
  constexpr Key kNoKey = ~Key{0};  // a move that does not apply; sorts last
  const auto moves = static_cast<std::uint64_t>(puzzle.move_count());
  SortedLevels out;
  const auto sample = [&](const std::vector<Key>& level) {
    std::vector<Key> picked;
    for (const Key k : level) {
      if (picked.size() == per_depth) break;
      if (picked.empty() || k / segment_keys != picked.back() / segment_keys) picked.push_back(k);
    }
    out.samples.push_back(std::move(picked));
  };
  out.visited = {start};
  out.last = {start};
  out.counts = {1};
  sample(out.last);
  for (int depth = 0;; ++depth) {
    throw_if_interrupted();
    if (max_depth >= 0 && depth >= max_depth) return out;
    const std::uint64_t successors = out.last.size() * moves;
    if (2 * out.visited.size() + 3 * successors > budget_keys) return out;
    std::vector<Key> next(successors);
    parallel_chunks(out.last.size(), 4096, [&](std::uint64_t begin, std::uint64_t end) {
      typename P::State successor;
      for (std::uint64_t i = begin; i != end; ++i) {
        const typename P::State state = enc.decode(out.last[i]);
        for (std::uint64_t m = 0; m < moves; ++m)
          next[i * moves + m] = puzzle.apply(state, static_cast<int>(m), successor) ? enc.encode(successor) : kNoKey;
      }
    });
    {
      std::vector<Key> scratch;  // the successors' room a second time: within the budget's three
      sort_keys(next, scratch);
    }
    out.generated += static_cast<std::uint64_t>(std::lower_bound(next.begin(), next.end(), kNoKey) - next.begin());
    out.expanded += out.last.size();
    next.erase(std::unique(next.begin(), next.end()), next.end());
    if (!next.empty() && next.back() == kNoKey) next.pop_back();
    std::vector<Key> fresh;
    fresh.reserve(next.size());
    std::set_difference(next.begin(), next.end(), out.visited.begin(), out.visited.end(), std::back_inserter(fresh));
    next = std::vector<Key>{};
    if (fresh.empty()) {
      out.complete = true;
      if (expanded) expanded(depth, out);
      return out;
    }
    std::vector<Key> merged(out.visited.size() + fresh.size());
    std::merge(out.visited.begin(), out.visited.end(), fresh.begin(), fresh.end(), merged.begin());
    out.visited.swap(merged);
    out.counts.push_back(fresh.size());
    sample(fresh);
    out.last.swap(fresh);
    if (expanded) expanded(depth, out);
  }
}

}  // namespace searchbench
