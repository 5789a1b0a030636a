// Heuristic `pdb` of the pocket cube: pattern databases over some corners' positions and
// twists (heuristics/cube_pattern_space.hpp), h = the largest entry over the patterns.
// Admissible and consistent: each pattern's abstraction is a homomorphism of the cube with
// the same unit-cost moves (half turns included under cube2-htm), so each entry is a
// consistent lower bound, and so is the largest of them. Not additive: a turn moves four
// corners at once.
//
// --pattern: corner names (URF UFL ULB UBR DFR DLF DRB; DBL never moves) split by ',' and
// '/', 1 to 6 corners a pattern. Default: URF,UFL,ULB,UBR,DFR/UFL,ULB,DFR,DLF,DRB, two
// 5-corner databases of 612,360 entries each (the U layer and DFR, and the D layer with
// UFL and ULB). Six corners would be the exact distances (3,674,160 entries).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/heuristic_capabilities.hpp"
#include "core/errors.hpp"
#include "core/search_options.hpp"
#include "heuristics/cube_pattern_space.hpp"
#include "heuristics/pattern_database.hpp"
#include "heuristics/pdb_file.hpp"
#include "heuristics/pdb_options.hpp"
#include "puzzles/pocket_cube.hpp"

namespace searchbench {

inline constexpr std::array<std::string_view, PocketCube::kMoving> kCubeCornerNames = {"URF", "UFL", "ULB", "UBR",
                                                                                      "DFR", "DLF", "DRB"};

inline std::vector<std::vector<int>> cube_patterns(const std::string& option) {
  const std::string text = option.empty() ? "URF,UFL,ULB,UBR,DFR/UFL,ULB,DFR,DLF,DRB" : option;
  std::vector<std::vector<int>> patterns;
  for (const auto& members : split_pattern_list(text)) {
    patterns.emplace_back();
    for (const auto& m : members) {
      const auto at = std::find(kCubeCornerNames.begin(), kCubeCornerNames.end(), m);
      if (at == kCubeCornerNames.end())
        throw InputError("--pattern '" + option + "': '" + m + "' is not a moving corner (URF UFL ULB UBR DFR DLF DRB)");
      const int corner = static_cast<int>(at - kCubeCornerNames.begin());
      if (std::find(patterns.back().begin(), patterns.back().end(), corner) != patterns.back().end())
        throw InputError("--pattern '" + option + "': corner " + m + " appears twice in one pattern");
      patterns.back().push_back(corner);
    }
    if (patterns.back().size() > CubePatternSpace::kMaxCorners)
      throw InputError("--pattern '" + option + "': a pattern holds at most 6 corners (the seventh follows from them)");
    std::sort(patterns.back().begin(), patterns.back().end());
  }
  return patterns;
}

class CubePdb {
 public:
  static constexpr std::string_view kName = "pdb";
  static constexpr std::string_view kSummary = "pattern databases over some corners' positions and twists, the largest entry";
  static constexpr HeuristicCapabilities kCapabilities{.consistent = true, .build_note = true};
  using Options = PdbOptions;
  using State = PocketCubeState;

  static std::string fits(const PocketCube&) { return {}; }

  CubePdb(const PocketCube& cube, const State& target, const Options& options, const SearchOptions& search) {
    for (const auto& corners : cube_patterns(options.pattern)) {
      std::string names;
      for (const int c : corners) append_listed(names, ",", kCubeCornerNames[c]);
      const CubePatternSpace space(cube, corners, target);
      const CubePatternRank rank(space);
      const PdbFileKey key{cube.name(), std::string(kName), names, cube.format(target), rank.key_bound()};
      tables_.add(corners, rank, options.pdb_cache, key, search.memory,
                  [&] { return direct_pdb_table(space, rank, search, "the pattern database of corners " + names); });
    }
  }

  int estimate(const State& s) const {
    std::array<std::uint8_t, 8> position, twist;
    for (int p = 0; p < PocketCube::kMoving; ++p) {
      position[s.corner[p]] = static_cast<std::uint8_t>(p);
      twist[s.corner[p]] = s.twist[p];
    }
    return tables_.largest([&](const auto& t) {
      std::array<std::uint8_t, 8> at, tw;
      for (std::size_t i = 0; i < t.members.size(); ++i) {
        at[i] = position[t.members[i]];
        tw[i] = twist[t.members[i]];
      }
      return t.rank.rank_positions(at.data()) * t.rank.twist_count() + t.rank.twist_code(tw.data());
    });
  }
  std::uint64_t bytes() const { return tables_.bytes(); }
  std::string build_note() const { return tables_.note(); }

 private:
  MaxedPdbTables<CubePatternRank> tables_;  // members: the pattern's corners
};

}  // namespace searchbench
