// One byte of information per key: a hash map while few keys are stored, a direct table
// once many are (dense encoders only). Engines use it for "the move that first reached
// this key" (ring), "depth of this key" (bidir) and transposition depths (iddfs).
//
// Why both, and why switch: a point query usually touches a sliver of the key space, and a
// direct table filled per query made bidir many times slower than a hash map on msquare
// 2x4 with bitpack keys (2^24 of them). Deep queries on large spaces are the opposite: tens of
// millions of entries, where a hash map costs 48 bytes and a cache miss or two per entry.
// So a point query's table starts hashed and moves into a direct table once that would
// hold no more resident memory (consider_direct); a whole-space search's starts direct.
// The direct table stores value + 1 in zeroed pages from the kernel, so 0 means empty and
// nothing needs clearing: only the pages a search touches become resident. A whole-space
// search, which touches every page, gets them 2 MiB at a time (ZeroedPages).
#pragma once

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <unordered_map>
#include <vector>

#include "core/concepts.hpp"
#include "core/zeroed_pages.hpp"

namespace searchbench {

class ByteTable {
 public:
  static constexpr std::uint8_t kEmpty = 0xFF;
  static constexpr std::uint64_t kDirectAfter = std::uint64_t{1} << 16;

  // Whole-space searches fill most of a dense table: they start direct. Point queries start
  // hashed and move over only when they grow.
  enum class Start { direct_when_dense, hashed_until_large };

  // dense: keys are < bound and may live in a direct table of `bound` bytes. `expected`
  // sizes the hash map up front (no rehash in the hot loop).
  ByteTable(bool dense, Key bound, std::uint64_t expected, Start start = Start::direct_when_dense)
      : dense_(dense), bound_(bound) {
    if (dense_ && start == Start::direct_when_dense) go_direct(expected);
    if (!pages_) hashed_.reserve(expected);
  }

  std::uint8_t get(Key k) const {
    if (pages_) return static_cast<std::uint8_t>(pages_.data()[k] - 1);  // 0 (empty) reads 0xFF
    auto it = hashed_.find(k);
    return it == hashed_.end() ? kEmpty : it->second;
  }
  // Stores v (not kEmpty) only when k is still empty; returns true when it did.
  bool insert(Key k, std::uint8_t v) {
    if (pages_) {
      if (pages_.data()[k] != 0) return false;
      pages_.data()[k] = static_cast<std::uint8_t>(v + 1);
      return true;
    }
    const bool added = hashed_.try_emplace(k, v).second;
    if (added && dense_ && hashed_.size() >= next_check_) consider_direct();
    return added;
  }
  void set(Key k, std::uint8_t v) {
    if (pages_) pages_.data()[k] = static_cast<std::uint8_t>(v + 1);
    else if (hashed_[k] = v; dense_ && hashed_.size() >= next_check_) consider_direct();
  }
  void clear() {
    pages_ = ZeroedPages();
    hashed_.clear();
  }

  // Bytes a table for `entries` keys will hold, before building it.
  static std::uint64_t estimate(bool dense, Key bound, std::uint64_t entries) {
    return dense ? bound : entries * kHashEntryBytes;
  }
  static constexpr std::uint64_t kHashEntryBytes = 48;  // unordered_map node + bucket

  // Bytes held: the direct table's size (an upper bound on what is resident), or buckets
  // plus one heap node per entry for the map.
  std::uint64_t bytes() const {
    if (pages_) return bound_;
    return hashed_.bucket_count() * sizeof(void*) +
           hashed_.size() * (sizeof(std::pair<const Key, std::uint8_t>) + 2 * sizeof(void*));
  }

 private:
  // Called at kDirectAfter entries and each doubling after: move to the direct table once
  // it would hold no more resident memory than the map, i.e. once the 4 KiB pages the keys
  // fall on take no more than kHashEntryBytes per entry. That depends on the encoder's
  // locality, not just on the count: checkers' combinatorial keys of nearby states are
  // close, so they move early, while cantor keys scatter over all of 2x6's 479 MB of table
  // and stay hashed.
  void consider_direct() {
    next_check_ *= 2;
    std::vector<bool> page_used((bound_ >> kPageBits) + 1);
    std::uint64_t pages = 0;
    for (const auto& entry : hashed_) {
      auto&& used = page_used[entry.first >> kPageBits];
      pages += !used;
      used = true;
    }
    if (pages << kPageBits <= hashed_.size() * kHashEntryBytes) go_direct(hashed_.size());
  }
  static constexpr unsigned kPageBits = 12;

  // `entries`: how many keys the table is expected to hold; one per page on average or
  // more, and every page will be touched.
  void go_direct(std::uint64_t entries) {
    pages_ = ZeroedPages(bound_, entries << kPageBits >= bound_);
    if (!pages_) {  // no room for the address range: stay hashed
      dense_ = false;
      return;
    }
    for (const auto& [k, v] : hashed_) pages_.data()[k] = static_cast<std::uint8_t>(v + 1);
    std::unordered_map<Key, std::uint8_t>().swap(hashed_);  // give the map's memory back
  }

  bool dense_;
  Key bound_;
  std::uint64_t next_check_ = kDirectAfter;
  ZeroedPages pages_;  // the direct table; empty while hashed
  std::unordered_map<Key, std::uint8_t> hashed_;
};

}  // namespace searchbench
