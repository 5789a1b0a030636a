// A judge's input read whole from stdin and its exact output written to stdout.
#pragma once

#include <string_view>

#include "judges/judges.hpp"

namespace searchbench::cli {

// Checks the judge (and the registry's choice) before stdin is read, then answers stdin on
// stdout. A bad case: the answers before it are printed and flushed, then JudgeInputError
// (an InputError naming the line) propagates; OutputError when stdout cannot be written.
void answer_judge_on_stdio(std::string_view name, const JudgeRegistry* registry);

}  // namespace searchbench::cli
