// Shared by the magic board's two bit-pack encoders (`bitpack`, `bitpack-implied`): cell
// i's value-1 goes into bits [b*i, b*i+b), with b = ceil(log2(2K)) bits per cell (3 for
// K = 3, 4, which are octal digits; 4 for K = 5..8). The first `packed` cells are stored;
// when packed = 2K-1 the last cell is implied, being the one value not seen.
#pragma once

#include <bit>
#include <limits>
#include <string>
#include <string_view>

#include "core/concepts.hpp"
#include "puzzles/magic_board.hpp"

namespace searchbench {

class MagicCellPacking {
 public:
  MagicCellPacking(const MagicBoard& p, int packed)
      : n_(p.cells()), packed_(packed), bits_(std::bit_width(static_cast<unsigned>(p.cells() - 1))) {
    const int total = bits_ * packed_;
    bound_ = total >= 64 ? std::numeric_limits<Key>::max() : Key{1} << total;
  }
  Key encode(const MagicState& s) const {
    Key k = 0;
    for (int i = packed_ - 1; i >= 0; --i) k = (k << bits_) | (s.cells[i] - 1u);
    return k;
  }
  MagicState decode(Key k) const {
    MagicState s;
    const Key mask = (Key{1} << bits_) - 1;
    unsigned sum = 0;
    for (int i = 0; i < packed_; ++i) {
      s.cells[i] = static_cast<std::uint8_t>((k & mask) + 1);
      sum += s.cells[i];
      k >>= bits_;
    }
    if (packed_ < n_) s.cells[n_ - 1] = static_cast<std::uint8_t>(n_ * (n_ + 1) / 2 - sum);
    return s;
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
};

}  // namespace searchbench
