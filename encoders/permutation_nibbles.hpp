// Encoder `nibbles` for puzzles whose state is a permutation of 0..n-1 held in `cells`
// (sliding tiles, pancakes), kept for contrast with `cantor`: cell i's value in bits
// 4i..4i+3, so n <= 16 cells. Nothing is computed but shifts, and the key space is 16^n:
// a direct table only while that stays small (2^24 keys, n <= 6: tiles-2x3, pancake-6),
// hashed beyond, where a table of 16^n entries would dwarf the n! states it holds.
#pragma once

#include <limits>
#include <string>
#include <string_view>

#include "core/concepts.hpp"
#include "core/errors.hpp"

namespace searchbench {

template <class P>
class PermutationNibbles {
 public:
  using State = typename P::State;
  static constexpr std::string_view kName = "nibbles";
  static constexpr EncoderCapabilities kCapabilities{};
  static constexpr int kMaxCells = 16;
  static constexpr Key kDirectLimit = Key{1} << 24;

  static std::string fits(const P& p) {
    if (p.cells() <= kMaxCells) return {};
    return "4 bits per cell hold at most 16 cells in a 64-bit key (this puzzle has " + std::to_string(p.cells()) + ")";
  }
  explicit PermutationNibbles(const P& p) : n_(p.cells()) {
    if (auto why = fits(p); !why.empty()) throw InputError("encoder 'nibbles' does not fit " + p.name() + ": " + why);
    bound_ = n_ * 4 >= 64 ? std::numeric_limits<Key>::max() : Key{1} << (4 * n_);
  }

  Key encode(const State& s) const {
    Key k = 0;
    for (int i = n_ - 1; i >= 0; --i) k = (k << 4) | s.cells[i];
    return k;
  }
  State decode(Key k) const {
    State s;
    for (int i = 0; i < n_; ++i, k >>= 4) s.cells[i] = static_cast<std::uint8_t>(k & 15u);
    return s;
  }
  Key key_bound() const { return bound_; }
  bool dense() const { return bound_ <= kDirectLimit; }

 private:
  int n_;
  Key bound_;
};

}  // namespace searchbench
