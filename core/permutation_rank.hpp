// Lexicographic rank of a partial permutation: the first k values of an arrangement of
// 0..n-1 (n <= 20), among the n!/(n-k)! possible prefixes. With k = n-1 (the last value is
// the one left over) it is the Lehmer code, or Cantor expansion, of the whole permutation.
//
// Ranking: digit d_i counts the values below v_i that earlier cells did not use (one
// popcount over a bitmask of used values), and rank = ((d_0 (n-1) + d_1) (n-2) + d_2) ...,
// one multiply-add per cell (Horner form of sum d_i (n-1-i)!/(n-k)!).
// Unranking peels the digits off from the last: d_i = r mod (n-i), r = r div (n-i). The
// divisors are fixed per position, so each division is the high half of one multiply by a
// precomputed reciprocal (exact for every rank, see the constructor); the d-th unused
// value is then one pdep where BMI2 is available.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <string>

#include "core/concepts.hpp"
#include "core/errors.hpp"
#if defined(__BMI2__)
#include <immintrin.h>
#endif

namespace searchbench {

// The position of the d-th (from 0) set bit of `mask`: the d-th value not used yet.
inline unsigned nth_set_bit(std::uint32_t mask, unsigned d) {
#if defined(__BMI2__)
  return static_cast<unsigned>(std::countr_zero(_pdep_u32(1u << d, mask)));
#else
  for (unsigned i = 0; i < d; ++i) mask &= mask - 1;
  return static_cast<unsigned>(std::countr_zero(mask));
#endif
}

class PartialPermutationRank {
 public:
  static constexpr int kMaxValues = 20;  // 20! < 2^64

  PartialPermutationRank(int n, int k) : n_(n), k_(k) {
    if (n < 2 || n > kMaxValues || k < 1 || k > n - 1)
      throw InputError("a permutation rank needs 2 <= n <= 20 and 1 <= k < n (got n=" + std::to_string(n) +
                       ", k=" + std::to_string(k) + ")");
    // floor(2^64 / d) + 1 (2^64 / d for powers of two). mulhi(r, m) = floor(r/d) whenever
    // r < 2^64 / d; before the division by d = n-i the rank is below n!/(d-1)!, and
    // n!/(d-1)! * d <= 2 * n! < 2^64 for n <= 20.
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
    std::array<unsigned, kMaxValues> digit;
    for (int i = k_ - 1; i >= 0; --i) {
      const Key q = mulhi(r, reciprocal_[i]);
      digit[i] = static_cast<unsigned>(r - q * static_cast<Key>(n_ - i));
      r = q;
    }
    std::uint32_t unused = (1u << n_) - 1;
    for (int i = 0; i < k_; ++i) {
      const unsigned x = nth_set_bit(unused, digit[i]);
      out[i] = static_cast<std::uint8_t>(x);
      unused &= ~(1u << x);
    }
    return unused;
  }

 private:
  static Key mulhi(Key a, Key b) {
    __extension__ using Wide = unsigned __int128;
    return static_cast<Key>((static_cast<Wide>(a) * b) >> 64);
  }

  int n_;
  int k_;
  Key count_ = 1;
  std::array<Key, kMaxValues> reciprocal_{};
};

}  // namespace searchbench
