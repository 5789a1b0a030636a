#include "cli/run_command.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <variant>

#include "cli/context.hpp"
#include "cli/number_text.hpp"
#include "cli/progress.hpp"
#include "cli/run_summary.hpp"
#include "core/errors.hpp"

namespace searchbench::cli {

SolverConfig run_configuration(const std::string& puzzle, const std::string& engine, const std::string& encoder, int threads,
                               std::uint64_t max_memory) {
  SolverConfig c;
  c.puzzle = puzzle;
  c.engine = engine;
  c.encoder = encoder;
  c.options.threads = threads;
  c.options.keep_table = false;
  c.options.memory = MemoryBudget::from_option(max_memory);
  return c;
}

namespace {

// Creates `path` unless it is a folder already (its parent must exist).
void make_folder(const std::string& path) {
  if (::mkdir(path.c_str(), 0755) == 0) return;
  const int error = errno;
  struct stat st {};
  if (error == EEXIST && ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) return;
  throw InputError("cannot create work folder '" + path + "': " + (error == EEXIST ? "not a folder" : std::strerror(error)));
}

// Every rank of a distributed run must run rank 0's search: all that decides the
// collectives, in canonical form (not --threads, which may differ per rank).
std::string canonical_configuration(const Solver& solver, const SolverConfig& c, const std::string& target, int repetitions,
                                    int warmup, std::uint64_t max_memory) {
  std::string text = "--engine " + c.engine + "\n--puzzle " + solver.puzzle().name() + "\n--encoder " + solver.encoder_name() +
                     "\n--start " + solver.puzzle().start_text() + "\n--target " + target + "\n--max-depth " +
                     std::to_string(c.options.max_depth) + "\n--repetitions " + std::to_string(repetitions) + "\n--warmup " +
                     std::to_string(warmup) + "\n--max-memory " + std::to_string(max_memory) + "\n";
  for (const auto& [name, value] : c.engine_options) text += "--" + name + " " + value + "\n";
  return text;
}

}  // namespace

CLI::App* RunCommand::add_to(CLI::App& app) {
  Args& a = a_;
  cmd_ = app.add_subcommand("run", "Whole-space search from the start, or a point query with --target; prints a summary");
  cmd_->footer(
      "Magic boards are written in row order with the rows split by '/' (1 2 3 4 / 8 7 6 5); without the '/' say\n"
      "--order rows or --order clockwise (the USACO judge's order). Checkers lines: ##&@@.");
  std::vector<std::string> engine_names;
  for (const auto& e : engines()) engine_names.emplace_back(e.name);
  const CLI::Validator not_blank(
      [](std::string& s) -> std::string { return s.find_first_not_of(" \t\r\n") == std::string::npos ? "must not be empty" : ""; },
      "");
  cmd_->add_option("--puzzle", a.puzzle, puzzle_sizes());
  const CLI::Validator elsewhere([](std::string& s) -> std::string { return engine_elsewhere(s); }, "");
  const CLI::Validator known_engine(
      [engine_names](std::string& s) -> std::string {
        if (std::find(engine_names.begin(), engine_names.end(), s) != engine_names.end()) return "";
        return unknown_name("engine", s, engine_names);
      },
      "");
  cmd_->add_option("--engine", a.engine, "engine: " + joined(engine_names))->check(elsewhere)->check(known_engine);
  cmd_->add_option("--encoder", a.encoder, encoder_names() + " (default: the puzzle's perfect ranking)");
  cmd_->add_option("--heuristic", a.heuristic, heuristic_engines() + ": " + heuristic_names())
      ->default_str("the last that fits the puzzle, its strongest");
  cmd_->add_option("--threads", a.threads, "worker threads, 1.." + std::to_string(kMaxThreads) + " (engines: " + threaded_engines() + ")")
      ->transform(whole_number(1, kMaxThreads))
      ->default_str("every core for the threaded engines (" + threaded_engines() + "), 1 for the others");
  cmd_->add_option("--start", a.start, "start state (default: the puzzle's start)")->check(not_blank);
  cmd_->add_option("--target", a.target, "target state: point query instead of a whole-space run")->check(not_blank);
  cmd_->add_option("--max-depth", a.max_depth, "stop after this many moves (-1: no limit)")
      ->transform(whole_number(-1, std::numeric_limits<int>::max()));
  add_size_option(cmd_, "--max-memory", a.max_memory,
                  "refuse runs whose search structures need more, e.g. 512M, 4G; external: also the memory it stays within")
      ->default_str(kMaxMemoryDefault);
  add_repetition_options(cmd_, a.repetitions, a.warmup);
  add_timeout_option(cmd_, a.timeout,
                     "stop the search after this many seconds (the heuristic's build and every repetition count; "
                     "exit 4 with the statistics so far)");
  format_ = add_format_option(cmd_, a.format, {"text", "keys", "json"},
                              "text: a summary for people; keys: one 'name value' line per JSON field, for scripts that grep; "
                              "json: one JSON object (fields: docs/measurement.md, JSON output)");
  cmd_->add_flag("--json", a.json, "print one JSON object: --format json");
  cmd_->add_flag("--progress", a.progress,
                 "show progress on stderr: on a terminal one line redrawn in place (depth or bound, share of the space, "
                 "rate, ETA), else a line per depth or bound (default: when stderr is a terminal)");
  cmd_->add_flag("--quiet", a.quiet, "never print progress");
  flags_.add_to(cmd_);
  return cmd_;
}

std::vector<std::string> RunCommand::options_of(const EngineInfo& e) const {
  std::vector<std::string> out;
  for (const CLI::Option* option : cmd_->get_options()) {
    const std::string name = option->get_name();
    if (name.empty() || name == "--help") continue;
    const bool declared = std::any_of(e.options.begin(), e.options.end(), [&](const OptionSpec& s) { return "--" + s.name == name; });
    const bool heuristic_option = name == "--heuristic" || flags_.is_heuristic_option(name);
    if (flags_.is_engine_option(name) ? !declared
                                      : (name == "--encoder" && !e.uses_encoder) || (name == "--threads" && !e.threaded) ||
                                            (name == "--target" && e.counts_only) ||
                                            (heuristic_option && !e.uses_heuristic))
      continue;
    out.push_back(name);
  }
  return out;
}

SolverConfig RunCommand::configuration(const Selection& selection, int runs,
                                       std::shared_ptr<ProgressPrinter>& progress) const {
  const Args& a = a_;
  const EngineInfo& engine = *selection.engine;
  const int threads = a.threads > 0 ? a.threads : engine.threaded ? machine_cores() : 1;
  SolverConfig c = run_configuration(a.puzzle, a.engine, a.encoder, threads, a.max_memory);
  c.text_options = flags_.text_values(*selection.family);
  c.engine_options = flags_.engine_values(engine);
  if (engine.uses_heuristic) {
    c.heuristic = selection.heuristic;
    c.heuristic_options = flags_.heuristic_values(selection.heuristic);
    if (a.target.empty()) throw InputError("engine '" + a.engine + "' answers point queries only (give --target)");
  } else if (!a.heuristic.empty() || !flags_.heuristic_values_given().empty()) {
    throw InputError("--heuristic and its options apply to engines " + heuristic_engines() + " only");
  }
  for (const auto& s : flags_.given_engine_specs())
    if (s.one_run_only && runs > 1)
      throw InputError("--" + s.name + " continues one run: give it neither --repetitions above 1 nor --warmup");
  if (!a.target.empty() && engine.counts_only)
    throw InputError("engine '" + a.engine + "' counts whole spaces only; use bidir for point queries");
  c.options.max_depth = a.max_depth;
  c.options.deadline = Deadline::in(a.timeout);
  const bool terminal = isatty(STDERR_FILENO);
  if (!a.quiet && (a.progress || terminal)) {
    // A terminal gets one line redrawn in place, kept moving by a heartbeat every second
    // inside long depths; a log a line per depth and a heartbeat every 10 s (cli/progress.hpp).
    // The percentage and the time left are of the component, whose size is known up front.
    progress = std::make_shared<ProgressPrinter>(selection.states, stderr,
                                                 terminal ? ProgressPrinter::Style::redrawn : ProgressPrinter::Style::lines);
    c.options.progress = [printer = progress](const ProgressEvent& e) { printer->print(e); };
    c.options.heartbeat_seconds = heartbeat_seconds_from_env(terminal ? 1.0 : c.options.heartbeat_seconds);
  }
  return c;
}

int RunCommand::run() const {
  const Args& a = a_;
  const Context context;  // the date and the load average as the command starts
  const std::string format = chosen_format(a.format, format_, a.json);
  // The names resolved once: the defaults, the options and the sizes below all read it.
  const Selection selection = resolve_selection(a.puzzle, a.engine, a.encoder, a.heuristic);
  const EngineInfo& engine = *selection.engine;
  const int warmup = warmup_runs(a.repetitions, a.warmup);
  std::shared_ptr<ProgressPrinter> progress;
  SolverConfig config = configuration(selection, warmup + a.repetitions, progress);
  // A redrawn progress line ends before anything else prints: the output, or an error's line.
  const ProgressLineEnd end_progress_line(progress);
  // The states as the user wrote them, read with the family's text options (--order).
  const auto reader = make_puzzle({a.puzzle, {}, config.text_options});
  if (!a.start.empty()) config.start = reader->read_state(a.start, "--start");
  const std::string target = a.target.empty() ? "" : reader->read_state(a.target, "--target");
  auto solver = make_solver(config);
  // Before any other collective; ranks started differently all end with status 2, rank 0 saying why.
  if (engine.distributed && !engine.same_configuration_everywhere(
                                canonical_configuration(*solver, config, target, a.repetitions, warmup, a.max_memory)))
    return 2;
  if (target.empty()) config.options.memory.check_up_front(solver->estimate_explore_bytes(), solver->puzzle().name());

  // A folder of work files that a finished run leaves holding it (a fresh run refuses such a
  // folder): with more than one run, each gets a fresh subfolder, warmup-1.. for the warm-ups
  // and rep-1.. for the timed runs.
  std::vector<OptionSpec> per_run;
  for (const auto& s : flags_.given_engine_specs())
    if (s.folder_per_run && warmup + a.repetitions > 1) per_run.push_back(s);
  const OptionValues given = config.engine_options;
  for (const auto& s : per_run) make_folder(given.at(s.name));
  Spread seconds;
  SearchResult r;
  std::optional<HeuristicStats> first_build;  // the heuristic's build, in the first run (later ones reuse it)
  for (int i = 0; i < warmup + a.repetitions; ++i) {
    if (!per_run.empty()) {
      const std::string sub = i < warmup ? "/warmup-" + std::to_string(i + 1) : "/rep-" + std::to_string(i - warmup + 1);
      for (const auto& s : per_run) config.engine_options[s.name] = given.at(s.name) + sub;
      solver = make_solver(config);
    }
    SearchResult now = target.empty() ? solver->explore() : solver->search(target);
    if (i > 0 && (now.depth_counts != r.depth_counts || now.path != r.path || now.distance != r.distance))
      throw std::logic_error("a repetition gave a different answer");
    if (i >= warmup) seconds.all.push_back(now.seconds);
    now.peak_bytes = std::max(now.peak_bytes, r.peak_bytes);
    if (i == 0) first_build = now.heuristic;
    r = std::move(now);
  }
  if (first_build) r.heuristic = first_build;
  if (!r.reporting) return 0;  // a distributed run's ranks other than 0
  Json j = report(*solver, r, seconds, config, target);
  j["context"] = context.json();
  if (progress) progress->finish();
  if (format == "json") std::cout << j.dump() << "\n";
  else if (format == "keys") print_text(j);
  else print_run_summary(j);
  return 0;
}

Json RunCommand::report(const Solver& solver, const SearchResult& r, const Spread& seconds, const SolverConfig& config,
                        const std::string& target) const {
  const Args& a = a_;
  const PuzzleInstance& puzzle = solver.puzzle();
  Json j;
  j["schema_version"] = kSchemaVersion;
  j["searchbench"] = version();
  j["puzzle"] = puzzle.name();
  j["engine"] = a.engine;
  j["encoder"] = solver.encoder_name();
  j["threads"] = r.threads > 0 ? r.threads : config.options.threads;
  j["threads_requested"] = config.options.threads;
  j["cores"] = machine_cores();
  j["start"] = puzzle.start_text();
  j["max_depth"] = a.max_depth;
  if (target.empty()) {  // a point query covers part of the space: no totals to report
    // Cut short by --max-depth: states remained beyond the last depth searched.
    j["truncated"] = a.max_depth >= 0 && r.radius() == a.max_depth && r.states() < puzzle.component_size();
    j["states"] = r.states();
    j["radius"] = r.radius();
    j["depth_counts"] = r.depth_counts;
    if (!r.depth_seconds.empty()) {  // seconds from the start until each depth was done; null: not counted by this run
      Json times = Json::array();
      for (const auto& t : r.depth_seconds) times.push_back(t ? Json(*t) : Json(nullptr));
      j["depth_seconds"] = times;
    }
  } else {
    j["target"] = puzzle.normalize_state(target);
    j["truncated"] = !r.found && a.max_depth >= 0;
    j["distance"] = r.found ? r.distance : -1;
    j["path"] = puzzle.path_text(r.path);
  }
  if (r.heuristic) {  // kept as Fast Downward keeps them: the heuristic's build apart from the search
    const HeuristicStats& h = *r.heuristic;
    j["heuristic"] = {{"name", h.name},       {"build_seconds", h.build_seconds}, {"bytes", h.bytes},
                      {"initial", h.initial}, {"note", h.note},                   {"reused", h.reused}};
    Json iterations = Json::array();
    for (const auto& it : r.iterations) {
      iterations.push_back({{"bound", it.bound}, {"expanded", it.expanded}, {"generated", it.generated}});
      if (it.resumed) iterations.back()["resumed"] = true;
    }
    if (!r.iterations.empty()) j["iterations"] = iterations;
    j["generated_per_second"] = seconds.median() > 0 ? static_cast<double>(r.generated) / seconds.median() : 0.0;
  }
  j["repetitions"] = a.repetitions;
  j["warmup"] = warmup_runs(a.repetitions, a.warmup);
  seconds.put(j);
  if (target.empty()) j["states_per_second"] = seconds.median() > 0 ? static_cast<double>(r.states()) / seconds.median() : 0.0;
  j["expanded"] = r.expanded;
  j["generated"] = r.generated;
  j["peak_bytes"] = r.peak_bytes;
  j["peak_rss_bytes"] = peak_rss_bytes();
  for (const auto& extra : r.extras) std::visit([&](const auto& value) { j[extra.name] = value; }, extra.value);
  return j;
}

}  // namespace searchbench::cli
