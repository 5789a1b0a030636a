// The exact judge front ends (Sicily 1151, Sicily 1515, USACO msquare, FZU 1603): each
// reads a whole input and returns the whole output, or throws JudgeInputError with the input
// line number and the answers to the cases before the bad one. The CLI wires them to stdin
// and stdout; the tests and benchmarks call them directly.
//
// This file and judges/judges.cpp need nothing of the registry: without one, a judge answers
// with its own searches (the path table, the meeting search), which is all the statically
// linked searchbench-judge holds. The registry's engines and encoders (--engine, --encoder)
// come in through JudgeRegistry, which judges/registry_routes.hpp implements.
#pragma once

#include <memory>
#include <optional>
#include <span>
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

// What separates a judge input's tokens: the C locale's isspace, as the classic programs'
// scanf reads it. Every reader of judge input uses this one test, so that a fast reader and
// the general one split an input alike.
inline bool is_judge_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

// A judge's registry combination where --engine or --encoder leaves one out.
struct JudgeRoute {
  std::string_view engine, encoder;
};

// One registry combination answering a judge's cases from one start.
class RoutedSolver {
 public:
  virtual ~RoutedSolver() = default;
  // The lexicographically smallest shortest path (one letter a move) from the start to the
  // board written `target`; nullopt when it is unreachable. InputError for a bad board.
  virtual std::optional<std::string> path(std::string_view target) = 0;
};

// The registry behind --engine and --encoder (judges/registry_routes.hpp).
class JudgeRegistry {
 public:
  virtual ~JudgeRegistry() = default;
  // Throws InputError when the chosen engine or encoder is unknown, does not fit `puzzle`, or
  // cannot answer the judge: one that keeps no paths, or (where the judge prints paths,
  // `prints_paths`) one that may return another shortest path than the smallest.
  virtual void validate(std::string_view puzzle, JudgeRoute defaults, bool prints_paths) const = 0;
  // The combination for registry puzzle `puzzle` from `start` (nullopt: the puzzle's own).
  virtual std::unique_ptr<RoutedSolver> solver(std::string puzzle, std::optional<std::string> start, JudgeRoute defaults) const = 0;
};

// `registry` null: the judge's own searches.
std::string judge_sicily(std::string_view input, bool sicily1515, const JudgeRegistry* registry = nullptr);
std::string judge_msquare(std::string_view input, const JudgeRegistry* registry = nullptr);
std::string judge_fzu1603(std::string_view input, const JudgeRegistry* registry = nullptr);

struct JudgeInfo {
  std::string_view name;
  // Its input and output as `judge --help` describes them: wrapped lines, each after the
  // first indented to line up under the first (judge_formats()).
  std::string_view format;
};
// Every judge, in the order the help lists them.
std::span<const JudgeInfo> judges();
// The judge names joined by `separator`, the last two by `last` (default: `separator`):
// judge_names(" | ") is "sicily1151 | sicily1515 | msquare | fzu1603".
std::string judge_names(std::string_view separator, std::string_view last = {});
// `judge --help`'s footer: every judge's format, then what a bad case prints.
std::string judge_formats();

// Checks the judge name, and with a registry its engine/encoder choice, before any input is
// read; throws InputError naming the problem.
void validate_judge(std::string_view name, const JudgeRegistry* registry);

// Dispatch by judge name (one of judges()); `registry` null: the judge's own searches.
std::string run_judge(std::string_view name, std::string_view input, const JudgeRegistry* registry);

}  // namespace searchbench
