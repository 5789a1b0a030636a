// Counts that may pass 2^64 - 1 (the 24-puzzle's 25!/2 boards, 60 pancakes' 60! stacks):
// saturated there, an upper bound as the puzzles' component_size allows.
#pragma once

#include <cstdint>
#include <limits>

namespace searchbench {

// a * b, saturated at 2^64 - 1.
inline std::uint64_t saturating_times(std::uint64_t a, std::uint64_t b) {
  std::uint64_t out;
  return __builtin_mul_overflow(a, b, &out) ? std::numeric_limits<std::uint64_t>::max() : out;
}

// from * (from + 1) * ... * to (1 when to < from), saturated at 2^64 - 1.
inline std::uint64_t saturating_product(int from, int to) {
  std::uint64_t f = 1;
  for (int i = from; i <= to; ++i) f = saturating_times(f, static_cast<std::uint64_t>(i));
  return f;
}

}  // namespace searchbench
