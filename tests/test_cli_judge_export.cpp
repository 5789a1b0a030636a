// `judge` and `export`: exact answers on stdin's cases, the state graph as an edge list, and
// output that cannot be written (a full disk, a closed pipe) ending with status 6 and one line.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <numeric>
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
#include "known_facts.hpp"

namespace {

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

using searchbench_tests::expect_refusal;
using searchbench_tests::Outcome;
using searchbench_tests::run;
using searchbench_tests::slurp;

}  // namespace

TEST(Cli, JudgesReadStdinAndWriteExactOutput) {
  const Outcome o = run("judge sicily1151", "4\n5 8 7 6\n4 1 2 3\n3\n8 7 6 5\n1 2 3 4\n-1\n");
  EXPECT_EQ(o.status, 0);
  EXPECT_EQ(o.out, "2 AB\n1 A\n");
  EXPECT_EQ(run("judge msquare", "2 6 8 4 5 7 3 1\n").out, "7\nBCABCCB\n");
  EXPECT_EQ(run("judge fzu1603", "1\n##&@@ @@&##\n").out, "8\n");
}

// stdin as a file (read at once), as a pipe (read in blocks), and as a file already read
// part-way (read from where the reading stopped).
TEST(Cli, JudgesReadStdinFromFilesPipesAndPartReadFiles) {
  const std::string cases = "4\n5 8 7 6\n4 1 2 3\n3\n8 7 6 5\n1 2 3 4\n-1\n";
  const std::string path = ::testing::TempDir() + "/searchbench_judge_input_" + std::to_string(getpid());
  std::ofstream(path) << "a line to skip\n" << cases;
  EXPECT_EQ(run("judge sicily1151", cases).out, "2 AB\n1 A\n");
  EXPECT_EQ(run("judge sicily1151", "", "", "<&0", "tail -n +2 " + path + " | ").out, "2 AB\n1 A\n");
  const Outcome part = run("judge sicily1151", "", "", "; } <" + path, "{ read -r skipped; ");
  EXPECT_EQ(part.status, 0) << part.err;
  EXPECT_EQ(part.out, "2 AB\n1 A\n");
  std::remove(path.c_str());
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
