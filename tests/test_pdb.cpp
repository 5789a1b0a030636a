// The pattern databases: their entries against independent BFS distances, admissibility
// (h <= the true distance) on every state of small boards, consistency where declared, the
// reflection lookup, and the cache files (reuse, damage, foreign files, concurrency).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "encoders/cube_coordinate.hpp"
#include "encoders/magic_cantor.hpp"
#include "encoders/tiles_cantor.hpp"
#include "core/heuristic.hpp"
#include "core/timer.hpp"
#include "engines/parallel_bfs.hpp"
#include "heuristics/cube_pdb.hpp"
#include "heuristics/magic_pdb.hpp"
#include "heuristics/tiles_pdb.hpp"

namespace searchbench {
namespace {

PdbOptions in_memory(std::string pattern = "") {
  PdbOptions o;
  o.pattern = std::move(pattern);
  o.pdb_cache = "none";
  return o;
}

SearchOptions two_threads() {
  SearchOptions s;
  s.threads = 2;
  return s;
}

// Distances TO `target` of every key of a perfect encoder, from an explicit reversed edge
// list (independent of apply_inverse and of the database's own BFS).
template <class P, class E>
std::vector<int> distances_to(const P& puzzle, const E& enc, const typename P::State& target) {
  const Key bound = enc.key_bound();
  std::vector<std::uint32_t> first(bound + 1, 0), from;  // the edges into key k: from[first[k] .. first[k+1])
  typename P::State next;
  for (int pass = 0; pass < 2; ++pass) {
    if (pass == 1) {
      for (Key k = 0; k < bound; ++k) first[k + 1] += first[k];
      from.resize(first[bound]);
    }
    std::vector<std::uint32_t> filled(pass == 1 ? bound : 0, 0);
    for (Key k = 0; k < bound; ++k) {
      const auto s = enc.decode(k);
      for (int m = 0; m < puzzle.move_count(); ++m) {
        if (!puzzle.apply(s, m, next)) continue;
        const Key to = enc.encode(next);
        if (pass == 0) ++first[to + 1];
        else from[first[to] + filled[to]++] = static_cast<std::uint32_t>(k);
      }
    }
  }
  std::vector<int> d(bound, -1);
  std::deque<Key> queue{enc.encode(target)};
  d[queue.front()] = 0;
  while (!queue.empty()) {
    const Key k = queue.front();
    queue.pop_front();
    for (std::uint32_t e = first[k]; e < first[k + 1]; ++e)
      if (d[from[e]] < 0) d[from[e]] = d[k] + 1, queue.push_back(from[e]);
  }
  return d;
}

// Every state: h <= d, h(target) = 0; returns the edges s -> t with h(s) > 1 + h(t).
template <class P, class E, class H>
std::uint64_t check_admissible(const P& puzzle, const E& enc, const H& h, const typename P::State& target) {
  const std::vector<int> d = distances_to(puzzle, enc, target);
  EXPECT_EQ(h.estimate(target), 0);
  std::uint64_t inconsistent = 0, reachable = 0;
  typename P::State next;
  for (Key k = 0; k < enc.key_bound(); ++k) {
    if (d[k] < 0) continue;
    ++reachable;
    const auto s = enc.decode(k);
    const int hs = h.estimate(s);
    EXPECT_LE(hs, d[k]) << puzzle.format(s);
    if (hs > d[k]) return inconsistent;
    for (int m = 0; m < puzzle.move_count(); ++m)
      if (puzzle.apply(s, m, next) && hs > 1 + h.estimate(next) && ++inconsistent == 1)
        std::printf("  first inconsistent edge: h(%s) = %d, h(%s) = %d\n", puzzle.format(s).c_str(), hs,
                    puzzle.format(next).c_str(), h.estimate(next));
  }
  EXPECT_GT(reachable, 0u);
  return inconsistent;
}

// The abstraction's distances by a plain queue over its own moves, least over the regions.
std::vector<int> naive_tiles_pattern(const SlidingTiles& board, const std::vector<int>& tiles, const TilesState& target) {
  const TilesPatternSpace space(board, tiles, target);
  const TilesPatternRank rank(space);
  std::map<Key, int> seen{{rank.encode(space.start()), 0}};
  std::deque<TilesPatternState> queue{space.start()};
  TilesPatternState next;
  while (!queue.empty()) {
    const TilesPatternState s = queue.front();
    queue.pop_front();
    const int d = seen[rank.encode(s)];
    for (int m = 0; m < space.move_count(); ++m)
      if (space.apply(s, m, next) && seen.emplace(rank.encode(next), d + 1).second) queue.push_back(next);
  }
  std::vector<int> best(rank.placements(), kUnreachedPdbEntry);
  for (const auto& [k, d] : seen) {
    int& b = best[k / rank.regions_per_placement()];
    b = std::min(b, d);
  }
  return best;
}

TEST(TilesPdb, EntriesAreTheAbstractionsDistances) {
  for (const char* size : {"2x3", "3x3"}) {
    const SlidingTiles board = *SlidingTiles::from_name(std::string("tiles-") + size);
    const TilesPdb h(board, board.start(), in_memory(), two_threads());
    for (std::size_t p = 0; p < h.patterns().size(); ++p) {
      const std::vector<int> expected = naive_tiles_pattern(board, h.patterns()[p], board.start());
      ASSERT_EQ(h.nibbles(p).size(), (expected.size() + 1) / 2);
      for (std::size_t i = 0; i < expected.size(); ++i)  // a placement that cannot reach the target may hold anything
        if (expected[i] != kUnreachedPdbEntry) {
          ASSERT_EQ(h.stored_distance(p, i), expected[i]) << size << " pattern " << p << " entry " << i;
        }
    }
  }
}

// The 24-puzzle's tables by the same check, on 3-tile patterns (the naive queue would take
// hours over a 6-tile one): a far corner's tiles and the tiles around the blank's corner.
TEST(TilesPdb, FiveByFiveEntriesAreTheAbstractionsDistances) {
  const SlidingTiles board(5, 5);
  const TilesPdb h(board, board.start(), in_memory("1,2,3/4,5,6/7,8,9/10,11,12/13,14,15/16,17,18/19,20,21/22,23,24"), two_threads());
  ASSERT_TRUE(h.reflects());
  for (const std::size_t p : {std::size_t{0}, h.patterns().size() - 1}) {
    const std::vector<int> expected = naive_tiles_pattern(board, h.patterns()[p], board.start());
    ASSERT_EQ(expected.size(), 13'800u);  // 25 * 24 * 23 placements
    for (std::size_t i = 0; i < expected.size(); ++i)
      if (expected[i] != kUnreachedPdbEntry) {
        ASSERT_EQ(h.stored_distance(p, i), expected[i]) << "pattern " << p << " entry " << i;
      }
  }
  EXPECT_EQ(tiles_patterns(board, "").size(), 4u);  // 6-6-6-6 by default
  EXPECT_EQ(tiles_patterns(board, "6-6-6-6"), tiles_patterns(board, ""));
}

TEST(TilesPdb, AdmissibleOnEveryStateOfSmallBoards) {
  struct Case {
    const char* puzzle;
    const char* pattern;
  };
  for (const Case c : {Case{"tiles-2x3", ""}, Case{"tiles-2x3", "1,2,3/4,5"}, Case{"tiles-3x2", "1,3,5/2,4"},
                       Case{"tiles-3x3", ""}, Case{"tiles-3x3", "1,2,3/4,5,6/7,8"}}) {
    const SlidingTiles board = *SlidingTiles::from_name(c.puzzle);
    const TilesCantor enc(board);
    const TilesPdb h(board, board.start(), in_memory(c.pattern), two_threads());
    const std::uint64_t inconsistent = check_admissible(board, enc, h, board.start());
    std::printf("%s pattern '%s': %llu inconsistent edges\n", c.puzzle, c.pattern, static_cast<unsigned long long>(inconsistent));
    if (is_consistent<TilesPdb>()) {
      EXPECT_EQ(inconsistent, 0u);
    }
  }
}

TEST(TilesPdb, AdmissibleTowardsAnotherTarget) {
  const SlidingTiles board(3, 3);
  const TilesCantor enc(board);
  const TilesState target = board.parse("8 7 6 / 5 4 3 / 2 0 1");  // blank off the diagonal: no reflection
  const TilesPdb h(board, target, in_memory(), two_threads());
  EXPECT_FALSE(h.reflects());
  check_admissible(board, enc, h, target);
}

TEST(TilesPdb, ReflectionIsAdmissibleAndHelps) {
  const SlidingTiles board(3, 3);
  const TilesCantor enc(board);
  const TilesPdb h(board, board.start(), in_memory("1,2,3/4,5,6/7,8"), two_threads());
  ASSERT_TRUE(h.reflects());
  check_admissible(board, enc, h, board.start());
  // Somewhere the reflected lookup must exceed the plain sum (else it adds nothing).
  bool larger = false;
  for (Key k = 0; k < enc.key_bound() && !larger; ++k) {
    const TilesState s = enc.decode(k);
    int plain = 0;
    for (std::size_t p = 0; p < h.patterns().size(); ++p) plain += h.pattern_value(p, s);
    larger = h.estimate(s) > plain;
  }
  EXPECT_TRUE(larger);
}

TEST(TilesPdb, PatternsAreCheckedAndNamed) {
  const SlidingTiles b4(4, 4), b3(3, 3);
  EXPECT_EQ(tiles_patterns(b4, "").size(), 3u);
  EXPECT_EQ(tiles_patterns(b4, "7-8").size(), 2u);
  EXPECT_EQ(tiles_patterns(b4, "5-5-5").size(), 3u);
  EXPECT_EQ(tiles_patterns(b3, "").size(), 2u);
  EXPECT_EQ(tiles_patterns(SlidingTiles(3, 4), "").size(), 2u);
  const auto refused = [](const SlidingTiles& b, const char* text, const char* says) {
    try {
      tiles_patterns(b, text);
      ADD_FAILURE() << text << " was accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
  };
  refused(b3, "1,2,3,4/5,6,7", "tile 8 is in no pattern");
  refused(b3, "1,2,3,4/4,5,6,7,8", "more than one pattern");
  refused(b3, "1,2,3,4/5,6,7,9", "not a tile");
  refused(b3, "1,2,,3", "empty member");
  refused(b3, "6-6-3", "names (4-4)");
}

TEST(TilesPdb, RefusesWhatTheMemoryBudgetCannotHold) {
  SearchOptions tight = two_threads();
  tight.memory = MemoryBudget::of(1 << 20);
  const SlidingTiles board(4, 4);
  try {
    TilesPdb h(board, board.start(), in_memory("7-8"), tight);
    ADD_FAILURE() << "7-8 built within 1 MiB";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--max-memory"), std::string::npos) << e.what();
  }
}

TEST(MagicPdb, AdmissibleAndConsistentOnWholeBoards) {
  for (const char* name : {"msquare-2x3", "msquare-2x4", "sicily1515-2x4"}) {
    const MagicBoard board = *MagicBoard::from_name(name);
    const MagicCantor enc(board);
    for (const char* pattern : {"", "1,2,3/4,5,6", "2,4,6/1,3,5"}) {
      const MagicPdb h(board, board.start(), in_memory(pattern), two_threads());
      EXPECT_EQ(check_admissible(board, enc, h, board.start()), 0u) << name << " '" << pattern << "'";
    }
  }
}

TEST(MagicPdb, ExactWithAllButOneValue) {
  const MagicBoard board = *MagicBoard::from_name("msquare-2x4");
  const MagicCantor enc(board);
  const MagicState target = board.parse("3 1 2 4 / 8 7 5 6");
  const MagicPdb h(board, target, in_memory(), two_threads());
  EXPECT_EQ(h.pattern_count(), 1u);
  const std::vector<int> d = distances_to(board, enc, target);
  for (Key k = 0; k < enc.key_bound(); ++k)
    if (d[k] >= 0) {
      ASSERT_EQ(h.estimate(enc.decode(k)), d[k]);
    }
}

TEST(CubePdb, AdmissibleAndConsistentOnEveryCube) {
  const PocketCube cube(CubeMetric::quarter_turn);
  const CubeCoordinate enc(cube);
  const CubePdb h(cube, cube.start(), in_memory(), two_threads());
  EXPECT_EQ(check_admissible(cube, enc, h, cube.start()), 0u);
  EXPECT_EQ(h.bytes(), 2u * 2520 * 243);
}

TEST(CubePdb, SixCornersAreExact) {
  const PocketCube cube(CubeMetric::half_turn);
  const CubeCoordinate enc(cube);
  const CubePdb h(cube, cube.start(), in_memory("URF,UFL,ULB,UBR,DFR,DLF"), two_threads());
  SearchOptions keep = two_threads();
  ParallelBfs<PocketCube, CubeCoordinate> bfs(cube, enc, keep);
  bfs.explore(cube.start());
  for (Key k = 0; k < enc.key_bound(); k += 97) ASSERT_EQ(h.estimate(enc.decode(k)), bfs.depth_mod_of(k));
}

// Measurements, not checks (run with --gtest_also_run_disabled_tests): the 15-puzzle's
// default databases' build or load, and a plain IDA* over them on a few of Korf's 100
// instances (written blank-first as published; rotated half a turn, tile v -> 16 - v, they
// become instances of the suite's blank-last goal at the same distance).
struct PlainIdaStar {
  const SlidingTiles& board;
  const TilesPdb& h;
  TilesState goal;
  std::uint64_t nodes = 0;
  int search(TilesState& s, int g, int bound, int previous, int blank_h) {
    ++nodes;
    const int f = g + blank_h;
    if (f > bound) return f;
    if (blank_h == 0 && s == goal) return -1;
    int next_bound = 1 << 20;
    TilesState child;
    for (int m = 0; m < 4; ++m) {
      if (m == 3 - previous || !board.apply(s, m, child)) continue;
      const int t = search(child, g + 1, bound, m, h.estimate(child));
      if (t < 0) return t;
      next_bound = std::min(next_bound, t);
    }
    return next_bound;
  }
  int solve(TilesState s) {
    for (int bound = h.estimate(s);;) {
      const int t = search(s, 0, bound, -1, h.estimate(s));
      if (t < 0) return bound;
      bound = t;
    }
  }
};

TEST(TilesPdb, DISABLED_MeasureFifteenPuzzle) {
  const SlidingTiles board(4, 4);
  PdbOptions o;  // the default cache folder and pattern
  Timer timer;
  const TilesPdb h(board, board.start(), o, two_threads());
  std::printf("6-6-3: %.2f s, %llu bytes; %s\n", timer.seconds(), static_cast<unsigned long long>(h.bytes()), h.build_note().c_str());
  const char* korf[] = {"14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", "13 5 4 10 9 12 8 14 2 3 7 1 0 15 11 6",
                        "14 7 8 2 13 11 10 4 9 12 5 0 3 6 1 15", "5 12 10 7 15 11 14 0 8 2 1 13 3 4 9 6"};
  for (const char* text : korf) {
    std::vector<int> published;
    for (std::size_t at = 0, end; at < std::strlen(text); at = end + 1) {
      end = std::string(text).find(' ', at);
      if (end == std::string::npos) end = std::strlen(text);
      published.push_back(std::stoi(std::string(text).substr(at, end - at)));
    }
    std::string rotated;
    for (int c = 15; c >= 0; --c) rotated += std::to_string(published[c] ? 16 - published[c] : 0) + " ";
    const TilesState s = board.parse(rotated);
    PlainIdaStar ida{board, h, board.start()};
    Timer t;
    const int d = ida.solve(s);
    std::printf("%s: %d moves, %llu nodes, %.2f s\n", text, d, static_cast<unsigned long long>(ida.nodes), t.seconds());
  }
}

}  // namespace
}  // namespace searchbench
