// The engines behind the judges (judges/judges.cpp, the formats, is the only includer).
// The fixed-start judges (sicily1151, sicily1515, msquare) answer every case from one
// whole-space search: by default the path table (judges/magic_path_table.hpp), which keeps
// each board's whole path, so a case is one read; with --engine or --encoder the
// registry's combination, whole-space or one point query per case. fzu1603 has a different
// start per case, so each case is a point query: by default a distance-only search from both
// boards over bit-packed keys (judges/checkers_meet.hpp) whose memory serves every case,
// since the registry's engines build theirs per query and also rebuild a path the judge
// does not print; --engine/--encoder route each case through the registry instead. Every
// route gives the same answers (every engine finds the lexicographically smallest shortest
// path).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "encoders/checkers_maskhole.hpp"
#include "judges/checkers_meet.hpp"
#include "judges/judges.hpp"
#include "judges/magic_path_table.hpp"
#include "puzzles/checkers_line.hpp"
#include "puzzles/magic_board.hpp"
#include "registry/registry.hpp"

namespace searchbench::judge_routes {

// A judge's registry combination when --engine or --encoder is not given.
struct Route {
  std::string_view engine, encoder;
};
inline constexpr Route kFixedStart{"ring", "bitpack-implied"};  // the magic-board judges with --engine or --encoder
inline constexpr Route kCheckers{"bidir", "bitpack"};  // fzu1603 with --engine or --encoder

// The registry combination for `puzzle`: the options where given, else the route's (naive
// keeps whole states: no encoder unless one is asked for).
inline SolverConfig config(std::string puzzle, Route defaults, const JudgeOptions& options) {
  SolverConfig c;
  c.puzzle = std::move(puzzle);
  c.engine = options.engine.empty() ? std::string(defaults.engine) : options.engine;
  c.encoder = options.encoder.empty() && c.engine != "naive" ? std::string(defaults.encoder) : options.encoder;
  return c;
}

// "Path from the fixed start to this board" for a magic-board judge. Without --engine or
// --encoder: the path table, typed here, so that a case is a read with no text in between
// (the registry takes boards as text: a case would be formatted and parsed again). With
// either option: the registry's combination, whole-space or one point query per case.
class FixedStartPaths {
 public:
  FixedStartPaths(const MagicBoard& board, const JudgeOptions& options)
      : FixedStartPaths(board, config(board.name(), kFixedStart, options), options.engine.empty() && options.encoder.empty()) {}
  std::optional<std::string> path(const MagicState& target) {
    if (table_) return table_->path(target);
    const std::string text = board_.format(target);
    if (!point_queries_) return solver_->table_path(text);
    const SearchResult r = solver_->search(text);
    return r.found ? std::optional<std::string>(r.path) : std::nullopt;
  }
  // The default route's table (null with --engine or --encoder).
  const MagicPathTable* table() const { return table_.get(); }

 private:
  FixedStartPaths(const MagicBoard& board, const SolverConfig& c, bool default_route) : board_(board) {
    if (default_route) {
      table_ = std::make_unique<MagicPathTable>(board_);
      return;
    }
    solver_ = make_solver(c);
    point_queries_ = !engine_info(c.engine).whole_space;
    if (!point_queries_) solver_->explore();
  }
  MagicBoard board_;
  std::unique_ptr<MagicPathTable> table_;
  std::unique_ptr<Solver> solver_;
  bool point_queries_ = false;
};

// fzu1603 without --engine/--encoder: the meeting search over the classic keys (judges/
// checkers_meet.hpp), one object whose memory every case reuses.
class CheckersDistances {
 public:
  static bool fits(int cells) { return cells <= CheckersMeet::kMaxCells; }

  int distance(std::string_view a_text, std::string_view b_text) {
    const int cells = static_cast<int>(a_text.size());
    const CheckersLine any(cells);
    const CheckersState a = any.parse(a_text), b = any.parse(b_text);
    const int hashes = any.count(a, CheckersLine::kHash);
    if (hashes != any.count(b, CheckersLine::kHash)) return -1;
    const CheckersMaskHole keys{CheckersLine(cells, hashes)};
    return meet_.distance(cells, cells - 1 - hashes, static_cast<std::uint32_t>(keys.encode(a)), static_cast<std::uint32_t>(keys.encode(b)));
  }

 private:
  CheckersMeet meet_;
};

// Fewest moves from `a` to `b` (validated here, InputError when bad), -1 when unreachable:
// through the registry when options are given or the line is longer than the meeting search takes.
class CheckersOracle {
 public:
  explicit CheckersOracle(const JudgeOptions& options) : options_(options) {}
  int distance(std::string_view a, std::string_view b) {
    const bool registry = !options_.engine.empty() || !options_.encoder.empty();
    if (!registry && CheckersDistances::fits(static_cast<int>(a.size()))) return distances_.distance(a, b);
    SolverConfig c = config("checkers-" + std::to_string(a.size()), kCheckers, options_);
    c.start = std::string(a);
    auto solver = make_solver(c);
    solver->puzzle().normalize_state(b);  // validates B before any search
    const SearchResult r = solver->search(b);
    return r.found ? r.distance : -1;
  }

 private:
  JudgeOptions options_;
  CheckersDistances distances_;
};

}  // namespace searchbench::judge_routes
