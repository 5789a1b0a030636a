// What `run` prints for people (its default, --format text): a few labelled lines read from
// the JSON object run builds (RunCommand::report), so that the summary and the JSON never
// disagree and a field added to the JSON needs no second code path. Every figure has its
// unit; the JSON (--format json) and the key-value lines (--format keys) keep everything.
//
//   result    40,320 states, radius 22
//   time      1.234 ms median of 5 runs (1.201 ms to 1.310 ms), after 1 warm-up run
//   rate      32.7 M states/s
//   memory    10.1 KiB search structures at peak, 12.3 MiB process peak RSS
//   settings  msquare, engine ring, encoder cantor, 1 thread
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "cli/common.hpp"

namespace searchbench::cli {

// The summary's lines, each "label     text" (no newline).
std::vector<std::string> run_summary(const Json& run);

// The summary on `out`, then the one line that says where the rest is.
void print_run_summary(const Json& run, std::FILE* out = stdout);

}  // namespace searchbench::cli
