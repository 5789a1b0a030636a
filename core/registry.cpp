#include "core/registry.hpp"

#include <charconv>

#include "core/errors.hpp"
#include "puzzles/checkers_line.hpp"
#include "puzzles/magic_board.hpp"

namespace searchbench {

std::vector<EncoderInfo> magic_encoders(const PuzzleSpec& spec);
std::vector<EncoderInfo> checkers_encoders(const PuzzleSpec& spec);
std::unique_ptr<Solver> make_magic_solver(const PuzzleSpec& spec, const SolverConfig& config);
std::unique_ptr<Solver> make_checkers_solver(const PuzzleSpec& spec, const SolverConfig& config);

std::string PuzzleSpec::name() const {
  if (family == PuzzleFamily::checkers) return "checkers-" + std::to_string(size);
  return rules + "-2x" + std::to_string(size);
}

namespace {

int parse_size(std::string_view text, std::string_view whole) {
  int value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size())
    throw InputError("malformed size in puzzle name '" + std::string(whole) + "'");
  return value;
}

}  // namespace

PuzzleSpec parse_puzzle(std::string_view name) {
  PuzzleSpec spec;
  auto magic = [&](std::string_view rules) {
    spec.family = PuzzleFamily::magic;
    spec.rules = std::string(rules);
    if (name.size() > rules.size()) {
      const std::string_view rest = name.substr(rules.size());
      if (rest.substr(0, 3) != "-2x")
        throw InputError("malformed puzzle name '" + std::string(name) + "' (expected " + std::string(rules) + "-2xK)");
      spec.size = parse_size(rest.substr(3), name);
    }
    // Constructing the board validates K and the rule set's constraints.
    MagicBoard(spec.size, spec.rules == "msquare" ? MagicRules::msquare : MagicRules::sicily1515);
    return spec;
  };
  if (name.substr(0, 7) == "msquare") return magic("msquare");
  if (name.substr(0, 10) == "sicily1515") return magic("sicily1515");
  if (name.substr(0, 9) == "checkers-") {
    spec.family = PuzzleFamily::checkers;
    spec.rules = "checkers";
    spec.size = parse_size(name.substr(9), name);
    CheckersLine line(spec.size);  // validates N
    return spec;
  }
  throw InputError("unknown puzzle '" + std::string(name) +
                   "' (choose msquare, msquare-2xK, sicily1515, sicily1515-2xK or checkers-N)");
}

const std::vector<EngineInfo>& engines() {
  static const std::vector<EngineInfo> list = {
      {"ring", "serial BFS, fixed circular queue, one byte per key", true, true, false, false},
      {"parallel", "level-synchronous BFS on oneTBB, atomic 2-bit visited array", true, true, true, false},
      {"bidir", "bidirectional BFS for point queries", false, true, false, false},
      {"iddfs", "iterative deepening DFS with move pruning and a transposition table", false, true, false, false},
      {"naive", "textbook BFS: std::queue of states with string paths, std::set visited", true, false, false, false},
#ifdef SEARCHBENCH_HAVE_MPI
      {"mpi", "level-synchronous BFS across MPI ranks (run under mpirun), a slice of 2-bit cells per rank", true, true, true, true},
#endif
  };
  return list;
}

const EngineInfo& engine_info(std::string_view name) {
  for (const auto& e : engines())
    if (e.name == name) return e;
  std::string known;
  for (const auto& e : engines()) known += (known.empty() ? "" : ", ") + std::string(e.name);
  throw InputError("unknown engine '" + std::string(name) + "' (choose one of: " + known + ")");
}

std::vector<EncoderInfo> encoders(const PuzzleSpec& puzzle) {
  return puzzle.family == PuzzleFamily::magic ? magic_encoders(puzzle) : checkers_encoders(puzzle);
}

std::vector<std::string> applicable_encoders(const PuzzleSpec& puzzle, std::string_view engine) {
  if (!engine_info(engine).uses_encoder) return {"none"};
  std::vector<std::string> names;
  for (const auto& e : encoders(puzzle))
    if (e.fit.empty()) names.push_back(e.name);
  return names;
}

std::uint64_t state_space_size(const PuzzleSpec& puzzle) {
  if (puzzle.family == PuzzleFamily::checkers) {
    const CheckersLine line(puzzle.size);
    return line.component_size(line.start());
  }
  const MagicBoard board(puzzle.size, puzzle.rules == "msquare" ? MagicRules::msquare : MagicRules::sicily1515);
  return board.component_size(board.start());
}

std::unique_ptr<Solver> make_solver(const SolverConfig& config) {
  const PuzzleSpec spec = parse_puzzle(config.puzzle);
  engine_info(config.engine);
  if (config.options.threads < 1)
    throw InputError("thread count must be a positive integer (got " + std::to_string(config.options.threads) + ")");
  return spec.family == PuzzleFamily::magic ? make_magic_solver(spec, config) : make_checkers_solver(spec, config);
}

}  // namespace searchbench
