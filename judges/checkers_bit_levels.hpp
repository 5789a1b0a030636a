// One breadth-first level of a checkers line over bitsets: every board of a frontier moved
// at once, a word of 64 boards at a time (the dense levels of judges/checkers_meet.hpp).
//
// Layout. A board is keyed as the classic FZU 1603 solution keys it (encoders/
// checkers_maskhole.hpp): the N-1 pieces with the hole taken out, piece p at bit p ('@' = 1),
// and the hole's cell. The bitsets leave the last piece out, since the count of '@' fixes it
// (as bitpack-implied leaves out a magic board's last cell): board (hole, pieces) is bit
// hole * 2^(N-2) + (pieces mod 2^(N-2)). That halves them (311 KB at N = 19), so that the four
// a level reads and writes fit in a core's L2 cache together.
//
// Moves. The hole's cells split a bitset into N blocks of 2^(N-2) bits. A step (the hole
// moves by one) takes a block to its neighbour unchanged; a jump (by two) swaps the pieces p
// and p+1 it passes, which exchanges the index bits p and p+1 within the block: a delta swap
// inside each word for p + 1 < 6, whole words exchanged above (vector shuffles for the short
// runs). The jump that moves the left-out last piece exchanges bits between two words under
// masks given by how many '@' each index holds (tables built per line length and count).
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace searchbench {

class CheckersBitLevels {
 public:
  // The word operations take blocks of 16 words or more (lines of 12 cells up); shorter
  // lines are small enough to search as lists.
  static constexpr int kMinCells = 12;

  // The geometry of lines of `cells` cells holding `ats` '@' pieces.
  void reset(int cells, int ats) {
    if (cells == cells_ && ats == ats_) return;
    cells_ = cells;
    ats_ = ats;
    index_bits_ = std::max(cells - 2, 0);
    block_words_ = (std::size_t{1} << index_bits_) / 64;
    words_ = ((static_cast<std::size_t>(cells) << index_bits_) + 63) / 64;
    masks_built_ = false;  // built at the first level that needs them: most lines never do
  }
  // Words of one bitset.
  std::size_t words() const { return words_; }
  // Explicit pieces in a position: all but the last (N - 2); a hole's block is 2^this bits.
  int index_bits() const { return index_bits_; }
  // The bit of a classic key (hole << (N-1) | pieces).
  std::uint32_t index(std::uint32_t key) const {
    return ((key >> (cells_ - 1)) << index_bits_) | (key & ((std::uint32_t{1} << index_bits_) - 1));
  }

  struct Level {
    bool met;             // a new board is in `other`
    std::uint64_t count;  // boards in the new level
  };
  // out = the boards one move from `front` that are in neither `front` nor `before`; met
  // when one of them is in `other`. `out` may be `before` (each word is read, then written).
  Level expand(const std::uint64_t* front, const std::uint64_t* before, const std::uint64_t* other, std::uint64_t* out) {
    if (!masks_built_) build_last_piece_masks();
    const std::size_t chunk = std::min(block_words_, kChunk);
    std::uint64_t met = 0, count = 0;
    alignas(64) std::uint64_t moved[kChunk];
    // Chunk by chunk over every hole cell, so that the frontier's words a chunk needs are
    // read from L2 once and then found in L1 by the neighbouring cells.
    for (std::size_t c = 0; c < block_words_; c += chunk) {
      for (int hole = 0; hole < cells_; ++hole) {
        const std::uint64_t* left = hole >= 1 ? block(front, hole - 1) + c : nullptr;
        const std::uint64_t* right = hole + 1 < cells_ ? block(front, hole + 1) + c : nullptr;
        if (left && right)
          for (std::size_t o = 0; o < chunk; ++o) moved[o] = left[o] | right[o];
        else
          std::copy_n(left ? left : right, chunk, moved);
        if (hole + 2 < cells_) or_jumped(moved, block(front, hole + 2), hole, c, chunk);
        if (hole >= 2) or_jumped(moved, block(front, hole - 2), hole - 2, c, chunk);
        const std::size_t at = static_cast<std::size_t>(hole) * block_words_ + c;
        for (std::size_t o = 0; o < chunk; ++o) {
          const std::uint64_t fresh = moved[o] & ~(front[at + o] | before[at + o]);
          out[at + o] = fresh;
          met |= fresh & other[at + o];
          count += static_cast<std::uint64_t>(std::popcount(fresh));
        }
      }
    }
    return {met != 0, count};
  }

 private:
  static constexpr std::size_t kChunk = 128;
  using Vec = std::uint64_t __attribute__((vector_size(64)));  // 8 words, one AVX-512 register

  const std::uint64_t* block(const std::uint64_t* bits, int hole) const { return bits + static_cast<std::size_t>(hole) * block_words_; }
  static Vec load(const std::uint64_t* p) {
    Vec v;
    __builtin_memcpy(&v, p, sizeof v);
    return v;
  }
  static void or_store(std::uint64_t* p, Vec v) {
    v |= load(p);
    __builtin_memcpy(p, &v, sizeof v);
  }

  // moved[0, len) |= words [c, c + len) of `src` with the pieces p and p+1 swapped.
  void or_jumped(std::uint64_t* __restrict moved, const std::uint64_t* __restrict src, int p, std::size_t c, std::size_t len) const {
    if (p == index_bits_ - 1) return or_jumped_last(moved, src, c, len);
    if (p >= 6) return or_words_swapped(moved, src, p - 6, c, len);
    src += c;
    if (p <= 4) {  // both bits inside a word: the positions with bits (1, 0) trade with (0, 1)
      static constexpr std::uint64_t kLowerOfPair[5] = {0x2222222222222222, 0x0C0C0C0C0C0C0C0C, 0x00F000F000F000F0,
                                                        0x0000FF000000FF00, 0x00000000FFFF0000};
      const std::uint64_t pick = kLowerOfPair[p];
      const int shift = 1 << p;
      for (std::size_t o = 0; o < len; ++o) {
        const std::uint64_t x = src[o], t = (x ^ (x >> shift)) & pick;
        moved[o] |= x ^ t ^ (t << shift);
      }
    } else {  // p == 5: bit 5 of a word and bit 0 of the word's number
      for (std::size_t o = 0; o < len; o += 2) {
        moved[o] |= (src[o] & 0xFFFFFFFF) | (src[o + 1] << 32);
        moved[o + 1] |= (src[o + 1] & 0xFFFFFFFF00000000) | (src[o] >> 32);
      }
    }
  }
  // Both bits in the word's number (bits j, j+1): runs of 2^j words trade places.
  static void or_words_swapped(std::uint64_t* __restrict moved, const std::uint64_t* __restrict block, int j, std::size_t c,
                               std::size_t len) {
    const std::size_t run = std::size_t{1} << j;
    const std::uint64_t* src = block + c;  // runs of up to a quarter chunk repeat within every chunk
    if (j == 0) {
      for (std::size_t o = 0; o < len; o += 8) or_store(moved + o, __builtin_shufflevector(load(src + o), load(src + o), 0, 2, 1, 3, 4, 6, 5, 7));
    } else if (j == 1) {
      for (std::size_t o = 0; o < len; o += 8) or_store(moved + o, __builtin_shufflevector(load(src + o), load(src + o), 0, 1, 4, 5, 2, 3, 6, 7));
    } else if (j == 2) {
      for (std::size_t o = 0; o < len; o += 16) {
        const Vec low = load(src + o), high = load(src + o + 8);
        or_store(moved + o, __builtin_shufflevector(low, high, 0, 1, 2, 3, 8, 9, 10, 11));
        or_store(moved + o + 8, __builtin_shufflevector(low, high, 4, 5, 6, 7, 12, 13, 14, 15));
      }
    } else if (4 * run <= len) {
      for (std::size_t b = 0; b < len; b += 4 * run)
        for (std::size_t o = 0; o < run; ++o) {
          moved[b + o] |= src[b + o];
          moved[b + run + o] |= src[b + 2 * run + o];
          moved[b + 2 * run + o] |= src[b + run + o];
          moved[b + 3 * run + o] |= src[b + 3 * run + o];
        }
    } else {  // longer runs: each run's part of the chunk comes whole from one place
      const std::size_t piece = std::min(run, len);
      for (std::size_t o = 0; o < len; o += piece) {
        const std::size_t w = c + o, from = (((w >> j) ^ (w >> (j + 1))) & 1) ? w ^ (std::size_t{3} << j) : w;
        for (std::size_t q = 0; q < piece; ++q) moved[o + q] |= block[from + q];
      }
    }
  }
  // The jump over the last explicit piece and the left-out one: a board whose explicit
  // piece (the top bit of the word's number) differs from the implied one moves to the word
  // with that bit flipped; which boards do depends on each index's count of '@'.
  void or_jumped_last(std::uint64_t* __restrict moved, const std::uint64_t* __restrict src, std::size_t c, std::size_t len) const {
    const std::size_t partner = std::size_t{1} << (index_bits_ - 7), piece = std::min(partner, len);
    const std::uint64_t* stay = stay_.data();
    const std::uint64_t* trade = trade_.data();
    for (std::size_t o = 0; o < len; o += piece) {
      const std::size_t w = c + o, p = w ^ partner;
      for (std::size_t q = 0; q < piece; ++q) moved[o + q] |= (src[w + q] & stay[w + q]) | (src[p + q] & trade[w + q]);
    }
  }
  // Per word number w of a block: the positions whose board the last jump leaves in place
  // (`stay_`) and those it brings from word w ^ partner (`trade_`). A board's last piece is
  // '@' when its index holds ats - 1 '@' (and '#' when it holds ats).
  void build_last_piece_masks() {
    // In-word positions (6 bits) by their count of ones.
    static constexpr std::uint64_t kPositionsWithOnes[7] = {0x0000000000000001, 0x0000000100010116, 0x0001011601161668,
                                                            0x0116166816686880, 0x1668688068808000, 0x6880800080000000,
                                                            0x8000000000000000};
    const auto with_ones = [](int ones) { return ones >= 0 && ones <= 6 ? kPositionsWithOnes[ones] : 0; };
    const int top = index_bits_ - 7;  // the last explicit piece, as a bit of the word's number
    stay_.resize(block_words_);
    trade_.resize(block_words_);
    for (std::size_t w = 0; w < block_words_; ++w) {
      const bool upper = (w >> top) & 1;  // its explicit last piece is '@'
      const int lower_ones = std::popcount(w) - upper;  // ones in the number of the pair's lower word
      // Lower word: stays where the implied piece is '#' too (ats ones); trades where it is '@'.
      // Upper word: stays where the implied piece is '@' too (ats - 1 ones); trades where '#'.
      stay_[w] = with_ones(upper ? ats_ - 2 - lower_ones : ats_ - lower_ones);
      trade_[w] = with_ones(ats_ - 1 - lower_ones);
    }
    masks_built_ = true;
  }

  int cells_ = 0, ats_ = 0, index_bits_ = 0;
  std::size_t block_words_ = 0, words_ = 0;
  std::vector<std::uint64_t> stay_, trade_;
  bool masks_built_ = false;
};

}  // namespace searchbench
