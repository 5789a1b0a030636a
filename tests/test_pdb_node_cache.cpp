// The pattern databases' node cache (TilesPdb::NodeCache, core/heuristic.hpp's hooks): along
// long random walks, a cache carried from parent to child, as IDA* carries it, gives every
// child's estimate exactly (estimate_child == estimate) and stays what cache_of builds from
// scratch; on the 8-, 15- and 24-puzzles, with the reflection and without it (a target whose
// blank is off the diagonal), with the default patterns and with small ones.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/heuristic.hpp"
#include "heuristics/tiles_pdb.hpp"

namespace searchbench {
namespace {

static_assert(TilesPdb::kCapabilities.node_cache && HasNodeCacheHooks<TilesPdb, SlidingTiles>);

// Whether a carried cache holds what cache_of(s) holds, the fields its patterns use.
bool same_cache(const TilesPdb& h, int cells, const TilesPdb::NodeCache& a, const TilesPdb::NodeCache& b) {
  if (a.md != b.md || a.excess != b.excess || (h.reflects() && a.reflected != b.reflected)) return false;
  for (int c = 0; c < cells; ++c)
    if (a.where[c] != b.where[c]) return false;
  for (std::size_t p = 0; p < h.patterns().size(); ++p)
    if (a.half[p] != b.half[p] || (h.reflects() && a.mirrored[p] != b.mirrored[p])) return false;
  return true;
}

// The end of a seeded walk from the start whose blank lies on the main diagonal away from the
// corner (a target the reflection serves, relabelled), or, with `on_diagonal` false, off it.
TilesState walked_target(const SlidingTiles& board, std::uint64_t seed, bool on_diagonal) {
  std::mt19937_64 rng(seed);
  for (;;) {
    TilesState s = board.start(), next;
    for (int step = 0; step < 500; ++step)
      if (board.apply(s, static_cast<int>(rng() % 4), next)) s = next;
    const int b = board.blank(s), cols = board.columns();
    if ((b / cols == b % cols && b != board.cells() - 1) == on_diagonal) return s;
  }
}

// `steps` random moves from the target's far side, each node's children all checked.
void walk(const SlidingTiles& board, const TilesPdb& h, const TilesState& target, int steps, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  TilesState s = target, child;
  TilesPdb::NodeCache cache = h.cache_of(s), child_cache;
  ASSERT_EQ(h.estimate(s), 0);
  std::uint64_t checked = 0;
  for (int step = 0; step < steps; ++step) {
    for (int m = 0; m < board.move_count(); ++m) {
      if (!board.apply(s, m, child)) continue;
      ++checked;
      const int expected = h.estimate(child);
      ASSERT_EQ(h.estimate_child(s, cache, m, child, child_cache), expected)
          << "move " << board.move_name(m) << " from " << board.format(s) << " (step " << step << ")";
      ASSERT_TRUE(same_cache(h, board.cells(), child_cache, h.cache_of(child))) << "after move " << board.move_name(m)
                                                                               << " from " << board.format(s);
    }
    int m;
    do m = static_cast<int>(rng() % 4);
    while (!board.apply(s, m, child));
    h.estimate_child(s, cache, m, child, child_cache);
    s = child;
    cache = child_cache;  // carried, never rebuilt
  }
  EXPECT_GT(checked, static_cast<std::uint64_t>(steps));
}

PdbOptions in_memory(std::string pattern) {
  PdbOptions o;
  o.pattern = std::move(pattern);
  o.pdb_cache = "none";
  return o;
}

// The goal, and with `every_target` a target of each kind walked_target makes.
void check_board(const char* name, const std::string& pattern, int steps, bool every_target = true) {
  SCOPED_TRACE(std::string(name) + " pattern '" + pattern + "'");
  const SlidingTiles board = *SlidingTiles::from_name(name);
  SearchOptions search;
  search.threads = 2;
  std::vector<TilesState> targets = {board.start()};
  if (every_target) targets.insert(targets.end(), {walked_target(board, 51, true), walked_target(board, 52, false)});
  std::uint64_t seed = 1;
  for (const TilesState& target : targets) {
    const TilesPdb h(board, target, in_memory(pattern), search);
    const int b = board.blank(target), cols = board.columns();
    EXPECT_EQ(h.reflects(), board.rows() == cols && b / cols == b % cols);
    walk(board, h, target, steps, seed++);
  }
}

TEST(TilesPdbNodeCache, EightPuzzleDefaultAndSmallPatterns) {
  check_board("tiles-3x3", "", 20'000);
  check_board("tiles-3x3", "1,2,3/4,5,6/7,8", 20'000);
  check_board("tiles-2x4", "", 20'000);  // not square: no reflection
}

TEST(TilesPdbNodeCache, FifteenPuzzleSmallPatterns) {
  check_board("tiles-4x4", "1,2,3,4/5,6,7,8/9,10,11,12/13,14,15", 20'000);
  check_board("tiles-4x4", "1,2,5,6,9/3,4,7,8/10,13,14/11,12,15", 20'000);
}

// The 15-puzzle's default split (6-6-3) builds in seconds; its entries reach past the small
// patterns' nibbles.
TEST(TilesPdbNodeCache, FifteenPuzzleDefaultPatterns) { check_board("tiles-4x4", "", 5'000, false); }

TEST(TilesPdbNodeCache, TwentyFourPuzzleThreeTilePatterns) {
  check_board("tiles-5x5", "1,2,3/4,5,6/7,8,9/10,11,12/13,14,15/16,17,18/19,20,21/22,23,24", 20'000);
  check_board("tiles-5x5", "1,6,11/2,7,12/3,8,13/4,9,14/5,10,15/16,17,18/19,20,21/22,23,24", 20'000);
}

}  // namespace
}  // namespace searchbench
