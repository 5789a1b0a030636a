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
//   (two_bit_levels, Korf's two-bit BFS), so msquare 2x6 fits in 120 MB.
// * Threads: one tbb::task_arena of `threads` workers per run.
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
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include "core/atomic_bitset.hpp"
#include "core/byte_table.hpp"
#include "core/concepts.hpp"
#include "core/concurrent_depth_map.hpp"
#include "core/errors.hpp"
#include "core/lex_path.hpp"
#include "core/result.hpp"
#include "core/timer.hpp"

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
    if (options_.threads < 1) throw InputError("thread count must be at least 1");
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
    tbb::task_arena arena(options_.threads);
    arena.execute([&] {
      // Two bits per key pay off when most keys are states (cantor, combinatorial): every
      // level scans the whole key space. With sparse packings (octal: 40,320 states among
      // 2^24 keys) the scans dominate; measured 14.5 ms vs 2.3 ms with frontier lists on
      // msquare 2x4, so those keep the lists.
      if (two_bit_mode(start, target)) {
        result = two_bit_levels(start);
      } else if (enc_.dense()) {
        // Point queries and kept tables: the bitset plus a byte of depth per key.
        const bool with_depths = target != nullptr || options_.keep_table;
        auto& v = visited.template emplace<std::shared_ptr<DenseVisited>>(
            std::make_shared<DenseVisited>(enc_.key_bound(), with_depths));
        result = levels(*v, start, target);
        result.peak_bytes += v->bytes();
      } else {
        auto& v = visited.template emplace<std::shared_ptr<ShardedDepthMap>>(
            std::make_shared<ShardedDepthMap>(puzzle_.component_size(start)));
        result = levels(*v, start, target);
        result.peak_bytes += v->bytes();
      }
    });
    if (target && result.found) {
      result.path = lex_smallest_path(puzzle_, enc_, start, *target, result.distance,
                                      [&](Key k, int d) { return depth_mod_in(visited, k) == (d & 0xFF); });
    }
    result.seconds = timer.seconds();
    return result;
  }

  // Whole-space counting with two bits per key and no frontier list (Korf's two-bit
  // breadth-first search): each key is unseen (0), in the current level (1), in the next
  // level (2) or done (3). A level scans the array in key order for 1s, expands them and
  // claims unseen successors as 2 with a compare-and-swap; one more pass then turns every
  // 1 into 3 and every 2 into 1. Memory is bound/4 bytes whatever the level widths
  // (120 MB for the 479,001,600 keys of msquare 2x6, where frontier lists of 64-bit keys
  // would need several times that).
  SearchResult two_bit_levels(const State& start) {
    SearchResult result;
    Timer timer;
    const std::uint64_t words = (enc_.key_bound() + 31) / 32;
    std::unique_ptr<std::atomic<std::uint64_t>[]> cells(new std::atomic<std::uint64_t>[words]);
    constexpr std::uint64_t kLow = 0x5555555555555555ULL;
    parallel_chunks(words, 4096, [&](std::uint64_t begin, std::uint64_t end) {
      for (std::uint64_t w = begin; w != end; ++w) cells[w].store(0, std::memory_order_relaxed);
    });
    const Key start_key = enc_.encode(start);
    cells[start_key / 32].store(std::uint64_t{1} << (start_key % 32 * 2), std::memory_order_relaxed);
    result.depth_counts.push_back(1);
    struct Local {
      std::uint64_t found = 0, expanded = 0, generated = 0;
    };
    tbb::enumerable_thread_specific<Local> locals;
    const std::uint64_t grain = std::max<std::uint64_t>(64, words / (256 * static_cast<std::uint64_t>(options_.threads)));
    for (int depth = 0;; ++depth) {
      if (options_.max_depth >= 0 && depth >= options_.max_depth) break;
      parallel_chunks(words, grain, [&](std::uint64_t begin, std::uint64_t end) {
        Local& local = locals.local();
        State next;
        for (std::uint64_t w = begin; w != end; ++w) {
          const std::uint64_t word = cells[w].load(std::memory_order_relaxed);
          std::uint64_t current = word & ~(word >> 1) & kLow;  // cells holding 01
          while (current) {
            const int bit = std::countr_zero(current);
            current &= current - 1;
            const State state = enc_.decode(w * 32 + static_cast<std::uint64_t>(bit / 2));
            ++local.expanded;
            for (int m = 0; m < puzzle_.move_count(); ++m) {
              if (!puzzle_.apply(state, m, next)) continue;
              ++local.generated;
              const Key k = enc_.encode(next);
              std::atomic<std::uint64_t>& target_word = cells[k / 32];
              const unsigned shift = static_cast<unsigned>(k % 32) * 2;
              std::uint64_t old = target_word.load(std::memory_order_relaxed);
              bool claimed = false;
              while (((old >> shift) & 3u) == 0 &&
                     !(claimed = target_word.compare_exchange_weak(old, old | (std::uint64_t{2} << shift), std::memory_order_relaxed))) {
              }
              local.found += claimed;
            }
          }
        }
      });
      std::uint64_t found = 0;
      for (auto& local : locals) found += std::exchange(local.found, 0);
      if (found == 0) break;
      result.depth_counts.push_back(found);
      if (options_.progress) options_.progress(depth + 1, found, timer.seconds());
      // 01 -> 11 (done), 10 -> 01 (current), 00 and 11 unchanged.
      parallel_chunks(words, 4096, [&](std::uint64_t begin, std::uint64_t end) {
        for (std::uint64_t w = begin; w != end; ++w) {
          const std::uint64_t v = cells[w].load(std::memory_order_relaxed);
          const std::uint64_t lo = v & kLow, hi = (v >> 1) & kLow;
          cells[w].store((lo | hi) | (lo << 1), std::memory_order_relaxed);
        }
      });
    }
    for (auto& local : locals) {
      result.expanded += local.expanded;
      result.generated += local.generated;
    }
    result.peak_bytes = words * sizeof(std::uint64_t);
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
