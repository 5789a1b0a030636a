// The ring engine over every encoder reproduces the published per-depth counts.
#include <gtest/gtest.h>

#include "registry/registry.hpp"
#include "known_facts.hpp"

using namespace searchbench;

namespace {

SearchResult explore(const std::string& puzzle, const std::string& encoder) {
  SolverConfig c;
  c.puzzle = puzzle;
  c.engine = "ring";
  c.encoder = encoder;
  return make_solver(c)->explore();
}

}  // namespace

TEST(RingEngine, Msquare2x4DepthCountsEveryEncoder) {
  for (const auto& enc : applicable_encoders(parse_puzzle("msquare"), "ring")) {
    SCOPED_TRACE(enc);
    const SearchResult r = explore("msquare", enc);
    EXPECT_EQ(r.depth_counts, facts::kMsquare2x4Depths);
    EXPECT_EQ(r.states(), 40'320u);
    EXPECT_EQ(r.expanded, 40'320u);
    EXPECT_EQ(r.generated, 3u * 40'320u);
    EXPECT_GT(r.peak_bytes, 0u);
  }
}

TEST(RingEngine, Sicily1515DepthCountsEveryEncoder) {
  for (const auto& enc : applicable_encoders(parse_puzzle("sicily1515"), "ring")) {
    SCOPED_TRACE(enc);
    EXPECT_EQ(explore("sicily1515", enc).depth_counts, facts::kSicily1515Depths);
  }
}

TEST(RingEngine, Msquare2x3And2x5TotalsAndRadii) {
  for (const auto& enc : applicable_encoders(parse_puzzle("msquare-2x3"), "ring")) {
    SCOPED_TRACE(enc);
    const SearchResult r = explore("msquare-2x3", enc);
    EXPECT_EQ(r.states(), 720u);
    EXPECT_EQ(r.radius(), 12);
  }
  for (const auto& enc : applicable_encoders(parse_puzzle("msquare-2x5"), "ring")) {
    SCOPED_TRACE(enc);
    const SearchResult r = explore("msquare-2x5", enc);
    EXPECT_EQ(r.states(), 3'628'800u);
    EXPECT_EQ(r.radius(), 27);
  }
}

TEST(RingEngine, PointQueryStopsAtTargetWithSmallestPath) {
  SolverConfig c;
  c.engine = "ring";
  c.encoder = "cantor";
  auto solver = make_solver(c);
  const SearchResult r = solver->search("5 8 7 6 / 4 1 2 3");  // Sicily 1151 sample: 2 AB
  EXPECT_TRUE(r.found);
  EXPECT_EQ(r.distance, 2);
  EXPECT_EQ(r.path, "AB");
  EXPECT_LT(r.states(), 40'320u);
  const SearchResult self = solver->search("1 2 3 4 / 8 7 6 5");
  EXPECT_EQ(self.distance, 0);
  EXPECT_EQ(self.path, "");
}

TEST(RingEngine, MaxDepthLimitsTheSearch) {
  SolverConfig c;
  c.options.max_depth = 5;
  auto solver = make_solver(c);
  const SearchResult r = solver->explore();
  EXPECT_EQ(r.radius(), 5);
  EXPECT_EQ(r.states(), 1u + 3 + 7 + 14 + 26 + 51);
  EXPECT_FALSE(solver->search("5 8 7 6 / 4 1 2 3").found == false);
  SolverConfig deep;
  deep.options.max_depth = 1;
  EXPECT_FALSE(make_solver(deep)->search("5 8 7 6 / 4 1 2 3").found);
}
