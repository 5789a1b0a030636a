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

#include "cli/memory.hpp"
#include "core/errors.hpp"
#include "core/memory_limit.hpp"
#include "core/timer.hpp"
#ifdef SEARCHBENCH_HAVE_MPI
#include "engines/mpi_bfs.hpp"
#endif
#include "judges/judges.hpp"
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

// Version 1: the fields the README's "JSON output" section lists.
constexpr int kSchemaVersion = 1;
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

// Prints a JSON object as "name  value" lines with the same names (arrays space-separated).
void print_text(const Json& j) {
  for (const auto& [key, value] : j.items()) {
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
    std::printf("%-18s %s\n", key.c_str(), text.c_str());
  }
}

void add_repetition_options(CLI::App* cmd, int& repetitions, int& warmup) {
  cmd->add_option("--repetitions", repetitions, "timed runs of each case; the median, min, max and every time are reported")
      ->check(CLI::Range(1, 1'000'000));
  cmd->add_option("--warmup", warmup, "untimed runs before the timed ones")
      ->check(CLI::Range(0, 1'000'000))
      ->default_str("1 when --repetitions > 1, else 0");
}
int warmup_runs(int repetitions, int warmup) { return warmup >= 0 ? warmup : repetitions > 1 ? 1 : 0; }

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
  int threads = 0;  // 0: every core for parallel, 1 for the serial engines
  std::string start;
  std::string target;
  std::string order;
  int max_depth = -1;
  std::uint64_t node_budget = SearchOptions{}.node_budget;
  std::uint64_t max_memory = 0;  // 0: not given
  int repetitions = 1;
  int warmup = -1;  // -1: 1 when repetitions > 1, else 0
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
    // One line per depth: new states, rate so far, elapsed, and the time left if the rate
    // holds for the states not yet reached (the component size is known up front).
    const std::uint64_t total = state_space_size(spec);
    c.options.progress = [total, reached = std::uint64_t{1}](int depth, std::uint64_t states, double seconds) mutable {
      if (depth == 1) reached = 1;  // a new repetition
      reached += states;
      const double rate = seconds > 0 ? static_cast<double>(reached) / seconds : 0.0;
      const double left = rate > 0 && total > reached ? static_cast<double>(total - reached) / rate : 0.0;
      std::fprintf(stderr, "depth %3d  new %12llu  %10.0f states/s  elapsed %8.2f s  remaining ~%.1f s\n", depth,
                   static_cast<unsigned long long>(states), rate, seconds, left);
    };
  }
  return c;
}

int command_run(const RunArgs& a) {
  const PuzzleSpec spec = parse_puzzle(a.puzzle);
  if (!a.order.empty() && spec.family != "magic") throw InputError("--order applies to magic boards only");
  const EngineInfo& engine = engine_info(a.engine);
  if ((!a.workdir.empty() || a.resume) && a.engine != "external")
    throw InputError("--workdir and --resume apply to engine 'external' only");
  if (a.resume && a.workdir.empty()) throw InputError("--resume needs the --workdir of the run to continue");
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
  if (target.empty()) check_memory(solver->estimate_explore_bytes(), a.max_memory, solver->puzzle_name());
  const std::string target_text = target.empty() ? "" : solver->normalize_state(target);

  const int warmup = warmup_runs(a.repetitions, a.warmup);
  Spread seconds;
  SearchResult r;
  for (int i = 0; i < warmup + a.repetitions; ++i) {
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
  if (a.json) std::cout << j.dump() << "\n";
  else print_text(j);
  return 0;
}

int command_list() {
  std::cout << "engines:\n";
  for (const auto& e : engines())
    std::printf("  %-9s %s%s\n", std::string(e.name).c_str(), std::string(e.summary).c_str(),
                e.whole_space ? (e.distributed ? " [whole-space counts only]" : "") : " [point queries only]");
  std::cout << "\npuzzles (sizes: " << puzzle_sizes() << "):\n";
  for (const auto& family : families()) {
    for (const auto& name : family.examples) {
      const PuzzleSpec spec = parse_puzzle(name);
      std::printf("  %-15s %llu states from the default start\n", name.c_str(),
                  static_cast<unsigned long long>(state_space_size(spec)));
      for (const auto& e : encoders(spec)) {
        if (e.fit.empty())
          std::printf("      %-14s %s, key bound %llu\n", e.name.c_str(), e.dense ? "dense (direct table)" : "sparse (hashed)",
                      static_cast<unsigned long long>(e.key_bound));
        else
          std::printf("      %-14s does not fit: %s\n", e.name.c_str(), e.fit.c_str());
      }
    }
  }
  std::vector<std::string> whole_states, point_only;
  for (const auto& e : engines()) {
    if (!e.uses_encoder) whole_states.emplace_back(e.name);
    if (!e.whole_space) point_only.emplace_back(e.name);
  }
  std::cout << "\ncombinations: every engine runs with every encoder that fits; " << joined(whole_states, " and ")
            << " takes none;\n" << joined(point_only, " and ") << " answer point queries (--target) only.\n";
  return 0;
}

struct CompareArgs {
  std::string puzzle = "msquare";
  std::string targets_file;
  int random = 0;
  std::vector<int> threads = {1, 2};
  std::uint64_t seed = 1;
  std::uint64_t max_memory = 0;
  int repetitions = 1;
  int warmup = -1;
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
};

CompareRow measure_case(const CompareArgs& a, const Combination& combination, const std::vector<std::string>& targets) {
  const EngineInfo& engine = engine_info(combination.engine);
  const std::string& encoder = combination.encoder;
  const int threads = combination.threads;
  SolverConfig c = combination.config(a.puzzle);
  c.options.memory_limit = memory_limit(a.max_memory);
  auto solver = make_solver(c);
  CompareRow row;
  row.engine = c.engine;
  row.encoder = encoder;
  row.threads_requested = threads;
  const int warmup = warmup_runs(a.repetitions, a.warmup);
  for (int i = 0; i < warmup + a.repetitions; ++i) {
    SearchResult whole;
    std::vector<std::string> answers;
    Timer timer;
    if (engine.whole_space) {
      whole = solver->explore();
      // Counts-only engines keep no paths: their counts are compared, not their answers.
      if (!engine.counts_only) for (const auto& t : targets) {
        auto p = solver->table_path(t);
        answers.push_back(p ? *p : "-");
      }
    } else {
      for (const auto& t : targets) {
        const SearchResult r = solver->search(t);
        answers.push_back(r.found ? r.path : "-");
        whole.peak_bytes = std::max(whole.peak_bytes, r.peak_bytes);
      }
    }
    const double seconds = timer.seconds();
    if (i > 0 && (answers != row.answers || whole.depth_counts != row.depth_counts))
      throw std::logic_error("a repetition of " + row.engine + "/" + encoder + " gave a different answer");
    if (i >= warmup) row.seconds.all.push_back(seconds);
    row.answers = std::move(answers);
    row.depth_counts = whole.depth_counts;
    row.threads = whole.threads > 0 ? whole.threads : threads;
    row.peak_bytes = std::max(row.peak_bytes, whole.peak_bytes);
    row.work = engine.whole_space ? static_cast<double>(whole.states()) : static_cast<double>(targets.size());
  }
  return row;
}

int command_compare(const CompareArgs& a, bool random_given) {
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
  if (!a.json) {
    std::printf("%s\n", target_note.c_str());
    std::printf("%-9s %-14s %7s %11s %11s %11s %14s %11s  %s\n", "engine", "encoder", "threads", "median", "min", "max",
                "states/s", "peak", "agrees");
  }

  bool have_reference = false, all_agree = true;
  std::vector<std::uint64_t> ref_counts;
  std::vector<std::string> ref_answers;
  for (const Combination& combination : combinations(spec, a.threads, targets.empty())) {
    const EngineInfo& engine = engine_info(combination.engine);
    const CompareRow row = measure_case(a, combination, targets);
    bool agrees = true;
    if (engine.whole_space) {
      if (ref_counts.empty()) ref_counts = row.depth_counts;
      agrees = row.depth_counts == ref_counts;
    }
    if (!have_reference && !engine.counts_only) {
      ref_answers = row.answers;
      have_reference = true;
    }
    agrees = agrees && (engine.counts_only || row.answers == ref_answers);
    all_agree = all_agree && agrees;
    const double median = row.seconds.median();
    const double rate = median > 0 ? row.work / median : 0.0;
    Json j;
    j["engine"] = row.engine;
    j["encoder"] = row.encoder;
    j["threads"] = row.threads;
    j["threads_requested"] = row.threads_requested;
    row.seconds.put(j);
    j["states_per_second"] = rate;
    j["peak_bytes"] = row.peak_bytes;
    j["agrees"] = agrees;
    doc["rows"].push_back(j);
    if (!a.json)
      std::printf("%-9s %-14s %7d %11s %11s %11s %14.0f %11s  %s\n", row.engine.c_str(), row.encoder.c_str(), row.threads,
                  human_seconds(median).c_str(), human_seconds(row.seconds.min()).c_str(),
                  human_seconds(row.seconds.max()).c_str(), rate, human_bytes(row.peak_bytes).c_str(),
                  agrees ? "yes" : "NO");
  }
  doc["all_agree"] = all_agree;
  doc["peak_rss_bytes"] = peak_rss_bytes();
  if (a.json) std::cout << doc.dump() << "\n";
  else
    std::printf("times over %d repetition(s) after %d warm-up run(s); states/s counts explored states for whole-space "
                "engines, queries for the others\n",
                a.repetitions, warmup);
  if (!all_agree) {
    std::fprintf(stderr, "searchbench: engines disagree on %s\n", a.puzzle.c_str());
    return 1;
  }
  return 0;
}

struct ExportArgs {
  std::string puzzle = "msquare";
  std::string encoder;
  std::string format = "el";
  std::string output = "-";
  std::uint64_t max_output = 0;  // 0: not given
};

// Upper bound on the bytes of an edge list: a line of two keys per move of every key.
std::uint64_t estimate_export_bytes(const PuzzleSpec& spec, std::uint64_t key_bound) {
  const std::uint64_t digits = std::to_string(key_bound > 0 ? key_bound - 1 : 0).size();
  const std::uint64_t moves = spec.family == "magic" ? 3 : 4;  // 4: the most any family has
  const long double bytes = static_cast<long double>(key_bound) * moves * (2 * digits + 2);
  return bytes >= 1.8e19L ? std::numeric_limits<std::uint64_t>::max() : static_cast<std::uint64_t>(bytes);
}

// Edges go to --output (stdout by default); the start key, vertex and edge counts go to
// stdout after them when writing a file, else to stderr, so they never mix with the edges.
// A file is written under a temporary name in the same folder and renamed when complete,
// so a refused or interrupted export never leaves a truncated or partial file behind.
int command_export(const ExportArgs& a) {
  const PuzzleSpec spec = parse_puzzle(a.puzzle);
  SolverConfig c;
  c.puzzle = a.puzzle;
  c.encoder = a.encoder;
  auto solver = make_solver(c);
  std::uint64_t key_bound = 0;
  for (const auto& e : encoders(spec))
    if (e.name == solver->encoder_name()) key_bound = e.key_bound;
  const std::uint64_t estimate = estimate_export_bytes(spec, key_bound);
  const bool to_stdout = a.output == "-";
  if (a.max_output > 0 && estimate > a.max_output)
    throw InputError("the edge list of " + spec.name + " takes up to " + human_bytes(estimate) + ", more than --max-output " +
                     human_bytes(a.max_output));
  namespace fs = std::filesystem;
  const fs::path target = fs::path(a.output);
  const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
  const std::uint64_t free_bytes = to_stdout ? available_disk(STDOUT_FILENO) : available_disk(folder.string());
  if (free_bytes > 0 && estimate > free_bytes)
    throw InputError("the edge list of " + spec.name + " takes up to " + human_bytes(estimate) + ", more than the " +
                     human_bytes(free_bytes) + " free " + (to_stdout ? "where stdout goes" : "in '" + folder.string() + "'"));
  std::string temp = (folder / ("." + target.filename().string() + ".XXXXXX")).string();
  std::FILE* out = stdout;
  if (!to_stdout) {
    const int fd = mkstemp(temp.data());
    if (fd < 0) throw InputError("cannot open '" + a.output + "' for writing: " + std::strerror(errno));
    const mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    out = fdopen(fd, "wb");
  }
  EdgeListSummary summary;
  try {
    summary = solver->export_edge_list(out);
  } catch (...) {
    if (!to_stdout) {
      std::fclose(out);
      std::remove(temp.c_str());
    }
    throw;
  }
  if (!to_stdout) {
    const bool closed = std::fclose(out) == 0;
    if (!closed || std::rename(temp.c_str(), a.output.c_str()) != 0) {
      const std::string why = std::strerror(errno);
      std::remove(temp.c_str());
      throw OutputError("cannot write '" + a.output + "': " + why);
    }
  }
  std::fprintf(to_stdout ? stderr : stdout, "start %llu\nvertices %llu\nedges %llu\n",
               static_cast<unsigned long long>(summary.start_key), static_cast<unsigned long long>(summary.vertices),
               static_cast<unsigned long long>(summary.edges));
  return 0;
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
  const CLI::Range kThreadRange(1, kMaxThreads);
  const CLI::Range kNonNegative(0LL, std::numeric_limits<long long>::max());
  // A size is digits with an optional unit (k, m, g, t: powers of 1024, either case; KiB, MB
  // and the like too). Hexadecimal, exponents, fractions, inf and the empty string are refused.
  const CLI::Validator kSizeText(
      [](std::string& s) -> std::string {
        std::size_t digits = 0;
        while (digits < s.size() && s[digits] >= '0' && s[digits] <= '9') ++digits;
        bool letters = true;
        for (std::size_t i = digits; i < s.size(); ++i) letters = letters && std::isalpha(static_cast<unsigned char>(s[i]));
        return digits > 0 && letters ? "" : "'" + s + "' is not a size (use e.g. 512M, 4G, 64k)";
      },
      "SIZE");
  const CLI::Range kPositiveSize(std::uint64_t{1}, std::numeric_limits<std::uint64_t>::max());
  const CLI::Validator kNotBlank(
      [](std::string& s) -> std::string {
        return s.find_first_not_of(" \t\r\n") == std::string::npos ? "must not be empty" : "";
      },
      "");
  auto size_option = [&](CLI::App* cmd, const char* name, std::uint64_t& value, const char* help) {
    // transform() puts a validator first, so the text is checked before AsSizeValue reads it.
    return cmd->add_option(name, value, help)->transform(CLI::AsSizeValue(false))->transform(kSizeText)->check(kPositiveSize);
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
      ->check(kNotBlank)
      ->check(kThreadRange)
      ->default_str("every core for --engine parallel, else 1");
  run_cmd->add_option("--start", run.start, "start state (default: the puzzle's start)")->check(kNotBlank);
  run_cmd->add_option("--target", run.target, "target state: point query instead of a whole-space run")->check(kNotBlank);
  run_cmd->add_option("--order", run.order, "how a magic board without '/' is written")
      ->check(CLI::IsMember({"rows", "clockwise"}));
  run_cmd->add_option("--max-depth", run.max_depth, "stop after this many moves (-1: no limit)")
      ->check(CLI::Range(-1, std::numeric_limits<int>::max()));
  run_cmd->add_option("--node-budget", run.node_budget, "iddfs: nodes to expand before giving up")->check(kNonNegative);
  size_option(run_cmd, "--max-memory", run.max_memory,
              "refuse runs whose search structures need more, e.g. 512M, 4G (default: the memory available)")
      ->default_str("the memory available");
  add_repetition_options(run_cmd, run.repetitions, run.warmup);
  run_cmd->add_flag("--json", run.json, "print one JSON object (fields: README, JSON output)");
  run_cmd->add_flag("--progress", run.progress, "print one line per depth on stderr (default: when stderr is a terminal)");
  run_cmd->add_flag("--quiet", run.quiet, "never print progress");
  run_cmd->add_flag("--top-down", run.top_down, "parallel: never switch a level to bottom-up (for comparison)");
  run_cmd->add_option("--bottom-up-ratio", run.bottom_up_ratio,
                      "parallel: a level runs bottom-up once its frontier outnumbers the unseen states by this factor");
  run_cmd->add_option("--workdir", run.workdir, "external: folder for the on-disk cells, successor lists and checkpoint");
  run_cmd->add_flag("--resume", run.resume, "external: continue the run recorded in --workdir from its last completed depth");
  run_cmd->add_option("--seed-keys", run.seed_keys,
                      "external: keys a fresh run's first depths may hold in memory before the passes over the segments "
                      "take over (default: what --max-memory holds; 0: passes from depth 0)")
      ->check(CLI::NonNegativeNumber);

  CompareArgs compare;
  auto* compare_cmd = app.add_subcommand("compare", "Run every engine x encoder and check that all answers agree");
  compare_cmd->add_option("--puzzle", compare.puzzle, "puzzle name (see list)");
  compare_cmd->add_option("--targets", compare.targets_file, "file with one target state per line, rows split by '/'")
      ->check(CLI::ExistingFile);
  auto* random_opt = compare_cmd
                         ->add_option("--random", compare.random,
                                      "add N random reachable targets (default: " + std::to_string(kDefaultRandomTargets) +
                                          " when --targets is not given)")
                         ->check(CLI::Range(0, 1'000'000));
  compare_cmd->add_option("--seed", compare.seed, "seed for the random targets");
  compare_cmd->add_option("--threads", compare.threads, "thread counts for the threaded engines (" + threaded_engines() + "), 1.." + std::to_string(kMaxThreads))
      ->delimiter(',')
      ->check(kNotBlank)
      ->check(kThreadRange);
  size_option(compare_cmd, "--max-memory", compare.max_memory, "refuse cases needing more (default: the memory available)")
      ->default_str("the memory available");
  add_repetition_options(compare_cmd, compare.repetitions, compare.warmup);
  compare_cmd->add_flag("--json", compare.json, "print one JSON object with a row per case");

  app.add_subcommand("list", "Puzzles, engines, encoders and which combinations apply");

  std::string judge_name;
  JudgeOptions judge_options;
  auto* judge_cmd = app.add_subcommand("judge", "Answer a judge's input on stdin in its exact output format");
  judge_cmd->footer(kJudgeFormats);
  judge_cmd->add_option("name", judge_name, "sicily1151 | sicily1515 | msquare | fzu1603")->required();
  judge_cmd->add_option("--engine", judge_options.engine, "route the cases through this engine of the registry (default: a path table from one BFS for fixed starts, a distance-only bidirectional search for fzu1603)")
      ->check(CLI::IsMember(engine_names));
  judge_cmd->add_option("--encoder", judge_options.encoder, "encoder for --engine (default: cantor / bitpack)");

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
  if (first == "help") {
    if (argc > 2 && std::find(commands.begin(), commands.end(), argv[2]) != commands.end())
      std::cout << app.get_subcommand(argv[2])->help();
    else
      std::cout << app.help();
    return 0;
  }
  if (!first.empty() && first[0] != '-' && std::find(commands.begin(), commands.end(), first) == commands.end()) {
    std::fprintf(stderr, "searchbench: unknown command '%s' (commands: run, compare, list, judge, export, help)\n", first.c_str());
    return 2;
  }
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
    std::fprintf(stderr, "searchbench: %s\n", e.what());
    return 2;
  }

  try {
    if (run_cmd->parsed()) return command_run(run);
    if (compare_cmd->parsed()) return command_compare(compare, random_opt->count() > 0);
    if (judge_cmd->parsed()) return command_judge(judge_name, judge_options);
    if (export_cmd->parsed()) return command_export(export_args);
    return command_list();
  } catch (const InputError& e) {
    std::fprintf(stderr, "searchbench: %s\n", e.what());
    return fail(2);
  } catch (const BudgetError& e) {
    std::fprintf(stderr, "searchbench: %s\n", e.what());
    return fail(3);
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "searchbench: out of memory\n");
    return fail(4);
  } catch (const OutputError& e) {
    std::fprintf(stderr, "searchbench: %s\n", e.what());
    return fail(6);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "searchbench: internal error: %s\n", e.what());
    return fail(5);
  }
}

}  // namespace

int main(int argc, char** argv) {
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
