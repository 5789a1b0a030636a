// Engine `external`: out-of-core whole-space breadth-first search with two bits per state on
// disk (after Korf's two-bit BFS and his disk-based searches with delayed duplicate
// detection), for perfect encoders only (every key below key_bound() is a state).
//
// * Layout: the key space is cut into segments of S keys (a power of two, at most 2^32 so an
//   offset fits 32 bits); each segment's two-bit cells (core/two_bit_cells.hpp, S/4 bytes)
//   live in a file of the work folder, and only one segment is in memory at a time.
// * One pass over the segments per depth d. For segment t: load its cells; apply the
//   successor offsets other segments sent it for depth d (unseen -> current code: the
//   delayed duplicate detection, since a key already seen is simply left alone); expand
//   every cell at depth d with oneTBB threads, claiming successors inside t at once and
//   routing the others to their segment's file for depth d+1 through per-thread buffers,
//   which are sorted and deduplicated before they are appended (sorted runs also make the
//   later application walk the cells in order); save the cells as the next generation.
// * Durability: the pass reads generation d mod 2 and writes generation (d+1) mod 2, so
//   the files of the last completed depth are never modified. After the pass every new
//   file is fsync'ed, then manifest.json (the completed depth, counts so far, layout,
//   and what puzzle, encoder and start the folder belongs to) is replaced atomically
//   (core/work_dir.hpp); only then are the old generation and the applied successor files
//   removed. A run killed at any point resumes (--resume) from the last manifest, deletes
//   whatever the interrupted pass wrote, and redoes that pass: the same counts.
// * Resources: --max-memory bounds one segment plus the routing buffers (a run refuses at
//   once when the smallest working set does not fit); before each pass the free space of
//   the folder must hold the next generation plus the most the routing could write
//   (states at depth d x moves x 4 bytes), otherwise the run stops with one line and can
//   be resumed once space is freed.
// * No bottom-up levels: asking unseen states for a parent would need the frontier of every
//   segment at once, which is the memory this engine exists to avoid.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <atomic>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include <tbb/enumerable_thread_specific.h>
#include <tbb/task_arena.h>

#include "core/concepts.hpp"
#include "core/errors.hpp"
#include "core/parallel_chunks.hpp"
#include "core/result.hpp"
#include "core/timer.hpp"
#include "core/two_bit_cells.hpp"
#include "core/work_dir.hpp"

namespace searchbench {

// How a run splits the key space and its memory; a function of the key bound, the memory
// limit and the thread count (the segment size is fixed by the first run of a folder).
struct ExternalLayout {
  static constexpr std::uint64_t kMinSegmentKeys = std::uint64_t{1} << 11;
  static constexpr std::uint64_t kMaxSegmentKeys = std::uint64_t{1} << 32;  // offsets fit 32 bits
  static constexpr std::uint64_t kMaxSegments = 1 << 14;
  static constexpr std::uint64_t kMinBufferEntries = 256;
  static constexpr std::uint64_t kMaxBufferEntries = std::uint64_t{1} << 22;  // 16 MiB: sorts stay cheap
  static constexpr std::uint64_t kDefaultMemory = std::uint64_t{1} << 30;
  static constexpr std::uint64_t kRadixCountBytes = 2048 * 4;  // a thread's counts for sorting its buffers

  std::uint64_t segment_keys = 0, segments = 0, buffer_entries = 0, memory_bytes = 0;

  // Successor offsets read back at a time: a 64th of the memory, between 4 KiB and 4 MiB.
  static std::uint64_t apply_entries(std::uint64_t memory) {
    return std::clamp<std::uint64_t>(memory / 64 / 4, 1024, std::uint64_t{1} << 20);
  }

  // One generation of cells on disk: every segment's file, the last one cut at the bound.
  std::uint64_t generation_bytes(Key bound) const {
    return (segments - 1) * segment_bytes(segment_keys) + segment_bytes(bound - (segments - 1) * segment_keys);
  }
  static std::uint64_t segment_bytes(std::uint64_t keys) { return (keys + TwoBitCells::kCellsPerWord - 1) / TwoBitCells::kCellsPerWord * 8; }
  // Memory of a layout with S keys per segment and `entries` per routing buffer: the
  // cells, the read buffer, and per thread one buffer per segment plus sort scratch.
  static std::uint64_t memory_of(std::uint64_t bound, std::uint64_t keys, std::uint64_t entries, int threads, std::uint64_t memory) {
    const std::uint64_t segs = (bound + keys - 1) / keys;
    const std::uint64_t buffers = segs > 1 ? static_cast<std::uint64_t>(threads) * ((segs + 1) * entries * 4 + kRadixCountBytes) : 0;
    return segment_bytes(std::min(keys, bound)) + apply_entries(memory) * 4 + buffers;
  }

  // segment_keys == 0: choose the largest segment that takes at most half the memory.
  static ExternalLayout choose(Key bound, std::uint64_t memory, int threads, std::uint64_t segment_keys, const std::string& what) {
    if (memory == 0) memory = kDefaultMemory;
    ExternalLayout l;
    l.segment_keys = segment_keys;
    if (l.segment_keys == 0) {
      l.segment_keys = kMinSegmentKeys;
      while (l.segment_keys < bound && l.segment_keys * 2 <= kMaxSegmentKeys && segment_bytes(l.segment_keys * 2) <= memory / 2)
        l.segment_keys *= 2;
      while ((bound + l.segment_keys - 1) / l.segment_keys > kMaxSegments) l.segment_keys *= 2;
    }
    l.segments = (bound + l.segment_keys - 1) / l.segment_keys;
    const std::uint64_t fixed = memory_of(bound, l.segment_keys, 0, threads, memory);
    if (l.segments > 1) {
      const std::uint64_t per_entry = static_cast<std::uint64_t>(threads) * (l.segments + 1) * 4;
      l.buffer_entries = memory > fixed ? std::min(kMaxBufferEntries, (memory - fixed) / per_entry) : 0;
    }
    l.memory_bytes = memory_of(bound, l.segment_keys, l.buffer_entries, threads, memory);
    if ((l.segments > 1 && l.buffer_entries < kMinBufferEntries) || l.memory_bytes > memory) {
      // The smallest working set over every segment size this folder could use.
      std::uint64_t least = ~std::uint64_t{0};
      for (std::uint64_t keys = segment_keys ? segment_keys : kMinSegmentKeys; keys <= kMaxSegmentKeys; keys *= 2) {
        if ((bound + keys - 1) / keys <= kMaxSegments) least = std::min(least, memory_of(bound, keys, kMinBufferEntries, threads, 0));
        if (segment_keys || keys >= bound) break;
      }
      throw InputError("--max-memory " + std::to_string(memory >> 10) + " KiB is too small for an out-of-core run of " + what +
                       " with " + std::to_string(threads) + " thread(s): it needs at least " + std::to_string((least + least / 32 + 1023) >> 10) +
                       " KiB");
    }
    return l;
  }
};

template <Puzzle P, Encoder<P> E>
class ExternalBfs {
 public:
  using State = typename P::State;
  static constexpr std::string_view kName = "external";
  static constexpr std::string_view kSummary = "out-of-core two-bit BFS: segments on disk (--workdir), checkpoints, --resume";
  static constexpr bool kThreaded = true;
  static constexpr bool kCountsOnly = true;
  static constexpr bool kPerfectEncoderOnly = true;

  ExternalBfs(const P& puzzle, const E& enc, SearchOptions options) : puzzle_(puzzle), enc_(enc), options_(std::move(options)) {
    static_assert(every_key_is_state<E>(), "engine 'external' scans keys it never generated: it needs a perfect encoder");
    if (options_.threads < 1) throw InputError("thread count must be at least 1");
  }

  // Memory of the run: one segment and the routing buffers (within --max-memory).
  std::uint64_t estimate_explore_bytes(const State&) const { return layout(options_.segment_keys).memory_bytes; }

  SearchResult search(const State&, const State&) {
    throw InputError("engine 'external' counts whole spaces only; use bidir for point queries");
  }

  SearchResult explore(const State& start) {
    Timer timer;
    WorkDir dir(options_.workdir);
    Run run(dir);
    run.start_key = enc_.encode(start);
    run.start_text = puzzle_.format(start);
    begin(run);
    tbb::task_arena arena(options_.threads);
    arena.execute([&] {
      while (!run.manifest.value("finished", false)) pass(run, timer);
    });
    SearchResult result;
    const nlohmann::json& m = run.manifest;
    result.depth_counts = m["depth_counts"].get<std::vector<std::uint64_t>>();
    result.expanded = m["expanded"];
    result.generated = m["generated"];
    result.peak_bytes = run.layout.memory_bytes;
    result.seconds = timer.seconds();
    OutOfCoreStats stats;
    stats.workdir = dir.path();
    stats.segments = run.layout.segments;
    stats.segment_keys = run.layout.segment_keys;
    stats.bytes_written = run.bytes_written;
    stats.bytes_read = run.bytes_read;
    stats.peak_disk_bytes = run.peak_disk_bytes;
    stats.resumed_from = run.resumed_from;
    result.out_of_core = stats;
    return result;
  }

 private:
  struct Run {
    explicit Run(WorkDir& d) : dir(d) {}
    WorkDir& dir;
    Key start_key = 0;
    std::string start_text;
    ExternalLayout layout;
    nlohmann::json manifest;
    int resumed_from = -1;
    std::uint64_t bytes_written = 0, bytes_read = 0, peak_disk_bytes = 0;
  };

  static constexpr const char* kManifest = "manifest.json";
  static constexpr const char* kFormat = "searchbench-external-1";
  static std::string cells_file(int depth, std::uint64_t segment) {
    return "cells-" + std::to_string(depth & 1) + "-" + std::to_string(segment);
  }
  static std::string next_file(int depth, std::uint64_t segment) {
    return "next-" + std::to_string(depth) + "-" + std::to_string(segment);
  }

  ExternalLayout layout(std::uint64_t segment_keys) const {
    return ExternalLayout::choose(enc_.key_bound(), options_.max_memory, options_.threads, segment_keys, puzzle_.name());
  }
  std::string identity(const std::string& start_text) const {
    return puzzle_.name() + " (encoder " + std::string(E::kName) + ", start " + start_text + ")";
  }

  // A fresh run writes its first manifest (depth 0: the start key waits in the successor
  // file of its segment); --resume reads the folder's and checks it belongs to this run.
  void begin(Run& run) {
    const auto text = run.dir.read_text(kManifest);
    const Key bound = enc_.key_bound();
    if (options_.resume) {
      if (!text) throw InputError("nothing to resume in '" + run.dir.path() + "' (no " + kManifest + ")");
      try {
        run.manifest = nlohmann::json::parse(*text);
      } catch (const nlohmann::json::exception&) {
        throw InputError("'" + run.dir.file(kManifest) + "' is not a manifest of this program");
      }
      const nlohmann::json& m = run.manifest;
      if (m.value("format", "") != kFormat) throw InputError("'" + run.dir.file(kManifest) + "' is not a manifest of this program");
      if (m.value("puzzle", "") != puzzle_.name() || m.value("encoder", "") != E::kName || m.value("start", "") != run.start_text ||
          m.value("key_bound", Key{0}) != bound)
        throw InputError("work folder '" + run.dir.path() + "' holds a run of " + m.value("identity", std::string("another search")) +
                         ", not of " + identity(run.start_text));
      run.layout = layout(m["segment_keys"]);
      run.resumed_from = static_cast<int>(m["depth_counts"].size());  // the first depth not yet counted
      return;
    }
    if (text) {
      throw InputError("work folder '" + run.dir.path() + "' already holds a run (" + kManifest +
                       "); add --resume to continue it or choose an empty folder");
    }
    const std::uint64_t wanted = options_.segment_keys;
    if (wanted != 0 && (!std::has_single_bit(wanted) || wanted < ExternalLayout::kMinSegmentKeys || wanted > ExternalLayout::kMaxSegmentKeys))
      throw InputError("segment size must be a power of two between 2^11 and 2^32 keys (got " + std::to_string(wanted) + ")");
    run.layout = layout(wanted);
    const std::uint64_t cells = run.layout.generation_bytes(bound);
    const std::uint64_t free = run.dir.free_bytes();
    if (free < 2 * cells)
      throw InputError("an out-of-core run of " + puzzle_.name() + " needs at least " + std::to_string((2 * cells) >> 20) +
                       " MiB in '" + run.dir.path() + "' (two generations of two-bit cells, plus successor lists), only " +
                       std::to_string(free >> 20) + " MiB free");
    const std::uint64_t segment = run.start_key / run.layout.segment_keys;
    const std::uint32_t offset = static_cast<std::uint32_t>(run.start_key - segment * run.layout.segment_keys);
    DataFile f(run.dir.file(next_file(0, segment)), DataFile::Mode::create);
    f.write_all(&offset, sizeof offset);
    run.dir.sync(f);
    f.close();
    run.manifest = {{"format", kFormat},
                    {"identity", identity(run.start_text)},
                    {"puzzle", puzzle_.name()},
                    {"encoder", E::kName},
                    {"start", run.start_text},
                    {"key_bound", bound},
                    {"segment_keys", run.layout.segment_keys},
                    {"segments", run.layout.segments},
                    {"depth", 0},
                    {"depth_counts", std::vector<std::uint64_t>{}},
                    {"claimed_ahead", 0},
                    {"pending_entries", 1},
                    {"expanded", 0},
                    {"generated", 0},
                    {"bytes_written", 0},
                    {"bytes_read", 0},
                    {"finished", false}};
    run.dir.write_text_atomically(kManifest, run.manifest.dump(1) + "\n");
  }

  struct Scratch {
    std::vector<std::vector<std::uint32_t>> routed;  // per target segment
    std::vector<std::uint32_t> sort_buffer;
    std::vector<std::uint32_t> radix_counts;
    std::vector<Key> keys, inside;
    std::uint64_t claimed = 0, expanded = 0, generated = 0;
  };

  // Successors routed to other segments: per-thread buffers, sorted and deduplicated, then
  // appended to the target's file (one lock per target file).
  struct Router {
    WorkDir& dir;
    int depth;  // the depth the routed keys are at
    std::uint64_t segment_keys, entries_per_buffer;
    std::vector<std::mutex> locks;
    std::vector<std::uint64_t> entries;  // per target, guarded by its lock
    std::atomic<std::uint64_t> bytes{0};
    Router(WorkDir& d, int depth_, const ExternalLayout& l)
        : dir(d), depth(depth_), segment_keys(l.segment_keys), entries_per_buffer(l.buffer_entries), locks(l.segments), entries(l.segments, 0) {}

    void flush(std::uint64_t target, std::vector<std::uint32_t>& buffer, Scratch& scratch) {
      if (buffer.empty()) return;
      sort_offsets(buffer, scratch, static_cast<unsigned>(std::bit_width(segment_keys - 1)));
      buffer.erase(std::unique(buffer.begin(), buffer.end()), buffer.end());
      {
        std::lock_guard lock(locks[target]);
        DataFile f(dir.file(next_file(depth, target)), DataFile::Mode::append);
        f.write_all(buffer.data(), buffer.size() * sizeof(std::uint32_t));
        f.close();
        entries[target] += buffer.size();
      }
      bytes.fetch_add(buffer.size() * sizeof(std::uint32_t), std::memory_order_relaxed);
      buffer.clear();
    }
  };

  // Least significant digit radix sort on 11-bit digits, as many passes as the segment's
  // offsets have digits (3 at most; 8 KiB of counts): flushes sort millions of offsets,
  // where std::sort's comparisons would cost more than the expansion itself.
  static void sort_offsets(std::vector<std::uint32_t>& v, Scratch& scratch, unsigned offset_bits) {
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

  // One depth: apply the successors sent to each segment, expand its cells at this depth,
  // save it as the next generation; then make everything durable and commit the manifest.
  void pass(Run& run, const Timer& timer) {
    WorkDir& dir = run.dir;
    nlohmann::json& m = run.manifest;
    const int depth = m["depth"];
    const ExternalLayout& l = run.layout;
    const Key bound = enc_.key_bound();
    const bool expand = options_.max_depth < 0 || depth < options_.max_depth;

    // Whatever an interrupted pass (or the cleanup after a commit) left behind.
    for (std::uint64_t t = 0; t < l.segments; ++t) {
      dir.remove(cells_file(depth + 1, t));
      dir.remove(next_file(depth + 1, t));
      if (depth > 0) dir.remove(next_file(depth - 1, t));
    }
    if (depth > 0 && m["claimed_ahead"] == 0 && m["pending_entries"] == 0) {  // nothing at this depth: done
      finish(run);
      return;
    }
    const std::uint64_t cells_total = l.generation_bytes(bound);
    std::uint64_t incoming_bytes = 0;
    for (std::uint64_t t = 0; t < l.segments; ++t) incoming_bytes += dir.size_of(next_file(depth, t));
    const std::uint64_t frontier_bound = m["claimed_ahead"].get<std::uint64_t>() + m["pending_entries"].get<std::uint64_t>();
    const std::uint64_t need = cells_total + (expand ? frontier_bound * static_cast<std::uint64_t>(puzzle_.move_count()) * 4 : 0);
    if (const std::uint64_t free = dir.free_bytes(); free < need)
      throw InputError("depth " + std::to_string(depth) + " of " + puzzle_.name() + " may need " + std::to_string(need >> 20) +
                       " MiB more in '" + dir.path() + "', only " + std::to_string(free >> 20) +
                       " MiB free; free some space and rerun with --resume");

    TwoBitCells cells(l.segment_keys);
    Router router(dir, depth + 1, l);
    tbb::enumerable_thread_specific<Scratch> scratch;
    std::uint64_t count = m["claimed_ahead"];  // this depth's keys claimed inside their own segment last pass
    std::vector<std::uint32_t> incoming(ExternalLayout::apply_entries(options_.max_memory ? options_.max_memory : ExternalLayout::kDefaultMemory));
    const unsigned current = TwoBitCells::current_code(depth), next = TwoBitCells::next_code(depth);

    for (std::uint64_t t = 0; t < l.segments; ++t) {
      const Key base = t * l.segment_keys;
      const std::uint64_t keys = std::min<Key>(l.segment_keys, bound - base);
      const std::uint64_t bytes = ExternalLayout::segment_bytes(keys), words = bytes / 8;
      if (depth == 0) {
        std::fill(cells.raw_bytes(), cells.raw_bytes() + bytes, 0);  // generation 0: everything unseen
      } else {
        DataFile f(dir.file(cells_file(depth, t)), DataFile::Mode::read);
        f.read_exactly(cells.raw_bytes(), bytes);
        run.bytes_read += bytes;
      }
      if (keys % TwoBitCells::kCellsPerWord != 0)  // cells past the last key: done, so no scan sees them
        cells.mark(words - 1, ~std::uint64_t{0} << (keys % TwoBitCells::kCellsPerWord * 2) & TwoBitCells::kLow, TwoBitCells::kDone);

      // Delayed duplicate detection: the offsets sent here for this depth claim the cells
      // still unseen; the others were reached earlier.
      if (dir.exists(next_file(depth, t))) {
        DataFile f(dir.file(next_file(depth, t)), DataFile::Mode::read);
        for (;;) {
          const std::size_t got = f.read_up_to(incoming.data(), incoming.size() * 4);
          if (got % 4 != 0) throw InputError("'" + dir.file(next_file(depth, t)) + "' is damaged (a partial entry)");
          if (got == 0) break;
          run.bytes_read += got;
          std::atomic<std::uint64_t> claimed{0};
          std::atomic<bool> damaged{false};
          parallel_chunks(got / 4, 4096, [&](std::uint64_t begin, std::uint64_t end) {
            std::uint64_t mine = 0;
            for (std::uint64_t i = begin; i != end; ++i) {
              if (incoming[i] >= keys) damaged.store(true, std::memory_order_relaxed);
              else mine += cells.claim(incoming[i], current);
            }
            claimed.fetch_add(mine, std::memory_order_relaxed);
          });
          if (damaged) throw InputError("'" + dir.file(next_file(depth, t)) + "' is damaged (an offset past its segment)");
          count += claimed;
        }
      }

      if (expand) {
        const std::uint64_t grain = std::max<std::uint64_t>(64, words / (64 * static_cast<std::uint64_t>(options_.threads)));
        parallel_chunks(words, grain, [&](std::uint64_t begin, std::uint64_t end) {
          expand_words(cells, base, keys, begin, end, current, next, router, scratch.local());
        });
      }
      DataFile out(dir.file(cells_file(depth + 1, t)), DataFile::Mode::create);
      out.write_all(cells.raw_bytes(), bytes);
      dir.sync(out);
      out.close();
      run.bytes_written += bytes;
    }

    std::uint64_t claimed_ahead = 0, expanded = 0, generated = 0;
    for (auto& s : scratch) {
      for (std::uint64_t u = 0; u < s.routed.size(); ++u) router.flush(u, s.routed[u], s);
      claimed_ahead += s.claimed;
      expanded += s.expanded;
      generated += s.generated;
    }
    std::uint64_t pending = 0, routed_bytes = 0;
    for (std::uint64_t u = 0; u < l.segments; ++u) {
      pending += router.entries[u];
      if (router.entries[u] == 0) continue;
      DataFile f(dir.file(next_file(depth + 1, u)), DataFile::Mode::read);
      dir.sync(f);
      routed_bytes += router.entries[u] * 4;
    }
    run.bytes_written += router.bytes;
    run.peak_disk_bytes = std::max(run.peak_disk_bytes, 2 * cells_total + incoming_bytes + routed_bytes);
    dir.sync();

    // The commit point: until the manifest is replaced, a resumed run redoes this pass.
    if (count > 0) m["depth_counts"].push_back(count);
    m["depth"] = depth + 1;
    m["claimed_ahead"] = claimed_ahead;
    m["pending_entries"] = pending;
    m["expanded"] = m["expanded"].get<std::uint64_t>() + expanded;
    m["generated"] = m["generated"].get<std::uint64_t>() + generated;
    m["bytes_written"] = m["bytes_written"].get<std::uint64_t>() + run.bytes_written;
    m["bytes_read"] = m["bytes_read"].get<std::uint64_t>() + run.bytes_read;
    const bool done = count == 0 || !expand;
    if (done) m["finished"] = true;
    dir.write_text_atomically(kManifest, m.dump(1) + "\n");
    for (std::uint64_t t = 0; t < l.segments; ++t) {
      dir.remove(cells_file(depth, t));
      dir.remove(next_file(depth, t));
      if (done) {
        dir.remove(cells_file(depth + 1, t));
        dir.remove(next_file(depth + 1, t));
      }
    }
    if (count > 0 && depth > 0 && options_.progress) options_.progress(depth, count, timer.seconds());
  }

  void finish(Run& run) {
    run.manifest["finished"] = true;
    run.dir.write_text_atomically(kManifest, run.manifest.dump(1) + "\n");
    for (std::uint64_t t = 0; t < run.layout.segments; ++t) run.dir.remove(cells_file(run.manifest["depth"], t));
  }

  static constexpr std::size_t kBatch = 64;

  // Expands the cells at `current` in words [begin, end) of the loaded segment: successors
  // inside it are claimed with `next` (their cells prefetched as a batch first), the others
  // routed to their segment.
  void expand_words(TwoBitCells& cells, Key base, std::uint64_t keys, std::uint64_t begin, std::uint64_t end, unsigned current,
                    unsigned next, Router& router, Scratch& local) const {
    const std::uint64_t per_segment = router.segment_keys;
    if (local.routed.size() != router.locks.size()) local.routed.resize(router.locks.size());
    for_each_frontier_batch(cells, begin, end, current, base, local.keys, kBatch, [&] {
      local.inside.clear();
      State successor;
      for (const Key k : local.keys)
        local.generated += for_each_successor_key(puzzle_, enc_, k, successor, [&](Key n) {
          if (n - base < keys) {
            __builtin_prefetch(cells.address_of(n - base), 1);
            local.inside.push_back(n - base);
            return;
          }
          const std::uint64_t target = n / per_segment;
          auto& buffer = local.routed[target];
          if (buffer.capacity() < router.entries_per_buffer) buffer.reserve(router.entries_per_buffer);
          buffer.push_back(static_cast<std::uint32_t>(n - target * per_segment));
          if (buffer.size() >= router.entries_per_buffer) router.flush(target, buffer, local);
        });
      for (const Key n : local.inside) local.claimed += cells.claim(n, next);
      local.expanded += local.keys.size();
    });
  }

  const P& puzzle_;
  const E& enc_;
  SearchOptions options_;
};

}  // namespace searchbench
