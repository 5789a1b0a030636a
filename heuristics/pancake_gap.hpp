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
#if defined(__AVX512BW__) && defined(__AVX512VBMI__)
#include <immintrin.h>
#endif

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
    in_stack_ = n_ == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n_) - 1;
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

  // The flips that close a gap, as a move set: flip k (move k-2) where the pancake at k is a
  // target neighbour of the top one (k = N: the top is the largest, the plate below it) and
  // the pair at k-1, k is a gap.
  std::uint64_t closing_flips(const State& s) const {
    const int top = label(s.cells[0]);
    // Move k-2 for the plate: the top is the largest pancake.
    const std::uint64_t onto_plate = top + 1 == n_ ? std::uint64_t{1} << (n_ - 2) : 0;
#if defined(__AVX512BW__) && defined(__AVX512VBMI__)
    // The whole stack at once, without a branch: its gaps and where the top's neighbours lie
    // are two masks over the positions.
    const __m512i stack = _mm512_loadu_si512(s.cells.data());
    const __m512i labels = sorted_target_ ? stack : _mm512_maskz_permutexvar_epi8(in_stack_, stack, _mm512_loadu_si512(label_.data()));
    // Byte i of `below` is the label under position i: the next one's, the plate's (N) under
    // the bottom pancake (positions 0..N-2 read their successor).
    const __m512i below = _mm512_mask_permutexvar_epi8(_mm512_set1_epi8(static_cast<char>(n_)), in_stack_ >> 1,
                                                       _mm512_loadu_si512(kNextPosition.data()), labels);
    const __m512i step = _mm512_sub_epi8(labels, below);
    const std::uint64_t gaps =
        ~(_mm512_cmpeq_epi8_mask(step, _mm512_set1_epi8(1)) | _mm512_cmpeq_epi8_mask(step, _mm512_set1_epi8(-1))) & in_stack_;
    const std::uint64_t beside = (_mm512_cmpeq_epi8_mask(labels, _mm512_set1_epi8(static_cast<char>(top - 1))) |
                                  _mm512_cmpeq_epi8_mask(labels, _mm512_set1_epi8(static_cast<char>(top + 1)))) &
                                 in_stack_;
    // Bit k of beside and bit k-1 of gaps make move k-2; k < 2 is no flip.
    return ((beside >> 2) | onto_plate) & (gaps >> 1);
#else
    std::uint64_t closing = onto_plate && is_gap(label(s.cells[n_ - 1]), n_) ? onto_plate : 0;
    for (const int neighbour : {top - 1, top + 1}) {
      if (neighbour < 0 || neighbour == n_) continue;
      const int k = stack_.position_of(s, pancake(neighbour));
      if (k >= 2 && is_gap(label(s.cells[k - 1]), neighbour)) closing |= std::uint64_t{1} << (k - 2);
    }
    return closing;
#endif
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
  std::uint64_t in_stack_ = 0;                                     // positions 0..N-1
  // Byte i: i + 1, the position below i (63 for the last byte, which no stack reads).
  static constexpr std::array<std::uint8_t, 64> kNextPosition = [] {
    std::array<std::uint8_t, 64> next{};
    for (int i = 0; i < 64; ++i) next[i] = static_cast<std::uint8_t>(i < 63 ? i + 1 : 63);
    return next;
  }();
};

}  // namespace searchbench
