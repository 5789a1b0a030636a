// The judges' inputs the benchmarks time (bench_search's judge/ cases): for Sicily 1151, one
// input asking for every one of the 40,320 boards, answered from one BFS table.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace searchbench {

struct JudgeWorkload {
  std::string judge;                 // the judge's name (judges/judges.hpp)
  std::string puzzle;                // the puzzle its cases are on
  std::string set;                   // the benchmark's last name field: "all-40320"
  std::vector<std::string> engines;  // the engines it is timed with (each with every encoder that fits)
};
std::vector<JudgeWorkload> judge_workloads();

struct JudgeInput {
  std::string text;
  std::size_t cases = 0;
};
// The workload's whole input, made once and kept: a benchmark runs once per repetition (and
// more while the library sizes the iteration count), and drawing the boards again each
// time would cost more than the judge it times.
const JudgeInput& judge_input(const JudgeWorkload& workload);

}  // namespace searchbench
