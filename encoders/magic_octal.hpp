// Magic board encoder `octal`: every cell's value-1 packed into 3 bits (K <= 4), 24 bits
// for 2x4: a direct table of 2^24 entries of which 8! are used. Larger boards need 4 bits
// a cell; past 2^33 keys (K >= 5) the key space no longer fits a table and is hashed.
#pragma once

#include "encoders/magic_bitpack.hpp"

namespace searchbench {

class MagicOctal : public MagicBitPack {
 public:
  static constexpr std::string_view kName = "octal";
  static std::string fits(const MagicBoard&) { return {}; }  // 16 cells x 4 bits = 64 bits
  explicit MagicOctal(const MagicBoard& p) : MagicBitPack(p, p.cells()) {}
};

}  // namespace searchbench
