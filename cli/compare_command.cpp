#include "cli/compare_command.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <limits>
#include <optional>
#include <random>
#include <stdexcept>

#include "cli/compare_output.hpp"
#include "cli/context.hpp"
#include "cli/number_text.hpp"
#include "cli/progress.hpp"
#include "cli/run_command.hpp"
#include "core/errors.hpp"

namespace searchbench::cli {

namespace {

// Random targets compare draws when given neither --targets nor --random, so that the
// point-query engines (bidir, iddfs) are always compared too.
constexpr int kDefaultRandomTargets = 20;

// One engine x encoder x threads case of compare, timed over the repetitions.
struct CompareRow {
  std::string engine, encoder;
  std::string heuristic;  // heuristic engines only
  int threads_requested = 1, threads = 1;
  Spread seconds;
  double work = 0;  // states explored (whole-space engines) or queries answered
  std::uint64_t peak_bytes = 0;
  std::vector<std::uint64_t> depth_counts;  // whole-space engines only
  std::vector<std::string> answers;         // one path per target, "-" when unreachable
  bool table_counts_agree = true;           // the untimed run that kept its table counted the same
  std::optional<TimeLimitReached> timed_out;  // stopped by --timeout: where, and the partial statistics
};

// One run of a case: the whole space, or every target; its seconds are the search's only.
SearchResult one_run(Solver& solver, const EngineInfo& engine, const std::vector<std::string>& targets,
                     std::vector<std::string>& answers, double& seconds) {
  SearchResult whole;
  if (engine.whole_space) {
    whole = solver.explore();
    seconds = whole.seconds;
    return whole;
  }
  for (const auto& t : targets) {
    const SearchResult r = solver.search(t);
    answers.push_back(r.found ? r.path : "-");
    seconds += r.seconds;
    whole.peak_bytes = std::max(whole.peak_bytes, r.peak_bytes);
  }
  return whole;
}

// The case's runs into `row` (its answers, counts, times and peak), and its table's run.
void measure_runs(const SolverConfig& c, int repetitions, int warmup, const std::vector<std::string>& targets, CompareRow& row) {
  const EngineInfo& engine = engine_info(c.engine);
  auto solver = make_solver(c);
  for (int i = 0; i < warmup + repetitions; ++i) {
    std::vector<std::string> answers;
    double seconds = 0;
    const SearchResult whole = one_run(*solver, engine, targets, answers, seconds);
    if (i > 0 && (answers != row.answers || whole.depth_counts != row.depth_counts))
      throw std::logic_error("a repetition of " + row.engine + "/" + row.encoder + " gave a different answer");
    if (i >= warmup) row.seconds.all.push_back(seconds);
    row.answers = std::move(answers);
    row.depth_counts = whole.depth_counts;
    if (whole.threads > 0) row.threads = whole.threads;
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
}

// One case, its runs and its table's untimed run, within `timeout` seconds in all (0: none).
CompareRow measure_case(const std::string& puzzle, std::uint64_t max_memory, double timeout, int repetitions, int warmup,
                        const Combination& combination, const std::vector<std::string>& targets) {
  // run's own configuration for this engine, encoder and thread count, and run's timing.
  SolverConfig c = run_configuration(puzzle, combination.engine, combination.encoder, combination.threads, max_memory);
  c.heuristic = combination.heuristic;
  c.options.deadline = Deadline::in(timeout);
  CompareRow row;
  row.engine = c.engine;
  row.heuristic = c.heuristic;
  row.encoder = combination.encoder;
  row.threads_requested = combination.threads;
  row.threads = combination.threads;
  try {
    measure_runs(c, repetitions, warmup, targets, row);
  } catch (const TimeLimitReached& e) {
    row.timed_out = e;
  }
  return row;
}

// "bidir, iddfs, idastar and astar": the engines compare runs only with targets.
std::string point_query_engines() {
  std::vector<std::string> names;
  for (const auto& e : engines())
    if (!e.whole_space && !e.distributed) names.emplace_back(e.name);
  return joined(names, " and ");
}

// Whether each row agrees with the first: whole-space counts with the first whole-space
// row's, answers with the first row that answers.
class Agreement {
 public:
  bool check(const EngineInfo& engine, const CompareRow& row) {
    bool agrees = true;
    if (engine.whole_space) {
      if (counts_.empty()) counts_ = row.depth_counts;
      agrees = row.depth_counts == counts_;
    }
    if (!have_answers_ && !engine.counts_only && !engine.any_optimal_path) {
      answers_ = row.answers;
      have_answers_ = true;
    }
    // An engine that returns any shortest path agrees when its lengths do.
    const bool answers_agree = engine.any_optimal_path ? lengths(row.answers) == lengths(answers_) : row.answers == answers_;
    agrees = agrees && row.table_counts_agree && (engine.counts_only || answers_agree);
    all_ = all_ && agrees;
    return agrees;
  }
  bool all() const { return all_; }

 private:
  static std::vector<int> lengths(const std::vector<std::string>& answers) {
    std::vector<int> out;
    for (const auto& a : answers) out.push_back(a == "-" ? -1 : static_cast<int>(a.size()));
    return out;
  }
  bool have_answers_ = false, all_ = true;
  std::vector<std::uint64_t> counts_;
  std::vector<std::string> answers_;
};

// The measured case as compare reports it.
ComparedCase compared(const CompareRow& row, const EngineInfo& engine, bool agrees) {
  ComparedCase c;
  c.engine = row.engine;
  c.encoder = row.encoder;
  c.heuristic = row.heuristic;
  c.threads = row.threads;
  c.threads_requested = row.threads_requested;
  c.whole_space = engine.whole_space;
  c.seconds = row.seconds;
  c.rate = row.seconds.median() > 0 ? row.work / row.seconds.median() : 0.0;
  c.peak_bytes = row.peak_bytes;
  c.agrees = agrees;
  if (row.timed_out) {
    c.timed_out = time_limit_line(*row.timed_out);
    c.partial = partial_statistics(row.timed_out->at);
  }
  return c;
}

// "case 3/11: parallel/cantor, 2 threads".
std::string case_line(std::size_t at, std::size_t of, const Combination& k) {
  return "case " + std::to_string(at) + "/" + std::to_string(of) + ": " + shown_engine(k.engine, k.heuristic) + "/" + k.encoder +
         ", " + std::to_string(k.threads) + (k.threads == 1 ? " thread" : " threads");
}

// Why a name given to --engines has no case: what the engine needs that is missing.
std::string why_no_case(const EngineInfo& e, bool no_targets, bool encoders_given) {
  if (!e.whole_space && no_targets) return "point-query engines need targets: give --random N or --targets FILE";
  if (e.distributed) return "compare never runs the distributed engine";
  return encoders_given ? "it runs with none of the encoders given" : "it does not run on this puzzle";
}

}  // namespace

CLI::App* CompareCommand::add_to(CLI::App& app) {
  Args& a = a_;
  auto* cmd = app.add_subcommand("compare", "Run every engine x encoder, check that all answers agree, rank them by time");
  cmd->add_option("--puzzle", a.puzzle, "puzzle name (see list)");
  cmd->add_option("--targets", a.targets_file, "file with one target state per line, rows split by '/'")->check(CLI::ExistingFile);
  random_ = cmd->add_option("--random", a.random, "add N random reachable targets")
                ->transform(whole_number(0, 1'000'000))
                ->default_str(std::to_string(kDefaultRandomTargets) + " without --targets, else 0");
  cmd->add_option("--seed", a.seed, "seed for the random targets")
      ->transform(whole_number(0, std::numeric_limits<std::uint64_t>::max()));
  // Read as text and split here: CLI11's delimiter drops the empty item of "1,,2" silently.
  cmd->add_option("--threads", a.threads_text,
                  "thread counts for the threaded engines (" + threaded_engines() + "), 1.." + std::to_string(kMaxThreads))
      ->type_name("INT")
      ->transform(whole_number_list(1, kMaxThreads));
  std::vector<std::string> engine_names;
  for (const auto& e : engines()) engine_names.emplace_back(e.name);
  cmd->add_option("--engines", a.engines_text, "only these engines, e.g. ring,parallel (default: every engine)")
      ->type_name("NAME,...")
      ->check(name_list(engine_names, "engine"));
  cmd->add_option("--encoders", a.encoders_text, "only these encoders, e.g. cantor,bitpack (default: every encoder that fits)")
      ->type_name("NAME,...")
      ->check(name_list({}, "encoder"));
  add_size_option(cmd, "--max-memory", a.max_memory, "refuse cases needing more, as run does; external: also the memory it stays within")
      ->default_str(kMaxMemoryDefault);
  add_repetition_options(cmd, a.repetitions, a.warmup);
  add_timeout_option(cmd, a.timeout,
                     "stop each case after this many seconds (its builds and runs count); such a case is shown as timed out, "
                     "its answers unchecked, and the exit status is 4 unless engines disagree");
  format_ = add_format_option(cmd, a.format, {"text", "md", "csv", "json"},
                              "text: tables for people; md: GitHub markdown tables; csv: a row per case, seconds and bytes; "
                              "json: one JSON object with a row per case");
  cmd->add_flag("--json", a.json, "print one JSON object with a row per case: --format json");
  return cmd;
}

std::vector<std::string> CompareCommand::targets(const PuzzleInstance& puzzle, int random) const {
  std::vector<std::string> out;
  if (!a_.targets_file.empty()) {
    std::ifstream f(a_.targets_file);
    if (!f) throw InputError("cannot read targets file '" + a_.targets_file + "'");
    for (std::string line; std::getline(f, line);)
      if (line.find_first_not_of(" \t\r") != std::string::npos) out.push_back(puzzle.normalize_state(line));
  }
  std::mt19937_64 rng(a_.seed);
  for (int i = 0; i < random; ++i) out.push_back(puzzle.random_state(rng()));
  return out;
}

std::vector<Combination> CompareCommand::chosen_cases(const PuzzleSpec& spec, bool no_targets) const {
  const std::vector<Combination> all = combinations(spec, whole_numbers(a_.threads_text), no_targets);
  const std::vector<std::string> engine_filter = split_names(a_.engines_text), encoder_filter = split_names(a_.encoders_text);
  const std::vector<EncoderInfo> fitting = encoders(spec);
  std::vector<std::string> known_encoders = {"none"};  // what the engines that keep whole states run with
  for (const auto& e : fitting) known_encoders.push_back(e.name);
  for (const auto& name : encoder_filter)
    if (std::find(known_encoders.begin(), known_encoders.end(), name) == known_encoders.end())
      throw InputError("--encoders: " + unknown_name("encoder", name, known_encoders, spec.name));
  const auto wanted = [](const std::vector<std::string>& filter, const std::string& name) {
    return filter.empty() || std::find(filter.begin(), filter.end(), name) != filter.end();
  };
  std::vector<Combination> out;
  for (const auto& k : all)
    if (wanted(engine_filter, k.engine) && wanted(encoder_filter, k.encoder)) out.push_back(k);
  const auto has_case = [&](auto field, const std::string& name) {
    return std::any_of(out.begin(), out.end(), [&](const Combination& k) { return k.*field == name; });
  };
  for (const auto& name : engine_filter)
    if (!has_case(&Combination::engine, name))
      throw InputError("--engines: engine '" + name + "' has no case on " + spec.name + " (" +
                       why_no_case(engine_info(name), no_targets, !encoder_filter.empty()) + ")");
  for (const auto& name : encoder_filter)
    if (!has_case(&Combination::encoder, name)) {
      const auto info = std::find_if(fitting.begin(), fitting.end(), [&](const EncoderInfo& e) { return e.name == name; });
      throw InputError("--encoders: encoder '" + name + "' has no case on " + spec.name + " (" +
                       (info != fitting.end() && !info->fit.empty() ? info->fit : "none of the engines compared runs with it") + ")");
    }
  return out;
}

int CompareCommand::run() const {
  const Args& a = a_;
  const Context context;  // the date and the load average as the command starts
  const std::string format = chosen_format(a.format, format_, a.json);
  const PuzzleSpec spec = parse_puzzle(a.puzzle);
  const bool random_given = random_->count() > 0;
  const int random = a.targets_file.empty() && !random_given ? kDefaultRandomTargets : a.random;
  const std::vector<std::string> targets = [&] {
    SolverConfig probe;
    probe.puzzle = a.puzzle;
    auto s = make_solver(probe);
    auto out = this->targets(s->puzzle(), random);
    MemoryBudget::from_option(a.max_memory).check_up_front(s->estimate_explore_bytes(), s->puzzle().name());
    return out;
  }();
  std::string note = std::to_string(targets.size()) + " targets";
  if (!a.targets_file.empty()) note += " from " + a.targets_file;
  if (random > 0) note += (a.targets_file.empty() ? ": " : " and ") + std::to_string(random) + " random (seed " + std::to_string(a.seed) + ")";
  if (a.targets_file.empty() && !random_given) note += "; the default when neither --targets nor --random is given";
  if (targets.empty()) note += "; " + point_query_engines() + " need targets and are left out";
  const std::vector<Combination> cases = chosen_cases(spec, targets.empty());

  const int warmup = warmup_runs(a.repetitions, a.warmup);
  Agreement agreement;
  std::vector<ComparedCase> measured;
  {
    CaseProgressLine progress(isatty(STDERR_FILENO));  // erased when the cases are done, or on an error
    for (std::size_t i = 0; i < cases.size(); ++i) {
      progress.show(case_line(i + 1, cases.size(), cases[i]));
      const EngineInfo& engine = engine_info(cases[i].engine);
      const CompareRow row = measure_case(a.puzzle, a.max_memory, a.timeout, a.repetitions, warmup, cases[i], targets);
      measured.push_back(compared(row, engine, row.timed_out || agreement.check(engine, row)));
    }
  }
  const auto timed_out = std::count_if(measured.begin(), measured.end(), [](const ComparedCase& c) { return c.timed_out.has_value(); });
  const std::vector<CompareTable> tables = arrange(std::move(measured));
  if (format == "json") {
    Json doc;
    doc["schema_version"] = kSchemaVersion;
    doc["searchbench"] = version();
    doc["puzzle"] = spec.name;
    doc["targets"] = targets.size();
    doc["targets_note"] = note;
    doc["cores"] = machine_cores();
    doc["repetitions"] = a.repetitions;
    doc["warmup"] = warmup;
    doc["rows"] = Json::array();
    for (const auto& t : tables)
      for (const auto& c : t.cases) doc["rows"].push_back(case_json(c));
    doc["all_agree"] = agreement.all();
    doc["peak_rss_bytes"] = peak_rss_bytes();
    doc["context"] = context.json();
    std::cout << doc.dump() << "\n";
  } else if (format == "csv") {
    print_csv(tables);
  } else {
    const CompareNotes notes{note, a.repetitions, warmup, targets.size()};
    if (format == "md") print_markdown_tables(tables, notes);
    else print_text_tables(tables, notes);
  }
  if (!agreement.all()) {
    std::fprintf(stderr, "searchbench: engines disagree on %s\n", a.puzzle.c_str());
    return 1;
  }
  if (timed_out > 0) {
    std::fprintf(stderr, "searchbench: %d case(s) of %s stopped by --timeout %s; their answers are unchecked\n",
                 static_cast<int>(timed_out), a.puzzle.c_str(), limit_text(a.timeout).c_str());
    return 4;
  }
  return 0;
}

}  // namespace searchbench::cli
