// searchbench's benchmark matrix, registered at run time from the registry:
//   bfs/<engine>/<encoder>/<puzzle>/threads:<n>     whole-space search (every engine that
//                                                     can, every encoder that fits, every
//                                                     family's examples)
//   point/<engine>/<encoder>/<puzzle>/depth:<d>      point queries to fixed targets at depth d
//   judge/<engine>/<encoder>/<judge>/all-40320       judge throughput
//   bfs/explicit-csr/<encoder>/<puzzle>/threads:<n>  yardstick: GAP-style BFS over the graph
//                                                     made explicit beforehand
//   codec/<encode|decode>/cantor/<puzzle>/<variant>  the cantor fast paths against the
//                                                     textbook code, on 4,096 random keys
// Google Benchmark's own conventions carry the rates: items_per_second is states per second
// for bfs/, queries per second for point/ and judge/, keys per second for codec/. The
// engine's thread count is in the name (the library's own "threads" key counts its own
// threads, always 1 here). Counters: states, peak_bytes, key_space (key bound of the
// encoder), radius, distance, queries. Times are in microseconds for small spaces and
// milliseconds otherwise, so no case prints as 0. Answers are checked once after the timed
// loop against a reference run; a wrong answer marks the benchmark with SkipWithError.
// Every repetition also records the machine's load around it (counters load1_before,
// load1_after: /proc/loadavg's 1-minute average; others_cpu_seconds: user CPU time that other
// processes took meanwhile; probe_seconds: the wall time between the two samples), so the
// report can tell a quiet run from one that shared its cores.
// The yardsticks (naive, and ring + bitpack (magic) / maskhole (checkers) as the classic) run in the same matrix.
// Each benchmark's fields (bench/benchmark_id.hpp) are also its label in the JSON.
//
// Own flags, besides the library's --benchmark_*: --full (adds the large spaces) and
// --threads=LIST (the parallel engines' thread counts, e.g. 1,2,4,8,16; default 1 and the
// powers of two up to the core count). Any other argument is refused with one line.
#include <benchmark/benchmark.h>

#include <sys/resource.h>
#include <unistd.h>

#include <charconv>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <thread>

#include "bench/benchmark_id.hpp"
#include "bench/explicit_graph_bfs.hpp"
#include "judges/judges.hpp"
#include "registry/registry.hpp"
#include "encoders/checkers_combinatorial.hpp"
#include "encoders/magic_cantor.hpp"

using namespace searchbench;

namespace {

// Set by --threads=LIST; empty: 1 and the powers of two up to the core count.
std::vector<int> requested_threads;

std::vector<int> thread_counts() {
  if (!requested_threads.empty()) return requested_threads;
  std::vector<int> out{1};
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  for (int t = 2; t <= cores; t *= 2) out.push_back(t);
  return out;
}

// The machine's load at one moment: the 1-minute load average, the user time of all CPUs
// since boot (/proc/stat: user and nice, and steal, the time the hypervisor gave to other
// machines) and this process's own user time (getrusage, every thread). Kernel time is left
// out on both sides: the kernel's own threads write back the files of the external engine,
// work done for this process that would otherwise count as someone else's.
struct LoadSample {
  double load1 = -1;         // -1: /proc/loadavg unreadable
  double user_seconds = -1;  // -1: /proc/stat unreadable
  double own_seconds = 0;
  std::chrono::steady_clock::time_point when;
};

LoadSample sample_load() {
  LoadSample s;
  std::ifstream("/proc/loadavg") >> s.load1;
  std::ifstream stat("/proc/stat");
  std::string cpu;
  double user, nice, system, idle, iowait, irq, softirq, steal;
  if (stat >> cpu >> user >> nice >> system >> idle >> iowait >> irq >> softirq >> steal && cpu == "cpu")
    s.user_seconds = (user + nice + steal) / static_cast<double>(sysconf(_SC_CLK_TCK));
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  s.own_seconds = static_cast<double>(usage.ru_utime.tv_sec) + static_cast<double>(usage.ru_utime.tv_usec) * 1e-6;
  s.when = std::chrono::steady_clock::now();
  return s;
}

// fn with the load counters of the repetition it runs (set up, timed loop and checks).
// /proc/stat advances by clock ticks, so others_cpu_seconds of a short repetition is
// rough; the report sums it over a case's repetitions before dividing by probe_seconds.
template <class Fn>
auto with_load(Fn fn) {
  return [fn](benchmark::State& state, auto... args) {
    const LoadSample before = sample_load();
    fn(state, args...);
    const LoadSample after = sample_load();
    state.counters["load1_before"] = before.load1;
    state.counters["load1_after"] = after.load1;
    state.counters["probe_seconds"] = std::chrono::duration<double>(after.when - before.when).count();
    if (before.user_seconds >= 0 && after.user_seconds >= 0)
      state.counters["others_cpu_seconds"] =
          (after.user_seconds - before.user_seconds) - (after.own_seconds - before.own_seconds);
  };
}

// Small spaces in microseconds, so that sub-millisecond searches do not print as 0.
benchmark::TimeUnit time_unit_for(const std::string& puzzle) {
  return state_space_size(parse_puzzle(puzzle)) <= 100'000 ? benchmark::kMicrosecond : benchmark::kMillisecond;
}

// The serial ring engine's counts; past 100 million states (msquare 2x6: a ring queue of
// 3.8 GB and minutes per run) the first run's counts instead, which every other run must
// repeat and whose total must be the component size.
const std::vector<std::uint64_t>& reference_counts(const std::string& puzzle, const std::vector<std::uint64_t>& first) {
  static std::map<std::string, std::vector<std::uint64_t>> cache;
  auto it = cache.find(puzzle);
  if (it != cache.end()) return it->second;
  if (state_space_size(parse_puzzle(puzzle)) > 100'000'000) return cache.emplace(puzzle, first).first->second;
  SolverConfig c;
  c.puzzle = puzzle;
  c.engine = "ring";
  c.options.keep_table = false;
  return cache.emplace(puzzle, make_solver(c)->explore().depth_counts).first->second;
}

void whole_space(benchmark::State& state, SolverConfig config) {
  config.options.keep_table = false;
  std::unique_ptr<Solver> solver;
  try {
    solver = make_solver(config);
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    return;
  }
  SearchResult last;
  for (auto _ : state) {
    last = solver->explore();
    benchmark::DoNotOptimize(last.depth_counts.data());
  }
  if (last.depth_counts != reference_counts(config.puzzle, last.depth_counts) ||
      last.states() != state_space_size(parse_puzzle(config.puzzle))) {
    state.SkipWithError("per-depth counts differ from the reference run's");
    return;
  }
  const PuzzleSpec spec = parse_puzzle(config.puzzle);
  std::uint64_t key_space = 0;
  for (const auto& e : encoders(spec))
    if (e.name == solver->encoder_name()) key_space = e.key_bound;
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(last.states()));
  state.counters["states"] = static_cast<double>(last.states());
  state.counters["peak_bytes"] = static_cast<double>(last.peak_bytes);
  state.counters["key_space"] = static_cast<double>(key_space);
  state.counters["radius"] = last.radius();
}

// Targets of msquare-2x4 (or any puzzle) grouped by depth, fixed by a seed.
std::map<int, std::vector<std::string>> targets_by_depth(const std::string& puzzle, const std::vector<int>& depths, int per_depth) {
  SolverConfig c;
  c.puzzle = puzzle;
  c.engine = "ring";
  auto solver = make_solver(c);
  solver->explore();
  std::map<int, std::vector<std::string>> out;
  std::mt19937_64 rng(42);
  for (int tries = 0; tries < 200000; ++tries) {
    const std::string t = solver->random_state(rng());
    const int d = static_cast<int>(solver->table_path(t)->size());
    auto& bucket = out[d];
    if (std::find(depths.begin(), depths.end(), d) != depths.end() && static_cast<int>(bucket.size()) < per_depth &&
        std::find(bucket.begin(), bucket.end(), t) == bucket.end())
      bucket.push_back(t);
  }
  return out;
}

void point_queries(benchmark::State& state, SolverConfig config, std::vector<std::string> targets) {
  auto solver = make_solver(config);
  std::vector<std::string> paths(targets.size());
  for (auto _ : state) {
    for (std::size_t i = 0; i < targets.size(); ++i) paths[i] = solver->search(targets[i]).path;
  }
  SolverConfig ref = config;
  ref.engine = "bidir";
  if (!engine_info(config.engine).uses_encoder) ref.encoder.clear();  // bidir with the family's default
  auto oracle = make_solver(ref);
  for (std::size_t i = 0; i < targets.size(); ++i)
    if (paths[i] != oracle->search(targets[i]).path) {
      state.SkipWithError("a path differs from bidir's");
      return;
    }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(targets.size()));
  state.counters["distance"] = static_cast<double>(paths.empty() ? 0 : paths[0].size());
}

// The whole Sicily 1151 input of every one of the 40,320 boards, and how many boards it has.
// Made once per judge and kept: the library calls a benchmark once per repetition (and more
// while it sizes the iteration count), and drawing the boards again each time would cost
// more than the judge it times.
const std::pair<std::string, std::size_t>& judge_input(const std::string& judge) {
  static std::map<std::string, std::pair<std::string, std::size_t>> cache;
  const auto cached = cache.find(judge);
  if (cached != cache.end()) return cached->second;
  SolverConfig c;
  c.puzzle = judge == "sicily1515" ? "sicily1515" : "msquare";
  c.engine = "naive";
  auto naive = make_solver(c);
  naive->explore();
  std::string input;
  std::mt19937_64 rng(7);
  std::map<std::string, bool> seen;
  for (int i = 0; seen.size() < 40320 && i < 2'000'000; ++i) seen.emplace(naive->random_state(rng()), true);
  for (const auto& [board, _] : seen) input += "30\n" + board.substr(0, board.find('/')) + "\n" + board.substr(board.find('/') + 1) + "\n";
  input += "-1\n";
  return cache.emplace(judge, std::make_pair(std::move(input), seen.size())).first->second;
}

// The whole input answered from one BFS.
void judge_all_targets(benchmark::State& state, std::string judge, std::string engine, std::string encoder) {
  const auto& [input, boards] = judge_input(judge);
  std::string out;
  for (auto _ : state) {
    out = run_judge(judge, input, JudgeOptions{engine, encoder});
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(boards));
  state.counters["queries"] = static_cast<double>(boards);
}

// The explicit-graph yardstick (bench/explicit_graph_bfs.hpp): the graph is built outside
// the timed loop, as GAP loads its graph beforehand.
// Each graph is built once and kept: the library calls a benchmark once per repetition
// (and more while it sizes the iteration count), and rebuilding the graph every time
// would cost far more than the search it times.
struct CsrGraphs {
  CsrGraph out, in;
};

template <class P, class E>
const CsrGraphs& csr_graphs(const P& puzzle, const E& enc, const std::string& name) {
  static std::map<std::string, std::unique_ptr<CsrGraphs>> cache;
  std::unique_ptr<CsrGraphs>& graphs = cache[name];
  if (!graphs) graphs = std::make_unique<CsrGraphs>(CsrGraphs{build_csr(puzzle, enc, false), build_csr(puzzle, enc, true)});
  return *graphs;
}

template <class P, class E>
void explicit_graph(benchmark::State& state, P puzzle, std::string name, int threads) {
  const E enc(puzzle);
  const CsrGraphs& graphs = csr_graphs(puzzle, enc, name);
  const CsrGraph &out = graphs.out, &in = graphs.in;
  ExplicitGraphBfs bfs(out, in, threads);
  const auto source = static_cast<std::uint32_t>(enc.encode(puzzle.start()));
  std::vector<std::uint64_t> counts;
  for (auto _ : state) {
    counts = bfs.run(source);
    benchmark::DoNotOptimize(counts.data());
  }
  if (counts != reference_counts(name, counts)) {
    state.SkipWithError("per-depth counts differ from the reference run's");
    return;
  }
  const double states = static_cast<double>(out.vertices());
  const auto graph_bytes = [](const CsrGraph& g) { return g.offsets.size() * 8.0 + g.targets.size() * 4.0; };
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(states));
  state.counters["states"] = states;
  state.counters["peak_bytes"] = graph_bytes(out) + graph_bytes(in) + states * 4 + states / 4;
  state.counters["key_space"] = states;
  state.counters["radius"] = static_cast<double>(counts.size() - 1);
}

// Cantor ranking and unranking on a fixed random sample: the fast paths (vector ranking,
// table unranking) against the textbook ones (popcount per cell, division per cell).
void cantor_codec(benchmark::State& state, int width, bool decode, bool fast) {
  const MagicBoard board(width, MagicRules::msquare);
  const MagicCantor enc(board);
  std::mt19937_64 rng(1);
  std::vector<Key> keys(4096);
  std::vector<MagicState> states;
  for (auto& k : keys) {
    k = rng() % enc.key_bound();
    states.push_back(enc.decode_by_division(k));
  }
  for (auto _ : state) {
    Key sum = 0;
    if (decode) {
      for (const Key k : keys) {
        const MagicState s = fast ? enc.decode(k) : enc.decode_by_division(k);
        sum += s.cells[0] + s.cells[2 * width - 1];
      }
    } else {
      for (const MagicState& s : states) sum += fast ? enc.encode(s) : enc.encode_by_popcount(s);
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(keys.size()));
}

// The whole-space matrix runs every family's examples from kMinStates states up to
// kDefaultStates (kFullStates with --full).
constexpr std::uint64_t kMinStates = 100, kDefaultStates = 5'000'000, kFullStates = 500'000'000;

void register_all(bool full) {
  for (const auto& family : families()) {
    for (const auto& puzzle : family.examples) {
      const PuzzleSpec spec = parse_puzzle(puzzle);
      const std::uint64_t states = state_space_size(spec);
      if (states < kMinStates || states > (full ? kFullStates : kDefaultStates)) continue;
      const bool large = states > 5'000'000;
      const bool huge = states > 100'000'000;
      for (const Combination& combination : combinations(spec, thread_counts(), true)) {
        const EngineInfo& engine = engine_info(combination.engine);
        const bool perfect = is_perfect_encoder(spec, combination.encoder);  // every key a state: the encoders that scale
        if (huge && !engine.threaded) continue;   // a ring queue alone would take 3.8 GB
        // naive: past a million states a whole-space run takes a minute (hours and tens of
        // GiB past 5 million), so the default set would spend most of its time there.
        if (states > 1'000'000 && !engine.uses_encoder) continue;
        if (large && !perfect) continue;
        if (large && engine.counts_only) continue;  // out of core: disk-bound, measured whole-process by scale_runs.py
        // The counts-only engines (out of core, frontier search) trade time for memory: past a
        // million states they took a fifth of the default run, so there they run with --full.
        if (!full && states > 1'000'000 && engine.counts_only) continue;
        SolverConfig c = combination.config(puzzle);
        const std::string threads = "threads:" + std::to_string(combination.threads);
        auto* b = register_benchmark({"bfs", c.engine, c.encoder, puzzle, threads}, with_load(whole_space), c)->Unit(time_unit_for(puzzle));
        if (engine.threaded) b->UseRealTime();
        // The parallel engine's two-bit mode without bottom-up levels, for the ratio.
        if (combination.engine == "parallel" && perfect) {
          c.options.bottom_up = false;
          register_benchmark({"bfs", "parallel-topdown", c.encoder, puzzle, threads}, with_load(whole_space), c)
              ->Unit(time_unit_for(puzzle))->UseRealTime();
        }
      }
    }
  }

  for (int threads : thread_counts()) {
    const std::string t = "threads:" + std::to_string(threads);
    register_benchmark({"bfs", "explicit-csr", "cantor", "msquare-2x5", t}, with_load(explicit_graph<MagicBoard, MagicCantor>),
                       MagicBoard(5, MagicRules::msquare), std::string("msquare-2x5"), threads)
        ->Unit(benchmark::kMillisecond)->UseRealTime();
    register_benchmark({"bfs", "explicit-csr", "combinatorial", "checkers-21", t}, with_load(explicit_graph<CheckersLine, CheckersCombinatorial>),
                       CheckersLine(21), std::string("checkers-21"), threads)
        ->Unit(benchmark::kMillisecond)->UseRealTime();
  }

  // Point queries by depth on msquare-2x4: every engine with its default encoder.
  const auto by_depth = targets_by_depth("msquare-2x4", {4, 8, 12, 16, 20, 22}, 5);
  for (const auto& [depth, targets] : by_depth) {
    if (targets.empty()) continue;
    for (const auto& engine : engines()) {
      if (engine.distributed || engine.counts_only) continue;  // whole spaces only (bfs/ and scripts/scale_runs.py time them)
      SolverConfig c;
      c.puzzle = "msquare-2x4";
      c.engine = std::string(engine.name);
      c.encoder = engine.uses_encoder ? "cantor" : "none";
      register_benchmark({"point", c.engine, c.encoder, c.puzzle, "depth:" + std::to_string(depth)}, with_load(point_queries), c, targets)
          ->Unit(benchmark::kMicrosecond);
    }
  }
  // Checkers point queries by N: random pairs with the default piece counts.
  for (int n : {11, 15, 19, 21}) {
    SolverConfig probe;
    probe.puzzle = "checkers-" + std::to_string(n);
    auto solver = make_solver(probe);
    std::mt19937_64 rng(n);
    std::vector<std::string> targets;
    for (int i = 0; i < 10; ++i) targets.push_back(solver->random_state(rng()));
    for (const std::string engine : {"bidir", "ring"}) {
      for (const std::string encoder : {"bitpack", "maskhole", "combinatorial"}) {
        SolverConfig c = probe;
        c.engine = engine;
        c.encoder = encoder;
        register_benchmark({"point", engine, encoder, probe.puzzle, "random:10"}, with_load(point_queries), c, targets)
            ->Unit(time_unit_for(probe.puzzle));
      }
    }
  }
  for (const int width : {4, 5, 6}) {
    const std::string puzzle = "msquare-2x" + std::to_string(width);
    for (const bool fast : {true, false}) {
      register_benchmark({"codec", "decode", "cantor", puzzle, fast ? "table" : "division"}, with_load(cantor_codec), width, true, fast)
          ->Unit(benchmark::kMicrosecond);
      register_benchmark({"codec", "encode", "cantor", puzzle, fast ? "vector" : "popcount"}, with_load(cantor_codec), width, false, fast)
          ->Unit(benchmark::kMicrosecond);
    }
  }
  // Judge throughput: all 40,320 boards in one input, answered from one BFS table.
  for (const auto& engine : {"ring", "naive"})
    for (const auto& encoder : applicable_encoders(parse_puzzle("msquare"), engine))
      register_benchmark({"judge", engine, encoder, "sicily1151", "all-40320"}, with_load(judge_all_targets), std::string("sicily1151"),
                         std::string(engine), encoder)
          ->Unit(benchmark::kMillisecond);
}

void print_own_help() {
  benchmark::PrintDefaultHelp();
  std::fprintf(stdout,
               "bench_search's own flags:\n"
               "          [--full]                adds msquare-2x6, checkers-25 and checkers-27\n"
               "          [--threads=<list>]      thread counts of the parallel engines, e.g. 1,2,4,8,16\n"
               "                                  (default: 1 and the powers of two up to the core count)\n");
}

// "1,2,4" -> {1, 2, 4}; empty when the list is not positive integers up to 1024.
std::vector<int> parse_thread_list(std::string_view text) {
  std::vector<int> out;
  while (true) {
    const auto comma = text.find(',');
    const std::string_view item = text.substr(0, comma);
    int value = 0;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), value);
    if (item.empty() || ec != std::errc() || end != item.data() + item.size() || value < 1 || value > 1024) return {};
    out.push_back(value);
    if (comma == std::string_view::npos) return out;
    text.remove_prefix(comma + 1);
  }
}

}  // namespace

int main(int argc, char** argv) {
  bool full = false;
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (i > 0 && arg == "--full") {
      full = true;
    } else if (i > 0 && (arg.starts_with("--threads=") || arg == "--threads")) {
      const std::string_view list = arg == "--threads" ? (i + 1 < argc ? argv[++i] : "") : arg.substr(10);
      requested_threads = parse_thread_list(list);
      if (requested_threads.empty()) {
        std::fprintf(stderr, "bench_search: --threads needs a list of thread counts from 1 to 1024 like 1,2,4, got '%.*s'\n",
                     static_cast<int>(list.size()), list.data());
        return 2;
      }
    } else {
      args.push_back(argv[i]);
    }
  }
  int count = static_cast<int>(args.size());
  args.push_back(nullptr);
  benchmark::Initialize(&count, args.data(), print_own_help);
  // The library removes the --benchmark_* flags it knows and leaves the rest.
  if (count > 1) {
    std::fprintf(stderr, "bench_search: unknown option '%s' (own flags: --full, --threads=LIST; the library's: see --help)\n",
                 args[1]);
    return 2;
  }
  register_all(full);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
}
