// Encoders: every state of 2x4 (and of small checkers lines) round-trips and no two states
// share a key; each encoder refuses the sizes it cannot represent.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <unordered_set>

#include "registry/families.hpp"
#include "registry/registry.hpp"

using namespace searchbench;

template <class E>
class MagicEncoderTest : public ::testing::Test {};
using MagicEncoders = AllFamilies::Of<MagicBoard>::EncodersAs<::testing::Types>;  // the family list's
TYPED_TEST_SUITE(MagicEncoderTest, MagicEncoders);

TYPED_TEST(MagicEncoderTest, RoundTripsAllPermutationsOf2x4Injectively) {
  const MagicBoard board(4, MagicRules::msquare);
  const TypeParam enc(board);
  std::array<int, 8> values;
  std::iota(values.begin(), values.end(), 1);
  std::unordered_set<Key> keys;
  do {
    const MagicState s = board.from_row_values(values.data(), 8);
    const Key k = enc.encode(s);
    ASSERT_LT(k, enc.key_bound());
    ASSERT_EQ(enc.decode(k), s);
    ASSERT_TRUE(keys.insert(k).second) << "two states share key " << k;
  } while (std::next_permutation(values.begin(), values.end()));
  EXPECT_EQ(keys.size(), 40'320u);
}

TYPED_TEST(MagicEncoderTest, RoundTripsRandomBoardsOfEveryWidthItFits) {
  std::mt19937 rng(3);
  for (int k = 2; k <= 8; ++k) {
    const MagicBoard board(k, MagicRules::msquare);
    if (!TypeParam::fits(board).empty()) {
      EXPECT_THROW(TypeParam{board}, InputError);
      continue;
    }
    const TypeParam enc(board);
    std::vector<int> values(2 * k);
    std::iota(values.begin(), values.end(), 1);
    for (int trial = 0; trial < 500; ++trial) {
      std::shuffle(values.begin(), values.end(), rng);
      const MagicState s = board.from_row_values(values.data(), 2 * k);
      ASSERT_EQ(enc.decode(enc.encode(s)), s) << board.name();
      ASSERT_LE(enc.encode(s), enc.key_bound());
    }
  }
}

TEST(MagicEncoders, SizesAndDensity) {
  const MagicBoard b4(4, MagicRules::msquare);
  EXPECT_EQ(MagicBitpack(b4).key_bound(), Key{1} << 24);
  EXPECT_EQ(MagicBitpackImplied(b4).key_bound(), Key{1} << 21);
  EXPECT_EQ(MagicCantor(b4).key_bound(), 40'320u);
  EXPECT_EQ(MagicDecimal(b4).encode(b4.start()), 12'348'765u);
  EXPECT_FALSE(MagicDecimal(b4).dense());
  EXPECT_TRUE(MagicBitpack(b4).dense());
  const MagicBoard b5(5, MagicRules::msquare);
  EXPECT_FALSE(MagicDecimal::fits(b5).empty());  // 10 needs two decimal digits
  EXPECT_FALSE(MagicBitpack(b5).dense());           // 2^40 keys: hashed
  EXPECT_TRUE(MagicCantor(MagicBoard(6, MagicRules::msquare)).dense());
  EXPECT_FALSE(MagicCantor(MagicBoard(8, MagicRules::msquare)).dense());
  EXPECT_EQ(MagicCantor(MagicBoard(8, MagicRules::msquare)).key_bound(), 20'922'789'888'000u);
}

// The fast paths (table unranking up to 2x7, vector ranking up to 2x8) must give exactly the
// lexicographic rank of the textbook code, not merely some bijection.
TEST(MagicEncoders, CantorFastPathsMatchTheTextbookRank) {
  std::mt19937 rng(11);
  for (int k = 2; k <= 8; ++k) {
    const MagicBoard board(k, MagicRules::msquare);
    const MagicCantor enc(board);
    std::vector<int> values(2 * k);
    std::iota(values.begin(), values.end(), 1);
    EXPECT_EQ(enc.encode(board.from_row_values(values.data(), 2 * k)), 0u) << board.name();
    std::reverse(values.begin(), values.end());
    EXPECT_EQ(enc.encode(board.from_row_values(values.data(), 2 * k)), enc.key_bound() - 1) << board.name();
    for (int trial = 0; trial < 2000; ++trial) {
      std::shuffle(values.begin(), values.end(), rng);
      const MagicState s = board.from_row_values(values.data(), 2 * k);
      ASSERT_EQ(enc.encode(s), enc.encode_by_popcount(s)) << board.format(s);
      const Key rank = std::uniform_int_distribution<Key>(0, enc.key_bound() - 1)(rng);
      ASSERT_EQ(enc.decode(rank), enc.decode_by_division(rank)) << board.name() << " rank " << rank;
    }
    // Every rank of the boards whose low table covers all cells or all but two (its rows are
    // built by stepping through permutations, not by unranking each).
    if (k <= 5) {
      for (Key rank = 0; rank < enc.key_bound(); ++rank)
        ASSERT_EQ(enc.decode(rank), enc.decode_by_division(rank)) << board.name() << " rank " << rank;
    }
  }
}

// The bit-pack keys are the documented layout (cell i's value - 1 in bits [b*i, b*i+b), b
// bits per cell, the last cell left out by bitpack-implied) on every width, whichever of the
// two code paths (BMI2 or the shift loop) the build has.
TEST(MagicEncoders, BitpackKeysAreTheDocumentedLayout) {
  std::mt19937 rng(13);
  for (int k = 2; k <= 8; ++k) {
    const MagicBoard board(k, MagicRules::msquare);
    const MagicBitpack full(board);
    const MagicBitpackImplied implied(board);
    const int bits = k <= 2 ? 2 : k <= 4 ? 3 : 4;
    std::vector<int> values(2 * k);
    std::iota(values.begin(), values.end(), 1);
    for (int trial = 0; trial < 500; ++trial) {
      std::shuffle(values.begin(), values.end(), rng);
      const MagicState s = board.from_row_values(values.data(), 2 * k);
      Key expected = 0;
      for (int i = 2 * k - 1; i >= 0; --i) expected = (expected << bits) | (s.cells[i] - 1u);
      ASSERT_EQ(full.encode(s), expected) << board.format(s);
      ASSERT_EQ(implied.encode(s), expected & ((Key{1} << (bits * (2 * k - 1))) - 1)) << board.format(s);
      ASSERT_EQ(full.decode(expected), s);
      ASSERT_EQ(implied.decode(implied.encode(s)), s);
    }
  }
}

// The combinatorial tables (16 low pieces, up to 12 high ones) must give exactly the
// textbook combinatorial-number-system rank, for every length and piece count.
TEST(CheckersEncoders, CombinatorialTablesMatchTheTextbookRank) {
  std::mt19937_64 rng(17);
  for (int n = 1; n <= 32; ++n) {
    for (int k : {0, (n - 1) / 3, (n - 1) / 2, n - 1}) {
      const CheckersLine line(n, k);
      const CheckersCombinatorial enc(line);
      for (int trial = 0; trial < 300; ++trial) {
        const Key key = rng() % enc.key_bound();
        const CheckersState s = enc.decode_by_greedy(key);
        ASSERT_EQ(enc.decode(key), s) << "N=" << n << " k=" << k << " key " << key;
        ASSERT_EQ(enc.encode(s), key) << line.format(s);
        ASSERT_EQ(enc.encode_by_pieces(s), key) << line.format(s);
      }
      EXPECT_EQ(enc.encode(enc.decode(enc.key_bound() - 1)), enc.key_bound() - 1);
    }
  }
}

template <class E>
class CheckersEncoderTest : public ::testing::Test {};
using CheckersEncoders = AllFamilies::Of<CheckersLine>::EncodersAs<::testing::Types>;
TYPED_TEST_SUITE(CheckersEncoderTest, CheckersEncoders);

TYPED_TEST(CheckersEncoderTest, RoundTripsEveryArrangementInjectively) {
  for (int n = 1; n <= 11; ++n) {
    for (int hashes = 0; hashes < n; ++hashes) {
      const CheckersLine line(n, hashes);
      const TypeParam enc(line);
      std::unordered_set<Key> keys;
      // Every placement of the hole and of the `hashes` '#' among the other cells.
      for (int hole = 0; hole < n; ++hole) {
        for (std::uint32_t mask = 0; mask < (1u << (n - 1)); ++mask) {
          if (std::popcount(mask) != hashes) continue;
          std::string text;
          for (int i = 0, piece = 0; i < n; ++i) text += i == hole ? '&' : ((mask >> piece++) & 1) ? '#' : '@';
          const CheckersState s = line.parse(text);
          const Key k = enc.encode(s);
          ASSERT_LT(k, enc.key_bound());
          ASSERT_EQ(enc.decode(k), s) << text;
          ASSERT_TRUE(keys.insert(k).second) << text;
        }
      }
      ASSERT_EQ(keys.size(), line.component_size(line.start()));
    }
  }
}

TEST(CheckersEncoders, FitAndRefuse) {
  EXPECT_TRUE(CheckersMaskHole::fits(CheckersLine(29)).empty());
  EXPECT_FALSE(CheckersMaskHole::fits(CheckersLine(30)).empty());
  EXPECT_THROW(CheckersMaskHole{CheckersLine(32)}, InputError);
  EXPECT_TRUE(CheckersBitpack(CheckersLine(16)).dense());
  EXPECT_FALSE(CheckersBitpack(CheckersLine(17)).dense());
  EXPECT_EQ(CheckersCombinatorial(CheckersLine(25)).key_bound(), 67'603'900u);
  const CheckersLine l32(32);
  for (const auto& s : {l32.start(), l32.parse("@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@&"), l32.parse("&###############################")}) {
    const CheckersLine line(32, l32.count(s, CheckersLine::kHash));
    EXPECT_EQ(CheckersCombinatorial(line).decode(CheckersCombinatorial(line).encode(s)), s);
    EXPECT_EQ(CheckersDecimal(line).decode(CheckersDecimal(line).encode(s)), s);
    EXPECT_EQ(CheckersBitpack(line).decode(CheckersBitpack(line).encode(s)), s);
  }
}

TEST(Registry, ListsWhatFitsAndRefusesTheRest) {
  EXPECT_EQ(applicable_encoders(parse_puzzle("msquare"), "ring"), (std::vector<std::string>{"decimal", "bitpack", "bitpack-implied", "cantor"}));
  EXPECT_EQ(applicable_encoders(parse_puzzle("msquare-2x5"), "ring"), (std::vector<std::string>{"bitpack", "bitpack-implied", "cantor"}));
  EXPECT_EQ(applicable_encoders(parse_puzzle("checkers-31"), "bidir"), (std::vector<std::string>{"decimal", "bitpack", "combinatorial"}));
  EXPECT_EQ(applicable_encoders(parse_puzzle("msquare"), "naive"), (std::vector<std::string>{"none"}));
  EXPECT_THROW(parse_puzzle("msquare-2x9"), InputError);
  EXPECT_THROW(parse_puzzle("checkers-99"), InputError);
  EXPECT_THROW(parse_puzzle("checkers-x"), InputError);
  EXPECT_THROW(parse_puzzle("sudoku"), InputError);
  EXPECT_THROW(engine_info("dfs"), InputError);
  SolverConfig c;
  c.puzzle = "msquare-2x5";
  c.encoder = "decimal";
  EXPECT_THROW(make_solver(c), InputError);
  c.encoder = "nope";
  EXPECT_THROW(make_solver(c), InputError);
  c.encoder = "cantor";
  c.options.threads = 0;
  EXPECT_THROW(make_solver(c), InputError);
}
