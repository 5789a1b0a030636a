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
// Optional:
// * estimate_after(parent, parent_h, move, child): the same value as estimate(child),
//   computed from the parent's (a tile's Manhattan distance changes by one move's worth);
// * a type H::NodeCache, with cache_of(state) -> NodeCache and estimate_child(parent,
//   parent_cache, move, child, child_cache&) -> int: what the heuristic keeps of a node to
//   estimate its children cheaply (the pattern databases' per-pattern entries: a move
//   changes one pattern's), carried down the search with each node. estimate_child gives
//   estimate(child) and fills child_cache as cache_of(child) would, from the parent's. IDA*
//   builds it once per dive and carries it (A* keeps no per-node data, so asks
//   estimate_after). All three or none, spelled so: a heuristic that declares some of them
//   fails to compile (check_node_cache_hooks), where a misspelt hook would silently never be
//   called; not with children_within;
// * children_within(parent, parent_h, room) -> ChildMoves, with estimate_move(parent,
//   parent_h, move): the moves whose child's estimate can be at most `room`, as a set of
//   move numbers found without making a child (a 60-pancake flip costs more than its gap
//   count), and estimate_move gives each one's estimate from the parent (see scan_children);
// * complete_tight(state, h) -> TightCompletion: at a node whose f equals the bound (room
//   h - 1), where every move changes h by at most one and h is 0 at the target only, a path
//   within the bound must lower h by one at every move. A heuristic that answers "is there
//   such a path" faster than a depth-first pass over those moves (the pancake gap's, from
//   either end of the path) gives the answer and the lexicographically smallest such path;
//   IDA* then hands it every such node;
// * tight_parent(state) -> T and complete_tight(const T&, move, h): the same answer for the
//   child made by `move` (its estimate h), from what the heuristic keeps of the parent (the
//   pancake gap's inverse stack, which costs more than the search below most children).
//   IDA* builds it once for a node whose children are tight, and asks it for each one;
// * tight_start(const T&, move, h) -> S (a type H::TightStart) and first_completion(const
//   S*, count) -> TightFirst: the same question for many such nodes at once, answered for
//   the first (in the order given) that has a path. Where a heuristic has them, IDA* queues
//   the nodes whose f is the bound in depth-first order and asks them together (the pancake
//   gap searches below them side by side);
// * kConsistent = true: h(s) <= 1 + h(t) for every move s -> t (tests check it);
// * build_note(): how it was built, for the result ("loaded from <cache file>").
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
#include "core/search_options.hpp"

namespace searchbench {

// Whether H has the node-cache hooks (see the top): the type and both functions, spelled so.
template <class H, class P>
concept CarriesNodeCache = requires { typename H::NodeCache; } &&
    requires(const H& h, const typename P::State& s, const typename H::NodeCache& cache, typename H::NodeCache& child_cache, int m) {
      requires std::is_default_constructible_v<typename H::NodeCache>;
      { h.cache_of(s) } -> std::same_as<typename H::NodeCache>;
      { h.estimate_child(s, cache, m, s, child_cache) } -> std::same_as<int>;
    };

// The node-cache hooks are all there or none: optional hooks are found by `requires`, so one
// misspelt (or of the wrong signature) would leave the others unused without a word. Part of
// the Heuristic concept, so every heuristic a family lists is checked where it is listed.
template <class H, class P>
constexpr bool check_node_cache_hooks() {
  constexpr bool declared = requires { typename H::NodeCache; };
  constexpr bool some_hook = requires { &H::cache_of; } || requires { &H::estimate_child; };
  static_assert(!declared || CarriesNodeCache<H, P>,
                "H declares NodeCache but not both of cache_of(state) -> NodeCache and estimate_child(parent, "
                "parent_cache, move, child, child_cache&) -> int as core/heuristic.hpp spells them");
  static_assert(declared || !some_hook, "H has cache_of or estimate_child but no NodeCache type (core/heuristic.hpp)");
  static_assert(!declared || !requires(const H& h, const typename P::State& s) { h.children_within(s, 0, 0); },
                "H has both NodeCache and children_within, which scan_children does not combine");
  return true;
}

template <class H, class P>
concept Heuristic = Puzzle<P> && requires(const H& h, const P& p, const typename P::State& s) {
  requires check_node_cache_hooks<H, P>();
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
  if constexpr (requires { h.estimate_after(parent, parent_h, move, child); }) return h.estimate_after(parent, parent_h, move, child);
  else return h.estimate(child);
}

// What a search carries per node for H: its NodeCache, or nothing.
template <class H, class P>
struct NodeCacheSlot {
  using type = std::monostate;
};
template <class H, class P>
  requires CarriesNodeCache<H, P>
struct NodeCacheSlot<H, P> {
  using type = typename H::NodeCache;
};
template <class H, class P>
using NodeCacheOf = typename NodeCacheSlot<H, P>::type;

template <class P, class H>
NodeCacheOf<H, P> cache_of(const H& h, const typename P::State& s) {
  if constexpr (CarriesNodeCache<H, P>) return h.cache_of(s);
  else return {};
}

// h(child) and its cache from the parent's where the heuristic carries one, else as
// estimate_after.
template <class P, class H>
int estimate_child(const H& h, const typename P::State& parent, int parent_h, const NodeCacheOf<H, P>& parent_cache, int move,
                   const typename P::State& child, NodeCacheOf<H, P>& child_cache) {
  if constexpr (CarriesNodeCache<H, P>) return h.estimate_child(parent, parent_cache, move, child, child_cache);
  else return estimate_after<P>(h, parent, parent_h, move, child);
}

// Where IDA* keeps a node's tight_parent until its first tight child asks for it: an empty
// optional of that type, or of nothing at all for a heuristic without one.
template <class H, class State>
struct TightParentSlot {
  using type = std::optional<std::monostate>;
};
template <class H, class State>
  requires requires(const H& h, const State& s) { h.tight_parent(s); }
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

// The children of s a depth-first search under a bound needs, in move order: visit(m,
// child_h) for each move m not skipped (skip(m): the engine's pruning), with `child` made
// and, where the heuristic carries a NodeCache, `child_cache` filled from s's `cache`.
// Where the heuristic lists the moves itself (children_within: the pancake gap's at most two
// gap-closing flips when room = h - 1), only the children within `room` are made and
// visited, and the floor covers the rest; else every child is made and visited.
template <class P, class H, class Skip, class Visit>
ChildScan scan_children(const P& puzzle, const H& h, const typename P::State& s, int h_s, const NodeCacheOf<H, P>& cache,
                        int room, typename P::State& child, NodeCacheOf<H, P>& child_cache, Skip&& skip, Visit&& visit) {
  if constexpr (requires { h.children_within(s, h_s, room); }) {
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
  if constexpr (requires { H::kConsistent; }) return H::kConsistent;
  else return false;
}

template <class H>
std::string build_note_of(const H& h) {
  if constexpr (requires { h.build_note(); }) return h.build_note();
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
