// The searchbench executable as a user meets it: exit codes, the one-line error on stderr
// for every class of bad input, the memory guard, JSON output, compare and list.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <signal.h>

#include <array>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <random>
#include <thread>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <numeric>
#include <sstream>
#include <thread>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "cli_run.hpp"
#include "known_facts.hpp"
#include "sanitizer_build.hpp"
#include "registry/registry.hpp"

namespace {

using searchbench_tests::expect_refusal;
using searchbench_tests::expect_refused;
using searchbench_tests::Outcome;
using searchbench_tests::run;
using searchbench_tests::slurp;

// The value on the text output's line for `field` (the JSON name), or "" when missing.
std::string field(const std::string& text, const std::string& name) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(name + " ", 0) != 0) continue;
    const auto value = line.find_first_not_of(' ', name.size());
    return value == std::string::npos ? "" : line.substr(value);
  }
  return "";
}

// The blank-separated words of a line.
std::vector<std::string> words(const std::string& line) {
  std::istringstream in(line);
  return {std::istream_iterator<std::string>(in), std::istream_iterator<std::string>()};
}

// A pipe whose reading end is closed: every write to the other end fails (EPIPE, or
// SIGPIPE for a process that does not ignore it). Redirect with ">&" + fd().
struct ReaderlessPipe {
  int fds[2] = {-1, -1};
  ReaderlessPipe() {
    if (::pipe(fds) == 0) ::close(fds[0]);
  }
  ~ReaderlessPipe() { ::close(fds[1]); }
  std::string redirect() const { return ">&" + std::to_string(fds[1]); }
};

}  // namespace

TEST(Cli, RunPrintsTheWholeSpaceAndJson) {
  const Outcome o = run("run --puzzle msquare --engine ring --encoder cantor --quiet");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(field(o.out, "states"), "40320");
  EXPECT_EQ(field(o.out, "radius"), "22");
  const Outcome j = run("run --puzzle msquare --engine parallel --threads 2 --json --quiet");
  ASSERT_EQ(j.status, 0) << j.err;
  const auto doc = nlohmann::json::parse(j.out);
  EXPECT_EQ(doc["states"], 40320);
  EXPECT_EQ(doc["radius"], 22);
  EXPECT_EQ(doc["threads"], std::min(2, doc["cores"].get<int>()));
  EXPECT_EQ(doc["depth_counts"].get<std::vector<std::uint64_t>>(), searchbench::facts::kMsquare2x4Depths);
  for (const char* key : {"puzzle", "engine", "encoder", "seconds", "peak_bytes"}) EXPECT_TRUE(doc.contains(key)) << key;
  const Outcome td = run("run --puzzle msquare --engine parallel --encoder cantor --top-down --json --quiet");
  ASSERT_EQ(td.status, 0) << td.err;
  EXPECT_EQ(nlohmann::json::parse(td.out)["depth_counts"].get<std::vector<std::uint64_t>>(), searchbench::facts::kMsquare2x4Depths);
}

TEST(Cli, PointQueryWithJson) {
  const Outcome o = run("run --puzzle msquare --engine bidir --target '5 8 7 6 / 4 1 2 3' --json");
  ASSERT_EQ(o.status, 0) << o.err;
  const auto doc = nlohmann::json::parse(o.out);
  EXPECT_EQ(doc["distance"], 2);
  EXPECT_EQ(doc["path"], "AB");
  EXPECT_FALSE(doc.contains("radius"));  // a point query has no whole-space totals
  const Outcome c = run("run --puzzle checkers-5 --engine iddfs --start '##&@@' --target '@@&##'");
  ASSERT_EQ(c.status, 0) << c.err;
  EXPECT_EQ(field(c.out, "distance"), "8");
}

TEST(Cli, JudgesReadStdinAndWriteExactOutput) {
  const Outcome o = run("judge sicily1151", "4\n5 8 7 6\n4 1 2 3\n3\n8 7 6 5\n1 2 3 4\n-1\n");
  EXPECT_EQ(o.status, 0);
  EXPECT_EQ(o.out, "2 AB\n1 A\n");
  EXPECT_EQ(run("judge msquare", "2 6 8 4 5 7 3 1\n").out, "7\nBCABCCB\n");
  EXPECT_EQ(run("judge fzu1603", "1\n##&@@ @@&##\n").out, "8\n");
}

TEST(Cli, ListAndCompare) {
  const Outcome l = run("list");
  EXPECT_EQ(l.status, 0);
  EXPECT_NE(l.out.find("cantor"), std::string::npos);
  EXPECT_NE(l.out.find("maskhole"), std::string::npos);
  const Outcome c = run("compare --puzzle msquare-2x3 --random 50 --threads 1,2");
  EXPECT_EQ(c.status, 0) << c.err;
  EXPECT_EQ(c.out.find("NO"), std::string::npos) << c.out;
  EXPECT_NE(c.out.find("iddfs"), std::string::npos);
}

// Whatever the registry lists reaches the front ends with no edit of them: every engine in
// `list`, the help text and compare's table; every family's sizes, examples and encoders in
// `list` and the help text.
TEST(Cli, EveryRegisteredPluginReachesListHelpAndCompare) {
  const Outcome list = run("list"), help = run("run --help");
  ASSERT_EQ(list.status, 0);
  ASSERT_EQ(help.status, 0);
  for (const auto& engine : searchbench::engines()) {
    const std::string name(engine.name);
    EXPECT_NE(list.out.find("  " + name + " "), std::string::npos) << name;
    EXPECT_NE(help.out.find(name), std::string::npos) << name;
  }
  for (const auto& family : searchbench::families()) {
    EXPECT_NE(list.out.find(family.sizes), std::string::npos) << family.name;
    EXPECT_NE(help.out.find(family.sizes), std::string::npos) << family.name;
    for (const auto& example : family.examples) EXPECT_NE(list.out.find("  " + example + " "), std::string::npos) << example;
    for (const auto& encoder : family.encoders) {
      EXPECT_NE(list.out.find("      " + encoder + " "), std::string::npos) << encoder;
      EXPECT_NE(help.out.find(encoder), std::string::npos) << encoder;
    }
    // compare runs every engine x encoder x thread count the registry combines.
    const std::string puzzle = family.test_examples.front();
    // compare explores whole spaces with every engine, naive included: past a million
    // states (the 2x2x2 cube) that is no unit test; the matrix checks those within a depth.
    if (searchbench::state_space_size(searchbench::parse_puzzle(puzzle)) > 1'000'000) continue;
    const Outcome c = run("compare --puzzle " + puzzle + " --random 3 --threads 1,2");
    ASSERT_EQ(c.status, 0) << c.err;
    std::vector<std::vector<std::string>> rows;
    std::istringstream lines(c.out);
    for (std::string line; std::getline(lines, line);) rows.push_back(words(line));
    for (const auto& k : searchbench::combinations(searchbench::parse_puzzle(puzzle), {1, 2})) {
      // A heuristic engine's row names its heuristic: "idastar:pdb".
      const std::string engine = k.heuristic.empty() ? k.engine : k.engine + ":" + k.heuristic;
      const std::vector<std::string> key = {engine, k.encoder, std::to_string(k.threads)};
      EXPECT_TRUE(std::any_of(rows.begin(), rows.end(), [&](const auto& w) { return w.size() > 3 && std::equal(key.begin(), key.end(), w.begin()); }))
          << puzzle << ": " << key[0] << " " << key[1] << " " << key[2];
    }
  }
}

TEST(Cli, EncodersAnswerToTheirFormerNamesWhereTheyFit) {
  const Outcome o = run("run --puzzle msquare --encoder octal --quiet --json");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(nlohmann::json::parse(o.out)["encoder"], "bitpack");
  expect_refusal("run --puzzle msquare-2x5 --encoder octal7", "use 'bitpack-implied'");
}

// The bottom-up switch is an option; any ratio gives the same counts, a negative one is refused.
TEST(Cli, BottomUpRatioIsAnOption) {
  for (const char* ratio : {"0", "0.25", "4"}) {
    const Outcome o = run(std::string("run --puzzle msquare --engine parallel --threads 2 --json --quiet --bottom-up-ratio ") + ratio);
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_EQ(nlohmann::json::parse(o.out)["depth_counts"].get<std::vector<std::uint64_t>>(), searchbench::facts::kMsquare2x4Depths);
  }
  expect_refusal("run --puzzle msquare --engine parallel --bottom-up-ratio -1", "bottom-up ratio");
}

// Progress lines follow one convention for every engine: one line per completed depth from
// 1 to the radius, with the count of states new at that depth.
TEST(Cli, EveryEngineReportsProgressTheSameWay) {
  for (const auto& engine : searchbench::engines()) {
    if (!engine.whole_space) continue;
    // msquare-2x3, or for an engine that cannot run on it (frontier needs inverse moves) a
    // pancake stack of the same 720 states.
    const std::string puzzle =
        searchbench::applicable_encoders(searchbench::parse_puzzle("msquare-2x3"), engine.name).empty() ? "pancake-6" : "msquare-2x3";
    const Outcome o = run("run --puzzle " + puzzle + " --progress --engine " + std::string(engine.name));
    ASSERT_EQ(o.status, 0) << o.err;
    std::vector<std::uint64_t> counts = {1};
    std::istringstream lines(o.err);
    for (std::string line; std::getline(lines, line);) {
      int depth = 0;
      unsigned long long fresh = 0;
      ASSERT_EQ(std::sscanf(line.c_str(), "depth %d new %llu", &depth, &fresh), 2) << engine.name << ": " << line;
      EXPECT_EQ(depth, static_cast<int>(counts.size())) << engine.name;
      counts.push_back(fresh);
    }
    const Outcome whole = run("run --puzzle " + puzzle + " --json --quiet --engine " + std::string(engine.name));
    EXPECT_EQ(nlohmann::json::parse(whole.out)["depth_counts"].get<std::vector<std::uint64_t>>(), counts) << engine.name;
  }
}

TEST(Cli, HelpOnEveryCommand) {
  for (const char* cmd : {"--help", "run --help", "compare --help", "list --help", "judge --help", "export --help"}) {
    const Outcome o = run(cmd);
    EXPECT_EQ(o.status, 0) << cmd;
    EXPECT_NE(o.out.find("Usage"), std::string::npos) << cmd;
  }
}

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
  expect_refusal("judge fzu1603", "the case count is 4 but only 1 cases are given", "4\n##&@@ @@&##\n");
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

// Reads an exported edge list back, checks the edge count, and runs a plain BFS over it
// from the printed start key: the per-depth counts must be the engines' and the published ones.
std::vector<std::uint64_t> bfs_over_export(const std::string& puzzle, std::uint64_t expected_edges) {
  const std::string path = ::testing::TempDir() + "/searchbench_export_" + std::to_string(getpid()) + ".el";
  const Outcome o = run("export --puzzle " + puzzle + " --format el --output " + path);
  EXPECT_EQ(o.status, 0) << o.err;
  std::uint64_t start = 0, vertices = 0, edges = 0;
  EXPECT_EQ(std::sscanf(o.out.c_str(), "start %llu vertices %llu edges %llu", reinterpret_cast<unsigned long long*>(&start),
                        reinterpret_cast<unsigned long long*>(&vertices), reinterpret_cast<unsigned long long*>(&edges)),
            3)
      << o.out;
  EXPECT_EQ(edges, expected_edges);
  std::vector<std::vector<std::uint64_t>> adjacency(vertices);
  std::ifstream in(path);
  std::uint64_t from, to, lines = 0;
  while (in >> from >> to) {
    EXPECT_LT(from, vertices);
    EXPECT_LT(to, vertices);
    if (from >= vertices || to >= vertices) break;
    adjacency[from].push_back(to);
    ++lines;
  }
  std::remove(path.c_str());
  EXPECT_EQ(lines, expected_edges);
  std::vector<int> depth(vertices, -1);
  std::vector<std::uint64_t> counts{1}, frontier{start}, next;
  depth.at(start) = 0;
  for (int d = 1; !frontier.empty(); ++d, frontier.swap(next)) {
    next.clear();
    for (auto u : frontier)
      for (auto v : adjacency[u])
        if (depth[v] < 0) depth[v] = d, next.push_back(v);
    if (!next.empty()) counts.push_back(next.size());
  }
  return counts;
}

TEST(Cli, ExportWritesTheStateGraphAsAnEdgeList) {
  // Magic boards: three moves from every one of the 8! states.
  EXPECT_EQ(bfs_over_export("msquare", 3 * 40'320), searchbench::facts::kMsquare2x4Depths);
  // Checkers-9: 70 arrangements x (2+3+4+4+4+4+4+3+2) moves over the hole positions; every
  // state reachable, radius 25.
  const auto checkers = bfs_over_export("checkers-9", 70 * 30);
  EXPECT_EQ(std::accumulate(checkers.begin(), checkers.end(), std::uint64_t{0}), 630u);
  EXPECT_EQ(checkers.size(), 26u);
  // Edges on stdout, the summary on stderr.
  const Outcome o = run("export --puzzle msquare-2x2");
  EXPECT_EQ(o.status, 0);
  EXPECT_EQ(std::count(o.out.begin(), o.out.end(), '\n'), 3 * 24);
  EXPECT_NE(o.err.find("edges 72"), std::string::npos) << o.err;
}

TEST(Cli, UnreachableTargetsAnswerMinusOne) {
  const Outcome o = run("run --puzzle checkers-5 --engine bidir --start '##&@@' --target '#@&@@' --json");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(nlohmann::json::parse(o.out)["distance"], -1);
}

TEST(Cli, ThreadCountsAreWhatRanAndAbsurdOnesAreRefused) {
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const Outcome o = run("run --puzzle msquare-2x3 --engine parallel --threads 64 --json --quiet");
  ASSERT_EQ(o.status, 0) << o.err;
  const auto doc = nlohmann::json::parse(o.out);
  EXPECT_EQ(doc["threads"], std::min(64, cores));
  EXPECT_EQ(doc["threads_requested"], 64);
  EXPECT_EQ(doc["cores"], cores);
  EXPECT_EQ(o.err.find("TBB Warning"), std::string::npos) << o.err;
  // No --threads: every core for parallel, one for the serial engines.
  EXPECT_EQ(nlohmann::json::parse(run("run --puzzle msquare-2x3 --engine parallel --json --quiet").out)["threads_requested"], cores);
  EXPECT_EQ(nlohmann::json::parse(run("run --puzzle msquare-2x3 --json --quiet").out)["threads"], 1);
  EXPECT_NE(run("run --help").out.find("every core for the threaded engines"), std::string::npos);
  // These crashed with SIGSEGV (oneTBB's 16-bit arena slot ids).
  for (const char* n : {"1025", "65537", "100000", "2147483647"})
    expect_refusal(std::string("run --puzzle msquare-2x3 --engine parallel --threads ") + n, "--threads: Value");
  expect_refusal("compare --puzzle msquare-2x3 --threads 1,65537", "--threads: Value 65537 not in range 1 to 1024");
  expect_refusal("run --engine parallel --threads ''", "--threads: must not be empty");
}

TEST(Cli, RepetitionsReportMedianMinMaxAndEveryTime) {
  const Outcome o = run("run --puzzle msquare-2x3 --repetitions 5 --json --quiet");
  ASSERT_EQ(o.status, 0) << o.err;
  const auto doc = nlohmann::json::parse(o.out);
  const auto all = doc["seconds_all"].get<std::vector<double>>();
  ASSERT_EQ(all.size(), 5u);
  EXPECT_EQ(doc["repetitions"], 5);
  EXPECT_EQ(doc["warmup"], 1);  // the default once there are repetitions
  std::vector<double> sorted = all;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(doc["seconds"].get<double>(), sorted[2]);
  EXPECT_EQ(doc["seconds_min"].get<double>(), sorted.front());
  EXPECT_EQ(doc["seconds_max"].get<double>(), sorted.back());
  EXPECT_EQ(nlohmann::json::parse(run("run --puzzle msquare-2x3 --json --quiet").out)["warmup"], 0);
  EXPECT_EQ(nlohmann::json::parse(run("run --puzzle msquare-2x3 --repetitions 2 --warmup 0 --json --quiet").out)["warmup"], 0);
  // The text output carries the same figures under the same names.
  const Outcome t = run("run --puzzle msquare-2x3 --engine bidir --target '3 1 2 / 5 4 6' --repetitions 3 --quiet");
  ASSERT_EQ(t.status, 0) << t.err;
  std::istringstream times(field(t.out, "seconds_all"));
  EXPECT_EQ(std::distance(std::istream_iterator<double>(times), std::istream_iterator<double>()), 3);
  EXPECT_FALSE(field(t.out, "seconds_min").empty());
  expect_refusal("run --repetitions 0", "--repetitions: Value 0 not in range");
  expect_refusal("run --warmup -1", "--warmup: Value -1 not in range");

  const Outcome c = run("compare --puzzle msquare-2x2 --random 3 --repetitions 2 --threads 1 --json");
  ASSERT_EQ(c.status, 0) << c.err;
  const auto cdoc = nlohmann::json::parse(c.out);
  ASSERT_FALSE(cdoc["rows"].empty());
  for (const auto& row : cdoc["rows"]) {
    EXPECT_EQ(row["seconds_all"].size(), 2u) << row;
    EXPECT_LE(row["seconds_min"].get<double>(), row["seconds"].get<double>());
    EXPECT_LE(row["seconds"].get<double>(), row["seconds_max"].get<double>());
    EXPECT_TRUE(row["agrees"].get<bool>());
  }
}

TEST(Cli, CompareComparesPointQueryEnginesByDefaultAndNeverPrintsZeroTimes) {
  const Outcome c = run("compare --puzzle msquare-2x2 --threads 1");
  ASSERT_EQ(c.status, 0) << c.err;
  EXPECT_NE(c.out.find("20 random (seed 1); the default when neither --targets nor --random is given"), std::string::npos)
      << c.out;
  EXPECT_NE(c.out.find("\nbidir "), std::string::npos) << c.out;
  EXPECT_NE(c.out.find("\niddfs "), std::string::npos) << c.out;
  EXPECT_EQ(c.out.find(" 0.0000 "), std::string::npos) << c.out;
  EXPECT_EQ(c.out.find(" 0.000 "), std::string::npos) << c.out;
  const Outcome none = run("compare --puzzle msquare-2x2 --threads 1 --random 0");
  ASSERT_EQ(none.status, 0) << none.err;
  EXPECT_NE(none.out.find("bidir, iddfs, idastar and astar need targets and are left out"), std::string::npos) << none.out;
}

TEST(Cli, ListedSizesAreWhatAWholeSpaceRunReaches) {
  const Outcome l = run("list");
  ASSERT_EQ(l.status, 0);
  std::istringstream lines(l.out);
  int checked = 0;
  for (std::string line; std::getline(lines, line);) {
    char name[64];
    unsigned long long states = 0;
    if (std::sscanf(line.c_str(), " %63s %llu states from the default start", name, &states) != 2) continue;
    if (states > 1'000'000) continue;
    const Outcome r = run(std::string("run --puzzle ") + name + " --json --quiet");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out)["states"].get<unsigned long long>(), states) << name;
    ++checked;
  }
  EXPECT_GE(checked, 5);
  EXPECT_NE(l.out.find("msquare-2x2     8 states"), std::string::npos) << l.out;
}

TEST(Cli, OutputThatCannotBeWrittenFailsWithOneLine) {
  const std::vector<std::pair<std::string, std::string>> commands = {
      {"run --puzzle msquare-2x3 --json --quiet", ""},
      {"run --puzzle msquare-2x3 --quiet", ""},
      {"list", ""},
      {"--help", ""},
      {"compare --puzzle msquare-2x2 --threads 1", ""},
      {"export --puzzle msquare-2x3", ""},
      {"judge sicily1151", "4\n5 8 7 6\n4 1 2 3\n-1\n"},
      {"judge sicily1515", "1\n1 2 3 4\n5 6 7 8\n-1\n"},
      {"judge msquare", "2 6 8 4 5 7 3 1\n"},
      {"judge fzu1603", "1\n##&@@ @@&##\n"},
  };
  // A pipe nobody reads any more: the write fails with EPIPE (SIGPIPE is ignored) and the
  // same error path answers, where SIGPIPE used to end the process (status 141).
  const ReaderlessPipe pipe;
  for (const auto& [args, input] : commands) {
    for (const std::string& where : {std::string(">/dev/full"), std::string(">&-"), pipe.redirect()}) {
      const Outcome o = run(args, input, where);
      EXPECT_EQ(o.status, 6) << args << " " << where << ": " << o.err;
      EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << args << " " << where << ": " << o.err;
      EXPECT_NE(o.err.find("cannot write"), std::string::npos) << args << " " << where << ": " << o.err;
    }
  }
}

TEST(Cli, ExportNeverTruncatesOrLeavesAPartialFile) {
  const std::string folder = ::testing::TempDir() + "/searchbench_export_dir_" + std::to_string(getpid());
  ASSERT_EQ(std::system(("rm -rf " + folder + " && mkdir -p " + folder).c_str()), 0);
  const std::string keep = folder + "/keep.el";
  std::ofstream(keep) << "precious\n";
  expect_refusal("export --encoder octal --output " + keep, "every key is a state");
  expect_refusal("export --puzzle msquare-2x5 --max-output 10M --output " + keep, "more than --max-output 10.0 MiB");
  expect_refusal("export --puzzle msquare-2x8 --output " + keep, "free in");
  expect_refusal("export --puzzle checkers-32 --output " + keep, "free in");
  EXPECT_EQ(slurp(keep), "precious\n");
  const Outcome o = run("export --puzzle msquare-2x2 --output " + keep);
  ASSERT_EQ(o.status, 0) << o.err;
  const std::string edges = slurp(keep);
  EXPECT_EQ(std::count(edges.begin(), edges.end(), '\n'), 3 * 24);
  // Only keep.el is there: no temporary file left behind by the refusals or the export.
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) names.push_back(entry.path().filename().string());
  EXPECT_EQ(names, std::vector<std::string>{"keep.el"});
  std::filesystem::remove_all(folder);
}

TEST(Cli, JudgesPrintTheAnswersBeforeABadCase) {
  const Outcome s = run("judge sicily1151", "4\n5 8 7 6\n4 1 2 3\n3\n8 7 6 5\n1 2 3 4\nx\n");
  EXPECT_EQ(s.status, 2);
  EXPECT_EQ(s.out, "2 AB\n1 A\n");
  EXPECT_EQ(s.err, "searchbench: line 7: expected a move limit N, got 'x'\n");
  const Outcome f = run("judge fzu1603", "3\n##&@@ @@&##\n#&#@@ ##&@@\n");
  EXPECT_EQ(f.status, 2);
  EXPECT_EQ(f.out, "8\n1\n");
  EXPECT_EQ(f.err, "searchbench: line 3: the case count is 3 but only 2 cases are given\n");
}

TEST(Cli, HugeRequestsAreRefusedUpFrontOrStopAtTheLimit) {
  expect_refusal("judge fzu1603", "outside fzu1603's 1..20", "1\n################&@@@@@@@@@@@@@@@ @@@@@@@@@@@@@@@&################\n");
  // A one-move point query on 16! states answers at once...
  const Outcome o = run("run --puzzle msquare-2x8 --engine ring --target '16 15 14 13 12 11 10 9 / 1 2 3 4 5 6 7 8' --json --quiet");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(nlohmann::json::parse(o.out)["path"], "A");
  // ...and a deep one stops at --max-memory with one line (status 3: a budget ran out).
  for (const char* engine : {"ring", "bidir", "parallel"}) {
    const Outcome deep = run(std::string("run --puzzle msquare-2x8 --engine ") + engine +
                             " --target '9 10 11 12 13 14 15 16 / 1 2 3 4 5 6 7 8' --max-memory 4M --quiet");
    EXPECT_EQ(deep.status, 3) << engine << ": " << deep.err;
    EXPECT_EQ(deep.err.find("searchbench: "), 0u) << deep.err;
    EXPECT_NE(deep.err.find("more than the memory limit of 4.00 MiB"), std::string::npos) << deep.err;
  }
  const Outcome line = run("run --puzzle checkers-32 --engine bidir --start '################&@@@@@@@@@@@@@@@' "
                           "--target '@@@@@@@@@@@@@@@&################' --max-memory 4M --quiet");
  EXPECT_EQ(line.status, 3) << line.err;
  EXPECT_NE(line.err.find("more than the memory limit of 4.00 MiB"), std::string::npos) << line.err;
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

// Pattern databases count against --max-memory before they are built or loaded: a magic
// board table of 16P9 entries (4 GB) is refused at once, not after it was allocated and
// filled; a pattern given twice is held once (with --pdb-cache none it was built again and
// again).
TEST(Cli, PatternDatabasesCountAgainstTheMemoryLimit) {
  expect_refusal("run --puzzle msquare-2x8 --engine idastar --pattern 1,2,3,4,5,6,7,8,9 --pdb-cache none --max-memory 1G "
                 "--target '1 2 3 4 5 6 7 8 / 16 15 14 13 12 11 10 9'",
                 "the pattern databases of msquare-2x8 needs about 3.87 GiB, more than --max-memory 1.00 GiB");
  const auto heuristic_bytes = [](const std::string& pattern) {
    const Outcome o = run("run --puzzle cube2-htm --engine idastar --pattern " + pattern +
                          " --pdb-cache none --max-memory 16M --target 'UFL URF ULB UBR DFR DLF DRB' --json");
    EXPECT_EQ(o.status, 0) << o.err;
    return o.status == 0 ? nlohmann::json::parse(o.out)["heuristic"]["bytes"].get<std::uint64_t>() : 0;
  };
  std::string repeated = "URF,UFL,ULB,UBR/DFR,DLF,DRB";
  for (int i = 0; i < 300; ++i) repeated += "/URF,UFL,ULB,UBR";  // 300 x 66 KiB would pass the 16M limit
  EXPECT_EQ(heuristic_bytes(repeated), heuristic_bytes("URF,UFL,ULB,UBR/DFR,DLF,DRB"));
}

TEST(Cli, JudgeOptionsAreCheckedWithoutWaitingForStdin) {
  // stdin is a FIFO opened for reading and writing, so it never ends: a command that read
  // it before checking its options would hang until the timeout (status 124).
  const std::string fifo = ::testing::TempDir() + "/searchbench_fifo_" + std::to_string(getpid());
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  for (const char* args : {"judge sicily1151 --engine dfs", "judge msquare --encoder zip", "judge tetris"}) {
    const std::string cmd = std::string("timeout 10 " SEARCHBENCH_EXE " ") + args + " <>" + fifo + " >/dev/null 2>&1";
    const int raw = std::system(cmd.c_str());
    EXPECT_EQ(WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, 2) << args;
  }
  std::remove(fifo.c_str());
}

TEST(Cli, MemorySizesInMessagesShowTheDifference) {
  expect_refusal("run --max-memory 1K", "needs about 354 KiB, more than --max-memory 1.00 KiB");
  expect_refusal("run --puzzle msquare-2x3 --max-memory 1K", "needs about 6.33 KiB, more than --max-memory 1.00 KiB");
}

TEST(Cli, VersionHelpAndUnknownCommands) {
  const Outcome v = run("--version");
  EXPECT_EQ(v.status, 0);
  EXPECT_EQ(v.out.rfind("searchbench 0.", 0), 0u) << v.out;
  EXPECT_NE(v.out.find("(commit "), std::string::npos) << v.out;
  // `--version` alone is answered before the parser exists; through the parser (another
  // argument after it) the line is the same.
  EXPECT_EQ(std::count(v.out.begin(), v.out.end(), '\n'), 1) << v.out;
  EXPECT_EQ(run("--version run").out, v.out);
  const Outcome h = run("help");
  EXPECT_EQ(h.status, 0);
  EXPECT_NE(h.out.find("compare"), std::string::npos);
  EXPECT_NE(h.out.find("Exit status"), std::string::npos);
  EXPECT_NE(run("help run").out.find("--repetitions"), std::string::npos);
  expect_refusal("tetris", "unknown command 'tetris'");
  expect_refusal("", "a command is required");
  // Defaults shown in the help.
  const std::string run_help = run("run --help").out;
  for (const char* shown : {"=msquare", "=ring", "=-1", "=iddfs: 4000000000, idastar: 100000000000", "=1"}) EXPECT_NE(run_help.find(shown), std::string::npos) << shown;
  EXPECT_NE(run("compare --help").out.find("=[1,2]"), std::string::npos);
  EXPECT_NE(run("export --help").out.find("=el"), std::string::npos);
  // judge --help describes every judge's input and output.
  const std::string judge_help = run("judge --help").out;
  for (const char* text : {"sicily1151", "sicily1515", "msquare", "fzu1603", "clockwise order", "60 moves per line", "-1"})
    EXPECT_NE(judge_help.find(text), std::string::npos) << text;
}

TEST(Cli, RunBoardsNeedAnUnambiguousOrder) {
  expect_refusal("run --engine bidir --target '2 6 8 4 5 7 3 1'", "could be read in row or in clockwise order");
  const Outcome cw = run("run --engine bidir --target '2 6 8 4 5 7 3 1' --order clockwise --json");
  ASSERT_EQ(cw.status, 0) << cw.err;
  EXPECT_EQ(nlohmann::json::parse(cw.out)["path"], run("judge msquare", "2 6 8 4 5 7 3 1\n").out.substr(2, 7));
  EXPECT_EQ(nlohmann::json::parse(cw.out)["target"], "2 6 8 4 / 1 3 7 5");
  const Outcome rows = run("run --engine bidir --target '5 8 7 6 4 1 2 3' --order rows --json");
  ASSERT_EQ(rows.status, 0) << rows.err;
  EXPECT_EQ(nlohmann::json::parse(rows.out)["path"], "AB");
  expect_refusal("run --puzzle checkers-5 --order rows", "--order applies to magic boards only");
  expect_refusal("run --order diagonal", "--order: diagonal not in");
}

TEST(Cli, JsonCarriesTheSchemaAndTextUsesTheSameNames) {
  const Outcome j = run("run --puzzle msquare-2x3 --max-depth 5 --json --quiet");
  ASSERT_EQ(j.status, 0) << j.err;
  const auto doc = nlohmann::json::parse(j.out);
  EXPECT_EQ(doc["schema_version"], 2);
  EXPECT_EQ(doc["start"], "1 2 3 / 6 5 4");
  EXPECT_EQ(doc["max_depth"], 5);
  EXPECT_EQ(doc["truncated"], true);
  EXPECT_EQ(doc["radius"], 5);
  EXPECT_GT(doc["peak_bytes"].get<std::uint64_t>(), 0u);
  EXPECT_GT(doc["peak_rss_bytes"].get<std::uint64_t>(), doc["peak_bytes"].get<std::uint64_t>());
  EXPECT_EQ(nlohmann::json::parse(run("run --puzzle msquare-2x3 --json --quiet").out)["truncated"], false);
  const auto point = nlohmann::json::parse(run("run --engine bidir --target '5 8 7 6 / 4 1 2 3' --max-depth 1 --json").out);
  EXPECT_EQ(point["distance"], -1);
  EXPECT_EQ(point["truncated"], true);
  // Every JSON field appears in the text output under the same name (an object's fields
  // as name.field: context.date).
  for (const char* args : {"run --puzzle msquare-2x3 --max-depth 5 --quiet", "run --engine bidir --target '5 8 7 6 / 4 1 2 3'"}) {
    const Outcome t = run(args);
    const auto d = nlohmann::json::parse(run(std::string(args) + " --json").out);
    std::function<void(const nlohmann::json&, const std::string&)> check = [&](const nlohmann::json& object, const std::string& prefix) {
      for (const auto& [key, value] : object.items()) {
        if (value.is_object()) check(value, prefix + key + ".");
        else EXPECT_FALSE(field(t.out, prefix + key).empty()) << args << ": " << prefix + key;
      }
    };
    check(d, "");
  }
  EXPECT_NE(run("run --puzzle msquare-2x3 --quiet").out.find("\ncontext.date "), std::string::npos);
}

// Out-of-core runs: kill -9 at seeded random moments, each time resuming from the last
// completed depth, until a run finishes; its counts must be the parallel engine's. Then the
// folder refuses a resume of another puzzle, and the bad combinations are refused.
TEST(Cli, ExternalRunSurvivesKillsAndResumes) {
  const std::string folder = ::testing::TempDir() + "/searchbench_cli_kill_" + std::to_string(getpid());
  std::system(("rm -rf '" + folder + "'").c_str());
  const std::string args = "run --puzzle msquare-2x5 --engine external --threads 2 --max-memory 1M --quiet --json --workdir " + folder;
  std::mt19937 rng(20261201);
  int kills = 0;
  for (int attempt = 0; attempt < 4; ++attempt) {
    const bool resume = std::ifstream(folder + "/manifest.json").good();
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      const std::string cmd = std::string("exec " SEARCHBENCH_EXE " ") + args + (resume ? " --resume" : "") + " >/dev/null 2>&1";
      execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100 + rng() % 900));
    kills += kill(child, SIGKILL) == 0;
    int status = 0;
    waitpid(child, &status, 0);
  }
  EXPECT_GT(kills, 0);
  const Outcome resumed = run(args + " --resume");
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  const auto doc = nlohmann::json::parse(resumed.out);
  const Outcome reference = run("run --puzzle msquare-2x5 --engine parallel --threads 2 --quiet --json");
  ASSERT_EQ(reference.status, 0) << reference.err;
  EXPECT_EQ(doc["depth_counts"], nlohmann::json::parse(reference.out)["depth_counts"]);
  EXPECT_EQ(doc["states"], 3'628'800);
  EXPECT_GE(doc["resumed_from"].get<int>(), 0);
  for (const char* key : {"bytes_written", "bytes_read", "segments", "peak_disk_bytes"}) EXPECT_TRUE(doc.contains(key)) << key;

  expect_refusal("run --puzzle msquare-2x4 --engine external --resume --workdir " + folder, "holds a run of msquare-2x5");
  expect_refusal("run --puzzle msquare-2x5 --engine external --workdir " + folder, "add --resume");
  std::system(("rm -rf '" + folder + "'").c_str());
  expect_refusal("run --puzzle msquare-2x5 --engine external --resume", "--resume needs the --workdir");
  expect_refusal("run --puzzle msquare-2x5 --engine parallel --workdir /tmp", "--workdir applies to engines 'external' and 'idastar' only");
  expect_refusal("run --puzzle msquare-2x3 --engine ring --top-down", "--top-down applies to engine");
  expect_refusal("run --puzzle msquare-2x3 --engine bidir --node-budget 5 --target '1 2 3 / 6 5 4'",
                 "--node-budget applies to engines 'iddfs' and 'idastar' only");
  expect_refusal("run --puzzle msquare-2x5 --engine external --max-memory 20K", "too small");
  expect_refusal("run --puzzle msquare-2x5 --engine external --encoder bitpack", "needs a perfect encoder");
  expect_refusal("run --puzzle msquare --engine external --target '5 8 7 6 / 4 1 2 3'", "counts whole spaces only");
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

// A '/' on a magic board must split it into its two rows; elsewhere it was read as another board.
TEST(Cli, MagicBoardRowsSplitInHalves) {
  for (const char* board : {"5 8 7 / 6 4 1 2 3", "5 8 7 6 4 / 1 2 3", "5 8 / 7 6 / 4 1 / 2 3"})
    expect_refusal(std::string("run --engine bidir --target '") + board + "'", "rows split by '/' must each hold half of the cells");
  expect_refusal("run --engine bidir --target '5 8 7 6 4 1 2 3 /'", "an empty row");  // a '/' closes no row
  expect_refusal("run --engine bidir --order clockwise --target '5 8 7 / 6 4 1 2 3'", "has rows of 3 and 5");
  expect_refusal("run --engine bidir --start '1 2 3 / 4 8 7 6 5'", "has rows of 3 and 5");
  const std::string targets = ::testing::TempDir() + "/searchbench_rows_" + std::to_string(getpid());
  std::ofstream(targets) << "5 8 7 / 6 4 1 2 3\n";
  expect_refusal("compare --puzzle msquare --threads 1 --targets " + targets, "has rows of 3 and 5");
  std::remove(targets.c_str());
  const Outcome o = run("run --engine bidir --target '5 8 7 6 / 4 1 2 3' --json");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(nlohmann::json::parse(o.out)["path"], "AB");
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

TEST(Cli, HelpOfAnUnknownCommandIsRefused) {
  for (const char* args : {"help nonsense", "help tetris run"}) {
    const Outcome o = run(args);
    EXPECT_EQ(o.status, 2) << args;
    EXPECT_EQ(o.out, "") << args;
    expect_refused(o, args, "unknown command '");
  }
  expect_refusal("help nonsense", "searchbench: unknown command 'nonsense' (commands: run, compare, list, judge, export, help)");
  expect_refusal("help \"$(printf 'a\\nb')\"", "unknown command 'a\\nb'");
  expect_refusal("\"$(printf 'a\\033b')\"", "unknown command 'a\\x1bb'");
  const Outcome help = run("help compare");
  EXPECT_EQ(help.status, 0);
  EXPECT_NE(help.out.find("--targets"), std::string::npos);
}

// Every JSON object of run, compare and list ends with `context`: when and where it ran,
// what built the executable, and the load averages at the start and the end.
void expect_sane_context(const nlohmann::ordered_json& doc, const std::string& what) {
  ASSERT_TRUE(doc.contains("context")) << what;
  EXPECT_EQ(doc.begin().key(), "schema_version") << what;
  std::string last;
  for (const auto& [key, value] : doc.items()) last = key;
  EXPECT_EQ(last, "context") << what << ": the existing fields come first, in their order";
  EXPECT_EQ(doc["schema_version"], 2) << what;
  const auto& c = doc["context"];
  // date: UTC ISO 8601, within a day of now.
  const std::string date = c.value("date", "");
  std::tm tm{};
  char zone = 0;
  ASSERT_EQ(std::sscanf(date.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%c", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min,
                        &tm.tm_sec, &zone),
            7)
      << what << ": " << date;
  EXPECT_EQ(date.size(), 20u) << date;
  EXPECT_EQ(zone, 'Z') << date;
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  EXPECT_LT(std::abs(static_cast<double>(timegm(&tm) - std::time(nullptr))), 86400.0) << date;
  for (const char* key : {"host", "cpu_model", "kernel", "arch", "os", "compiler", "compiler_version", "build_type"}) {
    ASSERT_TRUE(c.contains(key) && c[key].is_string()) << what << ": " << key;
    EXPECT_FALSE(c[key].get<std::string>().empty()) << what << ": " << key;
  }
  EXPECT_GE(c["cores"].get<int>(), 1) << what;
  EXPECT_EQ(c["cores"].get<int>(), static_cast<int>(std::max(1u, std::thread::hardware_concurrency()))) << what;
  EXPECT_GT(c["memory_bytes"].get<std::uint64_t>(), 1u << 20) << what;
  EXPECT_EQ(c["kernel"].get<std::string>().rfind("Linux ", 0), 0u) << c["kernel"];
  EXPECT_TRUE(c["build_flags"].is_string()) << what;
  EXPECT_TRUE(c["native"].is_boolean()) << what;
  if (c["native"].get<bool>()) {
    EXPECT_NE(c["build_flags"].get<std::string>().find("-march=native"), std::string::npos);
  }
  const std::string simd = c.value("simd", "");
  EXPECT_TRUE(simd == "avx512" || simd == "avx2" || simd == "scalar") << what << ": simd " << simd;
  for (const char* library : {"onetbb", "onetbb_runtime", "nlohmann_json", "cli11"}) {
    const std::string version = c["libraries"].value(library, "");
    int major = -1, minor = -1;
    EXPECT_EQ(std::sscanf(version.c_str(), "%d.%d", &major, &minor), 2) << what << ": " << library << " " << version;
  }
  for (const char* key : {"load_average_start", "load_average_end"}) {
    ASSERT_TRUE(c[key].is_array()) << what << ": " << key;
    EXPECT_EQ(c[key].size(), 3u) << what << ": " << key;
    for (const auto& load : c[key]) {
      EXPECT_TRUE(load.is_number()) << what << ": " << key;
      EXPECT_GE(load.get<double>(), 0.0) << what << ": " << key;
    }
  }
}

TEST(Cli, EveryJsonCarriesItsContext) {
  const Outcome r = run("run --puzzle msquare-2x3 --json --quiet");
  ASSERT_EQ(r.status, 0) << r.err;
  expect_sane_context(nlohmann::ordered_json::parse(r.out), "run");
  const Outcome p = run("run --engine bidir --target '5 8 7 6 / 4 1 2 3' --json");
  ASSERT_EQ(p.status, 0) << p.err;
  expect_sane_context(nlohmann::ordered_json::parse(p.out), "run --target");
  const Outcome c = run("compare --puzzle msquare-2x2 --threads 1 --random 2 --json");
  ASSERT_EQ(c.status, 0) << c.err;
  expect_sane_context(nlohmann::ordered_json::parse(c.out), "compare");
  const Outcome l = run("list --json");
  ASSERT_EQ(l.status, 0) << l.err;
  expect_sane_context(nlohmann::ordered_json::parse(l.out), "list");
}

// list --json is the registry as scripts read it: every engine `list` shows, with what it
// can do and the run options it honours, and every family's puzzles with their encoders.
TEST(Cli, ListJsonIsTheRegistry) {
  const Outcome text = run("list"), j = run("list --json");
  ASSERT_EQ(text.status, 0) << text.err;
  ASSERT_EQ(j.status, 0) << j.err;
  const auto doc = nlohmann::json::parse(j.out);
  // The engines of the text listing, in its order.
  std::vector<std::string> listed;
  std::istringstream lines(text.out);
  std::string line;
  std::getline(lines, line);
  ASSERT_EQ(line, "engines:");
  while (std::getline(lines, line) && !line.empty()) listed.push_back(words(line).at(0));
  std::vector<std::string> names;
  for (const auto& e : doc["engines"]) names.push_back(e["name"]);
  EXPECT_EQ(names, listed);
  ASSERT_EQ(names.size(), searchbench::engines().size());
  for (const auto& info : searchbench::engines()) {
    const auto& e = *std::find_if(doc["engines"].begin(), doc["engines"].end(), [&](const auto& x) { return x["name"] == info.name; });
    EXPECT_EQ(e["summary"], info.summary);
    EXPECT_EQ(e["whole_space"], info.whole_space) << info.name;
    // The distributed engine keeps no paths either: whole-space counts only.
    const bool counts_only = info.counts_only || info.distributed;
    EXPECT_EQ(e["point_queries"], !counts_only) << info.name;
    EXPECT_EQ(e["counts_only"], counts_only) << info.name;
    EXPECT_EQ(e["threaded"], info.threaded) << info.name;
    EXPECT_EQ(e["distributed"], info.distributed) << info.name;
    EXPECT_EQ(e["needs_inverse_moves"], info.needs_inverse_moves) << info.name;
    const auto options = e["options"].get<std::vector<std::string>>();
    auto has = [&](const char* o) { return std::find(options.begin(), options.end(), o) != options.end(); };
    EXPECT_TRUE(has("--puzzle") && has("--max-depth")) << info.name;
    EXPECT_EQ(has("--threads"), info.threaded) << info.name;
    EXPECT_EQ(has("--target"), !counts_only) << info.name;
    EXPECT_EQ(has("--workdir"), info.name == "external" || info.name == "idastar") << info.name;
    EXPECT_EQ(has("--top-down"), info.name == "parallel" || info.name == "mpi") << info.name;
    EXPECT_EQ(has("--node-budget"), info.name == "iddfs" || info.name == "idastar") << info.name;
    EXPECT_EQ(has("--heuristic"), info.uses_heuristic) << info.name;
  }
  // external counts whole spaces only, in both listings.
  const auto& external = *std::find_if(doc["engines"].begin(), doc["engines"].end(), [](const auto& x) { return x["name"] == "external"; });
  EXPECT_TRUE(external["whole_space"].get<bool>());
  EXPECT_FALSE(external["point_queries"].get<bool>());
  EXPECT_NE(text.out.find("external  out-of-core"), std::string::npos) << text.out;
  const auto at = text.out.find("\n  external ");
  ASSERT_NE(at, std::string::npos);
  EXPECT_NE(text.out.substr(at + 1, text.out.find('\n', at + 1) - at - 1).find("[whole-space counts only]"), std::string::npos) << text.out;
  // Families, their example puzzles and encoders as `list` shows them.
  ASSERT_EQ(doc["families"].size(), searchbench::families().size());
  for (const auto& family : searchbench::families()) {
    const auto& f = *std::find_if(doc["families"].begin(), doc["families"].end(), [&](const auto& x) { return x["name"] == family.name; });
    EXPECT_EQ(f["sizes"], family.sizes);
    EXPECT_EQ(f["encoders"].get<std::vector<std::string>>(), family.encoders);
    ASSERT_EQ(f["puzzles"].size(), family.examples.size());
    for (std::size_t i = 0; i < family.examples.size(); ++i) {
      const auto& p = f["puzzles"][i];
      const auto spec = searchbench::parse_puzzle(family.examples[i]);
      EXPECT_EQ(p["name"], spec.name);
      EXPECT_EQ(p["states"].get<std::uint64_t>(), searchbench::state_space_size(spec));
      const auto infos = searchbench::encoders(spec);
      ASSERT_EQ(p["encoders"].size(), infos.size());
      for (std::size_t k = 0; k < infos.size(); ++k) {
        const auto& e = p["encoders"][k];
        EXPECT_EQ(e["name"], infos[k].name);
        EXPECT_EQ(e["fits"], infos[k].fit.empty()) << spec.name << " " << infos[k].name;
        EXPECT_EQ(e.contains("why_not"), !infos[k].fit.empty());
        EXPECT_EQ(e["dense"], infos[k].dense);
        EXPECT_EQ(e["perfect"], infos[k].perfect);
        EXPECT_EQ(e["key_bound"].get<std::uint64_t>(), infos[k].key_bound);
      }
      for (const auto& engine : searchbench::engines())
        EXPECT_EQ(p["combinations"][std::string(engine.name)].get<std::vector<std::string>>(),
                  searchbench::applicable_encoders(spec, engine.name))
            << spec.name << " " << engine.name;
    }
  }
  const auto& magic = *std::find_if(doc["families"].begin(), doc["families"].end(), [](const auto& x) { return x["name"] == "magic"; });
  EXPECT_EQ(magic["classic_encoder"], "bitpack");
}

// compare runs each case as run does: the same configuration (no table kept while timed, so
// the parallel engine counts in its two-bit mode and reports run's peak_bytes), the same
// repetition defaults, and rates named for what they count.
TEST(Cli, CompareMeasuresEachCaseAsRunDoes) {
  const Outcome c = run("compare --puzzle msquare-2x4 --threads 2 --random 3 --json");
  ASSERT_EQ(c.status, 0) << c.err;
  const auto doc = nlohmann::json::parse(c.out);
  const auto alone = nlohmann::json::parse(run("run --puzzle msquare-2x4 --json --quiet").out);
  EXPECT_EQ(doc["repetitions"], alone["repetitions"]);
  EXPECT_EQ(doc["warmup"], alone["warmup"]);
  int checked = 0;
  for (const auto& row : doc["rows"]) {
    const std::string engine = row["engine"], encoder = row["encoder"];
    const bool whole = searchbench::engine_info(engine).whole_space;
    EXPECT_EQ(row.contains("states_per_second"), whole) << row;
    EXPECT_EQ(row.contains("queries_per_second"), !whole) << row;
    EXPECT_GT(row.value(whole ? "states_per_second" : "queries_per_second", 0.0), 0.0) << row;
    EXPECT_TRUE(row["agrees"].get<bool>()) << row;
    if ((engine == "parallel" || engine == "ring") && (encoder == "cantor" || encoder == "bitpack-implied")) {
      const Outcome r = run("run --puzzle msquare-2x4 --json --quiet --engine " + engine + " --encoder " + encoder +
                            (engine == "parallel" ? " --threads 2" : ""));
      ASSERT_EQ(r.status, 0) << r.err;
      // cantor's two-bit cells are exact; bitpack-implied's frontier lists vary a little
      // with the threads' timing, but stay far from the kept table (a byte per key, 2 MiB).
      const double compared = row["peak_bytes"].get<double>(), alone_peak = nlohmann::json::parse(r.out)["peak_bytes"].get<double>();
      if (encoder == "cantor") {
        EXPECT_EQ(compared, alone_peak) << engine << "/" << encoder;
      }
      EXPECT_LT(compared, alone_peak * 1.5) << engine << "/" << encoder;
      EXPECT_GT(compared, alone_peak / 1.5) << engine << "/" << encoder;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 4);
  // The two-bit mode: far below the byte-per-key table of a kept run.
  for (const auto& row : doc["rows"])
    if (row["engine"] == "parallel" && row["encoder"] == "cantor") {
      EXPECT_LT(row["peak_bytes"].get<std::uint64_t>(), 40320u);
    }
}

// compare's table: columns as wide as what they hold (bitpack-implied included), every row
// aligned with the header, and a rate per row with its unit.
TEST(Cli, CompareColumnsAreAlignedAndRatesNamed) {
  const Outcome c = run("compare --puzzle msquare-2x2 --threads 1,2 --random 2");
  ASSERT_EQ(c.status, 0) << c.err;
  std::istringstream lines(c.out);
  std::string note, header;
  std::getline(lines, note);
  std::getline(lines, header);
  const auto threads_end = header.find("threads") + 7, agrees_at = header.find("agrees"), encoder_at = header.find("encoder");
  ASSERT_NE(header.find("rate"), std::string::npos) << header;
  int rows = 0;
  bool saw_implied = false;
  for (std::string line; std::getline(lines, line) && line.rfind("times over", 0) != 0;) {
    const auto w = words(line);
    ASSERT_GE(w.size(), 8u) << line;
    saw_implied = saw_implied || w[1] == "bitpack-implied";
    EXPECT_EQ(line.compare(encoder_at, w[1].size(), w[1]), 0) << line;
    ASSERT_GT(line.size(), threads_end) << line;
    EXPECT_TRUE(std::isdigit(static_cast<unsigned char>(line[threads_end - 1])) && line[threads_end] == ' ') << header << "\n" << line;
    EXPECT_EQ(line.substr(agrees_at), "yes") << header << "\n" << line;
    const bool whole = searchbench::engine_info(w[0].substr(0, w[0].find(':'))).whole_space;  // "idastar:pdb"
    EXPECT_NE(line.find(whole ? " states/s " : " queries/s "), std::string::npos) << line;
    ++rows;
  }
  EXPECT_TRUE(saw_implied);
  EXPECT_EQ(rows, static_cast<int>(searchbench::combinations(searchbench::parse_puzzle("msquare-2x2"), {1, 2}).size()));
}

// What the help says is what the options do.
TEST(Cli, HelpShowsTheTrueDefaults) {
  const std::string run_help = run("run --help").out, compare_help = run("compare --help").out;
  auto line_of = [](const std::string& help, const std::string& option) {
    const auto at = help.find("  " + option + " ");
    return at == std::string::npos ? std::string() : help.substr(at, help.find('\n', at) - at);
  };
  // Every threaded engine gets every core, not only parallel.
  EXPECT_EQ(run_help.find("every core for --engine parallel"), std::string::npos);
  EXPECT_NE(line_of(run_help, "--threads").find("=every core for the threaded engines (parallel, external"), std::string::npos)
      << line_of(run_help, "--threads");
  for (const std::string* help : {&run_help, &compare_help})
    EXPECT_NE(line_of(*help, "--max-memory").find("=the memory available; external stays within 1G"), std::string::npos)
        << line_of(*help, "--max-memory");
  EXPECT_NE(line_of(compare_help, "--random").find("=20 without --targets, else 0"), std::string::npos) << line_of(compare_help, "--random");
  EXPECT_EQ(line_of(compare_help, "--random").find("=0"), std::string::npos) << line_of(compare_help, "--random");
  EXPECT_NE(line_of(run_help, "--seed-keys").find("=what --max-memory holds"), std::string::npos) << line_of(run_help, "--seed-keys");
  EXPECT_EQ(line_of(run_help, "--seed-keys").find("=-1"), std::string::npos) << line_of(run_help, "--seed-keys");
}

// `export | head -1`: head leaves after one line, the export's next write fails with EPIPE,
// and the export ends with status 6 and one line (not killed by SIGPIPE, status 141).
TEST(Cli, AClosedPipeEndsWithStatus6AndOneLine) {
  const std::string base = ::testing::TempDir() + "/searchbench_pipe_" + std::to_string(getpid());
  const std::string script = "timeout 20 " SEARCHBENCH_EXE " export --puzzle msquare-2x4 2>" + base + ".err | head -1 >" + base +
                             ".out; echo ${PIPESTATUS[0]} >" + base + ".status";
  std::ofstream(base + ".sh") << script << "\n";
  ASSERT_EQ(std::system(("bash " + base + ".sh").c_str()), 0);
  EXPECT_EQ(slurp(base + ".status"), "6\n");
  const std::string out = slurp(base + ".out"), err = slurp(base + ".err");
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1) << out;
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  EXPECT_EQ(err.rfind("searchbench: cannot write", 0), 0u) << err;
  EXPECT_NE(err.find("Broken pipe"), std::string::npos) << err;
  for (const char* ext : {".sh", ".out", ".err", ".status"}) std::remove((base + ext).c_str());
}

// An external run with --workdir and repetitions runs each warm-up and timed run in a fresh
// subfolder (a finished run's folder refuses a fresh start); --resume continues one run only.
TEST(Cli, ExternalRepetitionsRunInFreshSubfolders) {
  const std::string folder = ::testing::TempDir() + "/searchbench_reps_" + std::to_string(getpid());
  std::filesystem::remove_all(folder);
  const Outcome o = run("run --puzzle msquare-2x3 --engine external --threads 1 --repetitions 3 --quiet --json --workdir " + folder);
  ASSERT_EQ(o.status, 0) << o.err;
  const auto doc = nlohmann::json::parse(o.out);
  EXPECT_EQ(doc["seconds_all"].size(), 3u);
  EXPECT_EQ(doc["warmup"], 1);
  EXPECT_EQ(doc["states"], 720);
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    names.push_back(entry.path().filename().string());
    EXPECT_TRUE(std::filesystem::exists(entry.path() / "manifest.json")) << entry.path();
  }
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"rep-1", "rep-2", "rep-3", "warmup-1"}));
  // Again into the same folder: its subfolders hold finished runs now, so it is refused.
  expect_refusal("run --puzzle msquare-2x3 --engine external --repetitions 2 --quiet --workdir " + folder, "already holds a run");
  std::filesystem::remove_all(folder);
  const Outcome cold = run("run --puzzle msquare-2x3 --engine external --repetitions 2 --warmup 0 --quiet --json --workdir " + folder);
  ASSERT_EQ(cold.status, 0) << cold.err;
  EXPECT_TRUE(std::filesystem::exists(folder + "/rep-2/manifest.json"));
  EXPECT_FALSE(std::filesystem::exists(folder + "/warmup-1"));
  expect_refusal("run --puzzle msquare-2x3 --engine external --resume --repetitions 3 --workdir " + folder,
                 "--resume continues one run");
  expect_refusal("run --puzzle msquare-2x3 --engine external --resume --warmup 1 --workdir " + folder, "--resume continues one run");
  std::filesystem::remove_all(folder);
}
