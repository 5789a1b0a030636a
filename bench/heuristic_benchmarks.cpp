// Heuristic search over a set of starts, all to the puzzle's goal: one solver per start, the
// heuristic built once (before the timed loop: its build is reported apart, as
// heuristic_build_seconds), every answer checked against the published optimal length or
// bidir's, and its moves followed to the goal.
#include "bench/heuristic_benchmarks.hpp"

#include <algorithm>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <tbb/task_arena.h>

#include "bench/benchmark_id.hpp"
#include "bench/korf_instances.hpp"
#include "bench/load_counters.hpp"
#include "core/parallel_chunks.hpp"
#include "registry/registry.hpp"

namespace searchbench {

namespace {

struct Start {
  std::string board;
  int optimal = -1;  // -1: unknown until bidir says
  int number = 0;    // a named instance's published number (0: not named)
};

// The set's starts with the length each must be solved in (bidir's where the space is small).
std::vector<Start> starts_of(const BenchmarkPlan::HeuristicSet& set) {
  std::vector<Start> out;
  const auto puzzle = make_puzzle(set.puzzle);
  if (!set.instances.empty()) {
    const auto korf = builtin_instances(set.instances);
    if (!set.numbers.empty()) {  // the instances named, in the order named
      for (const int number : set.numbers) {
        const auto it = std::find_if(korf.begin(), korf.end(), [&](const KorfInstance& k) { return k.number == number; });
        if (it == korf.end()) throw std::invalid_argument(set.instances + " has no instance " + std::to_string(number));
        out.push_back({it->board, it->optimal, it->number});
      }
      return out;
    }
    // The first `count` of them (all when count is their number or more).
    const std::size_t first = std::min(korf.size(), static_cast<std::size_t>(std::max(set.count, 0)));
    for (std::size_t i = 0; i < first; ++i) out.push_back({korf[i].board, korf[i].optimal});
    return out;
  }
  if (set.count == 0) {
    for (auto& s : puzzle->component_states()) out.push_back({std::move(s), -1});
  } else {
    std::mt19937_64 rng(set.seed);
    for (int i = 0; i < set.count; ++i) out.push_back({set.walk > 0 ? puzzle->random_walk(rng(), set.walk) : puzzle->random_state(rng()), -1});
  }
  if (puzzle->component_size() <= 10'000'000) {
    SolverConfig c;
    c.puzzle = set.puzzle;
    c.engine = reference_table_engine().name;
    c.start = puzzle->start_text();
    auto table = make_solver(c);
    table->explore();
    // Distances to the goal are distances from it: every move of these puzzles has an inverse.
    for (auto& s : out) s.optimal = static_cast<int>(table->table_path(s.board)->size());
  }
  return out;
}

// Solves the set, each start with `config`'s threads; `side_by_side` above 0: that many
// starts at once instead, each on one thread (config.options.threads is 1 then).
void heuristic_set(benchmark::State& state, SolverConfig config, std::shared_ptr<const std::vector<Start>> starts,
                   int side_by_side) {
  const std::string goal = make_puzzle(config.puzzle)->start_text();
  std::vector<std::unique_ptr<Solver>> solvers;
  for (const auto& s : *starts) {
    config.start = s.board;
    solvers.push_back(make_solver(config));
  }
  const SearchResult built = solvers.front()->search(goal);  // builds the heuristic, untimed
  std::vector<SearchResult> results(solvers.size());
  tbb::task_arena arena(std::max(side_by_side, 1));
  for (auto _ : state) {
    if (side_by_side == 0) {
      for (std::size_t i = 0; i < solvers.size(); ++i) results[i] = solvers[i]->search(goal);
      continue;
    }
    arena.execute([&] {  // one start a chunk, handed to whichever thread is free
      parallel_chunks(solvers.size(), 1, [&](std::uint64_t begin, std::uint64_t end) {
        for (std::uint64_t i = begin; i < end; ++i) results[i] = solvers[i]->search(goal);
      });
    });
  }
  double generated = 0, search_seconds = 0, slowest = 0;
  std::vector<double> per_instance;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const SearchResult& r = results[i];
    const int expected = (*starts)[i].optimal;
    if (!r.found || (expected >= 0 && r.distance != expected) || solvers[i]->puzzle().follow(r.path) != goal) {
      state.SkipWithError(("start " + (*starts)[i].board + ": no optimal path (got " + std::to_string(r.distance) + ")").c_str());
      return;
    }
    generated += static_cast<double>(r.generated);
    search_seconds += r.seconds;
    slowest = std::max(slowest, r.seconds);
    per_instance.push_back(r.seconds);
    if (const int number = (*starts)[i].number) {  // a few named instances: each one's own figures
      state.counters["instance_" + std::to_string(number) + "_seconds"] = r.seconds;
      state.counters["instance_" + std::to_string(number) + "_generated"] = static_cast<double>(r.generated);
    }
  }
  std::sort(per_instance.begin(), per_instance.end());
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(results.size()));
  state.counters["instances"] = static_cast<double>(results.size());
  state.counters["generated"] = generated;
  state.counters["generated_per_second"] = search_seconds > 0 ? generated / search_seconds : 0;
  state.counters["instance_seconds_median"] = per_instance[per_instance.size() / 2];
  state.counters["instance_seconds_max"] = slowest;
  state.counters["heuristic_build_seconds"] = built.heuristic ? built.heuristic->build_seconds : 0;
  state.counters["heuristic_bytes"] = built.heuristic ? static_cast<double>(built.heuristic->bytes) : 0;
}

}  // namespace

void register_heuristic_sets(bool full) {
  for (const auto& family : families())
    for (const auto& set : family.benchmark_plan.heuristic_sets) {
      if (set.full_only && !full) continue;
      const auto starts = std::make_shared<const std::vector<Start>>(starts_of(set));
      for (const auto& engine : set.engines)
        for (const auto& heuristic : set.heuristics)
          for (int threads : set.threads) {
            if (threads > 1 && !engine_info(engine).threaded) continue;
            SolverConfig c;
            c.puzzle = set.puzzle;
            c.engine = engine;
            c.heuristic = heuristic;
            c.options.threads = threads;
            c.options.keep_table = false;
            if (!set.pattern.empty()) c.heuristic_options["pattern"] = set.pattern;
            // The set's starts `threads` at a time, each on one thread: what that many
            // independent searches reach on this machine, the ceiling of a parallel search's
            // speedup, measured beside it.
            const bool also_side_by_side = set.side_by_side && threads > 1;
            for (const int side_by_side : also_side_by_side ? std::vector<int>{0, threads} : std::vector<int>{0}) {
              const std::string param = set.name + (side_by_side ? ":side-by-side" : "") + ":threads:" + std::to_string(threads);
              SolverConfig run = c;
              if (side_by_side) run.options.threads = 1;
              auto* b = register_benchmark({"heuristic", engine, heuristic, set.puzzle, param}, with_load(heuristic_set), run,
                                           starts, side_by_side)
                            ->Unit(benchmark::kMillisecond)
                            ->UseRealTime();
              // A set that takes minutes a pass runs its passes once each, whatever the run's
              // --benchmark_repetitions.
              if (set.repetitions > 0) b->Iterations(1)->Repetitions(set.repetitions);
            }
          }
    }
}

}  // namespace searchbench
