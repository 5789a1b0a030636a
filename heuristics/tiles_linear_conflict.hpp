// Heuristic `linear-conflict` for sliding tiles (Hansson, Mayer and Yung 1992): Manhattan
// distance plus two moves for each tile that must leave its line to let others pass.
// In each row, take the tiles whose target row is that row; if they are not in the order of
// their target columns, at least (their count - the longest run already in order, as a
// subsequence) of them must step out of the row and back, two moves each that Manhattan
// distance does not count; the same for columns. Admissible, and consistent: a move
// changes one tile's Manhattan term by one and the conflicts of only the lines it leaves
// and enters, by at most two, in the direction that keeps h(s) <= 1 + h(t).
//
// Kept incrementally: a horizontal move leaves every row's order as it was and changes two
// columns; a vertical one two rows. estimate_after recounts those lines only.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/heuristic_capabilities.hpp"
#include "core/declared_options.hpp"
#include "core/search_options.hpp"
#include "heuristics/tiles_manhattan.hpp"
#include "puzzles/sliding_tiles.hpp"

namespace searchbench {

class TilesLinearConflict {
 public:
  static constexpr std::string_view kName = "linear-conflict";
  static constexpr std::string_view kSummary = "Manhattan distance plus 2 per tile that must leave its row or column";
  static constexpr HeuristicCapabilities kCapabilities{.consistent = true, .estimate_after = true};
  using Options = NoOptions;
  using State = TilesState;

  static std::string fits(const SlidingTiles&) { return {}; }
  TilesLinearConflict(const SlidingTiles& puzzle, const State& target, const Options& none, const SearchOptions& search)
      : puzzle_(puzzle), manhattan_(puzzle, target, none, search) {}

  int estimate(const State& s) const {
    int conflicts = 0;
    for (int r = 0; r < puzzle_.rows(); ++r) conflicts += row_conflicts(s, r);
    for (int c = 0; c < puzzle_.columns(); ++c) conflicts += column_conflicts(s, c);
    return manhattan_.estimate(s) + 2 * conflicts;
  }
  int estimate_after(const State& parent, int parent_h, int move, const State& child) const {
    const int b = puzzle_.blank(parent), from = cells().slid_from(b, move), cols = puzzle_.columns();
    const int tile = parent.cells[from];
    int h = parent_h + cells().distance(tile, b) - cells().distance(tile, from);
    if (move == 1 || move == 2) {  // L, R: the tile changed column
      h += 2 * (column_conflicts(child, b % cols) + column_conflicts(child, from % cols) - column_conflicts(parent, b % cols) -
                column_conflicts(parent, from % cols));
    } else {  // D, U: the tile changed row
      h += 2 * (row_conflicts(child, b / cols) + row_conflicts(child, from / cols) - row_conflicts(parent, b / cols) -
                row_conflicts(parent, from / cols));
    }
    return h;
  }
  std::uint64_t bytes() const { return sizeof(*this); }

 private:
  // Tiles of a line that sit in their target line, by their target position along it: how
  // many are not in the longest increasing subsequence (at most 4 tiles a line: quadratic).
  static int out_of_order(const int* goal, int n) {
    int longest[SlidingTiles::kMaxCells], best = 0;
    for (int i = 0; i < n; ++i) {
      longest[i] = 1;
      for (int j = 0; j < i; ++j)
        if (goal[j] < goal[i]) longest[i] = std::max(longest[i], longest[j] + 1);
      best = std::max(best, longest[i]);
    }
    return n - best;
  }
  int row_conflicts(const State& s, int r) const {
    int goal[SlidingTiles::kMaxCells], n = 0;
    for (int c = 0, cols = puzzle_.columns(); c < cols; ++c) {
      const int t = s.cells[r * cols + c];
      if (t != SlidingTiles::kBlank && cells().goal_row(t) == r) goal[n++] = cells().goal_column(t);
    }
    return n < 2 ? 0 : out_of_order(goal, n);
  }
  int column_conflicts(const State& s, int c) const {
    int goal[SlidingTiles::kMaxCells], n = 0;
    for (int r = 0, cols = puzzle_.columns(); r < puzzle_.rows(); ++r) {
      const int t = s.cells[r * cols + c];
      if (t != SlidingTiles::kBlank && cells().goal_column(t) == c) goal[n++] = cells().goal_row(t);
    }
    return n < 2 ? 0 : out_of_order(goal, n);
  }

  const TilesTargetCells& cells() const { return manhattan_.target_cells(); }

  SlidingTiles puzzle_;
  TilesManhattan manhattan_;
};

}  // namespace searchbench
