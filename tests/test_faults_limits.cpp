// Searches that end when they are told to: --timeout stops every engine within a fraction
// of a second of the limit with exit 4, one line saying where it was and, under --json, its
// partial statistics; compare gives each case the limit and goes on; idastar's node budget
// is checked as nodes are expanded, over every thread; point queries report progress.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>

#include "cli_run.hpp"
#include "registry/registry.hpp"
#include "sanitizer_build.hpp"

namespace {

using searchbench_tests::Outcome;
using searchbench_tests::run;

// Korf's instances 1 (57 moves) and 16 (42 moves) of "Depth-first iterative-deepening"
// (Artificial Intelligence 27, 1985, Table 1), in his convention: the goal has the blank first.
const std::string kKorfGoal = "'0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15'";
const std::string kKorf1 = "'14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3'";
const std::string kKorf16 = "'1 3 2 5 10 9 15 6 8 14 13 11 12 4 7 0'";

// A query that takes each engine far longer than a second: the whole of pancake-11
// (39,916,800 states; the two-bit parallel engine needs about 4 s of 2 cores) for the
// whole-space engines, Korf's first instance for the point-query ones.
std::string long_query(const searchbench::EngineInfo& e) {
  if (e.whole_space) return "run --puzzle pancake-11 --engine " + std::string(e.name);
  return "run --puzzle tiles-4x4 --engine " + std::string(e.name) + (e.uses_heuristic ? " --heuristic manhattan" : "") +
         " --start " + kKorf1 + " --target " + kKorfGoal;
}

Outcome timed(const std::string& args, double& seconds, const std::string& setup = "") {
  const auto begin = std::chrono::steady_clock::now();
  Outcome o = run(args, "", "", "", setup);
  seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  return o;
}

TEST(LimitFaults, TimeoutStopsEveryEngineWithItsPartialStatistics) {
  for (const auto& engine : searchbench::engines()) {
    if (engine.distributed) continue;  // in searchbench-mpi; its ranks stop through MPI's abort
    const std::string args = long_query(engine) + " --timeout 0.3 --json";
    double seconds = 0;
    const Outcome o = timed(args, seconds);
    EXPECT_EQ(o.status, 4) << args << ": " << o.err;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << args << ": " << o.err;
    EXPECT_NE(o.err.find("the time limit of 0.3 s passed (--timeout)"), std::string::npos) << o.err;
    // The limit, the process's start and one look at the clock between chunks of work.
    EXPECT_LT(seconds, searchbench_tests::kSanitized ? 10.0 : 3.0) << args;
    const auto j = nlohmann::json::parse(o.out);
    EXPECT_EQ(j["exit_status"], 4);
    ASSERT_TRUE(j.contains("partial")) << o.out;
    EXPECT_FALSE(j["partial"]["where"].get<std::string>().empty()) << o.out;
    EXPECT_GE(j["partial"]["seconds"].get<double>(), 0.0) << o.out;
    EXPECT_TRUE(j["partial"].contains(engine.whole_space ? "reached" : "generated")) << o.out;
  }
}

TEST(LimitFaults, TimeoutBadValuesAreRefused) {
  for (const char* bad : {"-1", "abc", "1e3", "inf"})
    searchbench_tests::expect_refusal(std::string("run --puzzle msquare --timeout ") + bad, "--timeout");
  const Outcome fine = run("run --puzzle msquare --timeout 30 --json");  // a run that ends in time is untouched
  EXPECT_EQ(fine.status, 0) << fine.err;
  EXPECT_EQ(nlohmann::json::parse(fine.out)["states"], 40320);
}

// Each case gets the limit; the cases past it are shown as timed out with where they were,
// the others are still checked against each other, and the exit status says some were cut.
TEST(LimitFaults, CompareGivesEachCaseTheTimeLimit) {
  const std::string args = "compare --puzzle pancake-11 --random 2 --threads 2 --timeout 0.2 --json";
  double seconds = 0;
  const Outcome o = timed(args, seconds);
  EXPECT_EQ(o.status, 4) << o.err;
  EXPECT_NE(o.err.find("stopped by --timeout 0.2 s; their answers are unchecked"), std::string::npos) << o.err;
  const auto j = nlohmann::json::parse(o.out);
  int cut = 0, finished = 0;
  for (const auto& row : j["rows"]) {
    if (row.value("timed_out", false)) {
      ++cut;
      EXPECT_TRUE(row["partial"].contains("expanded")) << row.dump();
      EXPECT_NE(row["error"].get<std::string>().find("--timeout"), std::string::npos) << row.dump();
    } else {
      ++finished;
      EXPECT_TRUE(row["agrees"].get<bool>()) << row.dump();
    }
  }
  EXPECT_GT(cut, 0) << o.out;  // the whole-space engines cannot count 39.9M states in 0.2 s
  EXPECT_TRUE(j["all_agree"].get<bool>());
  EXPECT_LT(seconds, 20.0 * (searchbench_tests::kSanitized ? 5 : 1));
}

// Korf's instance 16 with Manhattan distance expands 2,389,568 nodes before its last
// iteration (bound 42) and about 3.9 million in all: a budget of exactly the first figure
// runs out inside the last iteration, and stops it within a few thousand nodes per thread,
// where a check at the end of each iteration let it finish and answer.
TEST(LimitFaults, NodeBudgetIsCheckedAsNodesAreExpanded) {
  const std::uint64_t budget = 2'389'568;
  for (const int threads : {1, 2}) {
    const std::string args = "run --puzzle tiles-4x4 --engine idastar --heuristic manhattan --start " + kKorf16 + " --target " +
                             kKorfGoal + " --node-budget " + std::to_string(budget) + " --threads " + std::to_string(threads);
    const Outcome o = run(args);
    EXPECT_EQ(o.status, 3) << args << ": " << o.err;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(o.err, m, std::regex(R"(node budget of (\d+) nodes spent \((\d+) expanded\))"))) << o.err;
    EXPECT_EQ(std::stoull(m[1]), budget);
    EXPECT_GT(std::stoull(m[2]), budget);
    EXPECT_LE(std::stoull(m[2]), budget + 4096ull * static_cast<std::uint64_t>(threads)) << o.err;
  }
}

// help shows each engine's own default where engines share an option.
TEST(LimitFaults, HelpShowsEachEnginesDefaultBudget) {
  const Outcome o = run("help run");
  ASSERT_EQ(o.status, 0);
  std::string expected;
  for (const auto& e : searchbench::engines())
    for (const auto& spec : e.options)
      if (spec.name == "node-budget") expected += (expected.empty() ? "" : ", ") + std::string(e.name) + ": " + spec.default_text;
  EXPECT_NE(o.out.find("=" + expected), std::string::npos) << expected << "\n" << o.out;
}

// A line per bound (idastar), depth limit (iddfs) or level (bidir) as it ends, and
// heartbeats inside a long one (astar too), with nodes, rate and memory.
TEST(LimitFaults, PointQueriesReportProgress) {
  const std::string fast = "SEARCHBENCH_HEARTBEAT_SECONDS=0.05; export SEARCHBENCH_HEARTBEAT_SECONDS; ";
  const std::regex line(R"((f bound \d+|f \d+|depth limit \d+|depths \d+\+\d+) (done|in progress) +expanded \d+  generated \d+ +\d+ nodes/s  holding [0-9.]+ [KMGT]?i?B  elapsed +[0-9.]+ s)");
  for (const auto& engine : searchbench::engines()) {
    if (engine.whole_space) continue;
    double seconds = 0;
    const Outcome o = timed(long_query(engine) + " --timeout 0.5 --progress", seconds, fast);
    EXPECT_EQ(o.status, 4) << engine.name << ": " << o.err;
    std::istringstream lines(o.err);
    int progress = 0;
    for (std::string l; std::getline(lines, l);) {
      if (l.rfind("searchbench: ", 0) == 0) continue;
      EXPECT_TRUE(std::regex_match(l, line)) << engine.name << ": " << l;
      ++progress;
    }
    EXPECT_GE(progress, 2) << engine.name << ": " << o.err;
  }
  // The lines of the bounds that ended are the JSON's iterations.
  const Outcome o = run("run --puzzle tiles-4x4 --engine idastar --heuristic manhattan --threads 2 --progress --json --start " +
                        kKorf16 + " --target " + kKorfGoal);
  ASSERT_EQ(o.status, 0) << o.err;
  const auto j = nlohmann::json::parse(o.out);
  std::uint64_t expanded = 0;
  std::string expected;
  const auto& iterations = j["iterations"];
  for (std::size_t i = 0; i + 1 < iterations.size(); ++i) {  // the last ends with the answer, not a line
    expanded += iterations[i]["expanded"].get<std::uint64_t>();
    expected += "f bound " + std::to_string(iterations[i]["bound"].get<int>()) + " done|" + std::to_string(expanded) + "\n";
  }
  std::string seen;
  std::istringstream lines(o.err);
  std::smatch m;
  for (std::string l; std::getline(lines, l);)
    if (std::regex_search(l, m, std::regex(R"(^(f bound \d+ done) +expanded (\d+))"))) seen += m[1].str() + "|" + m[2].str() + "\n";
  EXPECT_EQ(seen, expected);
}

}  // namespace
