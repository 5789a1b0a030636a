// Determinism under repetition: the parallel engine, run 20 times with 2, 3 and 4 threads,
// gives the same per-depth counts and the same paths every time (whole-space tables and
// point queries alike).
#include <gtest/gtest.h>

#include <random>

#include "core/registry.hpp"

using namespace searchbench;

namespace {

void check_repeatable(const std::string& puzzle, int repetitions) {
  SolverConfig probe;
  probe.puzzle = puzzle;
  auto reference = make_solver(probe);  // ring engine: the serial reference
  const SearchResult whole = reference->explore();
  std::vector<std::string> targets;
  std::mt19937_64 rng(5);
  for (int i = 0; i < 40; ++i) targets.push_back(reference->random_state(rng()));
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
