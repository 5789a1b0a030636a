// The exact judge front ends (Sicily 1151, Sicily 1515, USACO msquare, FZU 1603): each
// reads a whole input and returns the whole output, or throws JudgeInputError with the input
// line number and the answers to the cases before the bad one. The CLI wires them to stdin
// and stdout; the tests and benchmarks call them directly.
#pragma once

#include <string>
#include <string_view>

#include "core/errors.hpp"

namespace searchbench {

// Bad judge input: what() names the line; `answered` holds the output for the cases read
// before it, which the CLI prints before the error line.
struct JudgeInputError : InputError {
  JudgeInputError(const std::string& message, std::string answers) : InputError(message), answered(std::move(answers)) {}
  std::string answered;
};

struct JudgeOptions {
  std::string engine;   // empty: the judge's measured default
  std::string encoder;  // empty: the judge's measured default
};

std::string judge_sicily(std::string_view input, bool sicily1515, const JudgeOptions& options = {});
std::string judge_msquare(std::string_view input, const JudgeOptions& options = {});
std::string judge_fzu1603(std::string_view input, const JudgeOptions& options = {});

// The judge names, in the order the help lists them.
inline constexpr std::string_view kJudgeNames[] = {"sicily1151", "sicily1515", "msquare", "fzu1603"};

// Checks the judge name and the engine/encoder choice before any input is read; throws
// InputError naming the problem.
void validate_judge(std::string_view name, const JudgeOptions& options);

// Dispatch by judge name: sicily1151 | sicily1515 | msquare | fzu1603.
std::string run_judge(std::string_view name, std::string_view input, const JudgeOptions& options = {});

}  // namespace searchbench
