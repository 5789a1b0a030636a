// Engine `frontier` (breadth-first frontier search, two layers in memory) against the
// parallel engine on every family whose moves all have inverses, and its refusals: the
// magic board (rotations without a one-move inverse), point queries, a memory limit.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/errors.hpp"
#include "registry/registry.hpp"

using namespace searchbench;

namespace {

SearchResult explore(const std::string& puzzle, const std::string& engine, int threads, std::uint64_t memory_limit = 0) {
  SolverConfig c;
  c.puzzle = puzzle;
  c.engine = engine;
  c.options.threads = threads;
  c.options.keep_table = false;
  c.options.memory = MemoryBudget::of(memory_limit);
  return make_solver(c)->explore();
}

TEST(Frontier, CountsEqualTheParallelEnginesOnEveryReversibleFamily) {
  // Larger than the matrix's instances (the cube's 3.7 million states are there already).
  for (const char* puzzle : {"tiles-3x3", "tiles-2x4", "pancake-8", "hanoi4-8", "checkers-15"}) {
    const SearchResult reference = explore(puzzle, "parallel", 2);
    for (int threads : {1, 2}) {
      const SearchResult r = explore(puzzle, "frontier", threads);
      EXPECT_EQ(r.depth_counts, reference.depth_counts) << puzzle << " t" << threads;
      EXPECT_EQ(r.expanded, r.states()) << puzzle;
      EXPECT_EQ(r.depth_seconds.size(), r.depth_counts.size()) << puzzle;
      EXPECT_GT(r.peak_bytes, 0u);
    }
  }
  EXPECT_TRUE(every_move_has_inverse(parse_puzzle("checkers-9")));
  EXPECT_FALSE(every_move_has_inverse(parse_puzzle("msquare-2x4")));
}

TEST(Frontier, RefusesTheMagicBoardPointQueriesAndAnExhaustedLimit) {
  SolverConfig c;
  c.puzzle = "msquare-2x4";
  c.engine = "frontier";
  try {
    make_solver(c);
    FAIL() << "frontier ran on the magic board";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("inverse move"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(applicable_encoders(parse_puzzle("msquare-2x4"), "frontier").empty());
  EXPECT_FALSE(applicable_encoders(parse_puzzle("tiles-3x3"), "frontier").empty());
  c.puzzle = "tiles-3x3";
  EXPECT_THROW(make_solver(c)->search("1 2 3 4 5 6 7 0 8"), InputError);
  EXPECT_THROW(explore("tiles-3x3", "frontier", 1, 4096), BudgetError);
  SolverConfig limited = c;
  limited.options.max_depth = 5;
  const SearchResult r = make_solver(limited)->explore();
  EXPECT_EQ(r.radius(), 5);
  const std::vector<std::uint64_t> all = explore("tiles-3x3", "parallel", 1).depth_counts;
  EXPECT_EQ(r.depth_counts, std::vector<std::uint64_t>(all.begin(), all.begin() + 6));
}

}  // namespace
