// The one registry that names every puzzle, engine and encoder, says which combinations
// apply, and builds a type-erased Solver for a chosen combination. The CLI, the tests'
// cross-engine matrix and the benchmarks all loop over it, so a new engine or encoder
// registered here is covered everywhere with no further edits.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/edge_list.hpp"
#include "core/result.hpp"

namespace searchbench {

enum class PuzzleFamily { magic, checkers };

struct PuzzleSpec {
  PuzzleFamily family = PuzzleFamily::magic;
  std::string rules;  // "msquare" | "sicily1515" | "checkers"
  int size = 4;       // K for magic boards, N for checkers lines
  std::string name() const;
};

// "msquare" (= msquare-2x4), "msquare-2xK", "sicily1515" (= 2x4), "sicily1515-2xK",
// "checkers-N". Throws InputError naming the problem.
PuzzleSpec parse_puzzle(std::string_view name);

struct EngineInfo {
  std::string_view name;
  std::string_view summary;
  bool whole_space;   // explore(): whole-space search with per-depth counts
  bool uses_encoder;  // false: the engine keeps whole states (naive)
  bool threaded;      // honours --threads
  bool distributed;   // runs across MPI ranks: whole-space counts only, tested under mpirun
};
const std::vector<EngineInfo>& engines();
const EngineInfo& engine_info(std::string_view name);  // throws InputError when unknown

struct EncoderInfo {
  std::string name;
  std::string fit;  // empty when it fits the puzzle, else why not
  bool dense = false;
  std::uint64_t key_bound = 0;
};
// Every encoder of the puzzle's family, with whether and how it fits this size.
std::vector<EncoderInfo> encoders(const PuzzleSpec& puzzle);
// The encoder names an engine runs with on this puzzle ({"none"} for naive).
std::vector<std::string> applicable_encoders(const PuzzleSpec& puzzle, std::string_view engine);

// States reachable from the puzzle's default start.
std::uint64_t state_space_size(const PuzzleSpec& puzzle);

struct SolverConfig {
  std::string puzzle = "msquare";
  std::string engine = "ring";
  std::string encoder;              // empty: "none" for naive, else the family's perfect ranking
  std::optional<std::string> start; // default: the puzzle's start
  SearchOptions options;
};

class Solver {
 public:
  virtual ~Solver() = default;
  virtual std::string puzzle_name() const = 0;
  virtual std::string encoder_name() const = 0;
  virtual std::string start_text() const = 0;
  virtual std::uint64_t component_size() const = 0;
  // Bytes a whole-space run from the start needs (estimated before allocating anything).
  virtual std::uint64_t estimate_explore_bytes() const = 0;
  // Whole-space search from the start. Throws InputError for point-query-only engines.
  virtual SearchResult explore() = 0;
  // Point query from the start to `target` (parsed and checked by the puzzle).
  virtual SearchResult search(std::string_view target) = 0;
  // After explore(): path to `target` from the kept table; nullopt when not reached.
  // Throws InputError for engines that keep no table.
  virtual std::optional<std::string> table_path(std::string_view target) = 0;
  // Canonical text of a state given by the user (validates it).
  virtual std::string normalize_state(std::string_view text) const = 0;
  // A state in the start's component: the end of a seeded random walk of 1,000 moves.
  virtual std::string random_state(std::uint64_t seed) const = 0;
  // The state graph as an edge list of keys (core/edge_list.hpp). Throws InputError
  // unless every key of the encoder is a state.
  virtual EdgeListSummary export_edge_list(std::FILE* out) const = 0;
};

// Throws InputError for unknown names, encoders that do not fit, bad start states.
std::unique_ptr<Solver> make_solver(const SolverConfig& config);

}  // namespace searchbench
