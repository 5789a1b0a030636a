// Every 2x4 magic board's path from the fixed start, kept whole: one breadth-first search over
// the 8! boards stores each board's path itself (two bits a move above a leading 1 that marks
// its length: 22 moves take 45 bits), in the order the search met the boards, and each
// board's place in that order by a perfect rank of the board. A case is then one rank and two
// reads. A table of the moves that reached each board (the ring engine's) needs a walk back
// of up to 22 dependent reads per case instead: on sicily1151's 40,320 cases that was most
// of the judge's time.
//
// Moves are tried in A, B, C order and the first discovery is kept, as the ring engine does,
// so every stored path is the lexicographically smallest shortest one (engines/ring_bfs.hpp).
// Boards are keyed three bits a cell, value - 1, cell i at bits 3i..3i+2 (row order), the
// judges' own packing; the rank is that of the first four cells as a partial permutation
// (8 * 7 * 6 * 5 = 1,680) times 24 plus the order of the last four among themselves, each
// half read from a table of its 12 bits. The tables take 400 KB: they stay in the L2 cache.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/fast_pdep.hpp"
#include "puzzles/magic_board.hpp"

namespace searchbench {

class MagicPathTable {
 public:
  static constexpr int kCells = 8;
  static constexpr std::uint32_t kBoards = 40320;  // 8!

  explicit MagicPathTable(const MagicBoard& board) : order_(kBoards + 1), codes_(kBoards + 2) {
    if (board.cells() != kCells) throw std::logic_error("the path table holds 2x4 boards only");
    const KeyMove moves[3] = {KeyMove(board, 0), KeyMove(board, 1), KeyMove(board, 2)};
    // Without branches and without reading the tables it fills: a third of the boards met
    // are new, so a branch there would be mispredicted often. A board is appended to the
    // queue (its key and path) every time, and the queue's end moves on only for a new one;
    // the rank's order entry of an old board goes to a spare slot.
    std::vector<std::uint32_t> keys(kBoards + 2);
    std::uint64_t seen[kBoards / 64 + 1] = {};
    const std::uint32_t start = key(board.start());
    keys[0] = start;
    codes_[0] = 1;  // the empty path
    order_[rank(start)] = 0;
    seen[rank(start) / 64] |= std::uint64_t{1} << (rank(start) % 64);
    std::uint32_t tail = 1;
    for (std::uint32_t head = 0; head < tail; ++head) {
      const std::uint64_t code = codes_[head];
      const int length = path_length(code);
      if (length >= kMaxLength) throw std::logic_error("a magic board path is longer than the path table holds");
      const std::uint64_t longer = (code ^ (std::uint64_t{1} << (2 * length))) | (std::uint64_t{1} << (2 * length + 2));
      for (int m = 0; m < 3; ++m) {
        const std::uint32_t k = moves[m].apply(keys[head]), r = rank(k);
        const std::uint64_t bit = std::uint64_t{1} << (r % 64);
        const bool fresh = (seen[r / 64] & bit) == 0;
        seen[r / 64] |= bit;
        keys[tail] = k;
        codes_[tail] = longer | (static_cast<std::uint64_t>(m + 1) << (2 * length));
        order_[fresh ? r : kBoards] = static_cast<std::uint16_t>(tail);
        tail += fresh;
      }
    }
  }

  // The key of the cell values 1..8 in row order: value - 1 three bits a cell.
  static std::uint32_t key(const MagicState& s) {
    std::uint32_t k = 0;
    for (int i = 0; i < kCells; ++i) k |= static_cast<std::uint32_t>(s.cells[i] - 1) << (3 * i);
    return k;
  }
  // The path to the board with key `k` (any arrangement of 1..8), as a code.
  std::uint64_t code(std::uint32_t k) const { return codes_[order_[rank(k)]]; }
  static int path_length(std::uint64_t code) { return (63 - std::countl_zero(code)) / 2; }
  // Writes the code's moves as letters at `out` and returns their end; the kMovesRoom bytes
  // from `out` may all be written.
  static constexpr std::size_t kMovesRoom = 32;
  static char* write_moves(std::uint64_t code, char* out) {
    const int n = path_length(code);
#if defined(SEARCHBENCH_FAST_PDEP)
    // Eight moves at a time, one per byte ('@' + 1 = 'A'), whatever the length: no branch
    // on it to mispredict.
    for (int i = 0; i < 4; ++i) {
      const std::uint64_t letters = _pdep_u64(code >> (16 * i), 0x0303030303030303) + 0x4040404040404040;
      std::memcpy(out + 8 * i, &letters, sizeof letters);
    }
    return out + n;
#else
    for (int i = 0; i < n; ++i) *out++ = static_cast<char>('A' - 1 + ((code >> (2 * i)) & 3));
    return out;
#endif
  }
  std::string path(const MagicState& s) const {
    const std::uint64_t c = code(key(s));
    char moves[kMovesRoom];
    return std::string(moves, write_moves(c, moves));
  }

 private:
  static constexpr int kMaxLength = 31;  // 2 bits a move and the mark in 64 bits

  // The first four cells' rank as a partial permutation (mixed radix 8, 7, 6, 5), and the
  // last four's order among themselves (radix 4, 3, 2, 1), by their 12 bits.
  static constexpr std::array<std::uint16_t, 4096> kHeadRank = [] {
    std::array<std::uint16_t, 4096> t{};
    for (std::uint32_t bits = 0; bits < 4096; ++bits) {
      std::uint32_t used = 0, r = 0;
      for (int i = 0; i < 4; ++i) {
        const std::uint32_t v = (bits >> (3 * i)) & 7;
        r = r * static_cast<std::uint32_t>(8 - i) + static_cast<std::uint32_t>(std::popcount(~used & ((1u << v) - 1)));
        used |= 1u << v;
      }
      t[bits] = static_cast<std::uint16_t>(r);
    }
    return t;
  }();
  static constexpr std::array<std::uint8_t, 4096> kTailOrder = [] {
    std::array<std::uint8_t, 4096> t{};
    for (std::uint32_t bits = 0; bits < 4096; ++bits) {
      std::uint32_t r = 0;
      for (int i = 0; i < 4; ++i) {
        std::uint32_t smaller_after = 0;
        for (int j = i + 1; j < 4; ++j) smaller_after += ((bits >> (3 * j)) & 7) < ((bits >> (3 * i)) & 7);
        r = r * static_cast<std::uint32_t>(4 - i) + smaller_after;
      }
      t[bits] = static_cast<std::uint8_t>(r);
    }
    return t;
  }();
  static std::uint32_t rank(std::uint32_t k) { return kHeadRank[k & 0xFFF] * 24u + kTailOrder[k >> 12]; }
  // A move on keys: the board's permutation of cells as groups of cells that move by the same
  // distance, each group one mask and one rotation, read off the move applied to 1..8.
  struct KeyMove {
    KeyMove(const MagicBoard& board, int m) {
      MagicState probe, moved;
      for (int i = 0; i < kCells; ++i) probe.cells[i] = static_cast<std::uint8_t>(i + 1);
      board.apply(probe, m, moved);
      for (int to = 0; to < kCells; ++to) {
        const int from = moved.cells[to] - 1, turn = (3 * (to - from) + 64) % 64;
        int g = 0;
        while (g < groups && rotation[g] != turn) ++g;
        if (g == groups) rotation[groups++] = turn;
        mask[g] |= std::uint64_t{7} << (3 * from);
      }
    }
    std::uint32_t apply(std::uint32_t k) const {
      std::uint64_t out = 0;
      for (int g = 0; g < kCells; ++g) out |= std::rotl(k & mask[g], rotation[g]);  // unused groups: mask 0
      return static_cast<std::uint32_t>(out);
    }
    std::uint64_t mask[kCells] = {};
    int rotation[kCells] = {};
    int groups = 0;
  };

  std::vector<std::uint16_t> order_;  // by rank: the board's place in the search's order
  std::vector<std::uint64_t> codes_;  // by that place: the board's path
};

}  // namespace searchbench
