// `packed`: a definition puzzle's state as bit fields, for definitions whose class is too
// large to rank into a table. Each moving slot (one some move changes) takes the bits of its
// set's piece labels and of its orientation modulus; the fixed slots take none. Shifts and
// masks only, but keys that are no state: hashed unless the fields total 33 bits or fewer.
#pragma once

#include <bit>
#include <string>
#include <string_view>
#include <vector>

#include "core/concepts.hpp"
#include "puzzles/definition_puzzle.hpp"

namespace searchbench {

class DefinitionPacked {
 public:
  using State = DefinitionState;
  static constexpr std::string_view kName = "packed";
  static constexpr EncoderCapabilities kCapabilities{};

  static std::string fits(const DefinitionPuzzle& p) {
    const int bits = layout(p).bits;
    if (bits > 64) return "its moving slots need " + std::to_string(bits) + " bits, more than a 64-bit key";
    return {};
  }
  explicit DefinitionPacked(const DefinitionPuzzle& p) : layout_(layout(p)), reference_(p.reference()) {}

  Key encode(const State& s) const {
    Key k = 0;
    for (const Field& f : layout_.fields) k |= (Key{s.piece[f.slot]} << f.shift) | (Key{s.twist[f.slot]} << (f.shift + f.piece_bits));
    return k;
  }
  State decode(Key k) const {
    State s = reference_;
    for (const Field& f : layout_.fields) {
      s.piece[f.slot] = static_cast<std::uint8_t>((k >> f.shift) & ((Key{1} << f.piece_bits) - 1));
      s.twist[f.slot] = static_cast<std::uint8_t>((k >> (f.shift + f.piece_bits)) & ((Key{1} << f.twist_bits) - 1));
    }
    return s;
  }
  Key key_bound() const { return layout_.bits >= 64 ? ~Key{0} : Key{1} << layout_.bits; }
  bool dense() const { return key_bound() <= kDenseKeyLimit; }

 private:
  struct Field {
    int slot, shift, piece_bits, twist_bits;
  };
  struct Layout {
    std::vector<Field> fields;
    int bits = 0;
  };
  // Piece labels are stored as they are (below 256), in as many bits as the largest needs.
  static Layout layout(const DefinitionPuzzle& p) {
    const PermutationDefinition& d = p.definition();
    Layout l;
    for (std::size_t s = 0; s < d.sets.size(); ++s) {
      int largest = 0;
      for (const int slot : p.invariants().sets[s].moving) largest = std::max<int>(largest, d.solved_piece[slot]);
      const int piece_bits = std::bit_width(static_cast<unsigned>(largest));
      const int twist_bits = std::bit_width(static_cast<unsigned>(d.sets[s].orientations - 1));
      for (const int slot : p.invariants().sets[s].moving) {
        l.fields.push_back({slot, l.bits, piece_bits, twist_bits});
        l.bits += piece_bits + twist_bits;
      }
    }
    return l;
  }

  Layout layout_;
  State reference_;
};

}  // namespace searchbench
