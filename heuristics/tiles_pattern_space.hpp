// The abstraction behind the tiles `pdb` heuristic (Korf & Felner's disjoint pattern
// databases): of a sliding-tile board only the cells of the pattern's k tiles are kept, the
// other tiles and the blank become indistinguishable free cells, and of the blank only the
// region of free cells it can reach without moving a pattern tile.
//
// A move slides a pattern tile into an adjacent free cell of the blank's region; the blank
// then sits where the tile was, so the new region is the free area around that cell. Every
// such move costs 1, and the moves of non-pattern tiles, which cost 0 for this pattern, are
// absorbed by the region (inside it they only move the blank around). A plain unit-cost BFS
// therefore computes exactly "pattern-tile moves only" distances, and every real move of a
// pattern tile is one abstract move, so those distances are lower bounds on the pattern-tile
// moves of any real solution.
//
// A tile that moves back undoes a move (the cell it left is in the blank's new region), so
// every move has a one-move inverse: the tile moving the opposite way.
//
// Keys (TilesPatternRank): the placement, ranked as a partial permutation of the cells
// (core/permutation_rank.hpp), times the n-k free cells, plus which free cell is the
// region's smallest (its index among the free cells: a popcount). Dense, not perfect: most
// placements have a single region.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/concepts.hpp"
#include "core/errors.hpp"
#include "core/permutation_rank.hpp"
#include "heuristics/pdb_options.hpp"
#include "puzzles/sliding_tiles.hpp"

namespace searchbench {

struct TilesPatternState {
  std::array<std::uint8_t, SlidingTiles::kMaxCells> cell{};  // the cell of the pattern's i-th tile (i < k)
  std::uint32_t occupied = 0;           // the cells of the pattern's tiles
  std::uint32_t region = 0;             // the free cells the blank can reach
  friend bool operator==(const TilesPatternState&, const TilesPatternState&) = default;
};

class TilesPatternSpace {
 public:
  using State = TilesPatternState;

  // `tiles`: the pattern's tile numbers, in the order the placement is ranked.
  TilesPatternSpace(const SlidingTiles& board, const std::vector<int>& tiles, const TilesState& target)
      : board_name_(board.name()), cols_(board.columns()), n_(board.cells()), k_(static_cast<int>(tiles.size())) {
    if (k_ < 1 || k_ >= n_) throw InputError("a tiles pattern holds 1 to " + std::to_string(n_ - 1) + " tiles");
    board_mask_ = (1u << n_) - 1;
    for (int c = 0; c < n_; ++c) {
      const int r = c / cols_, col = c % cols_;
      if (col + 1 < cols_) not_last_column_ |= 1u << c;
      if (col > 0) not_first_column_ |= 1u << c;
      step_[0][c] = static_cast<std::int8_t>(r + 1 < board.rows() ? c + cols_ : -1);  // D
      step_[1][c] = static_cast<std::int8_t>(col > 0 ? c - 1 : -1);                   // L
      step_[2][c] = static_cast<std::int8_t>(col + 1 < cols_ ? c + 1 : -1);           // R
      step_[3][c] = static_cast<std::int8_t>(r > 0 ? c - cols_ : -1);                 // U
    }
    int blank = 0;
    for (int c = 0; c < n_; ++c) {
      if (target.cells[c] == SlidingTiles::kBlank) blank = c;
      for (int i = 0; i < k_; ++i)
        if (target.cells[c] == tiles[i]) {
          goal_.cell[i] = static_cast<std::uint8_t>(c);
          goal_.occupied |= 1u << c;
        }
    }
    goal_.region = region_of(1u << blank, board_mask_ & ~goal_.occupied);
    text_ = pattern_text(tiles);
  }

  int cells() const { return n_; }
  int tiles() const { return k_; }
  // The region of free cells around `seed`: grown one step in the four directions until it
  // stops (at most n rounds of a few bit operations).
  std::uint32_t region_of(std::uint32_t seed, std::uint32_t free) const {
    std::uint32_t r = seed & free, grown = r;
    do {
      r = grown;
      grown = (r | ((r & not_last_column_) << 1) | ((r & not_first_column_) >> 1) | (r << cols_) | (r >> cols_)) & free;
    } while (grown != r);
    return r;
  }
  std::uint32_t free_cells(const State& s) const { return board_mask_ & ~s.occupied; }

  std::string name() const { return board_name_ + " pattern " + text_; }
  State start() const { return goal_; }  // the target's abstraction
  int move_count() const { return 4 * k_; }
  // Tile m/4 slides one cell in direction m%4 (D L R U: the tile's direction, not the blank's).
  char move_name(int m) const { return "DLRU"[m & 3]; }
  bool apply(const State& s, int m, State& out) const {
    const int i = m >> 2, from = s.cell[i], to = step_[m & 3][from];
    if (to < 0 || !((s.region >> to) & 1u)) return false;
    out = s;
    out.cell[i] = static_cast<std::uint8_t>(to);
    out.occupied = s.occupied ^ (1u << from) ^ (1u << to);
    out.region = region_of(1u << from, free_cells(out));
    return true;
  }
  bool apply_inverse(const State& s, int m, State& out) const { return apply(s, inverse_move(m), out); }
  int inverse_move(int m) const { return (m & ~3) | (3 - (m & 3)); }  // D <-> U, L <-> R
  int move_order(int) const { return 0; }
  std::uint64_t component_size(const State&) const { return PartialPermutationRank(n_, k_).count() * (n_ - k_); }
  bool same_component(const State&, const State&) const { return true; }
  State parse(std::string_view) const { throw InputError("abstract tiles states are not read from text"); }
  std::string format(const State& s) const {
    std::string out = "tiles " + text_ + " at";
    for (int i = 0; i < k_; ++i) out += " " + std::to_string(s.cell[i]);
    return out + ", blank region from " + std::to_string(std::countr_zero(s.region));
  }

 private:
  std::string board_name_, text_;
  int cols_, n_, k_;
  std::uint32_t board_mask_ = 0, not_last_column_ = 0, not_first_column_ = 0;
  std::array<std::array<std::int8_t, SlidingTiles::kMaxCells>, 4> step_{};
  State goal_;
};

class TilesPatternRank {
 public:
  static constexpr std::string_view kName = "placement-region";
  static constexpr EncoderCapabilities kCapabilities{};
  static std::string fits(const TilesPatternSpace&) { return {}; }
  explicit TilesPatternRank(const TilesPatternSpace& space)
      : space_(space), free_(space.cells() - space.tiles()), rank_(space.cells(), space.tiles()) {}

  // The rank of a placement alone (what the table is indexed by).
  Key placement(const std::uint8_t* cells) const { return rank_.rank(cells); }
  Key placements() const { return rank_.count(); }
  Key regions_per_placement() const { return static_cast<Key>(free_); }

  Key encode(const TilesPatternState& s) const {
    const std::uint32_t free = space_.free_cells(s), smallest = s.region & (~s.region + 1);
    return rank_.rank(s.cell.data()) * free_ + static_cast<Key>(std::popcount(free & (smallest - 1)));
  }
  TilesPatternState decode(Key k) const {
    TilesPatternState s;
    const Key placement = k / static_cast<Key>(free_);
    const std::uint32_t free = rank_.unrank(placement, s.cell.data());
    s.occupied = ((1u << space_.cells()) - 1) & ~free;
    s.region = space_.region_of(1u << nth_set_bit(free, static_cast<unsigned>(k - placement * free_)), free);
    return s;
  }
  Key key_bound() const { return rank_.count() * free_; }
  bool dense() const { return key_bound() <= kDenseKeyLimit; }

 private:
  const TilesPatternSpace& space_;
  int free_;
  PartialPermutationRank rank_;
};

}  // namespace searchbench
