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
// * kConsistent = true: h(s) <= 1 + h(t) for every move s -> t (tests check it);
// * build_note(): how it was built, for the result ("loaded from <cache file>").
#pragma once

#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/concepts.hpp"
#include "core/search_options.hpp"

namespace searchbench {

template <class H, class P>
concept Heuristic = Puzzle<P> && requires(const H& h, const P& p, const typename P::State& s) {
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
