// searchbench: the command-line front end. Commands: run, compare, list, judge, export, each
// in its own file (cli/<command>_command.cpp); this file parses the command line and maps
// every error to one line on stderr and a non-zero exit status:
// 2 for bad input or a refused request, 3 for an exhausted budget (node budget, or a point
// query past the memory limit), 4 when the search was stopped before its end (memory ran
// out anyway, or --timeout passed), 5 for an internal error,
// 6 when the output could not be written (a full disk, a closed pipe); 1 when compare
// finds engines that disagree.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string_view>

#include "cli/common.hpp"
#include "cli/compare_command.hpp"
#include "cli/export_command.hpp"
#include "cli/judge_command.hpp"
#include "cli/list_command.hpp"
#include "cli/run_command.hpp"
#include "core/errors.hpp"
#include "core/interrupt.hpp"
#include "core/printable.hpp"

using namespace searchbench;
using cli::Json;

namespace {

// A failure reaches the user as one line on stderr and, under --json, also as one JSON object
// on stdout with the same message, so that a script reading stdout always gets an object to
// parse. The whole message is escaped again: CLI11's messages quote argv as given.
// `partial`: what a stopped search had done, under "partial" (null: nothing).
int report_failure(const std::string& message, int status, bool json, const Json& partial = nullptr) {
  const std::string line = printable(message);
  std::fprintf(stderr, "searchbench: %s\n", line.c_str());
  Json j{{"error", line}, {"exit_status", status}};
  if (!partial.is_null()) j["partial"] = partial;
  if (json) std::cout << j.dump() << "\n";
  return status;
}

// Whether a run, compare or list command line asks for JSON (--json, or --format json for
// run and compare), for the errors met while parsing it.
bool asks_for_json(int argc, char** argv) {
  const std::string_view command = argc > 1 ? argv[1] : "";
  if (command != "run" && command != "compare" && command != "list") return false;
  for (int i = 2; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--json" || (command != "list" && (arg == "--format=json" || (arg == "--format" && i + 1 < argc &&
                                                                             std::string_view(argv[i + 1]) == "json"))))
      return true;
  }
  return false;
}

int unknown_command(const std::string& name) {
  return report_failure("unknown command '" + name + "' (commands: run, compare, list, judge, export, help)", 2, false);
}

// An option given an empty value, which CLI11 would not refuse everywhere: `--pdb-cache=
// --json` takes the next argument as the value, and `--heuristic ''` quietly meant the
// default. "" when there is none.
std::string empty_option_value(int argc, char** argv) {
  for (int i = 2; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.starts_with("--") && arg.find('=') == arg.size() - 1)
      return std::string(arg.substr(0, arg.size() - 1)) + ": nothing after '=' (give a value, or leave the option out)";
    const std::string_view option = argv[i - 1];
    if (arg.empty() && option.starts_with("--") && option.find('=') == std::string_view::npos)
      return std::string(option) + ": must not be empty";
  }
  return {};
}

// CLI11 says "The following arguments were not expected: 0 8 7" for a board written without
// quotes, or "tiles-3x3" for a puzzle named without --puzzle: what to write instead ("" when
// neither is what happened).
std::string unexpected_arguments_hint(int argc, char** argv) {
  for (int i = 2; i + 2 < argc; ++i) {
    const std::string_view option = argv[i];
    if (option != "--start" && option != "--target") continue;
    std::string board;
    for (int j = i + 1; j < argc && std::string_view(argv[j]).substr(0, 2) != "--"; ++j) board += (board.empty() ? "" : " ") + std::string(argv[j]);
    if (board.find(' ') != std::string::npos)
      return std::string(option) + " takes the whole board as one argument: quote it, " + std::string(option) + " \"" + board + "\"";
  }
  // run, compare and export name their puzzle with --puzzle; judge takes one name, and list none.
  const std::string_view command = argv[1];
  if (argc > 2 && argv[2][0] != '-' && (command == "run" || command == "compare" || command == "export"))
    return "name the puzzle with --puzzle: --puzzle " + std::string(argv[2]);
  return {};
}

// An error ends a distributed run on every rank (the others may be waiting in a collective).
int fail(int status) {
  for (const auto& engine : engines())
    if (engine.end_job_on_error) engine.end_job_on_error(status);
  return status;
}

const char* const kOutput = R"(Output: run and compare print for people (a summary; tables ranked by time) and say on a
terminal's stderr how far they are; --format keys or json (run), md, csv or json (compare)
print for scripts, --json being --format json.)";

const char* const kExitCodes = R"(Exit status: 0 success; 1 compare found engines that disagree; 2 bad input or a refused
request; 3 a budget ran out (--node-budget, or a point query past --max-memory); 4 stopped
before the end: out of memory, or --timeout passed; 5 internal error; 6 the output could not
be written (full disk, closed pipe).)";

// The error of a command, mapped to its exit status (the JSON line too under --json).
template <class Command>
int run_mapping_errors(Command&& command, bool json) {
  try {
    return command();
  } catch (const Interrupted& e) {  // the files of the interrupted work are gone: end as the signal asked
    std::fflush(stdout);
    end_by_signal(e.signal);
  } catch (const InputError& e) {
    return fail(report_failure(e.what(), 2, json));
  } catch (const BudgetError& e) {
    return fail(report_failure(e.what(), 3, json));
  } catch (const TimeLimitReached& e) {
    return fail(report_failure(cli::time_limit_line(e), 4, json, cli::partial_statistics(e.at)));
  } catch (const std::bad_alloc&) {
    return fail(report_failure("out of memory", 4, json));
  } catch (const OutputError& e) {  // stdout itself may be what failed: nothing more goes there
    return fail(report_failure(e.what(), 6, false));
  } catch (const std::exception& e) {
    return fail(report_failure(std::string("internal error: ") + e.what(), 5, json));
  }
}

int run_cli(int argc, char** argv) {
  // `searchbench --version` alone is what scripts and judges start most often to probe the
  // binary: it is answered before any command object or flag tree exists (building them, and
  // CLI11's version exception unwinding through them, was most of its time in main). Any
  // other use of --version goes through the parser below and prints the same line.
  const std::string version_line = std::string("searchbench ") + cli::version();
  if (argc == 2 && std::string_view(argv[1]) == "--version") {
    std::cout << version_line << '\n';
    return 0;
  }
  CLI::App app{"searchbench: state-space search engines x state encoders x puzzles, cross-checked and measured"};
  app.option_defaults()->always_capture_default();
  app.set_version_flag("--version", version_line);
  app.footer(std::string(kOutput) + "\n\n" + kExitCodes);

  cli::RunCommand run;
  cli::CompareCommand compare;
  cli::ListCommand list;
  cli::JudgeCommand judge;
  ExportArgs export_args;
  CLI::App* run_cmd = nullptr;
  CLI::App* compare_cmd = nullptr;
  CLI::App* list_cmd = nullptr;
  CLI::App* judge_cmd = nullptr;
  if (argc < 2) {
    std::fprintf(stderr, "searchbench: a command is required: run, compare, list, judge or export (searchbench --help)\n");
    return 2;
  }
  const std::vector<std::string> commands = {"run", "compare", "list", "judge", "export"};
  const auto is_command = [&](const std::string& name) { return std::find(commands.begin(), commands.end(), name) != commands.end(); };
  const std::string first = argv[1];
  // The flags are built from what every plug-in declares, most of a start-up's own work, so
  // only the command named first is built (list also reads run's flags); a first argument
  // that is not a command (help, --help) builds them all, and --version none.
  const bool every_command = !is_command(first) && first != "--version";
  const auto wanted = [&](const std::string& name) { return every_command || first == name || (name == "run" && first == "list"); };
  try {
    if (wanted("run")) run_cmd = run.add_to(app);
    if (wanted("compare")) compare_cmd = compare.add_to(app);
    if (wanted("list")) list_cmd = list.add_to(app);
    if (wanted("judge")) judge_cmd = judge.add_to(app);
    if (wanted("export")) add_export_command(app, export_args);
  } catch (const std::exception& e) {
    return report_failure(std::string("internal error: ") + e.what(), 5, false);
  }

  // "searchbench help [command]" and unknown commands get an answer before CLI11's generic one.
  if (first == "help") {
    if (argc > 2 && !is_command(argv[2])) return unknown_command(argv[2]);
    std::cout << (argc > 2 ? app.get_subcommand(argv[2])->help() : app.help());
    return 0;
  }
  if (!first.empty() && first[0] != '-' && !is_command(first)) return unknown_command(first);
  if (const std::string why = empty_option_value(argc, argv); !why.empty()) return report_failure(why, 2, asks_for_json(argc, argv));
  app.require_subcommand(1);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ExtrasError& e) {
    const std::string hint = unexpected_arguments_hint(argc, argv);
    return report_failure(hint.empty() ? std::string(e.what()) : hint, 2, asks_for_json(argc, argv));
  } catch (const CLI::ParseError& e) {
    return report_failure(e.what(), 2, asks_for_json(argc, argv));
  }
  const auto parsed = [](const CLI::App* cmd) { return cmd && cmd->parsed(); };
  if (parsed(run_cmd)) return run_mapping_errors([&] { return run.run(); }, run.json());
  if (parsed(compare_cmd)) return run_mapping_errors([&] { return compare.run(); }, compare.json());
  if (parsed(list_cmd)) return run_mapping_errors([&] { return list.run(run); }, list.json());
  if (parsed(judge_cmd)) return run_mapping_errors([&] { return judge.run(); }, false);
  return run_mapping_errors([&] { return command_export(export_args); }, false);
}

}  // namespace

int main(int argc, char** argv) {
  // A closed pipe (searchbench export | head -1) makes a write fail with EPIPE, which the
  // error paths turn into one line and status 6, instead of SIGPIPE ending the process.
  std::signal(SIGPIPE, SIG_IGN);
  const int status = run_cli(argc, argv);
  // Everything above wrote to stdout through stdio (std::cout is synchronised with it), so
  // one flush and one error check catch a full disk or a closed stdout for every command.
  std::cout.flush();
  if ((std::fflush(stdout) != 0 || std::ferror(stdout) || !std::cout) && status == 0) {
    std::fprintf(stderr, "searchbench: cannot write the output: %s\n", errno ? std::strerror(errno) : "stdout failed");
    return 6;
  }
  return status;
}
