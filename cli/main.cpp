// searchbench: the command-line front end. Commands: run, compare, list, judge, export.
// Every error reaches the user as one line on stderr and a non-zero exit status:
// 2 for bad input or a refused request, 3 for an exhausted budget (node budget, or a point
// query past the memory limit), 4 when memory ran out anyway, 5 for an internal error,
// 6 when the output could not be written (a full disk, a closed pipe); 1 when compare
// finds engines that disagree.
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <thread>

#include "cli/context.hpp"
#include "cli/export_command.hpp"
#include "cli/memory.hpp"
#include "cli/number_text.hpp"
#include "cli/progress.hpp"
#include "core/errors.hpp"
#include "core/interrupt.hpp"
#include "core/memory_limit.hpp"
#include "core/printable.hpp"
#include "core/timer.hpp"
#ifdef SEARCHBENCH_HAVE_MPI
#include "engines/mpi_bfs.hpp"
#endif
#include "judges/judges.hpp"
#include "puzzles/magic_board.hpp"
#include "registry/registry.hpp"

#ifndef SEARCHBENCH_VERSION
#define SEARCHBENCH_VERSION "unknown"
#endif
#ifndef SEARCHBENCH_COMMIT
#define SEARCHBENCH_COMMIT "unknown"
#endif

using namespace searchbench;
using Json = nlohmann::ordered_json;  // fields in the order the README's schema lists them

namespace {

// Version 1: the fields the README's "JSON output" section lists. Version 2 adds `context`
// to run and compare, `list --json`, and compare's `queries_per_second` on point-query rows
// (where version 1 wrote `states_per_second`).
constexpr int kSchemaVersion = 2;
const char* const kVersion = SEARCHBENCH_VERSION " (commit " SEARCHBENCH_COMMIT ")";

// "a, b and c" (last_separator " and ") or "a, b, c" (", ").
std::string joined(const std::vector<std::string>& names, const std::string& last_separator = ", ") {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) out += (i == 0 ? "" : i + 1 == names.size() ? last_separator : ", ") + names[i];
  return out;
}

// Help text from the registry's lists.
std::string threaded_engines() {
  std::vector<std::string> names;
  for (const auto& e : engines())
    if (e.threaded) names.emplace_back(e.name);
  return joined(names);
}
std::string puzzle_sizes() {
  std::vector<std::string> sizes;
  for (const auto& f : families()) sizes.push_back(f.sizes);
  return joined(sizes);
}
std::string encoder_names() {
  std::string out;
  for (const auto& f : families()) out += (out.empty() ? "" : "; ") + f.name + ": " + joined(f.encoders);
  return out;
}

// Engines that count whole spaces and answer no point queries: the counts-only ones and the
// distributed one, which keeps no paths either.
bool counts_whole_spaces_only(const EngineInfo& e) { return e.whole_space && (e.counts_only || e.distributed); }

int machine_cores() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

// Peak resident memory of the whole process so far (the search structures, the program,
// the libraries, the allocator's slack).
std::uint64_t peak_rss_bytes() {
  struct rusage usage {};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;  // Linux reports KiB
}

// Median, min, max and every timed repetition, as hyperfine reports them.
struct Spread {
  std::vector<double> all;
  double median() const {
    std::vector<double> s = all;
    std::sort(s.begin(), s.end());
    const std::size_t n = s.size();
    return n == 0 ? 0.0 : n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  }
  double min() const { return all.empty() ? 0.0 : *std::min_element(all.begin(), all.end()); }
  double max() const { return all.empty() ? 0.0 : *std::max_element(all.begin(), all.end()); }
  void put(Json& j) const {
    j["seconds"] = median();
    j["seconds_min"] = min();
    j["seconds_max"] = max();
    j["seconds_all"] = all;
  }
};

// 1.234 s, 12.3 ms, 45.6 us: small spaces never show as 0.
std::string human_seconds(double s) {
  char buf[32];
  if (s >= 1) std::snprintf(buf, sizeof buf, "%.3f s", s);
  else if (s >= 1e-3) std::snprintf(buf, sizeof buf, "%.3f ms", s * 1e3);
  else std::snprintf(buf, sizeof buf, "%.2f us", s * 1e6);
  return buf;
}

// Prints a JSON object as "name  value" lines with the same names (arrays space-separated;
// an object's fields as "name.field", e.g. context.date).
void print_text(const Json& j, const std::string& prefix = "") {
  for (const auto& [key, value] : j.items()) {
    if (value.is_object()) {
      print_text(value, prefix + key + ".");
      continue;
    }
    std::string text;
    auto one = [](const Json& v) {
      if (v.is_string()) return v.get<std::string>();
      if (v.is_number_float()) {
        char buf[40];
        std::snprintf(buf, sizeof buf, "%.9g", v.get<double>());
        return std::string(buf);
      }
      return v.dump();
    };
    if (value.is_array()) {
      for (const auto& v : value) text += (text.empty() ? "" : " ") + one(v);
    } else {
      text = one(value);
    }
    std::printf("%-18s %s\n", (prefix + key).c_str(), text.c_str());
  }
}

void add_repetition_options(CLI::App* cmd, int& repetitions, int& warmup) {
  cmd->add_option("--repetitions", repetitions, "timed runs of each case; the median, min, max and every time are reported")
      ->transform(cli::whole_number(1, 1'000'000));
  cmd->add_option("--warmup", warmup, "untimed runs before the timed ones")
      ->transform(cli::whole_number(0, 1'000'000))
      ->default_str("1 when --repetitions > 1, else 0");
}
int warmup_runs(int repetitions, int warmup) { return warmup >= 0 ? warmup : repetitions > 1 ? 1 : 0; }
// run's and compare's defaults, one pair for both: one timed run, and a warm-up only when
// there are repetitions (-1: decided by warmup_runs).
constexpr int kDefaultRepetitions = 1;
constexpr int kDefaultWarmup = -1;
// --max-memory unset: runs are refused past the memory available, and external keeps its
// working set within 1 GiB (SearchOptions::max_memory).
const char* const kMaxMemoryDefault = "the memory available; external stays within 1G";

// A magic board's text for run: rows split by '/' as written, or reordered from the
// clockwise order of the USACO judge. Without '/' and without --order the digits could
// mean either board, so the run is refused.
std::string board_text(const std::string& text, const PuzzleSpec& spec, const std::string& order, const char* option) {
  if (spec.family != "magic") {
    if (!order.empty()) throw InputError("--order applies to magic boards only");
    return text;
  }
  if (order == "rows") return text;
  if (order.empty()) {
    if (text.find('/') != std::string::npos) return text;
    throw InputError(std::string(option) + " '" + text +
                     "' could be read in row or in clockwise order: split the rows with '/' (e.g. 1 2 3 4 / 8 7 6 5) "
                     "or give --order rows|clockwise");
  }
  // Clockwise: the top row left to right, then the bottom row right to left.
  std::vector<std::string> cells;
  std::string cell;
  for (char ch : text + " ") {
    if (ch == ' ' || ch == '\t' || ch == ',' || ch == '/') {
      if (!cell.empty()) cells.push_back(cell);
      cell.clear();
    } else {
      cell += ch;
    }
  }
  const std::size_t k = cells.size() / 2;
  if (cells.size() % 2 != 0) return text;  // the puzzle's parser names the problem
  if (auto why = MagicBoard::row_split_problem(text); !why.empty()) throw InputError(why);
  std::string rows;
  for (std::size_t i = 0; i < k; ++i) rows += cells[i] + " ";
  rows += "/";
  for (std::size_t i = 0; i < k; ++i) rows += " " + cells[2 * k - 1 - i];
  return rows;
}

struct RunArgs {
  std::string puzzle = "msquare";
  std::string engine = "ring";
  std::string encoder;
  int threads = 0;  // 0: every core for the threaded engines, 1 for the serial ones
  std::string start;
  std::string target;
  std::string order;
  int max_depth = -1;
  std::uint64_t node_budget = SearchOptions{}.node_budget;
  std::uint64_t max_memory = 0;  // 0: not given
  int repetitions = kDefaultRepetitions;
  int warmup = kDefaultWarmup;  // -1: 1 when repetitions > 1, else 0
  bool json = false;
  bool progress = false;
  bool quiet = false;
  bool top_down = false;
  double bottom_up_ratio = SearchOptions{}.bottom_up_ratio;
  std::string workdir;
  bool resume = false;
  std::int64_t seed_keys = -1;  // -1: not given
};

SolverConfig config_of(const RunArgs& a, const PuzzleSpec& spec, int threads) {
  SolverConfig c;
  c.puzzle = a.puzzle;
  c.engine = a.engine;
  c.encoder = a.encoder;
  if (!a.start.empty()) c.start = board_text(a.start, spec, a.order, "--start");
  c.options.threads = threads;
  c.options.max_depth = a.max_depth;
  c.options.node_budget = a.node_budget;
  c.options.keep_table = false;
  c.options.bottom_up = !a.top_down;
  c.options.bottom_up_ratio = a.bottom_up_ratio;
  c.options.memory_limit = memory_limit(a.max_memory);
  c.options.workdir = a.workdir;
  c.options.resume = a.resume;
  c.options.max_memory = a.max_memory;
  if (a.seed_keys >= 0) c.options.seed_keys = static_cast<std::uint64_t>(a.seed_keys);
  if (!a.quiet && (a.progress || isatty(STDERR_FILENO))) {
    // One line per depth and heartbeats inside long ones (cli/progress.hpp); the percentage
    // and the time left are of the component, whose size is known up front.
    auto printer = std::make_shared<cli::ProgressPrinter>(state_space_size(spec));
    c.options.progress = [printer](const ProgressEvent& e) { printer->print(e); };
    c.options.heartbeat_seconds = cli::heartbeat_seconds_from_env(c.options.heartbeat_seconds);
  }
  return c;
}

// Creates `path` unless it is a folder already (its parent must exist, as for --workdir).
void make_folder(const std::string& path) {
  if (::mkdir(path.c_str(), 0755) == 0) return;
  const int error = errno;
  struct stat st {};
  if (error == EEXIST && ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) return;
  throw InputError("cannot create work folder '" + path + "': " + (error == EEXIST ? "not a folder" : std::strerror(error)));
}

int command_run(const RunArgs& a) {
  const cli::Context context;  // the date and the load average as the command starts
  const PuzzleSpec spec = parse_puzzle(a.puzzle);
  if (!a.order.empty() && spec.family != "magic") throw InputError("--order applies to magic boards only");
  const EngineInfo& engine = engine_info(a.engine);
  if ((!a.workdir.empty() || a.resume) && a.engine != "external")
    throw InputError("--workdir and --resume apply to engine 'external' only");
  if (a.seed_keys >= 0 && a.engine != "external") throw InputError("--seed-keys applies to engine 'external' only");
  if (a.resume && a.workdir.empty()) throw InputError("--resume needs the --workdir of the run to continue");
  if (a.resume && warmup_runs(a.repetitions, a.warmup) + a.repetitions > 1)
    throw InputError("--resume continues one run: give it neither --repetitions above 1 nor --warmup");
  if (!a.target.empty() && engine.counts_only)
    throw InputError("engine '" + a.engine + "' counts whole spaces only; use bidir for point queries");
  if (!engine.threaded && a.threads > 1) {
    std::vector<std::string> threaded;
    for (const auto& e : engines())
      if (e.threaded) threaded.push_back("'" + std::string(e.name) + "'");
    throw InputError("engine '" + a.engine + "' is serial; --threads applies to " + joined(threaded, " and ") + " only");
  }
  const int threads = a.threads > 0 ? a.threads : engine.threaded ? machine_cores() : 1;
  const SolverConfig config = config_of(a, spec, threads);
  const std::string target = a.target.empty() ? "" : board_text(a.target, spec, a.order, "--target");
  auto solver = make_solver(config);
#ifdef SEARCHBENCH_HAVE_MPI
  // Before any other collective, every rank of a distributed run checks that it runs rank
  // 0's search: all that decides the collectives, in canonical form (not --threads, which
  // may differ per rank). Ranks started differently all end with status 2, rank 0 saying why.
  if (engine.distributed &&
      !MpiWorld::get().require_same_configuration(
          "--engine " + a.engine + "\n--puzzle " + solver->puzzle_name() + "\n--encoder " + solver->encoder_name() +
          "\n--start " + solver->start_text() + "\n--target " + target + "\n--max-depth " + std::to_string(a.max_depth) +
          "\n--repetitions " + std::to_string(a.repetitions) + "\n--warmup " + std::to_string(warmup_runs(a.repetitions, a.warmup)) +
          "\n--top-down " + (a.top_down ? "yes" : "no") + "\n--bottom-up-ratio " + std::to_string(a.bottom_up_ratio) +
          "\n--node-budget " + std::to_string(a.node_budget) + "\n--max-memory " + std::to_string(a.max_memory) + "\n"))
    return 2;
#endif
  if (target.empty()) check_memory(solver->estimate_explore_bytes(), a.max_memory, solver->puzzle_name());
  const std::string target_text = target.empty() ? "" : solver->normalize_state(target);

  const int warmup = warmup_runs(a.repetitions, a.warmup);
  // A finished external run leaves its --workdir holding it, and a fresh run refuses such a
  // folder: with more than one run, each gets a fresh subfolder, warmup-1.. for the warm-ups
  // and rep-1.. for the timed runs.
  const bool subfolders = !a.workdir.empty() && warmup + a.repetitions > 1;
  if (subfolders) make_folder(a.workdir);
  Spread seconds;
  SearchResult r;
  for (int i = 0; i < warmup + a.repetitions; ++i) {
    if (subfolders) {
      RunArgs one = a;
      one.workdir = a.workdir + (i < warmup ? "/warmup-" + std::to_string(i + 1) : "/rep-" + std::to_string(i - warmup + 1));
      solver = make_solver(config_of(one, spec, threads));
    }
    SearchResult now = target.empty() ? solver->explore() : solver->search(target);
    if (i > 0 && (now.depth_counts != r.depth_counts || now.path != r.path || now.distance != r.distance))
      throw std::logic_error("a repetition gave a different answer");
    if (i >= warmup) seconds.all.push_back(now.seconds);
    now.peak_bytes = std::max(now.peak_bytes, r.peak_bytes);
    r = std::move(now);
  }

  Json j;
  j["schema_version"] = kSchemaVersion;
  j["searchbench"] = kVersion;
  j["puzzle"] = solver->puzzle_name();
  j["engine"] = a.engine;
  j["encoder"] = solver->encoder_name();
  j["threads"] = r.threads > 0 ? r.threads : threads;
  j["threads_requested"] = threads;
  j["cores"] = machine_cores();
  j["start"] = solver->start_text();
  j["max_depth"] = a.max_depth;
  if (target.empty()) {  // a point query covers part of the space: no totals to report
    // Cut short by --max-depth: states remained beyond the last depth searched.
    j["truncated"] = a.max_depth >= 0 && r.radius() == a.max_depth && r.states() < solver->component_size();
    j["states"] = r.states();
    j["radius"] = r.radius();
    j["depth_counts"] = r.depth_counts;
    if (!r.depth_seconds.empty()) {  // seconds from the start until each depth was done; null: not counted by this run
      Json times = Json::array();
      for (const auto& t : r.depth_seconds) times.push_back(t ? Json(*t) : Json(nullptr));
      j["depth_seconds"] = times;
    }
  } else {
    j["target"] = target_text;
    j["truncated"] = !r.found && a.max_depth >= 0;
    j["distance"] = r.found ? r.distance : -1;
    j["path"] = r.path;
  }
  j["repetitions"] = a.repetitions;
  j["warmup"] = warmup;
  seconds.put(j);
  if (target.empty()) j["states_per_second"] = seconds.median() > 0 ? static_cast<double>(r.states()) / seconds.median() : 0.0;
  j["expanded"] = r.expanded;
  j["generated"] = r.generated;
  j["peak_bytes"] = r.peak_bytes;
  j["peak_rss_bytes"] = peak_rss_bytes();
  if (r.out_of_core) {
    j["workdir"] = r.out_of_core->workdir;
    j["segments"] = r.out_of_core->segments;
    j["segment_keys"] = r.out_of_core->segment_keys;
    j["bytes_written"] = r.out_of_core->bytes_written;
    j["bytes_read"] = r.out_of_core->bytes_read;
    j["peak_disk_bytes"] = r.out_of_core->peak_disk_bytes;
    j["resumed_from"] = r.out_of_core->resumed_from;
  }
  if (engine.distributed) {
    j["ranks"] = r.ranks;
    j["bytes_exchanged"] = r.bytes_exchanged;
  }
  if (!r.reporting) return 0;  // a distributed run's ranks other than 0
  j["context"] = context.json();
  if (a.json) std::cout << j.dump() << "\n";
  else print_text(j);
  return 0;
}

// The run options an engine honours: those every engine takes, --encoder where it takes
// one, --threads where it is threaded, --target where it answers point queries, and the
// options whose help opens with its name ("parallel: ...", "external: ...").
std::vector<std::string> engine_options(const CLI::App& run_cmd, const EngineInfo& e) {
  std::vector<std::string> out;
  for (const CLI::Option* option : run_cmd.get_options()) {
    const std::string name = option->get_name();
    if (name.empty() || name == "--help") continue;
    const std::string& help = option->get_description();
    const auto colon = help.find(':');
    const std::string owner = colon == std::string::npos ? "" : help.substr(0, colon);
    const bool engine_specific = std::any_of(engines().begin(), engines().end(), [&](const EngineInfo& x) { return x.name == owner; });
    if (engine_specific ? owner != e.name
                        : (name == "--encoder" && !e.uses_encoder) || (name == "--threads" && !e.threaded) ||
                              (name == "--target" && counts_whole_spaces_only(e)))
      continue;
    out.push_back(name);
  }
  return out;
}

// The encoder the reports take for a family's classic contest solution, their "x classic"
// yardstick with the ring engine ("" for the families without one): a magic board packed
// three bits a cell, a checkers line as the hole's position and a mask of its pieces.
std::string classic_encoder(const std::string& family) {
  return family == "magic" ? "bitpack" : family == "checkers" ? "maskhole" : "";
}

// list --json: the registry in one object, for scripts.
Json list_json(const CLI::App& run_cmd) {
  Json doc;
  doc["schema_version"] = kSchemaVersion;
  doc["searchbench"] = kVersion;
  doc["engines"] = Json::array();
  for (const auto& e : engines()) {
    Json j;
    j["name"] = e.name;
    j["summary"] = e.summary;
    j["whole_space"] = e.whole_space;
    j["point_queries"] = !counts_whole_spaces_only(e);
    j["counts_only"] = counts_whole_spaces_only(e);
    j["threaded"] = e.threaded;
    j["uses_encoder"] = e.uses_encoder;
    j["perfect_only"] = e.perfect_only;
    j["needs_inverse_moves"] = e.needs_inverse_moves;
    j["distributed"] = e.distributed;
    j["options"] = engine_options(run_cmd, e);
    doc["engines"].push_back(j);
  }
  doc["families"] = Json::array();
  for (const auto& family : families()) {
    Json f;
    f["name"] = family.name;
    f["names"] = family.names;
    f["sizes"] = family.sizes;
    f["encoders"] = family.encoders;
    f["classic_encoder"] = classic_encoder(family.name);
    f["puzzles"] = Json::array();
    for (const auto& name : family.examples) {
      const PuzzleSpec spec = parse_puzzle(name);
      Json p;
      p["name"] = spec.name;
      p["states"] = state_space_size(spec);
      p["encoders"] = Json::array();
      for (const auto& e : encoders(spec)) {
        Json k;
        k["name"] = e.name;
        k["fits"] = e.fit.empty();
        if (!e.fit.empty()) k["why_not"] = e.fit;
        k["dense"] = e.dense;
        k["perfect"] = e.perfect;
        k["key_bound"] = e.key_bound;
        p["encoders"].push_back(k);
      }
      // What runs on it: each engine's encoders ("none" for naive; [] where it cannot run).
      p["combinations"] = Json::object();
      for (const auto& e : engines()) p["combinations"][std::string(e.name)] = applicable_encoders(spec, e.name);
      f["puzzles"].push_back(p);
    }
    doc["families"].push_back(f);
  }
  return doc;
}

int command_list(const CLI::App& run_cmd, bool json) {
  const cli::Context context;
  if (json) {
    Json doc = list_json(run_cmd);
    doc["context"] = context.json();
    std::cout << doc.dump() << "\n";
    return 0;
  }
  std::cout << "engines:\n";
  for (const auto& e : engines())
    std::printf("  %-9s %s%s\n", std::string(e.name).c_str(), std::string(e.summary).c_str(),
                e.whole_space ? (counts_whole_spaces_only(e) ? " [whole-space counts only]" : "") : " [point queries only]");
  std::size_t encoder_width = 0;
  for (const auto& family : families())
    for (const auto& name : family.encoders) encoder_width = std::max(encoder_width, name.size());
  const int ew = static_cast<int>(encoder_width);
  std::cout << "\npuzzles (sizes: " << puzzle_sizes() << "):\n";
  for (const auto& family : families()) {
    for (const auto& name : family.examples) {
      const PuzzleSpec spec = parse_puzzle(name);
      std::printf("  %-15s %llu states from the default start\n", name.c_str(),
                  static_cast<unsigned long long>(state_space_size(spec)));
      for (const auto& e : encoders(spec)) {
        if (e.fit.empty())
          std::printf("      %-*s %s, key bound %llu\n", ew, e.name.c_str(), e.dense ? "dense (direct table)" : "sparse (hashed)",
                      static_cast<unsigned long long>(e.key_bound));
        else
          std::printf("      %-*s does not fit: %s\n", ew, e.name.c_str(), e.fit.c_str());
      }
    }
  }
  std::vector<std::string> whole_states, point_only, counts_only, perfect_only;
  for (const auto& e : engines()) {
    if (!e.uses_encoder) whole_states.emplace_back(e.name);
    if (!e.whole_space) point_only.emplace_back(e.name);
    if (counts_whole_spaces_only(e)) counts_only.emplace_back(e.name);
    if (e.perfect_only) perfect_only.emplace_back(e.name);
  }
  std::cout << "\ncombinations: every engine runs with every encoder that fits";
  if (!perfect_only.empty()) std::cout << " (" << joined(perfect_only, " and ") << " with the perfect ones only)";
  std::cout << "; " << joined(whole_states, " and ") << " takes none;\n" << joined(point_only, " and ")
            << " answer point queries (--target) only";
  if (!counts_only.empty()) std::cout << "; " << joined(counts_only, " and ") << (counts_only.size() > 1 ? " count" : " counts")
                                      << " whole spaces only";
  std::cout << ".\n";
  return 0;
}

struct CompareArgs {
  std::string puzzle = "msquare";
  std::string targets_file;
  int random = 0;
  std::vector<int> threads = {1, 2};
  std::uint64_t seed = 1;
  std::uint64_t max_memory = 0;
  int repetitions = kDefaultRepetitions;  // as run
  int warmup = kDefaultWarmup;
  bool json = false;
};

// Random targets compare draws when given neither --targets nor --random, so that the
// point-query engines (bidir, iddfs) are always compared too.
constexpr int kDefaultRandomTargets = 20;

// One engine x encoder x threads case of compare, timed over the repetitions.
struct CompareRow {
  std::string engine, encoder;
  int threads_requested = 1, threads = 1;
  Spread seconds;
  double work = 0;  // states explored (whole-space engines) or queries answered
  std::uint64_t peak_bytes = 0;
  std::vector<std::uint64_t> depth_counts;  // whole-space engines only
  std::vector<std::string> answers;         // one path per target, "-" when unreachable
  bool table_counts_agree = true;           // the untimed run that kept its table counted the same
};

CompareRow measure_case(const CompareArgs& a, const PuzzleSpec& spec, const Combination& combination,
                        const std::vector<std::string>& targets) {
  const EngineInfo& engine = engine_info(combination.engine);
  const std::string& encoder = combination.encoder;
  const int threads = combination.threads;
  // run's own configuration for this engine, encoder and thread count (no table kept, so
  // the parallel engine may count in its two-bit mode), and run's timing: the search only.
  RunArgs as_run;
  as_run.puzzle = a.puzzle;
  as_run.engine = combination.engine;
  as_run.encoder = encoder;
  as_run.max_memory = a.max_memory;
  as_run.quiet = true;
  const SolverConfig c = config_of(as_run, spec, threads);
  auto solver = make_solver(c);
  CompareRow row;
  row.engine = c.engine;
  row.encoder = encoder;
  row.threads_requested = threads;
  const int warmup = warmup_runs(a.repetitions, a.warmup);
  for (int i = 0; i < warmup + a.repetitions; ++i) {
    SearchResult whole;
    std::vector<std::string> answers;
    double seconds = 0;
    if (engine.whole_space) {
      whole = solver->explore();
      seconds = whole.seconds;
    } else {
      for (const auto& t : targets) {
        const SearchResult r = solver->search(t);
        answers.push_back(r.found ? r.path : "-");
        seconds += r.seconds;
        whole.peak_bytes = std::max(whole.peak_bytes, r.peak_bytes);
      }
    }
    if (i > 0 && (answers != row.answers || whole.depth_counts != row.depth_counts))
      throw std::logic_error("a repetition of " + row.engine + "/" + encoder + " gave a different answer");
    if (i >= warmup) row.seconds.all.push_back(seconds);
    row.answers = std::move(answers);
    row.depth_counts = whole.depth_counts;
    row.threads = whole.threads > 0 ? whole.threads : threads;
    row.peak_bytes = std::max(row.peak_bytes, whole.peak_bytes);
    row.work = engine.whole_space ? static_cast<double>(whole.states()) : static_cast<double>(targets.size());
  }
  // A whole-space engine answers the targets from its table of paths: one more run, untimed
  // and left out of peak_bytes, that keeps the table. Counts-only engines keep none: their
  // counts are compared, not their answers.
  if (engine.whole_space && !engine.counts_only && !targets.empty()) {
    SolverConfig keep = c;
    keep.options.keep_table = true;
    auto table = make_solver(keep);
    const SearchResult whole = table->explore();
    row.table_counts_agree = whole.depth_counts == row.depth_counts;
    for (const auto& t : targets) {
      auto p = table->table_path(t);
      row.answers.push_back(p ? *p : "-");
    }
  }
  return row;
}

int command_compare(const CompareArgs& a, bool random_given) {
  const cli::Context context;  // the date and the load average as the command starts
  const PuzzleSpec spec = parse_puzzle(a.puzzle);
  std::vector<std::string> targets;
  if (!a.targets_file.empty()) {
    std::ifstream f(a.targets_file);
    if (!f) throw InputError("cannot read targets file '" + a.targets_file + "'");
    for (std::string line; std::getline(f, line);)
      if (line.find_first_not_of(" \t\r") != std::string::npos) targets.push_back(line);
  }
  const int random = a.targets_file.empty() && !random_given ? kDefaultRandomTargets : a.random;
  {
    SolverConfig probe;
    probe.puzzle = a.puzzle;
    auto s = make_solver(probe);
    for (auto& t : targets) t = s->normalize_state(t);
    std::mt19937_64 rng(a.seed);
    for (int i = 0; i < random; ++i) targets.push_back(s->random_state(rng()));
    check_memory(s->estimate_explore_bytes(), a.max_memory, s->puzzle_name());
  }
  std::string target_note = std::to_string(targets.size()) + " targets";
  if (!a.targets_file.empty()) target_note += " from " + a.targets_file;
  if (random > 0) target_note += (a.targets_file.empty() ? ": " : " and ") + std::to_string(random) + " random (seed " +
                                 std::to_string(a.seed) + ")";
  if (a.targets_file.empty() && !random_given)
    target_note += "; the default when neither --targets nor --random is given";
  if (targets.empty()) target_note += "; bidir and iddfs need targets and are left out";

  const int warmup = warmup_runs(a.repetitions, a.warmup);
  Json doc;
  doc["schema_version"] = kSchemaVersion;
  doc["searchbench"] = kVersion;
  doc["puzzle"] = spec.name;
  doc["targets"] = targets.size();
  doc["targets_note"] = target_note;
  doc["cores"] = machine_cores();
  doc["repetitions"] = a.repetitions;
  doc["warmup"] = warmup;
  doc["rows"] = Json::array();
  const std::vector<Combination> cases = combinations(spec, a.threads, targets.empty());
  // Column widths: the names and thread counts are known before any case runs, so they size
  // their columns; times, rates and sizes fit theirs (human_seconds up to 27 hours,
  // rates up to 10^14 per second, human_bytes up to 1023 TiB).
  int engine_width = 6, encoder_width = 7, threads_width = 7;
  for (const auto& k : cases) {
    engine_width = std::max(engine_width, static_cast<int>(k.engine.size()));
    encoder_width = std::max(encoder_width, static_cast<int>(k.encoder.size()));
    threads_width = std::max(threads_width, static_cast<int>(std::to_string(k.threads).size()));
  }
  constexpr int kTimeWidth = 11, kRateWidth = 14, kUnitWidth = 9, kPeakWidth = 11;
  if (!a.json) {
    std::printf("%s\n", target_note.c_str());
    std::printf("%-*s %-*s %*s %*s %*s %*s %*s %-*s %*s  %s\n", engine_width, "engine", encoder_width, "encoder", threads_width,
                "threads", kTimeWidth, "median", kTimeWidth, "min", kTimeWidth, "max", kRateWidth, "rate", kUnitWidth, "",
                kPeakWidth, "peak", "agrees");
  }

  bool have_reference = false, all_agree = true;
  std::vector<std::uint64_t> ref_counts;
  std::vector<std::string> ref_answers;
  for (const Combination& combination : cases) {
    const EngineInfo& engine = engine_info(combination.engine);
    const CompareRow row = measure_case(a, spec, combination, targets);
    bool agrees = true;
    if (engine.whole_space) {
      if (ref_counts.empty()) ref_counts = row.depth_counts;
      agrees = row.depth_counts == ref_counts;
    }
    if (!have_reference && !engine.counts_only) {
      ref_answers = row.answers;
      have_reference = true;
    }
    agrees = agrees && row.table_counts_agree && (engine.counts_only || row.answers == ref_answers);
    all_agree = all_agree && agrees;
    const double median = row.seconds.median();
    const double rate = median > 0 ? row.work / median : 0.0;
    Json j;
    j["engine"] = row.engine;
    j["encoder"] = row.encoder;
    j["threads"] = row.threads;
    j["threads_requested"] = row.threads_requested;
    row.seconds.put(j);
    j[engine.whole_space ? "states_per_second" : "queries_per_second"] = rate;
    j["peak_bytes"] = row.peak_bytes;
    j["agrees"] = agrees;
    doc["rows"].push_back(j);
    if (!a.json)
      std::printf("%-*s %-*s %*d %*s %*s %*s %*.0f %-*s %*s  %s\n", engine_width, row.engine.c_str(), encoder_width,
                  row.encoder.c_str(), threads_width, row.threads, kTimeWidth, human_seconds(median).c_str(), kTimeWidth,
                  human_seconds(row.seconds.min()).c_str(), kTimeWidth, human_seconds(row.seconds.max()).c_str(), kRateWidth,
                  rate, kUnitWidth, engine.whole_space ? "states/s" : "queries/s", kPeakWidth,
                  human_bytes(row.peak_bytes).c_str(), agrees ? "yes" : "NO");
  }
  doc["all_agree"] = all_agree;
  doc["peak_rss_bytes"] = peak_rss_bytes();
  doc["context"] = context.json();
  if (a.json) std::cout << doc.dump() << "\n";
  else
    std::printf("times over %d repetition(s) after %d warm-up run(s), as run times them: the search only, with run's "
                "settings;\nstates/s for whole-space engines, queries/s (targets answered) for point queries; the "
                "whole-space engines' paths come from one more untimed run that keeps its table\n",
                a.repetitions, warmup);
  if (!all_agree) {
    std::fprintf(stderr, "searchbench: engines disagree on %s\n", a.puzzle.c_str());
    return 1;
  }
  return 0;
}

// A failure reaches the user as one line on stderr and, under --json, also as one JSON object
// on stdout with the same message, so that a script reading stdout always gets an object to
// parse. The whole message is escaped again: CLI11's messages quote argv as given.
int report_failure(const std::string& message, int status, bool json) {
  const std::string line = printable(message);
  std::fprintf(stderr, "searchbench: %s\n", line.c_str());
  if (json) std::cout << Json{{"error", line}, {"exit_status", status}}.dump() << "\n";
  return status;
}

// Whether a run, compare or list command line asks for JSON, for the errors met while parsing it.
bool asks_for_json(int argc, char** argv) {
  const std::string_view command = argc > 1 ? argv[1] : "";
  if (command != "run" && command != "compare" && command != "list") return false;
  for (int i = 2; i < argc; ++i)
    if (std::string_view(argv[i]) == "--json") return true;
  return false;
}

int unknown_command(const std::string& name) {
  return report_failure("unknown command '" + name + "' (commands: run, compare, list, judge, export, help)", 2, false);
}

// An error ends a distributed run on every rank (the others may be waiting in a collective).
int fail(int status) {
#ifdef SEARCHBENCH_HAVE_MPI
  MpiWorld::abort_job_if_distributed(status);
#endif
  return status;
}

// Answers already computed are printed even when a later case is bad; then the error line.
int command_judge(const std::string& name, const JudgeOptions& options) {
  validate_judge(name, options);  // before waiting for stdin
  std::string input;  // whole stdin in large blocks (istreambuf_iterator is several times slower)
  if (struct stat st; fstat(fileno(stdin), &st) == 0 && S_ISREG(st.st_mode)) input.reserve(static_cast<std::size_t>(st.st_size));
  char block[1 << 16];
  for (std::size_t n; (n = std::fread(block, 1, sizeof block, stdin)) > 0;) input.append(block, n);
  // A closed stdin or a folder would otherwise read as an empty input.
  if (std::ferror(stdin)) throw InputError(std::string("cannot read standard input: ") + std::strerror(errno));
  try {
    const std::string out = run_judge(name, input, options);
    std::fwrite(out.data(), 1, out.size(), stdout);
  } catch (const JudgeInputError& e) {
    std::fwrite(e.answered.data(), 1, e.answered.size(), stdout);
    if (std::fflush(stdout) != 0) throw OutputError(std::string("cannot write the output: ") + std::strerror(errno));
    throw;
  }
  return 0;
}

const std::string kJudgeFormats = judge_formats();

const char* const kExitCodes = R"(Exit status: 0 success; 1 compare found engines that disagree; 2 bad input or a refused
request; 3 a budget ran out (--node-budget, or a point query past --max-memory); 4 out of
memory; 5 internal error; 6 the output could not be written (full disk, closed pipe).)";

int run_cli(int argc, char** argv) {
  CLI::App app{"searchbench: state-space search engines x state encoders x puzzles, cross-checked and measured"};
  app.option_defaults()->always_capture_default();
  app.set_version_flag("--version", std::string("searchbench ") + kVersion);
  app.footer(kExitCodes);

  std::vector<std::string> engine_names;
  for (const auto& e : engines()) engine_names.emplace_back(e.name);
  // Every number an option takes is read through cli/number_text.hpp's one grammar (a
  // transform, since it hands CLI11 the value back in plain decimal).
  const CLI::Validator kThreadCount = cli::whole_number(1, kMaxThreads);
  const CLI::Validator kNonNegative = cli::whole_number(0, std::numeric_limits<long long>::max());
  const CLI::Validator kNotBlank(
      [](std::string& s) -> std::string {
        return s.find_first_not_of(" \t\r\n") == std::string::npos ? "must not be empty" : "";
      },
      "");
  auto size_option = [&](CLI::App* cmd, const char* name, std::uint64_t& value, const char* help) {
    return cmd->add_option(name, value, help)->transform(cli::size_text());
  };

  RunArgs run;
  auto* run_cmd = app.add_subcommand("run", "Whole-space search from the start, or a point query with --target");
  run_cmd->footer(
      "Magic boards are written in row order with the rows split by '/' (1 2 3 4 / 8 7 6 5); without the '/' say\n"
      "--order rows or --order clockwise (the USACO judge's order). Checkers lines: ##&@@.");
  run_cmd->add_option("--puzzle", run.puzzle, puzzle_sizes());
  run_cmd->add_option("--engine", run.engine, "engine")->check(CLI::IsMember(engine_names));
  run_cmd->add_option("--encoder", run.encoder, encoder_names() + " (default: the puzzle's perfect ranking)");
  run_cmd->add_option("--threads", run.threads, "worker threads, 1.." + std::to_string(kMaxThreads) + " (engines: " + threaded_engines() + ")")
      ->transform(kThreadCount)
      ->default_str("every core for the threaded engines (" + threaded_engines() + "), 1 for the others");
  run_cmd->add_option("--start", run.start, "start state (default: the puzzle's start)")->check(kNotBlank);
  run_cmd->add_option("--target", run.target, "target state: point query instead of a whole-space run")->check(kNotBlank);
  run_cmd->add_option("--order", run.order, "how a magic board without '/' is written")
      ->check(CLI::IsMember({"rows", "clockwise"}));
  run_cmd->add_option("--max-depth", run.max_depth, "stop after this many moves (-1: no limit)")
      ->transform(cli::whole_number(-1, std::numeric_limits<int>::max()));
  run_cmd->add_option("--node-budget", run.node_budget, "iddfs: nodes to expand before giving up")->transform(kNonNegative);
  size_option(run_cmd, "--max-memory", run.max_memory,
              "refuse runs whose search structures need more, e.g. 512M, 4G; external: also the memory it stays within")
      ->default_str(kMaxMemoryDefault);
  add_repetition_options(run_cmd, run.repetitions, run.warmup);
  run_cmd->add_flag("--json", run.json, "print one JSON object (fields: README, JSON output)");
  run_cmd->add_flag("--progress", run.progress, "print one line per depth on stderr (default: when stderr is a terminal)");
  run_cmd->add_flag("--quiet", run.quiet, "never print progress");
  run_cmd->add_flag("--top-down", run.top_down, "parallel: never switch a level to bottom-up (for comparison)");
  run_cmd->add_option("--bottom-up-ratio", run.bottom_up_ratio,
                      "parallel: a level runs bottom-up once its frontier outnumbers the unseen states by this factor")
      ->transform(cli::decimal_fraction("a bottom-up ratio"));
  run_cmd->add_option("--workdir", run.workdir,
                      "external: folder for the on-disk cells, successor lists and checkpoint, locked while a run uses it; "
                      "with more than one run (--repetitions, --warmup) each gets a fresh subfolder, warmup-N or rep-N")
      ->default_str("a temporary folder $TMPDIR/searchbench-external-XXXXXX (/tmp without TMPDIR), removed at the end and on "
                    "SIGINT, SIGTERM or SIGHUP");
  run_cmd->add_flag("--resume", run.resume,
                    "external: continue the run recorded in --workdir from its last checkpoint, to --max-depth or the end; "
                    "a damaged or foreign folder is refused");
  run_cmd->add_option("--seed-keys", run.seed_keys,
                      "external: keys a fresh run's first depths may hold in memory before the passes over the segments "
                      "take over (0: passes from depth 0)")
      ->transform(cli::whole_number(0, std::numeric_limits<std::int64_t>::max()))
      ->default_str("what --max-memory holds");

  CompareArgs compare;
  auto* compare_cmd = app.add_subcommand("compare", "Run every engine x encoder and check that all answers agree");
  compare_cmd->add_option("--puzzle", compare.puzzle, "puzzle name (see list)");
  compare_cmd->add_option("--targets", compare.targets_file, "file with one target state per line, rows split by '/'")
      ->check(CLI::ExistingFile);
  auto* random_opt = compare_cmd
                         ->add_option("--random", compare.random,
                                      "add N random reachable targets")
                         ->transform(cli::whole_number(0, 1'000'000))
                         ->default_str(std::to_string(kDefaultRandomTargets) + " without --targets, else 0");
  compare_cmd->add_option("--seed", compare.seed, "seed for the random targets")
      ->transform(cli::whole_number(0, std::numeric_limits<std::uint64_t>::max()));
  // Read as text and split here: CLI11's delimiter drops the empty item of "1,,2" silently.
  std::vector<std::string> compare_threads;
  for (const int t : compare.threads) compare_threads.push_back(std::to_string(t));
  compare_cmd->add_option("--threads", compare_threads, "thread counts for the threaded engines (" + threaded_engines() + "), 1.." + std::to_string(kMaxThreads))
      ->type_name("INT")
      ->transform(cli::whole_number_list(1, kMaxThreads));
  size_option(compare_cmd, "--max-memory", compare.max_memory,
              "refuse cases needing more, as run does; external: also the memory it stays within")
      ->default_str(kMaxMemoryDefault);
  add_repetition_options(compare_cmd, compare.repetitions, compare.warmup);
  compare_cmd->add_flag("--json", compare.json, "print one JSON object with a row per case");

  bool list_json = false;
  auto* list_cmd = app.add_subcommand("list", "Puzzles, engines, encoders and which combinations apply");
  list_cmd->add_flag("--json", list_json, "print the registry as one JSON object (fields: README, JSON output)");

  std::string judge_name;
  JudgeOptions judge_options;
  auto* judge_cmd = app.add_subcommand("judge", "Answer a judge's input on stdin in its exact output format");
  judge_cmd->footer(kJudgeFormats);
  judge_cmd->add_option("name", judge_name, judge_names(" | "))->required();
  judge_cmd->add_option("--engine", judge_options.engine, "route the cases through this engine of the registry (default: ring, one whole-space run whose table answers every case, for fixed starts; a distance-only bidirectional search for fzu1603)")
      ->check(CLI::IsMember(engine_names));
  judge_cmd->add_option("--encoder", judge_options.encoder, "encoder for --engine (default: bitpack-implied / bitpack)");

  ExportArgs export_args;
  auto* export_cmd = app.add_subcommand("export", "Write the state graph as an edge list of keys (for explicit-graph BFS codes)");
  export_cmd->add_option("--puzzle", export_args.puzzle, "puzzle name (see list)");
  export_cmd->add_option("--encoder", export_args.encoder, "an encoder whose every key is a state (default: the family's perfect ranking)");
  export_cmd->add_option("--format", export_args.format, "el: one 'from to' line per edge")->check(CLI::IsMember({"el"}));
  export_cmd->add_option("--output", export_args.output, "file for the edges ('-': stdout)");
  size_option(export_cmd, "--max-output", export_args.max_output,
              "refuse when the edge list could exceed this, e.g. 2G (a file is also checked against free disk)")
      ->default_str("no limit");

  // "searchbench help [command]" and unknown commands get an answer before CLI11's generic one.
  const std::vector<std::string> commands = {"run", "compare", "list", "judge", "export"};
  if (argc < 2) {
    std::fprintf(stderr, "searchbench: a command is required: run, compare, list, judge or export (searchbench --help)\n");
    return 2;
  }
  const std::string first = argv[1];
  const auto is_command = [&](const std::string& name) { return std::find(commands.begin(), commands.end(), name) != commands.end(); };
  if (first == "help") {
    if (argc > 2 && !is_command(argv[2])) return unknown_command(argv[2]);
    std::cout << (argc > 2 ? app.get_subcommand(argv[2])->help() : app.help());
    return 0;
  }
  if (!first.empty() && first[0] != '-' && !is_command(first)) return unknown_command(first);
  app.require_subcommand(1);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return report_failure(e.what(), 2, asks_for_json(argc, argv));
  }
  compare.threads = cli::whole_numbers(compare_threads);
  const bool json = (run_cmd->parsed() && run.json) || (compare_cmd->parsed() && compare.json) ||
                    (list_cmd->parsed() && list_json);

  try {
    if (run_cmd->parsed()) return command_run(run);
    if (compare_cmd->parsed()) return command_compare(compare, random_opt->count() > 0);
    if (judge_cmd->parsed()) return command_judge(judge_name, judge_options);
    if (export_cmd->parsed()) return command_export(export_args);
    return command_list(*run_cmd, list_json);
  } catch (const Interrupted& e) {  // the files of the interrupted work are gone: end as the signal asked
    std::fflush(stdout);
    end_by_signal(e.signal);
  } catch (const InputError& e) {
    return fail(report_failure(e.what(), 2, json));
  } catch (const BudgetError& e) {
    return fail(report_failure(e.what(), 3, json));
  } catch (const std::bad_alloc&) {
    return fail(report_failure("out of memory", 4, json));
  } catch (const OutputError& e) {  // stdout itself may be what failed: nothing more goes there
    return fail(report_failure(e.what(), 6, false));
  } catch (const std::exception& e) {
    return fail(report_failure(std::string("internal error: ") + e.what(), 5, json));
  }
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
