// The sliding tiles' family: a family header names one puzzle type with its encoders and
// heuristics (registry/family.hpp) and includes their headers alone, so that the unit the
// build compiles this family's solvers in reads no other family (registry/families.hpp).
#pragma once

#include "encoders/permutation_nibbles.hpp"
#include "encoders/tiles_blank_low.hpp"
#include "encoders/tiles_cantor.hpp"
#include "heuristics/tiles_linear_conflict.hpp"
#include "heuristics/tiles_manhattan.hpp"
#include "heuristics/tiles_pdb.hpp"
#include "puzzles/sliding_tiles.hpp"
#include "registry/family.hpp"

namespace searchbench {
using TilesFamily = Family<SlidingTiles, PermutationNibbles<SlidingTiles>, TilesCantor, TilesBlankLow>::WithHeuristics<
    TilesManhattan, TilesLinearConflict, TilesPdb>;
}  // namespace searchbench
