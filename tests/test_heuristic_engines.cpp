// The heuristic engines end to end through the registry: Korf's 100 (a sample here, all 100
// in the reproduce run) at their published lengths, the same answer at every thread count,
// astar's distances equal to idastar's, the statistics, and the refusals.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <stdexcept>

#include "bench/korf_instances.hpp"
#include "core/errors.hpp"
#include "puzzles/sliding_tiles.hpp"
#include "registry/registry.hpp"

using namespace searchbench;

namespace {

const std::string kGoal15 = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0";

std::vector<KorfInstance> korf() { return read_korf_instances(std::string(SEARCHBENCH_SOURCE_DIR) + "/bench/data/korf100.txt"); }
std::vector<KorfInstance> korf_felner() {
  return read_korf_instances(std::string(SEARCHBENCH_SOURCE_DIR) + "/bench/data/korf-felner50.txt");
}

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

// Korf and Felner's 50 24-puzzles (2002), the first ten Korf and Taylor's (1996): lengths
// 81..114, 100.78 on average; every board in the goal's half.
TEST(KorfFelner50, TheFileHoldsTheFiftyWithTheirPublishedAverage) {
  const auto all = korf_felner();
  ASSERT_EQ(all.size(), 50u);
  int total = 0;
  for (const auto& k : all) total += k.optimal;
  EXPECT_EQ(total, 5039);
  EXPECT_EQ(all[0].optimal, 95);
  // Korf and Taylor's first (length 100), mapped to the blank-last goal.
  EXPECT_EQ(all[4].board, "14 21 19 17 15 18 13 12 7 2 1 22 0 4 10 20 11 6 3 23 9 16 5 24 8");
  EXPECT_EQ(all[4].optimal, 100);
  const SlidingTiles board(5, 5);
  for (const auto& k : all) EXPECT_TRUE(board.reachable(board.parse(k.board))) << k.number;
  std::istringstream mixed("1 57 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3\n" + std::string("2 95 14 5 9 2 18 8 23 19 12 17 15 0 10 20 4 6 11 21 1 7 24 3 16 22 13\n"));
  EXPECT_THROW(parse_korf_instances(mixed, "mixed"), std::runtime_error);  // one board size to a file
}

// A 24-puzzle scramble (50 random moves) through the registry: the same lexicographically smallest path with
// every heuristic and at 1 and 2 threads, the databases built in memory from 3-tile patterns
// (the 6-6-6-6 default takes minutes: the reproduce run's --full set solves Korf and
// Felner's instances with it). The encoders cannot rank 25!/2 boards, so the
// breadth-first engines refuse the board.
TEST(TwentyFourPuzzle, ScrambleSolvedAlikeByEveryHeuristic) {
  auto puzzle = make_puzzle("tiles-5x5");
  const std::string goal = puzzle->start_text();
  const std::string start = puzzle->random_walk(11, 50);
  std::string expected;
  for (const char* h : {"manhattan", "linear-conflict", "pdb"})
    for (const int threads : {1, 2}) {
      SolverConfig c = heuristic_config("tiles-5x5", "idastar", h, start, threads);
      if (std::string(h) == "pdb") {
        c.heuristic_options["pattern"] = "1,2,3/4,5,6/7,8,9/10,11,12/13,14,15/16,17,18/19,20,21/22,23,24";
        c.heuristic_options["pdb-cache"] = "none";
      }
      auto solver = make_solver(c);
      const SearchResult r = solver->search(goal);
      ASSERT_TRUE(r.found) << h;
      if (expected.empty()) expected = r.path;
      EXPECT_EQ(r.path, expected) << h << " at " << threads << " threads";
      EXPECT_EQ(solver->puzzle().follow(r.path), solver->puzzle().normalize_state(goal));
      EXPECT_LE(r.heuristic->initial, r.distance) << h;
    }
  EXPECT_GE(expected.size(), 20u);  // a real scramble, not a few moves
  EXPECT_EQ(expected.size() % 2, 0u);  // the blank returns to its corner
  EXPECT_THROW(make_solver(heuristic_config("tiles-5x5", "ring", "", start)), InputError);
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

namespace {

// idastar --workdir: a query stopped part way (here by a depth limit) and resumed gives the
// uninterrupted run's answer, path and bounds, the earlier bounds marked as read back; a
// folder holding a checkpoint is never overwritten by a fresh run, and a checkpoint that is
// damaged, foreign or of another query is refused, each with one line.
TEST(IdaStarCheckpoint, ResumedQueryGivesTheUninterruptedAnswer) {
  const std::string folder = ::testing::TempDir() + "/searchbench_idastar_" + std::to_string(::getpid());
  std::filesystem::remove_all(folder);
  const std::string start = "8 6 7 2 5 4 3 0 1", goal = "1 2 3 4 5 6 7 8 0";
  const SearchResult whole = make_solver(heuristic_config("tiles-3x3", "idastar", "manhattan", start))->search(goal);
  ASSERT_EQ(whole.distance, 31);
  const auto with_folder = [&](bool resume, const std::string& from, int threads = 1) {
    SolverConfig c = heuristic_config("tiles-3x3", "idastar", "manhattan", from, threads);
    c.engine_options["workdir"] = folder;
    if (resume) c.engine_options["resume"] = "true";
    return c;
  };
  SolverConfig first = with_folder(false, start);
  first.options.max_depth = 27;  // bounds 21..27, then stopped
  const SearchResult stopped = make_solver(first)->search(goal);
  EXPECT_FALSE(stopped.found);
  ASSERT_EQ(stopped.iterations.size(), 4u);
  const std::string file = folder + "/idastar-checkpoint";
  const auto read_file = [&] {
    std::ifstream in(file);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  const std::string saved = read_file();
  for (const int threads : {1, 2}) {
    std::ofstream(file, std::ios::trunc) << saved;  // the resumed run saved bound 29 in its turn
    const SearchResult resumed = make_solver(with_folder(true, start, threads))->search(goal);
    ASSERT_TRUE(resumed.found);
    EXPECT_EQ(resumed.path, whole.path);
    ASSERT_EQ(resumed.iterations.size(), whole.iterations.size());
    for (std::size_t i = 0; i < whole.iterations.size(); ++i) {
      EXPECT_EQ(resumed.iterations[i].bound, whole.iterations[i].bound);
      EXPECT_EQ(resumed.iterations[i].resumed, i < 4) << i;
    }
    EXPECT_EQ(resumed.iterations[4].bound, 29);  // the first bound this run searched
  }
  const auto refusal = [](const SolverConfig& c, const std::string& goal_text) {
    try {
      make_solver(c)->search(goal_text);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no refusal");
  };
  EXPECT_NE(refusal(with_folder(false, start), goal).find("holds an idastar checkpoint already"), std::string::npos);
  EXPECT_NE(refusal(with_folder(true, "8 6 7 2 5 4 3 1 0"), goal).find("a checkpoint of another query"), std::string::npos);
  std::string text = read_file();
  text[text.find("bound ") + 6] ^= 1;  // one digit changed
  std::ofstream(file, std::ios::trunc) << text;
  EXPECT_NE(refusal(with_folder(true, start), goal).find("damaged"), std::string::npos);
  std::ofstream(file, std::ios::trunc) << "P5 not ours\n";
  EXPECT_NE(refusal(with_folder(true, start), goal).find("not an idastar checkpoint"), std::string::npos);
  EXPECT_EQ(read_file(), "P5 not ours\n");  // left as it was
  std::filesystem::remove(file);
  EXPECT_NE(refusal(with_folder(true, start), goal).find("nothing to resume"), std::string::npos);
  SolverConfig no_folder = heuristic_config("tiles-3x3", "idastar", "manhattan", start);
  no_folder.engine_options["resume"] = "true";
  EXPECT_THROW(make_solver(no_folder), InputError);
  std::filesystem::remove_all(folder);
}

}  // namespace
