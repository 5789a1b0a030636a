// Bad input of every class is refused with one clear line on stderr and a non-zero status
// (and, under --json, one error object on stdout): names, numbers, states, unprintable bytes.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cli_run.hpp"
#include "sanitizer_build.hpp"

namespace {

using searchbench_tests::expect_refusal;
using searchbench_tests::expect_refused;
using searchbench_tests::Outcome;
using searchbench_tests::run;
using searchbench_tests::words;

}  // namespace

TEST(Cli, EveryClassOfBadInputIsRefusedWithOneLine) {
  // Judge input (line numbers included).
  expect_refusal("judge sicily1151", "line 1: empty input", "");
  expect_refusal("judge sicily1151", "line 2: expected a cell value, got 'z'", "3\n1 2 z 4\n");
  expect_refusal("judge sicily1151", "input ended inside a board", "3\n1 2 3 4\n");
  expect_refusal("judge sicily1151", "appears twice", "3\n1 2 3 4\n4 5 6 7\n");
  expect_refusal("judge msquare", "out of range", "1 2 3 4 5 6 7 10\n");
  expect_refusal("judge msquare", "unexpected extra input", "1 2 3 4 5 6 7 8 8\n");
  expect_refusal("judge fzu1603", "differ in length", "1\n##&@@ @&#\n");
  expect_refusal("judge fzu1603", "exactly one hole", "1\n##@@@ @@@##\n");
  expect_refusal("judge fzu1603", "exactly one hole", "1\n#&&@@ @@&##\n");
  expect_refusal("judge fzu1603", "contains 'x'", "1\n##x&@ @@&##\n");
  expect_refusal("judge fzu1603", "the case count is 4 but only 1 case is given", "4\n##&@@ @@&##\n");
  expect_refusal("judge tetris", "unknown judge 'tetris'");
  // Names and combinations.
  expect_refusal("run --puzzle sudoku", "unknown puzzle 'sudoku'");
  expect_refusal("run --engine dfs", "--engine: unknown engine 'dfs' (choose ring, parallel");
  // A slip of a letter or two gets the nearest registered name; a board in loose words, a hint to quote it.
  expect_refusal("run --engine paralel", "unknown engine 'paralel' (did you mean 'parallel'? choose");
  expect_refusal("run --puzzle msqare-2x3", "unknown puzzle 'msqare-2x3' (did you mean 'msquare-2x3'? choose");
  expect_refusal("run --puzzle tiles-3x3 --encoder nible", "unknown encoder 'nible' for tiles-3x3 (did you mean 'nibbles'?");
  expect_refusal("run --puzzle tiles-3x3 --engine astar --heuristic manhatan --target '1 2 3 4 5 6 7 8 0'",
                 "unknown heuristic 'manhatan' for tiles-3x3 (did you mean 'manhattan'?");
  expect_refusal("run --puzzle tiles-3x3 --engine bidir --target 1 2 3 4 5 6 7 8 0",
                 "--target takes the whole board as one argument: quote it, --target \"1 2 3 4 5 6 7 8 0\"");
  expect_refusal("run tiles-3x3", "name the puzzle with --puzzle: --puzzle tiles-3x3");
  // judge takes one name: a second is no puzzle to name with --puzzle.
  const Outcome two_names = run("judge fzu1603 fzu1603");
  EXPECT_EQ(two_names.status, 2);
  EXPECT_EQ(two_names.err.find("--puzzle"), std::string::npos) << two_names.err;
  expect_refusal("run --encoder zip", "unknown encoder 'zip'");
  expect_refusal("run --puzzle msquare-2x5 --encoder decimal", "does not fit msquare-2x5");
  expect_refusal("run --puzzle checkers-31 --encoder maskhole", "fits N <= 29");
  expect_refusal("run --puzzle checkers-99", "N must be 1..32");
  expect_refusal("run --puzzle msquare-2x9", "K must be 2..8");
  expect_refusal("run --puzzle sicily1515-2x5", "even width");
  expect_refusal("run --puzzle pancake-65", "N must be 2..64");
  expect_refusal("run --puzzle pancake-64", "no encoder fits pancake-64");
  expect_refusal("run --puzzle pancake-64 --engine bidir --encoder cantor --target '2 1 3 4 5 6 7 8 9 10 11 12 13 14 15 16 "
                 "17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 "
                 "53 54 55 56 57 58 59 60 61 62 63 64'",
                 "does not fit pancake-64");
  expect_refusal("run --puzzle pancake-64 --engine naive", "more than the");
  expect_refusal("run --engine bidir", "point queries only");
  expect_refusal("run --engine ring --threads 2", "serial");
  // Numbers.
  expect_refusal("run --engine parallel --threads 0", "--threads: Value 0 not in range 1 to 1024");
  expect_refusal("run --engine parallel --threads -3", "--threads: Value -3 not in range");
  expect_refusal("run --engine parallel --threads two", "threads");
  expect_refusal("compare --threads 1,0", "--threads: Value 0 not in range");
  // States.
  expect_refusal("run --target '1 2 / 3'", "needs 8 numbers, got 3");
  expect_refusal("run --target '1 2 3 4 / 5 6 7 7'", "appears twice");
  expect_refusal("run --target '1 2 3 4 / 5 6 7 x'", "unexpected character 'x'");
  expect_refusal("run --puzzle checkers-5 --target '##&@'", "expected 5");
  // Memory guard: refused at once, before allocating.
  expect_refusal("run --puzzle msquare-2x8 --encoder cantor", "more than the");
  expect_refusal("run --puzzle msquare-2x5 --encoder cantor --max-memory 1M", "more than --max-memory");
  expect_refusal("run --max-memory lots", "--max-memory: 'lots' is not a size");
  // Export.
  expect_refusal("export --puzzle msquare --encoder octal", "every key is a state");
  expect_refusal("export --format gr", "--format: gr not in {el}");
  expect_refusal("export --output /nonexistent/dir/graph.el", "cannot open");
}

TEST(Cli, SilentAcceptsAreRefusedWithOneLine) {
  expect_refusal("run --engine iddfs --target '5 8 7 6 / 4 1 2 3' --node-budget -5", "--node-budget: Value -5 not in range");
  expect_refusal("run --max-depth -2", "--max-depth: Value -2 not in range");
  expect_refusal("run --max-memory garbage --engine bidir --target '5 8 7 6 / 4 1 2 3'", "--max-memory: 'garbage' is not a size");
  for (const char* size : {"0x10", "inf", "1e30", "1.5G", "-4M"})
    expect_refusal(std::string("run --max-memory ") + size, "is not a size");
  // An empty value never means the default, and `--opt=` never takes the next argument.
  for (const char* option : {"--max-memory", "--heuristic", "--pdb-cache", "--engine", "--puzzle"})
    expect_refusal(std::string("run ") + option + " ''", std::string(option) + ": must not be empty");
  expect_refusal("run --puzzle tiles-3x3 --engine idastar --pdb-cache= --json", "--pdb-cache: nothing after '='");
  expect_refusal("run --target= '5 8 7 6 / 4 1 2 3'", "--target: nothing after '='");
  expect_refusal("run --max-memory 0", "--max-memory: Value 0 not in range");
  for (const char* size : {"64k", "64K", "2m", "2M", "1g", "1G", "1048576"}) {
    const Outcome o = run(std::string("run --puzzle msquare-2x3 --quiet --max-memory ") + size);
    EXPECT_EQ(o.status, 0) << size << ": " << o.err;
  }
  expect_refusal("run --target ''", "--target: must not be empty");
  expect_refusal("run --start ''", "--start: must not be empty");
  expect_refusal("compare --targets " + ::testing::TempDir(), "--targets: File is actually a directory");
  expect_refusal("run --threads ''", "--threads: must not be empty");
  // Judge options are checked before stdin is read: no input is given here, and a judge
  // that waited for it would be killed by the harness's timeout.
  for (const char* args : {"judge sicily1151 --engine dfs", "judge msquare --encoder zip", "judge fzu1603 --encoder cantor", "judge tetris"}) {
    const Outcome o = run(args, "");
    EXPECT_EQ(o.status, 2) << args << ": " << o.err;
    EXPECT_EQ(o.err.find("line "), std::string::npos) << args << ": blamed on an input line: " << o.err;
  }
  expect_refusal("judge sicily1151", "unexpected input after the -1", "4\n5 8 7 6\n4 1 2 3\n-1\n5\n");
  expect_refusal("judge sicily1515", "unexpected input after the -1", "-1\ngarbage\n");
}

// Every numeric option reads one grammar: plain decimal digits (a '-' only to be told it is
// out of range where no negative is documented), nothing past the range. CLI11's own
// conversions took hex, "+5" and " 5", and wrapped or saturated what 64 bits cannot hold.
TEST(Cli, NumbersHaveOneGrammar) {
  for (const char* size : {"18446744073709551616", "99999999999999999999", "16E"})
    expect_refusal(std::string("run --max-memory ") + size, "--max-memory: '" + std::string(size) + "' is too large a size");
  expect_refusal("run --seed-keys 99999999999999999999", "--seed-keys: Value 99999999999999999999 not in range");
  expect_refusal("compare --seed -1", "--seed: Value -1 not in range 0 to 18446744073709551615");
  expect_refusal("compare --seed 18446744073709551616", "--seed: Value 18446744073709551616 not in range");
  for (const char* number : {"0x10", "' 5'", "'+5'", "'5 '", "1e1", "4.0", "010x", "5."})
    expect_refusal(std::string("run --engine parallel --threads ") + number, "--threads: ");
  expect_refusal("run --engine parallel --threads 0x10", "--threads: '0x10' is not a whole number");
  for (const char* option : {"--max-depth", "--node-budget", "--repetitions", "--warmup", "--seed-keys"})
    expect_refusal(std::string("run ") + option + " '+1'", std::string(option) + ": '+1' is not a whole number");
  for (const char* option : {"--random", "--seed", "--repetitions", "--warmup"})
    expect_refusal(std::string("compare ") + option + " 0x1", std::string(option) + ": '0x1' is not a whole number");
  expect_refusal("run --engine parallel --bottom-up-ratio ''", "--bottom-up-ratio: must not be empty");
  for (const char* ratio : {"' 1'", "+1", "1e3", "inf", "nan", "0x1", ".", "1.2.3"})
    expect_refusal(std::string("run --engine parallel --bottom-up-ratio ") + ratio, "is not a bottom-up ratio");
  for (const char* list : {"1,,2", ",1", "1,", "''"}) expect_refusal(std::string("compare --threads ") + list, "--threads: ");
  expect_refusal("compare --threads 1,,2", "--threads: '1,,2' has an empty item between its commas");
  expect_refusal("run --puzzle msquare-2x3 --seed-keys 5", "--seed-keys applies to engine 'external' only");
  // Leading zeros are still decimal (CLI11 read 010 as octal 8); -1 stays where documented.
  const Outcome o = run("run --puzzle msquare-2x2 --engine parallel --quiet --json --repetitions 010 --warmup 0 --max-depth -1 --bottom-up-ratio .5");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(nlohmann::json::parse(o.out)["repetitions"], 10);
  const Outcome c = run("compare --puzzle msquare-2x2 --random 1 --seed 007 --threads 01,2 --threads 3 --json");
  ASSERT_EQ(c.status, 0) << c.err;
  const auto doc = nlohmann::json::parse(c.out);
  EXPECT_NE(doc["targets_note"].get<std::string>().find("(seed 7)"), std::string::npos) << doc["targets_note"];
  std::vector<int> threads;
  for (const auto& row : doc["rows"])
    if (row["engine"] == "parallel") threads.push_back(row["threads_requested"].get<int>());
  std::sort(threads.begin(), threads.end());
  threads.erase(std::unique(threads.begin(), threads.end()), threads.end());
  EXPECT_EQ(threads, (std::vector<int>{1, 2, 3}));
}

// Input quoted in a message is escaped: a NUL no longer cuts the message short, control bytes
// never reach the terminal, and every message stays one line. \v and \f separate judge tokens.
TEST(Cli, MessagesEscapeUnprintableInput) {
  using namespace std::string_literals;
  const Outcome nul = run("judge sicily1151", "3\n1 2 z\0y 4\n"s);
  EXPECT_EQ(nul.status, 2);
  EXPECT_EQ(nul.err, "searchbench: line 2: expected a cell value, got 'z\\x00y'\n");
  const Outcome esc = run("judge sicily1151", "3\n1 2 \x1b[31mred 4\n");
  EXPECT_EQ(esc.err, "searchbench: line 2: expected a cell value, got '\\x1b[31mred'\n");
  expect_refusal("judge fzu1603", "contains '\\x00'", "1\n##&\0@ @@&##\n"s);
  expect_refusal("judge fzu1603", "boards '##&@@\\x7f' and '@@&##' differ in length", "1\n##&@@\x7f @@&##\n");
  const Outcome utf8 = run("judge sicily1151", "3\n1 2 \xc3\xa9 4\n");
  EXPECT_EQ(utf8.err, "searchbench: line 2: expected a cell value, got '\xc3\xa9'\n");  // printable text stays
  // \v and \f are whitespace, like space and tab.
  const Outcome spaced = run("judge sicily1151", "4\v5 8 7 6\f4 1 2 3\n-1\n");
  EXPECT_EQ(spaced.status, 0) << spaced.err;
  EXPECT_EQ(spaced.out, "2 AB\n");
  EXPECT_EQ(run("judge fzu1603", "1\n##&@@\v@@&##\f\n").out, "8\n");
  // Newlines and escapes inside --target, --start, --puzzle and a targets file.
  expect_refusal("run --target \"$(printf '1 2 3 4\\n/ 5 6 7 x')\"", "unexpected character 'x' in board \"1 2 3 4\\n/ 5 6 7 x\"");
  expect_refusal("run --target \"$(printf '1 2 3 4 / 5 6 7 \\033')\"", "unexpected character '\\x1b'");
  expect_refusal("run --puzzle checkers-5 --start \"$(printf '##&\\t@@')\"", "checkers board \"##&\\t@@\"");
  expect_refusal("run --puzzle \"$(printf 'msquare-2x\\n5')\"", "'msquare-2x\\n5'");
  expect_refusal("run --engine \"$(printf 'ring\\033')\"", "ring\\x1b");
  const std::string targets = ::testing::TempDir() + "/searchbench_nul_" + std::to_string(getpid());
  std::ofstream(targets) << "5 8 7 6 / 4 1 2 \0\n"s;
  expect_refusal("compare --puzzle msquare --threads 1 --targets " + targets, "unexpected character '\\x00' in board \"5 8 7 6 / 4 1 2 \\x00\"");
  std::remove(targets.c_str());
  // A stdin that cannot be read is said to be so, not taken for an empty input.
  expect_refused(run("judge sicily1151", "", "", "<&-"), "judge <&-", "cannot read standard input: Bad file descriptor");
  expect_refused(run("judge msquare", "", "", "</"), "judge </", "cannot read standard input: Is a directory");
}

using searchbench_tests::kSanitized;  // the sanitizers' shadow memory needs more than ulimit -v leaves

// With --json a failure prints one object on stdout, {"error": the stderr line's message,
// "exit_status": the status}, for every class of failure; stderr keeps its one line.
TEST(Cli, JsonFailuresPrintAnErrorObject) {
  struct Case {
    std::string args;
    int status;
    std::string setup;
  };
  std::vector<Case> cases = {
      {"run --json --threads 0", 2, ""},
      {"run --engine parallel --threads 0x10 --json", 2, ""},
      {"run --json --puzzle sudoku", 2, ""},
      {"run --json --engine bidir --target \"$(printf '1 2 3 4 / 5 6 7 \\033')\"", 2, ""},
      {"compare --puzzle msquare-2x2 --seed -1 --json", 2, ""},
      {"compare --json --puzzle tiles-9x9", 2, ""},
      {"list --json --nonsense", 2, ""},
      {"run --puzzle msquare-2x8 --engine iddfs --target '9 10 11 12 13 14 15 16 / 1 2 3 4 5 6 7 8' --node-budget 10 --json", 3, ""},
  };
  if (!kSanitized) cases.push_back({"run --puzzle msquare-2x6 --quiet --json", 4, "ulimit -v 400000; "});
  for (const auto& c : cases) {
    const Outcome o = run(c.args, "", "", "", c.setup);
    EXPECT_EQ(o.status, c.status) << c.args << ": " << o.err;
    expect_refused(o, c.args, "");
    ASSERT_FALSE(o.out.empty()) << c.args;
    EXPECT_EQ(std::count(o.out.begin(), o.out.end(), '\n'), 1) << c.args << ": " << o.out;
    const auto doc = nlohmann::json::parse(o.out);
    EXPECT_EQ(doc.size(), 2u) << o.out;
    EXPECT_EQ("searchbench: " + doc["error"].get<std::string>() + "\n", o.err) << c.args;
    EXPECT_EQ(doc["exit_status"], c.status) << c.args;
  }
  // Without --json, and for the commands that have none, stdout stays empty.
  for (const char* args : {"run --threads 0", "run --puzzle sudoku", "judge sicily1151 --json", "list --nonsense"}) {
    const Outcome o = run(args);
    EXPECT_EQ(o.status, 2) << args;
    EXPECT_EQ(o.out, "") << args;
  }
}
