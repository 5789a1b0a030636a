// Magic board encoder `bitpack-implied`: like `bitpack`, but the last cell is left out
// because it is the one value the others do not use: for 2x4 7 octal digits, 21 bits, a
// table of 2^21 (8x smaller than bitpack's, at the cost of one sum when decoding). Also
// answers to its former name `octal7` for K <= 4.
#pragma once

#include <string>
#include <string_view>

#include "encoders/magic_cell_packing.hpp"

namespace searchbench {

class MagicBitpackImplied : public MagicCellPacking {
 public:
  static constexpr std::string_view kName = "bitpack-implied";
  static constexpr EncoderCapabilities kCapabilities{.former_name = true};
  static constexpr std::string_view kFormerName = "octal7";
  static std::string fits(const MagicBoard&) { return {}; }
  static std::string former_name_fits(const MagicBoard& p) { return MagicCellPacking::former_name_fits(p, kFormerName); }
  explicit MagicBitpackImplied(const MagicBoard& p) : MagicCellPacking(p, p.cells() - 1) {}
};

}  // namespace searchbench
