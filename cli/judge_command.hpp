// searchbench judge NAME: a judge's input on stdin answered in its exact output format
// (judges/judges.hpp).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "judges/registry_routes.hpp"

namespace searchbench::cli {

class JudgeCommand {
 public:
  CLI::App* add_to(CLI::App& app);
  // Answers already computed are printed even when a later case is bad; then the error line.
  int run() const;

 private:
  std::string name_;
  JudgeOptions options_;
};

}  // namespace searchbench::cli
