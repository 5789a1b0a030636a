// How an out-of-core run splits the key space and its memory: segments of S keys (a power of
// two, at most 2^32 so an offset fits 32 bits), one segment's two-bit cells in memory at a
// time, and per thread one routing buffer per segment. A function of the key bound, the
// memory limit and the thread count; the segment size is fixed by the first run of a folder.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "core/concepts.hpp"
#include "core/errors.hpp"
#include "core/memory_budget.hpp"
#include "core/offset_runs.hpp"
#include "core/two_bit_cells.hpp"

namespace searchbench::external {

struct ExternalLayout {
  static constexpr std::uint64_t kMinSegmentKeys = std::uint64_t{1} << 11;
  static constexpr std::uint64_t kMaxSegmentKeys = std::uint64_t{1} << 32;  // offsets fit 32 bits
  static constexpr std::uint64_t kMaxSegments = 1 << 14;
  static constexpr std::uint64_t kMinBufferEntries = 256;
  // 256 MiB: larger buffers give denser runs (shorter gaps, fewer bits per successor).
  static constexpr std::uint64_t kMaxBufferEntries = std::uint64_t{1} << 26;
  static constexpr std::uint64_t kDefaultMemory = std::uint64_t{1} << 30;
  static constexpr std::uint64_t kRadixCountBytes = 2048 * 4;  // a thread's counts for sorting its buffers
  // A run of successors takes at most 5 bytes per offset encoded (core/offset_runs.hpp);
  // reading runs back holds a batch of them encoded.
  static constexpr std::uint64_t kEncodedBytesPerEntry = 5;

  std::uint64_t segment_keys = 0, segments = 0, buffer_entries = 0, memory_bytes = 0;

  // One generation of cells on disk: every segment's file, the last one cut at the bound.
  std::uint64_t generation_bytes(Key bound) const {
    return (segments - 1) * segment_bytes(segment_keys) + segment_bytes(bound - (segments - 1) * segment_keys);
  }
  static std::uint64_t segment_bytes(std::uint64_t keys) { return (keys + TwoBitCells::kCellsPerWord - 1) / TwoBitCells::kCellsPerWord * 8; }
  // Memory of a layout with S keys per segment and `entries` per routing buffer: the
  // cells, a batch of runs read back and about as much again for the part of it being
  // applied, decoded (engines/external/incoming.hpp), and per thread one buffer per
  // segment, sort scratch, and a run encoded.
  static std::uint64_t memory_of(std::uint64_t bound, std::uint64_t keys, std::uint64_t entries, int threads) {
    const std::uint64_t segs = (bound + keys - 1) / keys;
    const std::uint64_t per_thread = (segs + 1) * entries * 4 + entries * kEncodedBytesPerEntry + kRadixCountBytes;
    const std::uint64_t routing = segs > 1 ? static_cast<std::uint64_t>(threads) * per_thread + 2 * entries * kEncodedBytesPerEntry : 0;
    return segment_bytes(std::min(keys, bound)) + routing;
  }
  // The smallest working set of a layout of S keys per segment (the fewest buffer entries).
  static std::uint64_t least_memory_of(std::uint64_t bound, std::uint64_t keys, int threads) {
    return memory_of(bound, keys, (bound + keys - 1) / keys > 1 ? kMinBufferEntries : 0, threads);
  }
  // Expected bytes of the successor lists a depth with `frontier` states routes (each of
  // `moves` successors, in full runs).
  std::uint64_t expected_routed_bytes(std::uint64_t frontier, int moves) const {
    if (segments < 2) return 0;
    return static_cast<std::uint64_t>(static_cast<double>(frontier) * moves *
                                      OffsetRuns::expected_bytes_per_offset(segment_keys, buffer_entries)) +
           segments * segments * sizeof(OffsetRunHeader);
  }

  // The layout of S keys per segment with the largest routing buffers `memory` holds.
  static ExternalLayout with_segment(Key bound, std::uint64_t memory, int threads, std::uint64_t keys) {
    ExternalLayout l;
    l.segment_keys = keys;
    l.segments = (bound + keys - 1) / keys;
    const std::uint64_t fixed = memory_of(bound, keys, 0, threads);
    if (l.segments > 1) {
      const std::uint64_t per_entry =
          static_cast<std::uint64_t>(threads) * ((l.segments + 1) * 4 + kEncodedBytesPerEntry) + 2 * kEncodedBytesPerEntry;
      l.buffer_entries = memory > fixed ? std::min(kMaxBufferEntries, (memory - fixed) / per_entry) : 0;
    }
    l.memory_bytes = memory_of(bound, keys, l.buffer_entries, threads);
    return l;
  }
  bool fits(std::uint64_t memory) const { return (segments < 2 || buffer_entries >= kMinBufferEntries) && memory_bytes <= memory; }

  // segment_keys == 0: the largest segment that takes at most half the memory, or failing
  // that the largest that fits at all; refused, with the true minimum, when none does.
  static ExternalLayout choose(Key bound, std::uint64_t memory, int threads, std::uint64_t segment_keys, const std::string& what) {
    if (memory == 0) memory = kDefaultMemory;
    if (segment_keys != 0) {
      const ExternalLayout l = with_segment(bound, memory, threads, segment_keys);
      if (!l.fits(memory)) refuse(memory, least_memory_of(bound, segment_keys, threads), threads, what);
      return l;
    }
    std::uint64_t keys = kMinSegmentKeys;
    while (keys < bound && keys * 2 <= kMaxSegmentKeys && segment_bytes(keys * 2) <= memory / 2) keys *= 2;
    while ((bound + keys - 1) / keys > kMaxSegments) keys *= 2;
    const ExternalLayout preferred = with_segment(bound, memory, threads, keys);
    if (preferred.fits(memory)) return preferred;
    // Every other segment size this key space allows, largest first (larger segments need
    // fewer routing buffers, smaller ones fewer cells).
    std::uint64_t least = least_memory_of(bound, keys, threads);
    std::uint64_t top = kMinSegmentKeys;
    while (top < bound && top < kMaxSegmentKeys) top *= 2;
    for (std::uint64_t k = top;; k /= 2) {
      if ((bound + k - 1) / k <= kMaxSegments) {
        const ExternalLayout l = with_segment(bound, memory, threads, k);
        if (l.fits(memory)) return l;
        least = std::min(least, least_memory_of(bound, k, threads));
      }
      if (k == kMinSegmentKeys) break;
    }
    refuse(memory, least, threads, what);
  }

 private:
  // The limit rounded down and the need rounded up, so the two figures always differ.
  [[noreturn]] static void refuse(std::uint64_t memory, std::uint64_t least, int threads, const std::string& what) {
    throw InputError("--max-memory " + std::to_string(memory >> 10) + " KiB is too small for an out-of-core run of " + what +
                     " with " + std::to_string(threads) + " thread(s): it needs at least " + std::to_string((least + 1023) >> 10) +
                     " KiB");
  }
};

}  // namespace searchbench::external
