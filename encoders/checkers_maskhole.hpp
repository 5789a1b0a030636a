// Checkers encoder `maskhole` (the classic FZU 1603 solution): take the hole out, write
// one bit per remaining piece ('@' = 1), and add hole * 2^(N-1): a direct table of
// 2^(N-1) * N keys. Only a direct table makes sense for it, so it fits N <= 29
// (2^28 * 29 keys) and refuses longer lines.
#pragma once

#include <string>

#include "core/concepts.hpp"
#include "puzzles/checkers_line.hpp"

namespace searchbench {

class CheckersMaskHole {
 public:
  static constexpr std::string_view kName = "maskhole";
  static constexpr EncoderCapabilities kCapabilities{};
  static std::string fits(const CheckersLine& p) {
    if (bound_for(p.cells()) > kDenseKeyLimit)
      return "maskhole's direct table of 2^(N-1)*N keys fits N <= 29 (got N=" + std::to_string(p.cells()) + ")";
    return {};
  }
  explicit CheckersMaskHole(const CheckersLine& p) : n_(p.cells()), bound_(bound_for(p.cells())) {
    if (auto why = fits(p); !why.empty()) throw InputError(why);
  }
  Key encode(const CheckersState& s) const {
    Key mask = 0;
    for (int i = n_ - 1; i >= 0; --i) {
      if (i == s.hole) continue;
      mask = (mask << 1) | (s.at(i) == CheckersLine::kAt);
    }
    return (Key{s.hole} << (n_ - 1)) | mask;
  }
  CheckersState decode(Key k) const {
    CheckersState s;
    s.hole = static_cast<std::uint8_t>(k >> (n_ - 1));
    Key mask = k;
    for (int i = 0; i < n_; ++i) {
      if (i == s.hole) continue;
      const Key piece = (mask & 1) ? CheckersLine::kAt : CheckersLine::kHash;
      s.cells |= piece << (2 * i);
      mask >>= 1;
    }
    return s;
  }
  Key key_bound() const { return bound_; }
  bool dense() const { return true; }

 private:
  static Key bound_for(int n) { return (Key{1} << (n - 1)) * static_cast<Key>(n); }
  int n_;
  Key bound_;
};

}  // namespace searchbench
