// The pancake stack's family: a family header names one puzzle type with its encoders and
// heuristics (registry/family.hpp) and includes their headers alone, so that the unit the
// build compiles this family's solvers in reads no other family (registry/families.hpp).
#pragma once

#include "encoders/pancake_cantor.hpp"
#include "encoders/permutation_nibbles.hpp"
#include "heuristics/pancake_gap.hpp"
#include "puzzles/pancake_stack.hpp"
#include "registry/family.hpp"

namespace searchbench {
using PancakeFamily = Family<PancakeStack, PermutationNibbles<PancakeStack>, PancakeCantor>::WithHeuristics<PancakeGap>;
}  // namespace searchbench
