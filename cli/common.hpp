// What the subcommands of the front end share: the JSON schema version, the text output of
// a JSON object, the timing of repetitions (median, min, max as hyperfine reports them),
// and the few words every help text and message builds from.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/number_text.hpp"
#include "cli/version.hpp"
#include "core/progress_reporter.hpp"
#include "registry/registry.hpp"

namespace searchbench::cli {

using Json = nlohmann::ordered_json;  // fields in the order docs/measurement.md's schema lists them

// Version 1: the fields the "JSON output" section of docs/measurement.md lists. Version 2 adds `context`
// to run and compare, `list --json`, and compare's `queries_per_second` on point-query rows
// (where version 1 wrote `states_per_second`).
inline constexpr int kSchemaVersion = 2;

// "a, b and c" (last_separator " and ") or "a, b, c" (", ").
std::string joined(const std::vector<std::string>& names, const std::string& last_separator = ", ");

// Help text from the registry's lists.
std::string threaded_engines();
std::string puzzle_sizes();
std::string encoder_names();
// "'idastar' and 'astar'": the engines that take --heuristic.
std::string heuristic_engines();
// Every family's heuristics ("tiles: blind, manhattan, ...; pancake: ...").
std::string heuristic_names();

int machine_cores();
// Peak resident memory of the whole process so far (the search structures, the program,
// the libraries, the allocator's slack).
std::uint64_t peak_rss_bytes();

// Median, min, max and every timed repetition, as hyperfine reports them.
struct Spread {
  std::vector<double> all;
  double median() const;
  double min() const;
  double max() const;
  void put(Json& j) const;
};

// --format and its alias --json (run and compare): the format asked for, `format` unless only
// --json was given. Both given with different formats is an InputError.
std::string chosen_format(const std::string& format, const CLI::Option* format_option, bool json);
// The --format option (one of `formats`, the first the default) with a help that says --json is its alias.
CLI::Option* add_format_option(CLI::App* cmd, std::string& format, const std::vector<std::string>& formats, const std::string& help);

// "unknown engine 'paralel' (did you mean 'parallel'? choose ring or parallel)"; `where`, when
// given, follows the name ("unknown encoder 'nible' for tiles-3x3 (...)").
std::string unknown_name(const std::string& what, const std::string& given, const std::vector<std::string>& known,
                         const std::string& where = "");
// A comma-separated list of names (compare --engines ring,parallel): no empty item, and each
// one of `known` (unless `known` is empty: checked once the puzzle is known), else refused
// with the closest names.
CLI::Validator name_list(const std::vector<std::string>& known, const std::string& what);
// The names of lists that name_list() has checked, in order, each once.
std::vector<std::string> split_names(const std::vector<std::string>& lists);

// Prints a JSON object as "name  value" lines with the same names (arrays space-separated;
// an object's fields as "name.field", e.g. context.date).
void print_text(const Json& j, const std::string& prefix = "");

// run's and compare's --repetitions and --warmup, one pair of defaults for both: one timed
// run, and a warm-up only when there are repetitions (-1: decided by warmup_runs).
inline constexpr int kDefaultRepetitions = 1;
inline constexpr int kDefaultWarmup = -1;
void add_repetition_options(CLI::App* cmd, int& repetitions, int& warmup);
inline int warmup_runs(int repetitions, int warmup) { return warmup >= 0 ? warmup : repetitions > 1 ? 1 : 0; }

// --max-memory: one budget for the whole run (core/memory_budget.hpp).
inline const char* const kMaxMemoryDefault = "the memory available; external stays within 1G";
CLI::Option* add_size_option(CLI::App* cmd, const char* name, std::uint64_t& value, const char* help);

// --timeout SECONDS (0: none), on run and compare.
CLI::Option* add_timeout_option(CLI::App* cmd, double& seconds, const char* help);
// A search stopped by its time limit: the one line that says where it was, and its partial
// statistics (the figures of its last progress event) as JSON.
std::string time_limit_line(const TimeLimitReached& e);
Json partial_statistics(const ProgressEvent& at);

}  // namespace searchbench::cli
