// `run` as a user meets it: the whole space and point queries, the summary for people and the
// key-value lines and JSON for scripts, thread counts, repetitions, progress lines, boards.
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
#include "known_facts.hpp"
#include "registry/registry.hpp"

namespace {

using searchbench_tests::expect_refusal;
using searchbench_tests::field;
using searchbench_tests::Outcome;
using searchbench_tests::run;

}  // namespace

TEST(Cli, RunPrintsTheWholeSpaceAndJson) {
  const Outcome o = run("run --puzzle msquare --engine ring --encoder cantor --quiet --format keys");
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
  const Outcome c = run("run --puzzle checkers-5 --engine iddfs --start '##&@@' --target '@@&##' --format keys");
  ASSERT_EQ(c.status, 0) << c.err;
  EXPECT_EQ(field(c.out, "distance"), "8");
}

TEST(Cli, UnreachableTargetsAnswerMinusOne) {
  const Outcome o = run("run --puzzle checkers-5 --engine bidir --start '##&@@' --target '#@&@@' --json");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(nlohmann::json::parse(o.out)["distance"], -1);
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
  // The key-value lines carry the same figures under the same names.
  const Outcome t = run("run --puzzle msquare-2x3 --engine bidir --target '3 1 2 / 5 4 6' --repetitions 3 --quiet --format keys");
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

TEST(Cli, JsonCarriesTheSchemaAndKeysUseTheSameNames) {
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
  // Every JSON field appears in the key-value lines under the same name (an object's fields
  // as name.field: context.date).
  for (const char* args : {"run --puzzle msquare-2x3 --max-depth 5 --quiet", "run --engine bidir --target '5 8 7 6 / 4 1 2 3'"}) {
    const Outcome t = run(std::string(args) + " --format keys");
    const auto d = nlohmann::json::parse(run(std::string(args) + " --json").out);
    std::function<void(const nlohmann::json&, const std::string&)> check = [&](const nlohmann::json& object, const std::string& prefix) {
      for (const auto& [key, value] : object.items()) {
        if (value.is_object()) check(value, prefix + key + ".");
        else EXPECT_FALSE(field(t.out, prefix + key).empty()) << args << ": " << prefix + key;
      }
    };
    check(d, "");
  }
  EXPECT_NE(run("run --puzzle msquare-2x3 --quiet --format keys").out.find("\ncontext.date "), std::string::npos);
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
