// Reversing the first k of 64 bytes: a pancake flip, made on the pancake stack
// (puzzles/pancake_stack.hpp) and on the gap heuristic's labels (heuristics/pancake_labels.hpp).
// No branch depends on k: which flip comes next is data.
//
// * AVX-512 VBMI: the 64 bytes are one register, and the flip one masked byte permutation
//   (vpermb): byte i < k takes byte k-1-i, the others keep their own.
// * AVX2 (core/simd_level.hpp): the 64 bytes are two 32-byte registers, and vpshufb picks
//   bytes only inside each 16-byte lane. Each half of the result is the OR of vpshufb of
//   each source half as it is and with its lanes swapped (one lane-crossing vpermq per
//   half); each shuffle's index (a table row per k, 7 rows of 32 bytes) has the high bit set
//   where another shuffle supplies the byte, which vpshufb turns into 0. The upper half of
//   a flip reads only the lower half (the top of the stack) and itself: two shuffles and a
//   mask, the lower half four shuffles.
// * Portable (on every build, so that tests can hold the others to it): eight 64-bit words.
//   The whole 64 bytes reversed (a byte swap of each word, the words in reverse order) hold
//   the flipped prefix in their last k bytes, read back to the front by funnel shifts of word
//   pairs; a mask per word keeps the bytes at k and past.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>

#include "core/simd_level.hpp"
#if defined(SEARCHBENCH_SIMD_AVX2) || defined(SEARCHBENCH_SIMD_AVX512)
#include <immintrin.h>
#endif

namespace searchbench {

// Bytes 0..k-1 reversed, k = 2..64.
inline std::array<std::uint8_t, 64> flip_prefix(const std::array<std::uint8_t, 64>& bytes, int k) {
  const auto swap_bytes = [](std::uint64_t x) {
    x = (x & 0x00ff00ff00ff00ff) << 8 | (x >> 8 & 0x00ff00ff00ff00ff);
    x = (x & 0x0000ffff0000ffff) << 16 | (x >> 16 & 0x0000ffff0000ffff);
    return x << 32 | x >> 32;
  };
  // Word w, its first byte lowest whatever the machine's byte order.
  std::array<std::uint64_t, 8> word;
  std::memcpy(word.data(), bytes.data(), 64);
  if constexpr (std::endian::native != std::endian::little)
    for (auto& w : word) w = swap_bytes(w);
  std::array<std::uint64_t, 10> reversed{};  // past the 64 bytes: zeros, read only past k
  for (int w = 0; w < 8; ++w) reversed[w] = swap_bytes(word[7 - w]);
  const int from = 64 - k, first = from / 8, bits = from % 8 * 8;  // byte 64 - k of reversed: the new top
  std::array<std::uint8_t, 64> out;
  for (int w = 0; w < 8; ++w) {
    const int at = std::min(first + w, 8);
    const std::uint64_t moved = reversed[at] >> bits | reversed[at + 1] << (63 - bits) << 1;
    const unsigned half = 4 * static_cast<unsigned>(std::clamp(k - 8 * w, 0, 8));  // word w's bytes below k, times 4
    const std::uint64_t inside = ~(~std::uint64_t{0} << half << half);
    std::uint64_t result = (moved & inside) | (word[w] & ~inside);
    if constexpr (std::endian::native != std::endian::little) result = swap_bytes(result);
    std::memcpy(out.data() + 8 * w, &result, 8);
  }
  return out;
}

#if defined(SEARCHBENCH_SIMD_AVX512)
inline __m512i flip_prefix(__m512i v, int k) {
  const __m512i identity = _mm512_set_epi8(63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43,
                                           42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22,
                                           21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  const __mmask64 inside = _bzhi_u64(~std::uint64_t{0}, static_cast<unsigned>(k));
  const __m512i order = _mm512_sub_epi8(_mm512_set1_epi8(static_cast<char>(k - 1)), identity);
  return _mm512_mask_permutexvar_epi8(v, inside, order, v);
}
#endif

#if defined(SEARCHBENCH_SIMD_AVX2)
struct ByteHalves {
  __m256i low, high;  // bytes 0..31, 32..63
};

namespace prefix_flip_detail {
// Row k: for the lower half, the shuffles of the lower half as it is (0) and lanes swapped
// (1) and of the upper half so (2, 3); for the upper half, those of the lower half (4, 5)
// and the mask of its own bytes that stay (6). 0x80 where another row supplies the byte.
alignas(32) inline constexpr std::array<std::array<std::array<std::uint8_t, 32>, 7>, 65> kShuffles = [] {
  std::array<std::array<std::array<std::uint8_t, 32>, 7>, 65> rows{};
  for (int k = 0; k <= 64; ++k)
    for (int i = 0; i < 64; ++i) {
      const int from = i < k ? k - 1 - i : i, half = i / 32, lane = i / 16 % 2, first = half == 0 ? 2 * (from >= 32) : 4;
      for (int r = 4 * half; r < 4 + 2 * half; ++r) rows[k][r][i % 32] = 0x80;
      if (half == 1 && from >= 32) rows[k][6][i % 32] = 0xff;
      else rows[k][first + (from / 16 % 2 != lane)][i % 32] = static_cast<std::uint8_t>(from % 16);
    }
  return rows;
}();
}  // namespace prefix_flip_detail

inline ByteHalves flip_prefix(const ByteHalves& v, int k) {
  const auto& rows = prefix_flip_detail::kShuffles[k];
  const auto row = [&](int r) { return _mm256_load_si256(reinterpret_cast<const __m256i*>(rows[r].data())); };
  const __m256i low_swapped = _mm256_permute4x64_epi64(v.low, 0x4e), high_swapped = _mm256_permute4x64_epi64(v.high, 0x4e);
  const __m256i low = _mm256_or_si256(_mm256_or_si256(_mm256_shuffle_epi8(v.low, row(0)), _mm256_shuffle_epi8(low_swapped, row(1))),
                                      _mm256_or_si256(_mm256_shuffle_epi8(v.high, row(2)), _mm256_shuffle_epi8(high_swapped, row(3))));
  const __m256i high = _mm256_or_si256(_mm256_or_si256(_mm256_shuffle_epi8(v.low, row(4)), _mm256_shuffle_epi8(low_swapped, row(5))),
                                       _mm256_and_si256(v.high, row(6)));
  return {low, high};
}
#endif

}  // namespace searchbench
