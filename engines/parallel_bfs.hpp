// Engine `parallel`: level-synchronous breadth-first search on oneTBB.
//
// * One level at a time: tbb::parallel_for splits the current frontier (a vector of keys)
//   into ranges; each thread appends the states it is first to reach to its own buffer
//   (tbb::enumerable_thread_specific), and the buffers are joined into the next frontier
//   after the level, so no lock or shared counter is touched per state.
// * Visited set, dense encoders: a packed atomic array with 2 bits per key (AtomicDepthArray),
//   claimed by one fetch_or test-and-set; it stores 1 + depth mod 3, which is all the depth
//   information a path needs (a state's neighbours lie at depths d-1, d, d+1).
//   Sparse encoders: ShardedTagMap (256 mutex-guarded shards; measured faster than
//   tbb::concurrent_unordered_map, see core/concurrent_tag_map.hpp).
// * Determinism: the per-depth counts do not depend on which thread claims a state. The
//   path does not come from discovery order either: it is rebuilt afterwards from the
//   depth tags (core/lex_path.hpp), so it is the lexicographically smallest shortest path
//   for any thread count and any interleaving.
// * Threads: one tbb::task_arena of `threads` workers per run.
#pragma once

#include <atomic>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "core/atomic_depth_array.hpp"
#include "core/concepts.hpp"
#include "core/concurrent_tag_map.hpp"
#include "core/lex_path.hpp"
#include "core/result.hpp"
#include "core/timer.hpp"

namespace searchbench {

template <Puzzle P, Encoder<P> E>
class ParallelBfs {
 public:
  using State = typename P::State;

  ParallelBfs(const P& puzzle, const E& enc, SearchOptions options = {})
      : puzzle_(puzzle), enc_(enc), options_(std::move(options)) {
    if (options_.threads < 1) throw InputError("thread count must be at least 1");
  }

  SearchResult explore(const State& start) { return run(start, nullptr); }
  SearchResult search(const State& start, const State& target) {
    if (!puzzle_.same_component(start, target)) return SearchResult{};
    return run(start, &target);
  }

  // After explore(): the lexicographically smallest shortest path to `target`.
  std::optional<std::string> path_to(const State& target) const {
    if (std::holds_alternative<std::monostate>(visited_) || !puzzle_.same_component(start_, target))
      return std::nullopt;
    const Key target_key = enc_.encode(target);
    if (tag(target_key) == 0) return std::nullopt;
    // Depth from the tags alone: step to any neighbour tagged one level nearer the start.
    int distance = 0;
    const Key start_key = enc_.encode(start_);
    State state = target, prev;
    for (Key k = target_key; k != start_key; ++distance) {
      const std::uint64_t want = 1 + (tag(k) + 1) % 3;  // tag of depth-1: (t-1-1) mod 3 + 1
      bool stepped = false;
      for (int m = 0; m < puzzle_.move_count() && !stepped; ++m) {
        if (!puzzle_.apply_inverse(state, m, prev)) continue;
        const Key pk = enc_.encode(prev);
        if (tag(pk) == want) {
          state = prev;
          k = pk;
          stepped = true;
        }
      }
      if (!stepped) throw std::logic_error("parallel: inconsistent depth tags");
    }
    return lex_smallest_path(puzzle_, enc_, start_, target, distance,
                             [&](Key k, int d) { return tag(k) == AtomicDepthArray::tag_of_depth(d); });
  }

 private:
  std::uint64_t tag(Key k) const {
    return std::visit(
        [k](const auto& v) -> std::uint64_t {
          if constexpr (std::is_same_v<std::decay_t<decltype(v)>, std::monostate>) return 0;
          else return v->tag(k);
        },
        visited_);
  }

  SearchResult run(const State& start, const State* target) {
    Timer timer;
    start_ = start;
    SearchResult result;
    tbb::task_arena arena(options_.threads);
    arena.execute([&] {
      if (enc_.dense()) {
        auto& v = visited_.template emplace<std::shared_ptr<AtomicDepthArray>>(
            std::make_shared<AtomicDepthArray>(enc_.key_bound()));
        result = levels(*v, start, target);
        result.peak_bytes += v->bytes();
      } else {
        auto& v = visited_.template emplace<std::shared_ptr<ShardedTagMap>>(
            std::make_shared<ShardedTagMap>(puzzle_.component_size(start)));
        result = levels(*v, start, target);
        result.peak_bytes += v->bytes();
      }
    });
    if (target && result.found) {
      result.path = lex_smallest_path(puzzle_, enc_, start, *target, result.distance,
                                      [&](Key k, int d) { return tag(k) == AtomicDepthArray::tag_of_depth(d); });
    }
    if (!options_.keep_table) visited_ = std::monostate{};
    result.seconds = timer.seconds();
    return result;
  }

  template <class Visited>
  SearchResult levels(Visited& visited, const State& start, const State* target) {
    SearchResult result;
    Timer timer;
    const Key start_key = enc_.encode(start);
    const Key target_key = target ? enc_.encode(*target) : 0;
    visited.claim(start_key, 0);
    std::vector<Key> frontier{start_key}, next;
    result.depth_counts.push_back(1);
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
      if (options_.max_depth >= 0 && depth >= options_.max_depth) break;
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, frontier.size(), 256),
                        [&](const tbb::blocked_range<std::size_t>& range) {
                          Local& local = locals.local();
                          State next_state;
                          for (std::size_t i = range.begin(); i != range.end(); ++i) {
                            const State state = enc_.decode(frontier[i]);
                            for (int m = 0; m < puzzle_.move_count(); ++m) {
                              if (!puzzle_.apply(state, m, next_state)) continue;
                              ++local.generated;
                              const Key k = enc_.encode(next_state);
                              if (!visited.claim(k, depth + 1)) continue;
                              local.found.push_back(k);
                              if (target && k == target_key) hit.store(true, std::memory_order_relaxed);
                            }
                          }
                        });
      result.expanded += frontier.size();
      std::size_t total = 0;
      for (auto& local : locals) total += local.found.size();
      next.clear();
      next.reserve(total);
      for (auto& local : locals) {
        next.insert(next.end(), local.found.begin(), local.found.end());
        local.found.clear();
      }
      if (next.empty()) break;
      result.depth_counts.push_back(next.size());
      peak_frontier = std::max<std::uint64_t>(peak_frontier, frontier.size() + next.size());
      if (options_.progress) options_.progress(depth + 1, next.size(), timer.seconds());
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

  const P& puzzle_;
  const E& enc_;
  SearchOptions options_;
  State start_{};
  std::variant<std::monostate, std::shared_ptr<AtomicDepthArray>, std::shared_ptr<ShardedTagMap>> visited_;
};

}  // namespace searchbench
