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
// That one changed pair makes estimate_after a constant-time update, which IDA* calls on
// every node it generates.
#pragma once

#include <array>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/declared_options.hpp"
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

  PancakeGap(const PancakeStack& puzzle, const State& target, const Options&, const SearchOptions&) : n_(puzzle.cells()) {
    for (int i = 0; i < n_; ++i) label_[target.cells[i]] = static_cast<std::uint8_t>(i);
  }

  int estimate(const State& s) const {
    int gaps = 0;
    for (int i = 0; i + 1 < n_; ++i) gaps += is_gap(label_[s.cells[i]], label_[s.cells[i + 1]]);
    return gaps + is_gap(label_[s.cells[n_ - 1]], n_);
  }

  // Flip m reverses the top k = m + 2 pancakes: only the pair at positions k-1, k changes,
  // from (parent[k-1], below) to (parent[0], below).
  int estimate_after(const State& parent, int parent_h, int move, const State&) const {
    const int k = move + 2;
    const int below = k < n_ ? label_[parent.cells[k]] : n_;
    return parent_h - is_gap(label_[parent.cells[k - 1]], below) + is_gap(label_[parent.cells[0]], below);
  }

  std::uint64_t bytes() const { return sizeof(label_); }

 private:
  static int is_gap(int a, int b) { return std::abs(a - b) != 1; }

  int n_;
  std::array<std::uint8_t, PancakeState::kCapacity> label_{};  // size-1 -> its position in the target
};

}  // namespace searchbench
