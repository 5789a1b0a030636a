// searchbench run: a whole-space search from the start, or a point query with --target,
// timed over --repetitions; its options are the common ones plus what the engines and the
// puzzle families declare (cli/declared_flags.hpp).
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cli/common.hpp"
#include "cli/declared_flags.hpp"
#include "cli/progress.hpp"
#include "registry/registry.hpp"

namespace searchbench::cli {

// run's configuration of one engine, encoder and thread count, shared with compare (which
// measures what run measures): no table kept (so the parallel engine may count in its
// two-bit mode), the memory budget of --max-memory, no progress.
SolverConfig run_configuration(const std::string& puzzle, const std::string& engine, const std::string& encoder, int threads,
                               std::uint64_t max_memory);

class RunCommand {
 public:
  CLI::App* add_to(CLI::App& app);
  int run() const;
  // The run options `engine` honours (list --json): the common ones, --encoder where it
  // takes one, --threads where it is threaded, --target where it answers point queries, and
  // the options it declares.
  std::vector<std::string> options_of(const EngineInfo& engine) const;
  // Whether failures are reported as JSON too (--json or --format json).
  bool json() const { return a_.json || a_.format == "json"; }

 private:
  struct Args {
    std::string puzzle = default_puzzle();
    std::string engine = std::string(engines().front().name);  // the list's first: ring (mpi in searchbench-mpi)
    std::string encoder;
    std::string heuristic;  // empty: the puzzle's default, for heuristic engines
    int threads = 0;  // 0: every core for the threaded engines, 1 for the serial ones
    std::string start;
    std::string target;
    int max_depth = -1;
    std::uint64_t max_memory = 0;  // 0: not given
    double timeout = 0;            // seconds; 0: none
    int repetitions = kDefaultRepetitions;
    int warmup = kDefaultWarmup;  // -1: 1 when repetitions > 1, else 0
    bool json = false;
    std::string format = "text";  // text, keys or json
    bool progress = false;
    bool quiet = false;
  };
  // `progress`: the printer of --progress, where progress is shown (its line ends before output).
  SolverConfig configuration(const Selection& selection, int runs,
                             std::shared_ptr<ProgressPrinter>& progress) const;
  Json report(const Solver& solver, const SearchResult& r, const Spread& seconds, const SolverConfig& config,
              const std::string& target) const;

  Args a_;
  DeclaredFlags flags_;
  CLI::App* cmd_ = nullptr;
  CLI::Option* format_ = nullptr;
};

}  // namespace searchbench::cli
