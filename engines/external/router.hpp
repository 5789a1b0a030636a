// The router of the external engine (engines/external_bfs.hpp): where the successors of a
// segment's frontier go when they land in another segment. The shared expansion step
// (engines/two_bit/expansion_kernel.hpp) hands them to RouteBySegment, which appends each, as an
// offset into its segment, to the thread's buffer for that segment; a full buffer (and,
// before each checkpoint, every buffer: flush_routed) is sorted (a radix sort: std::sort's
// comparisons would cost more than the expansion itself), deduplicated, Rice-coded as one
// run (core/offset_runs.hpp: about a byte per successor on the widest levels) and appended
// to the target's successor file, whose record in the pass checkpoint grows with it. Those
// files are read back by the pass of the next depth (engines/external/incoming.hpp).
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <mutex>
#include <utility>
#include <vector>

#include <tbb/enumerable_thread_specific.h>

#include "core/concepts.hpp"
#include "core/interrupt.hpp"
#include "core/offset_runs.hpp"
#include "core/parallel_chunks.hpp"
#include "core/work_dir.hpp"
#include "engines/two_bit/expansion_kernel.hpp"
#include "engines/external/layout.hpp"
#include "engines/external/store.hpp"
#include "engines/external/work_state.hpp"

namespace searchbench::external {

// A thread's expansion batch and counts, its routing buffers and its sort scratch.
struct RoutingScratch : ExpansionScratch {
  std::vector<std::vector<std::uint32_t>> routed;  // per target segment
  std::vector<std::uint32_t> sort_buffer;
  std::vector<std::uint32_t> radix_counts;
  std::vector<unsigned char> encoded;
};

// Least significant digit radix sort on 11-bit digits, as many passes as the segment's
// offsets have digits (3 at most; 8 KiB of counts): flushes sort millions of offsets.
inline void sort_offsets(std::vector<std::uint32_t>& v, RoutingScratch& scratch, unsigned offset_bits) {
  if (v.size() < 1024) {
    std::sort(v.begin(), v.end());
    return;
  }
  constexpr unsigned kDigitBits = 11;
  constexpr std::uint32_t kDigitMask = (1u << kDigitBits) - 1;
  scratch.sort_buffer.resize(v.size());
  scratch.radix_counts.resize(std::size_t{1} << kDigitBits);
  for (unsigned shift = 0; shift < offset_bits; shift += kDigitBits) {
    std::fill(scratch.radix_counts.begin(), scratch.radix_counts.end(), 0);
    for (const std::uint32_t x : v) ++scratch.radix_counts[(x >> shift) & kDigitMask];
    std::uint32_t sum = 0;
    for (auto& c : scratch.radix_counts) sum += std::exchange(c, sum);
    for (const std::uint32_t x : v) scratch.sort_buffer[scratch.radix_counts[(x >> shift) & kDigitMask]++] = x;
    v.swap(scratch.sort_buffer);
  }
}

// The successor files of one pass (those of depth `depth`, one per target segment):
// appended to by any thread (one lock per target file).
struct SegmentRouter {
  WorkDir& dir;
  int depth;  // the depth the routed keys are at
  std::uint64_t segment_keys, entries_per_buffer;
  std::vector<std::mutex> locks;
  std::vector<FileRecord>& files;       // per target, guarded by its lock
  std::vector<std::uint64_t>& entries;  // per target, guarded by its lock
  std::vector<char> unsynced;           // per target: appended since the last checkpoint
  std::atomic<std::uint64_t> bytes{0};
  SegmentRouter(WorkDir& d, int depth_, const ExternalLayout& l, PassRecord& progress)
      : dir(d),
        depth(depth_),
        segment_keys(l.segment_keys),
        entries_per_buffer(l.buffer_entries),
        locks(l.segments),
        files(progress.next),
        entries(progress.entries),
        unsynced(l.segments, 0) {}

  std::uint64_t segments() const { return locks.size(); }

  // `buffer` (offsets into segment `target`) sorted, deduplicated and appended as one run.
  [[gnu::noinline]] void flush(std::uint64_t target, std::vector<std::uint32_t>& buffer, RoutingScratch& scratch) {
    if (buffer.empty()) return;
    sort_offsets(buffer, scratch, static_cast<unsigned>(std::bit_width(segment_keys - 1)));
    buffer.erase(std::unique(buffer.begin(), buffer.end()), buffer.end());
    scratch.encoded.clear();
    OffsetRuns::encode(buffer.data(), buffer.size(), scratch.encoded);
    {
      std::lock_guard lock(locks[target]);
      DataFile f(dir.file(next_file(depth, target)), DataFile::Mode::append);
      f.write_all(scratch.encoded.data(), scratch.encoded.size());
      f.close();
      files[target].append(scratch.encoded.data(), scratch.encoded.size());
      entries[target] += buffer.size();
      unsynced[target] = 1;
    }
    bytes.fetch_add(scratch.encoded.size(), std::memory_order_relaxed);
    buffer.clear();
  }

  // Makes every file appended to since the last call durable (between parallel phases).
  void sync() {
    for (std::uint64_t u = 0; u < unsynced.size(); ++u) {
      if (!unsynced[u]) continue;
      DataFile f(dir.file(next_file(depth, u)), DataFile::Mode::read);
      dir.sync(f);
      unsynced[u] = 0;
    }
  }
};

// The routing policy of the expansion step for one thread and one loaded segment, keys
// [first, first + keys): the others go to the thread's buffer of their segment. A signal
// stops the pass between batches (the segment is redone on resume).
struct RouteBySegment {
  RouteBySegment(Key first_, std::uint64_t keys_, SegmentRouter& router_, RoutingScratch& local_)
      : first(first_), keys(keys_), router(router_), local(local_) {
    if (local.routed.size() != router.segments()) local.routed.resize(router.segments());
  }
  Key first;
  std::uint64_t keys;
  SegmentRouter& router;
  RoutingScratch& local;

  Key base() const { return first; }
  bool owns(Key n) const { return n - first < keys; }
  void route(Key n) {
    const std::uint64_t per_segment = router.segment_keys;
    const std::uint64_t target = n / per_segment;
    auto& buffer = local.routed[target];
    if (buffer.capacity() < router.entries_per_buffer) buffer.reserve(router.entries_per_buffer);
    buffer.push_back(static_cast<std::uint32_t>(n - target * per_segment));
    if (buffer.size() >= router.entries_per_buffer) router.flush(target, buffer, local);
  }
  static void before_batch() { throw_if_interrupted(); }
};

// Every successor of a segment goes to disk before its checkpoint: the buffers the
// threads hold are sorted, encoded and appended in parallel, each with the sort scratch
// of the thread that takes it (on the widest levels this is about half of all the routing
// work, so one thread doing it alone would idle the others).
inline void flush_routed(SegmentRouter& router, tbb::enumerable_thread_specific<RoutingScratch>& scratch) {
  std::vector<std::pair<RoutingScratch*, std::uint64_t>> unflushed;  // owner, target
  for (auto& s : scratch) {
    for (std::uint64_t u = 0; u < s.routed.size(); ++u)
      if (!s.routed[u].empty()) unflushed.emplace_back(&s, u);
  }
  parallel_chunks(unflushed.size(), 1, [&](std::uint64_t begin, std::uint64_t end) {
    for (std::uint64_t i = begin; i != end; ++i) {
      const auto [owner, target] = unflushed[i];
      router.flush(target, owner->routed[target], scratch.local());
    }
  });
}

}  // namespace searchbench::external
