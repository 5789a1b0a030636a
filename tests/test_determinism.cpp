// Determinism under repetition: the parallel engine, run 20 times with 2, 3 and 4 threads,
// gives the same per-depth counts and the same paths every time (whole-space tables and
// point queries alike).
#include <gtest/gtest.h>

#include <random>

#include "registry/registry.hpp"

using namespace searchbench;

namespace {

void check_repeatable(const std::string& puzzle, int repetitions) {
  SolverConfig probe;
  probe.puzzle = puzzle;
  auto reference = make_solver(probe);  // ring engine: the serial reference
  const SearchResult whole = reference->explore();
  std::vector<std::string> targets;
  std::mt19937_64 rng(5);
  for (int i = 0; i < 40; ++i) targets.push_back(reference->puzzle().random_state(rng()));
  std::vector<std::string> expected;
  for (const auto& t : targets) expected.push_back(*reference->table_path(t));

  for (int run = 0; run < repetitions; ++run) {
    SolverConfig c = probe;
    c.engine = "parallel";
    c.options.threads = 2 + run % 3;
    auto solver = make_solver(c);
    ASSERT_EQ(solver->explore().depth_counts, whole.depth_counts) << "run " << run;
    for (std::size_t i = 0; i < targets.size(); ++i) {
      ASSERT_EQ(*solver->table_path(targets[i]), expected[i]) << "run " << run << " target " << targets[i];
      if (i % 8 == 0) {
        ASSERT_EQ(solver->search(targets[i]).path, expected[i]) << "run " << run;
      }
    }
  }
}

}  // namespace

TEST(Determinism, ParallelEngineRepeatsOnMsquare2x4) { check_repeatable("msquare-2x4", 20); }
TEST(Determinism, ParallelEngineRepeatsOnCheckers13) { check_repeatable("checkers-13", 20); }

// The counts-only runs on larger spaces: two bits per key, top-down and direction-optimizing
// levels, against the serial ring engine. A bottom-up level generates parents, not
// successors, so a different `generated` count proves one ran.
void check_counts_only(const std::string& puzzle, const std::string& encoder) {
  SolverConfig c;
  c.puzzle = puzzle;
  c.encoder = encoder;
  c.options.keep_table = false;
  const SearchResult serial = make_solver(c)->explore();
  ASSERT_EQ(serial.states(), state_space_size(parse_puzzle(puzzle)));
  c.engine = "parallel";
  for (const int threads : {1, 2, 4}) {
    c.options.threads = threads;
    c.engine_options.erase("top-down");
    const SearchResult optimizing = make_solver(c)->explore();
    c.engine_options["top-down"] = "true";
    const SearchResult top_down = make_solver(c)->explore();
    ASSERT_EQ(optimizing.depth_counts, serial.depth_counts) << threads << " threads";
    ASSERT_EQ(top_down.depth_counts, serial.depth_counts) << threads << " threads";
    ASSERT_EQ(top_down.generated, serial.generated);
    ASSERT_NE(optimizing.generated, top_down.generated) << "no bottom-up level ran";
  }
}

TEST(CountsOnly, ParallelTwoBitLevelsOnMsquare2x5) { check_counts_only("msquare-2x5", "cantor"); }
TEST(CountsOnly, ParallelTwoBitLevelsOnCheckers15) { check_counts_only("checkers-15", "combinatorial"); }
