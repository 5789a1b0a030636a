// The sparse visited set of the parallel engine: key -> depth mod 256 in a hash map shared
// by threads (the first claim of a key wins; later claims never overwrite).
//
// Two candidates live here: oneTBB's concurrent_unordered_map (lock-free split-ordered
// list, one heap node per entry) and a sharded map (256 std::unordered_map shards, each
// behind its own mutex, the shard chosen by the key's hash). The engine uses
// ShardedDepthMap, the faster of the two with 1 and 2 threads on bench/bench_concurrent_sets
// (4M claims of 2M sparse keys), which measures both.
#pragma once

#include <array>
#include <cstdint>
#include <mutex>
#include <unordered_map>

#include <tbb/concurrent_unordered_map.h>

#include "core/concepts.hpp"

namespace searchbench {

inline std::uint64_t mix_key(Key k) {  // splitmix64 finaliser: spreads nearby keys over shards
  k ^= k >> 30;
  k *= 0xbf58476d1ce4e5b9ULL;
  k ^= k >> 27;
  k *= 0x94d049bb133111ebULL;
  return k ^ (k >> 31);
}

class ShardedDepthMap {
 public:
  static constexpr int kShards = 256;
  explicit ShardedDepthMap(std::uint64_t expected) {
    for (auto& s : shards_) s.map.reserve(expected / kShards + 16);
  }
  bool claim(Key k, int depth) {
    Shard& s = shard(k);
    std::lock_guard lock(s.mutex);
    return s.map.try_emplace(k, static_cast<std::uint8_t>(depth)).second;
  }
  int depth_mod(Key k) const {
    const Shard& s = shard(k);
    std::lock_guard lock(s.mutex);
    auto it = s.map.find(k);
    return it == s.map.end() ? -1 : it->second;
  }
  std::uint64_t bytes() const {
    std::uint64_t total = 0;
    for (const auto& s : shards_)
      total += s.map.bucket_count() * sizeof(void*) +
               s.map.size() * (sizeof(std::pair<const Key, std::uint8_t>) + 2 * sizeof(void*));
    return total;
  }

 private:
  struct alignas(64) Shard {
    mutable std::mutex mutex;
    std::unordered_map<Key, std::uint8_t> map;
  };
  Shard& shard(Key k) { return shards_[mix_key(k) >> 56]; }
  const Shard& shard(Key k) const { return shards_[mix_key(k) >> 56]; }
  std::array<Shard, kShards> shards_;
};

class TbbDepthMap {
 public:
  explicit TbbDepthMap(std::uint64_t expected) : map_(expected) {}
  bool claim(Key k, int depth) { return map_.emplace(k, static_cast<std::uint8_t>(depth)).second; }
  int depth_mod(Key k) const {
    auto it = map_.find(k);
    return it == map_.end() ? -1 : it->second;
  }
  std::uint64_t bytes() const {
    return map_.unsafe_bucket_count() * sizeof(void*) + map_.size() * (sizeof(std::pair<const Key, std::uint8_t>) + 3 * sizeof(void*));
  }

 private:
  tbb::concurrent_unordered_map<Key, std::uint8_t> map_;
};

}  // namespace searchbench
