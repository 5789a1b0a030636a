// The family list: one line per puzzle family, naming its puzzle type and its encoders
// (the last encoder that fits is the default, so list the family's perfect ranking last).
// Adding a family: its puzzle and encoder files, their #includes and one line here; the
// build compiles each family's solvers in a translation unit of its own (CMakeLists.txt
// counts the lines that start with `Family<`, so keep one family to a line).
#pragma once

#include "encoders/checkers_bitpack.hpp"
#include "encoders/checkers_combinatorial.hpp"
#include "encoders/checkers_decimal.hpp"
#include "encoders/checkers_maskhole.hpp"
#include "encoders/cube_bitpack.hpp"
#include "encoders/cube_coordinate.hpp"
#include "encoders/definition_coordinate.hpp"
#include "encoders/definition_packed.hpp"
#include "encoders/hanoi_masks.hpp"
#include "encoders/hanoi_pegs.hpp"
#include "encoders/magic_bitpack.hpp"
#include "encoders/magic_bitpack_implied.hpp"
#include "encoders/magic_cantor.hpp"
#include "encoders/magic_decimal.hpp"
#include "encoders/pancake_cantor.hpp"
#include "encoders/permutation_nibbles.hpp"
#include "encoders/tiles_blank_low.hpp"
#include "encoders/tiles_cantor.hpp"
#include "heuristics/checkers_displacement.hpp"
#include "heuristics/cube_pdb.hpp"
#include "heuristics/definition_pdb.hpp"
#include "heuristics/magic_pdb.hpp"
#include "heuristics/pancake_gap.hpp"
#include "heuristics/tiles_linear_conflict.hpp"
#include "heuristics/tiles_manhattan.hpp"
#include "heuristics/tiles_pdb.hpp"
#include "puzzles/checkers_line.hpp"
#include "puzzles/definition_puzzle.hpp"
#include "puzzles/hanoi4.hpp"
#include "puzzles/magic_board.hpp"
#include "puzzles/pancake_stack.hpp"
#include "puzzles/pocket_cube.hpp"
#include "puzzles/sliding_tiles.hpp"
#include "registry/family.hpp"

namespace searchbench {

using BuiltinFamilies = FamilyList<
    Family<MagicBoard, MagicDecimal, MagicBitpack, MagicBitpackImplied, MagicCantor>::WithHeuristics<MagicPdb>,
    Family<CheckersLine, CheckersDecimal, CheckersBitpack, CheckersMaskHole, CheckersCombinatorial>::WithHeuristics<CheckersDisplacement>,
    Family<SlidingTiles, PermutationNibbles<SlidingTiles>, TilesCantor, TilesBlankLow>::WithHeuristics<TilesManhattan, TilesLinearConflict, TilesPdb>,
    Family<PancakeStack, PermutationNibbles<PancakeStack>, PancakeCantor>::WithHeuristics<PancakeGap>,
    Family<PocketCube, CubeBitpack, CubeCoordinate>::WithHeuristics<CubePdb>,
    Family<Hanoi4, HanoiMasks, HanoiPegs>,
    Family<DefinitionPuzzle, DefinitionPacked, DefinitionCoordinate>::WithHeuristics<DefinitionPdb>>;

}  // namespace searchbench

// A build may name a header of its own that defines AllFamilies, one family to a line as
// here (the test tree's plug-in test builds a family that exists only there).
#ifdef SEARCHBENCH_FAMILY_LIST
#include SEARCHBENCH_FAMILY_LIST
#else
namespace searchbench {
using AllFamilies = BuiltinFamilies;
}  // namespace searchbench
#endif
