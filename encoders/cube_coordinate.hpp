// Pocket cube encoder `coordinate`: Kociemba's two coordinates combined into one perfect
// key. The corners at the seven moving positions form a permutation of 0..6, ranked
// lexicographically (core/permutation_rank.hpp, the first six decide the seventh); the
// first six twists are a number in base 3 (the seventh makes the sum 0 mod 3).
// key = permutation rank * 3^6 + twists: 7! * 3^6 = 3,674,160 keys, every one a state, so
// the parallel engine's two-bit and bottom-up levels and the edge-list export apply.
#pragma once

#include <bit>
#include <string>
#include <string_view>

#include "core/concepts.hpp"
#include "core/permutation_rank.hpp"
#include "puzzles/pocket_cube.hpp"

namespace searchbench {

class CubeCoordinate {
 public:
  static constexpr std::string_view kName = "coordinate";
  static constexpr bool kEveryKeyIsState = true;  // a perfect rank
  static constexpr Key kTwists = 729;             // 3^6
  static std::string fits(const PocketCube&) { return {}; }
  explicit CubeCoordinate(const PocketCube&) : rank_(PocketCube::kMoving, PocketCube::kMoving - 1) {}

  Key encode(const PocketCubeState& s) const {
    Key twists = 0;
    for (int i = 0; i < PocketCube::kMoving - 1; ++i) twists = twists * 3 + s.twist[i];
    return rank_.rank(s.corner.data()) * kTwists + twists;
  }
  PocketCubeState decode(Key k) const {
    PocketCubeState s;
    Key twists = k % kTwists;
    const std::uint32_t left = rank_.unrank(k / kTwists, s.corner.data());
    s.corner[PocketCube::kMoving - 1] = static_cast<std::uint8_t>(std::countr_zero(left));
    unsigned sum = 0;
    for (int i = PocketCube::kMoving - 2; i >= 0; --i, twists /= 3) {
      s.twist[i] = static_cast<std::uint8_t>(twists % 3);
      sum += s.twist[i];
    }
    s.twist[PocketCube::kMoving - 1] = static_cast<std::uint8_t>((3 - sum % 3) % 3);
    s.corner[PocketCube::kMoving] = PocketCube::kMoving;
    return s;
  }
  Key key_bound() const { return rank_.count() * kTwists; }
  bool dense() const { return true; }

 private:
  PartialPermutationRank rank_;
};

}  // namespace searchbench
