// The searches behind the judges (judges/judges.cpp, the formats, is the only includer).
// The fixed-start judges (sicily1151, sicily1515, msquare) answer every case from one
// whole-space search: by default the path table (judges/magic_path_table.hpp), which keeps
// each board's whole path, so a case is one read; with --engine or --encoder the
// registry's combination (judges/registry_routes.cpp), whole-space or one point query per
// case. fzu1603 has a different start per case, so each case is a point query: by default a
// distance-only search from both boards over bit-packed keys (judges/checkers_meet.hpp) whose
// memory serves every case, since the registry's engines build theirs per query and also
// rebuild a path the judge does not print; --engine/--encoder route each case through the
// registry instead. Every route gives the same answers: every engine finds the
// lexicographically smallest shortest path, but for those that return any shortest path
// (astar), which the judges that print paths refuse.
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

namespace searchbench::judge_routes {

inline constexpr JudgeRoute kFixedStart{"ring", "bitpack-implied"};  // the magic-board judges with --engine or --encoder
inline constexpr JudgeRoute kCheckers{"bidir", "bitpack"};  // fzu1603 with --engine or --encoder

// "Path from the fixed start to this board" for a magic-board judge. Without a registry: the
// path table, typed here, so that a case is a read with no text in between (the registry
// takes boards as text: a case would be formatted and parsed again). With one: the
// registry's combination.
class FixedStartPaths {
 public:
  FixedStartPaths(const MagicBoard& board, const JudgeRegistry* registry) : board_(board) {
    if (registry)
      solver_ = registry->solver(board_.name(), std::nullopt, kFixedStart);
    else
      table_ = std::make_unique<MagicPathTable>(board_);
  }
  std::optional<std::string> path(const MagicState& target) {
    if (table_) return table_->path(target);
    return solver_->path(board_.format(target));
  }
  // The own route's table (null with a registry).
  const MagicPathTable* table() const { return table_.get(); }

 private:
  MagicBoard board_;
  std::unique_ptr<MagicPathTable> table_;
  std::unique_ptr<RoutedSolver> solver_;
};

// fzu1603 without --engine/--encoder: the meeting search over the classic keys (judges/
// checkers_meet.hpp), one object whose memory every case reuses.
class CheckersDistances {
 public:
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

// Fewest moves from `a` to `b` (validated, InputError when bad), -1 when unreachable: the
// meeting search without a registry, else a registry combination per case.
class CheckersOracle {
 public:
  explicit CheckersOracle(const JudgeRegistry* registry) : registry_(registry) {}
  int distance(std::string_view a, std::string_view b) {
    if (!registry_) return distances_.distance(a, b);
    const auto path = registry_->solver("checkers-" + std::to_string(a.size()), std::string(a), kCheckers)->path(b);
    return path ? static_cast<int>(path->size()) : -1;
  }

 private:
  const JudgeRegistry* registry_;
  CheckersDistances distances_;
};

}  // namespace searchbench::judge_routes
