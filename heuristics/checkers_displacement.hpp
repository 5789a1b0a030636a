// Checkers heuristic `displacement`: the larger of two lower bounds on the moves from a
// line to the target line (puzzles/checkers_line.hpp: a move takes the piece one or two
// cells from the hole into the hole, so it moves exactly one piece, by delta = 1 or 2 cells,
// and changes exactly two cells, the hole's and the piece's).
//
// * misplaced: the cells whose piece differs from the target's cell (a hole in the target
//   counts as different; the state's hole counts nothing). A move empties the piece's old
//   cell (its term drops to 0) and fills the old hole (its term rises to at most 1): the
//   count changes by at most 1 per move.
// * half the distance: D = sum over both kinds of piece of the cost of matching the state's
//   pieces of that kind to the target's, the i-th from the left to the i-th from the left
//   (in one dimension the sorted matching is a cheapest one). A move shifts one piece by
//   delta <= 2: keeping the matching of before, its cost changes by at most delta, so the
//   cheapest matching of after costs at most D + 2, and by the move back at least D - 2.
//   So ceil(D / 2) changes by at most 1 per move.
// Both are 0 at the target and change by at most 1 per move, so each is consistent and a
// lower bound on the moves to the target; so is their maximum (h(s) = h_j(s) for one of
// them, h_j(s) <= 1 + h_j(t) <= 1 + h(t)).
//
// Lines with other piece counts than the target's cannot reach it; they get a value, never
// a crash (pairs past the shorter list are left out).
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/heuristic_capabilities.hpp"
#include "core/declared_options.hpp"
#include "core/search_options.hpp"
#include "puzzles/checkers_line.hpp"

namespace searchbench {

class CheckersDisplacement {
 public:
  static constexpr std::string_view kName = "displacement";
  static constexpr std::string_view kSummary =
      "pieces out of place, or half the pieces' distance to the target's places (a move shifts one piece by at most 2)";
  static constexpr HeuristicCapabilities kCapabilities{.consistent = true};
  using Options = NoOptions;
  using State = CheckersState;

  static std::string fits(const CheckersLine&) { return {}; }

  CheckersDisplacement(const CheckersLine&, const State& target, const Options&, const SearchOptions&)
      : target_cells_(target.cells) {
    hashes_ = positions(kind_mask(target.cells, CheckersLine::kHash), target_hash_);
    ats_ = positions(kind_mask(target.cells, CheckersLine::kAt), target_at_);
  }

  int estimate(const State& s) const {
    const int distance = matching_cost(kind_mask(s.cells, CheckersLine::kHash), target_hash_, hashes_) +
                         matching_cost(kind_mask(s.cells, CheckersLine::kAt), target_at_, ats_);
    return std::max(misplaced(s), (distance + 1) / 2);
  }

  std::uint64_t bytes() const { return sizeof(*this); }

 private:
  static constexpr std::uint64_t kLowBits = 0x5555'5555'5555'5555ULL;  // bit 2i: cell i

  // Bit 2i set where cell i holds `piece` (1 '#': low bit only, 2 '@': high bit only).
  static std::uint64_t kind_mask(std::uint64_t cells, unsigned piece) {
    const std::uint64_t low = cells & kLowBits, high = (cells >> 1) & kLowBits;
    return piece == CheckersLine::kHash ? low & ~high : high & ~low;
  }
  static int positions(std::uint64_t mask, std::array<std::uint8_t, CheckersLine::kMaxCells>& out) {
    int count = 0;
    for (; mask != 0; mask &= mask - 1) out[count++] = static_cast<std::uint8_t>(std::countr_zero(mask) / 2);
    return count;
  }
  static int matching_cost(std::uint64_t mask, const std::array<std::uint8_t, CheckersLine::kMaxCells>& target, int count) {
    int cost = 0;
    for (int i = 0; mask != 0 && i < count; mask &= mask - 1, ++i) cost += std::abs(std::countr_zero(mask) / 2 - target[i]);
    return cost;
  }
  int misplaced(const State& s) const {
    const std::uint64_t diff = s.cells ^ target_cells_;
    const std::uint64_t differs = (diff | diff >> 1) & kLowBits, piece = (s.cells | s.cells >> 1) & kLowBits;
    return std::popcount(differs & piece);
  }

  std::uint64_t target_cells_;
  int hashes_ = 0, ats_ = 0;
  std::array<std::uint8_t, CheckersLine::kMaxCells> target_hash_{}, target_at_{};  // sorted cells of each kind
};

}  // namespace searchbench
