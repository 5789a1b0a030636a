// Checkers line: the known totals and radii, the FZU sample, and random point queries (the
// engines, the distance searches, fzu1603's meeting search and its bitset levels) checked
// against a small breadth-first search written plainly here (strings, std::map).
#include <gtest/gtest.h>

#include <map>
#include <queue>
#include <random>

#include "encoders/checkers_combinatorial.hpp"
#include "encoders/checkers_maskhole.hpp"
#include "judges/checkers_bit_levels.hpp"
#include "judges/checkers_meet.hpp"
#include "registry/registry.hpp"
#include "puzzles/checkers_line.hpp"

using namespace searchbench;

namespace {

// Independent oracle: distance between two boards by swapping characters in strings.
int plain_distance(const std::string& from, const std::string& to) {
  std::map<std::string, int> dist{{from, 0}};
  std::queue<std::string> q;
  q.push(from);
  while (!q.empty()) {
    const std::string s = q.front();
    q.pop();
    if (s == to) return dist[s];
    const int hole = static_cast<int>(s.find('&'));
    for (int delta : {-2, -1, 1, 2}) {
      const int j = hole + delta;
      if (j < 0 || j >= static_cast<int>(s.size())) continue;
      std::string t = s;
      std::swap(t[hole], t[j]);
      if (dist.emplace(t, dist[s] + 1).second) q.push(t);
    }
  }
  return -1;
}

std::string random_board(std::mt19937& rng, int n, int hashes) {
  std::string b = std::string(hashes, '#') + std::string(n - 1 - hashes, '@');
  std::shuffle(b.begin(), b.end(), rng);
  b.insert(b.begin() + static_cast<long>(rng() % static_cast<unsigned>(n)), '&');
  return b;
}

// A point query from `start` to `target` on checkers-N with one engine.
SearchResult query(const std::string& engine, const std::string& start, const std::string& target, int threads = 1) {
  SolverConfig c;
  c.puzzle = "checkers-" + std::to_string(start.size());
  c.engine = engine;
  c.start = start;
  c.options.threads = threads;
  return make_solver(c)->search(target);
}

SearchResult explore(int n, const std::string& encoder = "") {
  SolverConfig c;
  c.puzzle = "checkers-" + std::to_string(n);
  c.encoder = encoder;
  return make_solver(c)->explore();
}

}  // namespace

TEST(Checkers, ReachableTotalsMatchTheBinomialFormula) {
  for (int n = 1; n <= 15; ++n) {
    const int k = (n - 1) / 2;
    EXPECT_EQ(explore(n).states(), CheckersLine::binomial(n - 1, k) * static_cast<std::uint64_t>(n)) << "N=" << n;
  }
}

TEST(Checkers, RadiiFromTheDefaultStart) {
  EXPECT_EQ(explore(5).radius(), 8);
  EXPECT_EQ(explore(7).radius(), 15);
  EXPECT_EQ(explore(9).radius(), 25);
  EXPECT_EQ(explore(11).radius(), 36);
}

TEST(Checkers, EveryEncoderGivesTheSameDepthCounts) {
  const auto reference = explore(13).depth_counts;
  for (const auto& enc : applicable_encoders(parse_puzzle("checkers-13"), "ring")) EXPECT_EQ(explore(13, enc).depth_counts, reference) << enc;
}

TEST(Checkers, FzuSampleNeedsEightMoves) {
  for (const auto& engine : {"ring", "parallel", "bidir", "iddfs", "naive"}) {
    const SearchResult r = query(engine, "##&@@", "@@&##");
    EXPECT_EQ(r.distance, 8) << engine;
    EXPECT_EQ(r.path.size(), 8u) << engine;
  }
}

TEST(Checkers, RandomPointQueriesMatchAPlainBfs) {
  std::mt19937 rng(2024);
  for (int trial = 0; trial < 60; ++trial) {
    const int n = 3 + static_cast<int>(rng() % 13);  // 3..15
    const int hashes = static_cast<int>(rng() % static_cast<unsigned>(n));
    const std::string a = random_board(rng, n, hashes), b = random_board(rng, n, hashes);
    const int expected = plain_distance(a, b);
    for (const auto& engine : {"ring", "parallel", "bidir", "naive"}) {
      const SearchResult r = query(engine, a, b, engine == std::string("parallel") ? 2 : 1);
      ASSERT_EQ(r.distance, expected) << engine << " " << a << " -> " << b;
    }
  }
}

TEST(Checkers, DifferentPieceCountsAreUnreachable) {
  for (const auto& engine : {"ring", "parallel", "bidir", "iddfs", "naive"}) {
    const SearchResult r = query(engine, "##&@@", "#@&@@");
    EXPECT_FALSE(r.found) << engine;
    EXPECT_EQ(r.distance, -1) << engine;
  }
}

TEST(Checkers, PathsReplayToTheTarget) {
  std::mt19937 rng(99);
  const CheckersLine line(17, 8);
  for (int trial = 0; trial < 20; ++trial) {
    const std::string a = random_board(rng, 17, 8), b = random_board(rng, 17, 8);
    SolverConfig c;
    c.puzzle = "checkers-17";
    c.engine = "bidir";
    c.start = a;
    const SearchResult r = make_solver(c)->search(b);
    ASSERT_TRUE(r.found);
    CheckersState s = line.parse(a), next;
    for (char m : r.path) {
      ASSERT_TRUE(line.apply(s, m - 'a', next));
      s = next;
    }
    EXPECT_EQ(line.format(s), b);
  }
}

// fzu1603's meeting search over the classic keys against the plain search: lengths 1..13 in
// random order (its memory is laid out again at each length), equal boards, far pairs.
TEST(Checkers, MeetingSearchMatchesAPlainBfs) {
  std::mt19937 rng(1604);
  CheckersMeet meet;
  int far = 0;
  for (int query = 0; query < 300; ++query) {
    const int n = 1 + static_cast<int>(rng() % 13);
    const int hashes = static_cast<int>(rng() % static_cast<unsigned>(n));
    const CheckersLine line(n, hashes);
    const CheckersMaskHole keys(line);
    const std::string a = random_board(rng, n, hashes);
    const std::string b = query % 10 == 0 ? a : query % 10 == 1 ? std::string(a.rbegin(), a.rend()) : random_board(rng, n, hashes);
    const int expected = plain_distance(a, b);
    const auto key = [&](const std::string& s) { return static_cast<std::uint32_t>(keys.encode(line.parse(s))); };
    ASSERT_EQ(meet.distance(n, n - 1 - hashes, key(a), key(b)), expected) << a << " -> " << b;
    far += expected > 10;
  }
  EXPECT_GT(far, 40);  // the queries are not all trivial
}

// A level moved as bitsets against the same level made board by board, at lengths where each
// kind of jump occurs (a swap inside words, across a pair of words, runs of words shorter and
// longer than a chunk, the jump over the left-out last piece) and with few, half and most
// pieces '#'. `out` may be `before`.
TEST(Checkers, BitsetLevelsMoveEveryBoardAsSingleMovesDo) {
  std::mt19937 rng(12);
  for (const int n : {12, 13, 15, 18, 20}) {
    for (const int hashes : {1, (n - 1) / 2, n - 2}) {
      const CheckersLine line(n, hashes);
      const CheckersMaskHole keys(line);
      CheckersBitLevels levels;
      levels.reset(n, n - 1 - hashes);
      using Bits = std::vector<std::uint64_t>;
      Bits front(levels.words()), before(levels.words()), other(levels.words()), expected(levels.words());
      const auto bit = [&](const CheckersState& s) { return levels.index(static_cast<std::uint32_t>(keys.encode(s))); };
      const auto has = [&](const Bits& bits, const CheckersState& s) { return (bits[bit(s) / 64] >> (bit(s) % 64)) & 1; };
      const auto set = [&](Bits& bits, const CheckersState& s) { bits[bit(s) / 64] |= std::uint64_t{1} << (bit(s) % 64); };
      std::vector<CheckersState> boards;
      for (int i = 0; i < 400; ++i) boards.push_back(line.parse(random_board(rng, n, hashes)));
      for (std::size_t i = 0; i < boards.size(); ++i) set(i % 3 == 0 ? before : front, boards[i]);
      std::uint64_t count = 0;
      bool met = false;
      for (const CheckersState& s : boards) {
        if (!has(front, s)) continue;
        for (int m = 0; m < line.move_count(); ++m) {
          CheckersState t;
          if (!line.apply(s, m, t) || has(front, t) || has(before, t) || has(expected, t)) continue;
          set(expected, t);
          ++count;
          if (count % 50 == 0) set(other, t), met = true;
        }
      }
      Bits out(levels.words());
      const auto level = levels.expand(front.data(), before.data(), other.data(), out.data());
      EXPECT_EQ(out, expected) << "checkers-" << n << " with " << hashes << " '#'";
      EXPECT_EQ(level.count, count) << n;
      EXPECT_EQ(level.met, met) << n;
      const auto in_place = levels.expand(front.data(), before.data(), other.data(), before.data());
      EXPECT_EQ(before, expected) << "checkers-" << n << " written over `before`";
      EXPECT_EQ(in_place.count, count) << n;
    }
  }
}
