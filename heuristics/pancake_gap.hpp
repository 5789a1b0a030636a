// Pancake heuristic `gap` (Helmert, "Landmark heuristics for the pancake problem", 2010):
// the adjacent positions i, i+1 of the stack (the bottom and the plate, a virtual pancake
// below all others, included) whose pancakes are not neighbours in the target. Sizes are
// relabelled by their position in the target (it reads 0..N-1 from the top, the plate N);
// a gap is an adjacent pair whose labels differ by more than one, and only the target has
// none. Admissible and consistent: flipping the top k reverses positions 0..k-1, which
// keeps every pair inside the prefix and below it; only the pair at k-1, k changes. So a
// flip removes at most one gap, h(s) <= 1 + h(t) for every move s -> t, and h(target) = 0.
// That one pair makes estimate_move a constant-time update, which IDA* (through
// children_within) asks before it flips, so most flips are never made.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>

#include "core/declared_options.hpp"
#include "core/heuristic_capabilities.hpp"
#include "core/heuristic.hpp"
#include "core/search_options.hpp"
#include "heuristics/pancake_gap_completion.hpp"
#include "heuristics/pancake_labels.hpp"
#include "puzzles/pancake_stack.hpp"

namespace searchbench {

class PancakeGap {
 public:
  static constexpr std::string_view kName = "gap";
  static constexpr std::string_view kSummary =
      "adjacent pancakes that are not neighbours in the target (the plate counts): Helmert's gap heuristic";
  static constexpr HeuristicCapabilities kCapabilities{
      .consistent = true, .estimate_after = true, .children_within = true, .tight_completion = true};
  using Options = NoOptions;
  using State = PancakeState;

  static std::string fits(const PancakeStack&) { return {}; }

  PancakeGap(const PancakeStack& puzzle, const State& target, const Options&, const SearchOptions&)
      : n_(puzzle.cells()), labels_(n_, target) {}

  int estimate(const State& s) const {
    int gaps = 0;
    for (int i = 0; i + 1 < n_; ++i) gaps += is_gap(label(s.cells[i]), label(s.cells[i + 1]));
    return gaps + is_gap(label(s.cells[n_ - 1]), n_);
  }

  // Flip m reverses the top k = m + 2 pancakes: only the pair at positions k-1, k changes,
  // from (parent[k-1], below) to (parent[0], below). Engines ask before they flip.
  int estimate_move(const State& parent, int parent_h, int move) const {
    const int k = move + 2;
    const int below = k < n_ ? label(parent.cells[k]) : n_;
    return parent_h - is_gap(label(parent.cells[k - 1]), below) + is_gap(label(parent.cells[0]), below);
  }
  int estimate_after(const State& parent, int parent_h, int move, const State&) const { return estimate_move(parent, parent_h, move); }

  // IDA* at a node with no room to spare (room = h - 1) needs only the flips that close a
  // gap: flipping the top k closes one exactly when the pancake at k is a target neighbour of
  // the top one and the pair at k-1, k was a gap, so at most two flips, found from where
  // the top's two neighbours lie. Every other flip keeps h or raises it: the floor of those
  // not looked at is h. With more room every flip is looked at.
  ChildMoves children_within(const State& s, int h, int room) const {
    if (room >= h) {
      ChildMoves out;
      for (int m = 0; m + 1 < n_; ++m) {
        const int hc = estimate_move(s, h, m);
        if (hc <= room) out.moves |= std::uint64_t{1} << m;
        else out.floor = std::min(out.floor, hc);
      }
      return out;
    }
    if (room < h - 1) return {0, h - 1};  // no flip closes more than one gap
    return {closing_flips(s), h};
  }

  // The flips that close a gap, as a move set.
  std::uint64_t closing_flips(const State& s) const { return labels_.closing(labels_.of(s)); }

  // A node with no room to spare (room = h - 1) has a path within the bound only if each of
  // its h flips closes a gap: heuristics/pancake_gap_completion.hpp searches for one from
  // both ends of the path (IDA*'s tight_completion hook, core/heuristic_capabilities.hpp).
  using TightParent = GapCompletion::TightParent;
  using TightStart = GapCompletion::TightStart;
  TightCompletion complete_tight(const State& s, int h) const { return GapCompletion(labels_).complete(labels_.of(s), h); }
  TightParent tight_parent(const State& s) const { return GapCompletion(labels_).parent(labels_.of(s)); }
  TightStart tight_start(const TightParent& parent, int move, int h) const { return GapCompletion::start(parent, move, h); }
  TightFirst first_completion(const TightStart* starts, int count) const { return GapCompletion(labels_).first(starts, count); }

  std::uint64_t bytes() const { return labels_.bytes(); }

 private:
  static int is_gap(int a, int b) { return std::abs(a - b) != 1; }
  int label(int size) const { return labels_.label(size); }

  int n_;
  PancakeLabels labels_;  // the target's labels and the vector operations on them
};

}  // namespace searchbench
