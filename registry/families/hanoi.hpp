// The four-peg Towers of Hanoi's family: a family header names one puzzle type with its
// encoders and heuristics (registry/family.hpp) and includes their headers alone, so that the
// unit the build compiles this family's solvers in reads no other family
// (registry/families.hpp). No heuristic but `blind`, which every family has.
#pragma once

#include "encoders/hanoi_masks.hpp"
#include "encoders/hanoi_pegs.hpp"
#include "puzzles/hanoi4.hpp"
#include "registry/family.hpp"

namespace searchbench {
using HanoiFamily = Family<Hanoi4, HanoiMasks, HanoiPegs>;
}  // namespace searchbench
