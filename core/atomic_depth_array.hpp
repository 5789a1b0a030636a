// A packed array of 2-bit cells shared by threads: 0 = not yet reached, otherwise
// 1 + (depth mod 3) (Korf's two-bit breadth-first search). A thread claims a cell with one
// fetch_or on its 64-bit word: the cell was free exactly when its old bits were 00, and
// since every non-zero value is written over 00, no compare-and-swap loop is needed.
// Depth mod 3 is all a level-synchronous BFS needs: a state's neighbours lie at depths
// d-1, d, d+1, three different residues, so the frontier and the parents of any state
// can be told apart from this table alone.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "core/concepts.hpp"

namespace searchbench {

class AtomicDepthArray {
 public:
  explicit AtomicDepthArray(Key cells)
      : cells_(cells), words_((cells + 31) / 32), data_(new std::atomic<std::uint64_t>[words_]) {
    for (std::uint64_t w = 0; w < words_; ++w) data_[w].store(0, std::memory_order_relaxed);
  }

  static constexpr std::uint64_t tag_of_depth(int depth) { return 1 + depth % 3; }

  // Marks `k` as reached at `depth`; true when this call was the first to reach it.
  bool claim(Key k, int depth) {
    const unsigned shift = static_cast<unsigned>(k % 32) * 2;
    const std::uint64_t bits = tag_of_depth(depth) << shift;
    const std::uint64_t old = data_[k / 32].fetch_or(bits, std::memory_order_relaxed);
    return ((old >> shift) & 3u) == 0;
  }
  std::uint64_t tag(Key k) const {
    return (data_[k / 32].load(std::memory_order_relaxed) >> ((k % 32) * 2)) & 3u;
  }
  bool reached_at(Key k, int depth) const { return tag(k) == tag_of_depth(depth); }

  // Word access for scanning a level: cells 32*w .. 32*w+31.
  std::uint64_t word(std::uint64_t w) const { return data_[w].load(std::memory_order_relaxed); }
  std::uint64_t words() const { return words_; }
  Key cells() const { return cells_; }
  std::uint64_t bytes() const { return words_ * sizeof(std::uint64_t); }

  // Bit i*2 of the result is set for every cell i of `word` holding `tag` (tag in 1..3).
  static std::uint64_t match(std::uint64_t word, std::uint64_t tag) {
    constexpr std::uint64_t kLow = 0x5555555555555555ULL;
    const std::uint64_t pattern = kLow * tag;  // tag repeated in every cell
    const std::uint64_t diff = word ^ pattern; // 00 where the cell equals tag
    return ~(diff | (diff >> 1)) & kLow;
  }

 private:
  Key cells_;
  std::uint64_t words_;
  std::unique_ptr<std::atomic<std::uint64_t>[]> data_;
};

}  // namespace searchbench
