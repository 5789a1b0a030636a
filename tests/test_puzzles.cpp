// Puzzle rules: the judges' move examples for both rule sets, inverses, parsing and printing.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "core/errors.hpp"
#include "puzzles/checkers_line.hpp"
#include "puzzles/magic_board.hpp"
#include "registry/families.hpp"
#include "registry/registry.hpp"
#include "registry/threaded_engines.hpp"

using namespace searchbench;

namespace {

MagicState apply(const MagicBoard& b, const MagicState& s, char move) {
  MagicState out;
  EXPECT_TRUE(b.apply(s, move - 'A', out));
  return out;
}

}  // namespace

TEST(MagicBoard, MsquareMovesFromStartMatchSpec) {
  const MagicBoard b(4, MagicRules::msquare);
  EXPECT_EQ(b.format(b.start()), "1 2 3 4 / 8 7 6 5");
  EXPECT_EQ(b.format(apply(b, b.start(), 'A')), "8 7 6 5 / 1 2 3 4");
  EXPECT_EQ(b.format(apply(b, b.start(), 'B')), "4 1 2 3 / 5 8 7 6");
  EXPECT_EQ(b.format(apply(b, b.start(), 'C')), "1 7 2 4 / 8 6 3 5");
}

TEST(MagicBoard, Sicily1515MovesFromStart) {
  const MagicBoard b(4, MagicRules::sicily1515);
  EXPECT_EQ(b.format(b.start()), "1 2 3 4 / 5 6 7 8");
  EXPECT_EQ(b.format(apply(b, b.start(), 'A')), "3 4 1 2 / 7 8 5 6");  // halves exchanged
  EXPECT_EQ(b.format(apply(b, b.start(), 'B')), "2 3 4 1 / 6 7 8 5");  // rows rotate left
  EXPECT_EQ(b.format(apply(b, b.start(), 'C')), "1 3 7 4 / 5 2 6 8");  // centre counter-clockwise
}

TEST(MagicBoard, InverseUndoesEveryMoveForAllWidthsAndRules) {
  std::mt19937 rng(7);
  for (int k = 2; k <= 8; ++k) {
    for (MagicRules rules : {MagicRules::msquare, MagicRules::sicily1515}) {
      if (rules == MagicRules::sicily1515 && k % 2) continue;
      const MagicBoard b(k, rules);
      MagicState s = b.start();
      for (int step = 0; step < 200; ++step) {
        for (int m = 0; m < 3; ++m) {
          MagicState moved, back;
          b.apply(s, m, moved);
          b.apply_inverse(moved, m, back);
          ASSERT_EQ(back, s) << b.name() << " move " << m;
        }
        MagicState next;
        b.apply(s, static_cast<int>(rng() % 3), next);
        s = next;
      }
    }
  }
}

TEST(MagicBoard, MoveOrdersAndInversesAreDerived) {
  const MagicBoard b(4, MagicRules::msquare);
  EXPECT_EQ(b.move_order(0), 2);  // A twice is the identity
  EXPECT_EQ(b.move_order(1), 4);  // B rotates four columns
  EXPECT_EQ(b.move_order(2), 4);  // C turns a 2x2 block
  EXPECT_EQ(b.inverse_move(0), 0);
  EXPECT_EQ(b.inverse_move(1), -1);
  EXPECT_EQ(b.inverse_move(2), -1);
}

TEST(MagicBoard, ClockwiseAndRowOrderParsing) {
  const MagicBoard b(4, MagicRules::msquare);
  EXPECT_EQ(b.parse_clockwise("1 2 3 4 5 6 7 8"), b.start());
  EXPECT_EQ(b.parse("1 2 3 4 8 7 6 5"), b.start());
  EXPECT_EQ(b.parse("1 2 3 4 / 8 7 6 5"), b.start());
  EXPECT_EQ(b.to_clockwise(b.start()), b.parse("1 2 3 4 5 6 7 8"));
}

TEST(MagicBoard, BadBoardsAreRefused) {
  const MagicBoard b(4, MagicRules::msquare);
  EXPECT_THROW(b.parse("1 2 3 4 5 6 7"), InputError);          // too few
  EXPECT_THROW(b.parse("1 2 3 4 5 6 7 8 1"), InputError);      // too many
  EXPECT_THROW(b.parse("1 2 3 4 5 6 7 7"), InputError);        // repeated
  EXPECT_THROW(b.parse("1 2 3 4 5 6 7 9"), InputError);        // out of range
  EXPECT_THROW(b.parse("1 2 3 4 5 6 7 x"), InputError);        // not a number
  EXPECT_THROW(b.parse(""), InputError);                       // empty
  EXPECT_THROW(b.parse("1 2 3 4 5 6 7 99999999999"), InputError);
  // A '/' must stand between two rows, and numbers have no leading zeros (the board's text
  // is read by core/number_list.hpp, as the tiles' and the pancakes' are).
  for (const auto& [text, says] : std::vector<std::pair<std::string, std::string>>{
           {"/ 1 2 3 4 / 8 7 6 5", "an empty row"},
           {"1 2 3 4 / 8 7 6 5 /", "an empty row"},
           {"1 2 3 4 // 8 7 6 5", "an empty row"},
           {"01 2 3 4 8 7 6 5", "cell value \"01\" has a leading zero in board"},
           {"1 2 3 4 / 8 7 6 05", "cell value \"05\" has a leading zero in board"}}) {
    try {
      b.parse(text);
      ADD_FAILURE() << text << " was read";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
    EXPECT_THROW(b.parse_clockwise(text), InputError) << text;
  }
  EXPECT_THROW(MagicBoard(9, MagicRules::msquare), InputError);
  EXPECT_THROW(MagicBoard(1, MagicRules::msquare), InputError);
  EXPECT_THROW(MagicBoard(3, MagicRules::sicily1515), InputError);
}

TEST(CheckersLine, MovesSwapTheHoleWithCellsAtDistanceOneOrTwo) {
  const CheckersLine line(5);
  const auto s = line.start();
  EXPECT_EQ(line.format(s), "##&@@");
  CheckersState out;
  ASSERT_TRUE(line.apply(s, 0, out));
  EXPECT_EQ(line.format(out), "&##@@");  // a: hole 2 left (jump)
  ASSERT_TRUE(line.apply(s, 1, out));
  EXPECT_EQ(line.format(out), "#&#@@");  // b: hole 1 left
  ASSERT_TRUE(line.apply(s, 2, out));
  EXPECT_EQ(line.format(out), "##@&@");  // c
  ASSERT_TRUE(line.apply(s, 3, out));
  EXPECT_EQ(line.format(out), "##@@&");  // d
  const auto edge = line.parse("&##@@");
  EXPECT_FALSE(line.apply(edge, 0, out));
  EXPECT_FALSE(line.apply(edge, 1, out));
  for (int m = 0; m < 4; ++m) {
    CheckersState moved, back;
    if (!line.apply(s, m, moved)) continue;
    ASSERT_TRUE(line.apply_inverse(moved, m, back));
    EXPECT_EQ(back, s);
  }
}

TEST(CheckersLine, DefaultStartAndComponentSize) {
  EXPECT_EQ(CheckersLine(19).format(CheckersLine(19).start()), "#########&@@@@@@@@@");
  EXPECT_EQ(CheckersLine(4).format(CheckersLine(4).start()), "#&@@");
  const CheckersLine l19(19), l25(25), l27(27);
  EXPECT_EQ(l19.component_size(l19.start()), 923'780u);
  EXPECT_EQ(l25.component_size(l25.start()), 67'603'900u);
  EXPECT_EQ(l27.component_size(l27.start()), 280'816'200u);
}

TEST(CheckersLine, BadBoardsAreRefused) {
  const CheckersLine line(5);
  EXPECT_THROW(line.parse("##&@"), InputError);    // wrong length
  EXPECT_THROW(line.parse("##@@@"), InputError);   // no hole
  EXPECT_THROW(line.parse("#&&@@"), InputError);   // two holes
  EXPECT_THROW(line.parse("##&@x"), InputError);   // other characters
  EXPECT_THROW(CheckersLine(33), InputError);
  EXPECT_THROW(CheckersLine(0), InputError);
  EXPECT_FALSE(line.same_component(line.parse("##&@@"), line.parse("#@&@@")));
}

// The size every listed puzzle reports (list, --progress, the engines' capacities) must be
// what a whole-space run reaches, for every size small enough to run here.
TEST(Registry, ComponentSizesMatchAWholeSpaceRun) {
  std::vector<std::string> names = {"msquare-2x2", "msquare-2x3", "msquare-2x4", "sicily1515-2x2", "sicily1515-2x4"};
  for (int n = 1; n <= 15; ++n) names.push_back("checkers-" + std::to_string(n));
  for (const auto& name : names) {
    SolverConfig config;
    config.puzzle = name;
    config.engine = "ring";
    auto solver = make_solver(config);
    const std::uint64_t reached = solver->explore().states();
    EXPECT_EQ(state_space_size(parse_puzzle(name)), reached) << name;
    EXPECT_EQ(solver->puzzle().component_size(), reached) << name;
  }
  EXPECT_EQ(state_space_size(parse_puzzle("msquare-2x2")), 8u);  // the square's symmetries, not 4!
}

// The ThreadSanitizer build's engine list is read off the engines' declarations: every
// threaded engine and every serial whole-space engine that keeps a table, in list order.
TEST(Registry, TheThreadSanitizerBuildHoldsEveryThreadedEngine) {
  using Probe = BuiltinFamilies::At<0>;
  std::vector<std::string> listed, expected;
  ThreadSanitizerEngines::for_each([&]<template <class, class> class Engine>() {
    listed.emplace_back(EngineTraits<Engine, Probe::Puzzle, Probe::LastEncoder>::name);
  });
  for (const auto& e : engines())
    if (!e.distributed && (e.threaded || (e.whole_space && !e.counts_only))) expected.emplace_back(e.name);
  EXPECT_EQ(listed, expected);
  EXPECT_NE(std::find(listed.begin(), listed.end(), "idastar"), listed.end());
  EXPECT_EQ(std::find(listed.begin(), listed.end(), "bidir"), listed.end());
}

// One resolution of a run's names: the family, the engine, and the defaults applied where no
// name is given (the perfect ranking; the last heuristic that fits), the same as the solver's.
TEST(Registry, ASelectionResolvesEveryNameOnce) {
  const Selection tiles = resolve_selection("tiles-3x3", "idastar");
  ASSERT_NE(tiles.family, nullptr);
  EXPECT_EQ(tiles.family->name, "tiles");
  EXPECT_EQ(tiles.puzzle.name, "tiles-3x3");
  EXPECT_EQ(tiles.engine->name, "idastar");
  EXPECT_EQ(tiles.heuristic, applicable_heuristics(tiles.puzzle).back());
  EXPECT_EQ(tiles.states, 181440u);  // 9!/2
  EXPECT_EQ(resolve_selection("tiles-3x3", "idastar", {}, "manhattan").heuristic, "manhattan");
  EXPECT_EQ(resolve_selection("msquare", "ring").encoder, "cantor");
  EXPECT_EQ(resolve_selection("msquare", "ring").puzzle.name, "msquare-2x4");
  EXPECT_EQ(resolve_selection("msquare", "naive").encoder, "none");
  EXPECT_TRUE(resolve_selection("msquare", "ring", {}, "pdb").heuristic.empty()) << "a blind engine takes no heuristic";
  EXPECT_THROW(resolve_selection("tiles-3x3", "idastar", {}, "manhatan"), InputError);
  EXPECT_THROW(resolve_selection("tiles-3x3", "paralel"), InputError);
  EXPECT_THROW(resolve_selection("tiles-3x", "ring"), InputError);
  // The solver applies the same defaults.
  SolverConfig c;
  c.puzzle = "tiles-3x3";
  c.engine = "ring";
  EXPECT_EQ(make_solver(c)->encoder_name(), resolve_selection("tiles-3x3", "ring").encoder);
}
