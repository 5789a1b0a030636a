// Engine `astar`: A* (Hart, Nilsson and Raphael 1968) for point queries.
//
// * Closed list keyed by the chosen encoder: for each key met, its best g so far and the
//   move that reached it with that g (the path is rebuilt backwards by undoing moves, as the
//   ring engine does). A direct table when the encoder's keys are few enough to index
//   (kDirectKeys) and mostly states, a hash map otherwise.
// * Open list: buckets by f, and inside each f by g; the next node is the deepest of the
//   lowest f (ties toward larger g reach the target sooner among equal f). Entries are
//   never updated in place: a better g pushes the key again and the stale entry is skipped
//   when it comes up (its g is no longer the key's best).
// * With an admissible heuristic the target's g when it is taken from the open list is its
//   distance; a key may be reopened when a heuristic is not consistent, so the answer stays
//   optimal for every admissible heuristic.
// * The memory its lists hold is counted as they grow (a hashed entry at its heap cost), and
//   every 4096 expansions it is checked against the memory limit, the time limit is, and
//   a progress heartbeat may go out (the f being expanded, nodes, memory).
// * The path is a shortest one, but not always the lexicographically smallest (the order
//   in which equal-f nodes are taken is not the letters' order): the engine says so
//   (kCapabilities.any_optimal_path) and the tests check its length and that its moves reach the target.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <new>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/concepts.hpp"
#include "core/declared_options.hpp"
#include "core/engine_capabilities.hpp"
#include "core/errors.hpp"
#include "core/heuristic.hpp"
#include "core/memory_budget.hpp"
#include "core/progress_reporter.hpp"
#include "core/result.hpp"
#include "core/search_options.hpp"
#include "core/timer.hpp"

namespace searchbench {

template <Puzzle P, Encoder<P> E>
class AStar {
 public:
  static constexpr std::string_view kName = "astar";
  static constexpr std::string_view kSummary = "A*: open list in f and g buckets, closed list keyed by the encoder";
  static constexpr EngineCapabilities kCapabilities{.uses_heuristic = true, .any_optimal_path = true};
  using Options = NoOptions;
  using State = typename P::State;

  AStar(const P& puzzle, const E& enc, SearchOptions options = {}) : puzzle_(puzzle), enc_(enc), options_(std::move(options)) {}

  template <Heuristic<P> H>
  SearchResult search(const State& start, const State& target, const H& heuristic) {
    Timer timer;
    ProgressReporter progress(options_, timer);
    SearchResult result;
    result.threads = 1;
    if (puzzle_.same_component(start, target)) run(start, target, heuristic, result, progress);
    result.seconds = timer.seconds();
    return result;
  }

 private:
  // Keys below this many are indexed directly (4 bytes each: 64 MiB at most).
  static constexpr Key kDirectKeys = Key{1} << 24;
  static constexpr int kUnseen = 0xFFFF;

  // The direct table comes from calloc: zero pages the search never touches cost nothing,
  // so a query near the start does not pay for a table of the whole key space. Stored as
  // g + 1 so that zero reads "unseen".
  class Closed {
   public:
    // Direct only where most keys are states: sparse keys (bitpack's 2^24 for 40,320 boards)
    // would touch a fresh page for almost every state met.
    Closed(const E& enc, std::uint64_t states) {
      if (enc.dense() && enc.key_bound() <= kDirectKeys && enc.key_bound() <= 4 * states) {
        direct_.reset(static_cast<Stored*>(std::calloc(enc.key_bound(), sizeof(Stored))));
        if (!direct_) throw std::bad_alloc();
        bound_ = enc.key_bound();
      }
    }
    int g(Key k) const {
      if (direct_) return direct_[k].g_plus_one == 0 ? kUnseen : direct_[k].g_plus_one - 1;
      const auto it = hashed_.find(k);
      return it == hashed_.end() ? kUnseen : it->second.g_plus_one - 1;
    }
    int move(Key k) const { return direct_ ? direct_[k].move : hashed_.at(k).move; }
    void set(Key k, int g, int move) {
      Stored& e = direct_ ? direct_[k] : hashed_[k];
      e.g_plus_one = static_cast<std::uint16_t>(g + 1);
      e.move = static_cast<std::uint8_t>(move);
    }
    // What the table holds in memory: a hashed entry is a node of a next pointer and the
    // key-value pair (24 bytes, a 32-byte heap chunk) plus its share of the bucket array.
    std::uint64_t bytes() const {
      if (direct_) return bound_ * sizeof(Stored);
      constexpr std::uint64_t kNode = sizeof(void*) + sizeof(std::pair<const Key, Stored>);
      constexpr std::uint64_t kChunk = (kNode + sizeof(std::size_t) + 15) / 16 * 16;  // glibc's header, 16-byte steps
      return hashed_.size() * kChunk + hashed_.bucket_count() * sizeof(void*);
    }

   private:
    struct Stored {
      std::uint16_t g_plus_one = 0;
      std::uint8_t move = 0;
    };
    struct Free {
      void operator()(Stored* p) const { std::free(p); }
    };
    std::unique_ptr<Stored[], Free> direct_;
    Key bound_ = 0;
    std::unordered_map<Key, Stored> hashed_;
  };

  // Buckets by f, then by g: open_[f][g] is a stack of keys.
  class Open {
   public:
    void push(int f, int g, Key k) {
      if (static_cast<std::size_t>(f) >= buckets_.size()) buckets_.resize(f + 1);
      auto& by_g = buckets_[f];
      if (static_cast<std::size_t>(g) >= by_g.size()) by_g.resize(g + 1);
      auto& keys = by_g[g];
      const std::size_t capacity = keys.capacity();
      keys.push_back(k);
      capacity_ += keys.capacity() - capacity;  // vectors keep what they grew to after pops
      if (f < lowest_f_) lowest_f_ = f;
      ++size_;
    }
    // The deepest key of the lowest f; false when empty.
    bool pop(int& f, int& g, Key& k) {
      if (size_ == 0) return false;
      while (true) {
        auto& by_g = buckets_[lowest_f_];
        while (!by_g.empty() && by_g.back().empty()) by_g.pop_back();
        if (!by_g.empty()) break;
        ++lowest_f_;
      }
      auto& by_g = buckets_[lowest_f_];
      f = lowest_f_;
      g = static_cast<int>(by_g.size()) - 1;
      k = by_g.back().back();
      by_g.back().pop_back();
      --size_;
      return true;
    }
    std::uint64_t size() const { return size_; }
    std::uint64_t bytes() const { return capacity_ * sizeof(Key); }

   private:
    std::vector<std::vector<std::vector<Key>>> buckets_;
    int lowest_f_ = 0;
    std::uint64_t size_ = 0;
    std::uint64_t capacity_ = 0;  // keys the bucket vectors have room for, popped ones included
  };

  template <class H>
  void run(const State& start, const State& target, const H& heuristic, SearchResult& result, ProgressReporter& progress) {
    Closed closed(enc_, puzzle_.component_size(start));
    Open open;
    const Key start_key = enc_.encode(start), target_key = enc_.encode(target);
    closed.set(start_key, 0, 0);
    open.push(heuristic.estimate(start), 0, start_key);
    const int limit = options_.max_depth >= 0 ? options_.max_depth : kUnseen - 1;
    State child;
    int f = 0, g = 0;
    Key k = 0;
    while (open.pop(f, g, k)) {
      if (closed.g(k) != g) continue;  // a better g pushed this key again
      if (k == target_key) {
        result.found = true;
        result.distance = g;
        result.path = rebuild(closed, target, start_key);
        break;
      }
      if (f > limit) break;
      ++result.expanded;
      if ((result.expanded & 0xFFF) == 0) {  // every 4096 nodes: the memory limit, the time limit, a heartbeat
        options_.memory.enforce(closed.bytes() + open.bytes(), "this A* search");
        if (progress.heartbeat_due())
          progress.nodes(false, f, result.expanded, result.generated, closed.bytes() + open.bytes(),
                         "f " + std::to_string(f) + " in progress");
      }
      const State state = enc_.decode(k);
      const int h = f - g;
      for (int m = 0, moves = puzzle_.move_count(); m < moves; ++m) {
        if (!puzzle_.apply(state, m, child)) continue;
        ++result.generated;
        const Key ck = enc_.encode(child);
        if (closed.g(ck) <= g + 1) continue;
        closed.set(ck, g + 1, m);
        open.push(g + 1 + estimate_after<P>(heuristic, state, h, m, child), g + 1, ck);
      }
    }
    result.peak_bytes = closed.bytes() + open.bytes();
  }

  std::string rebuild(const Closed& closed, State state, Key start_key) const {
    std::string path;
    for (Key k = enc_.encode(state); k != start_key; k = enc_.encode(state)) {
      const int m = closed.move(k);
      path.push_back(puzzle_.move_name(m));
      State parent;
      puzzle_.apply_inverse(state, m, parent);
      state = parent;
    }
    return {path.rbegin(), path.rend()};
  }

  const P& puzzle_;
  const E& enc_;
  SearchOptions options_;
};

}  // namespace searchbench
