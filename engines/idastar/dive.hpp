// One depth-first search of iterative-deepening A* (engines/idastar.hpp) under an f bound,
// from one node: the part of an iteration that every thread runs, below the split. Kept
// apart from the engine's iteration loop and parallel split so that each reads alone.
#pragma once

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/concepts.hpp"
#include "core/heuristic.hpp"
#include "core/node_meter.hpp"

namespace searchbench {

// Nodes a dive expands between looks at the query's budget and clock (core/node_meter.hpp),
// and, alone, at its stop flag.
inline constexpr std::uint64_t kIdaStopCheckEvery = 4096;

// What a dive alone keeps for other threads (IdaDive's Frames): nothing. In parallel,
// IdaSharedFrames (engines/idastar/share.hpp) keeps each depth's node and move so that an
// idle thread can be given the moves not yet tried.
struct IdaNoFrames {
  static constexpr bool kShares = false;
  static constexpr std::uint64_t kLookEvery = kIdaStopCheckEvery;
};

// What one iteration (or one dive of it) found and counted.
struct IdaIteration {
  bool found = false;
  std::string path;
  std::uint64_t expanded = 0, generated = 0;
  int next_bound = INT_MAX;
};

// Move m right after `last` (made `run` times in a row) cannot lie on a shortest path: it
// undoes `last`, repeats a move up to its order, or is one the puzzle calls redundant
// after `last` (redundant_after, where the puzzle declares it).
template <Puzzle P>
bool ida_skipped(const P& puzzle, int last, int run, int m) {
  if (last >= 0 && puzzle.inverse_move(last) == m) return true;
  if constexpr (P::kHooks.redundant_after)
    if (last >= 0 && puzzle.redundant_after(last, m)) return true;
  const int order = puzzle.move_order(m);
  return order > 0 && (m == last ? run + 1 : 1) >= order;
}

// Where IDA* keeps a node's tight_parent until its first tight child asks for it: an empty
// optional of that type, or of nothing at all for a heuristic without one.
template <class H, class State>
struct TightParentSlot {
  using type = std::optional<std::monostate>;
};
template <class H, class State>
  requires(H::kCapabilities.tight_completion)
struct TightParentSlot<H, State> {
  using type = std::optional<decltype(std::declval<const H&>().tight_parent(std::declval<const State&>()))>;
};
template <class H, class State>
using TightParentOf = typename TightParentSlot<H, State>::type;

// Where IDA* queues the nodes it asks a heuristic about together (first_completion), in
// depth-first order: their starts and their paths from the dive's first node, back to back
// in one string (a string each was an allocation per node). Empty for a heuristic without.
template <class H, bool kQueues>
struct TightQueueOf {};
template <class H>
struct TightQueueOf<H, true> {
  std::vector<typename H::TightStart> starts;
  std::string paths;
  std::vector<std::size_t> ends;
  void push(const typename H::TightStart& start, const std::string& trail, std::size_t length) {
    starts.push_back(start);
    paths.append(trail, 0, length);
    ends.push_back(paths.size());
  }
  std::string path(std::size_t i) const {
    const std::size_t begin = i == 0 ? 0 : ends[i - 1];
    return paths.substr(begin, ends[i] - begin);
  }
  void clear() {
    starts.clear();
    paths.clear();
    ends.clear();
  }
};

// One depth-first search under `bound`, from one node. `stop()` is asked at every look
// (every Frames::kLookEvery nodes) and before each completion; when it says so the search
// unwinds without a solution.
template <Puzzle P, class H, class Stop, class Frames = IdaNoFrames>
struct IdaDive {
  using State = typename P::State;
  using Cache = NodeCacheOf<H, P>;  // what the heuristic carries per node (core/heuristic.hpp), or nothing

  const P& puzzle;
  const H& heuristic;
  const State& target;
  int bound;
  Stop stop;
  NodeMeter& meter;
  Frames frames{};
  IdaIteration out{};
  std::uint64_t told_expanded = 0, told_generated = 0;  // what meter has of `out`

  // Whether to stop: asked every Frames::kLookEvery nodes, it asks the iteration's own stop,
  // and every kIdaStopCheckEvery tells the meter this dive's nodes since the last time (the
  // node budget and the time limit are checked on the query's totals).
  bool stop_now() {
    const bool halt = out.expanded - told_expanded >= kIdaStopCheckEvery && tell_meter();
    return halt || stop();
  }
  // Tells the meter the nodes it has not been told of (also when a dive of a shared
  // iteration ends: many are shorter than kIdaStopCheckEvery); true when the query is to stop.
  bool tell_meter() {
    const bool halt = meter.add(out.expanded - told_expanded, out.generated - told_generated);
    told_expanded = out.expanded;
    told_generated = out.generated;
    return halt;
  }
  // Nodes whose f is the bound wait in `queue` to be asked together, where the heuristic
  // asks many at once (first_completion): kept in depth-first order, asked before any
  // later solution is taken and at the end, so the first that completes is the answer.
  static constexpr bool kQueues = H::kCapabilities.tight_completion;
  static constexpr std::size_t kQueueLength = 256;
  TightQueueOf<H, kQueues> queue{};
  bool stopped = false;
  // The moves from the first node down to the one at depth g are trail[first_g, g): one
  // store per node where a string's push and pop were a tenth of the search's time.
  int first_g = 0;
  std::string trail{};

  bool search(const State& s, int g, int h, int last, int run) {
    first_g = g;
    trail.assign(static_cast<std::size_t>(bound - g + 1), '\0');
    if (from(s, cache_of<P>(heuristic, s), g, h, last, run)) return true;
    if constexpr (kQueues) return !stopped && ask_queue();
    return false;
  }

  bool from(const State& s, const Cache& cache, int g, int h, int last, int run) {
    if (h == 0 && s == target) {
      if constexpr (kQueues)
        if (ask_queue() || stopped) return !stopped;  // a node before this one completes
      out.found = true;
      out.path.assign(trail, 0, static_cast<std::size_t>(g - first_g));
      return true;
    }
    const int room = bound - g - 1;
    if constexpr (kQueues) {  // the dive's first node (a tight child is queued, not entered)
      if (room == h - 1) return complete(g, h, [&] { return heuristic.complete_tight(s, h); });
    }
    const int depth = g - first_g;
    if ((++out.expanded % Frames::kLookEvery) == 0) {
      if constexpr (Frames::kShares) frames.look(trail, depth, out.expanded);
      if (stop_now()) stopped = true;
    }
    if (stopped) return false;
    if constexpr (Frames::kShares) frames.enter(depth, s, h, last, run, out.expanded);
    State child;
    Cache child_cache;
    [[maybe_unused]] TightParentOf<H, State> parent;  // built at the first child whose f is the bound, if the heuristic keeps one
    const ChildScan scan = scan_children(
        puzzle, heuristic, s, h, cache, room, child, child_cache,
        [&](int m) { return ida_skipped(puzzle, last, run, m); },
        [&](int m, int hc) {
          if constexpr (Frames::kShares)
            if (!frames.take(depth, m)) return false;  // outside this dive's moves, or given away
          ++out.generated;
          if (hc > room) {
            out.next_bound = std::min(out.next_bound, g + 1 + hc);
            return false;
          }
          trail[static_cast<std::size_t>(depth)] = puzzle.move_name(m);
          if constexpr (kQueues) {
            if (hc == room && hc > 0) {  // the child's f is the bound
              if (!parent) parent.emplace(heuristic.tight_parent(s));
              queue.push(heuristic.tight_start(*parent, m, hc), trail, static_cast<std::size_t>(depth + 1));
              return queue.starts.size() == kQueueLength && (ask_queue() || stopped);
            }
          }
          return from(child, child_cache, g + 1, hc, m, m == last ? run + 1 : 1) || stopped;
        });
    if (scan.floor != INT_MAX) out.next_bound = std::min(out.next_bound, g + 1 + scan.floor);
    return scan.stopped && !stopped;
  }

  // A node at depth g whose f is the bound: the heuristic says (`ask`) whether a path
  // lowers h at every move to the target, and gives the smallest. Else every child's f is
  // past the bound, by one at least.
  template <class Ask>
  bool complete(int g, int h, Ask&& ask) {
    if (stopped || stop()) {
      stopped = true;
      return false;
    }
    const TightCompletion done = ask();
    out.expanded += done.expanded;
    out.generated += done.generated;
    if (!done.found) {
      out.next_bound = std::min(out.next_bound, g + 1 + h);
      return false;
    }
    out.found = true;
    out.path.assign(trail, 0, static_cast<std::size_t>(g - first_g));
    for (const int m : done.moves) out.path += puzzle.move_name(m);
    return true;
  }

  // The queued nodes asked together: the first that completes is the solution. Every
  // queued node's f is the bound, so where none does, the next bound is one more.
  bool ask_queue() {
    if constexpr (kQueues) {
      if (queue.starts.empty()) return false;
      if (stopped || stop()) {
        stopped = true;
        return false;
      }
      const TightFirst first = heuristic.first_completion(queue.starts.data(), static_cast<int>(queue.starts.size()));
      out.expanded += first.completion.expanded;
      out.generated += first.completion.generated;
      if (first.index < 0) out.next_bound = std::min(out.next_bound, bound + 1);
      else {
        out.found = true;
        out.path = queue.path(static_cast<std::size_t>(first.index));
        for (const int m : first.completion.moves) out.path += puzzle.move_name(m);
      }
      queue.clear();
      return out.found;
    }
    return false;
  }
};

}  // namespace searchbench
