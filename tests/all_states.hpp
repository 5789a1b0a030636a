// Every state of a small puzzle's start component, as text, enumerated directly from the
// puzzle's definition (all permutations; all arrangements with the start's piece counts).
#pragma once

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "core/registry.hpp"
#include "puzzles/checkers_line.hpp"
#include "puzzles/magic_board.hpp"

namespace searchbench::testing_support {

inline std::vector<std::string> all_states(const std::string& puzzle_name) {
  const PuzzleSpec spec = parse_puzzle(puzzle_name);
  std::vector<std::string> out;
  if (spec.family == PuzzleFamily::magic) {
    const MagicBoard board(spec.size, spec.rules == "msquare" ? MagicRules::msquare : MagicRules::sicily1515);
    std::vector<int> values(board.cells());
    std::iota(values.begin(), values.end(), 1);
    do out.push_back(board.format(board.from_row_values(values.data(), board.cells())));
    while (std::next_permutation(values.begin(), values.end()));
  } else {
    const CheckersLine line(spec.size);
    const int n = spec.size, hashes = line.hashes();
    for (int hole = 0; hole < n; ++hole)
      for (std::uint64_t mask = 0; mask < (std::uint64_t{1} << (n - 1)); ++mask) {
        if (std::popcount(mask) != hashes) continue;
        std::string text;
        for (int i = 0, piece = 0; i < n; ++i) text += i == hole ? '&' : ((mask >> piece++) & 1) ? '#' : '@';
        out.push_back(text);
      }
  }
  return out;
}

}  // namespace searchbench::testing_support
