// The searchbench executable as a user meets it: exit codes, the one-line error on stderr
// for every class of bad input, the memory guard, JSON output, compare and list.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <numeric>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "known_facts.hpp"
#include "registry/registry.hpp"

namespace {

struct Outcome {
  int status = -1;
  std::string out, err;
};

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

// Runs the executable with `args`, feeding `input` on stdin; a 20 s limit catches hangs.
Outcome run(const std::string& args, const std::string& input = "") {
  // Unique names: ctest runs these tests as parallel processes sharing one temp folder.
  static int call = 0;
  const std::string base = ::testing::TempDir() + "/searchbench_cli_" + std::to_string(getpid()) + "_" + std::to_string(++call);
  const std::string in = base + ".in", out = base + ".out", err = base + ".err";
  std::ofstream(in) << input;
  const std::string cmd = "timeout 20 " SEARCHBENCH_EXE " " + args + " <" + in + " >" + out + " 2>" + err;
  const int raw = std::system(cmd.c_str());
  Outcome o;
  o.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  o.out = slurp(out);
  o.err = slurp(err);
  for (const auto& f : {in, out, err}) std::remove(f.c_str());
  return o;
}

// One clear line on stderr, a non-zero status below 128 (never a crash or a timeout).
void expect_refusal(const std::string& args, const std::string& fragment, const std::string& input = "") {
  const Outcome o = run(args, input);
  EXPECT_GT(o.status, 0) << args;
  EXPECT_LT(o.status, 124) << args << " (124 = hang, >128 = crash)";
  EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << args << ": " << o.err;
  EXPECT_NE(o.err.find(fragment), std::string::npos) << args << ": stderr was: " << o.err;
  EXPECT_EQ(o.err.rfind("searchbench: ", 0), 0u) << o.err;
}

}  // namespace

TEST(Cli, RunPrintsTheWholeSpaceAndJson) {
  const Outcome o = run("run --puzzle msquare --engine ring --encoder cantor --quiet");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_NE(o.out.find("states   40320"), std::string::npos);
  EXPECT_NE(o.out.find("radius   22"), std::string::npos);
  const Outcome j = run("run --puzzle msquare --engine parallel --threads 2 --json --quiet");
  ASSERT_EQ(j.status, 0) << j.err;
  const auto doc = nlohmann::json::parse(j.out);
  EXPECT_EQ(doc["states"], 40320);
  EXPECT_EQ(doc["radius"], 22);
  EXPECT_EQ(doc["threads"], 2);
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
  EXPECT_NE(c.out.find("distance 8"), std::string::npos);
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
    for (const auto& k : searchbench::combinations(searchbench::parse_puzzle(puzzle), {1, 2})) {
      char row[64];
      std::snprintf(row, sizeof row, "%-9s %-14s %7d ", k.engine.c_str(), k.encoder.c_str(), k.threads);
      EXPECT_NE(c.out.find(row), std::string::npos) << puzzle << ": " << row;
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
    const Outcome o = run("run --puzzle msquare-2x3 --progress --engine " + std::string(engine.name));
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
    const Outcome whole = run("run --puzzle msquare-2x3 --json --quiet --engine " + std::string(engine.name));
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
  expect_refusal("run --engine dfs", "unknown engine 'dfs'");
  expect_refusal("run --encoder zip", "unknown encoder 'zip'");
  expect_refusal("run --puzzle msquare-2x5 --encoder decimal", "does not fit msquare-2x5");
  expect_refusal("run --puzzle checkers-31 --encoder maskhole", "fits N <= 29");
  expect_refusal("run --puzzle checkers-99", "N must be 1..32");
  expect_refusal("run --puzzle msquare-2x9", "K must be 2..8");
  expect_refusal("run --puzzle sicily1515-2x5", "even width");
  expect_refusal("run --engine bidir", "point queries only");
  expect_refusal("run --engine ring --threads 2", "serial");
  // Numbers.
  expect_refusal("run --engine parallel --threads 0", "thread count must be a positive integer");
  expect_refusal("run --engine parallel --threads -3", "thread count must be a positive integer");
  expect_refusal("run --engine parallel --threads two", "threads");
  expect_refusal("compare --threads 1,0", "thread counts must be positive");
  // States.
  expect_refusal("run --target '1 2 3'", "needs 8 numbers, got 3");
  expect_refusal("run --target '1 2 3 4 5 6 7 7'", "appears twice");
  expect_refusal("run --target '1 2 3 4 5 6 7 x'", "unexpected character 'x'");
  expect_refusal("run --puzzle checkers-5 --target '##&@'", "expected 5");
  // Memory guard: refused at once, before allocating.
  expect_refusal("run --puzzle msquare-2x8 --encoder cantor", "more than the");
  expect_refusal("run --puzzle msquare-2x5 --encoder cantor --max-memory 1M", "more than --max-memory");
  expect_refusal("run --max-memory lots", "malformed --max-memory");
  // Export.
  expect_refusal("export --puzzle msquare --encoder octal", "every key is a state");
  expect_refusal("export --format gr", "unknown export format 'gr'");
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
