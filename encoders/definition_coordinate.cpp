// The coordinate encoder's ranks and move tables (encoders/definition_coordinate.hpp).
#include "encoders/definition_coordinate.hpp"

#include <algorithm>
#include <bit>
#include <map>
#include <mutex>
#include <numeric>

namespace searchbench {

namespace {

using Coordinate = DefinitionCoordinate::Coordinate;
using System = DefinitionCoordinate::System;

bool multiply(std::uint64_t& a, std::uint64_t b) { return !__builtin_mul_overflow(a, b, &a); }

// What the move tables have a column for: the moves, then the permutations undoing those
// moves that no move undoes (MovePowers left the inverse power out), for predecessor keys;
// each move's undo column into `undo_column`.
std::vector<const DefinitionMove*> table_moves(const PermutationDefinition& d, std::vector<int>& undo_column) {
  std::vector<const DefinitionMove*> out;
  for (const auto& m : d.moves) out.push_back(&m);
  undo_column.clear();
  for (std::size_t m = 0; m < d.moves.size(); ++m) {
    undo_column.push_back(d.inverse[m] >= 0 ? d.inverse[m] : static_cast<int>(out.size()));
    if (d.inverse[m] < 0) out.push_back(&d.undo[m]);
  }
  return out;
}

// The coordinates of `p`'s class (the reference state's), without their tables.
System layout(const DefinitionPuzzle& p) {
  const PermutationDefinition& d = p.definition();
  const DefinitionInvariants& inv = p.invariants();
  const DefinitionState& ref = p.reference();
  System sys;
  const std::vector<const DefinitionMove*> columns = table_moves(d, sys.undo_column);
  sys.columns = static_cast<unsigned>(columns.size());
  auto add = [&](Coordinate c) {
    c.stride = sys.bound;
    if (!multiply(sys.bound, c.count)) sys.overflow = true;
    for (const DefinitionMove* move : columns) {
      const DefinitionMove& m = *move;
      std::vector<std::uint8_t> source, twist;
      for (const int slot : c.slots) {
        source.push_back(static_cast<std::uint8_t>(std::find(c.slots.begin(), c.slots.end(), m.source[slot]) - c.slots.begin()));
        twist.push_back(m.twist[slot]);
      }
      c.source.push_back(std::move(source));
      c.twist.push_back(std::move(twist));
    }
    sys.coords.push_back(std::move(c));
  };
  for (std::size_t s = 0; s < d.sets.size(); ++s) {
    const SetInvariants& si = inv.sets[s];
    if (si.moving.empty()) continue;
    const int n = static_cast<int>(si.moving.size());
    Coordinate a;
    a.slots = si.moving;
    for (const int slot : si.moving) a.labels.push_back(ref.piece[slot]);
    std::sort(a.labels.begin(), a.labels.end());
    a.labels.erase(std::unique(a.labels.begin(), a.labels.end()), a.labels.end());
    for (std::size_t i = 0; i < a.labels.size(); ++i) a.index_of[a.labels[i]] = static_cast<std::uint8_t>(i);
    a.counts.assign(a.labels.size(), 0);
    for (const int slot : si.moving)
      ++a.counts[std::lower_bound(a.labels.begin(), a.labels.end(), ref.piece[slot]) - a.labels.begin()];
    a.distinct = si.distinct;
    a.even = si.even;
    bool ok = true;
    for (int k = 2; k <= n && ok; ++k) ok = multiply(a.count, static_cast<std::uint64_t>(k));
    for (const int c : a.counts)
      for (int k = 2; k <= c; ++k) a.count /= static_cast<std::uint64_t>(k);
    if (!ok) sys.overflow = true;
    if (a.even) a.count /= 2;
    if (a.count > 1) {
      if (a.even) {
        std::vector<std::uint8_t> values;
        for (const int slot : si.moving)
          values.push_back(static_cast<std::uint8_t>(std::lower_bound(a.labels.begin(), a.labels.end(), ref.piece[slot]) - a.labels.begin()));
        a.parity = permutation_parity(values.data(), n);
      }
      add(std::move(a));
    }
    const int modulus = d.sets[s].orientations;
    bool twisted = false;
    for (const int slot : si.moving) twisted |= ref.twist[slot] != 0;
    if (modulus > 1 && (!si.twist_free || twisted)) {
      Coordinate o;
      o.orientation = true;
      o.slots = si.moving;
      o.modulus = modulus;
      o.kept_sum = si.twist_kept;
      for (const int slot : si.moving) o.twist_sum = (o.twist_sum + ref.twist[slot]) % modulus;
      for (int k = o.kept_sum ? 1 : 0; k < n; ++k)
        if (!multiply(o.count, static_cast<std::uint64_t>(modulus))) sys.overflow = true;
      if (o.count > 1) add(std::move(o));
    }
  }
  return sys;
}

void build_tables(System& sys) {
  const std::uint64_t columns = sys.columns;
  for (auto& c : sys.coords) {
    if (c.count * columns > DefinitionCoordinate::kMaxTableEntries) continue;
    c.table.resize(c.count * columns);
    for (std::uint64_t v = 0; v < c.count; ++v)
      for (unsigned m = 0; m < columns; ++m) c.table[v * columns + m] = static_cast<std::uint32_t>(c.move_value(v, static_cast<int>(m)));
  }
}

// The class's system, built once per definition and class in a process.
std::shared_ptr<const System> system_of(const DefinitionPuzzle& p) {
  static std::mutex mutex;
  static std::map<std::pair<std::shared_ptr<const PermutationDefinition>, std::string>, std::shared_ptr<const System>> cache;
  System sys = layout(p);
  std::string signature;
  for (const auto& c : sys.coords) signature += std::to_string(c.parity) + "," + std::to_string(c.twist_sum) + ";";
  for (int i = 0; i < p.definition().slots; ++i)
    if (p.invariants().fixed[i]) signature += std::to_string(p.reference().piece[i]) + "/" + std::to_string(p.reference().twist[i]) + " ";
  const std::lock_guard lock(mutex);
  auto& slot = cache[{p.shared_definition(), signature}];
  if (!slot) {
    if (!sys.overflow) build_tables(sys);
    sys.exact_reciprocals = !sys.overflow;
    for (auto& c : sys.coords) {
      c.reciprocal = ~std::uint64_t{0} / c.count + 1;
      std::uint64_t product;
      if (c.count < 2 || __builtin_mul_overflow(sys.bound, c.count, &product)) sys.exact_reciprocals = false;
    }
    slot = std::make_shared<const System>(std::move(sys));
  }
  return slot;
}

}  // namespace

std::uint64_t Coordinate::rank(const std::uint8_t* values) const {
  const int n = static_cast<int>(slots.size());
  std::uint64_t r = 0;
  if (orientation) {
    for (int i = n - (kept_sum ? 2 : 1); i >= 0; --i) r = r * static_cast<std::uint64_t>(modulus) + values[i];
    return r;
  }
  if (distinct) {  // Lehmer digits, the last two dropped when the parity is implied
    // A digit counts the later values below this one: the value less the earlier ones below it.
    std::uint64_t earlier = 0;
    for (int i = 0, last = even ? n - 2 : n; i < last; ++i) {
      const std::uint64_t below = (std::uint64_t{1} << values[i]) - 1;
      const int digit = values[i] - std::popcount(earlier & below);
      earlier |= std::uint64_t{1} << values[i];
      r = r * static_cast<std::uint64_t>(n - i) + static_cast<std::uint64_t>(digit);
    }
    return r;
  }
  // Multinomial rank: the arrangements that put a smaller label first, position by position.
  int counts[256];
  std::copy(this->counts.begin(), this->counts.end(), counts);
  unsigned __int128 total = count;  // arrangements of what is left
  for (int i = 0, left = n; i < n; ++i, --left) {
    for (int v = 0; v < values[i]; ++v) r += static_cast<std::uint64_t>(total * static_cast<unsigned>(counts[v]) / static_cast<unsigned>(left));
    total = total * static_cast<unsigned>(counts[values[i]]) / static_cast<unsigned>(left);
    --counts[values[i]];
  }
  return r;
}

void Coordinate::unrank(std::uint64_t value, std::uint8_t* values) const {
  const int n = static_cast<int>(slots.size());
  if (orientation) {
    int sum = 0;
    for (int i = 0, digits = kept_sum ? n - 1 : n; i < digits; ++i) {
      values[i] = static_cast<std::uint8_t>(value % static_cast<std::uint64_t>(modulus));
      value /= static_cast<std::uint64_t>(modulus);
      sum += values[i];
    }
    if (kept_sum) values[n - 1] = static_cast<std::uint8_t>(((twist_sum - sum) % modulus + modulus) % modulus);
    return;
  }
  if (distinct) {
    int digits[kMaxDefinitionSlots];
    const int last = even ? n - 2 : n;
    int inversions = 0;  // the digits' sum: its parity is the permutation's
    const auto split = [&](auto v) {  // mixed-radix digits, in the narrowest type that holds v
      for (int i = last - 1; i >= 0; --i) {
        digits[i] = static_cast<int>(v % static_cast<decltype(v)>(n - i));
        v /= static_cast<decltype(v)>(n - i);
      }
    };
    if (value <= 0xffffffffu) split(static_cast<std::uint32_t>(value));  // 32-bit divisions: several times faster
    else split(value);
    std::uint8_t left[kMaxDefinitionSlots];
    std::iota(left, left + n, std::uint8_t{0});
    for (int i = 0, remaining = n; i < last; ++i, --remaining) {
      values[i] = left[digits[i]];
      inversions += digits[i];
      std::copy(left + digits[i] + 1, left + remaining, left + digits[i]);
    }
    if (even) {
      values[n - 2] = left[0];
      values[n - 1] = left[1];
      if ((inversions & 1) != parity) std::swap(values[n - 2], values[n - 1]);
    }
    return;
  }
  int counts[256];
  std::copy(this->counts.begin(), this->counts.end(), counts);
  unsigned __int128 total = count;
  for (int i = 0, left = n; i < n; ++i, --left)
    for (int v = 0;; ++v) {
      if (counts[v] == 0) continue;
      const auto block = static_cast<std::uint64_t>(total * static_cast<unsigned>(counts[v]) / static_cast<unsigned>(left));
      if (value < block) {
        values[i] = static_cast<std::uint8_t>(v);
        total = block;
        --counts[v];
        break;
      }
      value -= block;
    }
}

std::uint64_t Coordinate::move_value(std::uint64_t value, int m) const {
  std::uint64_t out;
  move_values(value, m, m + 1, &out);
  return out;
}

void Coordinate::move_values(std::uint64_t value, int first, int end, std::uint64_t* out) const {
  std::uint8_t in[kMaxDefinitionSlots], moved[kMaxDefinitionSlots];
  unrank(value, in);  // once for all the moves
  for (int m = first; m < end; ++m) {
    const auto& src = source[static_cast<std::size_t>(m)];
    const auto& add = twist[static_cast<std::size_t>(m)];
    for (std::size_t i = 0; i < slots.size(); ++i)
      moved[i] = orientation ? static_cast<std::uint8_t>((in[src[i]] + add[i]) % modulus) : in[src[i]];
    out[m - first] = rank(moved);
  }
}

std::string DefinitionCoordinate::fits(const DefinitionPuzzle& p) {
  const System sys = layout(p);
  if (sys.overflow) return "its coordinates' product exceeds 2^64 (use engines that keep whole states: idastar, naive)";
  return "";
}

DefinitionCoordinate::DefinitionCoordinate(const DefinitionPuzzle& p)
    : system_(system_of(p)), reference_(p.reference()), moves_(static_cast<unsigned>(p.move_count())) {}

Key DefinitionCoordinate::encode(const State& s) const {
  Key key = 0;
  std::uint8_t values[kMaxDefinitionSlots];
  for (const auto& c : system_->coords) {
    for (std::size_t i = 0; i < c.slots.size(); ++i) {
      const int slot = c.slots[i];
      values[i] = c.orientation ? s.twist[slot] : c.index_of[s.piece[slot]];
    }
    key += c.stride * c.rank(values);
  }
  return key;
}

DefinitionState DefinitionCoordinate::decode(Key k) const {
  // Slots without a coordinate (fixed, or a set with one arrangement or no twist) keep the
  // reference's content.
  State s = reference_;
  std::uint8_t values[kMaxDefinitionSlots];
  for (const auto& c : system_->coords) {
    c.unrank((k / c.stride) % c.count, values);
    for (std::size_t i = 0; i < c.slots.size(); ++i) {
      if (c.orientation) s.twist[c.slots[i]] = values[i];
      else s.piece[c.slots[i]] = c.labels[values[i]];
    }
  }
  return s;
}

}  // namespace searchbench
