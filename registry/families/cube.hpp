// The 2x2x2 cube's family: a family header names one puzzle type with its encoders and
// heuristics (registry/family.hpp) and includes their headers alone, so that the unit the
// build compiles this family's solvers in reads no other family (registry/families.hpp).
#pragma once

#include "encoders/cube_bitpack.hpp"
#include "encoders/cube_coordinate.hpp"
#include "heuristics/cube_pdb.hpp"
#include "puzzles/pocket_cube.hpp"
#include "registry/family.hpp"

namespace searchbench {
using CubeFamily = Family<PocketCube, CubeBitpack, CubeCoordinate>::WithHeuristics<CubePdb>;
}  // namespace searchbench
