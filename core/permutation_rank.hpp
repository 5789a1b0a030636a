// Lexicographic rank of a partial permutation: the first k values of an arrangement of
// 0..n-1 (n <= 20), among the n!/(n-k)! possible prefixes. With k = n-1 (the last value is
// the one left over) it is the Lehmer code, or Cantor expansion, of the whole permutation.
//
// Ranking: digit d_i counts the values below v_i that earlier cells did not use (one
// popcount over a bitmask of used values), and rank = ((d_0 (n-1) + d_1) (n-2) + d_2) ...,
// one multiply-add per cell (Horner form of sum d_i (n-1-i)!/(n-k)!).
// Unranking peels the digits off from the last: d_i = r mod (n-i), r = r div (n-i). The
// divisors are fixed per position, so each division is the high half of one multiply by a
// precomputed reciprocal (exact for every rank, see the constructor). The d-th unused
// value then comes from a vector of the unused values in increasing order (up to 16
// values, with SSSE3): one byte shuffle reads it and another closes the gap it leaves.
// That beats picking it from a mask of the unused values (nth_set_bit), which the larger
// sizes do.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <utility>

#include "core/concepts.hpp"
#include "core/errors.hpp"
#include "core/fast_pdep.hpp"
#if defined(__SSSE3__) || defined(__AVX2__)
#include <immintrin.h>
#endif

namespace searchbench {

// The position of the d-th (from 0) set bit of `mask` (which has more than d): the d-th
// value not used yet. Without a fast pdep, a binary search by popcount over halves of the
// mask, without branches: five steps whatever d is.
inline unsigned nth_set_bit(std::uint32_t mask, unsigned d) {
#if defined(SEARCHBENCH_FAST_PDEP)
  return static_cast<unsigned>(std::countr_zero(_pdep_u32(1u << d, mask)));
#else
  unsigned position = 0;
  for (const unsigned width : {16u, 8u, 4u, 2u, 1u}) {
    const unsigned below = static_cast<unsigned>(std::popcount(mask & ((1u << width) - 1)));
    const unsigned past = d >= below ? width : 0;  // the bit lies above the low `width` bits
    d -= past ? below : 0;
    mask >>= past;
    position += past;
  }
  return position;
#endif
}

class PartialPermutationRank {
 public:
  static constexpr int kMaxValues = 20;  // a whole permutation (k = n - 1): 20! < 2^64
  static constexpr int kMaxSlots = 31;   // values held in a 32-bit mask (6 of a 5x5 board's 25 cells)

  // Whether k of n values rank in a Key: n!/(n-k)! and unrank's division steps fit 64 bits
  // (see the constructor).
  static bool fits(int n, int k) {
    if (n < 2 || n > kMaxSlots || k < 1 || k > n - 1) return false;
    unsigned __int128 count = 1;
    for (int i = 0; i < k; ++i) count *= static_cast<unsigned>(n - i);
    return count * static_cast<unsigned>(n - k + 1) <= ~Key{0};
  }

  PartialPermutationRank(int n, int k) : n_(n), k_(k) {
    if (!fits(n, k))
      throw InputError("a permutation rank needs 2 <= n <= 31, 1 <= k < n and n!/(n-k)! below 2^64 (got n=" +
                       std::to_string(n) + ", k=" + std::to_string(k) + ")");
    // floor(2^64 / d) + 1 (2^64 / d for powers of two). mulhi(r, m) = floor(r/d) whenever
    // r < 2^64 / d; before the division by d = n-i the rank is below n!/(d-1)!, and
    // n!/(d-1)! * d <= n!/(n-k)! * (n-k+1) < 2^64, which fits() checked.
    for (int i = 0; i < k; ++i) {
      const Key d = static_cast<Key>(n - i);
      reciprocal_[i] = ~Key{0} / d + 1;
      count_ *= d;
    }
  }

  int values() const { return n_; }
  int ranked() const { return k_; }
  Key count() const { return count_; }  // n! / (n-k)!

  Key rank(const std::uint8_t* v) const {
    Key r = 0;
    std::uint32_t used = 0;  // bit x set when value x appeared
    for (int i = 0; i < k_; ++i) {
      const unsigned x = v[i];
      r = r * static_cast<Key>(n_ - i) + (x - static_cast<unsigned>(std::popcount(used & ((1u << x) - 1))));
      used |= 1u << x;
    }
    return r;
  }

  // Writes the k values of rank r to out[0..k); returns the mask of the values left over.
  std::uint32_t unrank(Key r, std::uint8_t* out) const {
    std::array<unsigned, kMaxSlots> digit;
    for (int i = k_ - 1; i >= 0; --i) {
      const Key q = mulhi(r, reciprocal_[i]);
      digit[i] = static_cast<unsigned>(r - q * static_cast<Key>(n_ - i));
      r = q;
    }
#if defined(__SSSE3__)
    if (n_ <= 16) return take_from_vector(digit, out);
#endif
    std::uint32_t unused = (1u << n_) - 1;
    for (int i = 0; i < k_; ++i) {
      const unsigned x = nth_set_bit(unused, digit[i]);
      out[i] = static_cast<std::uint8_t>(x);
      unused &= ~(1u << x);
    }
    return unused;
  }

 private:
#if defined(__SSSE3__)
  // unrank's second half for n <= 16: byte j of `left` is the j-th value not used yet.
  std::uint32_t take_from_vector(const std::array<unsigned, kMaxSlots>& digit, std::uint8_t* out) const {
    const __m128i iota = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    __m128i left = iota;
    std::uint32_t used = 0;
    for (int i = 0; i < k_; ++i) {
      const __m128i d = _mm_set1_epi8(static_cast<char>(digit[i]));
      const unsigned x = static_cast<unsigned>(_mm_cvtsi128_si32(_mm_shuffle_epi8(left, d))) & 0xffu;
      out[i] = static_cast<std::uint8_t>(x);
      used |= 1u << x;
      // Byte j takes byte j + (j >= d): the d-th value drops out, the order stays.
      left = _mm_shuffle_epi8(left, _mm_sub_epi8(iota, _mm_cmpgt_epi8(iota, _mm_sub_epi8(d, _mm_set1_epi8(1)))));
    }
    return ((1u << n_) - 1) & ~used;
  }
#endif
  static Key mulhi(Key a, Key b) {
    __extension__ using Wide = unsigned __int128;
    return static_cast<Key>((static_cast<Wide>(a) * b) >> 64);
  }

  int n_;
  int k_;
  Key count_ = 1;
  std::array<Key, kMaxSlots> reciprocal_{};
};

// The Lehmer rank of a whole permutation of n <= 16 distinct values (bytes below 0x7F; only
// their order counts), read from the first n of 16 readable bytes, all digits at once:
// digit i counts the later cells j holding a smaller value, the sum over shifts t = 1..15
// of [v_i > v_{i+t}], 16 byte compares side by side per shift (cells past n read as 0x7F,
// larger than any value, and weigh 0). The digits weigh (n-1-i)! in 32-bit lanes: one sum
// up to 12 values (12! < 2^32); past that two, rank = (sum over the first n-8 cells of
// digit * (n-1-i)!/8!) * 8! + (sum over the last 8 of digit * (n-1-i)!), both below 2^32
// up to 16 values. Equal to PartialPermutationRank(n, n-1) on values 0..n-1. Without AVX2
// the digits are counted one pair of cells at a time.
class SmallPermutationRank {
 public:
  static constexpr int kMaxValues = 16;

  explicit SmallPermutationRank(int n) : n_(n) {
    if (n < 1 || n > kMaxValues)
      throw InputError("a small permutation rank needs 1 <= n <= 16 (got n=" + std::to_string(n) + ")");
    for (int i = 1; i <= kMaxValues; ++i) factorial_[i] = factorial_[i - 1] * static_cast<Key>(i);
#if defined(__AVX2__)
    alignas(32) std::int32_t weights[16] = {}, first_cells[16] = {};
    alignas(16) std::uint8_t past_end[16] = {};
    for (int i = 0; i < 16; ++i) {
      if (i < n_) {
        const bool first = n_ > kOneSumValues && n_ - 1 - i >= kLowCells;  // weighs (n-1-i)!/8!, summed apart
        weights[i] = static_cast<std::int32_t>(first ? factorial_[n_ - 1 - i] / kLowOrders : factorial_[n_ - 1 - i]);
        first_cells[i] = first ? -1 : 0;
      } else {
        past_end[i] = 0xFF;
      }
    }
    weights_low_ = _mm256_load_si256(reinterpret_cast<const __m256i*>(weights));
    weights_high_ = _mm256_load_si256(reinterpret_cast<const __m256i*>(weights + 8));
    first_low_ = _mm256_load_si256(reinterpret_cast<const __m256i*>(first_cells));
    first_high_ = _mm256_load_si256(reinterpret_cast<const __m256i*>(first_cells + 8));
    past_end_ = _mm_load_si128(reinterpret_cast<const __m128i*>(past_end));
#endif
  }

  Key rank(const std::uint8_t* cells16) const {
#if !defined(__AVX2__)
    Key r = 0;
    for (int i = 0; i < n_; ++i) {
      unsigned digit = 0;
      for (int j = i + 1; j < n_; ++j) digit += cells16[j] < cells16[i];
      r += digit * factorial_[n_ - 1 - i];
    }
    return r;
#else
    const __m128i loaded = _mm_loadu_si128(reinterpret_cast<const __m128i*>(cells16));
    const __m128i cells = _mm_blendv_epi8(loaded, _mm_set1_epi8(0x7F), past_end_);
    const __m128i digits = lehmer_digits(cells, std::make_integer_sequence<int, 16>{});
    const __m256i low = _mm256_mullo_epi32(_mm256_cvtepu8_epi32(digits), weights_low_);
    const __m256i high = _mm256_mullo_epi32(_mm256_cvtepu8_epi32(_mm_srli_si128(digits, 8)), weights_high_);
    if (n_ <= kOneSumValues) return horizontal_sum(_mm256_add_epi32(low, high));
    const __m256i first = _mm256_add_epi32(_mm256_and_si256(low, first_low_), _mm256_and_si256(high, first_high_));
    const __m256i last = _mm256_add_epi32(_mm256_andnot_si256(first_low_, low), _mm256_andnot_si256(first_high_, high));
    return Key{horizontal_sum(first)} * kLowOrders + horizontal_sum(last);
#endif
  }

 private:
  static constexpr int kOneSumValues = 12;  // 12! < 2^32: one weighted sum of all the digits
  static constexpr int kLowCells = 8;
  static constexpr Key kLowOrders = 40320;  // 8!

#if defined(__AVX2__)
  static std::uint32_t horizontal_sum(__m256i v) {
    __m128i sum4 = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    sum4 = _mm_add_epi32(sum4, _mm_shuffle_epi32(sum4, 0x4E));
    sum4 = _mm_add_epi32(sum4, _mm_shuffle_epi32(sum4, 0xB1));
    return static_cast<std::uint32_t>(_mm_cvtsi128_si32(sum4));
  }
  template <int... Shift>
  static __m128i lehmer_digits(__m128i cells, std::integer_sequence<int, 0, Shift...>) {
    const __m128i fill = _mm_set1_epi8(0x7F);
    __m128i digits = _mm_setzero_si128();
    ((digits = _mm_sub_epi8(digits, _mm_cmpgt_epi8(cells, _mm_alignr_epi8(fill, cells, Shift)))), ...);
    return digits;
  }
#endif

  int n_;
  std::array<Key, kMaxValues + 1> factorial_{1};
#if defined(__AVX2__)
  __m256i weights_low_, weights_high_;  // each cell's weight (see above) for cells 0..7 and 8..15, 0 past n
  __m256i first_low_, first_high_;      // all ones in the lanes of the first n-8 cells
  __m128i past_end_;                    // all ones in the cells past n
#endif
};

}  // namespace searchbench
