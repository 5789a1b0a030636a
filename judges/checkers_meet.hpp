// fzu1603's default route: the fewest moves between two boards of a checkers line, by a
// breadth-first search from both boards that meets in the middle, over bit positions
// (judges/checkers_bit_levels.hpp: the classic bit-packed key with the last piece left out).
//
// * Each side keeps a bitset of the boards it has reached, and its frontier. A small frontier
//   is a list of positions, expanded board by board without branches: a successor is
//   appended and the list's end moves on only when its bit was clear (about half of them are
//   old, so a branch there is mispredicted every other time). A frontier past 1/1024 of the
//   bitset (2,400 boards at N = 19) becomes a bitset, and a level moves all of it at once
//   (CheckersBitLevels::expand): at that size a level costs less as words than as a list,
//   and the middle levels of a far pair hold tens of thousands of boards.
// * Each round grows the smaller frontier by one level. While the two reached sets are
//   disjoint every path is longer than the two radii together, so the first board one side
//   reaches that the other holds closes a shortest path. Only a board new to a side can be
//   the other's, and only one in the other side's last level (one reached earlier would have
//   met a round before): a list is checked once per new board after its level, and a side
//   that went over to bitsets offers its last level to be met, not everything it reached.
//   Its next level is what its last one reaches outside itself and the level before (a move
//   can be undone, so no older board is one move away); its first one moves everything
//   reached instead (what the older boards reach is reached already), so that no frontier
//   bitset has to be built, and the reached set is never written again.
// * Memory is one mapping for the judge's whole input (huge pages: faulting in 4 KiB pages
//   cost more than the searches of a small input), laid out for the line length at hand:
//   the two reached sets, then two level bitsets per side. After a case the reached sets are
//   cleared through the lists (whole, where that is cheaper); level bitsets are always written
//   before they are read.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

#include "core/zeroed_pages.hpp"
#include "judges/checkers_bit_levels.hpp"

namespace searchbench {

class CheckersMeet {
 public:
  static constexpr int kMaxCells = 20;

  // Fewest moves between the classic keys `from` and `to` (encoders/checkers_maskhole.hpp)
  // of lines of `cells` cells (1..20) holding `ats` '@' each; -1 when the searches die out
  // apart.
  int distance(int cells, int ats, std::uint32_t from, std::uint32_t to) {
    if (from == to) return 0;
    prepare(cells, ats);
    start(sides_[0], from, reached_bits(0));
    start(sides_[1], to, reached_bits(1));
    int answer = -1;
    while (sides_[0].frontier > 0 && sides_[1].frontier > 0) {
      const int mine = sides_[0].frontier <= sides_[1].frontier ? 0 : 1;
      if (grow(mine)) {
        answer = sides_[0].radius + sides_[1].radius + 1;
        break;
      }
      ++sides_[mine].radius;
    }
    finish();
    return answer;
  }

 private:
  // A frontier of at least 1/kBitsetShare of the bitset's positions is kept as a bitset.
  static constexpr std::uint64_t kBitsetShare = 1024;

  struct Side {
    std::vector<std::uint32_t> keys;  // positions of every board reached while a list; the frontier last
    std::size_t used = 0, frontier_begin = 0;
    std::uint64_t frontier = 0;
    int radius = 0;
    std::uint64_t* level = nullptr;  // once over to bitsets: the last level, the one before
    std::uint64_t* previous = nullptr;
  };

  std::uint64_t* reached_bits(int side) const { return arena_ + static_cast<std::size_t>(side) * words_; }
  std::uint64_t* level_bits(int side, int which) const { return arena_ + (2 + 2 * static_cast<std::size_t>(side) + which) * words_; }
  // Where the other side's boards are met: its last level once it is a bitset.
  const std::uint64_t* met_bits(int side) const { return sides_[side].level ? sides_[side].level : reached_bits(side); }

  void prepare(int cells, int ats) {
    if (!arena_memory_) {
      arena_memory_ = ZeroedPages(6 * words_for(kMaxCells) * sizeof(std::uint64_t), true);
      if (!arena_memory_) throw std::bad_alloc();
      arena_ = reinterpret_cast<std::uint64_t*>(arena_memory_.data());
    }
    cells_ = cells;
    ats_ = ats;
    levels_.reset(cells, ats);
    words_ = levels_.words();
    bitset_from_ = cells >= CheckersBitLevels::kMinCells ? (static_cast<std::uint64_t>(cells) << (cells - 2)) / kBitsetShare : ~std::uint64_t{0};
    // The reached sets must start empty: clear what level bitsets of longer lines left there.
    const std::size_t reached_end = 2 * words_;
    if (dirty_begin_ < std::min(dirty_end_, reached_end)) {
      std::fill(arena_ + dirty_begin_, arena_ + std::min(dirty_end_, reached_end), std::uint64_t{0});
      dirty_begin_ = reached_end;
      if (dirty_begin_ >= dirty_end_) dirty_begin_ = ~std::size_t{0}, dirty_end_ = 0;
    }
  }
  static std::size_t words_for(int cells) {
    CheckersBitLevels levels;
    levels.reset(cells, 0);
    return levels.words();
  }
  void start(Side& side, std::uint32_t key, std::uint64_t* reached) {
    if (side.keys.empty()) side.keys.resize(4096);
    side.keys[0] = levels_.index(key);
    side.used = 1;
    side.frontier_begin = 0;
    side.frontier = 1;
    side.radius = 0;
    side.level = side.previous = nullptr;
    set(reached, side.keys[0]);
  }
  static void set(std::uint64_t* bits, std::uint32_t i) { bits[i >> 6] |= std::uint64_t{1} << (i & 63); }

  // One level on side `mine`; true when it met the other side.
  bool grow(int mine) {
    Side& side = sides_[mine];
    std::uint64_t* const reached = reached_bits(mine);
    if (!side.level && side.frontier < bitset_from_) return grow_list(side, reached, met_bits(1 - mine));
    // The first bitset level moves everything reached; later ones write over the level
    // before the last, which is read word by word just ahead of each write.
    std::uint64_t* const a = level_bits(mine, 0);
    std::uint64_t* const b = level_bits(mine, 1);
    const std::uint64_t* front = side.level ? side.level : reached;
    const std::uint64_t* before = side.previous ? side.previous : reached;
    std::uint64_t* out = side.previous && side.previous != reached ? side.previous : side.level == a ? b : a;
    const auto level = levels_.expand(front, before, met_bits(1 - mine), out);
    side.previous = side.level ? side.level : reached;
    side.level = out;
    side.frontier = level.count;
    return level.met;
  }

  // Keys in the list are bitset positions (CheckersBitLevels::index): a step adds or takes
  // one block, a jump also flips the two pieces it passes where they differ (the left-out
  // last piece is worked out from the count of '@').
  bool grow_list(Side& side, std::uint64_t* reached, const std::uint64_t* other) {
    if (side.keys.size() < side.used + 4 * side.frontier) side.keys.resize(2 * (side.used + 4 * side.frontier));
    std::uint32_t* keys = side.keys.data();
    const int cells = cells_, bits = levels_.index_bits();
    const std::uint32_t step = std::uint32_t{1} << bits, explicit_pieces = step - 1, ats = static_cast<std::uint32_t>(ats_);
    std::size_t end = side.used;
    for (std::size_t i = side.frontier_begin; i < side.used; ++i) {
      const std::uint32_t at = keys[i], low = at & explicit_pieces;
      const std::uint32_t pieces = low | ((ats - static_cast<std::uint32_t>(std::popcount(low))) << bits);
      const int hole = static_cast<int>(at >> bits);
      // Bit p of `differ`: pieces p and p+1 differ. A jump over them flips both (times 3).
      const std::uint32_t differ = pieces ^ (pieces >> 1), at_hole = std::uint32_t{1} << hole;
      const std::uint32_t left_flip = (differ & (at_hole >> 2)) * 3 & explicit_pieces;
      const std::uint32_t right_flip = (differ & at_hole) * 3 & explicit_pieces;
      // A move off the line leaves the board itself, which this side holds already.
      const std::uint32_t next[4] = {hole >= 2 ? (at - 2 * step) ^ left_flip : at, hole >= 1 ? at - step : at,
                                     hole + 1 < cells ? at + step : at, hole + 2 < cells ? (at + 2 * step) ^ right_flip : at};
      for (const std::uint32_t n : next) {
        const std::uint64_t bit = std::uint64_t{1} << (n & 63), word = reached[n >> 6];
        reached[n >> 6] = word | bit;
        keys[end] = n;
        end += (word & bit) == 0;
      }
    }
    // Only a new board can be the other side's (an old one would have met a round before):
    // one look per new board, after the level, rather than one per successor.
    std::uint64_t met = 0;
    for (std::size_t i = side.used; i < end; ++i) met |= other[keys[i] >> 6] >> (keys[i] & 63);
    side.frontier_begin = side.used;
    side.used = end;
    side.frontier = end - side.frontier_begin;
    return (met & 1) != 0;
  }

  // The reached sets hold only the boards listed (bitset levels never write them).
  void finish() {
    for (int s = 0; s < 2; ++s) {
      Side& side = sides_[s];
      std::uint64_t* reached = reached_bits(s);
      // Word by word where the list is short; whole where a store per board would cost more.
      const std::size_t used = side.used;
      const std::uint32_t* keys = side.keys.data();
      if (used * 8 > words_)
        std::fill_n(reached, words_, std::uint64_t{0});
      else
        for (std::size_t i = 0; i < used; ++i) reached[keys[i] >> 6] = 0;
      if (side.level) dirty_begin_ = std::min(dirty_begin_, 2 * words_), dirty_end_ = std::max(dirty_end_, 6 * words_);
    }
  }

  ZeroedPages arena_memory_;
  std::uint64_t* arena_ = nullptr;
  std::size_t dirty_begin_ = ~std::size_t{0}, dirty_end_ = 0;  // words of the arena level bitsets may have left set
  CheckersBitLevels levels_;
  int cells_ = 0, ats_ = 0;
  std::size_t words_ = 1;
  std::uint64_t bitset_from_ = 0;
  Side sides_[2];
};

}  // namespace searchbench
