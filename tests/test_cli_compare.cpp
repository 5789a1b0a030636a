// `compare`: every case measured as run measures it, the answers cross-checked, the tables.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cli_run.hpp"
#include "registry/registry.hpp"

namespace {

using searchbench_tests::Outcome;
using searchbench_tests::run;
using searchbench_tests::words;

// "12.3 us", "1.234 ms", "2.000 s" in seconds.
double seconds_of(const std::string& text) {
  const double value = std::stod(text);
  const std::string unit = text.substr(text.find(' ') + 1);
  return unit == "us" ? value * 1e-6 : unit == "ms" ? value * 1e-3 : value;
}

}  // namespace

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

// compare's tables: the whole-space engines, then the point-query ones; columns as wide as
// what they hold (bitpack-implied included), every row aligned with its table's header, a
// rate per row with its table's unit, rows sorted by median time, the first "1 (fastest)".
TEST(Cli, CompareColumnsAreAlignedAndRatesNamed) {
  const Outcome c = run("compare --puzzle msquare-2x2 --threads 1,2 --random 2");
  ASSERT_EQ(c.status, 0) << c.err;
  std::istringstream lines(c.out);
  std::string line, header;
  std::vector<std::string> titles;
  int rows = 0;
  bool saw_implied = false, whole = true;
  double last = 0;
  for (std::getline(lines, line); std::getline(lines, line);) {  // the first line says what the targets are
    if (line.empty()) {
      header.clear();
      continue;
    }
    if (header.empty()) {
      if (line.find("engines, fastest first") == std::string::npos) continue;  // the notes after the tables
      titles.push_back(line.substr(0, line.find(',')));
      whole = titles.back() == "whole-space engines";
      ASSERT_TRUE(std::getline(lines, header));
      ASSERT_EQ(words(header).front(), "engine") << header;
      last = 0;
      continue;
    }
    const auto w = words(line);
    ASSERT_GE(w.size(), 12u) << line;
    saw_implied = saw_implied || w[1] == "bitpack-implied";
    EXPECT_EQ(line.compare(header.find("encoder"), w[1].size(), w[1]), 0) << header << "\n" << line;
    const auto threads_end = header.find("threads") + 7, median_end = header.find("median") + 6;
    EXPECT_TRUE(std::isdigit(static_cast<unsigned char>(line[threads_end - 1])) && line[threads_end] == ' ') << header << "\n" << line;
    const auto median = words(line.substr(0, median_end));
    const double seconds = seconds_of(median[median.size() - 2] + " " + median.back());
    EXPECT_GE(seconds, last) << "not sorted by median time:\n" << c.out;
    // One repetition: the ratio alone, no interval.
    const std::string ratio = words(line.substr(header.find("vs fastest"))).front();
    if (last == 0) {
      EXPECT_EQ(line.compare(header.find("vs fastest"), 11, "1 (fastest)"), 0) << line;
    } else {
      EXPECT_TRUE(std::regex_match(ratio, std::regex(R"(\d+(\.\d+)?x)"))) << line;
    }
    last = seconds;
    EXPECT_EQ(line.substr(header.find("agrees")), "yes") << header << "\n" << line;
    EXPECT_NE(line.find(whole ? " states/s " : " queries/s "), std::string::npos) << line;
    EXPECT_EQ(searchbench::engine_info(w[0].substr(0, w[0].find(':'))).whole_space, whole) << line;  // "idastar:pdb"
    ++rows;
  }
  EXPECT_EQ(titles, (std::vector<std::string>{"whole-space engines", "point-query engines"})) << c.out;
  EXPECT_TRUE(saw_implied);
  EXPECT_EQ(rows, static_cast<int>(searchbench::combinations(searchbench::parse_puzzle("msquare-2x2"), {1, 2}).size()));
}
