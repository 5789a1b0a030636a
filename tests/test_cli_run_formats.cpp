// `run`'s three outputs: the summary for people (the default, --format text), the key-value
// lines (--format keys, as run printed before the summary came) and the JSON (--format json,
// the same as --json).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cli_run.hpp"

namespace {

using searchbench_tests::expect_refusal;
using searchbench_tests::Outcome;
using searchbench_tests::run;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// The summary's line that starts with `label`, or "".
std::string labelled(const std::string& text, const std::string& label) {
  for (const auto& line : lines_of(text))
    if (line.rfind(label + " ", 0) == 0) return line;
  return "";
}

// The names print_text gives a JSON object's fields, in order: an object's as name.field.
void flattened_names(const nlohmann::ordered_json& j, const std::string& prefix, std::vector<std::string>& out) {
  for (const auto& [key, value] : j.items()) {
    if (value.is_object()) flattened_names(value, prefix + key + ".", out);
    else out.push_back(prefix + key);
  }
}

const std::regex kTime(R"(\d+\.\d+ (s|ms|us))");
const std::regex kBytes(R"(\d+(\.\d+)? (B|KiB|MiB|GiB))");

}  // namespace

// A whole-space run: the result, the time, the rate and the memory with their units, the
// settings on one line, no context lines, and one line saying where the rest is.
TEST(Cli, RunPrintsASummaryForPeople) {
  const Outcome o = run("run --puzzle msquare-2x3 --quiet");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(labelled(o.out, "result"), "result    720 states, radius 12") << o.out;
  EXPECT_TRUE(std::regex_search(labelled(o.out, "time"), kTime)) << o.out;
  EXPECT_TRUE(std::regex_search(labelled(o.out, "rate"), std::regex(R"(^rate +\d+(\.\d+)?( [kMG])? states/s$)"))) << o.out;
  const std::string memory = labelled(o.out, "memory");
  EXPECT_TRUE(std::regex_search(memory, std::regex(R"(\d.* search structures at peak, \d.* process peak RSS$)"))) << memory;
  EXPECT_EQ(std::distance(std::sregex_iterator(memory.begin(), memory.end(), kBytes), std::sregex_iterator()), 2) << memory;
  EXPECT_EQ(labelled(o.out, "settings"), "settings  msquare-2x3, engine ring, encoder cantor, 1 thread") << o.out;
  EXPECT_EQ(o.out.find("context"), std::string::npos) << o.out;
  EXPECT_EQ(o.out.find("depth_counts"), std::string::npos) << o.out;
  EXPECT_LE(lines_of(o.out).size(), 7u) << o.out;
  EXPECT_NE(lines_of(o.out).back().find("--format json"), std::string::npos) << o.out;

  // With repetitions: the median, the fastest and the slowest run, and the warm-up.
  const Outcome r = run("run --puzzle msquare-2x3 --engine parallel --threads 2 --repetitions 3 --max-depth 4 --quiet");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string time = labelled(r.out, "time");
  EXPECT_TRUE(std::regex_match(time, std::regex(R"(time +\d+\.\d+ (s|ms|us) median of 3 runs \(\d+\.\d+ (s|ms|us) to \d+\.\d+ (s|ms|us)\), after 1 warm-up run)")))
      << time;
  EXPECT_NE(labelled(r.out, "result").find("cut short by --max-depth 4"), std::string::npos) << r.out;
  EXPECT_NE(labelled(r.out, "settings").find("engine parallel, encoder cantor, 2 threads"), std::string::npos) << r.out;
}

// A point query of a heuristic engine: the distance and path of the JSON, the heuristic's
// build (seconds, bytes, how it was built) and the nodes generated with their rate.
TEST(Cli, RunSummaryOfAHeuristicSearch) {
  const std::string args = "run --puzzle tiles-3x3 --engine idastar --heuristic manhattan --threads 1 --start '8 6 7 2 5 4 3 0 1' "
                           "--target '1 2 3 4 5 6 7 8 0' --quiet";
  const Outcome o = run(args);
  ASSERT_EQ(o.status, 0) << o.err;
  const auto j = nlohmann::json::parse(run(args + " --json").out);
  EXPECT_EQ(labelled(o.out, "result"), "result    distance " + std::to_string(j["distance"].get<int>()) + ", path " +
                                           j["path"].get<std::string>())
      << o.out;
  EXPECT_EQ(labelled(o.out, "query"), "query     8 6 7 / 2 5 4 / 3 0 1  ->  1 2 3 / 4 5 6 / 7 8 0") << o.out;
  const std::string heuristic = labelled(o.out, "heuristic");
  EXPECT_TRUE(std::regex_search(heuristic, std::regex(R"(^heuristic manhattan: built in \d+\.\d+ (s|ms|us), \d+ B, initial estimate \d+)")))
      << heuristic;
  const std::string nodes = labelled(o.out, "nodes");
  EXPECT_TRUE(std::regex_search(nodes, std::regex(R"(expanded, .* generated \(.* generated/s\); \d+ f bounds, \d+ to 31$)"))) << nodes;
  EXPECT_NE(labelled(o.out, "settings").find("heuristic manhattan, 1 thread"), std::string::npos) << o.out;
  EXPECT_EQ(labelled(o.out, "rate"), "") << "a point query has no states/s: " << o.out;
  const Outcome none = run("run --puzzle checkers-5 --engine bidir --start '##&@@' --target '#@&@@' --quiet");
  EXPECT_EQ(labelled(none.out, "result"), "result    unreachable: the target is not in the start's component") << none.out;
}

// --format keys prints the key-value lines as run printed them before the summary: one line
// per JSON field, under its name, in the JSON's order.
TEST(Cli, FormatKeysIsOneLinePerJsonField) {
  for (const char* args : {"run --puzzle msquare-2x3 --quiet --repetitions 2", "run --engine bidir --target '5 8 7 6 / 4 1 2 3'"}) {
    const Outcome keys = run(std::string(args) + " --format keys"), json = run(std::string(args) + " --format json");
    ASSERT_EQ(keys.status, 0) << keys.err;
    ASSERT_EQ(json.status, 0) << json.err;
    std::vector<std::string> expected, seen;
    flattened_names(nlohmann::ordered_json::parse(json.out), "", expected);
    for (const auto& line : lines_of(keys.out)) {
      seen.push_back(line.substr(0, line.find(' ')));
      EXPECT_GE(line.find_first_not_of(' ', seen.back().size()), 18u) << "values start in column 19: " << line;
    }
    EXPECT_EQ(seen, expected) << args;
    // --json is the same as --format json.
    const Outcome alias = run(std::string(args) + " --json");
    std::vector<std::string> alias_names;
    flattened_names(nlohmann::ordered_json::parse(alias.out), "", alias_names);
    EXPECT_EQ(alias_names, expected) << args;
  }
  EXPECT_EQ(run("run --puzzle msquare-2x3 --quiet --json --format json").status, 0);
  expect_refusal("run --puzzle msquare-2x3 --json --format text", "--json and --format text ask for different output");
  expect_refusal("run --puzzle msquare-2x3 --format keys --json", "--json and --format keys ask for different output");
  expect_refusal("run --format yaml", "--format: yaml not in {text,keys,json}");
  expect_refusal("compare --format keys", "--format: keys not in {text,md,csv,json}");
  // A failure under --format json is one JSON object on stdout, as under --json.
  const Outcome bad = run("run --format json --puzzle sudoku");
  EXPECT_EQ(bad.status, 2);
  EXPECT_EQ(nlohmann::json::parse(bad.out)["exit_status"], 2) << bad.out;
}
