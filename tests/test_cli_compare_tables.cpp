// compare's output: two tables (whole-space, point-query), each sorted by median time with
// the ratio to its fastest case and a bootstrap interval of it; markdown and CSV; the
// --engines and --encoders filters. The interval itself is checked on fixed times, through
// the front end's own code (cli/compare_output.hpp).
#include <gtest/gtest.h>

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli/compare_output.hpp"
#include "cli_run.hpp"
#include "registry/registry.hpp"

namespace {

using searchbench_tests::expect_refusal;
using searchbench_tests::Outcome;
using searchbench_tests::run;

// The fields of one CSV line (none of compare's cells here holds a comma or a quote).
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> out;
  std::size_t begin = 0;
  for (std::size_t comma; (comma = line.find(',', begin)) != std::string::npos; begin = comma + 1) out.push_back(line.substr(begin, comma - begin));
  out.push_back(line.substr(begin));
  return out;
}

// Whether `text` is a whole number, as strtod reads it with nothing left over.
bool is_number(const std::string& text) {
  char* end = nullptr;
  std::strtod(text.c_str(), &end);
  return !text.empty() && *end == '\0';
}

const std::string kCases = "compare --puzzle msquare-2x2 --threads 1,2 --random 3 --repetitions 3";

}  // namespace

// JSON: the whole-space rows first, then the point-query ones, each kind sorted by median
// time; the first of each kind is 1 with no interval, the others the ratio of their medians
// with an interval that holds it... as far as a bootstrap of three times can say.
TEST(Cli, CompareSortsEachKindByTimeWithRatios) {
  const Outcome c = run(kCases + " --json");
  ASSERT_EQ(c.status, 0) << c.err;
  const auto doc = nlohmann::json::parse(c.out);
  EXPECT_TRUE(doc["all_agree"].get<bool>());
  std::string kind;
  double fastest = 0, last = 0;
  int kinds = 0;
  for (const auto& row : doc["rows"]) {
    const bool whole = searchbench::engine_info(row["engine"].get<std::string>()).whole_space;
    EXPECT_EQ(row["kind"], whole ? "whole-space" : "point-query") << row;
    const double seconds = row["seconds"].get<double>();
    if (row["kind"] != kind) {
      EXPECT_TRUE(kind.empty() || (kind == "whole-space" && row["kind"] == "point-query")) << "kinds out of order: " << c.out;
      kind = row["kind"];
      ++kinds;
      fastest = last = seconds;
      EXPECT_EQ(row["ratio_to_fastest"], 1.0) << row;
      EXPECT_TRUE(row["ratio_ci"].is_null()) << row;
      continue;
    }
    EXPECT_GE(seconds, last) << "not sorted by median: " << c.out;
    last = seconds;
    EXPECT_DOUBLE_EQ(row["ratio_to_fastest"].get<double>(), seconds / fastest) << row;
    ASSERT_TRUE(row["ratio_ci"].is_array()) << row;
    const double low = row["ratio_ci"][0].get<double>(), high = row["ratio_ci"][1].get<double>();
    EXPECT_GT(low, 0.0) << row;
    EXPECT_LE(low, high) << row;
  }
  EXPECT_EQ(kinds, 2);
  // Fewer than three repetitions: the ratio, no interval.
  const auto two = nlohmann::json::parse(run("compare --puzzle msquare-2x2 --threads 1 --random 2 --repetitions 2 --json").out);
  for (const auto& row : two["rows"]) {
    EXPECT_TRUE(row["ratio_ci"].is_null()) << row;
    EXPECT_GE(row["ratio_to_fastest"].get<double>(), 1.0) << row;
  }
}

// The interval on fixed times: the same each time (a fixed seed), the fastest case 1 with
// none, a constant ratio an interval of width 0, and none below three times.
TEST(Cli, CompareRatioIntervalIsABootstrapOfTheMedians) {
  using searchbench::cli::ratio_to_fastest;
  const std::vector<double> fast = {1.0, 1.1, 0.9, 1.05, 0.95}, slow = {2.0, 2.4, 1.9, 2.2, 2.1};
  const auto r = ratio_to_fastest(slow, fast, false);
  ASSERT_TRUE(r.interval);
  EXPECT_DOUBLE_EQ(r.ratio, 2.1 / 1.0);
  EXPECT_LE(r.interval->first, r.ratio);
  EXPECT_GE(r.interval->second, r.ratio);
  EXPECT_GE(r.interval->first, 1.9 / 1.1);  // the extremes of any resample's medians
  EXPECT_LE(r.interval->second, 2.4 / 0.9);
  const auto again = ratio_to_fastest(slow, fast, false);
  EXPECT_EQ(again.interval, r.interval);
  EXPECT_EQ(searchbench::cli::ratio_cell(r), searchbench::cli::ratio_cell(again));
  const auto fastest = ratio_to_fastest(fast, fast, true);
  EXPECT_EQ(fastest.ratio, 1.0);
  EXPECT_FALSE(fastest.interval);
  EXPECT_EQ(searchbench::cli::ratio_cell(fastest), "1 (fastest)");
  const auto constant = ratio_to_fastest({3, 3, 3}, {1, 1, 1}, false);
  EXPECT_EQ(constant.interval, std::make_pair(3.0, 3.0));
  EXPECT_EQ(searchbench::cli::ratio_cell(constant), "3.00x [3.00, 3.00]");
  const auto few = ratio_to_fastest({2, 2}, {1, 1}, false);
  EXPECT_FALSE(few.interval);
  EXPECT_EQ(searchbench::cli::ratio_cell(few), "2.00x");
}

// CSV: one header row, then one row per case with as many fields, its numbers plain
// (seconds, bytes, per second); the fastest of each kind has ratio 1 and no interval.
TEST(Cli, CompareCsvHasAHeaderAndARowPerCase) {
  const Outcome c = run(kCases + " --format csv");
  ASSERT_EQ(c.status, 0) << c.err;
  std::istringstream lines(c.out);
  std::string line;
  ASSERT_TRUE(std::getline(lines, line));
  const auto header = csv_fields(line);
  EXPECT_EQ(line, "kind,engine,heuristic,encoder,threads,threads_requested,seconds,seconds_min,seconds_max,rate,rate_unit,peak_bytes,"
                  "ratio_to_fastest,ratio_ci_low,ratio_ci_high,agrees,timed_out,error");
  std::size_t rows = 0, fastest = 0;
  while (std::getline(lines, line)) {
    const auto f = csv_fields(line);
    ASSERT_EQ(f.size(), header.size()) << line;
    EXPECT_TRUE(f[0] == "whole-space" || f[0] == "point-query") << line;
    EXPECT_EQ(f[10], f[0] == "whole-space" ? "states/s" : "queries/s") << line;
    for (std::size_t i : {4, 5, 6, 7, 8, 9, 11, 12}) EXPECT_TRUE(is_number(f[i])) << header[i] << " in " << line;
    EXPECT_GT(std::stod(f[6]), 0.0) << line;
    EXPECT_LE(std::stod(f[7]), std::stod(f[6])) << line;
    if (std::stod(f[12]) == 1.0 && f[13].empty()) {
      ++fastest;
    } else {
      EXPECT_TRUE(is_number(f[13]) && is_number(f[14])) << line;
    }
    EXPECT_EQ(f[15], "true") << line;
    EXPECT_EQ(f[16], "false") << line;
    ++rows;
  }
  EXPECT_EQ(rows, searchbench::combinations(searchbench::parse_puzzle("msquare-2x2"), {1, 2}).size());
  EXPECT_EQ(fastest, 2u);
}

// Markdown: a bold title and a table per kind, every row with the header's ten cells.
TEST(Cli, CompareMarkdownIsTwoTables) {
  const Outcome c = run(kCases + " --format md");
  ASSERT_EQ(c.status, 0) << c.err;
  std::istringstream lines(c.out);
  int tables = 0, rows = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("**", 0) == 0) ++tables;
    if (line.rfind("|", 0) != 0) continue;
    EXPECT_EQ(std::count(line.begin(), line.end(), '|'), 11) << line;
    if (line.rfind("| engine |", 0) == 0 || line.rfind("|:--|", 0) == 0) continue;
    ++rows;
  }
  EXPECT_EQ(tables, 2) << c.out;
  EXPECT_EQ(rows, static_cast<int>(searchbench::combinations(searchbench::parse_puzzle("msquare-2x2"), {1, 2}).size()));
  EXPECT_NE(c.out.find("| engine | encoder | threads | median | min | max | rate | peak | vs fastest | agrees |\n|:--|:--|--:|"),
            std::string::npos)
      << c.out;
}

// --engines and --encoders narrow the cases; an unknown name gets the closest registered one.
TEST(Cli, CompareFiltersEnginesAndEncoders) {
  const Outcome c = run("compare --puzzle msquare-2x3 --random 3 --engines ring,bidir --encoders cantor,bitpack --json");
  ASSERT_EQ(c.status, 0) << c.err;
  const auto doc = nlohmann::json::parse(c.out);
  std::vector<std::string> cases;
  for (const auto& row : doc["rows"]) cases.push_back(row["engine"].get<std::string>() + "/" + row["encoder"].get<std::string>());
  std::sort(cases.begin(), cases.end());
  EXPECT_EQ(cases, (std::vector<std::string>{"bidir/bitpack", "bidir/cantor", "ring/bitpack", "ring/cantor"}));
  expect_refusal("compare --engines paralel", "--engines: unknown engine 'paralel' (did you mean 'parallel'? choose ring, parallel");
  expect_refusal("compare --engines ring,,bidir", "--engines: 'ring,,bidir' has an empty item between its commas");
  expect_refusal("compare --puzzle tiles-3x3 --encoders nible", "--encoders: unknown encoder 'nible' for tiles-3x3 (did you mean 'nibbles'?");
  expect_refusal("compare --puzzle msquare-2x3 --engines bidir --random 0",
                 "--engines: engine 'bidir' has no case on msquare-2x3 (point-query engines need targets");
  expect_refusal("compare --puzzle msquare-2x5 --encoders decimal", "--encoders: encoder 'decimal' has no case on msquare-2x5 (decimal needs");
  expect_refusal("compare --engines ring --format csv --json", "--json and --format csv ask for different output");
}
