// The ring engine over every encoder reproduces the published per-depth counts.
#include <gtest/gtest.h>

#include "encoders/magic_cantor.hpp"
#include "engines/ring_bfs.hpp"
#include "puzzles/magic_board.hpp"
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

// Many targets at once (walked interleaved) give each target's own path_to answer, also
// for boards the search did not reach (max_depth) and in any order and multiplicity.
TEST(RingEngine, PathsToManyTargetsMatchOneAtATime) {
  const MagicBoard board(4, MagicRules::msquare);
  const MagicCantor enc(board);
  for (int max_depth : {-1, 9}) {
    SearchOptions options;
    options.max_depth = max_depth;
    RingBfs<MagicBoard, MagicCantor> ring(board, enc, options);
    ring.explore(board.start());
    std::vector<MagicState> targets;
    for (Key k = 0; k < enc.key_bound(); k += 7) targets.push_back(enc.decode(k));
    targets.push_back(board.start());
    targets.push_back(targets.front());
    const auto paths = ring.paths_to(targets);
    ASSERT_EQ(paths.size(), targets.size());
    std::size_t unreached = 0;
    for (std::size_t i = 0; i < targets.size(); ++i) {
      ASSERT_EQ(paths[i], ring.path_to(targets[i])) << board.format(targets[i]);
      if (!paths[i]) {
        ++unreached;
      } else if (max_depth >= 0) {
        ASSERT_LE(paths[i]->size(), 9u);
      }
    }
    EXPECT_EQ(paths[targets.size() - 2], std::optional<std::string>(""));
    EXPECT_EQ(unreached > 0, max_depth >= 0);
  }
}
