// `list`, the help texts and the version: what the registry holds reaches them all, and every
// JSON object says where and how it was made (its context).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <ctime>
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
#include "registry/registry.hpp"

namespace {

using searchbench_tests::expect_refusal;
using searchbench_tests::expect_refused;
using searchbench_tests::Outcome;
using searchbench_tests::run;
using searchbench_tests::words;

}  // namespace

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

TEST(Cli, HelpOnEveryCommand) {
  for (const char* cmd : {"--help", "run --help", "compare --help", "list --help", "judge --help", "export --help"}) {
    const Outcome o = run(cmd);
    EXPECT_EQ(o.status, 0) << cmd;
    EXPECT_NE(o.out.find("Usage"), std::string::npos) << cmd;
  }
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
