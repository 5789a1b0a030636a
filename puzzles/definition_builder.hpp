// What the two definition readers share (puzzles/tws_reader.cpp, puzzles/kpuzzle_reader.cpp):
// failing with the file and the line, reading a bounded number, and the Builder that takes
// the sets and moves as read, expands MoveSequence/MoveAlias products and every power of a
// move (named as twsearch names them; MovePowers keeps only some of them as moves), and
// checks the names. Private to the readers.
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/errors.hpp"
#include "core/printable.hpp"
#include "core/xxhash.hpp"
#include "puzzles/permutation_definition.hpp"

namespace searchbench::definition_reading {

inline std::string checksum_of(std::string_view text) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(XXH64(text.data(), text.size(), 0)));
  return hex;
}

[[noreturn]] inline void fail(const std::string& file, int line, const std::string& why) {
  throw InputError(file + ":" + std::to_string(line) + ": " + why);
}

// A number in [lo, hi] or a failure naming `what`.
inline int number(const std::string& file, int line, const std::string& token, int lo, int hi, const std::string& what) {
  int value = 0;
  if (token.empty() || token.size() > 9 || !std::all_of(token.begin(), token.end(), [](char c) { return c >= '0' && c <= '9'; }))
    fail(file, line, what + " \"" + printable(token) + "\" is not a number");
  value = std::stoi(token);
  if (value < lo || value > hi)
    fail(file, line, what + " " + token + " is out of range (" + std::to_string(lo) + ".." + std::to_string(hi) + ")");
  return value;
}

// A whole-puzzle rotation as twsearch names them (x, y2, z', or capitals then `v`).
inline bool is_rotation_name(std::string_view name) {
  if (!name.empty() && (name[0] == 'x' || name[0] == 'y' || name[0] == 'z'))
    if (name.size() == 1 || (name.size() == 2 && (name[1] == '2' || name[1] == '\''))) return true;
  std::size_t i = 0;
  while (i < name.size() && (name[i] == '_' || (name[i] >= 'A' && name[i] <= 'Z'))) ++i;
  return i > 0 && i + 1 == name.size() && name[i] == 'v';
}

// Moves and sequences as read, before their powers are expanded.
struct BaseMove {
  std::string name;
  DefinitionMove move;
  int line = 0;
};
struct Sequence {
  std::string name, text;
  bool alias = false;
  int line = 0;
};

class Builder {
 public:
  Builder(PermutationDefinition& d, const std::string& file) : d_(d), file_(file) {}

  void add_set(const std::string& name, int size, int orientations, int line) {
    if (d_.set_index(name) >= 0) fail(file_, line, "set " + name + " is defined twice");
    if (d_.slots + size > kMaxDefinitionSlots)
      fail(file_, line, "the sets hold more than " + std::to_string(kMaxDefinitionSlots) + " slots in all (the most this suite supports)");
    d_.sets.push_back({name, size, orientations, d_.slots});
    d_.slots += size;
    for (int i = 0; i < size; ++i) d_.modulus.push_back(static_cast<std::uint8_t>(orientations));
  }
  DefinitionMove identity() const {
    DefinitionMove m;
    m.source.resize(static_cast<std::size_t>(d_.slots));
    std::iota(m.source.begin(), m.source.end(), 0);
    m.twist.assign(static_cast<std::size_t>(d_.slots), 0);
    return m;
  }
  void add_move(BaseMove m) {
    check_new_name(m.name, m.line);
    if (d_.is_identity(m.move)) fail(file_, m.line, "move " + m.name + " changes nothing");
    bases_.push_back(std::move(m));
  }
  void add_sequence(Sequence s) {
    check_new_name(s.name, s.line);
    sequences_.push_back(std::move(s));
  }
  // Of the move `name` only these powers (exponents, increasing) are moves; the others stay
  // names a state's text may use. Checked against the move's order when the moves expand.
  void keep_powers(const std::string& name, std::vector<int> exponents, int line) {
    for (const auto& k : kept_powers_)
      if (k.name == name) fail(file_, line, "MovePowers for " + name + " is given twice (first on line " + std::to_string(k.line) + ")");
    for (std::size_t i = 1; i < exponents.size(); ++i)
      if (exponents[i] <= exponents[i - 1]) fail(file_, line, "MovePowers lists its exponents increasing, each once");
    kept_powers_.push_back({name, std::move(exponents), line});
  }
  // Expands the sequences and every power; the moves in search order.
  void finish() {
    if (d_.sets.empty()) fail(file_, 0, "the definition has no Set");
    if (d_.solved_piece.empty()) fail(file_, 0, "the definition has no Solved block");
    std::vector<bool> done(sequences_.size(), false);
    std::vector<DefinitionMove> products(sequences_.size());
    for (std::size_t left = sequences_.size(); left > 0;) {  // passes until nothing more resolves
      std::size_t resolved = 0;
      for (std::size_t i = 0; i < sequences_.size(); ++i) {
        if (done[i]) continue;
        if (auto product = resolve(sequences_[i], products, done)) {
          products[i] = *product;
          done[i] = true;
          ++resolved;
        }
      }
      if (resolved == 0) {
        for (std::size_t i = 0; i < sequences_.size(); ++i)
          if (!done[i])
            fail(file_, sequences_[i].line,
                 "cannot expand " + sequences_[i].name + " = \"" + printable(sequences_[i].text) +
                     "\": it names an unknown move or depends on itself");
      }
      left -= resolved;
    }
    for (const auto& k : kept_powers_) {
      const bool known = std::any_of(bases_.begin(), bases_.end(), [&](const BaseMove& b) { return b.name == k.name; }) ||
                         std::any_of(sequences_.begin(), sequences_.end(), [&](const Sequence& q) { return q.name == k.name && !q.alias; });
      if (!known) fail(file_, k.line, "MovePowers names " + printable(k.name) + ", which is no Move or MoveSequence");
    }
    for (auto& b : bases_) expand(b.name, b.move, b.line, false);
    for (std::size_t i = 0; i < sequences_.size(); ++i) {
      if (d_.is_identity(products[i])) fail(file_, sequences_[i].line, "move " + sequences_[i].name + " changes nothing");
      expand(sequences_[i].name, products[i], sequences_[i].line, sequences_[i].alias);
    }
    if (d_.moves.empty()) fail(file_, 0, "the definition has no Move");
    if (static_cast<int>(d_.moves.size()) > kMaxDefinitionMoves)
      fail(file_, 0, "the moves and their powers number " + std::to_string(d_.moves.size()) + "; at most " +
                         std::to_string(kMaxDefinitionMoves) + " are supported");
    std::vector<std::string> names;
    for (const auto& m : d_.moves) names.push_back(m.name);
    for (const auto& m : d_.aliases) names.push_back(m.name);
    std::sort(names.begin(), names.end());
    if (auto dup = std::adjacent_find(names.begin(), names.end()); dup != names.end())
      fail(file_, 0, "two moves are named " + *dup + " (a power's name clashes with a move's)");
    // Power k of a base move is undone by its power order - k, a move unless MovePowers left
    // it out; the undoing permutation itself is power order - 1 of the move.
    d_.inverse.assign(d_.moves.size(), -1);
    for (std::size_t m = 0; m < d_.moves.size(); ++m) {
      const DefinitionMove& move = d_.moves[m];
      const int undo_power = base_order_[static_cast<std::size_t>(move.base)] - move.power;
      for (std::size_t n = 0; n < d_.moves.size(); ++n)
        if (d_.moves[n].base == move.base && d_.moves[n].power == undo_power) d_.inverse[m] = static_cast<int>(n);
      DefinitionMove undo = move;
      for (int k = 2; k < move.order; ++k) undo = d_.then(undo, move);
      d_.undo.push_back(std::move(undo));
    }
  }

 private:
  void check_new_name(const std::string& name, int line) {
    if (is_rotation_name(name)) fail(file_, line, "whole-puzzle rotations (" + name + ") are not supported");
    if (name.find_first_of("\"\\") != std::string::npos) fail(file_, line, "move name " + printable(name) + " has a quote or backslash");
    for (const auto& b : bases_)
      if (b.name == name) fail(file_, line, "move " + name + " is defined twice (first on line " + std::to_string(b.line) + ")");
    for (const auto& s : sequences_)
      if (s.name == name) fail(file_, line, "move " + name + " is defined twice (first on line " + std::to_string(s.line) + ")");
  }
  // The named move or power among the base moves and the sequences resolved so far.
  std::optional<DefinitionMove> named(std::string_view token, const std::vector<DefinitionMove>& products,
                                      const std::vector<bool>& done) const {
    for (const auto& b : bases_)
      if (auto m = power_named(b.name, b.move, token)) return m;
    for (std::size_t i = 0; i < sequences_.size(); ++i)
      if (done[i])
        if (auto m = power_named(sequences_[i].name, products[i], token)) return m;
    return std::nullopt;
  }
  std::optional<DefinitionMove> power_named(const std::string& name, const DefinitionMove& move, std::string_view token) const {
    if (!token.starts_with(name)) return std::nullopt;
    DefinitionMove p = move;
    for (int k = 1; k <= kMaxDefinitionMoves + 1 && !d_.is_identity(p); ++k) {
      if (token == power_name(name, k, order_of(move))) return p;
      p = d_.then(p, move);
    }
    return std::nullopt;
  }
  std::optional<DefinitionMove> resolve(const Sequence& s, const std::vector<DefinitionMove>& products, const std::vector<bool>& done) const {
    DefinitionMove product = identity();
    std::string token;
    for (std::size_t i = 0; i <= s.text.size(); ++i) {
      const char c = i < s.text.size() ? s.text[i] : ' ';
      if (c > ' ' && c != ',') {
        token += c;
        continue;
      }
      if (token.empty()) continue;
      auto m = named(token, products, done);
      if (!m) return std::nullopt;
      product = d_.then(product, *m);
      token.clear();
    }
    return product;
  }
  int order_of(const DefinitionMove& move) const {
    DefinitionMove p = move;
    int order = 1;
    while (!d_.is_identity(p)) {
      if (++order > kMaxDefinitionMoves + 1) return 0;
      p = d_.then(p, move);
    }
    return order;
  }
  static std::string power_name(const std::string& name, int k, int order) {
    int turn = k;
    if (order - turn < turn) turn -= order;  // the shorter way round, as twsearch names it
    if (turn == 1) return name;
    if (turn == -1) return name + "'";
    return name + std::to_string(std::abs(turn)) + (turn < 0 ? "'" : "");
  }
  // Every power of `move` into the moves (or, for an alias and the powers MovePowers leaves
  // out, into the aliases), by increasing exponent.
  void expand(const std::string& name, const DefinitionMove& move, int line, bool alias) {
    const int order = order_of(move);
    if (order == 0)
      fail(file_, line, "move " + name + " has an order above " + std::to_string(kMaxDefinitionMoves) + " (too many powers to list)");
    const auto kept = std::find_if(kept_powers_.begin(), kept_powers_.end(), [&](const KeptPowers& k) { return k.name == name; });
    if (kept != kept_powers_.end())
      for (const int e : kept->exponents)
        if (e >= order)
          fail(file_, kept->line, "move " + name + " has order " + std::to_string(order) + ": its powers are 1.." + std::to_string(order - 1) +
                                      ", not " + std::to_string(e));
    const int base = static_cast<int>(base_order_.size());
    base_order_.push_back(order);
    DefinitionMove p = move;
    for (int k = 1; k < order; ++k) {
      p.name = power_name(name, k, order);
      p.base = base;
      p.power = k;
      p.order = order / std::gcd(order, k);
      const bool is_move = !alias && (kept == kept_powers_.end() || std::count(kept->exponents.begin(), kept->exponents.end(), k) > 0);
      (is_move ? d_.moves : d_.aliases).push_back(p);
      p = d_.then(p, move);
    }
  }

  PermutationDefinition& d_;
  const std::string& file_;
  std::vector<BaseMove> bases_;
  std::vector<Sequence> sequences_;
  struct KeptPowers {
    std::string name;
    std::vector<int> exponents;
    int line = 0;
  };
  std::vector<KeptPowers> kept_powers_;
  std::vector<int> base_order_;
};


}  // namespace searchbench::definition_reading
