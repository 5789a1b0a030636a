// Sliding-tile encoder `blank-low`: a perfect rank of the reachable boards, (RC)!/2 keys
// like `cantor`, ordered so that a move's successor key follows from the parent's key
// without building and ranking the successor, and half of the moves land next door.
//
// The board is read as the cells of the values 0 (the blank), 1, ..., RC-3 (the last two
// tiles' cells are implied, as in `cantor`: one order of them is reachable). Value v gets
// the Lehmer digit d_v = cell(v) - #{u < v : cell(u) < cell(v)}, in 0..RC-1-v, and the key
// is the mixed-radix number with the BLANK's digit lowest:
//   key = d_0 + RC (d_1 + (RC-1) (d_2 + ...)),  weight W_v = RC (RC-1) ... (RC-v+1).
// d_0 is the blank's cell itself. Why that order pays (C = the number of columns):
// * A horizontal move swaps the blank with its left or right neighbour: d_0 changes by 1
//   and no other digit changes (both values of the swapped pair stay on the same side of
//   every other cell), so the successor's key is key +- 1, usually in the same cache line
//   as the parent's cell.
// * A vertical move brings tile t across the C-1 cells between the blank's two cells.
//   Down (blank from b to b+C): d_0 grows by C; each value u < t among the cells between
//   gains 1 (the blank, below u in value, left its left side; t, above it, did not come);
//   and d_t changes by (#between below t) - (C-1). Up is the exact negation, so both are
//   a few table lookups over the C-1 cells between.
// * The digits' sum is the inversion count of the board, so decoding picks the order of
//   the last two tiles from the digits and the blank's row + column alone.
// Perfect: the parallel engine's two-bit and bottom-up levels, which read successor and
// predecessor keys through successor_key/predecessor_key (core/concepts.hpp), apply.
// Past 2^33 keys (4x4) the key space is hashed. At most 16 cells (4x4, 2x8).
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/concepts.hpp"
#include "core/errors.hpp"
#include "puzzles/sliding_tiles.hpp"
#if defined(__SSE2__)
#include <immintrin.h>
#endif

namespace searchbench {

class TilesBlankLow {
 public:
  static constexpr std::string_view kName = "blank-low";
  static constexpr EncoderCapabilities kCapabilities{.every_key_is_state = true, .incremental_keys = true, .sequential_decoder = true};  // a perfect rank of the reachable half
  static constexpr int kMaxCells = 16;  // the decoder holds a row in one 16-byte vector
  static std::string fits(const SlidingTiles& p) {
    if (p.cells() <= kMaxCells) return {};
    return "its decoder holds at most 16 cells (this board has " + std::to_string(p.cells()) + ")";
  }

  explicit TilesBlankLow(const SlidingTiles& p)
      : puzzle_(p), n_(p.cells()), ranked_(p.cells() - 2), columns_(p.columns()), goal_parity_(p.parity(p.start())) {
    if (auto why = fits(p); !why.empty()) throw InputError("encoder 'blank-low' does not fit " + p.name() + ": " + why);
    Key w = 1;
    for (int v = 0; v < ranked_; ++v) {
      const Key radix = static_cast<Key>(n_ - v);
      weight_[v] = w;
      // floor(2^64 / radix) + 1: the high half of key * it is key / radix for every key
      // here, since key * radix < 16 * 16! < 2^64.
      reciprocal_[v] = ~Key{0} / radix + 1;
      w *= radix;
    }
    count_ = w;  // the implied tiles' weights stay 0, which the vertical moves rely on
    for (int c = 0; c < n_; ++c) flip_[c] = static_cast<std::uint8_t>((c / columns_ + c % columns_) & 1);
  }

  Key encode(const TilesState& s) const {
    std::array<std::uint8_t, SlidingTiles::kMaxCells> where;
    for (int i = 0; i < n_; ++i) where[s.cells[i]] = static_cast<std::uint8_t>(i);
    Key key = 0;
    std::uint32_t used = 0;  // bit c set when cell c holds a value ranked before
    for (int v = 0; v < ranked_; ++v) {
      const unsigned c = where[v];
      key += weight_[v] * (c - static_cast<unsigned>(std::popcount(used & ((1u << c) - 1))));
      used |= 1u << c;
    }
    return key;
  }

  class Decoder;
  TilesState decode(Key k) const;

  // The key of the board move m leads to from `s` (whose key is k); false when m does
  // not apply.
  bool successor_key(Key k, const TilesState& s, int m, Key& out) const {
    const int b = puzzle_.blank(s);
    const int to = puzzle_.blank_after(b, m);
    if (to < 0) return false;
    if (SlidingTiles::along_row(m)) {
      out = k + static_cast<Key>(to - b);  // wraps correctly for -1
      return true;
    }
    const Key down = vertical_step(s, to < b ? to : b, to < b ? b : to, s.cells[to]);
    out = to > b ? k + down : k - down;
    return true;
  }
  // The key of the board that move m leads from to `s`: the blank came the other way.
  bool predecessor_key(Key k, const TilesState& s, int m, Key& out) const {
    return successor_key(k, s, puzzle_.inverse_move(m), out);
  }

  Key key_bound() const { return count_; }
  bool dense() const { return key_bound() <= kDenseKeyLimit; }

 private:
  // How much the key grows when the blank moves down from cell `top` to `bottom` (a row
  // below) and `tile` slides up: read off the cells between the two, which that move and
  // its reverse leave alone, so an up move subtracts the same amount (modulo 2^64).
  Key vertical_step(const TilesState& s, int top, int bottom, unsigned tile) const {
    Key step = static_cast<Key>(columns_);  // d_0: the blank's cell moves by a row
    int below = 0;                          // values under `tile` between the two cells
    for (int c = top + 1; c < bottom; ++c) {  // without branches: u < tile is a coin toss
      const unsigned u = s.cells[c];
      const bool under = u < tile;
      below += under;
      step += weight_[u] & (Key{0} - under);
    }
    return step + static_cast<Key>(below - (columns_ - 1)) * weight_[tile];
  }

  // A row: tiles in cell order, in the first bytes of 16 (0xFF past them). Inserting a
  // value at a place shifts the bytes from there up by one.
#if defined(__SSE2__)
  using Row = __m128i;
  static Row pair_row(std::uint8_t first, std::uint8_t second) {
    return _mm_insert_epi16(_mm_set1_epi8(static_cast<char>(0xFF)), second << 8 | first, 0);
  }
  static Row insert(Row row, unsigned place, unsigned value) {
    const __m128i index = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m128i at = _mm_set1_epi8(static_cast<char>(place));
    const __m128i before = _mm_cmpgt_epi8(at, index), here = _mm_cmpeq_epi8(at, index);
    const __m128i after = _mm_andnot_si128(_mm_or_si128(before, here), _mm_set1_epi8(static_cast<char>(0xFF)));
    return _mm_or_si128(_mm_or_si128(_mm_and_si128(row, before), _mm_and_si128(_mm_slli_si128(row, 1), after)),
                        _mm_and_si128(here, _mm_set1_epi8(static_cast<char>(value))));
  }
  // The row with values a and b exchanged.
  static Row exchange(Row row, std::uint8_t a, std::uint8_t b) {
    const __m128i hit = _mm_or_si128(_mm_cmpeq_epi8(row, _mm_set1_epi8(static_cast<char>(a))),
                                     _mm_cmpeq_epi8(row, _mm_set1_epi8(static_cast<char>(b))));
    return _mm_xor_si128(row, _mm_and_si128(hit, _mm_set1_epi8(static_cast<char>(a ^ b))));
  }
  static void store(Row row, TilesState& s) { _mm_storeu_si128(reinterpret_cast<__m128i*>(s.cells.data()), row); }
#else
  using Row = std::array<std::uint8_t, SlidingTiles::kMaxCells>;
  static Row pair_row(std::uint8_t first, std::uint8_t second) {
    Row row = TilesState::kEmpty;
    row[0] = first;
    row[1] = second;
    return row;
  }
  static Row insert(Row row, unsigned place, unsigned value) {
    for (unsigned i = SlidingTiles::kMaxCells - 1; i > place; --i) row[i] = row[i - 1];
    row[place] = static_cast<std::uint8_t>(value);
    return row;
  }
  static Row exchange(Row row, std::uint8_t a, std::uint8_t b) {
    for (auto& x : row) x = x == a ? b : x == b ? a : x;
    return row;
  }
  static void store(Row row, TilesState& s) { s.cells = row; }
#endif

  // Whether the last two tiles stand against cell order. The digits' sum is the board's
  // inversion count with them in cell order, and the board's invariant parity (with the
  // blank's row + column; d_0 is the blank's cell) must be the goal's.
  bool last_two_swapped(unsigned digit_sum, unsigned blank) const { return ((digit_sum + flip_[blank]) & 1u) != goal_parity_; }

  static Key mulhi(Key a, Key b) {
    __extension__ using Wide = unsigned __int128;
    return static_cast<Key>((static_cast<Wide>(a) * b) >> 64);
  }

  SlidingTiles puzzle_;  // a small value: its sizes and move table
  int n_, ranked_, columns_;
  unsigned goal_parity_;
  Key count_ = 1;
  std::array<Key, SlidingTiles::kMaxCells> weight_{};      // W_v; 0 for the two implied tiles
  std::array<Key, SlidingTiles::kMaxCells> reciprocal_{};  // of each digit's radix RC - v
  std::array<std::uint8_t, SlidingTiles::kMaxCells> flip_{};  // the parity of each cell's row + column
};

// Decodes keys one after another, keeping what the last key shares with the next: the
// engines scan keys in increasing order, and neighbouring keys differ mostly in their
// lowest digits. Digits are peeled off from the lowest until the rest of the key equals the
// last key's; the rows of the values from each digit up are kept, so only the values whose
// digits changed are inserted again (usually the blank alone). Any order of keys decodes
// correctly; increasing order is the fast one.
class TilesBlankLow::Decoder {
 public:
  explicit Decoder(const TilesBlankLow& enc) : enc_(enc) {
    rest_.fill(~Key{0});  // no key's rest: the first decode builds every row
    // Built from the highest value down: d_v is v's place among the cells of the values
    // above it, so inserting v at place d_v into those values in cell order gives the values
    // from v up in cell order, and at v = 0 the board. The last two tiles start in the order
    // that adds no inversion.
    row_[enc.ranked_] = pair_row(static_cast<std::uint8_t>(enc.n_ - 2), static_cast<std::uint8_t>(enc.n_ - 1));
  }

  TilesState decode(Key k) {
    int changed = enc_.ranked_;  // digits [0, changed) may differ from the last key's
    for (int v = 0; v < enc_.ranked_; ++v) {
      const Key rest = mulhi(k, enc_.reciprocal_[v]);
      const auto d = static_cast<unsigned>(k - rest * static_cast<Key>(enc_.n_ - v));
      digit_sum_ += d - digit_[v];
      digit_[v] = d;
      k = rest;
      if (rest == rest_[v]) {
        changed = v + 1;
        break;
      }
      rest_[v] = rest;
    }
    for (int v = changed - 1; v >= 0; --v) row_[v] = insert(row_[v + 1], digit_[v], static_cast<unsigned>(v));
    TilesState s;
    store(enc_.last_two_swapped(digit_sum_, digit_[0]) ? exchange(row_[0], static_cast<std::uint8_t>(enc_.n_ - 2), static_cast<std::uint8_t>(enc_.n_ - 1)) : row_[0], s);
    return s;
  }

 private:
  const TilesBlankLow& enc_;
  std::array<Key, SlidingTiles::kMaxCells> rest_;          // the last key without digits 0..v
  std::array<unsigned, SlidingTiles::kMaxCells> digit_{};  // the last key's digits
  unsigned digit_sum_ = 0;
  Row row_[SlidingTiles::kMaxCells + 1];  // row_[v]: the values v.. in cell order
};

// One key alone: the Decoder's steps with nothing kept, all in registers.
inline TilesState TilesBlankLow::decode(Key k) const {
  std::array<unsigned, SlidingTiles::kMaxCells> digit;
  unsigned digit_sum = 0;
  for (int v = 0; v < ranked_; ++v) {
    const Key rest = mulhi(k, reciprocal_[v]);
    digit[v] = static_cast<unsigned>(k - rest * static_cast<Key>(n_ - v));
    digit_sum += digit[v];
    k = rest;
  }
  const auto second = static_cast<std::uint8_t>(n_ - 2), high = static_cast<std::uint8_t>(n_ - 1);
  Row row = last_two_swapped(digit_sum, digit[0]) ? pair_row(high, second) : pair_row(second, high);
  for (int v = ranked_ - 1; v >= 0; --v) row = insert(row, digit[v], static_cast<unsigned>(v));
  TilesState s;
  store(row, s);
  return s;
}

}  // namespace searchbench
