// The magic board's family: a family header names one puzzle type with its encoders and
// heuristics (registry/family.hpp) and includes their headers alone, so that the unit the
// build compiles this family's solvers in reads no other family (registry/families.hpp).
#pragma once

#include "encoders/magic_bitpack.hpp"
#include "encoders/magic_bitpack_implied.hpp"
#include "encoders/magic_cantor.hpp"
#include "encoders/magic_decimal.hpp"
#include "heuristics/magic_pdb.hpp"
#include "puzzles/magic_board.hpp"
#include "registry/family.hpp"

namespace searchbench {
using MagicFamily = Family<MagicBoard, MagicDecimal, MagicBitpack, MagicBitpackImplied, MagicCantor>::WithHeuristics<MagicPdb>;
}  // namespace searchbench
