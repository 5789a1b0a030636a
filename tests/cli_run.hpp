// The searchbench executable run as a user runs it, for the tests that drive the front end:
// its exit status, stdout and stderr, and the one-line refusal every bad request gets.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

namespace searchbench_tests {

struct Outcome {
  int status = -1;
  std::string out, err;
};

inline std::string slurp(const std::string& path) {
  std::ifstream f(path);
  return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

// Runs the executable `exe` with `args`, feeding `input` on stdin; a 20 s limit catches hangs.
// `stdout_to` replaces the capture of stdout (e.g. ">/dev/full" or ">&-"), `stdin_from` the
// input (e.g. "<&-"), and `setup` runs in the shell first (e.g. "ulimit -v 400000;").
inline Outcome run_program(const std::string& exe, const std::string& args, const std::string& input = "",
                           const std::string& stdout_to = "", const std::string& stdin_from = "", const std::string& setup = "") {
  // Unique names: ctest runs these tests as parallel processes sharing one temp folder.
  static int call = 0;
  const std::string base = ::testing::TempDir() + "/searchbench_cli_" + std::to_string(getpid()) + "_" + std::to_string(++call);
  const std::string in = base + ".in", out = base + ".out", err = base + ".err";
  std::ofstream(in) << input;
  const std::string cmd = setup + "timeout 20 " + exe + " " + args + " " + (stdin_from.empty() ? "<" + in : stdin_from) + " " +
                          (stdout_to.empty() ? ">" + out : stdout_to) + " 2>" + err;
  const int raw = std::system(cmd.c_str());
  Outcome o;
  o.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  o.out = slurp(out);
  o.err = slurp(err);
  for (const auto& f : {in, out, err}) std::remove(f.c_str());
  return o;
}

// The searchbench executable, as run_program.
inline Outcome run(const std::string& args, const std::string& input = "", const std::string& stdout_to = "",
                   const std::string& stdin_from = "", const std::string& setup = "") {
  return run_program(SEARCHBENCH_EXE, args, input, stdout_to, stdin_from, setup);
}

// The value on a key-value line (run --format keys) for `field` (the JSON name), or "" when missing.
inline std::string field(const std::string& text, const std::string& name) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(name + " ", 0) != 0) continue;
    const auto value = line.find_first_not_of(' ', name.size());
    return value == std::string::npos ? "" : line.substr(value);
  }
  return "";
}

// The blank-separated words of a line.
inline std::vector<std::string> words(const std::string& line) {
  std::istringstream in(line);
  return {std::istream_iterator<std::string>(in), std::istream_iterator<std::string>()};
}

// One clear line on stderr, a non-zero status below 128 (never a crash or a timeout).
inline void expect_refused(const Outcome& o, const std::string& args, const std::string& fragment) {
  EXPECT_GT(o.status, 0) << args;
  EXPECT_LT(o.status, 124) << args << " (124 = hang, >128 = crash)";
  EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << args << ": " << o.err;
  EXPECT_NE(o.err.find(fragment), std::string::npos) << args << ": stderr was: " << o.err;
  EXPECT_EQ(o.err.rfind("searchbench: ", 0), 0u) << o.err;
}
inline void expect_refusal(const std::string& args, const std::string& fragment, const std::string& input = "") {
  expect_refused(run(args, input), args, fragment);
}

}  // namespace searchbench_tests
