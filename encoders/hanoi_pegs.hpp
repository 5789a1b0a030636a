// Hanoi encoder `pegs`: two bits per disc naming its peg, disc 1 in the lowest bits, so the
// key of a placement is its index among all 4^N (perfect: every key is a placement, and
// the two-bit, bottom-up, out-of-core and export paths apply). The four peg masks are
// spread to even bit positions and interleaved, one shift-and-mask cascade each way.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/concepts.hpp"
#include "puzzles/hanoi4.hpp"

namespace searchbench {

class HanoiPegs {
 public:
  static constexpr std::string_view kName = "pegs";
  static constexpr EncoderCapabilities kCapabilities{.every_key_is_state = true};
  static std::string fits(const Hanoi4&) { return {}; }

  explicit HanoiPegs(const Hanoi4& p) : n_(p.discs()), all_(p.all_discs()) {}

  // Bit d of the low bit plane: the disc's peg is 2 or 4; of the high plane: 3 or 4.
  Key encode(const Hanoi4State& s) const {
    const std::uint32_t low = s.pegs[1] | s.pegs[3], high = s.pegs[2] | s.pegs[3];
    return spread(low) | spread(high) << 1;
  }
  Hanoi4State decode(Key k) const {
    const auto low = static_cast<std::uint16_t>(gather(k)), high = static_cast<std::uint16_t>(gather(k >> 1));
    Hanoi4State s;
    s.pegs[0] = static_cast<std::uint16_t>(all_ & ~low & ~high);
    s.pegs[1] = static_cast<std::uint16_t>(low & ~high);
    s.pegs[2] = static_cast<std::uint16_t>(high & ~low);
    s.pegs[3] = static_cast<std::uint16_t>(low & high);
    return s;
  }
  Key key_bound() const { return Key{1} << (2 * n_); }
  bool dense() const { return key_bound() <= kDenseKeyLimit; }

 private:
  // Bit i of x to bit 2i (16 bits to the even bits of 32).
  static Key spread(std::uint32_t x) {
    x = (x | x << 8) & 0x00FF00FFu;
    x = (x | x << 4) & 0x0F0F0F0Fu;
    x = (x | x << 2) & 0x33333333u;
    x = (x | x << 1) & 0x55555555u;
    return x;
  }
  // The inverse: the even bits of k's low 32 bits, packed.
  static std::uint32_t gather(Key k) {
    auto x = static_cast<std::uint32_t>(k) & 0x55555555u;
    x = (x | x >> 1) & 0x33333333u;
    x = (x | x >> 2) & 0x0F0F0F0Fu;
    x = (x | x >> 4) & 0x00FF00FFu;
    x = (x | x >> 8) & 0x0000FFFFu;
    return x;
  }
  int n_;
  std::uint16_t all_;
};

}  // namespace searchbench
