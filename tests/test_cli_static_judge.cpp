// searchbench-judge, the statically linked judges: the same output, exit status and error
// line as `searchbench judge` on every judge's inputs, good and bad; its own command line;
// output that cannot be written; and that it really is linked without shared libraries.
#include <elf.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "cli_run.hpp"

namespace {

using searchbench_tests::Outcome;
using searchbench_tests::run;
using searchbench_tests::run_program;

Outcome judge(const std::string& args, const std::string& input = "", const std::string& stdout_to = "") {
  return run_program(SEARCHBENCH_JUDGE_EXE, args, input, stdout_to);
}

// Every Sicily 1151 board in one input, with a limit that cuts the farthest ones off.
std::string every_sicily_board(int limit) {
  std::vector<int> cells(8);
  std::iota(cells.begin(), cells.end(), 1);
  std::string input;
  do {
    input += std::to_string(limit) + "\n";
    for (int i = 0; i < 8; ++i) input += std::to_string(cells[i]) + (i % 4 == 3 ? "\n" : " ");
  } while (std::next_permutation(cells.begin(), cells.end()));
  return input + "-1\n";
}

// An FZU 1603 input of random lines (fixed seed): odd lengths up to 19, most pairs with the
// same pieces, some with independent ones (-1 when the counts differ).
std::string random_checkers_lines(unsigned seed) {
  std::mt19937 rng(seed);
  const auto board = [&](int n, std::string pieces) {
    std::shuffle(pieces.begin(), pieces.end(), rng);
    pieces.insert(pieces.begin() + static_cast<long>(rng() % n), '&');
    return pieces;
  };
  std::string input = "35\n";
  for (int c = 0; c < 35; ++c) {
    const int n = 1 + 2 * static_cast<int>(rng() % 10);
    std::string pieces;
    for (int i = 0; i < n - 1; ++i) pieces += rng() % 2 ? '#' : '@';
    std::string other = pieces;
    if (rng() % 10 == 0)
      for (char& p : other) p = rng() % 2 ? '#' : '@';
    input += board(n, pieces) + " " + board(n, other) + "\n";
  }
  return input;
}

}  // namespace

TEST(StaticJudge, AnswersExactlyAsTheCommandLineJudge) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"sicily1151", every_sicily_board(20)},
      {"sicily1151", "4\n5 8 7 6\n4 1 2 3\n3\n8 7 6 5\n1 2 3 4\n-1\n"},
      {"sicily1515", "5\n3 4 1 2\n7 8 5 6\n100\n1 2 3 4\n5 6 7 8\n-1\n"},
      {"msquare", "2 6 8 4 5 7 3 1\n"},
      {"msquare", "1 2 3 4 5 6 7 8\n"},
      {"fzu1603", random_checkers_lines(1)},
      {"fzu1603", random_checkers_lines(2)},
      {"fzu1603", "1\n#########&@@@@@@@@@ @@@@@@@@@&#########\n"},
      // Bad inputs: the answers before the bad case, then one error line naming its line.
      {"sicily1151", "4\n5 8 7 6\n4 1 2 3\n3\n8 7 6 5\n1 2 3 4\nx\n"},
      {"sicily1151", ""},
      {"sicily1515", "5\n3 4 1 2\n7 8 5 9\n"},
      {"msquare", "1 2 3 4 5 6 7\n"},
      {"msquare", "1 2 3 4 5 6 7 8 9\n"},
      {"fzu1603", "3\n##&@@ @@&##\n#&#@@ ##&@@\n"},
      {"fzu1603", "1\n##&@@ @@&#x\n"},
      {"fzu1603", "1\n#####################& &#####################\n"},
  };
  for (const auto& [name, input] : cases) {
    const Outcome ours = judge(name, input), cli = run("judge " + name, input);
    const std::string what = name + " on " + input.substr(0, 60);
    EXPECT_EQ(ours.status, cli.status) << what;
    EXPECT_EQ(ours.out, cli.out) << what;
    ASSERT_EQ(cli.err.rfind("searchbench: ", 0) == 0, !cli.err.empty()) << cli.err;
    EXPECT_EQ(ours.err, cli.err.empty() ? "" : "searchbench-judge: " + cli.err.substr(13)) << what;
  }
  const std::string every_answer = judge("sicily1151", every_sicily_board(30)).out;
  EXPECT_EQ(std::count(every_answer.begin(), every_answer.end(), '\n'), 40'320);
}

TEST(StaticJudge, ItsCommandLineTakesOneJudgeName) {
  const Outcome help = judge("--help");
  EXPECT_EQ(help.status, 0);
  for (const char* name : {"sicily1151", "sicily1515", "msquare", "fzu1603", "searchbench judge"})
    EXPECT_NE(help.out.find(name), std::string::npos) << name;
  const Outcome version = judge("--version");
  EXPECT_EQ(version.status, 0);
  EXPECT_EQ(version.out.rfind("searchbench-judge ", 0), 0u) << version.out;
  // As the main executable reads its command line: help anywhere, "--" before a name.
  EXPECT_EQ(judge("fzu1603 -h").out, help.out);
  const Outcome after_dashes = judge("-- fzu1603", "1\n##&@@ @@&##\n");
  EXPECT_EQ(after_dashes.status, 0) << after_dashes.err;
  EXPECT_EQ(after_dashes.out, "8\n");
  for (const auto& [args, fragment] : std::vector<std::pair<std::string, std::string>>{
           {"''", "unknown judge ''"},
           {"", "a judge name is required"},
           {"sicily1151 msquare", "one judge name only"},
           {"--engine", "unknown option '--engine'"},
           {"tetris", "unknown judge 'tetris' (choose sicily1151, sicily1515, msquare or fzu1603)"}}) {
    const Outcome o = judge(args, "1\n");
    EXPECT_EQ(o.status, 2) << args;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << args << ": " << o.err;
    EXPECT_EQ(o.err.rfind("searchbench-judge: ", 0), 0u) << o.err;
    EXPECT_NE(o.err.find(fragment), std::string::npos) << args << ": " << o.err;
  }
  // The judge name is checked before stdin is read: a FIFO that never ends would hang it.
  const std::string fifo = ::testing::TempDir() + "/searchbench_judge_fifo_" + std::to_string(getpid());
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const int raw = std::system(("timeout 10 " SEARCHBENCH_JUDGE_EXE " tetris <>" + fifo + " >/dev/null 2>&1").c_str());
  EXPECT_EQ(WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, 2);
  std::remove(fifo.c_str());
}

TEST(StaticJudge, OutputThatCannotBeWrittenFailsWithOneLine) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  ::close(fds[0]);  // nobody reads: a write fails with EPIPE (SIGPIPE is ignored)
  for (const std::string& where : {std::string(">/dev/full"), std::string(">&-"), ">&" + std::to_string(fds[1])}) {
    const Outcome o = judge("sicily1151", every_sicily_board(30), where);
    EXPECT_EQ(o.status, 6) << where << ": " << o.err;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << where << ": " << o.err;
    EXPECT_NE(o.err.find("cannot write"), std::string::npos) << where << ": " << o.err;
  }
  ::close(fds[1]);
}

// No program interpreter and no dynamic section: nothing is loaded at start-up, which is
// what it is for. The sanitizer builds link it dynamically (their runtimes are shared).
TEST(StaticJudge, IsLinkedStatically) {
  if (!SEARCHBENCH_JUDGE_STATIC) GTEST_SKIP() << "this build links searchbench-judge dynamically (a sanitizer build)";
  std::ifstream f(SEARCHBENCH_JUDGE_EXE, std::ios::binary);
  Elf64_Ehdr header{};
  ASSERT_TRUE(f.read(reinterpret_cast<char*>(&header), sizeof header));
  ASSERT_EQ(std::string(reinterpret_cast<const char*>(header.e_ident), 4), "\x7f" "ELF");
  for (int i = 0; i < header.e_phnum; ++i) {
    Elf64_Phdr program{};
    f.seekg(static_cast<std::streamoff>(header.e_phoff + i * header.e_phentsize));
    ASSERT_TRUE(f.read(reinterpret_cast<char*>(&program), sizeof program));
    EXPECT_NE(program.p_type, static_cast<Elf64_Word>(PT_INTERP)) << "searchbench-judge names a program interpreter";
    EXPECT_NE(program.p_type, static_cast<Elf64_Word>(PT_DYNAMIC)) << "searchbench-judge has a dynamic section";
  }
}
