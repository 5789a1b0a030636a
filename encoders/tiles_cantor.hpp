// Sliding-tile encoder `cantor`: a perfect rank of the reachable boards, (RC)!/2 keys
// (181,440 for the 8-puzzle, 239,500,800 for 2x6 and 3x4), every one a board.
//
// The board is read as the positions of the values 0 (the blank), 1, 2, ..., RC-1: the
// inverse permutation. Its first RC-2 entries are ranked lexicographically among all such
// prefixes (core/permutation_rank.hpp); the last two are the cells of the two highest
// tiles, and swapping two tiles with the blank left in place flips the board's invariant
// parity (puzzles/sliding_tiles.hpp), so exactly one of the two orders is reachable and
// decoding picks it. (Ranking the cells in board order instead would fail: when the blank
// is one of the last two cells, both orders are reachable.)
// Perfect: the parallel engine's two-bit and bottom-up levels and the edge-list export
// apply. Past 2^33 keys (4x4) the key space is hashed; past 20 cells no 64-bit key holds it.
#pragma once

#include <array>
#include <bit>
#include <string>
#include <string_view>

#include "core/concepts.hpp"
#include "core/permutation_rank.hpp"
#include "puzzles/sliding_tiles.hpp"

namespace searchbench {

class TilesCantor {
 public:
  static constexpr std::string_view kName = "cantor";
  static constexpr EncoderCapabilities kCapabilities{.every_key_is_state = true};  // a perfect rank of the reachable half
  static std::string fits(const SlidingTiles& p) {
    if (PartialPermutationRank::fits(p.cells(), p.cells() - 2)) return {};
    return "(RC)!/2 boards need more than a 64-bit key past 20 cells (this board has " + std::to_string(p.cells()) + ")";
  }

  explicit TilesCantor(const SlidingTiles& p) : puzzle_(p), n_(p.cells()), rank_(p.cells(), p.cells() - 2) {}

  Key encode(const TilesState& s) const {
    std::array<std::uint8_t, SlidingTiles::kMaxCells> where;
    for (int i = 0; i < n_; ++i) where[s.cells[i]] = static_cast<std::uint8_t>(i);
    return rank_.rank(where.data());
  }
  TilesState decode(Key k) const {
    std::array<std::uint8_t, SlidingTiles::kMaxCells> where{};  // unrank fills n-2 of them
    const std::uint32_t free = rank_.unrank(k, where.data());
    TilesState s;
    for (int v = 0; v < n_ - 2; ++v) s.cells[where[v]] = static_cast<std::uint8_t>(v);
    const int first = std::countr_zero(free), second = std::countr_zero(free & (free - 1));
    s.cells[first] = static_cast<std::uint8_t>(n_ - 2);
    s.cells[second] = static_cast<std::uint8_t>(n_ - 1);
    if (!puzzle_.reachable(s)) std::swap(s.cells[first], s.cells[second]);
    return s;
  }
  Key key_bound() const { return rank_.count(); }
  bool dense() const { return key_bound() <= kDenseKeyLimit; }

 private:
  SlidingTiles puzzle_;  // a small value: its sizes, move table and goal parity
  int n_;
  PartialPermutationRank rank_;
};

}  // namespace searchbench
