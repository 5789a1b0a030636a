// Pancake heuristic `gap` (Helmert, "Landmark heuristics for the pancake problem", 2010):
// the number of adjacent positions i, i+1 of the stack, the bottom pancake next to the
// plate (a virtual pancake below all others) included, whose pancakes are not neighbours in
// the target stack.
//
// Target-relative: every size is relabelled by its position in the target (the target reads
// 0, 1, ..., N-1 from the top and the plate is N), and a gap is an adjacent pair whose
// labels differ by more than one. The target has no gap, and it is the only stack without
// one (the bottom must then be N-1, the one above it N-2, and so on up).
//
// Admissible and consistent: flipping the top k pancakes reverses positions 0..k-1, which
// keeps every adjacent pair inside the prefix (each is read the other way round) and the
// pairs below it; only the pair at positions k-1, k (k = N: the bottom and the plate)
// changes. So one flip removes at most one gap, h(s) <= 1 + h(t) for every move s -> t, and
// h(target) = 0 makes h(s) a lower bound on the flips from s to the target.
//
// That one changed pair makes estimate_move a constant-time update, which IDA* (through
// children_within) asks before it flips, so most flips are never made.
#pragma once

#include <algorithm>
#include <array>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/declared_options.hpp"
#include "core/heuristic.hpp"
#include "core/search_options.hpp"
#include "puzzles/pancake_stack.hpp"

namespace searchbench {

class PancakeGap {
 public:
  static constexpr std::string_view kName = "gap";
  static constexpr std::string_view kSummary =
      "adjacent pancakes that are not neighbours in the target (the plate counts): Helmert's gap heuristic";
  static constexpr bool kConsistent = true;
  using Options = NoOptions;
  using State = PancakeState;

  static std::string fits(const PancakeStack&) { return {}; }

  PancakeGap(const PancakeStack& puzzle, const State& target, const Options&, const SearchOptions&) : stack_(puzzle), n_(puzzle.cells()) {
    for (int i = 0; i < n_; ++i) {
      label_[target.cells[i]] = static_cast<std::uint8_t>(i);
      pancake_[i] = target.cells[i];
      sorted_target_ = sorted_target_ && target.cells[i] == i;
    }
  }

  int estimate(const State& s) const {
    int gaps = 0;
    for (int i = 0; i + 1 < n_; ++i) gaps += is_gap(label(s.cells[i]), label(s.cells[i + 1]));
    return gaps + is_gap(label(s.cells[n_ - 1]), n_);
  }

  // Flip m reverses the top k = m + 2 pancakes: only the pair at positions k-1, k changes,
  // from (parent[k-1], below) to (parent[0], below).
  // Every flip applies, so the engines ask before they flip.
  int estimate_move(const State& parent, int parent_h, int move) const {
    const int k = move + 2;
    const int below = k < n_ ? label(parent.cells[k]) : n_;
    return parent_h - is_gap(label(parent.cells[k - 1]), below) + is_gap(label(parent.cells[0]), below);
  }
  int estimate_after(const State& parent, int parent_h, int move, const State&) const {
    return estimate_move(parent, parent_h, move);
  }

  // IDA* at a node with no room to spare (room = h - 1) needs only the flips that close a
  // gap: flipping the top k closes one exactly when the pancake at k is a target neighbour of
  // the top one and the pair at k-1, k was a gap, so at most two flips, found from where
  // the top's two neighbours lie. Every other flip keeps h or raises it: the floor of those
  // not looked at is h. With more room every flip is looked at.
  template <class Visit>
  ChildScan children_within(const State& s, int h, int room, Visit&& visit) const {
    if (room >= h) {
      for (int m = 0; m + 1 < n_; ++m)
        if (visit(m, estimate_move(s, h, m))) return {true, INT_MAX};
      return {};
    }
    if (room < h - 1) return {false, h - 1};  // no flip closes more than one gap
    const int top = label(s.cells[0]);
    int closing[2], count = 0;
    for (const int neighbour : {top - 1, top + 1}) {
      if (neighbour < 0) continue;
      const int k = neighbour == n_ ? n_ : stack_.position_of(s, pancake(neighbour));
      if (k >= 2 && is_gap(label(s.cells[k - 1]), neighbour)) closing[count++] = k - 2;
    }
    if (count == 2 && closing[0] > closing[1]) std::swap(closing[0], closing[1]);
    for (int i = 0; i < count; ++i)
      if (visit(closing[i], h - 1)) return {true, INT_MAX};
    return {false, h};
  }

  std::uint64_t bytes() const { return sizeof(label_) + sizeof(pancake_); }

 private:
  static int is_gap(int a, int b) { return std::abs(a - b) != 1; }
  // Against the sorted stack (the usual target) a size is its own label: no table on the
  // path from one node's top pancake to the next node's.
  int label(int size) const { return sorted_target_ ? size : label_[size]; }
  int pancake(int label) const { return sorted_target_ ? label : pancake_[label]; }

  PancakeStack stack_;
  int n_;
  std::array<std::uint8_t, PancakeState::kCapacity> label_{};    // size-1 -> its position in the target
  std::array<std::uint8_t, PancakeState::kCapacity> pancake_{};  // position in the target -> size-1
  bool sorted_target_ = true;                                      // the target is 1..N from the top
};

}  // namespace searchbench
