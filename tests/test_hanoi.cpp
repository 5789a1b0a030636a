// Four-peg Towers of Hanoi: the rules, both encoders on every placement, the known facts
// (the Frame-Stewart distances of moving a whole tower, and the breadth-first layers of
// eight discs from one tower as other BFS codes print them), through the registry as a
// user reaches them.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "encoders/hanoi_masks.hpp"
#include "encoders/hanoi_pegs.hpp"
#include "puzzles/hanoi4.hpp"
#include "registry/registry.hpp"

using namespace searchbench;

namespace {

std::vector<Hanoi4State> every_placement(const Hanoi4& p) {
  const HanoiPegs pegs(p);
  std::vector<Hanoi4State> out;
  for (Key k = 0; k < pegs.key_bound(); ++k) out.push_back(pegs.decode(k));
  return out;
}

TEST(HanoiMoves, FollowTheRuleAndUndoEachOther) {
  const Hanoi4 p(3);
  EXPECT_EQ(p.move_count(), 12);
  EXPECT_EQ(p.format(p.start()), "1 1 1");
  Hanoi4State s, back;
  ASSERT_TRUE(p.apply(p.start(), 0, s));  // 'A': the smallest disc from peg 1 to peg 2
  EXPECT_EQ(p.format(s), "2 1 1");
  ASSERT_TRUE(p.apply(s, 3, back));  // 'D': peg 2 -> peg 1 takes it back
  EXPECT_EQ(back, p.start());
  Hanoi4State t;
  EXPECT_FALSE(p.apply(s, 0, t));  // peg 1 -> peg 2 would put disc 2 on the smaller disc 1
  EXPECT_FALSE(p.apply(s, 6, t));  // 'G': peg 3 is empty
  ASSERT_TRUE(p.apply(s, 1, t));  // 'B': disc 2 from peg 1 to peg 3
  EXPECT_EQ(p.format(t), "2 3 1");
  for (const Hanoi4State& x : every_placement(Hanoi4(4))) {
    const Hanoi4 q(4);
    for (int m = 0; m < q.move_count(); ++m) {
      EXPECT_NE(Hanoi4::from_peg(m), Hanoi4::to_peg(m));
      Hanoi4State y, z;
      if (!q.apply(x, m, y)) continue;
      ASSERT_TRUE(q.apply(y, q.inverse_move(m), z)) << q.format(x) << " move " << q.move_name(m);
      EXPECT_EQ(z, x);
      ASSERT_TRUE(q.apply_inverse(y, m, z));
      EXPECT_EQ(z, x);
    }
  }
  std::set<std::pair<int, int>> pairs;
  for (int m = 0; m < 12; ++m) pairs.insert({Hanoi4::from_peg(m), Hanoi4::to_peg(m)});
  EXPECT_EQ(pairs.size(), 12u);
  EXPECT_EQ(*pairs.begin(), std::make_pair(0, 1));
  EXPECT_EQ(*pairs.rbegin(), std::make_pair(3, 2));
}

TEST(HanoiParse, ReadsPlacementsAndRefusesBadOnes) {
  const Hanoi4 p(4);
  EXPECT_EQ(p.format(p.parse("1 2 3 4")), "1 2 3 4");
  EXPECT_THROW(p.parse("1 2 3"), InputError);
  EXPECT_THROW(p.parse("1 2 3 5"), InputError);
  EXPECT_THROW(p.parse("0 1 1 1"), InputError);
  EXPECT_THROW(Hanoi4(0), InputError);
  EXPECT_THROW(Hanoi4(17), InputError);
  EXPECT_THROW(parse_puzzle("hanoi4-x"), InputError);
}

TEST(HanoiEncoders, RoundTripEveryPlacement) {
  for (int n : {1, 5, 8}) {
    const Hanoi4 p(n);
    const HanoiPegs pegs(p);
    const HanoiMasks masks(p);
    std::set<Key> seen;
    for (const Hanoi4State& s : every_placement(p)) {
      std::uint16_t all = 0;
      for (const auto m : s.pegs) {
        EXPECT_EQ(all & m, 0);
        all = static_cast<std::uint16_t>(all | m);
      }
      EXPECT_EQ(all, p.all_discs());
      EXPECT_EQ(pegs.decode(pegs.encode(s)), s);
      EXPECT_EQ(masks.decode(masks.encode(s)), s);
      EXPECT_LT(masks.encode(s), masks.key_bound());
      seen.insert(masks.encode(s));
    }
    EXPECT_EQ(seen.size(), pegs.key_bound()) << "masks keys are distinct";
    EXPECT_EQ(pegs.key_bound(), std::uint64_t{1} << (2 * n));
  }
  EXPECT_EQ(HanoiPegs(Hanoi4(16)).key_bound(), std::uint64_t{1} << 32);
}

// Frame-Stewart numbers: the fewest moves that carry a tower of N discs to another peg.
TEST(HanoiFacts, TowerToAnotherPegTakesTheFrameStewartNumber) {
  const std::vector<int> frame_stewart = {1, 3, 5, 9, 13, 17, 25, 33, 41, 49, 65, 81};
  for (int n = 1; n <= 12; ++n) {
    SolverConfig c;
    c.puzzle = "hanoi4-" + std::to_string(n);
    c.engine = "bidir";
    const Hanoi4 p(n);
    const SearchResult r = make_solver(c)->search(p.format(p.tower_on(1)));
    ASSERT_TRUE(r.found) << n;
    EXPECT_EQ(r.distance, frame_stewart[static_cast<std::size_t>(n - 1)]) << n << " discs";
    EXPECT_EQ(static_cast<int>(r.path.size()), r.distance);
  }
}

// Eight discs from a tower: 65,536 placements in 34 layers, the last four 234, 78, 18, 6
// (the per-depth counts other four-peg BFS codes print).
TEST(HanoiFacts, EightDiscsLayersFromATower) {
  for (const char* encoder : {"pegs", "masks"}) {
    SolverConfig c;
    c.puzzle = "hanoi4-8";
    c.engine = "parallel";
    c.encoder = encoder;
    c.options.threads = 2;
    c.options.keep_table = false;
    const SearchResult r = make_solver(c)->explore();
    EXPECT_EQ(r.states(), 65'536u) << encoder;
    EXPECT_EQ(r.radius(), 33) << encoder;
    ASSERT_GE(r.depth_counts.size(), 4u);
    const std::vector<std::uint64_t> tail(r.depth_counts.end() - 4, r.depth_counts.end());
    EXPECT_EQ(tail, (std::vector<std::uint64_t>{234, 78, 18, 6})) << encoder;
  }
}

}  // namespace
