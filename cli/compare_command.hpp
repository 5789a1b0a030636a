// searchbench compare: every engine x encoder x thread count on one puzzle (or those that
// --engines and --encoders name), each with run's configuration and timing, ranked by time
// (cli/compare_output.hpp), and whether all of them agree (exit 1 when they do not; 4 when
// they do but a case was stopped by --timeout, its answers unchecked).
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "cli/common.hpp"

namespace searchbench::cli {

class CompareCommand {
 public:
  CLI::App* add_to(CLI::App& app);
  int run() const;
  // Whether failures are reported as JSON too (--json or --format json).
  bool json() const { return a_.json || a_.format == "json"; }

 private:
  struct Args {
    std::string puzzle = default_puzzle();
    std::string targets_file;
    int random = 0;
    std::vector<std::string> threads_text = {"1", "2"};  // --threads, read as text and split in run()
    std::uint64_t seed = 1;
    std::uint64_t max_memory = 0;
    double timeout = 0;  // seconds per case; 0: none
    int repetitions = kDefaultRepetitions;  // as run
    int warmup = kDefaultWarmup;
    std::vector<std::string> engines_text, encoders_text;  // --engines, --encoders: comma-separated names
    bool json = false;
    std::string format = "text";  // text, md, csv or json
  };
  std::vector<std::string> targets(const PuzzleInstance& puzzle, int random) const;
  // The cases to run: every engine x encoder x thread count that fits (point-query engines
  // only with targets), narrowed by --engines and --encoders; a name there with no case is refused.
  std::vector<Combination> chosen_cases(const PuzzleSpec& spec, bool no_targets) const;

  Args a_;
  CLI::Option* random_ = nullptr;
  CLI::Option* format_ = nullptr;
};

}  // namespace searchbench::cli
