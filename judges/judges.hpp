// The exact judge front ends (Sicily 1151, Sicily 1515, USACO msquare, FZU 1603): each
// reads a whole input and returns the whole output, or throws InputError with the input
// line number. The CLI wires them to stdin and stdout; the tests and benchmarks call them
// directly.
#pragma once

#include <string>
#include <string_view>

namespace searchbench {

struct JudgeOptions {
  std::string engine;   // empty: the judge's measured default
  std::string encoder;  // empty: the judge's measured default
};

std::string judge_sicily(std::string_view input, bool sicily1515, const JudgeOptions& options = {});
std::string judge_msquare(std::string_view input, const JudgeOptions& options = {});
std::string judge_fzu1603(std::string_view input, const JudgeOptions& options = {});

// Dispatch by judge name: sicily1151 | sicily1515 | msquare | fzu1603.
std::string run_judge(std::string_view name, std::string_view input, const JudgeOptions& options = {});

}  // namespace searchbench
