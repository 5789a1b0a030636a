// searchbench: the command-line front end. Commands: run, compare, list, judge, export.
// Every error reaches the user as one line on stderr and a non-zero exit status:
// 2 for bad input or a refused request, 3 for an exhausted budget, 1 when compare finds
// engines that disagree.
#include <sys/stat.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "judges/judges.hpp"
#include "cli/memory.hpp"
#include "core/errors.hpp"
#include "registry/registry.hpp"
#include "core/timer.hpp"

using namespace searchbench;

namespace {

std::string human_bytes(std::uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024 && u < 4) v /= 1024, ++u;
  char buf[32];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", v, units[u]);
  return buf;
}

// "a, b and c" (last_separator " and ") or "a, b, c" (", ").
std::string joined(const std::vector<std::string>& names, const std::string& last_separator = ", ") {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) out += (i == 0 ? "" : i + 1 == names.size() ? last_separator : ", ") + names[i];
  return out;
}

// Help text from the registry's lists.
std::string engine_names() {
  std::vector<std::string> names;
  for (const auto& e : engines()) names.emplace_back(e.name);
  return joined(names);
}
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

struct RunArgs {
  std::string puzzle = "msquare";
  std::string engine = "ring";
  std::string encoder;
  int threads = 1;
  std::string start;
  std::string target;
  int max_depth = -1;
  std::uint64_t node_budget = SearchOptions{}.node_budget;
  std::string max_memory;
  bool json = false;
  bool progress = false;
  bool quiet = false;
  bool top_down = false;
  double bottom_up_ratio = SearchOptions{}.bottom_up_ratio;
};

SolverConfig config_of(const RunArgs& a) {
  SolverConfig c;
  c.puzzle = a.puzzle;
  c.engine = a.engine;
  c.encoder = a.encoder;
  if (!a.start.empty()) c.start = a.start;
  c.options.threads = a.threads;
  c.options.max_depth = a.max_depth;
  c.options.node_budget = a.node_budget;
  c.options.keep_table = false;
  c.options.bottom_up = !a.top_down;
  c.options.bottom_up_ratio = a.bottom_up_ratio;
  if (!a.quiet && (a.progress || isatty(STDERR_FILENO))) {
    // One line per depth: new states, rate so far, elapsed, and the time left if the rate
    // holds for the states not yet reached (the component size is known up front).
    std::uint64_t total = 0;
    try {
      total = state_space_size(parse_puzzle(a.puzzle));
    } catch (const InputError&) {
    }
    c.options.progress = [total, reached = std::uint64_t{1}](int depth, std::uint64_t states, double seconds) mutable {
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
  const SolverConfig config = config_of(a);
  auto solver = make_solver(config);
  const EngineInfo& engine = engine_info(a.engine);
  if (engine.threaded == false && a.threads != 1) {
    std::vector<std::string> threaded;
    for (const auto& e : engines())
      if (e.threaded) threaded.push_back("'" + std::string(e.name) + "'");
    throw InputError("engine '" + a.engine + "' is serial; --threads applies to " + joined(threaded, " and ") + " only");
  }
  SearchResult r;
  if (a.target.empty()) {
    check_memory(solver->estimate_explore_bytes(), parse_memory_limit(a.max_memory), solver->puzzle_name());
    r = solver->explore();
  } else {
    r = solver->search(a.target);
  }
  const double rate = r.seconds > 0 ? static_cast<double>(r.states()) / r.seconds : 0.0;
  if (a.json) {
    nlohmann::json j;
    j["puzzle"] = solver->puzzle_name();
    j["engine"] = a.engine;
    j["encoder"] = solver->encoder_name();
    j["threads"] = a.threads;
    if (a.target.empty()) {  // a point query covers part of the space: no totals to report
      j["states"] = r.states();
      j["radius"] = r.radius();
      j["depth_counts"] = r.depth_counts;
      j["states_per_second"] = rate;
    }
    j["seconds"] = r.seconds;
    j["peak_bytes"] = r.peak_bytes;
    j["expanded"] = r.expanded;
    j["generated"] = r.generated;
    if (!a.target.empty()) {
      j["target"] = solver->normalize_state(a.target);
      j["distance"] = r.found ? r.distance : -1;
      j["path"] = r.path;
    }
    std::cout << j.dump() << "\n";
    return 0;
  }
  std::cout << "puzzle   " << solver->puzzle_name() << "\nengine   " << a.engine << "\nencoder  "
            << solver->encoder_name() << "\nthreads  " << a.threads << "\nstart    " << solver->start_text() << "\n";
  if (!a.target.empty()) {
    std::cout << "target   " << solver->normalize_state(a.target) << "\n";
    if (r.found) std::cout << "distance " << r.distance << "\npath     " << r.path << "\n";
    else std::cout << "distance -1 (unreachable" << (a.max_depth >= 0 ? " within --max-depth)" : ")") << "\n";
  } else {
    std::cout << "depth  states\n";
    for (std::size_t d = 0; d < r.depth_counts.size(); ++d) std::printf("%5zu  %llu\n", d, static_cast<unsigned long long>(r.depth_counts[d]));
    std::cout << "states   " << r.states() << "\nradius   " << r.radius() << "\n";
  }
  std::printf("seconds  %.6f\n", r.seconds);
  if (a.target.empty()) std::printf("states/s %.0f\n", rate);
  else std::printf("expanded %llu\n", static_cast<unsigned long long>(r.expanded));
  std::printf("peak     %llu bytes (%s)\n", static_cast<unsigned long long>(r.peak_bytes), human_bytes(r.peak_bytes).c_str());
  return 0;
}

int command_list() {
  std::cout << "engines:\n";
  for (const auto& e : engines())
    std::printf("  %-9s %s%s\n", std::string(e.name).c_str(), std::string(e.summary).c_str(),
                e.whole_space ? "" : " [point queries only]");
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
};

int command_compare(const CompareArgs& a) {
  const PuzzleSpec spec = parse_puzzle(a.puzzle);
  for (int t : a.threads)
    if (t < 1) throw InputError("thread counts must be positive (got " + std::to_string(t) + ")");
  std::vector<std::string> targets;
  if (!a.targets_file.empty()) {
    std::ifstream f(a.targets_file);
    if (!f) throw InputError("cannot read targets file '" + a.targets_file + "'");
    for (std::string line; std::getline(f, line);)
      if (line.find_first_not_of(" \t\r") != std::string::npos) targets.push_back(line);
  }
  if (a.random < 0) throw InputError("--random must not be negative");
  {
    SolverConfig probe;
    probe.puzzle = a.puzzle;
    auto s = make_solver(probe);
    for (auto& t : targets) t = s->normalize_state(t);
    std::mt19937_64 rng(a.seed);
    for (int i = 0; i < a.random; ++i) targets.push_back(s->random_state(rng()));
    check_memory(s->estimate_explore_bytes(), 0, s->puzzle_name());
  }

  std::printf("%-9s %-14s %7s %10s %14s %14s  %s\n", "engine", "encoder", "threads", "seconds", "states/s", "peak bytes", "agrees");
  bool have_reference = false, all_agree = true;
  std::vector<std::uint64_t> ref_counts;
  std::vector<std::string> ref_answers;
  for (const Combination& combination : combinations(spec, a.threads, targets.empty())) {
    const EngineInfo& engine = engine_info(combination.engine);
    const SolverConfig c = combination.config(a.puzzle);
    auto solver = make_solver(c);
    SearchResult whole;
    std::vector<std::string> answers;
    Timer timer;
    if (engine.whole_space) {
      whole = solver->explore();
      for (const auto& t : targets) {
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
    bool agrees = true;
    if (engine.whole_space) {
      if (ref_counts.empty()) ref_counts = whole.depth_counts;
      agrees = whole.depth_counts == ref_counts;
    }
    if (!have_reference) {
      ref_answers = answers;
      have_reference = true;
    }
    agrees = agrees && answers == ref_answers;
    all_agree = all_agree && agrees;
    const double work = engine.whole_space ? static_cast<double>(whole.states()) : static_cast<double>(targets.size());
    std::printf("%-9s %-14s %7d %10.4f %14.0f %14llu  %s\n", c.engine.c_str(), c.encoder.c_str(), c.options.threads,
                seconds, seconds > 0 ? work / seconds : 0.0, static_cast<unsigned long long>(whole.peak_bytes),
                agrees ? "yes" : "NO");
  }
  std::printf("%zu point queries; states/s counts explored states for whole-space engines, queries for the others\n",
              targets.size());
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
};

// Edges go to --output (stdout by default); the start key, vertex and edge counts go to
// stdout after them when writing a file, else to stderr, so they never mix with the edges.
int command_export(const ExportArgs& a) {
  if (a.format != "el") throw InputError("unknown export format '" + a.format + "' (known: el)");
  SolverConfig c;
  c.puzzle = a.puzzle;
  c.encoder = a.encoder;
  auto solver = make_solver(c);
  const bool to_stdout = a.output == "-";
  std::FILE* out = to_stdout ? stdout : std::fopen(a.output.c_str(), "wb");
  if (!out) throw InputError("cannot open '" + a.output + "' for writing");
  EdgeListSummary summary;
  try {
    summary = solver->export_edge_list(out);
  } catch (...) {
    if (!to_stdout) std::fclose(out);
    throw;
  }
  if (!to_stdout && std::fclose(out) != 0) throw InputError("cannot write '" + a.output + "'");
  std::fprintf(to_stdout ? stderr : stdout, "start %llu\nvertices %llu\nedges %llu\n",
               static_cast<unsigned long long>(summary.start_key), static_cast<unsigned long long>(summary.vertices),
               static_cast<unsigned long long>(summary.edges));
  return 0;
}

int command_judge(const std::string& name, const JudgeOptions& options) {
  std::string input;  // whole stdin in large blocks (istreambuf_iterator is several times slower)
  if (struct stat st; fstat(fileno(stdin), &st) == 0 && S_ISREG(st.st_mode)) input.reserve(static_cast<std::size_t>(st.st_size));
  char block[1 << 16];
  for (std::size_t n; (n = std::fread(block, 1, sizeof block, stdin)) > 0;) input.append(block, n);
  const std::string out = run_judge(name, input, options);
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"searchbench: state-space search engines x state encoders x puzzles, cross-checked and measured"};
  app.require_subcommand(1);

  RunArgs run;
  auto* run_cmd = app.add_subcommand("run", "Whole-space search from the start, or a point query with --target");
  run_cmd->add_option("--puzzle", run.puzzle, puzzle_sizes());
  run_cmd->add_option("--engine", run.engine, engine_names());
  run_cmd->add_option("--encoder", run.encoder, encoder_names());
  run_cmd->add_option("--threads", run.threads, "worker threads (engines: " + threaded_engines() + ")");
  run_cmd->add_option("--start", run.start, "start state (default: the puzzle's start)");
  run_cmd->add_option("--target", run.target, "target state: point query instead of a whole-space run");
  run_cmd->add_option("--max-depth", run.max_depth, "stop after this many moves (-1: no limit)");
  run_cmd->add_option("--node-budget", run.node_budget, "iddfs: nodes to expand before giving up");
  run_cmd->add_option("--max-memory", run.max_memory, "refuse whole-space runs needing more (e.g. 512M, 4G)");
  run_cmd->add_flag("--json", run.json, "print one JSON object");
  run_cmd->add_flag("--progress", run.progress, "print one line per depth on stderr");
  run_cmd->add_flag("--quiet", run.quiet, "never print progress");
  run_cmd->add_flag("--top-down", run.top_down, "parallel: never switch a level to bottom-up (for comparison)");
  run_cmd->add_option("--bottom-up-ratio", run.bottom_up_ratio,
                      "parallel: a level runs bottom-up once its frontier outnumbers the unseen states by this factor")
      ->capture_default_str();

  CompareArgs compare;
  auto* compare_cmd = app.add_subcommand("compare", "Run every engine x encoder and check that all answers agree");
  compare_cmd->add_option("--puzzle", compare.puzzle, "puzzle name (see list)");
  compare_cmd->add_option("--targets", compare.targets_file, "file with one target state per line");
  compare_cmd->add_option("--random", compare.random, "add N random reachable targets");
  compare_cmd->add_option("--seed", compare.seed, "seed for --random");
  compare_cmd->add_option("--threads", compare.threads, "thread counts for the threaded engines (" + threaded_engines() + ")")->delimiter(',');

  app.add_subcommand("list", "Puzzles, engines, encoders and which combinations apply");

  std::string judge_name;
  JudgeOptions judge_options;
  auto* judge_cmd = app.add_subcommand("judge", "Answer a judge's input on stdin in its exact output format");
  judge_cmd->add_option("name", judge_name, "sicily1151 | sicily1515 | msquare | fzu1603")->required();
  judge_cmd->add_option("--engine", judge_options.engine, "engine (default: ring for fixed starts, bidir for fzu1603)");
  judge_cmd->add_option("--encoder", judge_options.encoder, "encoder (default: cantor / bitpack)");

  ExportArgs export_args;
  auto* export_cmd = app.add_subcommand("export", "Write the state graph as an edge list of keys (for explicit-graph BFS codes)");
  export_cmd->add_option("--puzzle", export_args.puzzle, "puzzle name (see list)");
  export_cmd->add_option("--encoder", export_args.encoder, "an encoder whose every key is a state (default: the family's perfect ranking)");
  export_cmd->add_option("--format", export_args.format, "el: one 'from to' line per edge");
  export_cmd->add_option("--output", export_args.output, "file for the edges ('-': stdout)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "searchbench: %s\n", e.what());
    return 2;
  }

  try {
    if (run_cmd->parsed()) return command_run(run);
    if (compare_cmd->parsed()) return command_compare(compare);
    if (judge_cmd->parsed()) return command_judge(judge_name, judge_options);
    if (export_cmd->parsed()) return command_export(export_args);
    return command_list();
  } catch (const InputError& e) {
    std::fprintf(stderr, "searchbench: %s\n", e.what());
    return 2;
  } catch (const BudgetError& e) {
    std::fprintf(stderr, "searchbench: %s\n", e.what());
    return 3;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "searchbench: out of memory\n");
    return 4;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "searchbench: internal error: %s\n", e.what());
    return 5;
  }
}
