// The one registry that names every puzzle family, engine and encoder, says which
// combinations apply, and builds a type-erased Solver for a chosen combination. It reads
// two type lists: the engines (registry/engines.hpp) and the puzzle families with their
// encoders (registry/families.hpp). The CLI, the tests' cross-engine matrix and the
// benchmarks all loop over it, so a plug-in added to a list is covered everywhere.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/benchmark_plan.hpp"
#include "core/declared_options.hpp"
#include "core/result.hpp"
#include "core/search_options.hpp"
#include "registry/puzzle_instance.hpp"

namespace searchbench {

// A puzzle named by the user, checked by its family.
struct PuzzleSpec {
  std::string family;  // the family's name ("magic", "checkers", ...)
  std::string name;    // canonical name: "msquare" becomes "msquare-2x4"
};

// Throws InputError naming the problem (unknown family, malformed or unsupported size).
PuzzleSpec parse_puzzle(std::string_view name);
// The puzzle the commands take when given none: the first family's kDefaultPuzzle (else its
// first example).
std::string default_puzzle();

struct HeuristicInfo {
  std::string name, summary;
  std::vector<OptionSpec> options;  // its declared options (SolverConfig::heuristic_options)
  bool consistent = false;          // h(s) <= 1 + h(t) for every move s -> t
};

struct FamilyInfo {
  std::string name;
  std::string names;                  // the puzzle names it answers to, e.g. "checkers-N"
  std::string sizes;                  // the sizes it supports, e.g. "checkers-N N=1..32"
  std::vector<std::string> examples;  // puzzle names for `list` and the benchmarks, small to large
  std::vector<std::string> test_examples;  // small ones the cross-engine tests check every state of
  std::vector<std::string> encoders;  // every encoder of the family, in list order
  // The encoder of the family's classic contest solution, the reports' "x classic" yardstick
  // with the ring engine (empty: none).
  std::string classic_encoder;
  std::vector<OptionSpec> options;  // its text options (PuzzleConfig::text_options), e.g. --order
  std::string options_apply_to;     // how errors name the family's puzzles ("magic boards")
  BenchmarkPlan benchmark_plan;     // what the benchmarks run beyond whole-space runs of the examples
  std::vector<HeuristicInfo> heuristics;  // `blind` first; the last that fits an instance is its default
};
const std::vector<FamilyInfo>& families();

struct EngineInfo {
  std::string_view name;
  std::string_view summary;
  bool whole_space;   // explore(): whole-space search with per-depth counts
  bool uses_encoder;  // false: the engine keeps whole states (naive)
  bool threaded;      // honours --threads
  bool counts_only = false;    // whole-space counts only: no table of paths, no point queries
  bool perfect_only = false;   // runs only with encoders whose every key is a state
  bool distributed = false;  // runs across MPI ranks: whole-space counts only, tested under mpirun
  bool needs_inverse_moves = false;  // runs only on puzzles whose every move has an inverse move
  bool uses_heuristic = false;       // a heuristic search (--heuristic): point queries only
  bool any_optimal_path = false;     // returns an optimal path, not always the lexicographically smallest
  std::vector<OptionSpec> options;   // the options it declares (SolverConfig::engine_options)
  // Distributed engines' job hooks (core/engine_capabilities.hpp); null for the others.
  bool (*same_configuration_everywhere)(std::string_view canonical) = nullptr;
  void (*end_job_on_error)(int status) = nullptr;
};
const std::vector<EngineInfo>& engines();
const EngineInfo& engine_info(std::string_view name);  // throws InputError when unknown
// The engines others are checked against: the first serial whole-space engine that keeps a
// table of paths (its counts and lexicographically smallest paths are the reference), and
// the first blind point-query engine.
const EngineInfo& reference_table_engine();
const EngineInfo& reference_point_query_engine();
// Where an engine that this executable lacks lives ("the mpi engine is in the
// searchbench-mpi executable ..."); empty when the name is no such engine.
std::string engine_elsewhere(std::string_view name);

struct EncoderInfo {
  std::string name;
  std::string fit;  // empty when it fits the puzzle, else why not
  bool dense = false;
  bool perfect = false;  // every key below key_bound is a state (a ranking)
  std::uint64_t key_bound = 0;
};
// Every encoder of the puzzle's family, with whether and how it fits this size.
std::vector<EncoderInfo> encoders(const PuzzleSpec& puzzle);
// Whether `encoder` is one of the puzzle's perfect encoders (every key a state).
bool is_perfect_encoder(const PuzzleSpec& puzzle, std::string_view encoder);
// Whether every move of the puzzle has an inverse move (what engine `frontier` needs).
bool every_move_has_inverse(const PuzzleSpec& puzzle);
// The encoder names an engine runs with on this puzzle ({"none"} for naive; none at all
// when the engine cannot run on it).
std::vector<std::string> applicable_encoders(const PuzzleSpec& puzzle, std::string_view engine);

// The heuristics that fit the puzzle, in list order (the last is the default).
std::vector<std::string> applicable_heuristics(const PuzzleSpec& puzzle);
// Every heuristic of the puzzle's family with why it does not fit (empty when it does).
std::vector<std::pair<std::string, std::string>> heuristic_fits(const PuzzleSpec& puzzle);

// States reachable from the puzzle's default start.
std::uint64_t state_space_size(const PuzzleSpec& puzzle);

// A run's names resolved once: the puzzle and its family, the engine, and the encoder and
// heuristic with the registry's defaults applied where none is named (the family's perfect
// ranking; the last heuristic that fits, the strongest). The front end reads its defaults,
// options and sizes from it, so each rule is written once, here.
struct Selection {
  PuzzleSpec puzzle;
  const FamilyInfo* family = nullptr;
  const EngineInfo* engine = nullptr;
  std::string encoder;    // the canonical name; "none" for engines that keep whole states
  std::string heuristic;  // heuristic engines: the one chosen; else empty
  std::uint64_t states = 0;  // states reachable from the puzzle's default start
};
// InputError for an unknown puzzle or engine, and for a heuristic that is unknown or does
// not fit (an unknown encoder is refused when the solver is built, as make_solver does).
Selection resolve_selection(std::string_view puzzle, std::string_view engine, std::string_view encoder = {},
                            std::string_view heuristic = {});

struct SolverConfig {
  std::string puzzle = "msquare";
  std::string engine = "ring";
  std::string encoder;              // empty: "none" for naive, else the family's perfect ranking
  std::optional<std::string> start; // default: the puzzle's start
  SearchOptions options;
  OptionValues engine_options;      // the engine's declared options (EngineInfo::options), by name
  OptionValues text_options;        // the family's (FamilyInfo::options)
  // Heuristic engines: the heuristic (empty: the family's default for the puzzle) and its
  // declared options (HeuristicInfo::options).
  std::string heuristic;
  OptionValues heuristic_options;
};

// One runnable choice of engine, encoder and thread count for a puzzle.
struct Combination {
  std::string engine;
  std::string encoder;  // "none" for engines that keep whole states
  int threads = 1;
  std::string heuristic;  // heuristic engines only
  SolverConfig config(const std::string& puzzle) const;
};
// Every engine (only those that search the whole space when `whole_space_only`; never the
// distributed ones, which keep no table and run one MPI job per process) x every encoder
// that fits x each of `threads` for threaded engines (1 for serial ones), in the order of
// the engine and encoder lists; heuristic engines with the puzzle's default heuristic (none
// where blind is its only one), or with every heuristic that fits when `every_heuristic`
// (the blind one can take exponential time on the larger spaces).
std::vector<Combination> combinations(const PuzzleSpec& puzzle, const std::vector<int>& threads,
                                      bool whole_space_only = false, bool every_heuristic = false);

class Solver {
 public:
  virtual ~Solver() = default;
  // The puzzle services of the solver's puzzle and start (registry/puzzle_instance.hpp).
  virtual const PuzzleInstance& puzzle() const = 0;
  virtual std::string encoder_name() const = 0;
  // Bytes a whole-space run from the start needs (estimated before allocating anything).
  virtual std::uint64_t estimate_explore_bytes() const = 0;
  // Whole-space search from the start. Throws InputError for point-query-only engines.
  virtual SearchResult explore() = 0;
  // Point query from the start to `target` (parsed and checked by the puzzle).
  virtual SearchResult search(std::string_view target) = 0;
  // After explore(): path to `target` from the kept table; nullopt when not reached.
  // Throws InputError for engines that keep no table.
  virtual std::optional<std::string> table_path(std::string_view target) = 0;
};

// Throws InputError for unknown names, encoders that do not fit, bad start states, thread
// counts outside 1..kMaxThreads (above 1 for a serial engine), options the engine or the
// family does not declare and values they do not take.
std::unique_ptr<Solver> make_solver(const SolverConfig& config);

}  // namespace searchbench
