// The checkers line of FZU 1603 "Checkers II", generalised to N = 1..32 cells.
//
// A line holds `#` pieces, `@` pieces and exactly one hole `&`. A move swaps the hole with
// the cell 2 left (a), 1 left (b), 1 right (c) or 2 right (d): a piece slides into the hole
// or jumps over whatever lies between. a undoes d and b undoes c. Piece counts never
// change, and every arrangement with the same counts is reachable, so the component of a
// board with k `#` pieces has C(N-1, k) * N states.
//
// A puzzle instance fixes N and the number k of `#` pieces (the encoders that rank
// arrangements need k); the default start is `#`*k `&` `@`*(N-1-k), k = (N-1)/2.
// State: 2 bits per cell in one word (0 hole, 1 '#', 2 '@') plus the hole's position.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/benchmark_plan.hpp"
#include "core/errors.hpp"
#include "core/printable.hpp"
#include "core/puzzle_hooks.hpp"
#include "core/puzzle_name.hpp"

namespace searchbench {

struct CheckersState {
  std::uint64_t cells = 0;  // cell i in bits 2i..2i+1
  std::uint8_t hole = 0;
  friend bool operator==(const CheckersState&, const CheckersState&) = default;
  friend auto operator<=>(const CheckersState&, const CheckersState&) = default;

  unsigned at(int i) const { return static_cast<unsigned>(cells >> (2 * i)) & 3u; }
};

class CheckersLine {
 public:
  using State = CheckersState;
  static constexpr int kMaxCells = 32;
  static constexpr unsigned kHole = 0, kHash = 1, kAt = 2;

  // The names the registry knows this family by (the inverse of name()).
  static constexpr std::string_view kFamily = "checkers";
  // The contest solutions keep the hole's position and a mask of the pieces.
  static constexpr PuzzleHooks kHooks{.classic_encoder = "maskhole", .benchmark_plan = true, .for_start = true};
  static constexpr std::string_view kNames = "checkers-N";
  static constexpr std::string_view kSizes = "checkers-N N=1..32";
  static std::vector<std::string> examples() {
    return {"checkers-11", "checkers-15", "checkers-19", "checkers-21", "checkers-25", "checkers-27", "checkers-32"};
  }
  // Instances small enough for the cross-engine tests to check every state of.
  static std::vector<std::string> test_examples() { return {"checkers-9", "checkers-10"}; }
  // Beyond whole spaces: point queries between random lines of the default piece counts,
  // with the contest encoders, and the explicit-graph yardstick.
  static BenchmarkPlan benchmark_plan() {
    BenchmarkPlan plan;
    for (const int n : {11, 15, 19, 21})
      plan.random_targets.push_back({"checkers-" + std::to_string(n), static_cast<std::uint64_t>(n), 10, {"bidir", "ring"},
                                     {"bitpack", "maskhole", "combinatorial"}});
    plan.explicit_graph.push_back("checkers-21");
    return plan;
  }
  // "checkers-N"; nullopt for other families' names, InputError for a malformed N.
  static std::optional<CheckersLine> from_name(std::string_view name) {
    if (name.substr(0, 9) != "checkers-") return std::nullopt;
    return CheckersLine(parse_name_size(name.substr(9), name));
  }
  // The instance for a given start: the encoders rank boards by the start's piece counts.
  CheckersLine for_start(const CheckersState& start) const { return CheckersLine(n_, count(start, kHash)); }

  explicit CheckersLine(int cells) : CheckersLine(cells, (cells - 1) / 2) {}
  CheckersLine(int cells, int hashes) : n_(cells), hashes_(hashes) {
    if (cells < 1 || cells > kMaxCells)
      throw InputError("checkers line length N=" + std::to_string(cells) + " is not supported (N must be 1..32)");
    if (hashes < 0 || hashes > cells - 1)
      throw InputError("a checkers line of " + std::to_string(cells) + " cells cannot hold " +
                       std::to_string(hashes) + " '#' pieces");
  }

  std::string name() const { return "checkers-" + std::to_string(n_); }
  int cells() const { return n_; }
  int hashes() const { return hashes_; }

  State start() const {
    State s;
    for (int i = 0; i < n_; ++i) {
      const unsigned v = i < hashes_ ? kHash : (i == hashes_ ? kHole : kAt);
      s.cells |= std::uint64_t{v} << (2 * i);
    }
    s.hole = static_cast<std::uint8_t>(hashes_);
    return s;
  }

  int move_count() const { return 4; }
  char move_name(int m) const { return static_cast<char>('a' + m); }
  bool apply(const State& s, int m, State& out) const {
    static constexpr int kShift[4] = {-2, -1, 1, 2};
    const int to = s.hole + kShift[m];
    if (to < 0 || to >= n_) return false;
    const std::uint64_t piece = (s.cells >> (2 * to)) & 3u;
    out.cells = (s.cells & ~(std::uint64_t{3} << (2 * to))) | (piece << (2 * s.hole));
    out.hole = static_cast<std::uint8_t>(to);
    return true;
  }
  bool apply_inverse(const State& s, int m, State& out) const { return apply(s, 3 - m, out); }
  int inverse_move(int m) const { return 3 - m; }
  int move_order(int) const { return 0; }

  std::uint64_t component_size(const State&) const { return binomial(n_ - 1, hashes_) * n_; }
  bool same_component(const State& a, const State& b) const { return count(a, kHash) == count(b, kHash); }

  int count(const State& s, unsigned piece) const {
    int c = 0;
    for (int i = 0; i < n_; ++i) c += s.at(i) == piece;
    return c;
  }

  // Reads a board of exactly N cells; its piece counts may differ from the instance's
  // (a query between such boards is simply unreachable).
  State parse(std::string_view text) const {
    while (!text.empty() && (text.back() == ' ' || text.back() == '\n' || text.back() == '\r')) text.remove_suffix(1);
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    if (static_cast<int>(text.size()) != n_)
      throw InputError("checkers board \"" + printable(text) + "\" has " + std::to_string(text.size()) +
                       " cells, expected " + std::to_string(n_));
    State s;
    int holes = 0;
    for (int i = 0; i < n_; ++i) {
      unsigned v;
      switch (text[i]) {
        case '&': v = kHole; ++holes; s.hole = static_cast<std::uint8_t>(i); break;
        case '#': v = kHash; break;
        case '@': v = kAt; break;
        default:
          throw InputError(std::string("checkers board \"") + printable(text) + "\" contains '" + printable(text.substr(i, 1)) +
                           "' (only '@', '#' and one '&' are allowed)");
      }
      s.cells |= std::uint64_t{v} << (2 * i);
    }
    if (holes != 1)
      throw InputError("checkers board \"" + printable(text) + "\" must have exactly one hole '&', it has " +
                       std::to_string(holes));
    return s;
  }

  std::string format(const State& s) const {
    std::string out(n_, '?');
    for (int i = 0; i < n_; ++i) out[i] = "&#@"[s.at(i)];
    return out;
  }

  static std::uint64_t binomial(int n, int k) {
    if (k < 0 || k > n) return 0;
    std::uint64_t r = 1;
    for (int i = 1; i <= k; ++i) r = r * static_cast<std::uint64_t>(n - k + i) / static_cast<std::uint64_t>(i);
    return r;
  }

 private:
  int n_;
  int hashes_;
};

}  // namespace searchbench
