// Engine `parallel`: level-synchronous breadth-first search on oneTBB.
//
// Every run is one level at a time inside a tbb::task_arena, each level split into chunks by
// core/parallel_chunks.hpp. The arena has `threads` slots or as many as oneTBB lets run at
// once (global_control's max_allowed_parallelism, the machine's cores by default), whichever
// is fewer: a larger arena would only get a warning from oneTBB and no more workers. The
// result reports the arena's concurrency, i.e. the threads that could run. Which level strategy runs depends on
// what the caller wants and on the encoder:
// * Whole-space runs that keep no table (the CLI's and the benchmarks'), dense encoders
//   whose keys are mostly states: two bits per key and no frontier list at all, after
//   Korf's two-bit BFS (engines/parallel/two_bit_levels.hpp), so msquare 2x6 fits in
//   114 MiB. Each level is one pass over the cells in key order, with successor keys
//   computed and prefetched a batch at a time; levels run top-down
//   (two_bit_top_down_chunk there) until the frontier outnumbers the unseen states
//   by --bottom-up-ratio (LevelStrategyOptions), then bottom-up (engines/two_bit/bottom_up.hpp,
//   perfect encoders only, since it decodes keys nobody generated).
// * Everything else (point queries, kept tables, sparse encoders): frontier lists of keys,
//   one per thread, joined after each level (engines/parallel/frontier_levels.hpp). The
//   visited set is an atomic bitset plus a depth byte per key for dense encoders
//   (engines/parallel/dense_visited.hpp), ShardedDepthMap for sparse ones
//   (core/concurrent_depth_map.hpp). With sparse packings (bitpack: 40,320 states among 2^24
//   keys) a two-bit scan of every key would dominate, so those keep the lists.
// * Determinism: the per-depth counts do not depend on which thread claims a state. Paths
//   do not come from discovery order either: they are rebuilt afterwards from the depths
//   (engines/parallel/depth_recovery.hpp, core/lex_path.hpp), so each is the
//   lexicographically smallest shortest path for any thread count and any interleaving.
#pragma once

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include "core/byte_table.hpp"
#include "core/concepts.hpp"
#include "core/concurrent_depth_map.hpp"
#include "core/engine_capabilities.hpp"
#include "core/errors.hpp"
#include "core/lex_path.hpp"
#include "core/memory_budget.hpp"
#include "core/result.hpp"
#include "core/search_options.hpp"
#include "core/thread_arena.hpp"
#include "core/timer.hpp"
#include "engines/parallel/dense_visited.hpp"
#include "engines/parallel/depth_recovery.hpp"
#include "engines/parallel/frontier_levels.hpp"
#include "engines/two_bit/level_strategy.hpp"
#include "engines/parallel/two_bit_levels.hpp"

namespace searchbench {

template <Puzzle P, Encoder<P> E>
class ParallelBfs {
 public:
  using State = typename P::State;
  static constexpr std::string_view kName = "parallel";
  static constexpr std::string_view kSummary = "level-synchronous BFS on oneTBB, atomic 2-bit visited array";
  static constexpr EngineCapabilities kCapabilities{.whole_space = true, .threaded = true};

  using Options = LevelStrategyOptions;

  ParallelBfs(const P& puzzle, const E& enc, SearchOptions options = {}, LevelStrategyOptions strategy = {})
      : puzzle_(puzzle), enc_(enc), options_(std::move(options)), strategy_(strategy) {}

  SearchResult explore(const State& start) {
    start_ = start;
    SearchResult r = run(start, nullptr, visited_);
    if (!options_.keep_table) visited_ = std::monostate{};
    return r;
  }
  // Point query; leaves the table of an earlier explore() untouched.
  SearchResult search(const State& start, const State& target) {
    if (!puzzle_.same_component(start, target)) return SearchResult{};
    Visited local;
    return run(start, &target, local);
  }

  // Bytes explore() will need: the visited structure (two bits per key in two-bit mode, a
  // bit plus a depth byte with a kept table, or a hash map) plus the frontier lists.
  std::uint64_t estimate_explore_bytes(const State& start) const {
    const std::uint64_t states = puzzle_.component_size(start), bound = enc_.key_bound();
    if (two_bit_mode(start, nullptr)) return bound / 4;
    if (!enc_.dense()) return states * ByteTable::kHashEntryBytes + states / 2 * sizeof(Key);
    return bound / 8 + (options_.keep_table ? bound : 0) + states / 2 * sizeof(Key);
  }

  // After explore() with keep_table: the depth mod 256 at which the state of key `k` was
  // first reached, -1 when it was not (or no table was kept). What a pattern database
  // reads its distances from (heuristics/pattern_database.hpp).
  int depth_mod_of(Key k) const { return depth_mod_in(visited_, k); }

  // After explore(): the lexicographically smallest shortest path to `target`.
  std::optional<std::string> path_to(const State& target) const {
    if (std::holds_alternative<std::monostate>(visited_) || !puzzle_.same_component(start_, target))
      return std::nullopt;
    if (depth_mod_in(visited_, enc_.encode(target)) < 0) return std::nullopt;
    return path_from_depths(puzzle_, enc_, start_, target, [&](Key k) { return depth_mod_in(visited_, k); });
  }

 private:
  using Visited = std::variant<std::monostate, std::shared_ptr<DenseVisited>, std::shared_ptr<ShardedDepthMap>>;

  static int depth_mod_in(const Visited& visited, Key k) {
    return std::visit(
        [k](const auto& v) -> int {
          if constexpr (std::is_same_v<std::decay_t<decltype(v)>, std::monostate>) return -1;
          else return v->depth_mod(k);
        },
        visited);
  }

  // Two bits per key pay off when most keys are states (cantor, combinatorial): every
  // level scans the whole key space. A perfect encoder qualifies at any size (msquare 2x7:
  // 87 billion keys, 20.3 GiB), where a byte of depth per key would not fit.
  bool two_bit_mode(const State& start, const State* target) const {
    const bool mostly_states = enc_.key_bound() / 4 <= puzzle_.component_size(start);
    return (enc_.dense() || every_key_is_state<E>()) && !target && !options_.keep_table && mostly_states;
  }

  SearchResult run(const State& start, const State* target, Visited& visited) {
    Timer timer;
    SearchResult result;
    tbb::task_arena arena(runnable_threads(options_.threads));
    arena.execute([&] {
      const int threads = tbb::this_task_arena::max_concurrency();
      if (two_bit_mode(start, target)) {
        result = two_bit_levels(puzzle_, enc_, options_, strategy_, start);
      } else if (enc_.dense()) {
        // Point queries and kept tables: the bitset plus a byte of depth per key.
        const bool with_depths = target != nullptr || options_.keep_table;
        options_.memory.enforce(enc_.key_bound() / 8 + (with_depths ? enc_.key_bound() : 0),
                             "the parallel engine's visited table");
        auto& v = visited.template emplace<std::shared_ptr<DenseVisited>>(
            std::make_shared<DenseVisited>(enc_.key_bound(), with_depths));
        result = frontier_levels(puzzle_, enc_, options_, *v, start, target);
        result.peak_bytes += v->bytes();
      } else {
        // Sized for the whole component up front, except for point queries, which usually
        // touch a sliver of it (and the component may be 16! states).
        const std::uint64_t component = puzzle_.component_size(start);
        auto& v = visited.template emplace<std::shared_ptr<ShardedDepthMap>>(
            std::make_shared<ShardedDepthMap>(target ? std::min<std::uint64_t>(component, 1 << 16) : component));
        result = frontier_levels(puzzle_, enc_, options_, *v, start, target);
        result.peak_bytes += v->bytes();
      }
      result.threads = threads;
    });
    if (target && result.found) {
      result.path = lex_smallest_path(puzzle_, enc_, start, *target, result.distance,
                                      [&](Key k, int d) { return depth_mod_in(visited, k) == (d & 0xFF); });
    }
    result.seconds = timer.seconds();
    return result;
  }

  const P& puzzle_;
  const E& enc_;
  SearchOptions options_;
  LevelStrategyOptions strategy_;
  State start_{};
  Visited visited_;  // explore()'s table, for path_to
};

}  // namespace searchbench
