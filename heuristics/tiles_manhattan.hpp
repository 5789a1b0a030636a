// Heuristic `manhattan` for sliding tiles: the sum over the tiles of their row and column
// distances to their cells in the target. Admissible and consistent: a move slides one tile
// by one cell, which changes its own distance by exactly one and no other tile's.
//
// Kept incrementally: after a move only the slid tile's term changes (estimate_after), so
// IDA* pays two table lookups per node instead of a sum over the board.
#pragma once

#include <array>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/heuristic_capabilities.hpp"
#include "core/declared_options.hpp"
#include "core/search_options.hpp"
#include "puzzles/sliding_tiles.hpp"

namespace searchbench {

// Where each tile sits in the target, and each tile's distance from every cell to there.
class TilesTargetCells {
 public:
  TilesTargetCells(const SlidingTiles& puzzle, const TilesState& target) : columns_(puzzle.columns()) {
    const int step[4] = {columns_, -1, 1, -columns_};  // D, L, R, U: where the blank goes
    for (int m = 0; m < 4; ++m) blank_step_[m] = step[m];
    for (int c = 0; c < puzzle.cells(); ++c) {
      const int t = target.cells[c];
      goal_row_[t] = static_cast<std::int8_t>(c / columns_);
      goal_column_[t] = static_cast<std::int8_t>(c % columns_);
    }
    for (int t = 1; t < puzzle.cells(); ++t)
      for (int c = 0; c < puzzle.cells(); ++c)
        distance_[t][c] = static_cast<std::uint8_t>(std::abs(c / columns_ - goal_row_[t]) + std::abs(c % columns_ - goal_column_[t]));
  }
  int distance(int tile, int cell) const { return distance_[tile][cell]; }
  int goal_row(int tile) const { return goal_row_[tile]; }
  int goal_column(int tile) const { return goal_column_[tile]; }
  int columns() const { return columns_; }
  // The cell of the tile that `move` slid into the blank's cell `blank`.
  int slid_from(int blank, int move) const { return blank + blank_step_[move]; }

 private:
  int columns_;
  std::array<int, 4> blank_step_{};
  std::array<std::int8_t, SlidingTiles::kMaxCells> goal_row_{}, goal_column_{};
  std::array<std::array<std::uint8_t, SlidingTiles::kMaxCells>, SlidingTiles::kMaxCells> distance_{};  // [tile][cell]; tile 0 stays 0
};

class TilesManhattan {
 public:
  static constexpr std::string_view kName = "manhattan";
  static constexpr std::string_view kSummary = "sum of the tiles' row and column distances, kept incrementally";
  static constexpr HeuristicCapabilities kCapabilities{.consistent = true, .estimate_after = true};
  using Options = NoOptions;
  using State = TilesState;

  static std::string fits(const SlidingTiles&) { return {}; }
  TilesManhattan(const SlidingTiles& puzzle, const State& target, const Options&, const SearchOptions&)
      : puzzle_(puzzle), cells_(puzzle, target) {}

  int estimate(const State& s) const {
    int sum = 0;
    for (int c = 0; c < puzzle_.cells(); ++c) sum += cells_.distance(s.cells[c], c);
    return sum;
  }
  // The move took the blank from b to b + step: the tile there slid to b.
  int estimate_after(const State& parent, int parent_h, int move, const State&) const {
    const int b = puzzle_.blank(parent), from = cells_.slid_from(b, move);
    const int tile = parent.cells[from];
    return parent_h + cells_.distance(tile, b) - cells_.distance(tile, from);
  }
  std::uint64_t bytes() const { return sizeof(*this); }
  const TilesTargetCells& target_cells() const { return cells_; }

 private:
  SlidingTiles puzzle_;
  TilesTargetCells cells_;
};

}  // namespace searchbench
