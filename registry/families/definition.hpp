// The family of puzzles read from a definition file (.tws, KPuzzle JSON): a family header
// names one puzzle type with its encoders and heuristics (registry/family.hpp) and includes
// their headers alone, so that the unit the build compiles this family's solvers in reads no
// other family (registry/families.hpp).
#pragma once

#include "encoders/definition_coordinate.hpp"
#include "encoders/definition_packed.hpp"
#include "heuristics/definition_pdb.hpp"
#include "puzzles/definition_puzzle.hpp"
#include "registry/family.hpp"

namespace searchbench {
using DefinitionFamily = Family<DefinitionPuzzle, DefinitionPacked, DefinitionCoordinate>::WithHeuristics<DefinitionPdb>;
}  // namespace searchbench
