// Heuristic `pdb` of the definition family: pattern databases over some pieces' slots and
// orientations (heuristics/definition_pattern_space.hpp), h = the largest entry over the
// patterns. Admissible and consistent: each abstraction is a homomorphism with the puzzle's
// unit-cost moves, so each entry is a consistent lower bound, and so is their maximum. Each
// database is the distances of the abstraction to the target's abstract state, computed by
// the suite's parallel BFS over inverse moves and cached in a checksummed file keyed by the
// definition's content.
//
// --pattern: members split by ',' and patterns by '/'; a member is a set's name (every piece
// of the set) or SET.LABEL (one piece, by its 1-based label in the Solved block), e.g.
// "CORNER/EDGE.1,EDGE.2,EDGE.3". Default: the pieces of every set in file order, cut into
// patterns of at most 2^20 entries each (a new pattern where the next piece would pass that),
// which build in a second or two; larger patterns prune more (2x2x2.tws: CORNER.1,...,CORNER.6).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/heuristic_capabilities.hpp"
#include "core/errors.hpp"
#include "core/search_options.hpp"
#include "heuristics/definition_pattern_space.hpp"
#include "heuristics/pattern_database.hpp"
#include "heuristics/pdb_file.hpp"
#include "heuristics/pdb_options.hpp"
#include "puzzles/definition_puzzle.hpp"

namespace searchbench {

class DefinitionPdb {
 public:
  static constexpr std::string_view kName = "pdb";
  static constexpr std::string_view kSummary = "pattern databases over some pieces' slots and orientations, the largest entry";
  static constexpr HeuristicCapabilities kCapabilities{.consistent = true, .build_note = true};
  using Options = PdbOptions;
  using State = DefinitionState;
  static constexpr long double kDefaultEntries = 1 << 20;

  static std::string fits(const DefinitionPuzzle& p) {
    for (std::size_t s = 0; s < p.definition().sets.size(); ++s)
      if (p.invariants().sets[s].distinct && p.invariants().sets[s].moving.size() >= 2) return {};
    return "no set has two or more distinct pieces that move";
  }

  DefinitionPdb(const DefinitionPuzzle& puzzle, const State& target, const Options& options, const SearchOptions& search) {
    for (const auto& groups : patterns(puzzle, options.pattern)) {
      const DefinitionPatternSpace space(puzzle, groups, target);
      const DefinitionPlacementRank rank(space);
      const std::string text = pattern_text(puzzle, groups);
      // Keyed by the definition's content, not its file name (which may hold '/').
      const PdbFileKey key{"definition-" + puzzle.definition().checksum, std::string(kName), text, puzzle.format(target),
                           rank.key_bound()};
      tables_.add({}, rank, options.pdb_cache, key, search.memory,
                  [&] { return direct_pdb_table(space, rank, search, "the pattern database of " + text); });
      spaces_.push_back(space);
    }
  }

  int estimate(const State& s) const {
    std::size_t i = 0;
    return tables_.largest([&](const auto& t) { return t.rank.encode(spaces_[i++].project(s)); });
  }
  std::uint64_t bytes() const { return tables_.bytes(); }
  std::string build_note() const { return tables_.note(); }

  // The patterns `option` names (empty: the default split).
  static std::vector<std::vector<PatternGroup>> patterns(const DefinitionPuzzle& p, const std::string& option) {
    const PermutationDefinition& d = p.definition();
    auto group_of = [&](std::vector<PatternGroup>& groups, int set) -> PatternGroup& {
      for (auto& g : groups)
        if (g.set == set) return g;
      const SetInvariants& inv = p.invariants().sets[static_cast<std::size_t>(set)];
      if (!inv.distinct || inv.moving.size() < 2)
        throw InputError("--pattern: set " + d.sets[static_cast<std::size_t>(set)].name +
                         (inv.distinct ? " has fewer than two slots that move" : " has identical pieces; a pattern keeps distinct ones"));
      if (inv.moving.size() > static_cast<std::size_t>(PartialPermutationRank::kMaxValues))
        throw InputError("--pattern: set " + d.sets[static_cast<std::size_t>(set)].name + " has more than 20 moving slots");
      groups.push_back({set, {}, inv.moving, d.sets[static_cast<std::size_t>(set)].orientations});
      return groups.back();
    };
    std::vector<std::vector<PatternGroup>> out;
    if (option.empty()) {  // every piece, in order, cut where a pattern would pass kDefaultEntries
      out.emplace_back();
      for (std::size_t s = 0; s < d.sets.size(); ++s) {
        const SetInvariants& inv = p.invariants().sets[s];
        if (!inv.distinct || inv.moving.size() < 2 || inv.moving.size() > 20) continue;
        for (const int slot : inv.moving) {
          std::vector<PatternGroup> trial = out.back();
          group_of(trial, static_cast<int>(s)).labels.push_back(d.solved_piece[slot]);
          if (DefinitionPlacementRank::count_of(trial) > kDefaultEntries && !out.back().empty()) {
            out.emplace_back();
            trial = out.back();
            group_of(trial, static_cast<int>(s)).labels.push_back(d.solved_piece[slot]);
          }
          out.back() = trial;
        }
      }
      if (out.back().empty()) out.pop_back();
      return out;
    }
    for (const auto& members : split_pattern_list(option)) {
      out.emplace_back();
      for (const auto& member : members) {
        const auto dot = member.find('.');
        const int set = d.set_index(member.substr(0, dot));
        if (set < 0) throw InputError("--pattern '" + option + "': '" + member + "' names no set of " + d.file);
        PatternGroup& g = group_of(out.back(), set);
        std::vector<std::uint8_t> wanted;
        for (const int slot : g.slots)
          if (dot == std::string::npos ||
              d.solved_piece[slot] + 1 == pattern_number(member.substr(dot + 1), 1, 256, "piece label", option))
            wanted.push_back(d.solved_piece[slot]);
        if (wanted.empty()) throw InputError("--pattern '" + option + "': no moving piece is labelled " + member);
        for (const auto label : wanted) {
          if (std::find(g.labels.begin(), g.labels.end(), label) != g.labels.end())
            throw InputError("--pattern '" + option + "': a piece of " + member + " appears twice in one pattern");
          g.labels.push_back(label);
        }
      }
      const long double entries = DefinitionPlacementRank::count_of(out.back());
      if (entries > static_cast<long double>(kDenseKeyLimit))
        throw InputError("--pattern '" + option + "': a pattern of " + std::to_string(static_cast<double>(entries)) +
                         " entries is more than a database can hold");
    }
    return out;
  }

 private:
  static std::string pattern_text(const DefinitionPuzzle& p, const std::vector<PatternGroup>& groups) {
    std::string out;
    for (const auto& g : groups)
      for (const auto label : g.labels) append_listed(out, ",", p.definition().sets[static_cast<std::size_t>(g.set)].name + "." + std::to_string(label + 1));
    return out;
  }

  MaxedPdbTables<DefinitionPlacementRank> tables_;
  std::vector<DefinitionPatternSpace> spaces_;  // in the order of the tables
};

}  // namespace searchbench
