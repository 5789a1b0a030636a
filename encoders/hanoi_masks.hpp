// Hanoi encoder `masks`: the first three pegs' disc masks side by side, 16 bits each (the
// fourth peg holds the discs left over). The simple encoding one writes first: no
// arithmetic at all, but 2^48 keys for 4^N placements, so the visited set is hashed.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/concepts.hpp"
#include "puzzles/hanoi4.hpp"

namespace searchbench {

class HanoiMasks {
 public:
  static constexpr std::string_view kName = "masks";
  static constexpr EncoderCapabilities kCapabilities{};
  static std::string fits(const Hanoi4&) { return {}; }

  explicit HanoiMasks(const Hanoi4& p) : all_(p.all_discs()) {}

  Key encode(const Hanoi4State& s) const { return Key{s.pegs[0]} | Key{s.pegs[1]} << 16 | Key{s.pegs[2]} << 32; }
  Hanoi4State decode(Key k) const {
    Hanoi4State s;
    for (std::size_t p = 0; p < 3; ++p) s.pegs[p] = static_cast<std::uint16_t>(k >> (16 * p));
    s.pegs[3] = static_cast<std::uint16_t>(all_ & ~(s.pegs[0] | s.pegs[1] | s.pegs[2]));
    return s;
  }
  Key key_bound() const { return Key{1} << 48; }
  bool dense() const { return false; }

 private:
  std::uint16_t all_;
};

}  // namespace searchbench
