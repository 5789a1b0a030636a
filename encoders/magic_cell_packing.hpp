// Shared by the magic board's two bit-pack encoders (`bitpack`, `bitpack-implied`): cell
// i's value-1 goes into bits [b*i, b*i+b), with b = ceil(log2(2K)) bits per cell (3 for
// K = 3, 4, which are octal digits; 4 for K = 5..8). The first `packed` cells are stored;
// when packed = 2K-1 the last cell is implied, being the one value not seen.
// Where pdep and pext are fast (core/fast_pdep.hpp) a key is two pext of the cells' bytes
// (and a board two pdep): the loop below is a chain of one shift and one or per cell, on the
// path walk of every judge case.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>

#include "core/concepts.hpp"
#include "core/fast_pdep.hpp"
#include "puzzles/magic_board.hpp"

namespace searchbench {

class MagicCellPacking {
 public:
  MagicCellPacking(const MagicBoard& p, int packed)
      : n_(p.cells()), packed_(packed), bits_(std::bit_width(static_cast<unsigned>(p.cells() - 1))) {
    const int total = bits_ * packed_;
    bound_ = total >= 64 ? std::numeric_limits<Key>::max() : Key{1} << total;
    for (int i = 0; i < packed_; ++i) {
      const std::uint64_t cell_bits = ((std::uint64_t{1} << bits_) - 1) << (8 * (i % 8));
      (i < 8 ? low_mask_ : high_mask_) |= cell_bits;
      (i < 8 ? low_ones_ : high_ones_) |= std::uint64_t{1} << (8 * (i % 8));
    }
    low_bits_ = std::popcount(low_mask_);
  }
  Key encode(const MagicState& s) const {
#if defined(SEARCHBENCH_FAST_PDEP)
    // Byte i of a word holds cell i's value, >= 1 for every packed cell: subtracting 1 from
    // each borrows only out of the unused bytes above them, which the masks drop.
    std::uint64_t low, high;
    std::memcpy(&low, s.cells.data(), 8);
    std::memcpy(&high, s.cells.data() + 8, 8);
    return _pext_u64(low - low_ones_, low_mask_) | _pext_u64(high - high_ones_, high_mask_) << low_bits_;
#else
    Key k = 0;
    for (int i = packed_ - 1; i >= 0; --i) k = (k << bits_) | (s.cells[i] - 1u);
    return k;
#endif
  }
  MagicState decode(Key k) const {
    MagicState s;
#if defined(SEARCHBENCH_FAST_PDEP)
    const std::uint64_t low = _pdep_u64(k, low_mask_) + low_ones_;
    const std::uint64_t high = _pdep_u64(k >> low_bits_, high_mask_) + high_ones_;
    std::memcpy(s.cells.data(), &low, 8);
    std::memcpy(s.cells.data() + 8, &high, 8);
    if (packed_ < n_) {  // each half's byte sum by one multiply (at most 8 cells of 16: below 256, no carry)
      constexpr std::uint64_t kEveryByte = 0x0101010101010101ULL;
      const unsigned sum = static_cast<unsigned>((low * kEveryByte) >> 56) + static_cast<unsigned>((high * kEveryByte) >> 56);
      s.cells[n_ - 1] = static_cast<std::uint8_t>(n_ * (n_ + 1) / 2 - sum);
    }
    return s;
#else
    const Key mask = (Key{1} << bits_) - 1;
    unsigned sum = 0;
    for (int i = 0; i < packed_; ++i) {
      s.cells[i] = static_cast<std::uint8_t>((k & mask) + 1);
      sum += s.cells[i];
      k >>= bits_;
    }
    if (packed_ < n_) s.cells[n_ - 1] = static_cast<std::uint8_t>(n_ * (n_ + 1) / 2 - sum);
    return s;
#endif
  }
  Key key_bound() const { return bound_; }
  bool dense() const { return bound_ <= kDenseKeyLimit; }

  // The encoders' former names `octal` and `octal7` said 3-bit cells, true up to K = 4.
  static std::string former_name_fits(const MagicBoard& p, std::string_view name) {
    if (p.width() <= 4) return {};
    return "'" + std::string(name) + "' named 3-bit (octal) cells, which hold K <= 4; the cells of 2x" +
           std::to_string(p.width()) + " take 4 bits";
  }

 private:
  int n_;
  int packed_;
  int bits_;
  Key bound_;
  // The packed cells' bits in each 8-byte half of the board, a 1 in each packed cell's byte
  // and how many key bits the low half gives.
  std::uint64_t low_mask_ = 0, high_mask_ = 0, low_ones_ = 0, high_ones_ = 0;
  int low_bits_ = 0;
};

}  // namespace searchbench
