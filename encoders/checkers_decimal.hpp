// Checkers encoder `decimal`: the cells as base-3 digits (hole 0, '#' 1, '@' 2) of one
// integer, cell 0 least significant. The textbook "number the board" idea: 3^N keys of
// which C(N-1,k)*N are used, so the visited set is hashed. 3^32 < 2^64: fits every N.
#pragma once

#include <string>

#include "core/concepts.hpp"
#include "puzzles/checkers_line.hpp"

namespace searchbench {

class CheckersDecimal {
 public:
  static constexpr std::string_view kName = "decimal";
  static constexpr EncoderCapabilities kCapabilities{};
  static std::string fits(const CheckersLine&) { return {}; }
  explicit CheckersDecimal(const CheckersLine& p) : n_(p.cells()) {
    bound_ = 1;
    for (int i = 0; i < n_; ++i) bound_ *= 3;
  }
  Key encode(const CheckersState& s) const {
    Key k = 0;
    for (int i = n_ - 1; i >= 0; --i) k = k * 3 + s.at(i);
    return k;
  }
  CheckersState decode(Key k) const {
    CheckersState s;
    for (int i = 0; i < n_; ++i) {
      const Key digit = k % 3;
      k /= 3;
      s.cells |= digit << (2 * i);
      if (digit == CheckersLine::kHole) s.hole = static_cast<std::uint8_t>(i);
    }
    return s;
  }
  Key key_bound() const { return bound_; }
  bool dense() const { return false; }

 private:
  int n_;
  Key bound_;
};

}  // namespace searchbench
