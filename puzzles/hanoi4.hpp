// Towers of Hanoi with four pegs, `hanoi4-N` (N = 1..16 discs): a disc moves from the top
// of one peg to the top of another whose top disc is larger (or that is empty). With four
// pegs the shortest solutions are not known in closed form beyond the Frame-Stewart
// conjecture (proved optimal for this goal by Bousch, 2014), and breadth-first search over
// all 4^N placements is the classic way to measure them (Korf & Felner, 2007).
//
// Move letters: 'A'..'L' move the top disc from peg a to peg b, for (a, b) in the order
// (1,2) (1,3) (1,4) (2,1) (2,3) (2,4) (3,1) (3,2) (3,4) (4,1) (4,2) (4,3); letters and
// moves share that order, so the lexicographically smallest path is also the smallest as
// a string. Every move is undone by the move from b to a.
//
// Start: every disc on peg 1. Text: the peg (1..4) of each disc, smallest disc first
// ("1 1 1 1" for hanoi4-4's start). State: one bit mask of discs per peg, so a peg's top
// disc is its lowest set bit and a move is two bit operations.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/errors.hpp"
#include "core/number_list.hpp"
#include "core/printable.hpp"
#include "core/puzzle_hooks.hpp"
#include "core/puzzle_name.hpp"

namespace searchbench {

struct Hanoi4State {
  std::array<std::uint16_t, 4> pegs{};  // bit d: disc d+1 (disc 1 the smallest) is on that peg
  friend bool operator==(const Hanoi4State&, const Hanoi4State&) = default;
  friend auto operator<=>(const Hanoi4State&, const Hanoi4State&) = default;
};

class Hanoi4 {
 public:
  using State = Hanoi4State;
  static constexpr int kPegs = 4, kMinDiscs = 1, kMaxDiscs = 16;

  // The names the registry knows this family by (the inverse of name()).
  static constexpr std::string_view kFamily = "hanoi4";
  static constexpr PuzzleHooks kHooks{};
  static constexpr std::string_view kNames = "hanoi4-N";
  static constexpr std::string_view kSizes = "hanoi4-N N=1..16";
  static std::vector<std::string> examples() { return {"hanoi4-8", "hanoi4-10"}; }
  // Instances small enough for the cross-engine tests to check every state of.
  static std::vector<std::string> test_examples() { return {"hanoi4-5", "hanoi4-6"}; }
  // "hanoi4-N"; nullopt for other families' names, InputError for a malformed or unsupported N.
  static std::optional<Hanoi4> from_name(std::string_view name) {
    if (name.substr(0, 7) != "hanoi4-") return std::nullopt;
    return Hanoi4(parse_name_size(name.substr(7), name));
  }

  explicit Hanoi4(int discs) : n_(discs) {
    if (discs < kMinDiscs || discs > kMaxDiscs)
      throw InputError("hanoi4 with N=" + std::to_string(discs) + " discs is not supported (N must be 1..16)");
  }

  std::string name() const { return "hanoi4-" + std::to_string(n_); }
  int discs() const { return n_; }
  std::uint16_t all_discs() const { return static_cast<std::uint16_t>((1u << n_) - 1); }

  State start() const {
    State s;
    s.pegs[0] = all_discs();
    return s;
  }
  // Every disc on peg `peg` (0..3).
  State tower_on(int peg) const {
    State s;
    s.pegs[static_cast<std::size_t>(peg)] = all_discs();
    return s;
  }

  int move_count() const { return kPegs * (kPegs - 1); }
  char move_name(int m) const { return static_cast<char>('A' + m); }
  static constexpr int from_peg(int m) { return m / (kPegs - 1); }
  static constexpr int to_peg(int m) {
    const int other = m % (kPegs - 1);
    return other < from_peg(m) ? other : other + 1;
  }
  bool apply(const State& s, int m, State& out) const {
    const auto a = static_cast<std::size_t>(from_peg(m)), b = static_cast<std::size_t>(to_peg(m));
    const std::uint16_t from = s.pegs[a], to = s.pegs[b];
    const std::uint16_t top = from & static_cast<std::uint16_t>(-from);  // the lowest set bit: the smallest disc
    // Legal when the target is empty or its smallest disc is larger (a higher bit).
    if (from == 0 || (to != 0 && (to & static_cast<std::uint16_t>(-to)) < top)) return false;
    out = s;
    out.pegs[a] = static_cast<std::uint16_t>(from ^ top);
    out.pegs[b] = static_cast<std::uint16_t>(to | top);
    return true;
  }
  // The move from b to a undoes the move from a to b.
  bool apply_inverse(const State& s, int m, State& out) const { return apply(s, inverse_move(m), out); }
  int inverse_move(int m) const {
    const int a = from_peg(m), b = to_peg(m);
    return b * (kPegs - 1) + (a < b ? a : a - 1);
  }
  int move_order(int) const { return 0; }  // a second move of the same pegs moves another disc, or none

  std::uint64_t component_size(const State&) const { return std::uint64_t{1} << (2 * n_); }
  bool same_component(const State&, const State&) const { return true; }

  State parse(std::string_view text) const {
    int values[kMaxDiscs + 1];
    const int count = parse_number_list(text, values, kMaxDiscs + 1, false, "peg", "placement");
    if (count != n_)
      throw InputError("a placement of " + std::to_string(n_) + " discs needs " + std::to_string(n_) + " pegs, got " +
                       std::to_string(count) + " in \"" + printable(text) + "\"");
    State s;
    for (int d = 0; d < n_; ++d) {
      const int peg = values[d];
      if (peg < 1 || peg > kPegs)
        throw InputError("peg " + std::to_string(peg) + " is out of range 1..4 in placement \"" + printable(text) + "\"");
      s.pegs[static_cast<std::size_t>(peg - 1)] |= static_cast<std::uint16_t>(1u << d);
    }
    return s;
  }

  std::string format(const State& s) const {
    std::string out;
    for (int d = 0; d < n_; ++d) {
      if (d > 0) out += ' ';
      out += static_cast<char>('1' + peg_of(s, d));
    }
    return out;
  }
  static int peg_of(const State& s, int disc) {
    for (int p = 0; p < kPegs; ++p)
      if (s.pegs[static_cast<std::size_t>(p)] >> disc & 1) return p;
    return 0;
  }

 private:
  int n_;
};

}  // namespace searchbench
