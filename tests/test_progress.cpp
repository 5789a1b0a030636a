// `run --progress` and `depth_seconds`, end to end: the percentage of the component reached
// on every line, an ETA that holds at half-way on a real run, heartbeats inside long depths,
// and one time per depth in the JSON. Plus the estimator of cli/progress.hpp on made-up runs.
//
// The executable is SEARCHBENCH_EXE, or $PROGRESS_TESTS_EXE when set (to run these checks
// against another build of it).
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <numeric>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/progress.hpp"
#include "registry/registry.hpp"

namespace {

using Clock = std::chrono::steady_clock;

std::string exe() {
  const char* other = std::getenv("PROGRESS_TESTS_EXE");
  return other && *other ? other : SEARCHBENCH_EXE;
}

struct Line {
  double at = 0;  // seconds after the process started, as the line arrived
  std::string text;
};

struct Outcome {
  int status = -1;
  double wall = 0;  // seconds from start to exit
  std::string out;
  std::vector<Line> err;
  std::string err_text() const {
    std::string all;
    for (const auto& l : err) all += l.text + "\n";
    return all;
  }
};

// Runs the executable with `args` (and `env` added to the environment), reading stderr line
// by line as it arrives, each line stamped with its arrival time; stdout is kept whole.
// Killed after `limit` seconds.
Outcome run(const std::vector<std::string>& args, const std::vector<std::pair<std::string, std::string>>& env = {},
            double limit = 120) {
  int out_pipe[2], err_pipe[2];
  if (::pipe(out_pipe) != 0 || ::pipe(err_pipe) != 0) return {};
  const auto started = Clock::now();
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(out_pipe[1], 1);
    ::dup2(err_pipe[1], 2);
    for (int fd : {out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]}) ::close(fd);
    for (const auto& [name, value] : env) ::setenv(name.c_str(), value.c_str(), 1);
    const std::string path = exe();
    std::vector<char*> argv{const_cast<char*>(path.c_str())};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(path.c_str(), argv.data());
    ::_exit(127);
  }
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  Outcome o;
  std::string partial;
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  const auto seconds = [&] { return std::chrono::duration<double>(Clock::now() - started).count(); };
  for (int open = 2; open > 0;) {
    if (seconds() > limit) {
      ::kill(pid, SIGKILL);
      break;
    }
    if (::poll(fds, 2, 200) <= 0) continue;
    for (auto& p : fds) {
      if (p.fd < 0 || !(p.revents & (POLLIN | POLLHUP))) continue;
      char buf[4096];
      const ssize_t got = ::read(p.fd, buf, sizeof buf);
      if (got <= 0) {
        ::close(p.fd);
        p.fd = -1;
        --open;
        continue;
      }
      if (p.fd == out_pipe[0]) {
        o.out.append(buf, static_cast<std::size_t>(got));
        continue;
      }
      const double now = seconds();
      partial.append(buf, static_cast<std::size_t>(got));
      for (std::size_t nl; (nl = partial.find('\n')) != std::string::npos; partial.erase(0, nl + 1))
        o.err.push_back({now, partial.substr(0, nl)});
    }
  }
  for (auto& p : fds)
    if (p.fd >= 0) ::close(p.fd);
  int raw = 0;
  ::waitpid(pid, &raw, 0);
  o.wall = seconds();
  o.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  if (!partial.empty()) o.err.push_back({o.wall, partial});
  return o;
}

// What a progress line says.
struct Progress {
  bool done = false, heartbeat = false;
  int depth = -1;
  std::uint64_t count = 0;  // new (done) or found so far (heartbeat)
  std::optional<double> percent, elapsed, eta;
};

Progress parse(const std::string& text) {
  Progress p;
  std::smatch m;
  if (std::regex_search(text, m, std::regex(R"(^depth\s+(\d+)\s+new\s+(\d+))"))) {
    p.done = true;
    p.depth = std::stoi(m[1]);
    p.count = std::stoull(m[2]);
  } else if (std::regex_search(text, m, std::regex(R"(^depth\s+(\d+)\s+in progress.*found\s+(\d+))"))) {
    p.heartbeat = true;
    p.depth = std::stoi(m[1]);
    p.count = std::stoull(m[2]);
  }
  if (std::regex_search(text, m, std::regex(R"(\s(\d+\.\d)%)"))) p.percent = std::stod(m[1]);
  if (std::regex_search(text, m, std::regex(R"(elapsed\s+([0-9.]+) s)"))) p.elapsed = std::stod(m[1]);
  if (std::regex_search(text, m, std::regex(R"(ETA ~([0-9.]+) s)"))) p.eta = std::stod(m[1]);
  return p;
}

nlohmann::json json_of(const Outcome& o) { return nlohmann::json::parse(o.out, nullptr, false); }

// Every whole-space engine with a space of 40,320 states it runs on: msquare-2x4, or the
// pancake stack of 8 for an engine that cannot run on it (frontier needs inverse moves).
std::vector<std::pair<std::string, std::string>> whole_space_engines() {
  std::vector<std::pair<std::string, std::string>> cases;
  for (const auto& e : searchbench::engines()) {
    if (!e.whole_space) continue;
    const bool fits = !searchbench::applicable_encoders(searchbench::parse_puzzle("msquare-2x4"), e.name).empty();
    cases.emplace_back(std::string(e.name), fits ? "msquare-2x4" : "pancake-8");
  }
  return cases;
}

}  // namespace

// Every line of every whole-space engine: the share of the component reached so far,
// rounded down to a tenth (the true count, checked against the depths), 100.0% on the last
// line of a whole-space run and on no line before it.
TEST(Progress, PercentageOfTheComponentOnEveryLine) {
  for (const auto& [engine, puzzle] : whole_space_engines()) {
    const Outcome o = run({"run", "--puzzle", puzzle, "--engine", engine, "--progress", "--json"});
    ASSERT_EQ(o.status, 0) << engine << ": " << o.err_text();
    const auto counts = json_of(o)["depth_counts"].get<std::vector<std::uint64_t>>();
    const std::uint64_t total = std::accumulate(counts.begin(), counts.end(), std::uint64_t{0});
    ASSERT_EQ(total, 40320u);
    std::uint64_t reached = 1;
    int lines = 0;
    for (const Line& l : o.err) {
      const Progress p = parse(l.text);
      ASSERT_TRUE(p.done) << engine << ": " << l.text;
      ASSERT_TRUE(p.percent) << engine << ": no percentage in: " << l.text;
      reached += p.count;
      EXPECT_DOUBLE_EQ(*p.percent, static_cast<double>(reached * 1000 / total) / 10.0) << engine << ": " << l.text;
      if (++lines < static_cast<int>(counts.size()) - 1) {
        EXPECT_LT(*p.percent, 100.0) << engine << ": " << l.text;
      }
    }
    ASSERT_EQ(lines, static_cast<int>(counts.size()) - 1) << engine;
    EXPECT_EQ(parse(o.err.back().text).percent, 100.0) << engine << ": " << o.err.back().text;
  }
  // Cut short, a run stays below the whole.
  const Outcome cut = run({"run", "--puzzle", "msquare-2x4", "--engine", "parallel", "--max-depth", "10", "--progress"});
  ASSERT_EQ(cut.status, 0) << cut.err_text();
  ASSERT_FALSE(cut.err.empty());
  EXPECT_LT(*parse(cut.err.back().text).percent, 100.0) << cut.err.back().text;
}

// The ETA against the truth: msquare-2x6 (479,001,600 states) on the parallel engine with two
// threads, 14-25 s on a 2-core machine. At the first line whose percentage reaches half of
// the component (a depth's line or a heartbeat), the ETA must be within a factor 2 of the
// time the process really still took (its exit less that line's arrival). BFS levels are
// lumpy, the widest at the middle, and the depths after half-way shrink while their
// frontiers stay wide: a rate of states reached alone would say about 0.6 of the truth.
// Also on every line: no ETA under 1% or 1 s, and none above elapsed * total / reached.
// The truth is wall time on a machine other jobs share: a run whose load changed a lot
// after half-way (a build starting or ending) gets one more try, both runs reported.
TEST(Progress, EtaWithinTwiceTheTruthAtHalfWay) {
  std::string report;
  for (int attempt = 1; attempt <= 2; ++attempt) {
    const Outcome o = run({"run", "--puzzle", "msquare-2x6", "--engine", "parallel", "--threads", "2", "--progress", "--json"});
    ASSERT_EQ(o.status, 0) << o.err_text();
    std::optional<double> ratio;
    for (const Line& l : o.err) {
      const Progress p = parse(l.text);
      ASSERT_TRUE(p.percent && p.elapsed) << l.text;
      if (*p.percent < 1.0 || *p.elapsed < 1.0) {
        EXPECT_FALSE(p.eta) << "an ETA too early: " << l.text;
      }
      if (p.eta && *p.percent > 0) {
        EXPECT_LE(*p.eta, *p.elapsed * 100.0 / *p.percent + 0.5) << l.text;
      }
      if (ratio || *p.percent < 50.0) continue;
      ASSERT_TRUE(p.eta) << "no ETA at half-way: " << l.text << "\n" << o.err_text();
      const double truth = o.wall - l.at;
      ratio = *p.eta / truth;
      report += "run " + std::to_string(attempt) + " (" + std::to_string(o.wall) + " s): ETA " + std::to_string(*p.eta) +
                " s against " + std::to_string(truth) + " s still taken, ratio " + std::to_string(*ratio) + ", at: " + l.text + "\n";
    }
    ASSERT_TRUE(ratio) << "no line reached half-way:\n" << o.err_text();
    if (*ratio >= 0.5 && *ratio <= 2.0) break;
    report += o.err_text() + "exit after " + std::to_string(o.wall) + " s\n";
    EXPECT_LT(attempt, 2) << report;
  }
  std::cout << "[ half-way: " << report << "]\n";
}

// A heartbeat inside a long depth: the out-of-core engine on msquare-2x5 in two segments with
// one state in memory at first (every depth a pass over the segments), heartbeats every
// 0.01 s (SEARCHBENCH_HEARTBEAT_SECONDS): lines saying "in progress" and the segment,
// between the line of the depth before and that of its own depth, their count no more than
// the depth's; the depth lines still one per depth and the counts those of the JSON.
TEST(Progress, HeartbeatInsideALongDepth) {
  struct Case {
    std::vector<std::string> args;
    std::string detail;
  };
  const std::vector<Case> cases = {
      {{"--engine", "external", "--max-memory", "1M", "--seed-keys", "0"}, "segment "},
      {{"--engine", "parallel", "--threads", "2"}, "scan "},
      {{"--engine", "ring"}, "expanded"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = {"run", "--puzzle", "msquare-2x5", "--progress", "--json"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const std::string interval = c.args[1] == "external" ? "0.01" : "0.002";
    const Outcome o = run(args, {{"SEARCHBENCH_HEARTBEAT_SECONDS", interval}});
    ASSERT_EQ(o.status, 0) << c.args[1] << ": " << o.err_text();
    const auto counts = json_of(o)["depth_counts"].get<std::vector<std::uint64_t>>();
    std::vector<Progress> lines;
    for (const Line& l : o.err) lines.push_back(parse(l.text));
    int beats = 0, done = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      const Progress& p = lines[i];
      ASSERT_TRUE(p.done || p.heartbeat) << o.err[i].text;
      if (p.done) {
        ASSERT_EQ(p.depth, ++done) << o.err[i].text;
        EXPECT_EQ(p.count, counts.at(static_cast<std::size_t>(p.depth))) << o.err[i].text;
        continue;
      }
      ++beats;
      EXPECT_NE(o.err[i].text.find(c.detail), std::string::npos) << o.err[i].text;
      EXPECT_GE(p.depth, done) << "a heartbeat of a depth already done: " << o.err[i].text;
      std::size_t next = i + 1;
      while (next < lines.size() && !lines[next].done) ++next;
      ASSERT_LT(next, lines.size()) << "a heartbeat after the last depth: " << o.err[i].text;
      EXPECT_LE(p.depth, lines[next].depth) << o.err[i].text;
      if (p.depth == lines[next].depth) {
        EXPECT_LE(p.count, lines[next].count) << o.err[i].text;
      }
      EXPECT_LE(*p.elapsed, *lines[next].elapsed) << o.err[i].text;
    }
    EXPECT_EQ(done, static_cast<int>(counts.size()) - 1) << c.args[1];
    EXPECT_GT(beats, 0) << c.args[1] << ": no heartbeat at " << interval << " s:\n" << o.err_text();
  }
}

// Heartbeats keep to their interval: none within 0.1 s of the line before it (the default,
// 10 s, never shows on a run as short as these).
TEST(Progress, HeartbeatsKeepTheirInterval) {
  const Outcome o = run({"run", "--puzzle", "msquare-2x5", "--engine", "ring", "--progress"}, {{"SEARCHBENCH_HEARTBEAT_SECONDS", "0.1"}});
  ASSERT_EQ(o.status, 0) << o.err_text();
  double last = 0;
  for (const Line& l : o.err) {
    const Progress p = parse(l.text);
    if (p.heartbeat) {
      EXPECT_GE(*p.elapsed, last + 0.1 - 0.011) << l.text << "\n" << o.err_text();
    }
    last = *p.elapsed;
  }
  const Outcome quiet = run({"run", "--puzzle", "msquare-2x5", "--engine", "ring", "--progress"});
  ASSERT_EQ(quiet.status, 0) << quiet.err_text();
  for (const Line& l : quiet.err) EXPECT_TRUE(parse(l.text).done) << l.text;
  const Outcome bad = run({"run", "--puzzle", "msquare-2x3", "--progress"}, {{"SEARCHBENCH_HEARTBEAT_SECONDS", "soon"}});
  EXPECT_EQ(bad.status, 2);
  ASSERT_EQ(bad.err.size(), 1u) << bad.err_text();
  EXPECT_NE(bad.err[0].text.find("SEARCHBENCH_HEARTBEAT_SECONDS"), std::string::npos) << bad.err[0].text;
}

// scripts/long_run.py reads the depth lines with its PROGRESS pattern (taken from the script
// itself here): every depth line matches it with its depth, count and elapsed seconds, and
// no heartbeat does.
TEST(Progress, LongRunReadsTheDepthLinesAndSkipsHeartbeats) {
  std::ifstream script(std::string(SEARCHBENCH_SOURCE_DIR) + "/scripts/long_run.py");
  const std::string text((std::istreambuf_iterator<char>(script)), std::istreambuf_iterator<char>());
  std::smatch m;
  ASSERT_TRUE(std::regex_search(text, m, std::regex(R"~(PROGRESS = re\.compile\(r"([^"]+)"\))~"))) << "no PROGRESS in long_run.py";
  const std::regex pattern("^(?:" + m[1].str() + ")");
  const Outcome o = run({"run", "--puzzle", "msquare-2x5", "--engine", "external", "--max-memory", "1M", "--seed-keys", "0", "--progress"},
                        {{"SEARCHBENCH_HEARTBEAT_SECONDS", "0.01"}});
  ASSERT_EQ(o.status, 0) << o.err_text();
  int beats = 0;
  for (const Line& l : o.err) {
    const Progress p = parse(l.text);
    std::smatch got;
    const bool matched = std::regex_search(l.text, got, pattern);
    if (p.heartbeat) {
      ++beats;
      EXPECT_FALSE(matched) << l.text;
      continue;
    }
    ASSERT_TRUE(matched) << l.text;
    EXPECT_EQ(std::stoi(got[1]), p.depth);
    EXPECT_EQ(std::stoull(got[2]), p.count);
    EXPECT_DOUBLE_EQ(std::stod(got[3]), *p.elapsed);
  }
  EXPECT_GT(beats, 0);
}

// `depth_seconds`: one entry per entry of `depth_counts` for every whole-space engine, the
// seconds from the start of the run to the end of each depth: non-decreasing, within the
// run's own seconds.
TEST(Progress, DepthSecondsOnePerDepth) {
  for (const auto& [engine, puzzle] : whole_space_engines()) {
    const Outcome o = run({"run", "--puzzle", puzzle, "--engine", engine, "--json", "--quiet"});
    ASSERT_EQ(o.status, 0) << engine << ": " << o.err_text();
    const auto j = json_of(o);
    ASSERT_TRUE(j.contains("depth_seconds")) << engine << ": " << o.out;
    const auto& times = j["depth_seconds"];
    ASSERT_EQ(times.size(), j["depth_counts"].size()) << engine;
    double last = 0;
    for (const auto& t : times) {
      ASSERT_TRUE(t.is_number()) << engine << ": " << times.dump();
      EXPECT_GE(t.get<double>(), last) << engine << ": " << times.dump();
      last = t.get<double>();
    }
    EXPECT_LE(last, j["seconds"].get<double>()) << engine;
  }
}

// A resumed out-of-core run did not time the depths it found done: null for those (up to
// resumed_from), times for the rest; and a run that is only asked to print a finished
// folder's counts again timed none.
TEST(Progress, DepthSecondsOfAResumedRun) {
  const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / ("progress_resume_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::vector<std::string> base = {"run", "--puzzle", "msquare-2x4", "--engine", "external", "--max-memory", "1M", "--seed-keys", "0",
                                         "--workdir", dir.string(), "--json", "--quiet"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    return run(args);
  };
  const Outcome first = with({"--max-depth", "8"});
  ASSERT_EQ(first.status, 0) << first.err_text();
  const Outcome rest = with({"--resume"});
  ASSERT_EQ(rest.status, 0) << rest.err_text();
  const auto j = json_of(rest);
  const int from = j["resumed_from"].get<int>();
  ASSERT_GT(from, 0);
  const auto& times = j["depth_seconds"];
  ASSERT_EQ(times.size(), j["depth_counts"].size());
  double last = 0;
  for (std::size_t d = 0; d < times.size(); ++d) {
    if (static_cast<int>(d) < from) {
      EXPECT_TRUE(times[d].is_null()) << d << ": " << times.dump();
      continue;
    }
    ASSERT_TRUE(times[d].is_number()) << d << ": " << times.dump();
    EXPECT_GE(times[d].get<double>(), last);
    last = times[d].get<double>();
  }
  const Outcome again = with({"--resume"});
  ASSERT_EQ(again.status, 0) << again.err_text();
  for (const auto& t : json_of(again)["depth_seconds"]) EXPECT_TRUE(t.is_null()) << json_of(again)["depth_seconds"].dump();
  std::filesystem::remove_all(dir);
}

// The estimator on made-up runs (cli/progress.hpp).
namespace {
searchbench::ProgressEvent event(double seconds, std::uint64_t reached, std::uint64_t expanded) {
  searchbench::ProgressEvent e;
  e.seconds = seconds;
  e.reached = reached;
  e.expanded = expanded;
  return e;
}
}  // namespace

TEST(ProgressEstimator, SteadyWorkGivesTheExactTimeLeft) {
  searchbench::cli::EtaEstimator eta(1000000);
  // 10,000 units of work (reached + expanded) per second, from t = 0.
  for (int t = 1; t <= 50; ++t) eta.add(event(t, 5000u * static_cast<std::uint64_t>(t), 5000u * static_cast<std::uint64_t>(t)));
  ASSERT_TRUE(eta.eta());
  EXPECT_NEAR(*eta.eta(), (2e6 - 5e5) / 1e4, 1e-6);
  EXPECT_NEAR(eta.reached_rate(), 5000, 1e-6);
}

TEST(ProgressEstimator, NothingBeforeOnePercentOrOneSecond) {
  searchbench::cli::EtaEstimator eta(1000000);
  eta.add(event(0.5, 100, 0));
  eta.add(event(0.9, 50000, 10000));  // 5% but under 1 s
  EXPECT_FALSE(eta.eta());
  searchbench::cli::EtaEstimator slow(1000000);
  slow.add(event(1, 100, 0));
  slow.add(event(5, 9000, 1000));  // 5 s but under 1%
  EXPECT_FALSE(slow.eta());
  slow.add(event(6, 10000, 2000));
  EXPECT_TRUE(slow.eta());
}

// Slow first depths (fixed costs) do not count once the run is past the window; and the
// estimate never exceeds elapsed * total / reached (from the first event).
TEST(ProgressEstimator, RecentRateNotTheCumulativeOne) {
  searchbench::cli::EtaEstimator eta(100000000);
  eta.add(event(0.01, 1, 0));
  eta.add(event(100, 1000000, 1000000));  // 100 s for the first 2e6 units
  for (int t = 101; t <= 200; ++t)        // then 1e6 units a second
    eta.add(event(t, 1000000 + 500000u * static_cast<std::uint64_t>(t - 100), 1000000 + 500000u * static_cast<std::uint64_t>(t - 100)));
  ASSERT_TRUE(eta.eta());
  const double left = 2e8 - 2 * (1e6 + 5e5 * 100);
  EXPECT_NEAR(*eta.eta(), left / 1e6, 1.0);
  // A stall (little work for 60 s) slows the recent rate; the bound holds the estimate.
  eta.add(event(260, 51000000, 51000000));
  ASSERT_TRUE(eta.eta());
  EXPECT_NEAR(*eta.eta(), (260 - 0.01) * (1e8 - 1) / (51e6 - 1), 1e-6);
}

TEST(ProgressEstimator, ARepetitionStartsOver) {
  searchbench::cli::EtaEstimator eta(1000000);
  for (int t = 1; t <= 20; ++t) eta.add(event(t, 20000u * static_cast<std::uint64_t>(t), 20000u * static_cast<std::uint64_t>(t)));
  ASSERT_TRUE(eta.eta());
  eta.add(event(0.001, 3, 1));  // the next repetition's first depth
  EXPECT_FALSE(eta.eta());
}

TEST(ProgressEstimator, PercentIsRoundedDown) {
  searchbench::cli::ProgressPrinter printer(479001600);
  EXPECT_EQ(printer.percent_reached(479001600 - 48), 99.9);
  EXPECT_EQ(printer.percent_reached(479001600), 100.0);
  EXPECT_EQ(printer.percent_reached(0), 0.0);
  EXPECT_EQ(printer.percent_reached(239500800), 50.0);
}
