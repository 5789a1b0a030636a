// Magic board encoder `decimal`: the cells in row order read as a base-10 number
// (start of msquare 2x4 = 12348765). The classic first idea: keys are sparse (8! states
// spread over 10^8 numbers), so the visited set must be a hash set. Needs one decimal
// digit per cell, hence 2K <= 9: K = 2, 3, 4.
#pragma once

#include <string>

#include "core/concepts.hpp"
#include "puzzles/magic_board.hpp"

namespace searchbench {

class MagicDecimal {
 public:
  static constexpr std::string_view kName = "decimal";
  static constexpr EncoderCapabilities kCapabilities{};
  static std::string fits(const MagicBoard& p) {
    if (p.cells() > 9) return "decimal needs one decimal digit per cell, so 2K <= 9 (K <= 4)";
    return {};
  }
  explicit MagicDecimal(const MagicBoard& p) : n_(p.cells()) {
    if (auto why = fits(p); !why.empty()) throw InputError(why);
    bound_ = 1;
    for (int i = 0; i < n_; ++i) bound_ *= 10;
  }
  Key encode(const MagicState& s) const {
    Key k = 0;
    for (int i = 0; i < n_; ++i) k = k * 10 + s.cells[i];
    return k;
  }
  MagicState decode(Key k) const {
    MagicState s;
    for (int i = n_ - 1; i >= 0; --i) {
      s.cells[i] = static_cast<std::uint8_t>(k % 10);
      k /= 10;
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
