// Pocket cube encoder `bitpack`, kept for contrast with `coordinate`: each of the seven
// moving positions packs its corner (3 bits) and twist (2 bits) into 5 bits of a 35-bit
// key. Only shifts and masks, but 2^35 keys for 3,674,160 states: hashed.
#pragma once

#include <string>
#include <string_view>

#include "core/concepts.hpp"
#include "puzzles/pocket_cube.hpp"

namespace searchbench {

class CubeBitpack {
 public:
  static constexpr std::string_view kName = "bitpack";
  static constexpr EncoderCapabilities kCapabilities{};
  static constexpr int kBits = 5;
  static std::string fits(const PocketCube&) { return {}; }
  explicit CubeBitpack(const PocketCube&) {}

  Key encode(const PocketCubeState& s) const {
    Key k = 0;
    for (int i = PocketCube::kMoving - 1; i >= 0; --i) k = (k << kBits) | (Key{s.twist[i]} << 3) | s.corner[i];
    return k;
  }
  PocketCubeState decode(Key k) const {
    PocketCubeState s;
    for (int i = 0; i < PocketCube::kMoving; ++i, k >>= kBits) {
      s.corner[i] = static_cast<std::uint8_t>(k & 7u);
      s.twist[i] = static_cast<std::uint8_t>((k >> 3) & 3u);
    }
    s.corner[PocketCube::kMoving] = PocketCube::kMoving;
    return s;
  }
  Key key_bound() const { return Key{1} << (kBits * PocketCube::kMoving); }
  bool dense() const { return key_bound() <= kDenseKeyLimit; }
};

}  // namespace searchbench
