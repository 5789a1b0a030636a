// The engines behind the judges (judges/judges.cpp, the formats, is the only includer).
// The fixed-start judges (sicily1151, sicily1515, msquare) go through the registry: one
// whole-space run whose table answers every case (by default ring over bitpack-implied:
// its table keeps the move that first reached each board, so a case is a walk back from
// the target),
// or a point query per case for engines without one. fzu1603 has a different start per
// case, so each case is a point query: by default a distance-only bidirectional BFS
// (engines/bidir_distance.hpp) whose table and buffers serve every case, since the
// registry's engines build theirs per query and also rebuild a path the judge does not
// print; --engine/--encoder route each case through the registry instead. Every route gives
// the same answers (every engine finds the lexicographically smallest shortest path).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "encoders/checkers_combinatorial.hpp"
#include "encoders/magic_bitpack_implied.hpp"
#include "engines/ring_bfs.hpp"
#include "engines/bidir_distance.hpp"
#include "judges/judges.hpp"
#include "puzzles/checkers_line.hpp"
#include "puzzles/magic_board.hpp"
#include "registry/registry.hpp"

namespace searchbench::judge_routes {

// A judge's registry combination when --engine or --encoder is not given.
struct Route {
  std::string_view engine, encoder;
};
inline constexpr Route kFixedStart{"ring", "bitpack-implied"};  // the magic-board judges (fastest of the encoders)
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
// --encoder: one whole-space ring run over bitpack-implied, typed here, so that a case is a
// walk back from its board with no text in between (the registry takes boards as text: a
// case would be formatted and parsed again, about half of a case's time on sicily1151's
// 40,320 boards). With either option: the registry's combination, whole-space or one point
// query per case.
class FixedStartPaths {
 public:
  FixedStartPaths(const MagicBoard& board, const JudgeOptions& options)
      : FixedStartPaths(board, config(board.name(), kFixedStart, options), options.engine.empty() && options.encoder.empty()) {}
  // Several cases at once: the default route walks their paths interleaved.
  std::vector<std::optional<std::string>> paths(std::span<const MagicState> targets) {
    if (ring_) return ring_->engine.paths_to(targets);
    std::vector<std::optional<std::string>> out;
    out.reserve(targets.size());
    for (const MagicState& t : targets) out.push_back(path(t));
    return out;
  }
  std::optional<std::string> path(const MagicState& target) {
    if (ring_) return ring_->engine.path_to(target);
    const std::string text = board_.format(target);
    if (!point_queries_) return solver_->table_path(text);
    const SearchResult r = solver_->search(text);
    return r.found ? std::optional<std::string>(r.path) : std::nullopt;
  }

 private:
  // The default route's engine, with the encoder it refers to (and board_, declared first).
  struct DefaultRing {
    explicit DefaultRing(const MagicBoard& board) : encoder(board), engine(board, encoder) { engine.explore(board.start()); }
    MagicBitpackImplied encoder;
    RingBfs<MagicBoard, MagicBitpackImplied> engine;
  };
  static_assert(RingBfs<MagicBoard, MagicBitpackImplied>::kName == kFixedStart.engine && MagicBitpackImplied::kName == kFixedStart.encoder,
                "the typed default route is the combination kFixedStart names");
  FixedStartPaths(const MagicBoard& board, const SolverConfig& c, bool default_route) : board_(board) {
    if (default_route) {
      ring_ = std::make_unique<DefaultRing>(board_);
      return;
    }
    solver_ = make_solver(c);
    point_queries_ = !engine_info(c.engine).whole_space;
    if (!point_queries_) solver_->explore();
  }
  MagicBoard board_;
  std::unique_ptr<DefaultRing> ring_;
  std::unique_ptr<Solver> solver_;
  bool point_queries_ = false;
};

// fzu1603 without --engine/--encoder: distance-only bidirectional search over the
// combinatorial encoder's perfect keys; one puzzle instance and encoder per (N, '#' count),
// built at the first case that needs it, and one search object whose table and buffers
// every case reuses.
class CheckersDistances {
 public:
  // Lines whose largest component (C(N-1, k) * N keys) fits a direct table of this size.
  static constexpr Key kMaxTableBytes = Key{1} << 28;
  static bool fits(int cells) {
    return CheckersLine::binomial(cells - 1, (cells - 1) / 2) * static_cast<Key>(cells) <= kMaxTableBytes;
  }

  int distance(std::string_view a_text, std::string_view b_text) {
    const int cells = static_cast<int>(a_text.size());
    const CheckersLine any(cells);
    const CheckersState a = any.parse(a_text), b = any.parse(b_text);
    const int hashes = any.count(a, CheckersLine::kHash);
    if (hashes != any.count(b, CheckersLine::kHash)) return -1;
    auto& slot = instances_[{cells, hashes}];
    if (!slot) slot = std::make_unique<Instance>(cells, hashes);
    return search_.distance(slot->line, slot->encoder, a, b);
  }

 private:
  struct Instance {
    Instance(int cells, int hashes) : line(cells, hashes), encoder(line) {}
    CheckersLine line;
    CheckersCombinatorial encoder;
  };
  std::map<std::pair<int, int>, std::unique_ptr<Instance>> instances_;
  BidirDistance<CheckersLine, CheckersCombinatorial> search_;
};

// Fewest moves from `a` to `b` (validated here, InputError when bad), -1 when unreachable:
// through the registry when options are given or the line is too long for the direct table.
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
