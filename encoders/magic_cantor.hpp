// Magic board encoder `cantor`: the permutation's lexicographic rank (Cantor expansion,
// Lehmer code): a perfect table of (2K)! keys, 40,320 for 2x4 and 479,001,600 for 2x6;
// 16! < 2^45 still fits a key for 2x8 (hashed past 2^33 keys).
//
// rank = sum_i  smaller_unused(v_i) * (n-1-i)!, where smaller_unused counts the values
// below v_i not used by earlier cells: one popcount over a bitmask of used values.
// Unranking picks the d-th unused value: one pdep where BMI2 is available.
//
// Up to 14 cells (2x7) unranking is two table lookups and one byte shuffle instead of a
// division per cell: rank = high * 8! + low, where `high` (< n!/8!: 11,880 rows for 2x6,
// 2,162,160 for 2x7) fixes the first n-8 values and `low` (< 8! = 40,320) the relative
// order of the last 8. The high table holds those first values followed by the remaining
// 8 in increasing order; the low table holds the shuffle that puts the remaining ones in
// place (645 KB, which stays in the L2 cache). The 2x7 high table takes 35 MB, but a
// whole-space scan decodes keys in increasing order, so it reads that table front to back.
// Whole-space searches decode every state once, so this is where their time goes;
// bench/bench_search.cpp measures it (codec/decode/cantor/...).
//
// Ranking, with AVX2, computes all Lehmer digits at once with byte compares and weighs
// them in 32-bit lanes: one sum of digit * (n-1-i)! up to 12 cells (12! < 2^32), and past
// that two, rank = (sum over the first n-8 cells of digit * (n-1-i)!/8!) * 8! + (sum over
// the last 8 of digit * (n-1-i)!), both below 2^32 for up to 16 cells.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <vector>

#include "core/concepts.hpp"
#include "core/permutation_rank.hpp"
#include "puzzles/magic_board.hpp"
#include <utility>
#if defined(__BMI2__) || defined(__SSSE3__) || defined(__AVX2__)
#include <immintrin.h>
#endif

namespace searchbench {

class MagicCantor {
 public:
  static constexpr std::string_view kName = "cantor";
  static constexpr bool kEveryKeyIsState = true;  // a perfect rank
  // What the benchmarks time against each other (bench_search's codec/ cases): the fast
  // paths (table unranking, vector ranking) and the textbook ones (a division per cell, a
  // popcount per cell).
  static constexpr auto decode_variants() {
    return std::array<std::pair<std::string_view, MagicState (MagicCantor::*)(Key) const>, 2>{
        {{"table", &MagicCantor::decode}, {"division", &MagicCantor::decode_by_division}}};
  }
  static constexpr auto encode_variants() {
    return std::array<std::pair<std::string_view, Key (MagicCantor::*)(const MagicState&) const>, 2>{
        {{"vector", &MagicCantor::encode}, {"popcount", &MagicCantor::encode_by_popcount}}};
  }
  static std::string fits(const MagicBoard&) { return {}; }
  explicit MagicCantor(const MagicBoard& p) : n_(p.cells()) {
    factorial_[0] = 1;
    for (int i = 1; i <= 16; ++i) factorial_[i] = factorial_[i - 1] * static_cast<Key>(i);
    if (n_ <= kTableCells) build_tables();
#if defined(__AVX2__)
    alignas(32) std::int32_t weights[16] = {}, first_cells[16] = {};
    alignas(16) std::uint8_t past_end[16] = {};
    for (int i = 0; i < 16; ++i) {
      if (i < n_) {
        const bool first = n_ > kOneSumCells && n_ - 1 - i >= kLowCells;  // weighs (n-1-i)!/8!, summed apart
        weights[i] = static_cast<std::int32_t>(first ? factorial_[n_ - 1 - i] / kLowOrders : factorial_[n_ - 1 - i]);
        first_cells[i] = first ? -1 : 0;
      }
      if (i >= n_) past_end[i] = 0x7F;
    }
    weights_low_ = _mm256_load_si256(reinterpret_cast<const __m256i*>(weights));
    weights_high_ = _mm256_load_si256(reinterpret_cast<const __m256i*>(weights + 8));
    first_low_ = _mm256_load_si256(reinterpret_cast<const __m256i*>(first_cells));
    first_high_ = _mm256_load_si256(reinterpret_cast<const __m256i*>(first_cells + 8));
    past_end_ = _mm_load_si128(reinterpret_cast<const __m128i*>(past_end));
#endif
  }

  Key encode(const MagicState& s) const {
#if defined(__AVX2__)
    return encode_by_vector(s);
#endif
    return encode_by_popcount(s);
  }
  Key encode_by_popcount(const MagicState& s) const {
    Key rank = 0;
    std::uint32_t used = 0;  // bit v set when value v appeared
    for (int i = 0; i < n_; ++i) {
      const unsigned v = s.cells[i];
      const unsigned smaller_unused = v - 1 - std::popcount(used & ((1u << v) - 1));
      rank += smaller_unused * factorial_[n_ - 1 - i];
      used |= 1u << v;
    }
    return rank;
  }
  MagicState decode(Key rank) const {
    if (n_ > kTableCells) return decode_by_division(rank);
    const Key high = n_ >= kLowCells ? rank / kLowOrders : 0;  // a constant divisor: a multiply
    const Key low = rank - high * kLowOrders;
    MagicState s;
#if defined(__SSSE3__)
    const __m128i values = _mm_loadu_si128(reinterpret_cast<const __m128i*>(high_[high].data()));
    const __m128i order = _mm_loadu_si128(reinterpret_cast<const __m128i*>(low_[low].data()));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(s.cells.data()), _mm_shuffle_epi8(values, order));
#else
    for (int i = 0; i < n_; ++i) s.cells[i] = high_[high][low_[low][i]];
#endif
    return s;
  }
  // The textbook unranking, one division per cell (sizes past the tables, and building them).
  MagicState decode_by_division(Key rank) const {
    MagicState s;
    std::uint32_t unused = ((1u << n_) - 1) << 1;  // values 1..n
    for (int i = 0; i < n_; ++i) {
      const Key f = factorial_[n_ - 1 - i];
      const unsigned d = static_cast<unsigned>(rank / f);
      rank -= d * f;
      const unsigned v = nth_set_bit(unused, d);
      s.cells[i] = static_cast<std::uint8_t>(v);
      unused &= ~(1u << v);
    }
    return s;
  }
  Key key_bound() const { return factorial_[n_]; }
  bool dense() const { return key_bound() <= kDenseKeyLimit; }

 private:
#if defined(__AVX2__)
  // All Lehmer digits at once: digit i counts the later cells j holding a smaller value,
  // so it is the sum over shifts t = 1..15 of [v_i > v_{i+t}], 16 byte compares side by
  // side per shift (cells past n read as 0x7F, larger than any value, and weigh 0). The
  // products are summed in two groups, the first n-8 cells and the last 8 (see the top).
  Key encode_by_vector(const MagicState& s) const {
    const __m128i cells = _mm_or_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s.cells.data())), past_end_);
    const __m128i digits = lehmer_digits(cells, std::make_integer_sequence<int, 16>{});
    const __m256i low = _mm256_mullo_epi32(_mm256_cvtepu8_epi32(digits), weights_low_);
    const __m256i high = _mm256_mullo_epi32(_mm256_cvtepu8_epi32(_mm_srli_si128(digits, 8)), weights_high_);
    if (n_ <= kOneSumCells) return horizontal_sum(_mm256_add_epi32(low, high));
    const __m256i first = _mm256_add_epi32(_mm256_and_si256(low, first_low_), _mm256_and_si256(high, first_high_));
    const __m256i last = _mm256_add_epi32(_mm256_andnot_si256(first_low_, low), _mm256_andnot_si256(first_high_, high));
    return Key{horizontal_sum(first)} * kLowOrders + horizontal_sum(last);
  }
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

  static constexpr int kTableCells = 14, kLowCells = 8;
  static constexpr int kOneSumCells = 12;  // 12! < 2^32: one weighted sum of all the digits
  static constexpr Key kLowOrders = 40320;  // 8!
  using Row = std::array<std::uint8_t, 16>;

  void build_tables() {
    const int low_cells = std::min(n_, kLowCells);
    high_.resize(factorial_[n_] / factorial_[low_cells]);
    for (Key h = 0; h < high_.size(); ++h) high_[h] = decode_by_division(h * factorial_[low_cells]).cells;
    low_.resize(factorial_[low_cells]);
    for (Key l = 0; l < low_.size(); ++l) {
      // With high = 0 the first n-8 cells hold 1..n-8 in order and the rest the pattern of
      // the last 8 over n-7..n, so value v sits at index v-1 of a high row.
      const MagicState pattern = decode_by_division(l);
      Row& order = low_[l];
      order.fill(0x80);  // pshufb writes 0 for indices with the top bit set: cells past n
      for (int i = 0; i < n_; ++i) order[i] = static_cast<std::uint8_t>(pattern.cells[i] - 1);
    }
  }

  int n_;
  std::array<Key, 17> factorial_{};
  std::vector<Row> high_, low_;
#if defined(__AVX2__)
  __m256i weights_low_, weights_high_;  // each cell's weight (see the top) for cells 0..7 and 8..15, 0 past n
  __m256i first_low_, first_high_;      // all ones in the lanes of the first n-8 cells
  __m128i past_end_;                    // 0x7F in the cells past n
#endif
};

}  // namespace searchbench
