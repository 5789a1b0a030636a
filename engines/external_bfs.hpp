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
//   which are sorted, deduplicated and Rice-coded (core/offset_runs.hpp: about a byte per
//   successor on the widest levels) before they are appended; save the cells as segment
//   t's next generation.
// * Durability, per segment: when segment t is done, every routing buffer is flushed, the
//   new cells and every successor file written since the last checkpoint are fsync'ed, and
//   pass.json (the segment reached, the counts of the pass so far and the length of every
//   successor file) replaces the old one atomically (core/work_dir.hpp); only then are
//   segment t's old cells and its applied successor file removed, so the folder holds one
//   generation of cells, not two. When the last segment is done, manifest.json (the
//   completed depth, counts so far, layout, and what puzzle, encoder and start the folder
//   belongs to) is replaced the same way. A run killed at any point resumes (--resume)
//   from the last checkpoint: it cuts the successor files back to their recorded lengths
//   and redoes the segment it was in: the same counts.
// * Resources: --max-memory bounds one segment, the routing buffers and one run of
//   successors read back (a run refuses at once when the smallest working set does not
//   fit); before each pass the free space of the folder must hold two more segments plus
//   the expected growth of the successor lists, otherwise the run stops with one line and
//   can be resumed once space is freed (as it can after a write that finds the disk full).
// * No bottom-up levels: asking unseen states for a parent would need the frontier of every
//   segment at once, which is the memory this engine exists to avoid.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <atomic>
#include <memory>
#include <mutex>
#include <numeric>
#include <optional>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include <tbb/enumerable_thread_specific.h>
#include <tbb/task_arena.h>

#include "core/concepts.hpp"
#include "core/errors.hpp"
#include "core/offset_runs.hpp"
#include "core/parallel_chunks.hpp"
#include "core/result.hpp"
#include "core/timer.hpp"
#include "core/two_bit_cells.hpp"
#include "core/work_dir.hpp"
#include "engines/external/sorted_levels.hpp"

namespace searchbench {

// How a run splits the key space and its memory; a function of the key bound, the memory
// limit and the thread count (the segment size is fixed by the first run of a folder).
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
  // cells, a batch of runs read back, and per thread one buffer per segment, sort scratch,
  // and a run encoded.
  static std::uint64_t memory_of(std::uint64_t bound, std::uint64_t keys, std::uint64_t entries, int threads) {
    const std::uint64_t segs = (bound + keys - 1) / keys;
    const std::uint64_t per_thread = (segs + 1) * entries * 4 + entries * kEncodedBytesPerEntry + kRadixCountBytes;
    const std::uint64_t routing = segs > 1 ? static_cast<std::uint64_t>(threads) * per_thread + entries * kEncodedBytesPerEntry : 0;
    return segment_bytes(std::min(keys, bound)) + routing;
  }
  // Expected bytes of the successor lists a depth with `frontier` states routes (each of
  // `moves` successors, in full runs).
  std::uint64_t expected_routed_bytes(std::uint64_t frontier, int moves) const {
    if (segments < 2) return 0;
    return static_cast<std::uint64_t>(static_cast<double>(frontier) * moves *
                                      OffsetRuns::expected_bytes_per_offset(segment_keys, buffer_entries)) +
           segments * segments * sizeof(OffsetRunHeader);
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
    const std::uint64_t fixed = memory_of(bound, l.segment_keys, 0, threads);
    if (l.segments > 1) {
      const std::uint64_t per_entry =
          static_cast<std::uint64_t>(threads) * ((l.segments + 1) * 4 + kEncodedBytesPerEntry) + kEncodedBytesPerEntry;
      l.buffer_entries = memory > fixed ? std::min(kMaxBufferEntries, (memory - fixed) / per_entry) : 0;
    }
    l.memory_bytes = memory_of(bound, l.segment_keys, l.buffer_entries, threads);
    if ((l.segments > 1 && l.buffer_entries < kMinBufferEntries) || l.memory_bytes > memory) {
      // The smallest working set over every segment size this folder could use.
      std::uint64_t least = ~std::uint64_t{0};
      for (std::uint64_t keys = segment_keys ? segment_keys : kMinSegmentKeys; keys <= kMaxSegmentKeys; keys *= 2) {
        if ((bound + keys - 1) / keys <= kMaxSegments) least = std::min(least, memory_of(bound, keys, kMinBufferEntries, threads));
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
    stats.peak_disk_bytes = std::max(run.peak_disk_bytes, m.value("peak_disk_bytes", std::uint64_t{0}));
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
  static constexpr const char* kFormat = "searchbench-external-2";
  static constexpr const char* kPassFile = "pass.json";
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
    const std::uint64_t cells = run.layout.generation_bytes(bound) + 2 * ExternalLayout::segment_bytes(run.layout.segment_keys);
    const std::uint64_t free = run.dir.free_bytes();
    if (free < cells)
      throw InputError("an out-of-core run of " + puzzle_.name() + " needs at least " + std::to_string(cells >> 20) + " MiB in '" +
                       run.dir.path() + "' (a generation of two-bit cells and two more segments, plus successor lists), only " +
                       std::to_string(free >> 20) + " MiB free");
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
                    {"claimed_ahead_by_segment", std::vector<std::uint64_t>(run.layout.segments, 0)},
                    {"pending_entries", 1},
                    {"expanded", 0},
                    {"generated", 0},
                    {"bytes_written", 0},
                    {"bytes_read", 0},
                    {"peak_disk_bytes", 0},
                    {"finished", false}};
    const std::uint64_t seed_keys = options_.seed_keys.value_or(run.layout.memory_bytes / sizeof(Key));
    if (seed_keys > 0) {
      seed(run, seed_keys);
    } else {  // the start key waits in the successor file of its segment
      const std::uint64_t segment = run.start_key / run.layout.segment_keys;
      const std::uint32_t offset = static_cast<std::uint32_t>(run.start_key - segment * run.layout.segment_keys);
      std::vector<unsigned char> encoded;
      OffsetRuns::encode(&offset, 1, encoded);
      DataFile f(run.dir.file(next_file(0, segment)), DataFile::Mode::create);
      f.write_all(encoded.data(), encoded.size());
      run.dir.sync(f);
      f.close();
    }
    run.dir.write_text_atomically(kManifest, run.manifest.dump(1) + "\n");  // the commit point
  }

  // A fresh run's first depths in memory (engines/external/sorted_levels.hpp) while they fit
  // `budget_keys`, then one generation of cells written at once: the states of the earlier
  // depths done, those of the last level at its depth's current code, claimed ahead as a
  // pass would have left them; the passes go on from that depth. Killed before the manifest
  // is written, the folder holds no run, and a fresh start overwrites these cells.
  void seed(Run& run, std::uint64_t budget_keys) {
    Timer timer;
    WorkDir& dir = run.dir;
    const ExternalLayout& l = run.layout;
    const Key bound = enc_.key_bound();
    SortedLevels s;
    tbb::task_arena arena(options_.threads);
    arena.execute([&] {
      s = sorted_levels(puzzle_, enc_, run.start_key, budget_keys, options_.max_depth, l.segment_keys, kSamplesPerDepth);
    });
    nlohmann::json& m = run.manifest;
    const int last_depth = static_cast<int>(s.counts.size()) - 1;
    // Every depth found is done, except the last when the search stopped short: the pass
    // of that depth expands (and samples) its cells.
    const int done_depths = s.complete ? last_depth + 1 : last_depth;
    for (int d = 0; d < done_depths; ++d) {
      std::vector<std::string> texts;
      for (const Key k : s.samples[d]) texts.push_back(puzzle_.format(enc_.decode(k)));
      m["samples"][std::to_string(d)] = texts;
    }
    m["expanded"] = s.expanded;
    m["generated"] = s.generated;
    m["seeded_depths"] = done_depths;
    m["pending_entries"] = 0;
    if (s.complete) {  // the whole search fitted
      m["depth_counts"] = s.counts;
      m["depth"] = s.counts.size();
      m["finished"] = true;
      return;
    }
    m["depth_counts"] = std::vector<std::uint64_t>(s.counts.begin(), s.counts.end() - 1);
    m["depth"] = last_depth;
    std::vector<std::uint64_t> ahead(l.segments, 0);
    for (const Key k : s.last) ++ahead[k / l.segment_keys];
    m["claimed_ahead"] = s.last.size();
    m["claimed_ahead_by_segment"] = ahead;
    TwoBitCells cells(l.segment_keys);
    const unsigned current = TwoBitCells::current_code(last_depth);
    auto visited = s.visited.begin(), last = s.last.begin();
    for (std::uint64_t t = 0; t < l.segments; ++t) {
      const Key base = t * l.segment_keys, end = std::min<Key>(base + l.segment_keys, bound);
      dir.remove(cells_file(last_depth, t));  // an earlier, killed start's
      if (visited == s.visited.end() || *visited >= end) continue;  // no state here yet: no file
      const std::uint64_t bytes = ExternalLayout::segment_bytes(end - base);
      std::fill(cells.raw_bytes(), cells.raw_bytes() + bytes, 0);
      for (; visited != s.visited.end() && *visited < end; ++visited) {
        const bool in_last = last != s.last.end() && *last == *visited;
        cells.mark_key(*visited - base, in_last ? current : TwoBitCells::kDone);
        if (in_last) ++last;
      }
      DataFile out(dir.file(cells_file(last_depth, t)), DataFile::Mode::create);
      out.write_all(cells.raw_bytes(), bytes);
      out.start_writeback();
      out.close();
      run.bytes_written += bytes;
    }
    for (std::uint64_t t = 0; t < l.segments; ++t) {
      if (!dir.exists(cells_file(last_depth, t))) continue;
      DataFile f(dir.file(cells_file(last_depth, t)), DataFile::Mode::read);
      dir.sync(f);
    }
    dir.sync();
    m["bytes_written"] = run.bytes_written;
    if (options_.progress)
      for (int d = 1; d < last_depth; ++d) options_.progress(d, s.counts[d], timer.seconds());
  }

  struct Scratch {
    std::vector<std::vector<std::uint32_t>> routed;  // per target segment
    std::vector<std::uint32_t> sort_buffer;
    std::vector<std::uint32_t> radix_counts;
    std::vector<unsigned char> encoded;
    std::vector<Key> keys, inside;
    std::uint64_t claimed = 0, expanded = 0, generated = 0;
  };

  // What a pass has done so far: saved in pass.json at every segment checkpoint, so a
  // killed run resumes inside the pass it was in.
  struct PassProgress {
    int depth = 0;
    std::uint64_t next_segment = 0;  // the segments below it are done
    std::uint64_t count = 0;         // keys at this depth found so far
    std::uint64_t expanded = 0, generated = 0, bytes_written = 0, bytes_read = 0, peak_disk_bytes = 0;
    std::vector<std::uint64_t> lengths, entries;  // per successor file of depth + 1: bytes and offsets
    std::vector<std::uint64_t> ahead;             // per segment: keys of depth + 1 claimed inside it
    std::vector<std::string> samples;             // states found at this depth, from different segments

    nlohmann::json to_json() const {
      return {{"depth", depth},
              {"next_segment", next_segment},
              {"count", count},
              {"expanded", expanded},
              {"generated", generated},
              {"bytes_written", bytes_written},
              {"bytes_read", bytes_read},
              {"peak_disk_bytes", peak_disk_bytes},
              {"lengths", lengths},
              {"entries", entries},
              {"ahead", ahead},
              {"samples", samples}};
    }
    static PassProgress from_json(const nlohmann::json& j) {
      PassProgress p;
      p.depth = j.at("depth");
      p.next_segment = j.at("next_segment");
      p.count = j.at("count");
      p.expanded = j.at("expanded");
      p.generated = j.at("generated");
      p.bytes_written = j.at("bytes_written");
      p.bytes_read = j.at("bytes_read");
      p.peak_disk_bytes = j.at("peak_disk_bytes");
      p.lengths = j.at("lengths").get<std::vector<std::uint64_t>>();
      p.entries = j.at("entries").get<std::vector<std::uint64_t>>();
      p.ahead = j.at("ahead").get<std::vector<std::uint64_t>>();
      p.samples = j.at("samples").get<std::vector<std::string>>();
      return p;
    }
  };

  // Successors routed to other segments: per-thread buffers, sorted, deduplicated and
  // encoded as one run, then appended to the target's file (one lock per target file).
  struct Router {
    WorkDir& dir;
    int depth;  // the depth the routed keys are at
    std::uint64_t segment_keys, entries_per_buffer;
    std::vector<std::mutex> locks;
    std::vector<std::uint64_t>&lengths, &entries;  // per target, guarded by its lock
    std::vector<char> unsynced;                     // per target: appended since the last checkpoint
    std::atomic<std::uint64_t> bytes{0};
    Router(WorkDir& d, int depth_, const ExternalLayout& l, PassProgress& progress)
        : dir(d),
          depth(depth_),
          segment_keys(l.segment_keys),
          entries_per_buffer(l.buffer_entries),
          locks(l.segments),
          lengths(progress.lengths),
          entries(progress.entries),
          unsynced(l.segments, 0) {}

    void flush(std::uint64_t target, std::vector<std::uint32_t>& buffer, Scratch& scratch) {
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
        lengths[target] += scratch.encoded.size();
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

  // Where pass `depth` starts: inside it when pass.json holds a checkpoint of it (the
  // successor files are cut back to their recorded lengths, and whatever the interrupted
  // segment wrote is redone), otherwise at its first segment after removing whatever an
  // interrupted pass or the cleanup after a commit left behind.
  PassProgress resume_point(Run& run, int depth) {
    WorkDir& dir = run.dir;
    const ExternalLayout& l = run.layout;
    if (const auto text = dir.read_text(kPassFile)) {
      PassProgress p;
      bool usable = false;
      try {
        p = PassProgress::from_json(nlohmann::json::parse(*text));
        usable = p.depth == depth;
      } catch (const nlohmann::json::exception&) {
        throw InputError("'" + dir.file(kPassFile) + "' is damaged (not a checkpoint of this program)");
      }
      if (usable) {
        if (p.lengths.size() != l.segments || p.entries.size() != l.segments || p.ahead.size() != l.segments ||
            p.next_segment > l.segments)
          throw InputError("'" + dir.file(kPassFile) + "' does not match the folder's layout (a damaged work folder)");
        for (std::uint64_t u = 0; u < l.segments; ++u) {
          const std::string name = next_file(depth + 1, u);
          if (dir.size_of(name) < p.lengths[u])
            throw InputError("'" + dir.file(name) + "' is shorter than its checkpoint says (a damaged work folder)");
          if (p.lengths[u] == 0) dir.remove(name);
          else dir.truncate(name, p.lengths[u]);
        }
        for (std::uint64_t t = 0; t < p.next_segment; ++t) {
          dir.remove(cells_file(depth, t));
          dir.remove(next_file(depth, t));
        }
        dir.sync();
        return p;
      }
      dir.remove(kPassFile);  // a checkpoint of a pass the manifest has since committed
    }
    for (std::uint64_t t = 0; t < l.segments; ++t) {
      dir.remove(cells_file(depth + 1, t));
      dir.remove(next_file(depth + 1, t));
      if (depth > 0) dir.remove(next_file(depth - 1, t));
    }
    PassProgress p;
    p.depth = depth;
    p.count = run.manifest["claimed_ahead"];  // this depth's keys claimed inside their own segment last pass
    p.lengths.assign(l.segments, 0);
    p.entries.assign(l.segments, 0);
    p.ahead.assign(l.segments, 0);
    return p;
  }

  // Bytes the folder is expected to grow by while this depth's pass routes its successor
  // lists, from segment `first_segment` on. The keys claimed and routed to this depth bound
  // its states, but the routed ones count every duplicate and every state already seen
  // (about twice the states on the widest levels), so once two depths are known the new
  // lists are estimated as the last depth's states times its growth ratio plus a quarter,
  // times the successors the last pass routed per state and the bytes each took; the lists
  // this pass applies are deleted as it goes and count against that.
  std::uint64_t expected_routing(Run& run, int depth, std::uint64_t first_segment) const {
    const nlohmann::json& m = run.manifest;
    const ExternalLayout& l = run.layout;
    const std::uint64_t pending = m["pending_entries"];
    const std::uint64_t frontier_bound = m["claimed_ahead"].get<std::uint64_t>() + pending;
    const auto counts = m["depth_counts"].get<std::vector<std::uint64_t>>();
    if (counts.size() < 2 || static_cast<int>(counts.size()) != depth || pending == 0)
      return l.expected_routed_bytes(frontier_bound, puzzle_.move_count());
    if (first_segment >= l.segments) return 0;
    std::uint64_t incoming_bytes = 0, total_incoming_bytes = 0;  // of the segments still to do; of all
    for (std::uint64_t t = 0; t < l.segments; ++t) {
      const std::uint64_t bytes = run.dir.size_of(next_file(depth, t));
      total_incoming_bytes += bytes;
      if (t >= first_segment) incoming_bytes += bytes;
    }
    const double last = static_cast<double>(counts.back()), before = static_cast<double>(counts[counts.size() - 2]);
    const double states = std::min(static_cast<double>(frontier_bound), last * std::max(1.0, last / before) * 1.25);
    const double routed_per_state = static_cast<double>(pending) / last;
    const double bytes_per_successor = static_cast<double>(total_incoming_bytes) / static_cast<double>(pending);
    const double expected = states * routed_per_state * bytes_per_successor + static_cast<double>(l.segments * l.segments * sizeof(OffsetRunHeader));
    // The new lists grow about evenly over the segments as the pass goes, while each
    // segment's applied list is removed once the segment after it is done: the folder
    // grows by the new bytes less the applied ones, plus at most two segments' lists.
    const double remaining = static_cast<double>(l.segments - first_segment) / static_cast<double>(l.segments);
    const double lag = 2.0 * static_cast<double>(incoming_bytes) / static_cast<double>(l.segments - first_segment);
    return static_cast<std::uint64_t>(std::max(0.0, expected * remaining - static_cast<double>(incoming_bytes)) + lag);
  }

  // Delayed duplicate detection: the offsets other segments sent segment `t` for this depth
  // claim the cells still unseen (the others were reached earlier). Runs are read in
  // batches and applied in parallel; returns the cells claimed.
  std::uint64_t apply_incoming(Run& run, int depth, std::uint64_t t, std::uint64_t keys, TwoBitCells& cells, unsigned code) {
    WorkDir& dir = run.dir;
    const std::string name = next_file(depth, t);
    if (!dir.exists(name)) return 0;
    const auto damaged = [&](const std::string& why) { return InputError("'" + dir.file(name) + "' is damaged (" + why + ")"); };
    const std::uint64_t batch_bytes = std::max<std::uint64_t>(run.layout.buffer_entries, ExternalLayout::kMinBufferEntries) *
                                      ExternalLayout::kEncodedBytesPerEntry;
    DataFile f(dir.file(name), DataFile::Mode::read);
    std::vector<unsigned char> batch;
    std::vector<std::pair<OffsetRunHeader, std::size_t>> runs;  // header, payload position in batch
    std::uint64_t claimed_total = 0;
    OffsetRunHeader pending{};
    bool have_pending = false;
    for (bool more = true; more;) {
      batch.clear();
      runs.clear();
      // Whole runs until the batch is full (at least one run).
      for (;;) {
        OffsetRunHeader h{};
        if (have_pending) {
          h = pending;
          have_pending = false;
        } else {
          const std::size_t got = f.read_up_to(&h, sizeof h);
          if (got == 0) {
            more = false;
            break;
          }
          if (got != sizeof h) throw damaged("a partial run header");
          run.bytes_read += got;
        }
        if (h.count == 0 || h.count > ExternalLayout::kMaxBufferEntries ||
            h.payload_bytes > std::uint64_t{h.count} * ExternalLayout::kEncodedBytesPerEntry + 8)
          throw damaged("a run header out of range");
        if (!runs.empty() && batch.size() + h.payload_bytes > batch_bytes) {
          pending = h;
          have_pending = true;
          break;
        }
        const std::size_t at = batch.size();
        batch.resize(at + h.payload_bytes);
        f.read_exactly(batch.data() + at, h.payload_bytes);
        run.bytes_read += h.payload_bytes;
        runs.emplace_back(h, at);
      }
      if (runs.empty()) break;
      // Window by window of kApplyWindow keys, every run's offsets inside it: each run is
      // sorted over the whole segment, so applying runs one after another would sweep
      // all the segment's cells once per run.
      std::vector<OffsetRuns::Cursor> cursors;
      for (const auto& [h, at] : runs) cursors.emplace_back(h, batch.data() + at);
      std::atomic<std::uint64_t> claimed{0};
      std::atomic<bool> bad{false};
      for (std::uint64_t window = 0; window < keys; window += kApplyWindow) {
        const std::uint64_t end = std::min<std::uint64_t>(keys, window + kApplyWindow);
        parallel_chunks(cursors.size(), 1, [&](std::uint64_t begin, std::uint64_t stop) {
          for (std::uint64_t r = begin; r != stop; ++r) {
            std::uint64_t mine = 0;
            if (!cursors[r].take_below(end, keys, [&](std::uint32_t offset) { mine += cells.claim(offset, code); }))
              bad.store(true, std::memory_order_relaxed);
            claimed.fetch_add(mine, std::memory_order_relaxed);
          }
        });
      }
      for (const auto& c : cursors) bad = bad || !c.done();
      if (bad) throw damaged("a run that does not decode to offsets inside its segment");
      claimed_total += claimed;
    }
    return claimed_total;
  }

  // One depth: apply the successors sent to each segment, expand its cells at this depth,
  // save it as the next generation with a checkpoint; then commit the manifest.
  void pass(Run& run, const Timer& timer) {
    WorkDir& dir = run.dir;
    nlohmann::json& m = run.manifest;
    const int depth = m["depth"];
    const ExternalLayout& l = run.layout;
    const Key bound = enc_.key_bound();
    const bool expand = options_.max_depth < 0 || depth < options_.max_depth;

    PassProgress progress = resume_point(run, depth);
    if (progress.next_segment == 0 && depth > 0 && m["claimed_ahead"] == 0 && m["pending_entries"] == 0) {  // nothing at this depth
      finish(run);
      return;
    }
    const std::uint64_t need = 2 * ExternalLayout::segment_bytes(l.segment_keys) + (expand ? expected_routing(run, depth, progress.next_segment) : 0);
    if (const std::uint64_t free = dir.free_bytes(); free < need)
      throw InputError("depth " + std::to_string(depth) + " of " + puzzle_.name() + " may need " + std::to_string(need >> 20) +
                       " MiB more in '" + dir.path() + "', only " + std::to_string(free >> 20) +
                       " MiB free; free some space and rerun with --resume");

    TwoBitCells cells(l.segment_keys);
    Router router(dir, depth + 1, l, progress);
    tbb::enumerable_thread_specific<Scratch> scratch;
    const unsigned current = TwoBitCells::current_code(depth), next = TwoBitCells::next_code(depth);

    // Segment t's checkpoint is taken after segment t+1 has been worked on, so that the
    // kernel writes t's cells back while t+1 computes, and the fsync finds little to do.
    std::optional<std::pair<std::uint64_t, PassProgress>> unsaved;
    const auto checkpoint = [&] {
      if (!unsaved) return;
      const auto& [t, snapshot] = *unsaved;
      if (dir.exists(cells_file(depth + 1, t))) {
        DataFile f(dir.file(cells_file(depth + 1, t)), DataFile::Mode::read);
        dir.sync(f);
      }
      router.sync();  // the successor files up to (at least) the lengths the snapshot records
      dir.sync();
      progress.peak_disk_bytes = std::max(progress.peak_disk_bytes, dir.total_bytes());
      PassProgress saved = snapshot;
      saved.peak_disk_bytes = progress.peak_disk_bytes;
      dir.write_text_atomically(kPassFile, saved.to_json().dump() + "\n");
      dir.remove(cells_file(depth, t));
      dir.remove(next_file(depth, t));
      unsaved.reset();
    };
    const auto& ahead_before = m["claimed_ahead_by_segment"];
    for (std::uint64_t t = progress.next_segment; t < l.segments; ++t) {
      const std::uint64_t read_before = run.bytes_read, written_before = run.bytes_written + router.bytes;
      const Key base = t * l.segment_keys;
      const std::uint64_t keys = std::min<Key>(l.segment_keys, bound - base);
      const std::uint64_t bytes = ExternalLayout::segment_bytes(keys), words = bytes / 8;
      if (t + 1 < l.segments) {  // the next segment's files come in from disk while this one works
        dir.prefetch(cells_file(depth, t + 1));
        dir.prefetch(next_file(depth, t + 1));
      }
      dir.remove(cells_file(depth + 1, t));  // a redo's leftover (possibly a link to the old cells)
      if (!dir.exists(next_file(depth, t)) && ahead_before.at(t) == 0) {
        // Nothing reached this segment at this depth: its cells stay as they are (a file
        // that does not exist holds only unseen cells).
        if (dir.exists(cells_file(depth, t))) dir.link(cells_file(depth, t), cells_file(depth + 1, t));
      } else {
        if (dir.exists(cells_file(depth, t))) {
          DataFile f(dir.file(cells_file(depth, t)), DataFile::Mode::read);
          f.read_exactly(cells.raw_bytes(), bytes);
          run.bytes_read += bytes;
        } else {
          std::fill(cells.raw_bytes(), cells.raw_bytes() + bytes, 0);
        }
        if (keys % TwoBitCells::kCellsPerWord != 0)  // cells past the last key: done, so no scan sees them
          cells.mark(words - 1, ~std::uint64_t{0} << (keys % TwoBitCells::kCellsPerWord * 2) & TwoBitCells::kLow, TwoBitCells::kDone);

        progress.count += apply_incoming(run, depth, t, keys, cells, current);
        if (progress.samples.size() < kSamplesPerDepth) {
          if (const auto key = sample_cell(cells, words, current, depth, t))
            progress.samples.push_back(puzzle_.format(enc_.decode(base + *key)));
        }
        if (expand) {
          const std::uint64_t grain = std::max<std::uint64_t>(64, words / (64 * static_cast<std::uint64_t>(options_.threads)));
          parallel_chunks(words, grain, [&](std::uint64_t begin, std::uint64_t end) {
            expand_words(cells, base, keys, begin, end, current, next, router, scratch.local());
          });
        }
        // Every successor of this segment goes to disk before its checkpoint: the buffers
        // the threads hold are sorted, encoded and appended in parallel, each with the
        // sort scratch of the thread that takes it (on the widest levels this is about half
        // of all the routing work, so one thread doing it alone would idle the others).
        std::vector<std::pair<Scratch*, std::uint64_t>> unflushed;  // owner, target
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
        for (auto& s : scratch) {
          progress.ahead[t] += std::exchange(s.claimed, 0);
          progress.expanded += std::exchange(s.expanded, 0);
          progress.generated += std::exchange(s.generated, 0);
        }
        DataFile out(dir.file(cells_file(depth + 1, t)), DataFile::Mode::create);
        out.write_all(cells.raw_bytes(), bytes);
        out.start_writeback();
        out.close();
        run.bytes_written += bytes;
      }
      progress.next_segment = t + 1;
      progress.bytes_read += run.bytes_read - read_before;
      progress.bytes_written += run.bytes_written + router.bytes - written_before;
      checkpoint();  // segment t-1's
      unsaved.emplace(t, progress);
    }
    checkpoint();
    run.bytes_written += router.bytes;
    run.peak_disk_bytes = std::max(run.peak_disk_bytes, progress.peak_disk_bytes);

    // The commit point: until the manifest is replaced, a resumed run goes on from pass.json.
    const std::uint64_t count = progress.count;
    std::uint64_t pending = 0;
    for (const std::uint64_t e : progress.entries) pending += e;
    if (count > 0) m["depth_counts"].push_back(count);
    if (!progress.samples.empty()) m["samples"][std::to_string(depth)] = progress.samples;
    m["depth"] = depth + 1;
    m["claimed_ahead"] = std::accumulate(progress.ahead.begin(), progress.ahead.end(), std::uint64_t{0});
    m["claimed_ahead_by_segment"] = progress.ahead;
    m["pending_entries"] = pending;
    m["expanded"] = m["expanded"].get<std::uint64_t>() + progress.expanded;
    m["generated"] = m["generated"].get<std::uint64_t>() + progress.generated;
    m["bytes_written"] = m["bytes_written"].get<std::uint64_t>() + progress.bytes_written;
    m["bytes_read"] = m["bytes_read"].get<std::uint64_t>() + progress.bytes_read;
    m["peak_disk_bytes"] = std::max(m.value("peak_disk_bytes", std::uint64_t{0}), progress.peak_disk_bytes);
    const bool done = count == 0 || !expand;
    if (done) m["finished"] = true;
    dir.write_text_atomically(kManifest, m.dump(1) + "\n");
    dir.remove(kPassFile);
    if (done) {
      for (std::uint64_t t = 0; t < l.segments; ++t) {
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

  static constexpr std::uint64_t kApplyWindow = std::uint64_t{1} << 24;  // 4 MiB of cells: stays in the cache

  // A few states of each depth go into the manifest, one per segment from the first
  // segments that hold any: a run too large to keep can still be spot-checked afterwards
  // (a point query must find each at its depth).
  static constexpr std::size_t kSamplesPerDepth = 3;
  // The first cell holding `code` from a word picked by the depth and segment, wrapping.
  static std::optional<Key> sample_cell(const TwoBitCells& cells, std::uint64_t words, unsigned code, int depth, std::uint64_t segment) {
    const std::uint64_t start = (static_cast<std::uint64_t>(depth) * 0x9E3779B97F4A7C15ULL ^ segment * 0xC2B2AE3D27D4EB4FULL) % words;
    for (std::uint64_t i = 0; i < words; ++i) {
      const std::uint64_t w = (start + i) % words;
      if (const std::uint64_t hits = TwoBitCells::cells_with(cells.word(w), code)) return TwoBitCells::key_of(w, hits);
    }
    return std::nullopt;
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
