// searchbench's benchmark matrix, registered at run time from the registry:
//   bfs/<engine>/<encoder>/<puzzle>/threads:<n>     whole-space search (every engine that can,
//                                                     every encoder that fits, every family's examples)
//   point/<engine>/<encoder>/<puzzle>/depth:<d>      point queries to fixed targets at depth d
//   judge/<engine>/<encoder>/<judge>/all-40320       judge throughput
//   bfs/explicit-csr/<encoder>/<puzzle>/threads:<n>  yardstick: GAP-style BFS over the graph made explicit first
//   codec/<encode|decode>/cantor/<puzzle>/<variant>  the cantor fast paths against the textbook code, 4,096 keys
// Google Benchmark's own conventions carry the rates: items_per_second is states per second
// for bfs/, queries per second for point/ and judge/, keys per second for codec/. The
// engine's thread count is in the name (the library's own "threads" key counts its own
// threads, always 1 here). Counters: states, peak_bytes, key_space (key bound of the
// encoder), radius, distance, queries. Times are in microseconds for small spaces and
// milliseconds otherwise, so no case prints as 0. Answers are checked once after the timed
// loop against a reference run; a wrong answer marks the benchmark with SkipWithError.
// Every repetition also records the machine's load around it (load1_before, load1_after:
// /proc/loadavg's 1-minute average; others_cpu_seconds: user CPU time other processes took
// meanwhile; probe_seconds: the wall time between), so the report tells a quiet run apart.
// The yardsticks (naive, and ring with each family's classic encoder) run in the same matrix;
// besides whole spaces, each family's benchmark plan (core/benchmark_plan.hpp) adds its own cases.
// Each benchmark's fields (bench/benchmark_id.hpp) are also its label in the JSON.
//
// Own flags, besides the library's --benchmark_*: --full (adds the large spaces) and
// --threads=LIST (the parallel engines' thread counts, e.g. 1,2,4,8,16; default 1 and the
// powers of two up to the core count). Any other argument, an unknown format and a filter
// that selects nothing are refused with one line and exit status 2.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <map>
#include <memory>
#include <random>
#include <thread>

#include "bench/benchmark_id.hpp"
#include "bench/explicit_graph_bfs.hpp"
#include "bench/heuristic_benchmarks.hpp"
#include "bench/load_counters.hpp"
#include "core/errors.hpp"
#include "judges/registry_routes.hpp"
#include "judges/workloads.hpp"
#include "registry/registry.hpp"

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
  c.engine = reference_table_engine().name;
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
  const std::uint64_t key_space = engine_info(config.engine).uses_encoder ? solver->puzzle().key_bound(solver->encoder_name()) : 0;
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(last.states()));
  state.counters["states"] = static_cast<double>(last.states());
  state.counters["peak_bytes"] = static_cast<double>(last.peak_bytes);
  state.counters["key_space"] = static_cast<double>(key_space);
  state.counters["radius"] = last.radius();
}

// Targets of a puzzle grouped by depth, fixed by a seed.
std::map<int, std::vector<std::string>> targets_by_depth(const std::string& puzzle, const std::vector<int>& depths, int per_depth) {
  SolverConfig c;
  c.puzzle = puzzle;
  c.engine = reference_table_engine().name;
  auto solver = make_solver(c);
  solver->explore();
  std::map<int, std::vector<std::string>> out;
  std::mt19937_64 rng(42);
  for (int tries = 0; tries < 200000; ++tries) {
    const std::string t = solver->puzzle().random_state(rng());
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
  ref.engine = reference_point_query_engine().name;
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

// A judge's whole input (judges/workloads.hpp) answered from one BFS.
void judge_all_targets(benchmark::State& state, JudgeWorkload workload, std::string engine, std::string encoder) {
  const JudgeInput& input = judge_input(workload);
  std::string out;
  for (auto _ : state) {
    out = run_judge(workload.judge, input.text, JudgeOptions{engine, encoder});
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(input.cases));
  state.counters["queries"] = static_cast<double>(input.cases);
}

// The explicit-graph yardstick (bench/explicit_graph_bfs.hpp): the graph is built outside
// the timed loop, as GAP loads its graph beforehand.
// Each graph is built once and kept: the library calls a benchmark once per repetition
// (and more while it sizes the iteration count), and rebuilding the graph every time
// would cost far more than the search it times.
struct CsrGraphs {
  CsrGraph out, in;
};

const CsrGraphs& csr_graphs(const PuzzleInstance& puzzle, const std::string& encoder) {
  static std::map<std::string, std::unique_ptr<CsrGraphs>> cache;
  std::unique_ptr<CsrGraphs>& graphs = cache[puzzle.name() + "/" + encoder];
  if (!graphs) graphs = std::make_unique<CsrGraphs>(CsrGraphs{puzzle.csr_graph(encoder, false), puzzle.csr_graph(encoder, true)});
  return *graphs;
}

void explicit_graph(benchmark::State& state, std::string name, std::string encoder, int threads) {
  const auto puzzle = make_puzzle(name);
  const CsrGraphs& graphs = csr_graphs(*puzzle, encoder);
  const CsrGraph &out = graphs.out, &in = graphs.in;
  ExplicitGraphBfs bfs(out, in, threads);
  const auto source = static_cast<std::uint32_t>(puzzle->start_key(encoder));
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

// An encoder's codec variants (its fast paths against the textbook ones) on a fixed random
// sample of 4,096 keys.
void codec(benchmark::State& state, std::shared_ptr<const CodecLoop> loop) {
  for (auto _ : state) benchmark::DoNotOptimize(loop->run());
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(loop->items));
}

// The whole-space matrix runs every family's examples from kMinStates states up to
// kDefaultStates (kFullStates with --full).
constexpr std::uint64_t kMinStates = 100, kDefaultStates = 5'000'000, kFullStates = 500'000'000;

void register_whole_spaces(bool full) {
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
        // An engine that can keep to top-down levels (parallel's two-bit mode without
        // bottom-up levels) runs so too, for the ratio.
        const bool declares_top_down =
            std::any_of(engine.options.begin(), engine.options.end(), [](const OptionSpec& o) { return o.name == "top-down"; });
        if (declares_top_down && perfect) {
          c.engine_options["top-down"] = "true";
          register_benchmark({"bfs", c.engine + "-topdown", c.encoder, puzzle, threads}, with_load(whole_space), c)
              ->Unit(time_unit_for(puzzle))->UseRealTime();
        }
      }
    }
  }

}

// What each family's benchmark plan (core/benchmark_plan.hpp) asks for besides whole spaces.
void register_explicit_graphs() {
  for (int threads : thread_counts()) {
    const std::string t = "threads:" + std::to_string(threads);
    for (const auto& family : families())
      for (const auto& puzzle : family.benchmark_plan.explicit_graph) {
        const std::string encoder = make_puzzle(puzzle)->encoder_name("");
        register_benchmark({"bfs", "explicit-csr", encoder, puzzle, t}, with_load(explicit_graph), puzzle, encoder, threads)
            ->Unit(benchmark::kMillisecond)->UseRealTime();
      }
  }
}

void register_point_queries() {
  for (const auto& family : families())
    for (const auto& set : family.benchmark_plan.by_depth) {
      const std::string encoder = make_puzzle(set.puzzle)->encoder_name("");
      for (const auto& [depth, targets] : targets_by_depth(set.puzzle, set.depths, set.per_depth)) {
        if (targets.empty()) continue;
        for (const auto& engine : engines()) {
          if (engine.distributed || engine.counts_only) continue;  // whole spaces only (bfs/ and scripts/scale_runs.py time them)
          if (engine.uses_heuristic) continue;  // heuristic engines run the heuristic sets (bench/heuristic_benchmarks.cpp)
          SolverConfig c;
          c.puzzle = set.puzzle;
          c.engine = std::string(engine.name);
          c.encoder = engine.uses_encoder ? encoder : "none";
          register_benchmark({"point", c.engine, c.encoder, c.puzzle, "depth:" + std::to_string(depth)}, with_load(point_queries), c,
                             targets)
              ->Unit(benchmark::kMicrosecond);
        }
      }
    }
  for (const auto& family : families())
    for (const auto& set : family.benchmark_plan.random_targets) {
      const auto puzzle = make_puzzle(set.puzzle);
      std::mt19937_64 rng(set.seed);
      std::vector<std::string> targets;
      for (int i = 0; i < set.count; ++i) targets.push_back(puzzle->random_state(rng()));
      for (const auto& engine : set.engines)
        for (const auto& encoder : set.encoders) {
          SolverConfig c;
          c.puzzle = set.puzzle;
          c.engine = engine;
          c.encoder = encoder;
          register_benchmark({"point", engine, encoder, set.puzzle, "random:" + std::to_string(set.count)}, with_load(point_queries), c,
                             targets)
              ->Unit(time_unit_for(set.puzzle));
        }
    }
}

void register_codecs() {
  for (const auto& family : families())
    for (const auto& set : family.benchmark_plan.codec)
      for (auto& loop : make_puzzle(set.puzzle)->codec_loops(set.encoder, 4096, 1)) {
        auto shared = std::make_shared<const CodecLoop>(std::move(loop));
        register_benchmark({"codec", shared->operation, set.encoder, set.puzzle, shared->variant}, with_load(codec), shared)
            ->Unit(benchmark::kMicrosecond);
      }
}

// Whether the registry has a family for `puzzle` (the test tree's plug-in build has none of
// the judges' puzzles).
bool knows_puzzle(const std::string& puzzle) {
  try {
    parse_puzzle(puzzle);
    return true;
  } catch (const InputError&) {
    return false;
  }
}

void register_judges() {
  for (const auto& workload : judge_workloads()) {
    if (!knows_puzzle(workload.puzzle)) continue;
    for (const auto& engine : workload.engines)
      for (const auto& encoder : applicable_encoders(parse_puzzle(workload.puzzle), engine))
        register_benchmark({"judge", engine, encoder, workload.judge, workload.set}, with_load(judge_all_targets), workload, engine,
                           encoder)
            ->Unit(benchmark::kMillisecond);
  }
}

void print_own_help() {
  benchmark::PrintDefaultHelp();
  std::fprintf(stdout,
               "bench_search's own flags:\n"
               "          [--full]                adds the spaces of 5 to 500 million states\n"
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
      for (const std::string_view flag : {"--benchmark_format=", "--benchmark_out_format="})  // else usage and status 0
        if (const auto f = arg.substr(std::min(flag.size(), arg.size())); arg.starts_with(flag) && f != "console" && f != "json" && f != "csv")
          return std::fprintf(stderr, "bench_search: %s: the format must be console, json or csv\n", argv[i]), 2;
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
  register_whole_spaces(full);
  register_explicit_graphs();
  register_point_queries();
  register_codecs();
  register_judges();
  register_heuristic_sets(full);
  // A filter that selects nothing (or is no regular expression: the library says so too) is a mistake.
  const std::size_t selected = benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (selected > 0) return 0;
  std::fprintf(stderr, "bench_search: --benchmark_filter selects no benchmark (see --benchmark_list_tests)\n");
  return 2;
}
