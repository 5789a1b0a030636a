// One byte of information per key: a direct table when the encoder is dense, a hash map
// when it is sparse. Engines use it for "the move that first reached this key" (ring),
// "depth of this key" (bidir) and transposition depths (iddfs).
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "core/concepts.hpp"

namespace searchbench {

class ByteTable {
 public:
  static constexpr std::uint8_t kEmpty = 0xFF;

  // `expected` sizes the hash map of a sparse table up front (no rehash in the hot loop).
  ByteTable(bool dense, Key bound, std::uint64_t expected) : dense_(dense) {
    if (dense_) {
      direct_.assign(bound, kEmpty);
    } else {
      hashed_.reserve(expected);
    }
  }

  std::uint8_t get(Key k) const {
    if (dense_) return direct_[k];
    auto it = hashed_.find(k);
    return it == hashed_.end() ? kEmpty : it->second;
  }
  // Stores v only when k is still empty; returns true when it did.
  bool insert(Key k, std::uint8_t v) {
    if (dense_) {
      if (direct_[k] != kEmpty) return false;
      direct_[k] = v;
      return true;
    }
    return hashed_.try_emplace(k, v).second;
  }
  void set(Key k, std::uint8_t v) {
    if (dense_) direct_[k] = v;
    else hashed_[k] = v;
  }
  void clear() {
    if (dense_) std::fill(direct_.begin(), direct_.end(), kEmpty);
    else hashed_.clear();
  }

  // Bytes a table for `entries` keys will hold, before building it.
  static std::uint64_t estimate(bool dense, Key bound, std::uint64_t entries) {
    return dense ? bound : entries * kHashEntryBytes;
  }
  static constexpr std::uint64_t kHashEntryBytes = 48;  // unordered_map node + bucket

  // Bytes held: the table itself, or buckets plus one heap node per entry for the map.
  std::uint64_t bytes() const {
    if (dense_) return direct_.capacity();
    return hashed_.bucket_count() * sizeof(void*) +
           hashed_.size() * (sizeof(std::pair<const Key, std::uint8_t>) + 2 * sizeof(void*));
  }

 private:
  bool dense_;
  std::vector<std::uint8_t> direct_;
  std::unordered_map<Key, std::uint8_t> hashed_;
};

}  // namespace searchbench
