// `run` at its limits: memory guards up front and as a search grows, pattern databases within
// --max-memory, and the out-of-core engine killed, resumed and repeated in fresh folders.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "cli_run.hpp"
#include "registry/registry.hpp"

namespace {

using searchbench_tests::expect_refusal;
using searchbench_tests::Outcome;
using searchbench_tests::run;

}  // namespace

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

TEST(Cli, MemorySizesInMessagesShowTheDifference) {
  expect_refusal("run --max-memory 1K", "needs about 354 KiB, more than --max-memory 1.00 KiB");
  expect_refusal("run --puzzle msquare-2x3 --max-memory 1K", "needs about 6.33 KiB, more than --max-memory 1.00 KiB");
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
