#include "cli/judge_command.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#include "core/errors.hpp"
#include "registry/registry.hpp"

namespace searchbench::cli {

namespace {

const char* const kJudgeFormats = R"(Judges (input on stdin, output on stdout, in the judge's exact format):
  sicily1151  msquare rules, 2x4. Repeated blocks: a move limit N, then the target's 8 numbers
              in row order (top row, then bottom row). N = -1 or the end of input stops;
              nothing may follow the -1. Output per block: "M PATH" (e.g. "2 AB"), or -1
              when the shortest solution needs more than N moves.
  sicily1515  the same format under the sicily1515 rules (start 1 2 3 4 / 5 6 7 8).
  msquare     USACO Magic Squares: 8 numbers, the target in clockwise order (top row left to
              right, then bottom row right to left). Output: the length, then the smallest
              shortest path, 60 moves per line (an empty line when the length is 0).
  fzu1603     T, then T lines of two checkers lines A and B of equal length 1..20 ('#', '@'
              and one hole '&'). Output: the fewest moves from A to B per line, -1 when
              unreachable.
A bad case prints the answers before it, then one error line with its line number (exit 2).)";

}  // namespace

CLI::App* JudgeCommand::add_to(CLI::App& app) {
  std::vector<std::string> engine_names;
  for (const auto& e : engines()) engine_names.emplace_back(e.name);
  auto* cmd = app.add_subcommand("judge", "Answer a judge's input on stdin in its exact output format");
  cmd->footer(kJudgeFormats);
  cmd->add_option("name", name_, "sicily1151 | sicily1515 | msquare | fzu1603")->required();
  cmd->add_option("--engine", options_.engine,
                  "route the cases through this engine of the registry (default: a path table from one BFS for fixed starts, "
                  "a distance-only bidirectional search for fzu1603)")
      ->check(CLI::IsMember(engine_names));
  cmd->add_option("--encoder", options_.encoder, "encoder for --engine (default: cantor / bitpack)");
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
