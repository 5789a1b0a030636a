// Checkers encoder `bitpack`: 2 bits per cell, exactly the state's packed word. Encoding
// is free; the key space 4^N is dense (a direct table) only up to N = 16 and hashed beyond.
#pragma once

#include <bit>
#include <limits>
#include <string>

#include "core/concepts.hpp"
#include "puzzles/checkers_line.hpp"

namespace searchbench {

class CheckersBitpack {
 public:
  static constexpr std::string_view kName = "bitpack";
  static constexpr EncoderCapabilities kCapabilities{};
  static std::string fits(const CheckersLine&) { return {}; }
  explicit CheckersBitpack(const CheckersLine& p) : n_(p.cells()) {
    bound_ = 2 * n_ >= 64 ? std::numeric_limits<Key>::max() : Key{1} << (2 * n_);
  }
  Key encode(const CheckersState& s) const { return s.cells; }
  CheckersState decode(Key k) const {
    // The hole is the one 00 pair among the N cells.
    constexpr Key kLow = 0x5555555555555555ULL;
    const Key occupied = (k | (k >> 1)) & kLow;
    const Key empty = ~occupied & kLow & (n_ == 32 ? ~Key{0} : (Key{1} << (2 * n_)) - 1);
    return CheckersState{k, static_cast<std::uint8_t>(std::countr_zero(empty) / 2)};
  }
  Key key_bound() const { return bound_; }
  bool dense() const { return bound_ <= kDenseKeyLimit; }

 private:
  int n_;
  Key bound_;
};

}  // namespace searchbench
