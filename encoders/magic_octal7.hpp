// Magic board encoder `octal7`: like `octal`, but the last cell is left out because it is
// the one value the others do not use: 7 octal digits, 21 bits, a table of 2^21 for 2x4
// (8x smaller than octal, at the cost of one sum when decoding).
#pragma once

#include "encoders/magic_bitpack.hpp"

namespace searchbench {

class MagicOctal7 : public MagicBitPack {
 public:
  static constexpr std::string_view kName = "octal7";
  static std::string fits(const MagicBoard&) { return {}; }
  explicit MagicOctal7(const MagicBoard& p) : MagicBitPack(p, p.cells() - 1) {}
};

}  // namespace searchbench
