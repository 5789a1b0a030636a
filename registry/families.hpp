// The family list: every puzzle family the suite runs, one family type to a line, in the
// order `list` shows them (the first family's puzzle is the default puzzle).
// Each family is defined in a header of its own under registry/families/: its puzzle type,
// its encoders (the last that fits is the default, so the perfect ranking goes last) and
// its heuristics, with the #includes of that family alone. The build compiles each
// family's solvers in a translation unit of its own that includes only that header
// (cmake/searchbench_core.cmake reads the lines below and finds the header among the
// #includes here that declares each type), so a family added, or one family's headers
// changed, rebuilds that family's unit and what includes this list, not every family.
// Adding a family: its puzzle, encoder and heuristic files, its header in
// registry/families/, and here its #include and its type on a line of its own.
#pragma once

#include "registry/families/checkers.hpp"
#include "registry/families/cube.hpp"
#include "registry/families/definition.hpp"
#include "registry/families/hanoi.hpp"
#include "registry/families/magic.hpp"
#include "registry/families/pancake.hpp"
#include "registry/families/tiles.hpp"
#include "registry/family.hpp"

namespace searchbench {

using BuiltinFamilies = FamilyList<
    MagicFamily,
    CheckersFamily,
    TilesFamily,
    PancakeFamily,
    CubeFamily,
    HanoiFamily,
    DefinitionFamily>;

}  // namespace searchbench

// A build may name a list of its own that defines AllFamilies in the same shape, with the
// family headers it includes (the test tree's plug-in test builds a family that exists only
// there).
#ifdef SEARCHBENCH_FAMILY_LIST
#include SEARCHBENCH_FAMILY_LIST
#else
namespace searchbench {
using AllFamilies = BuiltinFamilies;
}  // namespace searchbench
#endif
