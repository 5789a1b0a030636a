// The checkers line's family: a family header names one puzzle type with its encoders and
// heuristics (registry/family.hpp) and includes their headers alone, so that the unit the
// build compiles this family's solvers in reads no other family (registry/families.hpp).
#pragma once

#include "encoders/checkers_bitpack.hpp"
#include "encoders/checkers_combinatorial.hpp"
#include "encoders/checkers_decimal.hpp"
#include "encoders/checkers_maskhole.hpp"
#include "heuristics/checkers_displacement.hpp"
#include "puzzles/checkers_line.hpp"
#include "registry/family.hpp"

namespace searchbench {
using CheckersFamily =
    Family<CheckersLine, CheckersDecimal, CheckersBitpack, CheckersMaskHole, CheckersCombinatorial>::WithHeuristics<CheckersDisplacement>;
}  // namespace searchbench
