// Sliding-tile puzzles `tiles-RxC` (R, C >= 2, R*C <= 25): tiles-3x3 is the 8-puzzle,
// tiles-4x4 the 15-puzzle, tiles-5x5 the 24-puzzle.
//
// A board holds the tiles 1..RC-1 and one blank, in row order (top row left to right, then
// the next row). A move slides a tile next to the blank into it; the letter names the
// direction the BLANK moves: D (the blank moves down, the tile below it slides up), L, R, U.
// Moves are tried in that alphabetical order, so the lexicographically smallest shortest
// path is also the smallest as a string. A move off the board does not apply. U undoes D
// and L undoes R; no move repeated returns to the start.
//
// Start (the goal): 1..RC-1 in row order with the blank in the bottom-right corner. Every
// move swaps the blank with a neighbour, which flips both the permutation's parity and the
// parity of the blank's row + column, so their sum is invariant: exactly half of the (RC)!
// boards are reachable (all of that half, for R, C >= 2). A run ranks the start's half
// (for_start); a target in the other one is answered unreachable.
//
// State: the RC cells, 0 for the blank, in one 32-byte array (cells past RC stay 0xFF);
// the blank is found by one vector compare. The 24-puzzle's (25!)/2 boards have no 64-bit
// rank, so its encoders refuse it and only the heuristic engines run there. Text: the RC numbers in row order with 0 for the
// blank, optionally split into rows by '/'.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/benchmark_plan.hpp"
#include "core/errors.hpp"
#include "core/number_list.hpp"
#include "core/printable.hpp"
#include "core/puzzle_hooks.hpp"
#include "core/puzzle_name.hpp"
#include "core/saturating.hpp"
#if defined(__SSE2__) || defined(__AVX2__)
#include <immintrin.h>
#endif

namespace searchbench {

struct TilesState {
  static constexpr int kBytes = 32;
  static constexpr std::array<std::uint8_t, kBytes> kEmpty = [] {
    std::array<std::uint8_t, kBytes> a{};
    a.fill(0xFF);
    return a;
  }();
  std::array<std::uint8_t, kBytes> cells = kEmpty;  // row order; 0 is the blank; cells past RC hold 0xFF
  friend bool operator==(const TilesState&, const TilesState&) = default;
  friend auto operator<=>(const TilesState&, const TilesState&) = default;
};

class SlidingTiles {
 public:
  using State = TilesState;
  static constexpr int kMaxCells = 25;
  static constexpr std::uint8_t kBlank = 0;

  // The names the registry knows this family by (the inverse of name()).
  static constexpr std::string_view kFamily = "tiles";
  static constexpr PuzzleHooks kHooks{.benchmark_plan = true, .for_start = true};
  static constexpr std::string_view kNames = "tiles-RxC";
  static constexpr std::string_view kSizes = "tiles-RxC R,C>=2, R*C<=25";
  static std::vector<std::string> examples() {
    return {"tiles-2x3", "tiles-2x4", "tiles-3x3", "tiles-2x5", "tiles-3x4", "tiles-2x6", "tiles-4x4", "tiles-5x5"};
  }
  // Instances small enough for the cross-engine tests to check every state of.
  static std::vector<std::string> test_examples() { return {"tiles-2x3", "tiles-3x2"}; }
  // Korf's 100 15-puzzles with the pattern databases at 1 and 2 threads (the scaling), the
  // first 10 with Manhattan distance at 1 thread (nodes per second per thread), every
  // heuristic over all 100 with --full (Manhattan distance alone generates about 3.6e10
  // nodes over them) and the 7-8 databases (their first build is minutes of a 2-core run's
  // time, the default run's budget; later runs load them), random 8-puzzles with every
  // heuristic and both engines (all 181,440 with --full), and with --full six 24-puzzles.
  static BenchmarkPlan benchmark_plan() {
    BenchmarkPlan plan;
    const std::string korf = "korf100";  // built into bench_search
    plan.heuristic_sets.push_back({.puzzle = "tiles-4x4", .name = "korf100", .instances = korf, .count = 100,
                                   .engines = {"idastar"}, .heuristics = {"pdb"}, .threads = {1, 2},
                                   .side_by_side = true});
    plan.heuristic_sets.push_back({.puzzle = "tiles-4x4", .name = "korf100:7-8", .instances = korf, .count = 100,
                                   .engines = {"idastar"}, .heuristics = {"pdb"}, .threads = {1, 2}, .full_only = true, .pattern = "7-8",
                                   .side_by_side = true});
    plan.heuristic_sets.push_back({.puzzle = "tiles-4x4", .name = "korf100:first-10", .instances = korf, .count = 10,
                                   .engines = {"idastar"}, .heuristics = {"manhattan"}, .threads = {1}});
    plan.heuristic_sets.push_back({.puzzle = "tiles-4x4", .name = "korf100", .instances = korf, .count = 100,
                                   .engines = {"idastar"}, .heuristics = {"linear-conflict", "manhattan"}, .threads = {2}, .full_only = true});
    // The 24-puzzle: five of Korf and Felner's 50 that the 6-6-6-6 databases solve within
    // minutes each at 2 threads (most of the others take hours to days), one pass each.
    plan.heuristic_sets.push_back({.puzzle = "tiles-5x5", .name = "korf-felner50:easiest", .instances = "korf-felner50",
                                   .engines = {"idastar"}, .heuristics = {"pdb"}, .threads = {2}, .full_only = true,
                                   .numbers = {40, 38, 25, 44, 28}, .repetitions = 1});
    // Korf and Taylor's first 24-puzzle (1996; number 5 of the file, 100 moves), the field's
    // yardstick for a single-machine 24-puzzle solver, one pass.
    plan.heuristic_sets.push_back({.puzzle = "tiles-5x5", .name = "korf-taylor:first", .instances = "korf-felner50",
                                   .engines = {"idastar"}, .heuristics = {"pdb"}, .threads = {2}, .full_only = true,
                                   .numbers = {5}, .repetitions = 1});
    const std::vector<std::string> every = {"manhattan", "linear-conflict", "pdb"};
    plan.heuristic_sets.push_back({.puzzle = "tiles-3x3", .name = "random:1000", .count = 1000,
                                   .engines = {"idastar", "astar"}, .heuristics = every, .threads = {1}});
    plan.heuristic_sets.push_back({.puzzle = "tiles-3x3", .name = "all", .count = 0,
                                   .engines = {"idastar", "astar"}, .heuristics = every, .threads = {1}, .full_only = true});
    return plan;
  }
  // "tiles-RxC"; nullopt for other families' names, InputError for a malformed or unsupported size.
  static std::optional<SlidingTiles> from_name(std::string_view name) {
    if (name.substr(0, 6) != "tiles-") return std::nullopt;
    const std::string_view size = name.substr(6);
    const std::size_t x = size.find('x');
    if (x == std::string_view::npos)
      throw InputError("malformed puzzle name '" + std::string(name) + "' (expected tiles-RxC, e.g. tiles-3x3)");
    return SlidingTiles(parse_name_size(size.substr(0, x), name), parse_name_size(size.substr(x + 1), name));
  }

  SlidingTiles(int rows, int columns) : rows_(rows), cols_(columns), n_(rows * columns) {
    if (rows < 2 || columns < 2 || rows * columns > kMaxCells)
      throw InputError("sliding-tile board " + std::to_string(rows) + "x" + std::to_string(columns) +
                       " is not supported (rows and columns >= 2, at most 25 cells)");
    for (int b = 0; b < n_; ++b) {
      const int r = b / cols_, c = b % cols_;
      target_[kDown][b] = r + 1 < rows_ ? b + cols_ : -1;
      target_[kLeft][b] = c > 0 ? b - 1 : -1;
      target_[kRight][b] = c + 1 < cols_ ? b + 1 : -1;
      target_[kUp][b] = r > 0 ? b - cols_ : -1;
    }
    class_parity_ = parity(start());
  }
  // The instance for a run from `start`: its encoders rank the start's half (a start and a
  // target both in the goal's other half are a valid query).
  SlidingTiles for_start(const State& start) const {
    SlidingTiles p = *this;
    p.class_parity_ = parity(start);
    return p;
  }

  std::string name() const { return "tiles-" + std::to_string(rows_) + "x" + std::to_string(cols_); }
  int rows() const { return rows_; }
  int columns() const { return cols_; }
  int cells() const { return n_; }

  State start() const {
    State s;
    if (n_ < 4 || n_ > kMaxCells) __builtin_unreachable();  // lets the compiler see the bound
    for (int i = 0; i + 1 < n_; ++i) s.cells[i] = static_cast<std::uint8_t>(i + 1);
    s.cells[n_ - 1] = kBlank;
    return s;
  }

  int move_count() const { return 4; }
  char move_name(int m) const { return "DLRU"[m]; }
  bool apply(const State& s, int m, State& out) const {
    const int b = blank(s);
    const int to = target_[m][b];
    if (to < 0) return false;
    out = s;
    out.cells[b] = s.cells[to];
    out.cells[to] = kBlank;
    return true;
  }
  // The predecessor by m moved the blank the opposite way.
  bool apply_inverse(const State& s, int m, State& out) const { return apply(s, inverse_move(m), out); }
  int inverse_move(int m) const { return 3 - m; }  // D <-> U, L <-> R
  int move_order(int) const { return 0; }

  // (RC)! / 2, saturated at 2^64 - 1 past 20 cells (no search enumerates those boards).
  std::uint64_t component_size(const State&) const { return saturating_product(3, n_); }
  bool same_component(const State& a, const State& b) const { return parity(a) == parity(b); }

  // True when the board lies in the half the encoders rank: the start's (see for_start; the
  // goal's by default).
  bool reachable(const State& s) const { return parity(s) == class_parity_; }

  // Whether move m slides the blank along its row (L, R) rather than across rows (D, U).
  static constexpr bool along_row(int m) { return m == kLeft || m == kRight; }
  // The blank's cell after move m from cell b, -1 when m would leave the board.
  int blank_after(int b, int m) const { return target_[m][b]; }

  int blank(const State& s) const {
#if defined(__AVX2__)
    const __m256i cells = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s.cells.data()));
    const unsigned hits = static_cast<unsigned>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(cells, _mm256_setzero_si256())));
    return std::countr_zero(hits);
#elif defined(__SSE2__)
    const __m128i low = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.cells.data()));
    const unsigned hits = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(low, _mm_setzero_si128())));
    if (hits != 0 || n_ <= 16) return std::countr_zero(hits);
    const __m128i high = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.cells.data() + 16));
    return 16 + std::countr_zero(static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(high, _mm_setzero_si128()))));
#else
    int b = 0;
    while (s.cells[b] != kBlank) ++b;
    return b;
#endif
  }

  // Permutation parity (inversions over all RC values, the blank as 0) plus the parity of
  // the blank's row + column: invariant under every move.
  unsigned parity(const State& s) const {
    unsigned inversions = 0;
    std::uint32_t seen = 0;
    for (int i = 0; i < n_; ++i) {
      const unsigned v = s.cells[i];
      inversions += static_cast<unsigned>(std::popcount(seen >> v));  // earlier values above v
      seen |= 1u << v;
    }
    const int b = blank(s);
    return (inversions + static_cast<unsigned>(b / cols_ + b % cols_)) & 1u;
  }

  State parse(std::string_view text) const {
    int values[kMaxCells + 1];
    const int count = parse_number_list(text, values, kMaxCells + 1, true, "tile number", "board");
    if (count != n_)
      throw InputError("a " + std::to_string(rows_) + "x" + std::to_string(cols_) + " board needs " + std::to_string(n_) +
                       " numbers (0 for the blank), got " + std::to_string(count));
    // Rows split by '/' must be the board's: "1 2 3 / 4 5 6 / 7 8 9 / 10 11 0" is no 3x4 board.
    if (const std::vector<int> rows = row_lengths(text);
        rows.size() > 1 && (rows.size() != static_cast<std::size_t>(rows_) || std::count(rows.begin(), rows.end(), cols_) != rows_))
      throw InputError("a " + std::to_string(rows_) + "x" + std::to_string(cols_) + " board split by '/' needs " + std::to_string(rows_) +
                       " rows of " + std::to_string(cols_) + " numbers: board \"" + printable(text) + "\" has rows of " + listed_lengths(rows));
    State s;
    std::uint32_t seen = 0;
    for (int c = 0; c < n_; ++c) {
      const int v = values[c];
      if (v >= n_)
        throw InputError("tile " + std::to_string(v) + " is out of range 0.." + std::to_string(n_ - 1) + " in board \"" +
                         printable(text) + "\"");
      if (seen & (1u << v)) throw InputError("tile " + std::to_string(v) + " appears twice in board \"" + printable(text) + "\"");
      seen |= 1u << v;
      s.cells[c] = static_cast<std::uint8_t>(v);
    }
    return s;  // either half: a target outside the start's is answered unreachable (same_component)
  }

  std::string format(const State& s) const {
    std::string out;
    for (int i = 0; i < n_; ++i) {
      if (i > 0) out += i % cols_ == 0 ? " / " : " ";
      out += std::to_string(s.cells[i]);
    }
    return out;
  }

 private:
  static constexpr int kDown = 0, kLeft = 1, kRight = 2, kUp = 3;

  int rows_;
  int cols_;
  int n_;
  std::array<std::array<std::int8_t, kMaxCells>, 4> target_{};  // blank's new cell, -1 off the board
  unsigned class_parity_ = 0;  // the invariant parity of the half the encoders rank
};

}  // namespace searchbench
