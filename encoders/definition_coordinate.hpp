// `coordinate`: a perfect ranking of a definition puzzle's states by orbit coordinates, with
// move tables, as twsearch and Kociemba's solvers index a cube.
//
// Each set contributes up to two independent coordinates over its moving slots (those some
// move changes; the fixed ones never change): the arrangement of its pieces (the Lehmer
// rank of a permutation when the pieces are distinct, halved when every move keeps the
// parity; the multinomial rank when some are identical) and its orientations (base-m
// digits, the last one dropped when every move keeps their sum; none when nothing ever
// twists). A move acts on each coordinate alone: where a piece goes does not depend on its
// orientation, and the orientations move the same whichever pieces carry them. So a move is
// a table per coordinate, coordinate -> coordinate, built once per definition and class and
// kept for the process; the key of a successor is a sum of table entries times the
// coordinates' strides, with no state decoded or encoded (key_successors). A coordinate too
// large for a table is moved by ranking it afresh.
//
// The key is the mixed-radix number of the coordinates. Every key is a state of the start's
// class (every_key_is_state), which may hold more than the reachable states where sets
// interact (the skewb's two corner sets).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/concepts.hpp"
#include "puzzles/definition_puzzle.hpp"

namespace searchbench {

class DefinitionCoordinate {
 public:
  using State = DefinitionState;
  static constexpr std::string_view kName = "coordinate";
  static constexpr EncoderCapabilities kCapabilities{.every_key_is_state = true, .incremental_keys = true, .key_successors = true};
  // Coordinates with at most this many entries (values x moves) get a move table.
  static constexpr std::uint64_t kMaxTableEntries = std::uint64_t{1} << 23;

  static std::string fits(const DefinitionPuzzle& p);
  explicit DefinitionCoordinate(const DefinitionPuzzle& p);

  Key encode(const State& s) const;
  State decode(Key k) const;
  Key key_bound() const { return system_->bound; }
  bool dense() const { return system_->bound <= kDenseKeyLimit; }

  // The key of the state move m leads to from the state of key k (every move applies); m
  // past the moves: a permutation that undoes one (see System::undo_column).
  Key key_successor(Key k, int m) const {
    Key out = 0;
    const auto& coords = system_->coords;
    for (const auto& c : coords) {
      const Key rest = system_->exact_reciprocals ? c.divide(k) : k / c.count;
      const Key value = k - rest * c.count;
      k = rest;
      out += c.stride * (c.table.empty() ? c.move_value(value, m) : c.table[value * system_->columns + static_cast<unsigned>(m)]);
    }
    return out;
  }
  // All successors' keys in move order into `out` (move_count() of them); the coordinates
  // are split off the key once.
  int key_successors(Key k, Key* out) const {
    const auto& coords = system_->coords;
    const bool reciprocals = system_->exact_reciprocals;
    const unsigned columns = system_->columns;
    for (std::size_t i = 0; i < coords.size(); ++i) {
      const Coordinate& c = coords[i];
      const Key rest = reciprocals ? c.divide(k) : k / c.count;
      const Key value = k - rest * c.count;
      k = rest;
      if (c.table.empty()) {
        std::uint64_t values[kMaxDefinitionMoves];
        c.move_values(value, 0, static_cast<int>(moves_), values);
        for (unsigned m = 0; m < moves_; ++m) out[m] = (i ? out[m] : 0) + c.stride * values[m];
      } else if (i == 0) {  // the first coordinate's stride is 1: its entries are the keys so far
        const std::uint32_t* row = c.table.data() + value * columns;
        for (unsigned m = 0; m < moves_; ++m) out[m] = row[m];
      } else {
        const std::uint32_t* row = c.table.data() + value * columns;
        for (unsigned m = 0; m < moves_; ++m) out[m] += c.stride * row[m];
      }
    }
    if (coords.empty())
      for (unsigned m = 0; m < moves_; ++m) out[m] = 0;
    return static_cast<int>(moves_);
  }
  bool successor_key(Key k, const State&, int m, Key& out) const {
    out = key_successor(k, m);
    return true;
  }
  bool predecessor_key(Key k, const State&, int m, Key& out) const {
    out = key_successor(k, system_->undo_column[static_cast<std::size_t>(m)]);
    return true;
  }

  // One coordinate: a set's arrangement or its orientations over its moving slots.
  struct Coordinate {
    bool orientation = false;
    std::vector<int> slots;            // the moving slots, in order
    std::vector<std::uint8_t> labels;  // arrangement: the distinct labels, sorted (a value is an index into them)
    std::array<std::uint8_t, 256> index_of{};  // arrangement: label -> its index in labels
    std::vector<int> counts;           // arrangement: pieces per label
    bool distinct = false, even = false;
    int parity = 0;                    // even: the class's parity
    int modulus = 1, twist_sum = 0;    // orientation: modulus and the class's sum (kept_sum)
    bool kept_sum = false;
    std::uint64_t count = 1, stride = 1;
    std::uint64_t reciprocal = 0;  // floor(2^64 / count) + 1: k / count by one multiplication (see System)
    Key divide(Key k) const { return static_cast<Key>((static_cast<unsigned __int128>(k) * reciprocal) >> 64); }
    std::vector<std::vector<std::uint8_t>> source;  // per column: each position's source position
    std::vector<std::vector<std::uint8_t>> twist;   // per column: each position's added twist
    std::vector<std::uint32_t> table;               // value * columns + column -> value; empty: none

    std::uint64_t rank(const std::uint8_t* values) const;
    void unrank(std::uint64_t value, std::uint8_t* values) const;
    std::uint64_t move_value(std::uint64_t value, int m) const;
    // The values moves first..end-1 lead to, into out: one unranking for them all.
    void move_values(std::uint64_t value, int first, int end, std::uint64_t* out) const;
  };
  struct System {
    std::vector<Coordinate> coords;
    std::uint64_t bound = 1;
    bool overflow = false;
    // Table columns: the moves, then the permutations that undo the moves no move undoes.
    unsigned columns = 0;
    std::vector<int> undo_column;  // per move: the column of the permutation that undoes it
    // divide(k) == k / count for every k < 2^64 / count; the keys split by a coordinate are
    // below the bound, so the reciprocals are exact when bound * the largest count < 2^64.
    bool exact_reciprocals = false;
  };

 private:
  std::shared_ptr<const System> system_;
  State reference_;
  unsigned moves_ = 0;
};

}  // namespace searchbench
