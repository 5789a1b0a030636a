// Magic board encoder `cantor`: the permutation's lexicographic rank (Cantor expansion,
// Lehmer code): a perfect table of (2K)! keys, 40,320 for 2x4 and 479,001,600 for 2x6;
// 16! < 2^45 still fits a key for 2x8 (hashed past 2^33 keys).
//
// rank = sum_i  smaller_unused(v_i) * (n-1-i)!, where smaller_unused counts the values
// below v_i not used by earlier cells: one popcount over a bitmask of used values.
// Unranking picks the d-th unused value: one pdep where BMI2 is available.
#pragma once

#include <array>
#include <bit>

#include "core/concepts.hpp"
#include "puzzles/magic_board.hpp"
#if defined(__BMI2__)
#include <immintrin.h>
#endif

namespace searchbench {

class MagicCantor {
 public:
  static constexpr std::string_view kName = "cantor";
  static std::string fits(const MagicBoard&) { return {}; }
  explicit MagicCantor(const MagicBoard& p) : n_(p.cells()) {
    factorial_[0] = 1;
    for (int i = 1; i <= 16; ++i) factorial_[i] = factorial_[i - 1] * static_cast<Key>(i);
  }
  Key encode(const MagicState& s) const {
    Key rank = 0;
    std::uint32_t used = 0;  // bit v set when value v appeared
    for (int i = 0; i < n_; ++i) {
      const unsigned v = s.cells[i];
      const unsigned smaller_unused = v - 1 - std::popcount(used & ((1u << v) - 1));
      rank += smaller_unused * factorial_[n_ - 1 - i];
      used |= 1u << v;
    }
    return rank;
  }
  MagicState decode(Key rank) const {
    MagicState s;
    std::uint32_t unused = ((1u << n_) - 1) << 1;  // values 1..n
    for (int i = 0; i < n_; ++i) {
      const Key f = factorial_[n_ - 1 - i];
      const unsigned d = static_cast<unsigned>(rank / f);
      rank -= d * f;
      const unsigned v = nth_set_bit(unused, d);
      s.cells[i] = static_cast<std::uint8_t>(v);
      unused &= ~(1u << v);
    }
    return s;
  }
  Key key_bound() const { return factorial_[n_]; }
  bool dense() const { return key_bound() <= kDenseKeyLimit; }

 private:
  static unsigned nth_set_bit(std::uint32_t mask, unsigned d) {
#if defined(__BMI2__)
    return static_cast<unsigned>(std::countr_zero(_pdep_u32(1u << d, mask)));
#else
    for (unsigned i = 0; i < d; ++i) mask &= mask - 1;
    return static_cast<unsigned>(std::countr_zero(mask));
#endif
  }

  int n_;
  std::array<Key, 17> factorial_{};
};

}  // namespace searchbench
