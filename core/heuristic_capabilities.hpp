// What a heuristic offers beyond its required members (core/heuristic.hpp), declared in one
// place so that a typo is a compile error:
//
//   static constexpr HeuristicCapabilities kCapabilities{.consistent = true, .estimate_after = true};
//
// A misspelled field does not compile, and the Heuristic concept checks each field against
// the members it names (check_heuristic_hooks): a hook declared without its members, or
// members of a hook left undeclared, is a compile error naming the hook. Fields left out
// are false.
#pragma once

namespace searchbench {

struct HeuristicCapabilities {
  // h(s) <= 1 + h(t) for every move s -> t (the tests check it).
  bool consistent = false;
  // estimate_after(parent, parent_h, move, child) -> int: estimate(child) from the parent's
  // value (a tile's Manhattan distance changes by one move's worth).
  bool estimate_after = false;
  // A type NodeCache with cache_of(state) -> NodeCache and estimate_child(parent,
  // parent_cache, move, child, child_cache&) -> int: what it keeps of a node to estimate the
  // children cheaply (the pattern databases' per-pattern entries: a move changes one
  // pattern's), carried down the search; estimate_child gives estimate(child) and fills
  // child_cache as cache_of(child) would. Not with children_within.
  bool node_cache = false;
  // children_within(parent, parent_h, room) -> ChildMoves with estimate_move(parent,
  // parent_h, move) -> int: the moves whose child's estimate can be at most `room`, found
  // without making a child (a 60-pancake flip costs more than its gap count).
  bool children_within = false;
  // The completion at a node whose f is the bound, where every move changes h by at most
  // one and h is 0 at the target only, so a path within the bound lowers h at every move:
  // the heuristic answers "is there such a path, and which is the lexicographically
  // smallest" faster than IDA*'s own pass (the pancake gap's two searches from either end).
  // Its members: a type TightStart (a node asked about), tight_parent(state) -> T (what it
  // keeps of a node whose children are asked about), tight_start(const T&, move, h) ->
  // TightStart, and first_completion(const TightStart*, count) -> TightFirst, which answers
  // for the first of many such nodes, in the order given, that has such a path. IDA* queues
  // those nodes in depth-first order and asks them together.
  bool tight_completion = false;
  // build_note() -> std::string: how it was built, for the result ("loaded from <file>").
  bool build_note = false;
};

}  // namespace searchbench
