// The abstraction behind the definition family's `pdb`: of a state only some pieces (the
// pattern) are kept, each with the slot it is in and its orientation; the other pieces become
// indistinguishable. A move sends the piece in slot j to a slot, and adds a twist, that
// depend on j alone, so the abstraction is a homomorphism with the same unit-cost moves: its
// distances are consistent lower bounds on the puzzle's.
//
// A pattern may take pieces of several sets; each set's part of the key is the partial
// permutation rank of its pieces' positions among the set's moving slots times their
// orientations in base m (DefinitionPlacementRank). The pieces must be distinct within
// their set (a label the solved state repeats is refused).
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/concepts.hpp"
#include "core/errors.hpp"
#include "core/permutation_rank.hpp"
#include "puzzles/definition_puzzle.hpp"

namespace searchbench {

// The pieces of one set that a pattern keeps.
struct PatternGroup {
  int set = 0;
  std::vector<std::uint8_t> labels;  // the pieces kept (0-based labels), in order
  std::vector<int> slots;            // the set's moving slots
  int modulus = 1;
};

struct DefinitionPatternState {
  std::array<std::uint8_t, kMaxDefinitionSlots> position{};  // per kept piece: its index among its set's moving slots
  std::array<std::uint8_t, kMaxDefinitionSlots> twist{};
  friend bool operator==(const DefinitionPatternState&, const DefinitionPatternState&) = default;
};

class DefinitionPatternSpace {
 public:
  using State = DefinitionPatternState;

  DefinitionPatternSpace(const DefinitionPuzzle& puzzle, std::vector<PatternGroup> groups, const DefinitionState& goal)
      : puzzle_(puzzle), groups_(std::move(groups)) {
    const PermutationDefinition& d = puzzle.definition();
    std::vector<const DefinitionMove*> tables;  // the moves, then the permutations that undo them
    for (const auto& m : d.moves) tables.push_back(&m);
    for (const auto& m : d.undo) tables.push_back(&m);
    for (const DefinitionMove* move : tables) {
      const DefinitionMove& m = *move;
      std::vector<std::uint8_t> to(static_cast<std::size_t>(d.slots)), add(static_cast<std::size_t>(d.slots));
      for (int i = 0; i < d.slots; ++i) {  // the piece in slot source[i] goes to slot i
        to[m.source[i]] = static_cast<std::uint8_t>(i);
        add[m.source[i]] = m.twist[i];
      }
      std::vector<std::uint8_t> gto, gadd;  // by kept piece's group and position
      for (const auto& g : groups_)
        for (const int slot : g.slots) {
          gto.push_back(static_cast<std::uint8_t>(std::find(g.slots.begin(), g.slots.end(), to[slot]) - g.slots.begin()));
          gadd.push_back(add[slot]);
        }
      to_.push_back(std::move(gto));
      add_.push_back(std::move(gadd));
    }
    goal_ = project(goal);
  }

  const std::vector<PatternGroup>& groups() const { return groups_; }
  // The abstract state of a puzzle state.
  State project(const DefinitionState& s) const {
    State a;
    int kept = 0;
    for (const auto& g : groups_) {
      std::array<std::uint8_t, 256> position{}, twist{};
      for (std::size_t p = 0; p < g.slots.size(); ++p) {
        position[s.piece[g.slots[p]]] = static_cast<std::uint8_t>(p);
        twist[s.piece[g.slots[p]]] = s.twist[g.slots[p]];
      }
      for (const auto label : g.labels) {
        a.position[kept] = position[label];
        a.twist[kept++] = twist[label];
      }
    }
    return a;
  }

  std::string name() const { return puzzle_.name() + " pattern"; }
  State start() const { return goal_; }
  int move_count() const { return puzzle_.move_count(); }
  char move_name(int m) const { return puzzle_.move_name(m); }
  // m past the moves: the permutation that undoes move m - move_count() (apply_inverse).
  bool apply(const State& s, int m, State& out) const {
    out = s;
    const auto& to = to_[static_cast<std::size_t>(m)];
    const auto& add = add_[static_cast<std::size_t>(m)];
    int kept = 0, offset = 0;  // offset: the group's first entry in to/add
    for (const auto& g : groups_) {
      for (std::size_t i = 0; i < g.labels.size(); ++i, ++kept) {
        const int p = offset + s.position[kept];
        out.position[kept] = to[p];
        out.twist[kept] = static_cast<std::uint8_t>((s.twist[kept] + add[p]) % g.modulus);
      }
      offset += static_cast<int>(g.slots.size());
    }
    return true;
  }
  bool apply_inverse(const State& s, int m, State& out) const { return apply(s, puzzle_.move_count() + m, out); }
  int inverse_move(int m) const { return puzzle_.inverse_move(m); }
  int move_order(int) const { return 0; }  // the abstract order may divide the puzzle's: none claimed
  std::uint64_t component_size(const State&) const;
  bool same_component(const State&, const State&) const { return true; }
  State parse(std::string_view) const { throw InputError("abstract states are not read from text"); }
  std::string format(const State& s) const {
    std::string out = "pattern at";
    int kept = 0;
    for (const auto& g : groups_)
      for (std::size_t i = 0; i < g.labels.size(); ++i, ++kept) out += " " + std::to_string(s.position[kept]) + "+" + std::to_string(s.twist[kept]);
    return out;
  }

 private:
  DefinitionPuzzle puzzle_;
  std::vector<PatternGroup> groups_;
  std::vector<std::vector<std::uint8_t>> to_, add_;  // per move, then per move's undoing permutation
  State goal_;
};

// Per group: the kept pieces' positions as a partial permutation of the moving slots (all
// but the last when every piece is kept: it takes the slot left), times their orientations.
class DefinitionPlacementRank {
 public:
  static constexpr std::string_view kName = "placement";
  static constexpr EncoderCapabilities kCapabilities{};
  static std::string fits(const DefinitionPatternSpace&) { return {}; }
  explicit DefinitionPlacementRank(const DefinitionPatternSpace& space) {
    for (const auto& g : space.groups()) {
      const int n = static_cast<int>(g.slots.size()), k = static_cast<int>(g.labels.size());
      Part part{k, std::min(k, n - 1), g.modulus, PartialPermutationRank(n, std::min(k, n - 1)), 1};
      for (int i = 0; i < k; ++i) part.twists *= static_cast<Key>(g.modulus);
      count_ *= part.rank.count() * part.twists;
      parts_.push_back(std::move(part));
    }
  }
  // The number of keys of groups like `groups` (checked before building anything).
  static long double count_of(const std::vector<PatternGroup>& groups) {
    long double count = 1;
    for (const auto& g : groups) {
      const int n = static_cast<int>(g.slots.size()), k = static_cast<int>(g.labels.size());
      for (int i = 0; i < std::min(k, n - 1); ++i) count *= n - i;
      for (int i = 0; i < k; ++i) count *= g.modulus;
    }
    return count;
  }

  Key encode(const DefinitionPatternState& s) const {
    Key key = 0;
    int kept = 0;
    for (const auto& p : parts_) {
      Key twist = 0;
      for (int i = 0; i < p.kept; ++i) twist = twist * static_cast<Key>(p.modulus) + s.twist[kept + i];
      key = key * p.rank.count() * p.twists + p.rank.rank(s.position.data() + kept) * p.twists + twist;
      kept += p.kept;
    }
    return key;
  }
  DefinitionPatternState decode(Key k) const {
    DefinitionPatternState s;
    int kept = 0;
    for (const auto& p : parts_) kept += p.kept;
    for (auto it = parts_.rbegin(); it != parts_.rend(); ++it) {
      const Part& p = *it;
      kept -= p.kept;
      Key twist = k % p.twists;
      k /= p.twists;
      p.rank.unrank(k % p.rank.count(), s.position.data() + kept);
      k /= p.rank.count();
      for (int i = p.kept - 1; i >= 0; --i, twist /= static_cast<Key>(p.modulus))
        s.twist[kept + i] = static_cast<std::uint8_t>(twist % static_cast<Key>(p.modulus));
      if (p.ranked < p.kept) {  // every piece kept: the last takes the slot left
        std::uint64_t used = 0;
        for (int i = 0; i < p.ranked; ++i) used |= std::uint64_t{1} << s.position[kept + i];
        s.position[kept + p.ranked] = static_cast<std::uint8_t>(std::countr_one(used));
      }
    }
    return s;
  }
  Key key_bound() const { return count_; }
  bool dense() const { return count_ <= kDenseKeyLimit; }

 private:
  struct Part {
    int kept, ranked, modulus;
    PartialPermutationRank rank;
    Key twists;
  };
  std::vector<Part> parts_;
  Key count_ = 1;
};

inline std::uint64_t DefinitionPatternSpace::component_size(const State&) const {
  return DefinitionPlacementRank(*this).key_bound();
}

}  // namespace searchbench
