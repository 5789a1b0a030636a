// searchbench list: the registry (puzzles, engines, encoders, what fits), as text or as one
// JSON object for scripts.
#pragma once

#include <CLI/CLI.hpp>

#include "cli/run_command.hpp"

namespace searchbench::cli {

class ListCommand {
 public:
  CLI::App* add_to(CLI::App& app);
  // `run` tells which run options each engine honours.
  int run(const RunCommand& run) const;
  bool json() const { return json_; }

 private:
  bool json_ = false;
};

}  // namespace searchbench::cli
