// The third plug point: a Heuristic estimates, for a puzzle and a target fixed when it is
// built, how many moves a state needs at least to reach the target. The heuristic engines
// (idastar, astar) are templates over Puzzle, Encoder and Heuristic; a heuristic never
// knows an engine.
//
// A heuristic type H over puzzle P declares
// * kName, kSummary, and `using Options = S;` (S a struct of declared options,
//   core/declared_options.hpp; NoOptions when it has none);
// * fits(puzzle): empty when it applies to this instance, else the reason it does not;
// * a constructor H(puzzle, target, options, search_options): everything the estimate
//   needs for that target is built here (a pattern database's BFS, its cache file);
//   search_options carries the threads and the memory budget the build may use;
// * estimate(state): a lower bound on the moves from `state` to the target (admissible);
// * bytes(): what the built heuristic holds in memory.
// and declares what more it offers in one HeuristicCapabilities, kCapabilities
// (core/heuristic_capabilities.hpp: consistent, estimate_after, node_cache,
// children_within, tight_completion, build_note), each checked against the members it names
// (check_heuristic_hooks, part of the concept), so a misspelled hook is a compile error.
#pragma once

#include <array>
#include <bit>
#include <climits>
#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "core/concepts.hpp"
#include "core/heuristic_capabilities.hpp"
#include "core/search_options.hpp"

namespace searchbench {

// What a pass over a node's children ended with: `stopped` once the visitor said so;
// `floor`, a lower bound on the estimates of the children the pass never looked at
// (INT_MAX: it looked at all of them).
struct ChildScan {
  bool stopped = false;
  int floor = INT_MAX;
};

// What a heuristic's children_within lists: the moves whose child's estimate fits the room,
// as a set of move numbers (bit m: move m; puzzles of at most 64 moves), and a lower bound
// on the estimates of the others (INT_MAX: there are none).
struct ChildMoves {
  std::uint64_t moves = 0;
  int floor = INT_MAX;
};

// What complete_tight answers: whether the node has a path that lowers h by one at every
// move, its moves (the lexicographically smallest such path) if so, and the work done.
struct TightCompletion {
  bool found = false;
  std::vector<int> moves;
  std::uint64_t expanded = 0, generated = 0;
};

// What first_completion answers for many nodes: the first, in the order given, that has
// such a path (-1: none), complete_tight's answer for it, and all the work it took.
struct TightFirst {
  int index = -1;
  TightCompletion completion;
};

// The members of each optional hook, as core/heuristic_capabilities.hpp spells them.
template <class H, class P>
concept HasNodeCacheHooks = requires { typename H::NodeCache; } &&
    requires(const H& h, const typename P::State& s, const typename H::NodeCache& cache, typename H::NodeCache& child_cache, int m) {
      requires std::is_default_constructible_v<typename H::NodeCache>;
      { h.cache_of(s) } -> std::same_as<typename H::NodeCache>;
      { h.estimate_child(s, cache, m, s, child_cache) } -> std::same_as<int>;
    };
template <class H, class P>
concept HasTightCompletionHooks = requires { typename H::TightStart; } &&
    requires(const H& h, const typename P::State& s, const typename H::TightStart* starts, int m) {
      { h.complete_tight(s, m) } -> std::same_as<TightCompletion>;
      { h.tight_start(h.tight_parent(s), m, m) } -> std::same_as<typename H::TightStart>;
      { h.first_completion(starts, m) } -> std::same_as<TightFirst>;
    };

// H's kCapabilities against its members: a hook declared without its members, or a member
// of a hook not declared, does not compile (optional hooks found by `requires` alone would
// go unused without a word when misspelled). Part of the Heuristic concept, so every
// heuristic a family lists is checked where it is listed.
template <class H, class P>
constexpr bool check_heuristic_hooks() {
  static_assert(requires { { H::kCapabilities } -> std::convertible_to<HeuristicCapabilities>; },
                "a heuristic declares static constexpr HeuristicCapabilities kCapabilities{...} (core/heuristic_capabilities.hpp)");
  static_assert(!requires { H::kConsistent; }, "a heuristic declares kCapabilities.consistent, not a constant kConsistent of its own");
  constexpr HeuristicCapabilities c = H::kCapabilities;
  using State = typename P::State;
  static_assert(c.estimate_after == requires(const H& h, const State& s) { { h.estimate_after(s, 0, 0, s) } -> std::same_as<int>; },
                "kCapabilities.estimate_after and the member estimate_after(parent, parent_h, move, child) go together: one is "
                "missing or misspelled");
  static_assert(c.node_cache == HasNodeCacheHooks<H, P>,
                "kCapabilities.node_cache and the members NodeCache, cache_of(state) and estimate_child(parent, parent_cache, "
                "move, child, child_cache&) go together: one is missing or misspelled");
  static_assert(c.node_cache || !(requires { typename H::NodeCache; } || requires { &H::cache_of; } || requires { &H::estimate_child; }),
                "a node-cache member (NodeCache, cache_of, estimate_child) without kCapabilities.node_cache");
  static_assert(c.children_within == requires(const H& h, const State& s) {
    { h.children_within(s, 0, 0) } -> std::same_as<ChildMoves>;
    { h.estimate_move(s, 0, 0) } -> std::same_as<int>;
  }, "kCapabilities.children_within and the members children_within(parent, parent_h, room) and estimate_move(parent, "
     "parent_h, move) go together: one is missing or misspelled");
  static_assert(!(c.node_cache && c.children_within), "node_cache and children_within together: scan_children combines neither");
  static_assert(c.tight_completion == HasTightCompletionHooks<H, P>,
                "kCapabilities.tight_completion and the members TightStart, complete_tight(state, h), tight_parent(state), "
                "tight_start(parent, move, h) and first_completion(starts, count) go together: one is missing or misspelled");
  static_assert(c.build_note == requires(const H& h) { { h.build_note() } -> std::same_as<std::string>; },
                "kCapabilities.build_note and the member build_note() go together: one is missing or misspelled");
  return true;
}

template <class H, class P>
concept Heuristic = Puzzle<P> && requires(const H& h, const P& p, const typename P::State& s) {
  requires check_heuristic_hooks<H, P>();
  { H::kName } -> std::convertible_to<std::string_view>;
  { H::kSummary } -> std::convertible_to<std::string_view>;
  typename H::Options;
  { H::fits(p) } -> std::same_as<std::string>;
  requires std::constructible_from<H, const P&, const typename P::State&, const typename H::Options&, const SearchOptions&>;
  { h.estimate(s) } -> std::same_as<int>;
  { h.bytes() } -> std::same_as<std::uint64_t>;
};

// h(child) from the parent's value where the heuristic can, else from scratch.
template <class P, Heuristic<P> H>
inline int estimate_after(const H& h, const typename P::State& parent, int parent_h, int move, const typename P::State& child) {
  if constexpr (H::kCapabilities.estimate_after) return h.estimate_after(parent, parent_h, move, child);
  else return h.estimate(child);
}

// What a search carries per node for H: its NodeCache, or nothing.
template <class H, class P>
struct NodeCacheSlot {
  using type = std::monostate;
};
template <class H, class P>
  requires(H::kCapabilities.node_cache)
struct NodeCacheSlot<H, P> {
  using type = typename H::NodeCache;
};
template <class H, class P>
using NodeCacheOf = typename NodeCacheSlot<H, P>::type;

template <class P, class H>
NodeCacheOf<H, P> cache_of(const H& h, const typename P::State& s) {
  if constexpr (H::kCapabilities.node_cache) return h.cache_of(s);
  else return {};
}

// h(child) and its cache from the parent's where the heuristic carries one, else as
// estimate_after.
template <class P, class H>
int estimate_child(const H& h, const typename P::State& parent, int parent_h, const NodeCacheOf<H, P>& parent_cache, int move,
                   const typename P::State& child, NodeCacheOf<H, P>& child_cache) {
  if constexpr (H::kCapabilities.node_cache) return h.estimate_child(parent, parent_cache, move, child, child_cache);
  else return estimate_after<P>(h, parent, parent_h, move, child);
}

// The children of s a depth-first search under a bound needs, in move order: visit(m,
// child_h) for each move m not skipped (skip(m): the engine's pruning), with `child` made
// and, where the heuristic carries a NodeCache, `child_cache` filled from s's `cache`.
// Where the heuristic lists the moves itself (children_within: the pancake gap's at most two
// gap-closing flips when room = h - 1), only the children within `room` are made and
// visited, and the floor covers the rest; else every child is made and visited.
template <class P, class H, class Skip, class Visit>
ChildScan scan_children(const P& puzzle, const H& h, const typename P::State& s, int h_s, const NodeCacheOf<H, P>& cache,
                        int room, typename P::State& child, NodeCacheOf<H, P>& child_cache, Skip&& skip, Visit&& visit) {
  if constexpr (H::kCapabilities.children_within) {
    const ChildMoves within = h.children_within(s, h_s, room);
    for (std::uint64_t moves = within.moves; moves != 0; moves &= moves - 1) {
      const int m = std::countr_zero(moves);
      if (skip(m)) continue;
      puzzle.apply(s, m, child);
      if (visit(m, h.estimate_move(s, h_s, m))) return {true, INT_MAX};
    }
    return {false, within.floor};
  } else {
    using State = typename P::State;
    using Cache = NodeCacheOf<H, P>;
    // Few small children (the sliding tiles' at most four): all made and estimated before
    // the first is visited, so that their estimates' memory reads (a pattern database of
    // hundreds of megabytes misses the caches at every lookup) overlap instead of waiting
    // in turn. The visits and their order are the same.
    constexpr int kBatch = 4;
    if constexpr (std::is_trivially_copyable_v<State> && sizeof(State) <= 32) {
      if (puzzle.move_count() <= kBatch) {
        std::array<State, kBatch> made;
        std::array<Cache, kBatch> made_cache;
        std::array<int, kBatch> move{}, estimate{};
        int count = 0;
        for (int m = 0, moves = puzzle.move_count(); m < moves; ++m)
          if (!skip(m) && puzzle.apply(s, m, made[count])) move[count++] = m;
        for (int i = 0; i < count; ++i) estimate[i] = estimate_child<P>(h, s, h_s, cache, move[i], made[i], made_cache[i]);
        for (int i = 0; i < count; ++i) {
          child = made[i];
          if constexpr (!std::is_empty_v<Cache>) child_cache = made_cache[i];
          if (visit(move[i], estimate[i])) return {true, INT_MAX};
        }
        return {};
      }
    }
    for (int m = 0, moves = puzzle.move_count(); m < moves; ++m) {
      if (skip(m)) continue;
      if (!puzzle.apply(s, m, child)) continue;
      if (visit(m, estimate_child<P>(h, s, h_s, cache, m, child, child_cache))) return {true, INT_MAX};
    }
    return {};
  }
}

// The same for a search that carries no NodeCache: s's, if the heuristic has one, is built
// here (a full estimate; the split's listing, a small part of a search, asks so).
template <class P, class H, class Skip, class Visit>
ChildScan scan_children(const P& puzzle, const H& h, const typename P::State& s, int h_s, int room, typename P::State& child,
                        Skip&& skip, Visit&& visit) {
  NodeCacheOf<H, P> child_cache;
  return scan_children(puzzle, h, s, h_s, cache_of<P>(h, s), room, child, child_cache, skip, visit);
}

template <class H>
constexpr bool is_consistent() {
  return H::kCapabilities.consistent;
}

template <class H>
std::string build_note_of(const H& h) {
  if constexpr (H::kCapabilities.build_note) return h.build_note();
  else return {};
}

// A list of heuristic types (a family's, registry/family.hpp).
template <class... Hs>
struct HeuristicList {
  static constexpr std::size_t size = sizeof...(Hs);
  template <class Fn>
  static void for_each(Fn&& fn) {
    (fn.template operator()<Hs>(), ...);
  }
  template <class... More>
  using With = HeuristicList<Hs..., More...>;
};

}  // namespace searchbench
