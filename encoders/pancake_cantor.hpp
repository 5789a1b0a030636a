// Pancake encoder `cantor`: the stack's lexicographic rank among all N! stacks (Lehmer
// code, core/permutation_rank.hpp), 3,628,800 keys for 10 pancakes and 479,001,600 for
// 12. The first N-1 pancakes are ranked; the last is the size left over. Perfect: every
// key decodes to a stack, so the parallel engine's two-bit and bottom-up levels and the
// edge-list export apply. Past 2^33 keys (13 pancakes and more) the key space is hashed;
// past 20 pancakes N! exceeds 2^64 and no 64-bit key can tell the stacks apart. Up to 16
// pancakes a stack is ranked with byte compares side by side (SmallPermutationRank), the
// same rank as the one popcount per pancake of larger stacks.
#pragma once

#include <algorithm>
#include <bit>
#include <string>
#include <string_view>

#include "core/concepts.hpp"
#include "core/errors.hpp"
#include "core/permutation_rank.hpp"
#include "puzzles/pancake_stack.hpp"

namespace searchbench {

class PancakeCantor {
 public:
  static constexpr std::string_view kName = "cantor";
  static constexpr EncoderCapabilities kCapabilities{.every_key_is_state = true};  // a perfect rank
  static std::string fits(const PancakeStack& p) {
    if (p.cells() <= PartialPermutationRank::kMaxValues) return {};
    return "a 64-bit rank holds at most 20! stacks (this stack has " + std::to_string(p.cells()) + " pancakes)";
  }

  explicit PancakeCantor(const PancakeStack& p)
      : n_(p.cells()), rank_(checked(p).cells(), p.cells() - 1), small_rank_(std::min(n_, SmallPermutationRank::kMaxValues)) {}

  Key encode(const PancakeState& s) const {
    return n_ <= SmallPermutationRank::kMaxValues ? small_rank_.rank(s.cells.data()) : rank_.rank(s.cells.data());
  }
  PancakeState decode(Key k) const {
    PancakeState s;
    s.cells[n_ - 1] = static_cast<std::uint8_t>(std::countr_zero(rank_.unrank(k, s.cells.data())));
    return s;
  }
  Key key_bound() const { return rank_.count(); }
  bool dense() const { return key_bound() <= kDenseKeyLimit; }

 private:
  static const PancakeStack& checked(const PancakeStack& p) {
    if (auto why = fits(p); !why.empty()) throw InputError("encoder 'cantor' does not fit " + p.name() + ": " + why);
    return p;
  }

  int n_;
  PartialPermutationRank rank_;
  SmallPermutationRank small_rank_;
};

}  // namespace searchbench
