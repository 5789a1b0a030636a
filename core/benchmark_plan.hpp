// What a puzzle family asks the benchmark matrix to run beyond the whole-space runs of its
// examples (which every family gets): point queries to targets fixed by depth or drawn at
// random, the explicit-graph yardstick, its encoders' codec variants, and heuristic searches
// over sets of starts. A puzzle type declares it as
// `static BenchmarkPlan benchmark_plan()`; bench/bench_search.cpp reads it through the
// registry and knows no family by name.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace searchbench {

struct BenchmarkPlan {
  // Point queries from the start to `per_depth` targets at each of `depths` moves (drawn by
  // a fixed seed), for every engine that answers point queries, each with the family's
  // default encoder.
  struct ByDepth {
    std::string puzzle;
    std::vector<int> depths;
    int per_depth = 5;
  };
  // Point queries to `count` random targets drawn by `seed`, for each of
  // `engines` x `encoders`.
  struct RandomTargets {
    std::string puzzle;
    std::uint64_t seed = 1;
    int count = 10;
    std::vector<std::string> engines, encoders;
  };
  // An encoder's codec variants (its decode_variants() and encode_variants()) timed on
  // 4,096 random keys of `puzzle`.
  struct Codec {
    std::string puzzle, encoder;
  };
  // Heuristic searches (the engines that take a heuristic) from a set of starts to the
  // puzzle's start (its goal): the built-in set named by `instances` ("korf100": Korf's 100
  // 15-puzzles, "korf-felner50": Korf and Felner's 50 24-puzzles; the first `count`, or the
  // instances `numbers` names; every answer checked against its published length),
  // or `count` starts drawn by `seed` (0: every state of the puzzle; with `walk`, scrambles of
  // that many moves), checked against bidir where the space is small. Each of `engines` x `heuristics` x `threads`; `full_only`
  // sets run with bench_search --full only.
  struct HeuristicSet {
    std::string puzzle{}, name{};
    std::string instances{};
    int count = 100;
    std::uint64_t seed = 1;
    std::vector<std::string> engines{"idastar"}, heuristics{};
    std::vector<int> threads{1};
    bool full_only = false;
    std::string pattern{};  // the heuristic's --pattern (empty: its default)
    int walk = 0;         // above 0: each start is a random walk of this many moves (a scramble)
    std::vector<int> numbers{};  // of `instances`, these (by their published numbers) instead of the first `count`
    int repetitions = 0;         // above 0: one pass a repetition, this many (minutes-long sets)
    // Also, at each thread count N above 1, the starts N at a time, each on one thread: the
    // ceiling a parallel search's speedup is measured against.
    bool side_by_side = false;
  };
  std::vector<ByDepth> by_depth;
  std::vector<HeuristicSet> heuristic_sets;
  std::vector<RandomTargets> random_targets;
  // Puzzles the explicit-graph yardstick runs on (a GAP-style BFS over the graph made
  // explicit beforehand), with the family's perfect ranking as vertex ids.
  std::vector<std::string> explicit_graph;
  std::vector<Codec> codec;
};

}  // namespace searchbench
