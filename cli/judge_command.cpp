// searchbench judge NAME [--engine E] [--encoder C]: the judges with the registry behind them.
#include "cli/judge_command.hpp"

#include <string>
#include <vector>

#include "cli/judge_io.hpp"
#include "judges/registry_routes.hpp"
#include "registry/registry.hpp"

namespace searchbench::cli {

CLI::App* JudgeCommand::add_to(CLI::App& app) {
  std::vector<std::string> engine_names;
  for (const auto& e : engines()) engine_names.emplace_back(e.name);
  auto* cmd = app.add_subcommand("judge",
                                 "Answer a judge's input on stdin in its exact output format (searchbench-judge NAME: the same "
                                 "answers from a statically linked executable that starts faster)");
  cmd->footer(judge_formats());
  cmd->add_option("name", name_, judge_names(" | "))->required();
  cmd->add_option("--engine", options_.engine,
                  "route the cases through this engine of the registry (default: none, one search that keeps every "
                  "board's path, for fixed starts; a distance-only search from both boards for fzu1603)")
      ->check(CLI::IsMember(engine_names));
  cmd->add_option("--encoder", options_.encoder, "encoder for --engine (default: bitpack-implied / bitpack)");
  return cmd;
}

int JudgeCommand::run() const {
  const RegistryRoutes registry(options_);
  answer_judge_on_stdio(name_, registry.if_chosen());
  return 0;
}

}  // namespace searchbench::cli
