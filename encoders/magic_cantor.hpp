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
// them in 32-bit lanes (SmallPermutationRank, core/permutation_rank.hpp).
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <numeric>
#include <vector>

#include "core/concepts.hpp"
#include "core/permutation_rank.hpp"
#include "puzzles/magic_board.hpp"
#include <utility>
#if defined(__SSSE3__)
#include <immintrin.h>
#endif

namespace searchbench {

class MagicCantor {
 public:
  static constexpr std::string_view kName = "cantor";
  static constexpr EncoderCapabilities kCapabilities{.every_key_is_state = true, .codec_variants = true};  // a perfect rank
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
  explicit MagicCantor(const MagicBoard& p)
      : n_(p.cells()), small_rank_(n_) {
    factorial_[0] = 1;
    for (int i = 1; i <= 16; ++i) factorial_[i] = factorial_[i - 1] * static_cast<Key>(i);
    if (n_ <= kTableCells) build_tables();
  }

  Key encode(const MagicState& s) const { return small_rank_.rank(s.cells.data()); }
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
  static constexpr int kTableCells = 14, kLowCells = 8;
  static constexpr Key kLowOrders = 40320;  // 8!
  using Row = std::array<std::uint8_t, 16>;

  void build_tables() {
    const int low_cells = std::min(n_, kLowCells);
    high_.resize(factorial_[n_] / factorial_[low_cells]);
    for (Key h = 0; h < high_.size(); ++h) high_[h] = decode_by_division(h * factorial_[low_cells]).cells;
    // With high = 0 the first n-8 cells hold 1..n-8 in order and the rest the l-th
    // permutation of n-7..n in lexicographic order, so value v sits at index v-1 of a high
    // row. Ranks count permutations in lexicographic order, so the rows are the successive
    // permutations of the last cells: one next_permutation each rather than an unranking
    // with a division per cell.
    low_.resize(factorial_[low_cells]);
    Row order;
    order.fill(0x80);  // pshufb writes 0 for indices with the top bit set: cells past n
    for (int i = 0; i < n_; ++i) order[i] = static_cast<std::uint8_t>(i);
    std::array<int, kLowCells> tail{};
    std::iota(tail.begin(), tail.begin() + low_cells, n_ - low_cells);
    for (Row& row : low_) {
      row = order;
      for (int i = 0; i < low_cells; ++i) row[n_ - low_cells + i] = static_cast<std::uint8_t>(tail[i]);
      std::next_permutation(tail.begin(), tail.begin() + low_cells);
    }
  }

  int n_;
  std::array<Key, 17> factorial_{};
  std::vector<Row> high_, low_;
  SmallPermutationRank small_rank_;
};

}  // namespace searchbench
