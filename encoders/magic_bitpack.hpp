// Magic board encoder `bitpack`: every cell's value-1 packed into ceil(log2(2K)) bits
// (encoders/magic_cell_packing.hpp): 3 bits, octal digits, up to K = 4, so 24 bits for 2x4,
// a direct table of 2^24 entries of which 8! are used; 4 bits from K = 5, where past 2^33
// keys the key space no longer fits a table and is hashed. Also answers to its former
// name `octal` for K <= 4.
#pragma once

#include <string>
#include <string_view>

#include "encoders/magic_cell_packing.hpp"

namespace searchbench {

class MagicBitpack : public MagicCellPacking {
 public:
  static constexpr std::string_view kName = "bitpack";
  static constexpr EncoderCapabilities kCapabilities{.former_name = true};
  static constexpr std::string_view kFormerName = "octal";
  static std::string fits(const MagicBoard&) { return {}; }  // 16 cells x 4 bits = 64 bits
  static std::string former_name_fits(const MagicBoard& p) { return MagicCellPacking::former_name_fits(p, kFormerName); }
  explicit MagicBitpack(const MagicBoard& p) : MagicCellPacking(p, p.cells()) {}
};

}  // namespace searchbench
