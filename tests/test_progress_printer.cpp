// cli/progress.hpp's two styles on a file: a log's line per event, and a terminal's one line
// redrawn in place at most every ProgressPrinter::kRedrawSeconds, ended by finish().
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "cli/progress.hpp"

namespace {

using searchbench::ProgressEvent;
using searchbench::cli::ProgressPrinter;

ProgressEvent depth_done(int depth, std::uint64_t reached) {
  ProgressEvent e;
  e.depth = depth;
  e.new_states = 1;
  e.reached = reached;
  e.seconds = 0.001 * depth;
  return e;
}

std::string contents(std::FILE* f) {
  std::string out(static_cast<std::size_t>(std::ftell(f)), '\0');
  std::rewind(f);
  out.resize(std::fread(out.data(), 1, out.size(), f));
  return out;
}

}  // namespace

TEST(ProgressPrinter, ALogGetsALinePerEvent) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  {
    ProgressPrinter printer(100, f, ProgressPrinter::Style::lines);
    for (int d = 1; d <= 3; ++d) printer.print(depth_done(d, 10u * static_cast<std::uint64_t>(d)));
    printer.finish();
  }
  const std::string out = contents(f);
  std::fclose(f);
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 3) << out;
  EXPECT_EQ(out.find('\r'), std::string::npos) << out;
  EXPECT_EQ(out.rfind("depth   1  new            1   10.0%", 0), 0u) << out;
}

// Events faster than the redraw interval: the first is drawn, the newest waits for finish(),
// which draws it and ends the line; a second finish() adds nothing.
TEST(ProgressPrinter, ATerminalGetsOneLineRedrawnInPlace) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  ProgressPrinter printer(100, f, ProgressPrinter::Style::redrawn);
  for (int d = 1; d <= 5; ++d) printer.print(depth_done(d, 20u * static_cast<std::uint64_t>(d)));
  printer.finish();
  printer.finish();
  const std::string out = contents(f);
  std::fclose(f);
  EXPECT_EQ(out, "\rdepth 1  20.0%  20.0 k states/s  elapsed 0.0 s\033[K\rdepth 5  100.0%  20.0 k states/s  elapsed 0.0 s\033[K\n")
      << out;
}
