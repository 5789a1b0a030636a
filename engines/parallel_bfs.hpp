// Engine `parallel`: level-synchronous breadth-first search on oneTBB.
//
// * One level at a time: tbb::parallel_for splits the current frontier (a vector of keys)
//   into ranges; each thread appends the states it is first to reach to its own buffer
//   (tbb::enumerable_thread_specific), and the buffers are joined into the next frontier
//   after the level, so no lock or shared counter is touched per state.
// * Visited set, dense encoders: an atomic bitset, one bit per key, claimed by a single
//   fetch_or test-and-set (AtomicBitset). When paths are wanted (point queries, or a kept
//   table) the winner also writes the depth mod 256 into a byte array; a byte, not Korf's
//   two bits, because the move graph is directed: undoing B takes three more B moves, so a
//   predecessor of a depth-d state can lie anywhere in d-1 .. d+3, and a residue modulo 3
//   cannot tell those apart. Sparse encoders: ShardedDepthMap (256 mutex-guarded shards;
//   measured faster than tbb::concurrent_unordered_map, see core/concurrent_depth_map.hpp).
// * Determinism: the per-depth counts do not depend on which thread claims a state. The
//   path does not come from discovery order either: it is rebuilt afterwards from the
//   depths (core/lex_path.hpp), so it is the lexicographically smallest shortest path
//   for any thread count and any interleaving.
// * Whole-space runs that keep no table (the CLI's and the benchmarks'), dense encoders
//   whose keys are mostly states: two bits per key and no frontier list at all
//   (two_bit_levels, after Korf's two-bit BFS), so msquare 2x6 fits in 114 MiB. Each level
//   is one pass over the cells in key order, and within it:
//   - successor keys are computed for a batch of 64 states and prefetched before any is
//     claimed, so the cache misses into the table overlap;
//   - once the frontier outnumbers the unseen states, a level runs bottom-up (each unseen
//     state looks for a parent in the frontier and stops at the first), with perfect
//     encoders only, since it decodes keys nobody generated.
//   With the cantor fast paths this took msquare 2x6 from 64.5 s to 14.5 s with 2 threads
//   (results/README.md has the current figures, and the bottom-up ratio in the same run).
// * Threads: one tbb::task_arena per run, of `threads` slots or as many as oneTBB lets run
//   at once (global_control's max_allowed_parallelism, the machine's cores by default),
//   whichever is fewer: a larger arena would only get a warning from oneTBB and no more
//   workers. The result reports the arena's concurrency, i.e. the threads that could run.
#pragma once

#include <atomic>
#include <bit>
#include <memory>
#include <utility>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include "core/atomic_bitset.hpp"
#include "core/byte_table.hpp"
#include "core/concepts.hpp"
#include "core/concurrent_depth_map.hpp"
#include "core/errors.hpp"
#include "core/lex_path.hpp"
#include "core/memory_limit.hpp"
#include "core/result.hpp"
#include "core/timer.hpp"
#include "core/two_bit_cells.hpp"

namespace searchbench {

// Runs body(begin, end) over [0, size) in chunks of `grain` with tbb::parallel_for.
// simple_partitioner: auto_partitioner's steal checks read fields that libtbb writes
// uninstrumented, which ThreadSanitizer reports. The fork and join themselves happen inside
// libtbb, which sanitizers do not see either; one atomic (an add per chunk) publishes the
// same hand-off in code they do see, so ThreadSanitizer checks the engine itself.
template <class Body>
void parallel_chunks(std::uint64_t size, std::uint64_t grain, Body body) {
  std::atomic<std::uint64_t> handoff{0};
  handoff.fetch_add(1, std::memory_order_release);
  tbb::parallel_for(
      tbb::blocked_range<std::uint64_t>(0, size, grain),
      [&](const tbb::blocked_range<std::uint64_t>& r) {
        handoff.load(std::memory_order_acquire);
        body(r.begin(), r.end());
        handoff.fetch_add(1, std::memory_order_acq_rel);
      },
      tbb::simple_partitioner());
  handoff.load(std::memory_order_acquire);
}

// Dense visited set: the bitset decides who wins a key; depths are kept only when paths
// are wanted. Each depth byte is written once, by the winner, and read only after the
// level's parallel_for has joined, so plain bytes are race-free.
class DenseVisited {
 public:
  DenseVisited(Key bound, bool with_depths) : seen_(bound), bound_(bound) {
    if (with_depths) depths_.reset(new std::uint8_t[bound]);  // written before ever read
  }
  bool claim(Key k, int depth) {
    if (!seen_.test_and_set(k)) return false;
    if (depths_) depths_[k] = static_cast<std::uint8_t>(depth);
    return true;
  }
  // depth mod 256, or -1 when not reached
  int depth_mod(Key k) const { return seen_.test(k) && depths_ ? depths_[k] : -1; }
  std::uint64_t bytes() const { return seen_.bytes() + (depths_ ? bound_ : 0); }

 private:
  AtomicBitset seen_;
  Key bound_;
  std::unique_ptr<std::uint8_t[]> depths_;
};

template <Puzzle P, Encoder<P> E>
class ParallelBfs {
 public:
  using State = typename P::State;

  ParallelBfs(const P& puzzle, const E& enc, SearchOptions options = {})
      : puzzle_(puzzle), enc_(enc), options_(std::move(options)) {
    if (options_.threads < 1 || options_.threads > kMaxThreads)
      throw InputError("thread count must be 1.." + std::to_string(kMaxThreads) + " (got " + std::to_string(options_.threads) + ")");
  }

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
    if (!enc_.dense()) return states * ByteTable::kHashEntryBytes + states / 2 * sizeof(Key);
    if (two_bit_mode(start, nullptr)) return bound / 4;
    return bound / 8 + (options_.keep_table ? bound : 0) + states / 2 * sizeof(Key);
  }

  // After explore(): the lexicographically smallest shortest path to `target`.
  std::optional<std::string> path_to(const State& target) const {
    if (std::holds_alternative<std::monostate>(visited_) || !puzzle_.same_component(start_, target))
      return std::nullopt;
    const Key target_key = enc_.encode(target);
    if (depth_mod(target_key) < 0) return std::nullopt;
    // The exact depth: step back to any predecessor one level nearer the start (depth mod
    // 256 is unambiguous there) and count the steps.
    int distance = 0;
    const Key start_key = enc_.encode(start_);
    State state = target, prev;
    for (Key k = target_key; k != start_key; ++distance) {
      const int want = (depth_mod(k) + 255) & 0xFF;
      bool stepped = false;
      for (int m = 0; m < puzzle_.move_count() && !stepped; ++m) {
        if (!puzzle_.apply_inverse(state, m, prev)) continue;
        const Key pk = enc_.encode(prev);
        if (depth_mod(pk) == want) {
          state = prev;
          k = pk;
          stepped = true;
        }
      }
      if (!stepped) throw std::logic_error("parallel: inconsistent depths");
    }
    return lex_smallest_path(puzzle_, enc_, start_, target, distance,
                             [&](Key k, int d) { return at_depth(k, d); });
  }

 private:
  using Visited = std::variant<std::monostate, std::shared_ptr<DenseVisited>, std::shared_ptr<ShardedDepthMap>>;

  int depth_mod(Key k) const { return depth_mod_in(visited_, k); }
  bool at_depth(Key k, int depth) const { return depth_mod(k) == (depth & 0xFF); }
  static int depth_mod_in(const Visited& visited, Key k) {
    return std::visit(
        [k](const auto& v) -> int {
          if constexpr (std::is_same_v<std::decay_t<decltype(v)>, std::monostate>) return -1;
          else return v->depth_mod(k);
        },
        visited);
  }

  bool two_bit_mode(const State& start, const State* target) const {
    const bool mostly_states = enc_.key_bound() / 4 <= puzzle_.component_size(start);
    return enc_.dense() && !target && !options_.keep_table && mostly_states;
  }

  SearchResult run(const State& start, const State* target, Visited& visited) {
    Timer timer;
    SearchResult result;
    const auto allowed = tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism);
    tbb::task_arena arena(static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(options_.threads), allowed)));
    arena.execute([&] {
      const int threads = tbb::this_task_arena::max_concurrency();
      // Two bits per key pay off when most keys are states (cantor, combinatorial): every
      // level scans the whole key space. With sparse packings (octal: 40,320 states among
      // 2^24 keys) the scans dominate; measured 14.5 ms vs 2.3 ms with frontier lists on
      // msquare 2x4, so those keep the lists.
      if (two_bit_mode(start, target)) {
        result = two_bit_levels(start);
      } else if (enc_.dense()) {
        // Point queries and kept tables: the bitset plus a byte of depth per key.
        const bool with_depths = target != nullptr || options_.keep_table;
        enforce_memory_limit(options_.memory_limit, enc_.key_bound() / 8 + (with_depths ? enc_.key_bound() : 0),
                             "the parallel engine's visited table");
        auto& v = visited.template emplace<std::shared_ptr<DenseVisited>>(
            std::make_shared<DenseVisited>(enc_.key_bound(), with_depths));
        result = levels(*v, start, target);
        result.peak_bytes += v->bytes();
      } else {
        // Sized for the whole component up front, except for point queries, which usually
        // touch a sliver of it (and the component may be 16! states).
        const std::uint64_t component = puzzle_.component_size(start);
        auto& v = visited.template emplace<std::shared_ptr<ShardedDepthMap>>(
            std::make_shared<ShardedDepthMap>(target ? std::min<std::uint64_t>(component, 1 << 16) : component));
        result = levels(*v, start, target);
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

  // Whole-space counting with two bits per key and no frontier list (Korf's two-bit
  // breadth-first search, core/two_bit_cells.hpp). Memory is bound/4 bytes whatever the
  // level widths: 120 MB for the 479,001,600 keys of msquare 2x6, where frontier lists of
  // 64-bit keys would need several times that. Each level is one pass over the cells in
  // key order, top-down or bottom-up (below).
  SearchResult two_bit_levels(const State& start) {
    SearchResult result;
    Timer timer;
    const Key bound = enc_.key_bound();
    TwoBitCells cells(bound);
    parallel_chunks(cells.words(), 4096, [&](std::uint64_t begin, std::uint64_t end) { cells.clear(begin, end); });
    const Key start_key = enc_.encode(start);
    cells.mark_key(start_key, TwoBitCells::current_code(0));
    result.depth_counts.push_back(1);
    std::uint64_t seen = 1;
    tbb::enumerable_thread_specific<LevelScratch> scratch;
    const std::uint64_t grain = std::max<std::uint64_t>(64, cells.words() / (256 * static_cast<std::uint64_t>(options_.threads)));
    for (int depth = 0;; ++depth) {
      if (options_.max_depth >= 0 && depth >= options_.max_depth) break;
      // Direction-optimizing (Beamer et al.): once the frontier outnumbers the unseen
      // states by kBottomUpRatio, asking every unseen state for a parent in the frontier
      // (stopping at the first) beats expanding the frontier. The ratio was chosen by
      // timing whole runs: msquare 2x5, 1 thread, 0.149 s at 1 against 0.154 s at 0.5,
      // 0.155 s at 2, 0.26 s at 0.1 and 0.175 s top-down only; 2x6, 2 threads, 14.0 s at 1,
      // 14.2 s at 0.5, 15.6 s top-down only. Scanning unseen keys needs a perfect encoder.
      const bool bottom_up = every_key_is_state<E>() && options_.bottom_up &&
                             static_cast<double>(result.depth_counts.back()) > kBottomUpRatio * static_cast<double>(bound - seen);
      parallel_chunks(cells.words(), grain, [&](std::uint64_t begin, std::uint64_t end) {
        if (bottom_up) bottom_up_chunk(cells, depth, begin, end, scratch.local());
        else top_down_chunk(cells, depth, begin, end, scratch.local());
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
      if (options_.progress) options_.progress(depth + 1, found, timer.seconds());
    }
    for (auto& local : scratch) {
      result.expanded += local.expanded;
      result.generated += local.generated;
    }
    result.peak_bytes = cells.bytes();
    return result;
  }

  static constexpr double kBottomUpRatio = 1.0;
  // States handled together: their successor keys are computed and prefetched as a batch
  // before any is claimed, so the random accesses into a table far larger than the caches
  // overlap instead of stalling one after another.
  static constexpr std::size_t kBatch = 64;

  struct LevelScratch {
    std::vector<Key> keys, neighbours;
    std::vector<State> states;
    std::uint64_t found = 0, expanded = 0, generated = 0;
  };

  // Top-down: expand every cell holding the current code; claim unseen successors with
  // the next code. The expanded cells are retired (done) as their word is read.
  void top_down_chunk(TwoBitCells& cells, int depth, std::uint64_t begin, std::uint64_t end, LevelScratch& local) const {
    const unsigned current = TwoBitCells::current_code(depth), next = TwoBitCells::next_code(depth);
    const int moves = puzzle_.move_count();
    local.keys.clear();
    auto expand = [&] {
      local.neighbours.clear();
      State successor;
      for (const Key k : local.keys) {
        const State state = enc_.decode(k);
        for (int m = 0; m < moves; ++m) {
          if (!puzzle_.apply(state, m, successor)) continue;
          const Key n = enc_.encode(successor);
          __builtin_prefetch(cells.address_of(n), 1);
          local.neighbours.push_back(n);
        }
      }
      for (const Key n : local.neighbours) local.found += cells.claim(n, next);
      local.expanded += local.keys.size();
      local.generated += local.neighbours.size();
      local.keys.clear();
    };
    for (std::uint64_t w = begin; w != end; ++w) {
      std::uint64_t frontier = TwoBitCells::cells_with(cells.word(w), current);
      if (!frontier) continue;
      cells.mark(w, frontier, TwoBitCells::kDone);
      for (; frontier; frontier &= frontier - 1) {
        local.keys.push_back(TwoBitCells::key_of(w, frontier));
        if (local.keys.size() == kBatch) expand();
      }
    }
    expand();
  }

  // Bottom-up: every unseen cell looks for a parent holding the current code, trying the
  // moves in order and stopping at the first parent found; one move at a time across the
  // whole batch, so the parents' cells can be prefetched together.
  void bottom_up_chunk(TwoBitCells& cells, int depth, std::uint64_t begin, std::uint64_t end, LevelScratch& local) const {
    const unsigned current = TwoBitCells::current_code(depth), next = TwoBitCells::next_code(depth);
    const int moves = puzzle_.move_count();
    local.keys.clear();
    auto resolve = [&] {
      local.states.clear();
      for (const Key k : local.keys) local.states.push_back(enc_.decode(k));
      std::size_t open = local.keys.size();  // keys[0, open) have no parent found yet
      State parent;
      for (int m = 0; m < moves && open > 0; ++m) {
        local.neighbours.resize(open);
        for (std::size_t i = 0; i < open; ++i) {
          Key p = kNoKey;
          if (puzzle_.apply_inverse(local.states[i], m, parent)) {
            p = enc_.encode(parent);
            __builtin_prefetch(cells.address_of(p), 0);
            ++local.generated;
          }
          local.neighbours[i] = p;
        }
        for (std::size_t i = 0; i < open;) {
          const Key p = local.neighbours[i];
          if (p == kNoKey || cells.get(p) != current) {
            ++i;
            continue;
          }
          cells.mark_key(local.keys[i], next);
          ++local.found;
          --open;  // swap the resolved key out of the open range
          std::swap(local.keys[i], local.keys[open]);
          std::swap(local.states[i], local.states[open]);
          std::swap(local.neighbours[i], local.neighbours[open]);
        }
      }
      local.expanded += local.keys.size();
      local.keys.clear();
    };
    for (std::uint64_t w = begin; w != end; ++w) {
      for (std::uint64_t unseen = TwoBitCells::cells_with(cells.word(w), TwoBitCells::kUnseen); unseen; unseen &= unseen - 1) {
        local.keys.push_back(TwoBitCells::key_of(w, unseen));
        if (local.keys.size() == kBatch) resolve();
      }
    }
    resolve();
  }
  static constexpr Key kNoKey = ~Key{0};

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
      // A grain of ~1/64 of a thread's share: enough chunks to balance, few enough to be cheap.
      const std::size_t grain = std::max<std::size_t>(256, frontier.size() / (64 * static_cast<std::size_t>(options_.threads)));
      parallel_chunks(frontier.size(), grain, [&](std::uint64_t begin, std::uint64_t end) {
        Local& local = locals.local();
        State next_state;
        for (std::uint64_t i = begin; i != end; ++i) {
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
      enforce_memory_limit(options_.memory_limit, visited.bytes() + peak_frontier * sizeof(Key), "this parallel search");
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
  Visited visited_;  // explore()'s table, for path_to
};

}  // namespace searchbench
