// The parallel engine's level strategy with frontier lists: one level at a time,
// tbb::parallel_for splits the current frontier (a vector of keys) into chunks; each thread
// appends the states it is first to claim to its own buffer (tbb::enumerable_thread_specific),
// and the buffers are joined into the next frontier after the level, so no lock or shared
// counter is touched per state. Used for point queries, kept tables and sparse encoders;
// the visited set (DenseVisited or ShardedDepthMap) decides who claims a key.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include <tbb/enumerable_thread_specific.h>

#include "core/concepts.hpp"
#include "core/memory_budget.hpp"
#include "core/parallel_chunks.hpp"
#include "core/progress_reporter.hpp"
#include "core/result.hpp"
#include "core/search_options.hpp"
#include "core/timer.hpp"

namespace searchbench {

// The keys the threads found at a level, joined into the next frontier list.
template <class Locals>
void join_found(Locals& locals, std::vector<Key>& next) {
  std::size_t total = 0;
  for (auto& local : locals) total += local.found.size();
  next.clear();
  next.reserve(total);
  for (auto& local : locals) {
    next.insert(next.end(), local.found.begin(), local.found.end());
    local.found.clear();
  }
}

// Searches from `start` until the space is exhausted, the depth limit is reached or, with
// a target, the level that reaches it is complete. Fills depth_counts, expanded, generated,
// found/distance and the frontier lists' peak bytes.
template <Puzzle P, Encoder<P> E, class Visited>
SearchResult frontier_levels(const P& puzzle, const E& enc, const SearchOptions& options, Visited& visited,
                             const typename P::State& start, const typename P::State* target) {
  using State = typename P::State;
  SearchResult result;
  Timer timer;
  ProgressReporter progress(options, timer);
  const Key start_key = enc.encode(start);
  const Key target_key = target ? enc.encode(*target) : 0;
  visited.claim(start_key, 0);
  std::vector<Key> frontier{start_key}, next;
  result.depth_counts.push_back(1);
  result.depth_seconds.push_back(0.0);
  std::uint64_t reached = 1;
  if (target && target_key == start_key) {
    result.found = true;
    result.distance = 0;
    return result;
  }

  struct Local {
    std::vector<Key> found;
    std::uint64_t generated = 0;
  };
  tbb::enumerable_thread_specific<Local> locals;
  std::atomic<bool> hit{false};
  std::uint64_t peak_frontier = 1;

  for (int depth = 0; !frontier.empty(); ++depth) {
    if (options.max_depth >= 0 && depth >= options.max_depth) break;
    // A grain of ~1/64 of a thread's share: enough chunks to balance, few enough to be cheap.
    const std::size_t grain = std::max<std::size_t>(256, frontier.size() / (64 * static_cast<std::size_t>(options.threads)));
    std::atomic<std::uint64_t> expanded_so_far{0}, found_so_far{0};  // for heartbeats, once per chunk
    parallel_chunks(frontier.size(), grain, [&](std::uint64_t begin, std::uint64_t end) {
      Local& local = locals.local();
      const std::size_t found_before = local.found.size();
      State next_state;
      auto decoder = key_decoder(enc);
      for (std::uint64_t i = begin; i != end; ++i) {
        // Each successor's key, from the key alone where the encoder moves keys by table.
        local.generated += for_each_successor_key(puzzle, enc, decoder, frontier[i], next_state, [&](Key k) {
          if (!visited.claim(k, depth + 1)) return;
          local.found.push_back(k);
          if (target && k == target_key) hit.store(true, std::memory_order_relaxed);
        });
      }
      if (!progress.on()) return;
      const std::uint64_t expanded = expanded_so_far.fetch_add(end - begin, std::memory_order_relaxed) + (end - begin);
      const std::uint64_t found = found_so_far.fetch_add(local.found.size() - found_before, std::memory_order_relaxed) +
                                  (local.found.size() - found_before);
      if (progress.heartbeat_due())
        progress.heartbeat(depth + 1, found, reached + found, result.expanded + expanded,
                           ProgressReporter::percent(expanded, frontier.size()) + " of depth " + std::to_string(depth) + " expanded");
    });
    result.expanded += frontier.size();
    join_found(locals, next);
    if (next.empty()) break;
    result.depth_counts.push_back(next.size());
    peak_frontier = std::max<std::uint64_t>(peak_frontier, frontier.size() + next.size());
    options.memory.enforce(visited.bytes() + peak_frontier * sizeof(Key), "this parallel search");
    result.depth_seconds.push_back(progress.seconds());
    reached += next.size();
    progress.depth_done(depth + 1, next.size(), reached, result.expanded, *result.depth_seconds.back());
    frontier.swap(next);
    if (hit.load(std::memory_order_relaxed)) {
      result.found = true;
      result.distance = depth + 1;
      break;
    }
  }
  for (auto& local : locals) {
    result.generated += local.generated;
    peak_frontier += local.found.capacity();
  }
  result.peak_bytes = peak_frontier * sizeof(Key);
  return result;
}

}  // namespace searchbench
