// Any permutation puzzle from a definition file (`--puzzle FILE.tws` or `FILE.json`): the
// `definition` family. The file is read into the model of puzzles/permutation_definition.hpp;
// a state holds, for each slot, its piece and orientation inline (64 slots at most), and a
// move is one gather over the slots: piece'[i] = piece[source[i]], orientation'[i] =
// orientation[source[i]] + twist[i] mod the set's modulus.
//
// Invariants, read off the moves once (DefinitionInvariants below): slots that no move
// touches keep their piece for ever; a set whose pieces are distinct and that every move
// permutes evenly keeps its permutation's parity, and where every move's parities over all
// the sets add up to even, their sum is kept; a set whose twists every move adds up to 0
// keeps its orientation sum. Two states lie in the same class when they agree on all of
// these; the coordinate encoder ranks a class, and component_size is the class's size (an
// upper bound on the states reachable where pieces of different sets interact, e.g. the
// 3x3x3's combined corner and edge parity).
//
// Text: a sequence of the definition's move names applied to its solved state ("R U2 F'",
// aliases allowed; empty: solved), or a state in the file's own block form, on one line or
// several: "CORNER 1 2 3 4 5 6 7 8 / 0 0 0 0 0 0 0 0 EDGE ..." (each set's name, its
// 1-based piece labels, then optionally '/' and its orientations; a set left out is as
// solved). Paths print as move names separated by spaces; inside the suite a move is the
// character '!' + its index, so string order is move order.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/benchmark_plan.hpp"
#include "core/errors.hpp"
#include "core/printable.hpp"
#include "core/puzzle_hooks.hpp"
#include "puzzles/permutation_definition.hpp"

namespace searchbench {

struct DefinitionState {
  std::array<std::uint8_t, kMaxDefinitionSlots> piece{}, twist{};  // past the definition's slots: 0
  friend bool operator==(const DefinitionState&, const DefinitionState&) = default;
  friend auto operator<=>(const DefinitionState&, const DefinitionState&) = default;
};

// What the moves of one set keep, read off the definition once.
struct SetInvariants {
  std::vector<int> moving;   // its slots that some move changes, in order
  bool distinct = false;     // the solved pieces in the moving slots are all different
  bool even = false;         // distinct, and every move permutes the moving slots evenly
  bool twist_kept = false;   // every move's twists add up to 0 mod the modulus (the sum is kept)
  bool twist_free = false;   // no move twists and the solved twists are 0: orientation stays 0
};

struct DefinitionInvariants {
  std::vector<SetInvariants> sets;
  std::vector<bool> fixed;  // per slot: no move touches it
  // Per pair of moves (last, m), flat: m right after `last` is on no lexicographically
  // smallest shortest path. Either the two make the identity or one single move (a shorter
  // path exists: e.g. two powers of one move), or they commute and m comes first in move
  // order (the swapped pair is as short and smaller).
  std::vector<std::uint8_t> redundant;
  int moves = 0;
  // Every set's pieces are distinct and every move's parities over the sets add up to even:
  // the parity summed over the sets is kept (the 3x3x3's corners and edges together).
  bool combined_even = false;
  explicit DefinitionInvariants(const PermutationDefinition& d);
};

// Parity of the permutation of `values` (distinct small numbers): 1 when odd.
inline int permutation_parity(const std::uint8_t* values, int n) {
  int parity = 0;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) parity ^= values[j] < values[i];
  return parity;
}

class DefinitionPuzzle {
 public:
  using State = DefinitionState;

  static constexpr std::string_view kFamily = "definition";
  // The registry gives it every FILE.tws and FILE.json name.
  static constexpr PuzzleHooks kHooks{
      .reads_files = true, .benchmark_plan = true, .for_start = true, .path_text = true, .redundant_after = true};
  static constexpr std::string_view kNames = "FILE.tws (ksolve/twsearch), FILE.json (KPuzzle)";
  static constexpr std::string_view kSizes =
      "any permutation puzzle of at most 64 slots and 94 moves with their powers; a name that is no file here may be one "
      "the suite ships (a file name of puzzles/definitions/, e.g. 2x2x2.tws)";
  static std::vector<std::string> examples() { return {"pancake-8.tws", "topspin-10-4.tws", "cube2-fixed.tws", "2x2x2.tws"}; }
  // The cross-engine tests check these: orientations (cube2-fixed), every move its own
  // inverse (pancake-6), identical pieces (topspin-12-4-two-colours), moves whose inverse is
  // no move (msquare-2x3, through MovePowers).
  static std::vector<std::string> test_examples() {
    return {"pancake-6.tws", "topspin-12-4-two-colours.tws", "cube2-fixed.tws", "msquare-2x3.tws"};
  }
  // IDA* with pattern databases from random states of the fixed-corner 2x2x2 (each answer
  // checked against a breadth-first table) and, with --full, of the whole 2x2x2 and from
  // 14-move scrambles of the 3x3x3 (Korf's split: seven corners, two sets of six edges;
  // 88 and 2 x 42.6 million entries, built once into the cache).
  static BenchmarkPlan benchmark_plan() {
    BenchmarkPlan plan;
    plan.heuristic_sets.push_back({.puzzle = "cube2-fixed.tws", .name = "random:100", .count = 100,
                                   .engines = {"idastar"}, .heuristics = {"pdb"}, .threads = {1, 2}});
    plan.heuristic_sets.push_back({.puzzle = "2x2x2.tws", .name = "random:20", .count = 20,
                                   .engines = {"idastar"}, .heuristics = {"pdb"}, .threads = {2}, .full_only = true});
    plan.heuristic_sets.push_back({.puzzle = "3x3x3.tws", .name = "scramble14:5", .count = 5, .engines = {"idastar"}, .heuristics = {"pdb"},
                                   .threads = {2}, .full_only = true,
                                   .pattern = "CORNER.1,CORNER.2,CORNER.3,CORNER.4,CORNER.5,CORNER.6,CORNER.7/"
                                              "EDGE.1,EDGE.2,EDGE.3,EDGE.4,EDGE.5,EDGE.6/EDGE.7,EDGE.8,EDGE.9,EDGE.10,EDGE.11,EDGE.12",
                                   .walk = 14});
    return plan;
  }
  static std::optional<DefinitionPuzzle> from_name(std::string_view name) {
    if (!names_definition_file(name)) return std::nullopt;
    return DefinitionPuzzle(load_definition(name));
  }

  explicit DefinitionPuzzle(std::shared_ptr<const PermutationDefinition> d)
      : d_(std::move(d)), invariants_(std::make_shared<const DefinitionInvariants>(*d_)), reference_(solved()) {}

  const PermutationDefinition& definition() const { return *d_; }
  const std::shared_ptr<const PermutationDefinition>& shared_definition() const { return d_; }
  const DefinitionInvariants& invariants() const { return *invariants_; }
  // The state whose class the encoders rank (the start's: see for_start).
  const State& reference() const { return reference_; }
  DefinitionPuzzle for_start(const State& start) const {
    DefinitionPuzzle p = *this;
    p.reference_ = start;
    return p;
  }

  std::string name() const { return d_->file; }
  State start() const { return solved(); }
  int move_count() const { return static_cast<int>(d_->moves.size()); }
  char move_name(int m) const { return static_cast<char>('!' + m); }
  bool apply(const State& s, int m, State& out) const {
    apply_permutation(s, d_->moves[static_cast<std::size_t>(m)], out);
    return true;
  }
  bool apply_inverse(const State& s, int m, State& out) const {
    apply_permutation(s, d_->undo[static_cast<std::size_t>(m)], out);
    return true;
  }
  int inverse_move(int m) const { return d_->inverse[static_cast<std::size_t>(m)]; }
  int move_order(int m) const { return d_->moves[static_cast<std::size_t>(m)].order; }
  // IDA* prunes m right after `last` (see DefinitionInvariants::redundant).
  bool redundant_after(int last, int m) const {
    return invariants_->redundant[static_cast<std::size_t>(last * invariants_->moves + m)] != 0;
  }

  // The size of the start's class (saturated at 2^64 - 1): exact where the sets move
  // independently, else an upper bound.
  std::uint64_t component_size(const State&) const;
  bool same_component(const State& a, const State& b) const;

  State parse(std::string_view text) const;
  std::string format(const State& s) const;
  // A path of move characters as the definition's move names.
  std::string path_text(std::string_view path) const {
    std::string out;
    for (const char c : path) {
      const int m = c - '!';
      if (!out.empty()) out += ' ';
      out += m >= 0 && m < move_count() ? d_->moves[static_cast<std::size_t>(m)].name : std::string("?");
    }
    return out;
  }

 private:
  void apply_permutation(const State& s, const DefinitionMove& mv, State& out) const {
    const std::uint8_t* source = mv.source.data();
    const std::uint8_t* twist = mv.twist.data();
    const std::uint8_t* modulus = d_->modulus.data();
    for (int i = 0, n = d_->slots; i < n; ++i) {
      out.piece[i] = s.piece[source[i]];
      const int t = s.twist[source[i]] + twist[i];
      out.twist[i] = static_cast<std::uint8_t>(t >= modulus[i] ? t - modulus[i] : t);
    }
  }
  State solved() const {
    State s;
    for (int i = 0; i < d_->slots; ++i) {
      s.piece[i] = d_->solved_piece[i];
      s.twist[i] = d_->solved_twist[i];
    }
    return s;
  }
  State parse_block(const std::vector<std::string>& tokens, std::string_view text) const;

  std::shared_ptr<const PermutationDefinition> d_;
  std::shared_ptr<const DefinitionInvariants> invariants_;
  State reference_;
};

}  // namespace searchbench
