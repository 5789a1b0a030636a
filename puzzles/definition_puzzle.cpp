// The definition family's invariants and text (puzzles/definition_puzzle.hpp).
#include "puzzles/definition_puzzle.hpp"

#include <algorithm>

#include "core/saturating.hpp"

namespace searchbench {

DefinitionInvariants::DefinitionInvariants(const PermutationDefinition& d) : fixed(static_cast<std::size_t>(d.slots), true) {
  for (const auto& m : d.moves)
    for (int i = 0; i < d.slots; ++i)
      if (m.source[i] != i || m.twist[i] != 0) fixed[i] = false;
  moves = static_cast<int>(d.moves.size());
  redundant.assign(static_cast<std::size_t>(moves * moves), 0);
  auto same = [](const DefinitionMove& a, const DefinitionMove& b) { return a.source == b.source && a.twist == b.twist; };
  for (int a = 0; a < moves; ++a)
    for (int b = 0; b < moves; ++b) {
      const DefinitionMove& last = d.moves[static_cast<std::size_t>(a)];
      const DefinitionMove& next = d.moves[static_cast<std::size_t>(b)];
      const DefinitionMove both = d.then(last, next);
      bool shorter = d.is_identity(both);
      for (const auto& m : d.moves) shorter = shorter || same(both, m);
      const bool swapped_smaller = b < a && same(both, d.then(next, last));
      redundant[static_cast<std::size_t>(a * moves + b)] = shorter || swapped_smaller;
    }
  for (const auto& s : d.sets) {
    SetInvariants inv;
    for (int i = s.offset; i < s.offset + s.size; ++i)
      if (!fixed[i]) inv.moving.push_back(i);
    std::vector<std::uint8_t> labels;
    for (const int i : inv.moving) labels.push_back(d.solved_piece[i]);
    std::sort(labels.begin(), labels.end());
    inv.distinct = std::adjacent_find(labels.begin(), labels.end()) == labels.end();
    inv.even = inv.distinct && inv.moving.size() > 1;
    inv.twist_kept = s.orientations > 1;
    inv.twist_free = true;
    for (int i = s.offset; i < s.offset + s.size; ++i)
      if (d.solved_twist[i] != 0) inv.twist_free = false;
    for (const auto& m : d.moves) {
      std::vector<std::uint8_t> order;  // the move on the moving slots, as positions among them
      int sum = 0;
      for (const int i : inv.moving) {
        order.push_back(static_cast<std::uint8_t>(std::find(inv.moving.begin(), inv.moving.end(), m.source[i]) - inv.moving.begin()));
        sum += m.twist[i];
        if (m.twist[i] != 0) inv.twist_free = false;
      }
      if (permutation_parity(order.data(), static_cast<int>(order.size())) != 0) inv.even = false;
      if (sum % s.orientations != 0) inv.twist_kept = false;
    }
    sets.push_back(std::move(inv));
  }
  combined_even = !sets.empty() && std::all_of(sets.begin(), sets.end(), [](const SetInvariants& s) { return s.distinct; });
  for (const auto& m : d.moves) {
    int parity = 0;
    for (const auto& inv : sets) {
      std::vector<std::uint8_t> order;
      for (const int i : inv.moving)
        order.push_back(static_cast<std::uint8_t>(std::find(inv.moving.begin(), inv.moving.end(), m.source[i]) - inv.moving.begin()));
      parity ^= permutation_parity(order.data(), static_cast<int>(order.size()));
    }
    if (parity != 0) combined_even = false;
  }
}

std::uint64_t DefinitionPuzzle::component_size(const State&) const {
  std::uint64_t size = 1;
  for (std::size_t s = 0; s < d_->sets.size(); ++s) {
    const SetInvariants& inv = invariants_->sets[s];
    const int n = static_cast<int>(inv.moving.size());
    std::vector<int> counts(256, 0);
    for (const int i : inv.moving) ++counts[d_->solved_piece[i]];
    // Arrangements of the moving pieces: n! / (c1! c2! ...), one factor at a time.
    std::uint64_t arrangements = 1;
    int placed = 0;
    for (const int c : counts)
      for (int k = 1; k <= c; ++k) {
        ++placed;
        arrangements = saturating_times(arrangements, static_cast<std::uint64_t>(placed)) / static_cast<std::uint64_t>(k);
      }
    if (inv.even) arrangements /= 2;
    size = saturating_times(size, arrangements);
    if (!inv.twist_free)
      for (int k = inv.twist_kept ? 1 : 0; k < n; ++k) size = saturating_times(size, static_cast<std::uint64_t>(d_->sets[s].orientations));
  }
  return size;
}

bool DefinitionPuzzle::same_component(const State& a, const State& b) const {
  int parity_a = 0, parity_b = 0;  // summed over the sets (combined_even)
  for (std::size_t s = 0; s < d_->sets.size(); ++s) {
    const SetInvariants& inv = invariants_->sets[s];
    const DefinitionSet& set = d_->sets[s];
    for (int i = set.offset; i < set.offset + set.size; ++i)
      if (invariants_->fixed[i] && (a.piece[i] != b.piece[i] || a.twist[i] != b.twist[i])) return false;
    std::vector<std::uint8_t> pa, pb;
    int sa = 0, sb = 0;
    for (const int i : inv.moving) {
      pa.push_back(a.piece[i]);
      pb.push_back(b.piece[i]);
      sa += a.twist[i];
      sb += b.twist[i];
    }
    if (inv.twist_kept && sa % set.orientations != sb % set.orientations) return false;
    if (inv.twist_free && (sa != 0 || sb != 0)) return false;
    const int pa_parity = inv.distinct ? permutation_parity(pa.data(), static_cast<int>(pa.size())) : 0;
    const int pb_parity = inv.distinct ? permutation_parity(pb.data(), static_cast<int>(pb.size())) : 0;
    if (inv.even && pa_parity != pb_parity) return false;
    parity_a ^= pa_parity;
    parity_b ^= pb_parity;
    std::sort(pa.begin(), pa.end());
    std::sort(pb.begin(), pb.end());
    if (pa != pb) return false;
  }
  return !invariants_->combined_even || parity_a == parity_b;
}

DefinitionState DefinitionPuzzle::parse(std::string_view text) const {
  std::vector<std::string> tokens;
  std::string token;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    const char c = i < text.size() ? text[i] : ' ';
    if (static_cast<unsigned char>(c) <= ' ' || c == ',' || c == ';') {
      if (!token.empty()) tokens.push_back(std::move(token));
      token.clear();
    } else {
      token += c;
    }
  }
  if (!tokens.empty() && d_->set_index(tokens[0]) >= 0) return parse_block(tokens, text);
  // A sequence of moves from the solved state.
  State state = solved(), next;
  for (const auto& t : tokens) {
    const int m = d_->move_index(t);
    if (m >= 0) {
      apply(state, m, next);
    } else {
      const DefinitionMove* alias = nullptr;
      for (const auto& a : d_->aliases)
        if (a.name == t) alias = &a;
      if (!alias) {
        std::string names;
        for (const auto& mv : d_->moves) {
          if (!names.empty()) names += ' ';
          names += mv.name;
        }
        throw InputError("\"" + printable(t) + "\" in \"" + printable(text) + "\" is no move of " + d_->file +
                         " (a state is a sequence of its moves, " + names + ", or a block of its sets " + d_->sets[0].name + " ...)");
      }
      for (int i = 0; i < d_->slots; ++i) {
        next.piece[i] = state.piece[alias->source[i]];
        next.twist[i] = static_cast<std::uint8_t>((state.twist[alias->source[i]] + alias->twist[i]) % d_->modulus[i]);
      }
    }
    state = next;
  }
  return state;
}

DefinitionState DefinitionPuzzle::parse_block(const std::vector<std::string>& tokens, std::string_view text) const {
  State state = solved();
  const std::string where = " in state \"" + printable(text) + "\"";
  std::vector<bool> given(d_->sets.size(), false);
  auto read_number = [&](const std::string& t, int lo, int hi, const std::string& what) {
    if (t.empty() || t.size() > 3 || !std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
        std::stoi(t) < lo || std::stoi(t) > hi)
      throw InputError(what + " \"" + printable(t) + "\"" + where + " is not a number in " + std::to_string(lo) + ".." + std::to_string(hi));
    return std::stoi(t);
  };
  for (std::size_t at = 0; at < tokens.size();) {
    const int s = d_->set_index(tokens[at]);
    if (s < 0) throw InputError("\"" + printable(tokens[at]) + "\"" + where + " is no set of " + d_->file);
    if (given[s]) throw InputError("set " + tokens[at] + " appears twice" + where);
    given[s] = true;
    const DefinitionSet& set = d_->sets[s];
    ++at;
    if (tokens.size() - at < static_cast<std::size_t>(set.size))
      throw InputError("set " + set.name + " needs " + std::to_string(set.size) + " piece labels" + where);
    std::vector<std::uint8_t> labels, expected;
    for (int i = 0; i < set.size; ++i, ++at) {
      const auto label = static_cast<std::uint8_t>(read_number(tokens[at], 1, 256, "piece label") - 1);
      state.piece[set.offset + i] = label;
      labels.push_back(label);
      expected.push_back(d_->solved_piece[set.offset + i]);
      state.twist[set.offset + i] = 0;
    }
    std::sort(labels.begin(), labels.end());
    std::sort(expected.begin(), expected.end());
    if (labels != expected) throw InputError("set " + set.name + " does not hold the solved state's pieces" + where);
    if (at < tokens.size() && tokens[at] == "/") {
      ++at;
      if (tokens.size() - at < static_cast<std::size_t>(set.size))
        throw InputError("set " + set.name + " needs " + std::to_string(set.size) + " orientations after '/'" + where);
      for (int i = 0; i < set.size; ++i, ++at)
        state.twist[set.offset + i] = static_cast<std::uint8_t>(read_number(tokens[at], 0, set.orientations - 1, "orientation"));
    }
  }
  return state;
}

std::string DefinitionPuzzle::format(const State& s) const {
  std::string out;
  for (const auto& set : d_->sets) {
    if (!out.empty()) out += ' ';
    out += set.name;
    bool twisted = false;
    for (int i = set.offset; i < set.offset + set.size; ++i) {
      out += ' ';
      out += std::to_string(s.piece[i] + 1);
      twisted |= s.twist[i] != 0;
    }
    if (set.orientations > 1 && twisted) {
      out += " /";
      for (int i = set.offset; i < set.offset + set.size; ++i) {
        out += ' ';
        out += std::to_string(s.twist[i]);
      }
    }
  }
  return out;
}

}  // namespace searchbench
