// Heuristic `pdb` of the magic boards: pattern databases over the cells of some of the
// values (heuristics/magic_pattern_space.hpp), h = the largest entry over the patterns.
// Admissible and consistent: each pattern's abstraction is a homomorphism of the board with
// unit-cost moves, so its distance is a consistent lower bound, and so is the largest of
// several (a move lowers each by at most one). Not additive: one move moves up to all of
// the values at once, so patterns may overlap and are maxed, never summed.
//
// --pattern: cell values 1..2K split by ',' and '/', each pattern of 1 to 2K-1 values.
// Default: the k values that give at most about 6 million entries (2K)!/(2K-k)!; when that
// is all but one value (up to 2x5) one pattern, the board's exact distances, else two: the
// k lowest values and the k highest (2x6: 7 of 12 values, 3,991,680 entries each; 2x8: 6 of
// 16, 5,765,760 each).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/heuristic_capabilities.hpp"
#include "core/errors.hpp"
#include "core/permutation_rank.hpp"
#include "core/search_options.hpp"
#include "heuristics/magic_pattern_space.hpp"
#include "heuristics/pattern_database.hpp"
#include "heuristics/pdb_file.hpp"
#include "heuristics/pdb_options.hpp"
#include "puzzles/magic_board.hpp"

namespace searchbench {

inline std::vector<std::vector<int>> magic_patterns(const MagicBoard& board, const std::string& option) {
  const int n = board.cells();
  std::vector<std::vector<int>> patterns;
  if (option.empty()) {
    int k = 1;
    while (k + 1 < n && PartialPermutationRank(n, k + 1).count() <= 6'000'000) ++k;
    patterns.emplace_back();
    for (int v = 1; v <= k; ++v) patterns.back().push_back(v);
    if (k + 1 < n) {
      patterns.emplace_back();
      for (int v = n - k + 1; v <= n; ++v) patterns.back().push_back(v);
    }
    return patterns;
  }
  for (const auto& members : split_pattern_list(option)) {
    std::uint32_t seen = 0;
    patterns.emplace_back();
    for (const auto& m : members) {
      const int v = pattern_number(m, 1, n, "cell value of " + board.name(), option);
      if (seen & (1u << v)) throw InputError("--pattern '" + option + "': value " + m + " appears twice in one pattern");
      seen |= 1u << v;
      patterns.back().push_back(v);
    }
    if (static_cast<int>(members.size()) >= n)
      throw InputError("--pattern '" + option + "': a pattern holds at most " + std::to_string(n - 1) +
                       " values (the last one's cell follows from the others)");
    std::sort(patterns.back().begin(), patterns.back().end());
  }
  return patterns;
}

class MagicPdb {
 public:
  static constexpr std::string_view kName = "pdb";
  static constexpr std::string_view kSummary = "pattern databases over the cells of some values, the largest entry";
  static constexpr HeuristicCapabilities kCapabilities{.consistent = true, .build_note = true};
  using Options = PdbOptions;
  using State = MagicState;

  static std::string fits(const MagicBoard&) { return {}; }

  MagicPdb(const MagicBoard& board, const State& target, const Options& options, const SearchOptions& search)
      : n_(board.cells()) {
    for (const auto& values : magic_patterns(board, options.pattern)) {
      PartialPermutationRank rank(n_, static_cast<int>(values.size()));
      const PdbFileKey key{board.name(), std::string(kName), pattern_text(values), board.format(target), rank.count()};
      tables_.add(values, rank, options.pdb_cache, key, search.memory, [&] {
        const MagicPatternSpace space(board, values, target);
        return direct_pdb_table(space, MagicPatternRank(space), search,
                                "the pattern database of " + board.name() + " values " + key.pattern);
      });
    }
  }

  int estimate(const State& s) const {
    std::array<std::uint8_t, 17> where{};
    for (int c = 0; c < n_; ++c) where[s.cells[c]] = static_cast<std::uint8_t>(c);
    return tables_.largest([&](const auto& t) {
      std::array<std::uint8_t, 16> cells;
      for (std::size_t i = 0; i < t.members.size(); ++i) cells[i] = where[t.members[i]];
      return t.rank.rank(cells.data());
    });
  }
  std::uint64_t bytes() const { return tables_.bytes(); }
  std::string build_note() const { return tables_.note(); }
  std::size_t pattern_count() const { return tables_.size(); }

 private:
  int n_;
  MaxedPdbTables<PartialPermutationRank> tables_;  // members: the pattern's cell values
};

}  // namespace searchbench
