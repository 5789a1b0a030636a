#include "cli/judge_command.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#include "core/errors.hpp"
#include "registry/registry.hpp"

namespace searchbench::cli {

CLI::App* JudgeCommand::add_to(CLI::App& app) {
  std::vector<std::string> engine_names;
  for (const auto& e : engines()) engine_names.emplace_back(e.name);
  auto* cmd = app.add_subcommand("judge", "Answer a judge's input on stdin in its exact output format");
  cmd->footer(judge_formats());
  cmd->add_option("name", name_, judge_names(" | "))->required();
  cmd->add_option("--engine", options_.engine,
                  "route the cases through this engine of the registry (default: ring, one whole-space run whose table "
                  "answers every case, for fixed starts; a distance-only bidirectional search for fzu1603)")
      ->check(CLI::IsMember(engine_names));
  cmd->add_option("--encoder", options_.encoder, "encoder for --engine (default: bitpack-implied / bitpack)");
  return cmd;
}

int JudgeCommand::run() const {
  validate_judge(name_, options_);  // before waiting for stdin
  std::string input;  // whole stdin in large blocks (istreambuf_iterator is several times slower)
  if (struct stat st; fstat(fileno(stdin), &st) == 0 && S_ISREG(st.st_mode)) input.reserve(static_cast<std::size_t>(st.st_size));
  char block[1 << 16];
  for (std::size_t n; (n = std::fread(block, 1, sizeof block, stdin)) > 0;) input.append(block, n);
  // A closed stdin or a folder would otherwise read as an empty input.
  if (std::ferror(stdin)) throw InputError(std::string("cannot read standard input: ") + std::strerror(errno));
  try {
    const std::string out = run_judge(name_, input, options_);
    std::fwrite(out.data(), 1, out.size(), stdout);
  } catch (const JudgeInputError& e) {
    std::fwrite(e.answered.data(), 1, e.answered.size(), stdout);
    if (std::fflush(stdout) != 0) throw OutputError(std::string("cannot write the output: ") + std::strerror(errno));
    throw;
  }
  return 0;
}

}  // namespace searchbench::cli
