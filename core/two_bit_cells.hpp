// Two bits per key for whole-space breadth-first search (after Korf's two-bit BFS), shared
// by threads.
//
// Codes: 0 unseen, 3 done, and 1 and 2 take turns as "current level" and "next level" by
// the parity of the depth (current_code(d)). Alternating the two codes lets the scanner
// retire the cells it has just expanded (current -> done, one fetch_or per word) while
// other threads claim unseen cells of the same word (unseen -> next), so no separate pass
// has to turn "next" into "current" between levels. Keys past key_bound start as done.
//
// 479,001,600 keys (msquare 2x6) take 120 MB.
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <new>
#include <vector>

#include "core/concepts.hpp"
#include "core/zeroed_pages.hpp"

namespace searchbench {

static_assert(sizeof(std::atomic<std::uint64_t>) == sizeof(std::uint64_t) && std::atomic<std::uint64_t>::is_always_lock_free,
              "two-bit cells are saved and loaded as plain words");

class TwoBitCells {
 public:
  static constexpr unsigned kUnseen = 0, kDone = 3;
  static constexpr std::uint64_t kCellsPerWord = 32;
  static constexpr std::uint64_t kLow = 0x5555555555555555ULL;  // the low bit of every cell

  static unsigned current_code(int depth) { return 1u + static_cast<unsigned>(depth & 1); }
  static unsigned next_code(int depth) { return current_code(depth + 1); }

  // The words come from the kernel as untouched zero pages (an array of std::atomic would
  // be zeroed here, by one thread): clear() is their first touch, so its callers decide
  // which threads fault the pages in. Every access goes through std::atomic_ref.
  explicit TwoBitCells(Key bound)
      : bound_(bound), words_((bound + kCellsPerWord - 1) / kCellsPerWord),
        pages_(allocate(words_)) {}
  // Zero-fills words [begin, end) (called in parallel so pages fault in on every thread);
  // the cells past the bound in the last word become done, so scans never see them.
  void clear(std::uint64_t begin, std::uint64_t end) {
    for (std::uint64_t w = begin; w != end; ++w) {
      std::uint64_t v = 0;
      if (w == words_ - 1 && bound_ % kCellsPerWord != 0) v = ~std::uint64_t{0} << (bound_ % kCellsPerWord * 2);
      at(w).store(v, std::memory_order_relaxed);
    }
  }

  std::uint64_t words() const { return words_; }
  // The words as bytes, for saving cells to a file and loading them back (out-of-core
  // searches); only while no thread works on the cells.
  char* raw_bytes() { return reinterpret_cast<char*>(pages_.data()); }
  std::uint64_t bytes() const { return words_ * sizeof(std::uint64_t); }
  std::uint64_t word(std::uint64_t w) const { return at(w).load(std::memory_order_relaxed); }
  const void* address_of(Key k) const { return &cells()[k / kCellsPerWord]; }

  // Low-bit mask of the cells of word value v that hold `code`.
  static std::uint64_t cells_with(std::uint64_t v, unsigned code) {
    const std::uint64_t lo = v & kLow, hi = (v >> 1) & kLow;
    switch (code) {
      case 0: return ~(lo | hi) & kLow;
      case 1: return lo & ~hi;
      case 2: return hi & ~lo;
      default: return lo & hi;
    }
  }
  static Key key_of(std::uint64_t w, std::uint64_t low_bit_mask) {
    return w * kCellsPerWord + static_cast<Key>(std::countr_zero(low_bit_mask)) / 2;
  }

  unsigned get(Key k) const { return static_cast<unsigned>(word(k / kCellsPerWord) >> shift(k)) & 3u; }

  // Unseen -> code; true for the one caller that made the change. The plain load first
  // skips the read-modify-write for the (many) keys already seen. Between that load and
  // the fetch_or the cell can only have been claimed with the same code by another
  // thread, so OR-ing the code in never corrupts a cell.
  // The codes claimed with (1 and 2) are one bit each, so the claim is one atomic bit
  // test-and-set (lock bts) rather than a compare-exchange loop: that bit was clear iff
  // the cell was unseen.
  bool claim(Key k, unsigned code) {
    const std::atomic_ref<std::uint64_t> cell_word = at(k / kCellsPerWord);
    const unsigned s = shift(k);
    if ((cell_word.load(std::memory_order_relaxed) >> s) & 3u) return false;
    return take(k, code);
  }
  // As claim, for a cell whose word no other thread writes meanwhile (the out-of-core
  // engine gives each thread its own part of the cells to apply successors to): a load and
  // a store, without the lock of a read-modify-write.
  // Whether a successor is new is a coin toss, so the word is stored either way rather
  // than behind a branch.
  bool claim_owned(Key k, unsigned code) {
    const std::atomic_ref<std::uint64_t> cell_word = at(k / kCellsPerWord);
    const std::uint64_t v = cell_word.load(std::memory_order_relaxed);
    const bool unseen = ((v >> shift(k)) & 3u) == kUnseen;
    cell_word.store(v | std::uint64_t{code * unseen} << shift(k), std::memory_order_relaxed);
    return unseen;
  }
  // Claims (as claim) every key of keys[0, count), which may repeat; returns how many
  // cells this call claimed. Overwrites the keys. Whether a successor is new is a coin
  // toss, so the unseen ones are gathered first without a branch each and only they take
  // the atomic step.
  std::uint64_t claim_all(Key* keys, std::size_t count, unsigned code) {
    std::size_t unseen = 0;
    for (std::size_t i = 0; i < count; ++i) {
      const Key k = keys[i];
      keys[unseen] = k;
      unseen += get(k) == kUnseen;
    }
    std::uint64_t claimed = 0;
    for (std::size_t i = 0; i < unseen; ++i) claimed += take(keys[i], code);
    return claimed;
  }

  // Sets the cells of `low_bit_mask` in word w to `code` (they are unseen or hold a code
  // that `code` includes); concurrent claims of other cells in the word are kept.
  void mark(std::uint64_t w, std::uint64_t low_bit_mask, unsigned code) {
    if (!low_bit_mask) return;
    if (single_writer_) cells()[w] |= low_bit_mask * code;
    else at(w).fetch_or(low_bit_mask * code, std::memory_order_relaxed);
  }
  // The same for the one cell of key k.
  void mark_key(Key k, unsigned code) { mark(k / kCellsPerWord, std::uint64_t{1} << shift(k), code); }
  // As mark_key, for a cell whose word no other thread writes while this one may (a
  // bottom-up level splits the words among the threads; the others only read them): a
  // load and a store, without the lock of a read-modify-write.
  void mark_owned_key(Key k, unsigned code) { mark_owned(k / kCellsPerWord, std::uint64_t{1} << shift(k), code); }
  // Marks done every cell of words [begin, end) that holds `code` (a bottom-up level's
  // frontier, retired once the level is over), words this thread alone writes meanwhile.
  void retire_owned(std::uint64_t begin, std::uint64_t end, unsigned code) {
    for (std::uint64_t w = begin; w != end; ++w) mark_owned(w, cells_with(word(w), code), kDone);
  }

  // While one thread alone reads and writes the cells (a search on one thread), claims and
  // marks are plain read-modify-writes: the lock prefix of an atomic one orders memory
  // accesses that no other thread looks at, and it stalls the loads behind it.
  void set_single_writer(bool alone) { single_writer_ = alone; }

 private:
  void mark_owned(std::uint64_t w, std::uint64_t low_bit_mask, unsigned code) {
    if (!low_bit_mask) return;
    const std::atomic_ref<std::uint64_t> cell_word = at(w);
    cell_word.store(cell_word.load(std::memory_order_relaxed) | low_bit_mask * code, std::memory_order_relaxed);
  }
  // Sets the bit of one-bit `code` in k's cell, which was seen unseen; true when this call
  // set it (another thread may have claimed the cell with the same code since).
  // The mask is written as 1 shifted by the bit's index, the form the compiler turns into
  // lock bts; `code << shift` (not known to have one bit) stays a compare-exchange loop.
  bool take(Key k, unsigned code) {
    const std::uint64_t bit = std::uint64_t{1} << (shift(k) + (code >> 1));  // code 1: the low bit; 2: the high one
    if (single_writer_) {
      std::uint64_t& word = cells()[k / kCellsPerWord];
      const bool was_clear = (word & bit) == 0;
      word |= bit;
      return was_clear;
    }
    return (at(k / kCellsPerWord).fetch_or(bit, std::memory_order_relaxed) & bit) == 0;
  }
  static unsigned shift(Key k) { return static_cast<unsigned>(k % kCellsPerWord) * 2; }
  std::uint64_t* cells() const { return reinterpret_cast<std::uint64_t*>(pages_.data()); }
  std::atomic_ref<std::uint64_t> at(std::uint64_t w) const { return std::atomic_ref<std::uint64_t>(cells()[w]); }

  // Every level scans the whole table, so it is touched all over: from the kernel in huge
  // pages (ZeroedPages), which also keeps a level's claims all over gigabytes of cells from
  // missing the TLB at nearly every step.
  static ZeroedPages allocate(std::uint64_t words) {
    ZeroedPages pages(std::max<std::uint64_t>(words, 1) * sizeof(std::uint64_t), true);
    if (!pages) throw std::bad_alloc();
    return pages;
  }

  Key bound_;
  std::uint64_t words_;
  ZeroedPages pages_;  // the words
  bool single_writer_ = false;
};

// Retires every cell holding `current` in words [begin, end) (marks it done) and hands the
// keys, plus `base`, to `expand` in batches of up to `batch` keys held in `keys`: the
// caller computes and prefetches a whole batch's successors before claiming any of them.
template <class Expand>
void for_each_frontier_batch(TwoBitCells& cells, std::uint64_t begin, std::uint64_t end, unsigned current, Key base,
                             std::vector<Key>& keys, std::size_t batch, Expand&& expand) {
  keys.clear();
  for (std::uint64_t w = begin; w != end; ++w) {
    std::uint64_t frontier = TwoBitCells::cells_with(cells.word(w), current);
    if (!frontier) continue;
    cells.mark(w, frontier, TwoBitCells::kDone);
    for (; frontier; frontier &= frontier - 1) {
      keys.push_back(base + TwoBitCells::key_of(w, frontier));
      if (keys.size() == batch) {
        expand();
        keys.clear();
      }
    }
  }
  if (!keys.empty()) expand();
  keys.clear();
}

}  // namespace searchbench
