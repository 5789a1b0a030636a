// The judge front ends: the judges' published samples, exact formats, agreement across engines, and a
// clear error with a line number for every class of bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "judges/registry_routes.hpp"
#include "core/errors.hpp"
#include "registry/registry.hpp"

using namespace searchbench;

namespace {

std::string error_of(std::string_view judge, std::string_view input) {
  try {
    run_judge(judge, input);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

// Every engine x encoder (naive: none) must print exactly what the default judge prints.
void expect_identical_for_every_engine(std::string_view judge, const std::string& input,
                                       std::initializer_list<const char*> encoders) {
  const std::string expected = run_judge(judge, input);
  for (const std::string engine : {"ring", "parallel", "bidir", "iddfs", "naive"})
    for (const std::string encoder : encoders) {
      if (engine == "naive" && encoder != *encoders.begin()) continue;
      const JudgeOptions o{engine, engine == "naive" ? "" : encoder};
      EXPECT_EQ(run_judge(judge, input, o), expected) << judge << " " << engine << "/" << encoder;
    }
}

}  // namespace

TEST(Judges, Sicily1151Sample) {
  EXPECT_EQ(run_judge("sicily1151", "4\n5 8 7 6\n4 1 2 3\n3\n8 7 6 5\n1 2 3 4\n-1\n"), "2 AB\n1 A\n");
}

TEST(Judges, Sicily1151LimitAndEndOfInput) {
  EXPECT_EQ(run_judge("sicily1151", "1\n5 8 7 6\n4 1 2 3\n"), "-1\n");  // needs 2 > 1; input just ends
  EXPECT_EQ(run_judge("sicily1151", "0\n1 2 3 4\n8 7 6 5\n-1\n"), "0 \n");
}

TEST(Judges, Sicily1515UsesItsOwnRules) {
  EXPECT_EQ(run_judge("sicily1515", "5\n3 4 1 2\n7 8 5 6\n-1\n"), "1 A\n");
  EXPECT_EQ(run_judge("sicily1515", "100\n1 2 3 4\n5 6 7 8\n-1\n"), "0 \n");
}

TEST(Judges, MsquareSampleAndLineWrapping) {
  EXPECT_EQ(run_judge("msquare", "2 6 8 4 5 7 3 1\n"), "7\nBCABCCB\n");
  EXPECT_EQ(run_judge("msquare", "1 2 3 4 5 6 7 8\n"), "0\n\n");
}

TEST(Judges, Fzu1603Sample) {
  EXPECT_EQ(run_judge("fzu1603", "1\n##&@@ @@&##\n"), "8\n");
  EXPECT_EQ(run_judge("fzu1603", "2\n##&@@ @@&##\n#&#@@ ##&@@\n"), "8\n1\n");
  EXPECT_EQ(run_judge("fzu1603", "1\n##&@@ ##@&@\n"), "1\n");
  EXPECT_EQ(run_judge("fzu1603", "1\n##&@@ #@&@@\n"), "-1\n");  // different counts
}

TEST(Judges, EveryEngineGivesByteIdenticalOutput) {
  expect_identical_for_every_engine("sicily1151", "22\n8 7 6 5\n4 3 2 1\n30\n4 1 2 3\n5 8 7 6\n5\n1 7 2 4\n8 6 3 5\n-1\n",
                                    {"cantor", "decimal", "bitpack", "bitpack-implied", "octal", "octal7"});
  expect_identical_for_every_engine("fzu1603", "3\n#####&@@@@@ @@@@@&#####\n#@#@#&@#@#@ @@@##&#@##@\n&@#@#@#@#@# @#@#@#@#@#&\n",
                                    {"decimal", "bitpack", "maskhole", "combinatorial"});
}

// Every one of the 8! boards, with limits from 0 to 24 in turn: the default sicily route
// (the path table) answers as another whole-space engine's table does.
TEST(Judges, SicilyDefaultRouteMatchesAnotherEngine) {
  std::vector<int> cells{1, 2, 3, 4, 5, 6, 7, 8};
  std::string input;
  int c = 0;
  do {
    input += std::to_string(c++ % 25) + "\n";
    for (int i = 0; i < 8; ++i) input += std::to_string(cells[i]) + (i % 4 == 3 ? "\n" : " ");
  } while (std::next_permutation(cells.begin(), cells.end()));
  input += "-1\n";
  ASSERT_EQ(c, 40320);
  for (const char* judge : {"sicily1151", "sicily1515"})
    EXPECT_EQ(run_judge(judge, input), run_judge(judge, input, {"parallel", "octal"})) << judge;
}

// The default fzu1603 route (one reused distance search) against two registry routes on
// a mixed input: lengths 1..12, equal boards, other piece counts.
TEST(Judges, Fzu1603DefaultRouteMatchesTheEnginesOnMixedCases) {
  std::mt19937 rng(15);
  auto board = [&](int n, std::string pieces) {
    std::shuffle(pieces.begin(), pieces.end(), rng);
    pieces.insert(pieces.begin() + static_cast<long>(rng() % static_cast<unsigned>(n)), '&');
    return pieces;
  };
  std::string input = "150\n";
  for (int c = 0; c < 150; ++c) {
    const int n = 1 + static_cast<int>(rng() % 12);
    std::string pieces;
    for (int i = 0; i < n - 1; ++i) pieces += rng() % 2 ? '#' : '@';
    const std::string a = board(n, pieces);
    std::string other;
    for (int i = 0; i < n - 1; ++i) other += rng() % 2 ? '#' : '@';
    const std::string b = c % 7 == 0 ? a : c % 5 == 0 ? board(n, other) : board(n, pieces);
    input += a + " " + b + "\n";
  }
  const std::string expected = run_judge("fzu1603", input);
  EXPECT_EQ(run_judge("fzu1603", input, {"bidir", "bitpack"}), expected);
  EXPECT_EQ(run_judge("fzu1603", input, {"ring", "maskhole"}), expected);
}

// Lines of 13..20 cells, where the default route's frontiers grow into bitsets: far pairs
// (a board and its mirror image, the two extreme boards) and random pairs, the lengths
// falling and rising so that the search's memory is laid out again between cases.
TEST(Judges, Fzu1603DefaultRouteMatchesTheEnginesOnLongLines) {
  std::mt19937 rng(1603);
  std::string input = "24\n";
  for (int c = 0; c < 24; ++c) {
    const int n = c < 8 ? 20 - c : 13 + (c - 8) / 2;
    const int hashes = c % 3 == 0 ? (n - 1) / 2 : 1 + static_cast<int>(rng() % static_cast<unsigned>(n - 2));
    std::string a = std::string(static_cast<std::size_t>(hashes), '#') + std::string(static_cast<std::size_t>(n - 1 - hashes), '@');
    std::shuffle(a.begin(), a.end(), rng);
    a.insert(a.begin() + static_cast<long>(rng() % static_cast<unsigned>(n)), '&');
    std::string b(a.rbegin(), a.rend());
    if (c % 4 == 1) std::shuffle(b.begin(), b.end(), rng);
    if (c == 5) a = std::string(7, '#') + "&" + std::string(7, '@'), b = std::string(7, '@') + "&" + std::string(7, '#');
    input += a + " " + b + "\n";
  }
  EXPECT_EQ(run_judge("fzu1603", input), run_judge("fzu1603", input, {"bidir", "maskhole"}));
}

// The sicily judges read input as judges' test data writes it on a plain path; anything
// else goes to the general reader, and both say the same: carriage returns and tabs, a
// limit with leading zeros or above any path, a cell with a leading zero, a board split
// over odd lines, no -1, a limit of 0, and the bad inputs.
TEST(Judges, SicilyPlainAndGeneralReadersAgree) {
  const auto outcome = [](std::string_view input, const JudgeOptions& options) {
    try {
      return run_judge("sicily1151", input, options);
    } catch (const JudgeInputError& e) {
      return e.answered + "|" + e.what();
    } catch (const InputError& e) {
      return std::string("|") + e.what();
    }
  };
  for (const std::string input :
       {"4\r\n5 8 7 6\r\n4 1 2 3\r\n-1\r\n", "4\t5\t8 7 6\n4 1 2 3\n\n-1", "004\n5 8 7 6\n4 1 2 3\n",
        "99999999999999999\n5 8 7 6 4 1 2 3\n", "4\n05 8 7 6\n4 1 2 3\n-1\n", "0\n1 2 3 4 8 7 6 5 0\n5 8 7 6 4 1 2 3",
        "4\n5 8 7 6\n4 1 2 3\n-1\n-1\n", "4\n5 8 7 6\n4 1 2 3\n-2\n", "4\n5 8 7 6\n4 1 2 3\n+4\n5 8 7 6\n4 1 2 3\n",
        "4\n5 8 7 6\n4 1 2 5\n", "4\n5 8 7 6\n4 1 2", "4\n5 8 7 6\n4 1 2 3x\n", "-1\n", "", " \n", "-1x\n"})
    EXPECT_EQ(outcome(input, {}), outcome(input, {"ring", "bitpack-implied"})) << input;
}

TEST(Judges, MsquareAndSicily1515AgreeAcrossEngines) {
  for (const char* board : {"2 6 8 4 5 7 3 1\n", "8 7 6 5 4 3 2 1\n", "1 2 3 4 5 6 7 8\n", "6 3 8 2 1 4 7 5\n"})
    expect_identical_for_every_engine("msquare", board, {"cantor", "decimal", "octal"});
  expect_identical_for_every_engine("sicily1515", "22\n8 7 6 5\n4 3 2 1\n4\n5 8 7 6\n4 1 2 3\n30\n2 4 6 8\n1 3 5 7\n-1\n",
                                    {"cantor", "bitpack"});
}

// An option left out takes the judge's default: the engine (ring; bidir for fzu1603) with
// only --encoder, the encoder (cantor; bitpack) with only --engine, none for naive.
TEST(Judges, AnOptionLeftOutTakesTheJudgesDefault) {
  const std::string sicily = "30\n5 8 7 6\n4 1 2 3\n1\n5 8 7 6\n4 1 2 3\n-1\n";
  const std::string expected = run_judge("sicily1151", sicily);
  EXPECT_EQ(expected, "2 AB\n-1\n");
  EXPECT_EQ(run_judge("sicily1151", sicily, {"ring", "cantor"}), expected);
  EXPECT_EQ(run_judge("sicily1151", sicily, {"", "decimal"}), expected);
  EXPECT_EQ(run_judge("sicily1151", sicily, {"bidir", ""}), expected);
  const std::string fzu = "3\n##&@@ @@&##\n#&#@@ ##&@@\n##&@@ #@&@@\n";
  EXPECT_EQ(run_judge("fzu1603", fzu), "8\n1\n-1\n");
  EXPECT_EQ(run_judge("fzu1603", fzu, {"", "combinatorial"}), "8\n1\n-1\n");
  EXPECT_EQ(run_judge("fzu1603", fzu, {"iddfs", ""}), "8\n1\n-1\n");
  EXPECT_EQ(run_judge("fzu1603", fzu, {"naive", ""}), "8\n1\n-1\n");
}

// The one list of judges: what the help, the validation and the dispatch read.
TEST(Judges, OneListNamesEveryJudge) {
  std::vector<std::string> names;
  for (const JudgeInfo& j : judges()) {
    names.emplace_back(j.name);
    EXPECT_FALSE(j.format.empty()) << j.name;
    EXPECT_NO_THROW(validate_judge(j.name, {})) << j.name;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"sicily1151", "sicily1515", "msquare", "fzu1603"}));
  EXPECT_EQ(judge_names(" | "), "sicily1151 | sicily1515 | msquare | fzu1603");
  EXPECT_EQ(judge_names(", ", " or "), "sicily1151, sicily1515, msquare or fzu1603");
  const std::string help = judge_formats();
  EXPECT_EQ(help.rfind("Judges (input on stdin, output on stdout, in the judge's exact format):\n  sicily1151  msquare rules, 2x4.", 0), 0u);
  EXPECT_NE(help.find("\n  msquare     USACO Magic Squares: 8 numbers, the target in clockwise order (top row left to\n"
                      "              right, then bottom row right to left)."),
            std::string::npos);
  EXPECT_NE(help.find("\n              unreachable.\nA bad case prints the answers before it"), std::string::npos);
  EXPECT_EQ(help.back(), '.');
}

TEST(Judges, BadInputGetsOneClearLineWithItsLineNumber) {
  EXPECT_EQ(error_of("sicily1151", ""), "line 1: empty input: expected a move limit N");
  EXPECT_EQ(error_of("sicily1151", "4\n5 8 7 x\n"), "line 2: expected a cell value, got 'x'");
  EXPECT_EQ(error_of("sicily1151", "4\n5 8 7 6\n4 1 2\n"), "line 3: input ended inside a board: expected 8 numbers, got 7");
  EXPECT_EQ(error_of("sicily1151", "4\n5 8 7 6\n4 1 2 9\n"), "line 3: cell value 9 is out of range 1..8");
  EXPECT_EQ(error_of("sicily1151", "4\n5 8 7 6\n4 1 2 2\n"), "line 3: cell value 2 appears twice");
  EXPECT_EQ(error_of("sicily1151", "abc\n"), "line 1: expected a move limit N, got 'abc'");
  EXPECT_EQ(error_of("sicily1151", "-7\n"), "line 1: move limit -7 is negative (only -1 ends the input)");
  EXPECT_EQ(error_of("sicily1151", "99999999999999999999999\n"), "line 1: expected a move limit N, got '99999999999999999999'");
  EXPECT_EQ(error_of("msquare", ""), "line 1: empty input: expected 8 numbers");
  EXPECT_EQ(error_of("msquare", "1 2 3 4 5 6 7\n"), "line 1: input ended inside a board: expected 8 numbers, got 7");
  EXPECT_EQ(error_of("msquare", "1 2 3 4 5 6 7 8 9\n"), "line 1: unexpected extra input after the 8 numbers");
  EXPECT_EQ(error_of("fzu1603", ""), "line 1: empty input: expected the case count T");
  EXPECT_EQ(error_of("fzu1603", "3\n##&@@ @@&##\n"), "line 2: the case count is 3 but only 1 case is given");
  EXPECT_EQ(error_of("fzu1603", "1\n##&@@ @@&#\n"), "line 2: boards '##&@@' and '@@&#' differ in length");
  EXPECT_EQ(error_of("fzu1603", "1\n##@@@ @@@##\n"),
            "line 2: checkers board \"##@@@\" must have exactly one hole '&', it has 0");
  EXPECT_EQ(error_of("fzu1603", "1\n#&&@@ @@&##\n"),
            "line 2: checkers board \"#&&@@\" must have exactly one hole '&', it has 2");
  EXPECT_EQ(error_of("fzu1603", "1\n##&@x @@&##\n"),
            "line 2: checkers board \"##&@x\" contains 'x' (only '@', '#' and one '&' are allowed)");
  EXPECT_EQ(error_of("fzu1603", "1\n##&@@\n"), "line 2: case 1 needs two boards on one line");
  EXPECT_EQ(error_of("fzu1603", "x\n"), "line 1: expected the case count T, got 'x'");
  EXPECT_EQ(error_of("fzu1603", "1\n##&@@ @@&##\nextra\n"), "line 3: unexpected extra input after 1 case");
  // Boards split over two lines: the error names the case's line, not the second board's.
  EXPECT_EQ(error_of("fzu1603", "2\n##&@@ @@&##\n##&@@\n@@&##\n"), "line 3: case 2 needs two boards on one line");
  EXPECT_EQ(error_of("tetris", ""), "unknown judge 'tetris' (choose sicily1151, sicily1515, msquare or fzu1603)");
}

TEST(Judges, AnswersBeforeABadCaseTravelWithTheError) {
  auto answered = [](std::string_view judge, std::string_view input) {
    try {
      run_judge(judge, input);
    } catch (const JudgeInputError& e) {
      return e.answered + "|" + e.what();
    }
    return std::string("(no error)");
  };
  // A bad token after good cases, a short case count, input after the -1 terminator.
  EXPECT_EQ(answered("sicily1151", "4\n5 8 7 6\n4 1 2 3\n3\n8 7 6 5\n1 2 3 4\nx\n"),
            "2 AB\n1 A\n|line 7: expected a move limit N, got 'x'");
  EXPECT_EQ(answered("fzu1603", "3\n##&@@ @@&##\n#&#@@ ##&@@\n"), "8\n1\n|line 3: the case count is 3 but only 2 cases are given");
  EXPECT_EQ(answered("sicily1515", "1\n1 2 3 4\n5 6 7 8\n-1\n4\n"), "0 \n|line 5: unexpected input after the -1 that ends the input");
  // A bad case after many good ones (the plain reader gives up on the input, the general
  // one answers it again) still carries every answer before it.
  std::string many, expected;
  for (int i = 0; i < 600; ++i) {
    many += i % 2 ? "4\n5 8 7 6\n4 1 2 3\n" : "0\n5 8 7 6\n4 1 2 3\n";
    expected += i % 2 ? "2 AB\n" : "-1\n";
  }
  EXPECT_EQ(answered("sicily1151", many + "3\n8 7 6 5\n1 2 3 9\n"),
            expected + "|line 1803: cell value 9 is out of range 1..8");
  // fzu1603 promises N < 21; longer lines are refused before any search.
  EXPECT_EQ(answered("fzu1603", "2\n##&@@ @@&##\n################&@@@@@@@@@@@@@@@ @@@@@@@@@@@@@@@&################\n"),
            "8\n|line 3: board length 32 is outside fzu1603's 1..20 (longer lines: searchbench run --puzzle checkers-N)");
}

TEST(Judges, OptionsAreCheckedBeforeAnyInput) {
  EXPECT_NO_THROW(validate_judge("sicily1151", {}));
  EXPECT_NO_THROW(validate_judge("fzu1603", {"iddfs", "combinatorial"}));
  EXPECT_NO_THROW(validate_judge("msquare", {"naive", ""}));
  EXPECT_THROW(validate_judge("tetris", {}), InputError);
  EXPECT_THROW(validate_judge("sicily1151", {"dfs", ""}), InputError);
  EXPECT_THROW(validate_judge("msquare", {"", "maskhole"}), InputError);  // a checkers encoder
  EXPECT_THROW(validate_judge("fzu1603", {"", "cantor"}), InputError);   // a magic encoder
  // Engines that keep whole states run without the route's default encoder.
  EXPECT_NO_THROW(validate_judge("sicily1151", {"idastar", ""}));
  EXPECT_NO_THROW(validate_judge("fzu1603", {"idastar", ""}));
  EXPECT_EQ(run_judge("sicily1151", "30\n8 6 7 3\n4 1 5 2\n-1\n", {"idastar", ""}), run_judge("sicily1151", "30\n8 6 7 3\n4 1 5 2\n-1\n"));
  // A judge cannot be answered by an engine that only counts states, nor, where it prints
  // paths, by one that returns any shortest path: refused before any input is read.
  const auto refusal = [](std::string_view judge, const JudgeOptions& options) {
    try {
      validate_judge(judge, options);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  EXPECT_NE(refusal("sicily1151", {"astar", ""}).find("not always the lexicographically smallest"), std::string::npos);
  EXPECT_NE(refusal("msquare", {"astar", ""}).find("not always the lexicographically smallest"), std::string::npos);
  EXPECT_EQ(refusal("fzu1603", {"astar", ""}), "(accepted)");  // it prints distances only
  for (const char* judge : {"sicily1151", "fzu1603"})
    for (const auto& e : engines())
      if (e.counts_only) {
        EXPECT_NE(refusal(judge, {std::string(e.name), ""}).find("only counts states"), std::string::npos) << e.name;
      }
}
