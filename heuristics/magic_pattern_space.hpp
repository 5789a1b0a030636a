// The abstraction behind the magic board's `pdb`: of a board only the cells of some of its
// values (the pattern) are kept, the other cells become indistinguishable. Every move of
// the board permutes cells, so it moves each kept value to a cell that depends on its cell
// alone: the abstraction is a homomorphism (a real move is exactly one abstract move, of the
// same cost 1), so abstract distances are lower bounds on real ones, and they change by at
// most one along a move (consistent).
//
// The moves are read off the board itself (where each cell's content goes under a move and
// under its inverse), not copied from its rules. B and C have no one-move inverse, so the
// space is directed; the database's BFS runs over inverse moves (heuristics/pattern_database.hpp).
// Keys (MagicPatternRank): the cells of the k values ranked as a partial permutation.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/concepts.hpp"
#include "core/errors.hpp"
#include "core/permutation_rank.hpp"
#include "heuristics/pdb_options.hpp"
#include "puzzles/magic_board.hpp"

namespace searchbench {

struct MagicPatternState {
  std::array<std::uint8_t, 16> cell{};  // the cell of the pattern's i-th value (i < k)
  friend bool operator==(const MagicPatternState&, const MagicPatternState&) = default;
};

class MagicPatternSpace {
 public:
  using State = MagicPatternState;

  // `values`: the pattern's cell values (1..2K), fewer than the board's cells.
  MagicPatternSpace(const MagicBoard& board, const std::vector<int>& values, const MagicState& target)
      : board_(board), n_(board.cells()), k_(static_cast<int>(values.size())) {
    if (k_ < 1 || k_ >= n_) throw InputError("a magic board pattern holds 1 to " + std::to_string(n_ - 1) + " values");
    MagicState labelled;  // cell c holds c + 1, so a move's result names where each cell came from
    for (int c = 0; c < n_; ++c) labelled.cells[c] = static_cast<std::uint8_t>(c + 1);
    for (int m = 0; m < board.move_count(); ++m) {
      MagicState out;
      board.apply(labelled, m, out);
      for (int c = 0; c < n_; ++c) forward_[m][out.cells[c] - 1] = static_cast<std::uint8_t>(c);
      board.apply_inverse(labelled, m, out);
      for (int c = 0; c < n_; ++c) backward_[m][out.cells[c] - 1] = static_cast<std::uint8_t>(c);
    }
    for (int c = 0; c < n_; ++c)
      for (int i = 0; i < k_; ++i)
        if (target.cells[c] == values[i]) goal_.cell[i] = static_cast<std::uint8_t>(c);
    text_ = pattern_text(values);
  }

  int cells() const { return n_; }
  int values() const { return k_; }

  std::string name() const { return board_.name() + " pattern " + text_; }
  State start() const { return goal_; }
  int move_count() const { return board_.move_count(); }
  char move_name(int m) const { return board_.move_name(m); }
  bool apply(const State& s, int m, State& out) const { return moved(s, forward_[m], out); }
  bool apply_inverse(const State& s, int m, State& out) const { return moved(s, backward_[m], out); }
  int inverse_move(int m) const { return board_.inverse_move(m); }
  // The board's order is a multiple of the abstract one, not always equal: none claimed.
  int move_order(int) const { return 0; }
  std::uint64_t component_size(const State&) const { return PartialPermutationRank(n_, k_).count(); }
  bool same_component(const State&, const State&) const { return true; }
  State parse(std::string_view) const { throw InputError("abstract magic board states are not read from text"); }
  std::string format(const State& s) const {
    std::string out = "values " + text_ + " at";
    for (int i = 0; i < k_; ++i) out += " " + std::to_string(s.cell[i]);
    return out;
  }

 private:
  bool moved(const State& s, const std::array<std::uint8_t, 16>& to, State& out) const {
    for (int i = 0; i < k_; ++i) out.cell[i] = to[s.cell[i]];
    for (int i = k_; i < 16; ++i) out.cell[i] = 0;
    return true;
  }

  MagicBoard board_;
  int n_, k_;
  std::array<std::array<std::uint8_t, 16>, 3> forward_{}, backward_{};  // where a cell's content goes
  State goal_;
  std::string text_;
};

class MagicPatternRank {
 public:
  static constexpr std::string_view kName = "placement";
  static constexpr EncoderCapabilities kCapabilities{};
  static std::string fits(const MagicPatternSpace&) { return {}; }
  explicit MagicPatternRank(const MagicPatternSpace& space) : rank_(space.cells(), space.values()) {}
  Key encode(const MagicPatternState& s) const { return rank_.rank(s.cell.data()); }
  MagicPatternState decode(Key k) const {
    MagicPatternState s;
    rank_.unrank(k, s.cell.data());
    return s;
  }
  Key key_bound() const { return rank_.count(); }
  bool dense() const { return key_bound() <= kDenseKeyLimit; }

 private:
  PartialPermutationRank rank_;
};

}  // namespace searchbench
