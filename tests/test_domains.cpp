// The search literature's standard domains: sliding tiles, pancake sorting and the 2x2x2
// cube. Their puzzles and encoders are tested directly, without the registry:
//  * parsing refuses bad input (length, repeats, unreachable parity or twist) with InputError;
//  * every encoder round-trips every state of small sizes, the perfect ones as a bijection
//    onto [0, key_bound());
//  * whole-space per-depth counts equal the published tables (OEIS A089473 for the
//    8-puzzle, A067607 for pancakes, the 2x2x2 cube's in both metrics), the pancake ones
//    also checked against a plain BFS written here from the definition;
//  * every engine returns the same lexicographically smallest shortest path as the naive one.
// The "DomainCounts" cases run whole spaces of up to 3.6M states: Release only.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <unordered_set>
#include <vector>

#include "core/permutation_rank.hpp"
#include "encoders/cube_bitpack.hpp"
#include "encoders/cube_coordinate.hpp"
#include "encoders/pancake_cantor.hpp"
#include "encoders/permutation_nibbles.hpp"
#include "encoders/tiles_blank_low.hpp"
#include "encoders/tiles_cantor.hpp"
#include "engines/bidir_bfs.hpp"
#include "engines/iddfs.hpp"
#include "engines/naive_bfs.hpp"
#include "engines/parallel_bfs.hpp"
#include "engines/ring_bfs.hpp"
#include "puzzles/pancake_stack.hpp"
#include "puzzles/pocket_cube.hpp"
#include "puzzles/sliding_tiles.hpp"

using namespace searchbench;

namespace {

using Counts = std::vector<std::uint64_t>;

// OEIS A089473: 8-puzzle positions by distance from the goal (blank in a corner).
const Counts kEightPuzzle = {1,    2,     4,     8,     16,    20,    39,    62,    116,   152,  286,
                             396,  748,   1024,  1893,  2512,  4485,  5638,  9529,  10878, 16993, 17110,
                             23952, 20224, 24047, 15578, 14560, 6274, 3910,  760,   221,   2};
// OEIS A067607: stacks of N pancakes by number of flips needed (rows N = 4..10).
const std::map<int, Counts> kPancakes = {
    {4, {1, 3, 6, 11, 3}},
    {5, {1, 4, 12, 35, 48, 20}},
    {6, {1, 5, 20, 79, 199, 281, 133, 2}},
    {7, {1, 6, 30, 149, 543, 1357, 1903, 1016, 35}},
    {8, {1, 7, 42, 251, 1191, 4281, 10561, 15011, 8520, 455}},
    {9, {1, 8, 56, 391, 2278, 10666, 38015, 93585, 132697, 79379, 5804}},
    {10, {1, 9, 72, 575, 3963, 22825, 106461, 377863, 919365, 1309756, 814678, 73232}},
};
// The 2x2x2 cube's positions by distance, half-turn and quarter-turn metric.
const Counts kCubeHalfTurn = {1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644};
const Counts kCubeQuarterTurn = {1,      6,      27,      120,     534,    2256,  8969, 33058,
                                 114149, 360508, 930588, 1350852, 782536, 90280, 276};

// Counts only, the way the CLI runs whole spaces (the parallel engine's two-bit levels).
template <class P, class E>
Counts whole_space(const P& puzzle, int threads = 2) {
  const E enc(puzzle);
  SearchOptions options;
  options.threads = threads;
  options.keep_table = false;
  return ParallelBfs<P, E>(puzzle, enc, options).explore(puzzle.start()).depth_counts;
}

// A breadth-first search written from the definition alone: flips by std::reverse over
// vectors of sizes, visited states in a std::map.
Counts pancake_counts_by_definition(int n) {
  std::vector<int> sorted(n);
  std::iota(sorted.begin(), sorted.end(), 1);
  std::map<std::vector<int>, int> depth{{sorted, 0}};
  std::vector<std::vector<int>> frontier{sorted};
  Counts counts{1};
  while (!frontier.empty()) {
    std::vector<std::vector<int>> next;
    for (const auto& stack : frontier)
      for (int k = 2; k <= n; ++k) {
        auto flipped = stack;
        std::reverse(flipped.begin(), flipped.begin() + k);
        if (depth.emplace(flipped, static_cast<int>(counts.size())).second) next.push_back(flipped);
      }
    if (!next.empty()) counts.push_back(next.size());
    frontier.swap(next);
  }
  return counts;
}

// Every state of the puzzle reachable from the start, in discovery order.
template <class P>
std::vector<typename P::State> reachable(const P& puzzle) {
  std::vector<typename P::State> states{puzzle.start()};
  std::set<typename P::State> seen{puzzle.start()};
  typename P::State next;
  for (std::size_t i = 0; i < states.size(); ++i)
    for (int m = 0; m < puzzle.move_count(); ++m)
      if (puzzle.apply(states[i], m, next) && seen.insert(next).second) states.push_back(next);
  return states;
}

// Round trip of every state; a perfect encoder must also hit every key below its bound.
template <class P, class E>
void expect_round_trips(const P& puzzle, const std::vector<typename P::State>& states) {
  const E enc(puzzle);
  std::unordered_set<Key> keys;
  for (const auto& s : states) {
    const Key k = enc.encode(s);
    ASSERT_LT(k, enc.key_bound()) << puzzle.format(s);
    ASSERT_EQ(enc.decode(k), s) << puzzle.format(s);
    ASSERT_TRUE(keys.insert(k).second) << "two states share key " << k;
    if constexpr (E::kCapabilities.incremental_keys) {
      // The neighbour keys it computes without building the neighbour are the ones it
      // would give the neighbour built and encoded, for every move, applying or not.
      typename P::State next;
      for (int m = 0; m < puzzle.move_count(); ++m) {
        Key n = 0;
        ASSERT_EQ(enc.successor_key(k, s, m, n), puzzle.apply(s, m, next)) << puzzle.format(s) << " move " << m;
        if (puzzle.apply(s, m, next)) {
          ASSERT_EQ(n, enc.encode(next)) << puzzle.format(s) << " move " << m;
        }
        ASSERT_EQ(enc.predecessor_key(k, s, m, n), puzzle.apply_inverse(s, m, next)) << puzzle.format(s) << " move " << m;
        if (puzzle.apply_inverse(s, m, next)) {
          ASSERT_EQ(n, enc.encode(next)) << puzzle.format(s) << " move " << m;
        }
      }
    }
  }
  if constexpr (every_key_is_state<E>()) {
    ASSERT_EQ(enc.key_bound(), states.size()) << E::kName << " on " << puzzle.name();
    for (Key k = 0; k < enc.key_bound(); ++k) ASSERT_EQ(enc.encode(enc.decode(k)), k);
    if constexpr (E::kCapabilities.sequential_decoder) {
      // The decoder that keeps what one key shares with the next gives the same states in
      // increasing order (its fast case), in decreasing order and in a shuffled one.
      typename E::Decoder increasing(enc), decreasing(enc), shuffled(enc);
      for (Key k = 0; k < enc.key_bound(); ++k) {
        ASSERT_EQ(increasing.decode(k), enc.decode(k)) << k;
        ASSERT_EQ(decreasing.decode(enc.key_bound() - 1 - k), enc.decode(enc.key_bound() - 1 - k));
      }
      std::vector<Key> order(enc.key_bound());
      for (Key k = 0; k < enc.key_bound(); ++k) order[k] = k;
      std::shuffle(order.begin(), order.end(), std::mt19937(5));
      for (const Key k : order) ASSERT_EQ(shuffled.decode(k), enc.decode(k)) << k;
    }
  }
}

// Every engine's answer for each target equals the naive engine's: the lexicographically
// smallest shortest path. Ring and parallel answer from a kept table (of the states up to
// table_depth moves from the start, -1 for all) and as point queries.
template <class P, class E>
void expect_engines_agree(const P& puzzle, const std::vector<typename P::State>& targets, int table_depth = -1) {
  const E enc(puzzle);
  const auto start = puzzle.start();
  NaiveBfs<P> naive(puzzle);
  SearchOptions table_options;
  table_options.max_depth = table_depth;
  RingBfs<P, E> ring(puzzle, enc, table_options);
  ring.explore(start);
  std::vector<ParallelBfs<P, E>> parallel;
  parallel.reserve(2);
  for (int threads : {1, 2}) {
    SearchOptions options = table_options;
    options.threads = threads;
    parallel.emplace_back(puzzle, enc, options);
    parallel.back().explore(start);
  }
  BidirBfs<P, E> bidir(puzzle, enc);
  Iddfs<P, E> iddfs(puzzle, enc);
  for (const auto& target : targets) {
    const SearchResult want = naive.search(start, target);
    ASSERT_TRUE(want.found) << puzzle.format(target);
    // The path really leads there.
    auto state = start;
    typename P::State next;
    for (char letter : want.path) {
      int m = 0;
      while (puzzle.move_name(m) != letter) ++m;
      ASSERT_TRUE(puzzle.apply(state, m, next));
      state = next;
    }
    ASSERT_EQ(state, target);
    const std::string& path = want.path;
    const std::string where = " to " + puzzle.format(target) + " on " + puzzle.name() + " (" + std::string(E::kName) + ")";
    ASSERT_TRUE(table_depth < 0 || static_cast<int>(path.size()) <= table_depth) << where;
    EXPECT_EQ(ring.path_to(target).value_or("-"), path) << "ring table" << where;
    EXPECT_EQ(ring.search(start, target).path, path) << "ring" << where;
    for (auto& p : parallel) {
      EXPECT_EQ(p.path_to(target).value_or("-"), path) << "parallel table" << where;
      EXPECT_EQ(p.search(start, target).path, path) << "parallel" << where;
    }
    EXPECT_EQ(bidir.search(start, target).path, path) << "bidir" << where;
    EXPECT_EQ(iddfs.search(start, target).path, path) << "iddfs" << where;
  }
}

// Targets: the ends of seeded random walks of the given lengths.
template <class P>
std::vector<typename P::State> walks(const P& puzzle, std::initializer_list<int> lengths, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<typename P::State> out;
  for (int length : lengths) {
    auto s = puzzle.start();
    typename P::State next;
    for (int step = 0; step < length; ++step)
      if (puzzle.apply(s, static_cast<int>(rng() % static_cast<unsigned>(puzzle.move_count())), next)) s = next;
    out.push_back(s);
  }
  return out;
}

}  // namespace

// ---- the shared rank ----------------------------------------------------------------

TEST(PermutationRank, RanksPrefixesInLexicographicOrderWithoutGaps) {
  for (int n = 2; n <= 7; ++n)
    for (int k = 1; k < n; ++k) {
      const PartialPermutationRank rank(n, k);
      std::vector<int> values(n);
      std::iota(values.begin(), values.end(), 0);
      std::vector<std::array<std::uint8_t, 8>> prefixes;
      do {
        std::array<std::uint8_t, 8> prefix{};
        for (int i = 0; i < k; ++i) prefix[i] = static_cast<std::uint8_t>(values[i]);
        if (prefixes.empty() || prefixes.back() != prefix) prefixes.push_back(prefix);
      } while (std::next_permutation(values.begin(), values.end()));
      ASSERT_EQ(prefixes.size(), rank.count()) << "n=" << n << " k=" << k;
      for (Key r = 0; r < rank.count(); ++r) {
        ASSERT_EQ(rank.rank(prefixes[r].data()), r);
        std::array<std::uint8_t, 8> back{};
        const std::uint32_t left = rank.unrank(r, back.data());
        ASSERT_EQ(back, prefixes[r]);
        std::uint32_t used = 0;
        for (int i = 0; i < k; ++i) used |= 1u << back[i];
        ASSERT_EQ(left, ((1u << n) - 1) & ~used);
      }
    }
}

TEST(PermutationRank, NthSetBitCountsSetBits) {
  std::mt19937_64 rng(10);
  for (int trial = 0; trial < 20000; ++trial) {
    const std::uint32_t mask = trial < 32 ? ~0u << trial : static_cast<std::uint32_t>(rng()) | 1u << (trial % 32);
    unsigned d = 0;
    for (unsigned bit = 0; bit < 32; ++bit)
      if (mask >> bit & 1u) {
        ASSERT_EQ(nth_set_bit(mask, d++), bit) << std::hex << "mask " << mask;
      }
  }
}

// Unranking takes the d-th unused value from a byte vector up to 16 values and from a bit
// mask past that: at every size both must give prefixes in rank order that rank back.
TEST(PermutationRank, UnranksEverySizeInOrder) {
  std::mt19937_64 rng(11);
  for (int n = 2; n <= 20; ++n)
    for (const int k : {n - 1, std::max(1, n / 2)}) {
      const PartialPermutationRank rank(n, k);
      std::array<std::uint8_t, 20> previous{};
      for (int trial = 0; trial < 3000; ++trial) {
        const Key r = trial < 1000 ? static_cast<Key>(trial) % rank.count() : rng() % rank.count();
        std::array<std::uint8_t, 20> back{};
        const std::uint32_t left = rank.unrank(r, back.data());
        std::uint32_t used = 0;
        for (int i = 0; i < k; ++i) {
          ASSERT_LT(back[i], n);
          ASSERT_FALSE(used >> back[i] & 1u) << "n=" << n << " k=" << k << " rank " << r;
          used |= 1u << back[i];
        }
        ASSERT_EQ(left, ((1u << n) - 1) & ~used) << "n=" << n << " k=" << k;
        ASSERT_EQ(rank.rank(back.data()), r) << "n=" << n << " k=" << k;
        if (trial > 0 && trial < 1000 && r > 0) {
          ASSERT_LT(previous, back) << "n=" << n << " k=" << k << " rank " << r;
        }
        previous = back;
      }
    }
}

// The whole-permutation rank of up to 16 values (byte compares side by side where AVX2 is)
// is the Lehmer code, whatever the values' offset and whatever the bytes past n hold.
TEST(PermutationRank, SmallRankIsTheLehmerCode) {
  std::mt19937_64 rng(12);
  for (int n = 2; n <= SmallPermutationRank::kMaxValues; ++n) {
    const SmallPermutationRank small(n);
    const PartialPermutationRank lehmer(n, n - 1);
    std::array<std::uint8_t, 16> values{};
    for (int trial = 0; trial < 2000; ++trial) {
      const Key r = trial == 0 ? 0 : trial == 1 ? lehmer.count() - 1 : rng() % lehmer.count();
      values.fill(0);
      lehmer.unrank(r, values.data());
      values[n - 1] = static_cast<std::uint8_t>(n * (n - 1) / 2);  // the value left over
      for (int i = 0; i < n - 1; ++i) values[n - 1] = static_cast<std::uint8_t>(values[n - 1] - values[i]);
      ASSERT_EQ(small.rank(values.data()), r) << "n=" << n;
      std::array<std::uint8_t, 16> shifted = values;  // values 1..n, junk past n
      for (int i = 0; i < 16; ++i) shifted[i] = i < n ? static_cast<std::uint8_t>(values[i] + 1) : static_cast<std::uint8_t>(rng());
      ASSERT_EQ(small.rank(shifted.data()), r) << "n=" << n;
    }
  }
  EXPECT_THROW(SmallPermutationRank(17), InputError);
}

TEST(PermutationRank, ExactAtTwentyValues) {
  const PartialPermutationRank rank(20, 19);
  EXPECT_EQ(rank.count(), 2'432'902'008'176'640'000u);
  std::mt19937_64 rng(5);
  std::array<std::uint8_t, 20> values{};
  for (int i = 0; i < 20; ++i) values[i] = static_cast<std::uint8_t>(i);
  EXPECT_EQ(rank.rank(values.data()), 0u);
  for (int i = 0; i < 20; ++i) values[i] = static_cast<std::uint8_t>(19 - i);
  EXPECT_EQ(rank.rank(values.data()), rank.count() - 1);
  for (int trial = 0; trial < 20000; ++trial) {
    const Key r = trial < 100 ? rank.count() - 1 - static_cast<Key>(trial) : rng() % rank.count();
    std::array<std::uint8_t, 20> back{};
    rank.unrank(r, back.data());
    ASSERT_EQ(rank.rank(back.data()), r);
  }
  EXPECT_THROW(PartialPermutationRank(21, 20), InputError);
  EXPECT_THROW(PartialPermutationRank(5, 5), InputError);
}

// A few of many values: 6 of the 24-puzzle's 25 cells (a pattern database's placements),
// exact at the top of the range too.
TEST(PermutationRank, PartialRanksOfManyValues) {
  const PartialPermutationRank rank(25, 6);
  EXPECT_EQ(rank.count(), 127'512'000u);  // 25!/19!
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 20000; ++trial) {
    const Key r = trial < 100 ? rank.count() - 1 - static_cast<Key>(trial) : rng() % rank.count();
    std::array<std::uint8_t, 25> back{};
    const std::uint32_t left = rank.unrank(r, back.data());
    ASSERT_EQ(rank.rank(back.data()), r);
    ASSERT_EQ(std::popcount(left), 19);
  }
  EXPECT_TRUE(PartialPermutationRank::fits(31, 12));
  EXPECT_FALSE(PartialPermutationRank::fits(32, 2));  // a value past the 32-bit mask
  EXPECT_FALSE(PartialPermutationRank::fits(25, 23));  // 25!/2 > 2^64
  EXPECT_THROW(PartialPermutationRank(25, 23), InputError);
}

// ---- sliding tiles ------------------------------------------------------------------

TEST(TilesParse, ReadsBoardsAndRefusesBadOnes) {
  const SlidingTiles t(3, 3);
  EXPECT_EQ(t.name(), "tiles-3x3");
  EXPECT_EQ(t.format(t.start()), "1 2 3 / 4 5 6 / 7 8 0");
  EXPECT_EQ(t.parse("1 2 3 / 4 5 6 / 7 8 0"), t.start());
  EXPECT_EQ(t.parse("1,2,3,4,5,6,7,8,0"), t.start());
  const auto s = t.parse("8 6 7 2 5 4 3 0 1");
  EXPECT_EQ(t.parse(t.format(s)), s);
  EXPECT_THROW(t.parse("1 2 3 4 5 6 7 8"), InputError);        // too short
  EXPECT_THROW(t.parse("1 2 3 4 5 6 7 8 0 9"), InputError);    // too long
  EXPECT_THROW(t.parse("1 2 3 4 5 6 7 8 9"), InputError);      // out of range, no blank
  EXPECT_THROW(t.parse("1 1 3 4 5 6 7 8 0"), InputError);      // repeated
  EXPECT_THROW(t.parse("1 2 3 4 5 6 7 x 0"), InputError);
  // The other half reads (a start and a target may both lie there); the two halves are
  // different components.
  EXPECT_NO_THROW(t.parse("2 1 3 4 5 6 7 8 0"));
  EXPECT_FALSE(t.same_component(t.start(), t.parse("2 1 3 4 5 6 7 8 0")));
  EXPECT_TRUE(t.same_component(t.start(), t.parse("1 2 3 4 5 6 7 0 8")));
  // Rows split by '/' must be the board's rows.
  const SlidingTiles wide(3, 4);
  EXPECT_NO_THROW(wide.parse("1 2 3 4 / 5 6 7 8 / 9 10 11 0"));
  EXPECT_NO_THROW(wide.parse("1 2 3 4 5 6 7 8 9 10 11 0"));
  const auto refusal = [](const SlidingTiles& board, const std::string& text) {
    try {
      board.parse(text);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return text + " was read as a " + board.name() + " board";
  };
  EXPECT_NE(refusal(wide, "1 2 3 / 4 5 6 / 7 8 9 / 10 11 0").find("needs 3 rows of 4 numbers"), std::string::npos);
  // A '/' at either end or twice in a row is an empty row, not a space; a number is written
  // without leading zeros ("00" is no blank). One line each, naming the problem.
  for (const auto& [board, text, says] : std::vector<std::tuple<SlidingTiles, std::string, std::string>>{
           {wide, "/ 1 2 3 4 / 5 6 7 8 / 9 10 11 0", "an empty row"},
           {wide, "1 2 3 4 / 5 6 7 8 / 9 10 11 0 /", "an empty row"},
           {t, "/ 1 2 3 / 4 5 6 / 7 8 0", "an empty row"},
           {t, "1 2 3 / 4 5 6 / 7 8 0 /", "an empty row"},
           {t, "1 2 3 / / 4 5 6 / 7 8 0", "an empty row"},
           {t, "/", "an empty row"},
           {t, "1 2 3 4 5 6 7 8 00", "tile number \"00\" has a leading zero"},
           {t, "1 2 3 4 5 6 7 08 0", "tile number \"08\" has a leading zero"},
           {wide, "1 2 3 4 5 6 7 8 9 010 11 0", "tile number \"010\" has a leading zero"}}) {
    const std::string why = refusal(board, text);
    EXPECT_NE(why.find(says), std::string::npos) << text << ": " << why;
    EXPECT_NE(why.find("in board \"" + text + "\""), std::string::npos) << why;
    EXPECT_EQ(why.find('\n'), std::string::npos) << why;
  }
  EXPECT_EQ(wide.parse(" 1 2 3 4 / 5 6 7 8 / 9 10 11 0 "), wide.start());  // spaces around the rows are fine
  EXPECT_EQ(t.parse("1,2,3/4,5,6/7,8,0"), t.start());
  EXPECT_THROW(SlidingTiles(1, 8), InputError);
  EXPECT_THROW(SlidingTiles(6, 5), InputError);  // 30 cells
  EXPECT_NO_THROW(SlidingTiles(4, 4));
  const SlidingTiles five(5, 5);  // the 24-puzzle
  EXPECT_EQ(five.format(five.start()), "1 2 3 4 5 / 6 7 8 9 10 / 11 12 13 14 15 / 16 17 18 19 20 / 21 22 23 24 0");
  EXPECT_NE(refusal(five, "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 25 0").find("tile 25 is out of range 0..24"),
            std::string::npos);
  EXPECT_EQ(five.component_size(five.start()), ~std::uint64_t{0});  // 25!/2 saturates
  EXPECT_EQ(SlidingTiles(4, 5).component_size(SlidingTiles(4, 5).start()), 1'216'451'004'088'320'000u);  // 20!/2
}

// The blank is found in every cell of every board size: one vector compare over the 32
// bytes, two 16-byte ones, or a loop, whichever the build has.
TEST(TilesMoves, BlankFoundInEveryCell) {
  for (auto [r, c] : {std::pair{2, 2}, {3, 3}, {4, 4}, {2, 8}, {3, 6}, {4, 5}, {5, 5}}) {
    const SlidingTiles t(r, c);
    TilesState s = t.start();
    for (int cell = r * c - 1; cell > 0; --cell) {
      std::swap(s.cells[cell], s.cells[cell - 1]);
      ASSERT_EQ(t.blank(s), cell - 1) << t.name();
    }
    for (int b = r * c; b < TilesState::kBytes; ++b) EXPECT_EQ(s.cells[b], 0xFF);  // past the board
  }
}

TEST(TilesMoves, LettersNameTheBlanksDirection) {
  const SlidingTiles t(2, 3);  // 1 2 3 / 4 5 0
  TilesState out;
  EXPECT_EQ(std::string(1, t.move_name(0)) + t.move_name(1) + t.move_name(2) + t.move_name(3), "DLRU");
  EXPECT_FALSE(t.apply(t.start(), 0, out));  // D: the blank is on the bottom row
  ASSERT_TRUE(t.apply(t.start(), 1, out));   // L: the 5 slides right
  EXPECT_EQ(t.format(out), "1 2 3 / 4 0 5");
  EXPECT_FALSE(t.apply(t.start(), 2, out));  // R: right edge
  ASSERT_TRUE(t.apply(t.start(), 3, out));   // U: the 3 slides down
  EXPECT_EQ(t.format(out), "1 2 0 / 4 5 3");
  TilesState back;
  for (int m = 0; m < 4; ++m)
    if (t.apply(t.start(), m, out)) {
      ASSERT_TRUE(t.apply_inverse(out, m, back));
      EXPECT_EQ(back, t.start());
      ASSERT_TRUE(t.apply(out, t.inverse_move(m), back));
      EXPECT_EQ(back, t.start());
    }
  EXPECT_EQ(t.component_size(t.start()), 360u);
}

TEST(DomainEncoders, TilesRoundTripEveryReachableBoard) {
  for (auto [r, c] : {std::pair{2, 2}, {2, 3}, {3, 2}, {2, 4}, {3, 3}}) {
    const SlidingTiles t(r, c);
    const auto states = reachable(t);
    ASSERT_EQ(states.size(), t.component_size(t.start()));
    expect_round_trips<SlidingTiles, TilesCantor>(t, states);
    expect_round_trips<SlidingTiles, TilesBlankLow>(t, states);
    expect_round_trips<SlidingTiles, PermutationNibbles<SlidingTiles>>(t, states);
  }
}

TEST(DomainEncoders, TilesFitAndSizes) {
  const SlidingTiles big(4, 4);
  const TilesCantor cantor(big);
  EXPECT_EQ(cantor.key_bound(), 10'461'394'944'000u);  // 16!/2
  EXPECT_FALSE(cantor.dense());
  std::mt19937 rng(9);
  const TilesBlankLow blank_low(big);
  EXPECT_EQ(blank_low.key_bound(), 10'461'394'944'000u);
  for (const auto& s : walks(big, {10, 100, 1000, 5000}, 4)) {
    EXPECT_EQ(cantor.decode(cantor.encode(s)), s);
    EXPECT_EQ(blank_low.decode(blank_low.encode(s)), s);
    TilesState next;
    for (int m = 0; m < 4; ++m) {
      Key n = 0;
      EXPECT_EQ(blank_low.successor_key(blank_low.encode(s), s, m, n), big.apply(s, m, next));
      if (big.apply(s, m, next)) {
        EXPECT_EQ(n, blank_low.encode(next)) << big.format(s) << " move " << m;
      }
    }
    EXPECT_EQ(PermutationNibbles<SlidingTiles>(big).decode(PermutationNibbles<SlidingTiles>(big).encode(s)), s);
  }
  EXPECT_TRUE(TilesCantor(SlidingTiles(2, 6)).dense());
  EXPECT_EQ(TilesCantor(SlidingTiles(3, 4)).key_bound(), 239'500'800u);
  EXPECT_TRUE(PermutationNibbles<SlidingTiles>(SlidingTiles(2, 3)).dense());
  EXPECT_FALSE(PermutationNibbles<SlidingTiles>(SlidingTiles(3, 3)).dense());
  // Past 16 cells the nibbles and blank-low refuse; past 20 no 64-bit rank holds the boards.
  const SlidingTiles twenty(4, 5), five(5, 5);
  EXPECT_EQ(TilesCantor::fits(twenty), "");
  EXPECT_EQ(TilesCantor(twenty).key_bound(), 1'216'451'004'088'320'000u);  // 20!/2
  EXPECT_NE(TilesCantor::fits(five).find("64-bit key"), std::string::npos);
  EXPECT_NE(TilesBlankLow::fits(twenty), "");
  EXPECT_NE(PermutationNibbles<SlidingTiles>::fits(twenty), "");
  EXPECT_THROW(TilesBlankLow{twenty}, InputError);
  EXPECT_THROW(TilesCantor{five}, InputError);
  for (const auto& s : walks(twenty, {10, 100, 1000}, 4)) {
    const TilesCantor cantor(twenty);
    EXPECT_EQ(cantor.decode(cantor.encode(s)), s);
  }
}

TEST(DomainEngines, TilesPathsAgree) {
  const SlidingTiles small(2, 3);
  expect_engines_agree<SlidingTiles, TilesCantor>(small, reachable(small));
  expect_engines_agree<SlidingTiles, PermutationNibbles<SlidingTiles>>(small, reachable(small));
  const SlidingTiles eight(3, 3);
  const auto targets = walks(eight, {3, 8, 15, 40, 200}, 21);
  expect_engines_agree<SlidingTiles, TilesCantor>(eight, targets);
  expect_engines_agree<SlidingTiles, TilesBlankLow>(eight, targets);
  expect_engines_agree<SlidingTiles, PermutationNibbles<SlidingTiles>>(eight, targets);
}

TEST(DomainCounts, EightPuzzleMatchesOeisA089473) {
  const SlidingTiles eight(3, 3);
  EXPECT_EQ((whole_space<SlidingTiles, TilesCantor>(eight, 1)), kEightPuzzle);
  EXPECT_EQ((whole_space<SlidingTiles, TilesCantor>(eight, 2)), kEightPuzzle);
  EXPECT_EQ((whole_space<SlidingTiles, TilesBlankLow>(eight, 2)), kEightPuzzle);
    using Nibbles = PermutationNibbles<SlidingTiles>;
  const TilesCantor enc(eight);
  EXPECT_EQ((RingBfs<SlidingTiles, TilesCantor>(eight, enc).explore(eight.start()).depth_counts), kEightPuzzle);
  const Nibbles nibbles(eight);
  EXPECT_EQ((RingBfs<SlidingTiles, Nibbles>(eight, nibbles).explore(eight.start()).depth_counts), kEightPuzzle);
}

// ---- pancakes -----------------------------------------------------------------------

TEST(PancakeParse, ReadsStacksAndRefusesBadOnes) {
  const PancakeStack p(5);
  EXPECT_EQ(p.name(), "pancake-5");
  EXPECT_EQ(p.format(p.start()), "1 2 3 4 5");
  const auto s = p.parse("3 1 5 2 4");
  EXPECT_EQ(p.format(s), "3 1 5 2 4");
  EXPECT_THROW(p.parse("1 2 3 4"), InputError);
  EXPECT_THROW(p.parse("1 2 3 4 5 6"), InputError);
  EXPECT_THROW(p.parse("1 2 3 4 4"), InputError);
  EXPECT_THROW(p.parse("0 1 2 3 4"), InputError);
  EXPECT_THROW(p.parse("1 2 3 4 x"), InputError);
  for (const char* zeros : {"01 2 3 4 5", "1 2 3 4 05", "1 2 3 4 005"}) {
    try {
      p.parse(zeros);
      ADD_FAILURE() << zeros << " was read";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("has a leading zero in stack"), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(p.parse("1 2 3 / 4 5"), InputError);  // no rows in a stack
  EXPECT_THROW(PancakeStack(1), InputError);
  EXPECT_THROW(PancakeStack(65), InputError);
  const PancakeStack twenty(20);
  EXPECT_EQ(twenty.move_name(0), '2');
  EXPECT_EQ(twenty.move_name(8), 'A');
  EXPECT_EQ(twenty.move_name(18), 'K');
  PancakeState out;
  ASSERT_TRUE(twenty.apply(twenty.start(), 18, out));  // flip all 20
  EXPECT_EQ(twenty.format(out), "20 19 18 17 16 15 14 13 12 11 10 9 8 7 6 5 4 3 2 1");
  ASSERT_TRUE(p.apply(p.start(), 1, out));  // '3': flip the top three
  EXPECT_EQ(p.format(out), "3 2 1 4 5");
}

TEST(DomainEncoders, PancakesRoundTripEveryStack) {
  for (int n = 2; n <= 8; ++n) {
    const PancakeStack p(n);
    const auto states = reachable(p);
    ASSERT_EQ(states.size(), p.component_size(p.start()));
    expect_round_trips<PancakeStack, PancakeCantor>(p, states);
    expect_round_trips<PancakeStack, PermutationNibbles<PancakeStack>>(p, states);
  }
  const PancakeStack twenty(20);
  EXPECT_FALSE(PermutationNibbles<PancakeStack>::fits(twenty).empty());
  EXPECT_THROW(PermutationNibbles<PancakeStack>{twenty}, InputError);
  EXPECT_TRUE(PermutationNibbles<PancakeStack>::fits(PancakeStack(16)).empty());
  const PancakeCantor cantor(twenty);
  EXPECT_EQ(cantor.key_bound(), 2'432'902'008'176'640'000u);
  for (const auto& s : walks(twenty, {5, 50, 500}, 8)) EXPECT_EQ(cantor.decode(cantor.encode(s)), s);
  EXPECT_TRUE(PancakeCantor(PancakeStack(12)).dense());
}

TEST(DomainEngines, PancakePathsAgree) {
  const PancakeStack six(6);
  expect_engines_agree<PancakeStack, PancakeCantor>(six, reachable(six));
  expect_engines_agree<PancakeStack, PermutationNibbles<PancakeStack>>(six, walks(six, {2, 5, 9, 30}, 2));
  const PancakeStack nine(9);
  expect_engines_agree<PancakeStack, PancakeCantor>(nine, walks(nine, {3, 4, 5, 6}, 13), 6);
}

TEST(PancakeCounts, SmallStacksMatchTheDefinitionAndOeisA067607) {
  for (int n = 4; n <= 7; ++n) {
    const PancakeStack p(n);
    const Counts by_definition = pancake_counts_by_definition(n);
    EXPECT_EQ(by_definition, kPancakes.at(n)) << "N=" << n;
    EXPECT_EQ((whole_space<PancakeStack, PancakeCantor>(p)), by_definition) << "N=" << n;
    EXPECT_EQ((whole_space<PancakeStack, PermutationNibbles<PancakeStack>>(p)), by_definition) << "N=" << n;
  }
}

TEST(DomainCounts, PancakesMatchOeisA067607AndThePancakeNumbers) {
  EXPECT_EQ(pancake_counts_by_definition(8), kPancakes.at(8));
  for (int n = 8; n <= 10; ++n) {
    const Counts counts = whole_space<PancakeStack, PancakeCantor>(PancakeStack(n));
    EXPECT_EQ(counts, kPancakes.at(n)) << "N=" << n;
  }
  // OEIS A058986, the pancake numbers, for N = 2..10.
  const int pancake_number[] = {1, 3, 4, 5, 7, 8, 9, 10, 11};
  for (int n = 2; n <= 10; ++n) {
    const Counts counts = whole_space<PancakeStack, PancakeCantor>(PancakeStack(n), 1);
    EXPECT_EQ(static_cast<int>(counts.size()) - 1, pancake_number[n - 2]) << "N=" << n;
  }
}

// ---- the 2x2x2 cube -----------------------------------------------------------------

TEST(CubeParse, ReadsCubesAndRefusesBadOnes) {
  const PocketCube c(CubeMetric::half_turn);
  EXPECT_EQ(c.name(), "cube2-htm");
  EXPECT_EQ(PocketCube(CubeMetric::quarter_turn).name(), "cube2-qtm");
  EXPECT_EQ(c.format(c.start()), "URF UFL ULB UBR DFR DLF DRB");
  EXPECT_EQ(c.parse("URF UFL ULB UBR DFR DLF DRB"), c.start());
  for (const auto& s : walks(c, {1, 2, 5, 20, 100}, 3)) EXPECT_EQ(c.parse(c.format(s)), s) << c.format(s);
  EXPECT_THROW(c.parse("URF UFL ULB UBR DFR DLF"), InputError);          // six corners
  EXPECT_THROW(c.parse("URF UFL ULB UBR DFR DLF DRB DBL"), InputError);  // DBL is not listed
  EXPECT_THROW(c.parse("URF UFL ULB UBR DFR DLF DBL"), InputError);      // DBL moved
  EXPECT_THROW(c.parse("URF URF ULB UBR DFR DLF DRB"), InputError);      // repeated
  EXPECT_THROW(c.parse("FUR UFL ULB UBR DFR DLF DRB"), InputError);      // twists sum to 1
  EXPECT_THROW(c.parse("UFR UFL ULB UBR DFR DLF DRB"), InputError);      // a mirrored corner
  EXPECT_THROW(c.parse("URX UFL ULB UBR DFR DLF DRB"), InputError);
  EXPECT_NO_THROW(c.parse("FUR FLU ULB UBR DFR DLF DRB"));  // twists 1 + 2
  try {
    c.parse("FUR UFL ULB UBR DFR DLF DRB");
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("mod 3"), std::string::npos) << e.what();
  }
}

TEST(CubeMoves, LettersTurnsAndInverses) {
  const PocketCube htm(CubeMetric::half_turn), qtm(CubeMetric::quarter_turn);
  std::string letters;
  for (int m = 0; m < htm.move_count(); ++m) letters += htm.move_name(m);
  EXPECT_EQ(letters, "FGRSUVfru");
  letters.clear();
  for (int m = 0; m < qtm.move_count(); ++m) letters += qtm.move_name(m);
  EXPECT_EQ(letters, "FRUfru");
  PocketCubeState a, b;
  ASSERT_TRUE(htm.apply(htm.start(), 4, a));  // U: the top layer turns, nothing twists
  EXPECT_EQ(htm.format(a), "UBR URF UFL ULB DFR DLF DRB");
  for (const PocketCube* cube : {&htm, &qtm})
    for (int m = 0; m < cube->move_count(); ++m) {
      auto s = cube->start();
      for (int i = 0; i < cube->move_order(m); ++i) {
        cube->apply(s, m, a);
        s = a;
        if (i + 1 < cube->move_order(m)) {
          EXPECT_NE(s, cube->start());
        }
      }
      EXPECT_EQ(s, cube->start()) << cube->move_name(m);
      const auto t = walks(*cube, {7}, static_cast<unsigned>(m))[0];
      cube->apply(t, m, a);
      cube->apply_inverse(a, m, b);
      EXPECT_EQ(b, t);
      cube->apply(a, cube->inverse_move(m), b);
      EXPECT_EQ(b, t);
    }
}

TEST(DomainEncoders, CubeCoordinateIsABijection) {
  const PocketCube c(CubeMetric::half_turn);
  const CubeCoordinate coordinate(c);
  const CubeBitpack bitpack(c);
  ASSERT_EQ(coordinate.key_bound(), 3'674'160u);
  EXPECT_FALSE(bitpack.dense());
  EXPECT_EQ(coordinate.encode(c.start()), 0u);
  for (Key k = 0; k < coordinate.key_bound(); ++k) {
    const PocketCubeState s = coordinate.decode(k);
    ASSERT_EQ(coordinate.encode(s), k);
    if (k % 97 == 0) {
      ASSERT_EQ(c.parse(c.format(s)), s) << k;  // a valid cube
      ASSERT_EQ(bitpack.decode(bitpack.encode(s)), s) << k;
      ASSERT_LT(bitpack.encode(s), bitpack.key_bound());
    }
  }
}

TEST(DomainEngines, CubePathsAgree) {
  for (const CubeMetric metric : {CubeMetric::half_turn, CubeMetric::quarter_turn}) {
    const PocketCube c(metric);
    const auto targets = walks(c, {1, 3, 5, 6}, 17);
    expect_engines_agree<PocketCube, CubeCoordinate>(c, targets, 6);
    expect_engines_agree<PocketCube, CubeBitpack>(c, targets, 6);
  }
}

TEST(DomainCounts, CubeMatchesBothMetrics) {
  EXPECT_EQ((whole_space<PocketCube, CubeCoordinate>(PocketCube(CubeMetric::half_turn))), kCubeHalfTurn);
  EXPECT_EQ((whole_space<PocketCube, CubeCoordinate>(PocketCube(CubeMetric::quarter_turn))), kCubeQuarterTurn);
  // Top-down only, with the kept table: other code paths of the parallel engine.
  const PocketCube qtm(CubeMetric::quarter_turn);
  const CubeCoordinate enc(qtm);
  SearchOptions options;
  options.threads = 2;
  EXPECT_EQ((ParallelBfs<PocketCube, CubeCoordinate>(qtm, enc, options, {.top_down = true}).explore(qtm.start()).depth_counts),
            kCubeQuarterTurn);
}
