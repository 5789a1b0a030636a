// The heuristic engines end to end through the registry: Korf's 100 (a sample here, all 100
// in the reproduce run) at their published lengths, the same answer at every thread count,
// astar's distances equal to idastar's, the statistics, and the refusals.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "bench/korf100.hpp"
#include "core/errors.hpp"
#include "registry/registry.hpp"

using namespace searchbench;

namespace {

const std::string kGoal15 = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0";

std::vector<KorfInstance> korf() { return read_korf100(std::string(SEARCHBENCH_SOURCE_DIR) + "/bench/data/korf100.txt"); }

SolverConfig heuristic_config(const std::string& puzzle, const std::string& engine, const std::string& heuristic,
                              const std::string& start, int threads = 1) {
  SolverConfig c;
  c.puzzle = puzzle;
  c.engine = engine;
  c.heuristic = heuristic;
  c.start = start;
  c.options.threads = threads;
  return c;
}

TEST(Korf100, TheFileHoldsTheHundredWithTheirPublishedAverage) {
  const auto all = korf();
  ASSERT_EQ(all.size(), 100u);
  int total = 0;
  for (const auto& k : all) total += k.optimal;
  EXPECT_EQ(total, 5305);  // 53.05 moves on average
  EXPECT_EQ(all.front().board, "13 6 8 12 15 14 0 10 11 7 4 5 9 1 3 2");  // instance 1, mapped to the blank-last goal
  for (const auto& k : all) EXPECT_NO_THROW(make_puzzle("tiles-4x4")->normalize_state(k.board)) << k.number;
}

// The easiest instances, solved with the default heuristic at 2 threads: the published length,
// and moves that really lead from the instance to the goal.
TEST(Korf100, EasiestInstancesAtTheirPublishedLengths) {
  auto all = korf();
  std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.optimal < b.optimal; });
  for (int i = 0; i < 4; ++i) {
    const KorfInstance& k = all[i];
    auto solver = make_solver(heuristic_config("tiles-4x4", "idastar", "", k.board, 2));
    const SearchResult r = solver->search(kGoal15);
    ASSERT_TRUE(r.found) << k.number;
    EXPECT_EQ(r.distance, k.optimal) << k.number;
    EXPECT_EQ(solver->puzzle().follow(r.path), solver->puzzle().normalize_state(kGoal15)) << k.number;
    ASSERT_TRUE(r.heuristic);
    EXPECT_LE(r.heuristic->initial, k.optimal);
    EXPECT_FALSE(r.iterations.empty());
    EXPECT_EQ(r.iterations.back().bound, k.optimal);
  }
}

// Random 8-puzzle boards: idastar's path is the same at 1, 2 and 4 threads and with every
// heuristic (the lexicographically smallest shortest one), and astar's length is the same.
TEST(HeuristicEngines, SameAnswerAtEveryThreadCountAndHeuristic) {
  auto puzzle = make_puzzle("tiles-3x3");
  const std::string goal = puzzle->start_text();
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const std::string start = puzzle->random_state(seed);
    std::string expected;
    for (const auto& h : applicable_heuristics(parse_puzzle("tiles-3x3"))) {
      if (h == "blind") continue;  // exponential at these depths without a visited set
      for (int threads : {1, 2, 4}) {
        const SearchResult r = make_solver(heuristic_config("tiles-3x3", "idastar", h, start, threads))->search(goal);
        ASSERT_TRUE(r.found);
        if (expected.empty()) expected = r.path;
        EXPECT_EQ(r.path, expected) << h << " at " << threads << " threads, seed " << seed;
      }
      auto astar = make_solver(heuristic_config("tiles-3x3", "astar", h, start));
      const SearchResult a = astar->search(goal);
      EXPECT_EQ(a.distance, static_cast<int>(expected.size())) << h;
      EXPECT_EQ(astar->puzzle().follow(a.path), astar->puzzle().normalize_state(goal));
    }
    const SearchResult bidir = make_solver(heuristic_config("tiles-3x3", "bidir", "", start))->search(goal);
    EXPECT_EQ(bidir.path, expected) << "seed " << seed;
  }
}

TEST(HeuristicEngines, ReportTheHeuristicApartFromTheSearch) {
  auto solver = make_solver(heuristic_config("tiles-3x3", "idastar", "manhattan", "8 6 7 2 5 4 3 0 1"));
  const SearchResult r = solver->search("1 2 3 4 5 6 7 8 0");
  EXPECT_EQ(r.distance, 31);
  ASSERT_TRUE(r.heuristic);
  EXPECT_EQ(r.heuristic->name, "manhattan");
  EXPECT_EQ(r.heuristic->initial, 21);
  std::uint64_t generated = 0;
  for (const auto& it : r.iterations) generated += it.generated;
  EXPECT_EQ(generated, r.generated);
  EXPECT_EQ(r.iterations.front().bound, 21);
  // The same target again in this process: the heuristic is reused, not rebuilt.
  const SearchResult again = solver->search("1 2 3 4 5 6 7 8 0");
  EXPECT_TRUE(again.heuristic->reused);
  EXPECT_EQ(again.path, r.path);
}

TEST(HeuristicEngines, Refusals) {
  EXPECT_THROW(make_solver(heuristic_config("tiles-3x3", "idastar", "no-such", "")), InputError);
  EXPECT_THROW(make_solver(heuristic_config("tiles-3x3", "ring", "manhattan", "")), InputError);
  EXPECT_THROW(make_solver(heuristic_config("tiles-3x3", "idastar", "", ""))->explore(), InputError);
  SolverConfig c = heuristic_config("tiles-3x3", "idastar", "manhattan", "");
  c.heuristic_options["no-such-option"] = "1";
  EXPECT_THROW(make_solver(c), InputError);
  // A node budget stops a hopeless query with a clear error instead of running for hours.
  SolverConfig budget = heuristic_config("tiles-4x4", "idastar", "blind", korf().front().board);
  budget.engine_options["node-budget"] = "100000";
  EXPECT_THROW(make_solver(budget)->search(kGoal15), BudgetError);
}

// A target that no invariant rules out but that lies in another component: msquare-2x2's
// three moves generate a square's 8 symmetries, so "2 1 / 4 3" is not among the 8 boards
// reached from "1 2 / 4 3". IDA* answers -1 once its bound passes the component's size (it
// used to deepen for ever), as bidir does; astar exhausts the component.
TEST(HeuristicEngines, UnreachableTargetInAnotherComponent) {
  for (const char* engine : {"idastar", "astar", "bidir"}) {
    for (const int threads : {1, std::string(engine) == "idastar" ? 2 : 1}) {
      SolverConfig c = heuristic_config("msquare-2x2", engine, std::string(engine) == "bidir" ? "" : "blind", "1 2 / 4 3", threads);
      const SearchResult r = make_solver(c)->search("2 1 / 4 3");
      EXPECT_FALSE(r.found) << engine;
      EXPECT_EQ(r.distance, -1) << engine;
    }
  }
}

// A start and a target both in the goal's other half, one move apart: a valid query (it was
// refused as "not reachable"), answered by every kind of engine, the encoders ranking the
// start's half; a target in the start's other half is answered -1.
TEST(HeuristicEngines, TilesQueriesInTheOtherParityHalf) {
  const std::string start = "2 1 3 4 5 6 7 8 0";
  for (const char* engine : {"idastar", "astar", "bidir", "parallel", "ring"}) {
    const bool heuristic = std::string(engine) == "idastar" || std::string(engine) == "astar";
    const SearchResult near = make_solver(heuristic_config("tiles-3x3", engine, heuristic ? "manhattan" : "", start))->search("2 1 3 4 5 6 7 0 8");
    EXPECT_EQ(near.distance, 1) << engine;
    EXPECT_EQ(near.path, "L") << engine;
    const SearchResult far = make_solver(heuristic_config("tiles-3x3", engine, heuristic ? "manhattan" : "", start))->search("1 2 3 4 5 6 7 8 0");
    EXPECT_EQ(far.distance, -1) << engine;
  }
}

}  // namespace
