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
// * Integrity (engines/external/work_state.hpp): both records are typed, versioned and
//   checksummed, and list every data file with its length and checksum, checked as the
//   file is read; a resumed folder holding a file missing, short, altered, unlisted or a
//   link is refused before any of its bytes can change a count. One run holds the folder
//   at a time (core/work_dir.hpp's lock).
// * --max-depth: the pass of the limit's depth only counts and writes nothing, so the
//   folder can be resumed deeper later.
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
#include <functional>
#include <memory>
#include <mutex>
#include <numeric>
#include <optional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <tbb/enumerable_thread_specific.h>
#include <tbb/task_arena.h>

#include "core/concepts.hpp"
#include "core/errors.hpp"
#include "core/interrupt.hpp"
#include "core/memory_budget.hpp"
#include "core/offset_runs.hpp"
#include "core/parallel_chunks.hpp"
#include "core/progress_reporter.hpp"
#include "core/result.hpp"
#include "core/search_options.hpp"
#include "core/thread_arena.hpp"
#include "core/timer.hpp"
#include "core/two_bit_cells.hpp"
#include "core/work_dir.hpp"
#include "engines/external/layout.hpp"
#include "engines/external/options.hpp"
#include "engines/external/sorted_levels.hpp"
#include "engines/external/work_state.hpp"

namespace searchbench {

template <Puzzle P, Encoder<P> E>
class ExternalBfs {
 public:
  using State = typename P::State;
  static constexpr std::string_view kName = "external";
  static constexpr std::string_view kSummary = "out-of-core two-bit BFS: segments on disk (--workdir), checkpoints, --resume";
  static constexpr bool kThreaded = true;
  static constexpr bool kCountsOnly = true;
  static constexpr bool kPerfectEncoderOnly = true;

  using Options = ExternalOptions;

  ExternalBfs(const P& puzzle, const E& enc, SearchOptions options, ExternalOptions settings = {})
      : puzzle_(puzzle), enc_(enc), options_(std::move(options)), settings_(std::move(settings)) {
    static_assert(every_key_is_state<E>(), "engine 'external' scans keys it never generated: it needs a perfect encoder");
  }

  // Memory of the run: one segment and the routing buffers (within --max-memory).
  std::uint64_t estimate_explore_bytes(const State&) const { return layout(settings_.segment_keys).memory_bytes; }

  SearchResult search(const State&, const State&) {
    throw InputError("engine 'external' counts whole spaces only; use bidir for point queries");
  }

  // Passes until the search runs out or reaches --max-depth. The pass of the limit's depth
  // only counts (it writes nothing), so the folder stays ready to go deeper: a later
  // --resume with a larger limit, or none, continues from it, and one with a smaller limit
  // answers from the depths already counted.
  SearchResult explore(const State& start) {
    Timer timer;
    ProgressReporter reporter(options_, timer);
    const InterruptScope interrupts;  // SIGINT, SIGTERM, SIGHUP: stop at a safe point, temporary files removed
    WorkDir dir(settings_.workdir, !settings_.resume);
    Run run(dir);
    run.reporter = &reporter;
    run.start_key = enc_.encode(start);
    run.start_text = puzzle_.format(start);
    begin(run);
    const int limit = options_.max_depth;
    std::optional<std::uint64_t> count_at_limit;
    tbb::task_arena arena(runnable_threads(options_.threads));
    arena.execute([&] {
      while (!run.manifest.finished) {
        if (limit >= 0 && run.manifest.depth >= limit) {
          if (run.manifest.depth == limit) {
            count_at_limit = pass(run, false);
            if (*count_at_limit > 0) depth_finished(run, limit, *count_at_limit);
          }
          break;
        }
        pass(run, true);
      }
    });
    const Manifest& m = run.manifest;
    SearchResult result;
    result.depth_counts = m.depth_counts;
    if (count_at_limit && *count_at_limit > 0) result.depth_counts.push_back(*count_at_limit);
    if (limit >= 0 && result.depth_counts.size() > static_cast<std::size_t>(limit) + 1) result.depth_counts.resize(static_cast<std::size_t>(limit) + 1);
    for (std::size_t d = 0; d < result.depth_counts.size(); ++d) {
      const auto at = run.finished_at.find(static_cast<int>(d));
      result.depth_seconds.push_back(at == run.finished_at.end() ? std::nullopt : std::optional<double>(at->second));
    }
    result.expanded = m.expanded;
    result.generated = m.generated;
    result.peak_bytes = run.layout.memory_bytes;
    result.seconds = timer.seconds();
    OutOfCoreStats stats;
    stats.workdir = dir.path();
    stats.segments = run.layout.segments;
    stats.segment_keys = run.layout.segment_keys;
    stats.bytes_written = run.bytes_written;
    stats.bytes_read = run.bytes_read;
    stats.peak_disk_bytes = std::max(run.peak_disk_bytes, m.peak_disk_bytes);
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
    Manifest manifest;
    int resumed_from = -1;
    std::uint64_t bytes_written = 0, bytes_read = 0, peak_disk_bytes = 0;
    ProgressReporter* reporter = nullptr;
    std::map<int, double> finished_at;  // the depths this run finished: seconds since it started
  };

  // Depth `depth` (of `count` states; counted and expanded, or the count of --max-depth's
  // depth) is finished: its time and its progress line. `reached` and `expanded` come from
  // the manifest, the depth at the limit added when the manifest does not hold it yet.
  void depth_finished(Run& run, int depth, std::uint64_t count) const {
    const double now = run.reporter->seconds();
    run.finished_at[depth] = now;
    if (depth == 0) return;
    const Manifest& m = run.manifest;
    std::uint64_t reached = 0;
    for (std::size_t d = 0; d < m.depth_counts.size() && d <= static_cast<std::size_t>(depth); ++d) reached += m.depth_counts[d];
    if (m.depth_counts.size() <= static_cast<std::size_t>(depth)) reached += count;
    run.reporter->depth_done(depth, count, reached, m.expanded, now);
  }

  static std::string cells_file(int depth, std::uint64_t segment) {
    return "cells-" + std::to_string(depth & 1) + "-" + std::to_string(segment);
  }
  static std::string next_file(int depth, std::uint64_t segment) {
    return "next-" + std::to_string(depth) + "-" + std::to_string(segment);
  }

  ExternalLayout layout(std::uint64_t segment_keys) const {
    return ExternalLayout::choose(enc_.key_bound(), options_.memory.working_set(ExternalLayout::kDefaultMemory), options_.threads, segment_keys, puzzle_.name());
  }
  std::string identity(const std::string& start_text) const {
    return puzzle_.name() + " (encoder " + std::string(E::kName) + ", start " + start_text + ")";
  }
  void save_manifest(Run& run) const { run.dir.write_text_atomically(Manifest::kFile, run.manifest.text()); }

  // A fresh run writes its first manifest (depth 0: the start key waits in the successor
  // file of its segment); --resume reads the folder's, checks it belongs to this run and
  // that every file it lists is there.
  void begin(Run& run) {
    WorkDir& dir = run.dir;
    const Key bound = enc_.key_bound();
    const std::vector<std::string> names = dir.entries();  // refuses links and anything not a regular file
    const auto text = dir.read_text(Manifest::kFile);
    if (settings_.resume) {
      if (!text) throw InputError("nothing to resume in '" + dir.path() + "' (no " + Manifest::kFile + ")");
      run.manifest = Manifest::parse(*text, ExternalLayout::kMaxSegments, ExternalLayout::kMaxSegmentKeys);
      Manifest& m = run.manifest;
      if (m.puzzle != puzzle_.name() || m.encoder != E::kName || m.start != run.start_text || m.key_bound != bound)
        throw InputError("work folder '" + dir.path() + "' holds a run of " + m.identity + ", not of " + identity(run.start_text));
      run.layout = layout(m.segment_keys);
      run.resumed_from = static_cast<int>(m.depth_counts.size());  // the first depth not yet counted
      check_files(run, names);
      if (m.last_max_depth != options_.max_depth && !m.finished) {
        m.last_max_depth = options_.max_depth;
        save_manifest(run);
      }
      return;
    }
    if (text) {
      throw InputError("work folder '" + dir.path() + "' already holds a run (" + Manifest::kFile +
                       "); add --resume to continue it or choose an empty folder");
    }
    // Files of a fresh start killed before its first manifest are this program's to remove;
    // anything else belongs to someone else.
    for (const std::string& name : names) {
      if (name == WorkDir::kLockFile) continue;
      if (!own_leftover(name))
        throw InputError("work folder '" + dir.path() + "' holds '" + name + "', not a file of this program; choose an empty folder");
    }
    for (const std::string& name : names)
      if (name != WorkDir::kLockFile) dir.remove(name);
    const std::uint64_t wanted = settings_.segment_keys;
    if (wanted != 0 && (!std::has_single_bit(wanted) || wanted < ExternalLayout::kMinSegmentKeys || wanted > ExternalLayout::kMaxSegmentKeys))
      throw InputError("segment size must be a power of two between 2^11 and 2^32 keys (got " + std::to_string(wanted) + ")");
    run.layout = layout(wanted);
    const std::uint64_t cells = run.layout.generation_bytes(bound) + 2 * ExternalLayout::segment_bytes(run.layout.segment_keys);
    const std::uint64_t free = dir.free_bytes();
    if (free < cells) {
      const auto [need_text, free_text] = human_bytes_apart(cells, free);
      throw InputError("an out-of-core run of " + puzzle_.name() + " needs at least " + need_text + " in '" + dir.path() +
                       "' (a generation of two-bit cells and two more segments, plus successor lists), only " + free_text + " free");
    }
    Manifest& m = run.manifest;
    m.identity = identity(run.start_text);
    m.puzzle = puzzle_.name();
    m.encoder = E::kName;
    m.start = run.start_text;
    m.key_bound = bound;
    m.segment_keys = run.layout.segment_keys;
    m.segments = run.layout.segments;
    m.claimed_ahead.assign(m.segments, 0);
    m.cells.assign(m.segments, FileRecord{});
    m.incoming.assign(m.segments, FileRecord{});
    m.pending_entries = 1;
    m.last_max_depth = options_.max_depth;
    const std::uint64_t seed_keys = settings_.seed_keys.value_or(run.layout.memory_bytes / sizeof(Key));
    if (seed_keys > 0) {
      seed(run, seed_keys);
    } else {  // the start key waits in the successor file of its segment
      const std::uint64_t segment = run.start_key / run.layout.segment_keys;
      const std::uint32_t offset = static_cast<std::uint32_t>(run.start_key - segment * run.layout.segment_keys);
      std::vector<unsigned char> encoded;
      OffsetRuns::encode(&offset, 1, encoded);
      DataFile f(dir.file(next_file(0, segment)), DataFile::Mode::create);
      f.write_all(encoded.data(), encoded.size());
      dir.sync(f);
      f.close();
      m.incoming[segment].append(encoded.data(), encoded.size());
    }
    save_manifest(run);  // the commit point
  }

  // Names this program writes in a work folder (a run killed at any point may leave them).
  static bool own_leftover(const std::string& name) {
    unsigned long long a = 0, b = 0;
    int used = 0;
    const auto is = [&](const char* pattern) {
      used = 0;
      return std::sscanf(name.c_str(), pattern, &a, &b, &used) == 2 && static_cast<std::size_t>(used) == name.size();
    };
    return name == Manifest::kFile || name == PassRecord::kFile || name == std::string(Manifest::kFile) + ".tmp" ||
           name == std::string(PassRecord::kFile) + ".tmp" || is("cells-%llu-%llu%n") || is("next-%llu-%llu%n");
  }

  // Every file of a resumed folder against the records: the cells and successor lists the
  // manifest and the pass checkpoint list must be there at their recorded lengths (their
  // bytes are checked against the checksums as they are read); besides them, only what a
  // run killed at some point can leave (removed before it is used) is allowed.
  void check_files(Run& run, const std::vector<std::string>& names) const {
    const Manifest& m = run.manifest;
    if (m.segments != run.layout.segments) throw damaged_folder(Manifest::kFile, "the layout does not match the key space");
    if (m.finished) return;  // the answer is the manifest's; leftover cells are removed on the way out
    const int depth = m.depth;
    std::optional<PassRecord> within;  // the checkpoint of the pass under way
    if (const auto text = run.dir.read_text(PassRecord::kFile)) {
      PassRecord p = PassRecord::parse(*text, m);
      if (p.depth > depth) throw damaged_folder(PassRecord::kFile, "a checkpoint of depth " + std::to_string(p.depth) +
                                                                     " after the manifest's depth " + std::to_string(depth));
      if (p.depth == depth) within = std::move(p);
    }
    const std::uint64_t done = within ? within->next_segment : 0;
    std::map<std::string, std::pair<FileRecord, bool>> expected;  // name: record, whether longer is allowed
    for (std::uint64_t t = 0; t < m.segments; ++t) {
      if (t >= done) {
        if (m.cells[t].length) expected[cells_file(depth, t)] = {m.cells[t], false};
        if (m.incoming[t].length) expected[next_file(depth, t)] = {m.incoming[t], false};
      } else if (within->cells[t].length) {
        expected[cells_file(depth + 1, t)] = {within->cells[t], false};
      }
      if (within && within->next[t].length) expected[next_file(depth + 1, t)] = {within->next[t], true};
    }
    for (const auto& [name, record] : expected) {
      if (!run.dir.exists(name)) throw damaged_folder(name, "missing (the records list it)");
      const std::uint64_t size = run.dir.size_of(name);
      const auto& [r, longer_ok] = record;
      if (size < r.length || (size > r.length && !longer_ok))
        throw damaged_folder(name, std::to_string(size) + " bytes, the records say " + std::to_string(r.length));
    }
    for (const std::string& name : names) {
      if (name == WorkDir::kLockFile || expected.count(name)) continue;
      unsigned long long a = 0, b = 0;
      bool leftover = name == Manifest::kFile || name == PassRecord::kFile || name == std::string(Manifest::kFile) + ".tmp" ||
                      name == std::string(PassRecord::kFile) + ".tmp";
      if (std::sscanf(name.c_str(), "cells-%llu-%llu", &a, &b) == 2 && own_leftover(name) && b < m.segments) {
        // The old generation of a segment already done, or a segment's new cells not yet
        // checkpointed: both redone or removed. Cells the records say do not exist are not.
        leftover = (a == static_cast<unsigned long long>(depth & 1)) ? b < done : b >= done;
      } else if (std::sscanf(name.c_str(), "next-%llu-%llu", &a, &b) == 2 && own_leftover(name) && b < m.segments) {
        // Lists of the committed pass before, of segments already applied, or appended to
        // after the last checkpoint.
        const auto d = static_cast<long long>(a);
        leftover = d == depth - 1 || (d == depth && b < done) || d == depth + 1;
      }
      if (!leftover) throw damaged_folder(name, "not a file the records list");
    }
  }

  // A fresh run's first depths in memory (engines/external/sorted_levels.hpp) while they fit
  // `budget_keys`, then one generation of cells written at once: the states of the earlier
  // depths done, those of the last level at its depth's current code, claimed ahead as a
  // pass would have left them; the passes go on from that depth. Killed before the manifest
  // is written, the folder holds no run, and a fresh start removes these cells.
  void seed(Run& run, std::uint64_t budget_keys) {
    WorkDir& dir = run.dir;
    const ExternalLayout& l = run.layout;
    const Key bound = enc_.key_bound();
    SortedLevels s;
    tbb::task_arena arena(runnable_threads(options_.threads));
    // A depth is finished once its successors are merged, as a pass finishes its depth.
    const auto expanded = [&](int depth, const SortedLevels& levels) {
      const double now = run.reporter->seconds();
      run.finished_at[depth] = now;
      if (depth == 0) return;
      const std::uint64_t reached = std::accumulate(levels.counts.begin(), levels.counts.begin() + depth + 1, std::uint64_t{0});
      run.reporter->depth_done(depth, levels.counts[depth], reached, reached, now);
    };
    arena.execute([&] {
      s = sorted_levels(puzzle_, enc_, run.start_key, budget_keys, options_.max_depth, l.segment_keys, kSamplesPerDepth, expanded);
    });
    Manifest& m = run.manifest;
    const int last_depth = static_cast<int>(s.counts.size()) - 1;
    // Every depth found is done, except the last when the search stopped short: the pass
    // of that depth expands (and samples) its cells.
    const int done_depths = s.complete ? last_depth + 1 : last_depth;
    for (int d = 0; d < done_depths; ++d) {
      std::vector<std::string> texts;
      for (const Key k : s.samples[d]) texts.push_back(puzzle_.format(enc_.decode(k)));
      m.samples[d] = texts;
    }
    m.expanded = s.expanded;
    m.generated = s.generated;
    m.seeded_depths = done_depths;
    m.pending_entries = 0;
    if (s.complete) {  // the whole search fitted
      m.depth_counts = s.counts;
      m.depth = static_cast<int>(s.counts.size());
      m.finished = true;
      return;
    }
    m.depth_counts.assign(s.counts.begin(), s.counts.end() - 1);
    m.depth = last_depth;
    for (const Key k : s.last) ++m.claimed_ahead[k / l.segment_keys];
    TwoBitCells cells(l.segment_keys);
    const unsigned current = TwoBitCells::current_code(last_depth);
    auto visited = s.visited.begin(), last = s.last.begin();
    for (std::uint64_t t = 0; t < l.segments; ++t) {
      throw_if_interrupted();
      const Key base = t * l.segment_keys, end = std::min<Key>(base + l.segment_keys, bound);
      if (visited == s.visited.end() || *visited >= end) continue;  // no state here yet: no file
      const std::uint64_t bytes = ExternalLayout::segment_bytes(end - base);
      std::fill(cells.raw_bytes(), cells.raw_bytes() + bytes, 0);
      for (; visited != s.visited.end() && *visited < end; ++visited) {
        const bool in_last = last != s.last.end() && *last == *visited;
        cells.mark_key(*visited - base, in_last ? current : TwoBitCells::kDone);
        if (in_last) ++last;
      }
      write_cells(dir, cells_file(last_depth, t), cells, bytes, m.cells[t]);
      run.bytes_written += bytes;
    }
    for (std::uint64_t t = 0; t < l.segments; ++t) {
      if (!m.cells[t].length) continue;
      DataFile f(dir.file(cells_file(last_depth, t)), DataFile::Mode::read);
      dir.sync(f);
    }
    dir.sync();
    m.bytes_written = run.bytes_written;
  }

  // A segment's cells to a new file, with their record (one chunk).
  static void write_cells(WorkDir& dir, const std::string& name, TwoBitCells& cells, std::uint64_t bytes, FileRecord& record) {
    DataFile out(dir.file(name), DataFile::Mode::create);
    out.write_all(cells.raw_bytes(), bytes);
    out.start_writeback();
    out.close();
    record = FileRecord{};
    record.append(cells.raw_bytes(), bytes);
  }
  // A segment's cells back from its file, checked against their record.
  static void read_cells(WorkDir& dir, const std::string& name, TwoBitCells& cells, std::uint64_t bytes, const FileRecord& record) {
    DataFile f(dir.file(name), DataFile::Mode::read);
    if (record.length != bytes || f.size() != bytes)
      throw damaged_folder(name, std::to_string(f.size()) + " bytes, the records say " + std::to_string(record.length));
    f.read_exactly(cells.raw_bytes(), bytes);
    if (FileRecord::chunk_hash(cells.raw_bytes(), bytes, 0) != record.checksum) throw damaged_folder(name, "checksum mismatch");
  }

  struct Scratch {
    std::vector<std::vector<std::uint32_t>> routed;  // per target segment
    std::vector<std::uint32_t> sort_buffer;
    std::vector<std::uint32_t> radix_counts;
    std::vector<unsigned char> encoded;
    std::vector<Key> keys, inside;
    std::uint64_t claimed = 0, expanded = 0, generated = 0;
  };

  // Successors routed to other segments: per-thread buffers, sorted, deduplicated and
  // encoded as one run, then appended to the target's file (one lock per target file),
  // whose record in the pass checkpoint grows with it.
  struct Router {
    WorkDir& dir;
    int depth;  // the depth the routed keys are at
    std::uint64_t segment_keys, entries_per_buffer;
    std::vector<std::mutex> locks;
    std::vector<FileRecord>& files;       // per target, guarded by its lock
    std::vector<std::uint64_t>& entries;  // per target, guarded by its lock
    std::vector<char> unsynced;           // per target: appended since the last checkpoint
    std::atomic<std::uint64_t> bytes{0};
    Router(WorkDir& d, int depth_, const ExternalLayout& l, PassRecord& progress)
        : dir(d),
          depth(depth_),
          segment_keys(l.segment_keys),
          entries_per_buffer(l.buffer_entries),
          locks(l.segments),
          files(progress.next),
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
  PassRecord resume_point(Run& run, int depth) {
    WorkDir& dir = run.dir;
    const Manifest& m = run.manifest;
    const ExternalLayout& l = run.layout;
    if (const auto text = dir.read_text(PassRecord::kFile)) {
      PassRecord p = PassRecord::parse(*text, m);
      if (p.depth == depth) {
        for (std::uint64_t u = 0; u < l.segments; ++u) {
          const std::string name = next_file(depth + 1, u);
          if (dir.size_of(name) < p.next[u].length) throw damaged_folder(name, "shorter than its checkpoint says");
          if (p.next[u].length == 0) dir.remove(name);
          else dir.truncate(name, p.next[u].length);
        }
        for (std::uint64_t t = 0; t < p.next_segment; ++t) {
          dir.remove(cells_file(depth, t));
          dir.remove(next_file(depth, t));
        }
        dir.sync();
        return p;
      }
      dir.remove(PassRecord::kFile);  // a checkpoint of a pass the manifest has since committed
    }
    for (std::uint64_t t = 0; t < l.segments; ++t) {
      dir.remove(cells_file(depth + 1, t));
      dir.remove(next_file(depth + 1, t));
      if (depth > 0) dir.remove(next_file(depth - 1, t));
    }
    PassRecord p;
    p.depth = depth;
    p.count = m.claimed_ahead_total();  // this depth's keys claimed inside their own segment last pass
    p.next.assign(l.segments, FileRecord{});
    p.entries.assign(l.segments, 0);
    p.cells.assign(l.segments, FileRecord{});
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
  std::uint64_t expected_routing(const Run& run, int depth, std::uint64_t first_segment) const {
    const Manifest& m = run.manifest;
    const ExternalLayout& l = run.layout;
    const std::uint64_t pending = m.pending_entries;
    const std::uint64_t frontier_bound = m.claimed_ahead_total() + pending;
    const auto& counts = m.depth_counts;
    if (counts.size() < 2 || static_cast<int>(counts.size()) != depth || pending == 0)
      return l.expected_routed_bytes(frontier_bound, puzzle_.move_count());
    if (first_segment >= l.segments) return 0;
    std::uint64_t incoming_bytes = 0, total_incoming_bytes = 0;  // of the segments still to do; of all
    for (std::uint64_t t = 0; t < l.segments; ++t) {
      total_incoming_bytes += m.incoming[t].length;
      if (t >= first_segment) incoming_bytes += m.incoming[t].length;
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
  // batches and applied in parallel, each run's bytes summed into the file's checksum as it
  // is read; the sum must match the record before the segment's new cells can be saved.
  // Returns the cells claimed. `between_batches` is called before each batch (heartbeats).
  std::uint64_t apply_incoming(Run& run, int depth, std::uint64_t t, std::uint64_t keys, TwoBitCells& cells, unsigned code,
                               const std::function<void()>& between_batches) {
    WorkDir& dir = run.dir;
    const FileRecord& record = run.manifest.incoming[t];
    if (record.length == 0) return 0;
    const std::string name = next_file(depth, t);
    DataFile f(dir.file(name), DataFile::Mode::read);
    if (f.size() != record.length)
      throw damaged_folder(name, std::to_string(f.size()) + " bytes, the records say " + std::to_string(record.length));
    const std::uint64_t batch_bytes = std::max<std::uint64_t>(run.layout.buffer_entries, ExternalLayout::kMinBufferEntries) *
                                      ExternalLayout::kEncodedBytesPerEntry;
    std::vector<unsigned char> batch;
    std::vector<std::pair<OffsetRunHeader, std::size_t>> runs;  // header, payload position in batch
    std::uint64_t claimed_total = 0, offset = 0, checksum = 0;   // bytes of the file read so far; their checksum
    OffsetRunHeader pending{};
    bool have_pending = false;
    for (bool more = true; more;) {
      throw_if_interrupted();
      between_batches();
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
          if (got != sizeof h) throw damaged_folder(name, "a partial run header");
          run.bytes_read += got;
        }
        if (h.count == 0 || h.count > ExternalLayout::kMaxBufferEntries ||
            h.payload_bytes > std::uint64_t{h.count} * ExternalLayout::kEncodedBytesPerEntry + 8)
          throw damaged_folder(name, "a run header out of range");
        if (!runs.empty() && batch.size() + h.payload_bytes > batch_bytes) {
          pending = h;
          have_pending = true;
          break;
        }
        const std::size_t at = batch.size();
        batch.resize(at + h.payload_bytes);
        f.read_exactly(batch.data() + at, h.payload_bytes);
        run.bytes_read += h.payload_bytes;
        ChunkReader chunk(offset);
        chunk.update(&h, sizeof h);
        chunk.update(batch.data() + at, h.payload_bytes);
        checksum += chunk.hash();
        offset += sizeof h + h.payload_bytes;
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
            if (!cursors[r].take_below(end, keys, [&](std::uint32_t key) { mine += cells.claim(key, code); }))
              bad.store(true, std::memory_order_relaxed);
            claimed.fetch_add(mine, std::memory_order_relaxed);
          }
        });
      }
      for (const auto& c : cursors) bad = bad || !c.done();
      if (bad) throw damaged_folder(name, "a run that does not decode to offsets inside its segment");
      claimed_total += claimed;
    }
    if (offset != record.length || checksum != record.checksum) throw damaged_folder(name, "checksum mismatch");
    return claimed_total;
  }

  // One depth: apply the successors sent to each segment and, when `expand`, expand its
  // cells at this depth and save them as the next generation with a checkpoint, then commit
  // the manifest. Without `expand` (the depth of --max-depth) the pass only counts: it
  // writes nothing, so the folder can still go deeper. Returns the states at this depth.
  std::uint64_t pass(Run& run, bool expand) {
    WorkDir& dir = run.dir;
    Manifest& m = run.manifest;
    const int depth = m.depth;
    const ExternalLayout& l = run.layout;
    const Key bound = enc_.key_bound();

    PassRecord progress = resume_point(run, depth);
    if (progress.next_segment == 0 && depth > 0 && m.claimed_ahead_total() == 0 && m.pending_entries == 0) {  // nothing at this depth
      finish(run);
      return 0;
    }
    if (expand) {
      const std::uint64_t need = 2 * ExternalLayout::segment_bytes(l.segment_keys) + expected_routing(run, depth, progress.next_segment);
      if (const std::uint64_t free = dir.free_bytes(); free < need) {
        const auto [need_text, free_text] = human_bytes_apart(need, free);
        throw InputError("depth " + std::to_string(depth) + " of " + puzzle_.name() + " may need " + need_text + " more in '" +
                         dir.path() + "', only " + free_text + " free; free some space and rerun with --resume");
      }
    }

    TwoBitCells cells(l.segment_keys);
    Router router(dir, depth + 1, l, progress);
    tbb::enumerable_thread_specific<Scratch> scratch;
    const unsigned current = TwoBitCells::current_code(depth), next = TwoBitCells::next_code(depth);

    // Segment t's checkpoint is taken after segment t+1 has been worked on, so that the
    // kernel writes t's cells back while t+1 computes, and the fsync finds little to do.
    std::optional<std::pair<std::uint64_t, PassRecord>> unsaved;
    const auto checkpoint = [&] {
      if (!unsaved) return;
      const auto& [t, snapshot] = *unsaved;
      if (snapshot.cells[t].length) {
        DataFile f(dir.file(cells_file(depth + 1, t)), DataFile::Mode::read);
        dir.sync(f);
      }
      router.sync();  // the successor files up to (at least) the lengths the snapshot records
      dir.sync();
      progress.peak_disk_bytes = std::max(progress.peak_disk_bytes, dir.total_bytes());
      PassRecord saved = snapshot;
      saved.peak_disk_bytes = progress.peak_disk_bytes;
      dir.write_text_atomically(PassRecord::kFile, saved.text());
      dir.remove(cells_file(depth, t));
      dir.remove(next_file(depth, t));
      unsaved.reset();
    };
    // Heartbeats inside the pass: before each segment, between the batches it applies and
    // between the chunks it expands (those from worker threads, while nothing else changes
    // the counts read here).
    const std::uint64_t counted_before = std::accumulate(m.depth_counts.begin(), m.depth_counts.end(), std::uint64_t{0});
    std::atomic<std::uint64_t> expanding{0};  // states expanded in the segment under way, added once per chunk
    const auto beat = [&](std::uint64_t t) {
      if (!run.reporter->heartbeat_due()) return;
      run.reporter->heartbeat(depth, progress.count, counted_before + progress.count,
                              m.expanded + progress.expanded + expanding.load(std::memory_order_relaxed),
                              "segment " + std::to_string(t + 1) + "/" + std::to_string(l.segments));
    };
    for (std::uint64_t t = progress.next_segment; t < l.segments; ++t) {
      throw_if_interrupted();
      beat(t);
      const std::uint64_t read_before = run.bytes_read, written_before = run.bytes_written + router.bytes;
      const Key base = t * l.segment_keys;
      const std::uint64_t keys = std::min<Key>(l.segment_keys, bound - base);
      const std::uint64_t bytes = ExternalLayout::segment_bytes(keys), words = bytes / 8;
      if (t + 1 < l.segments) {  // the next segment's files come in from disk while this one works
        dir.prefetch(cells_file(depth, t + 1));
        dir.prefetch(next_file(depth, t + 1));
      }
      if (expand) dir.remove(cells_file(depth + 1, t));  // a redo's leftover (possibly a link to the old cells)
      if (m.incoming[t].length == 0 && m.claimed_ahead[t] == 0) {
        // Nothing reached this segment at this depth: its cells stay as they are (a file
        // that does not exist holds only unseen cells).
        if (expand && m.cells[t].length) dir.link(cells_file(depth, t), cells_file(depth + 1, t));
        progress.cells[t] = m.cells[t];
      } else {
        if (m.cells[t].length) {
          read_cells(dir, cells_file(depth, t), cells, bytes, m.cells[t]);
          run.bytes_read += bytes;
        } else {
          std::fill(cells.raw_bytes(), cells.raw_bytes() + bytes, 0);
        }
        if (keys % TwoBitCells::kCellsPerWord != 0)  // cells past the last key: done, so no scan sees them
          cells.mark(words - 1, ~std::uint64_t{0} << (keys % TwoBitCells::kCellsPerWord * 2) & TwoBitCells::kLow, TwoBitCells::kDone);

        progress.count += apply_incoming(run, depth, t, keys, cells, current, [&] { beat(t); });
        if (progress.samples.size() < kSamplesPerDepth) {
          if (const auto key = sample_cell(cells, words, current, depth, t))
            progress.samples.push_back(puzzle_.format(enc_.decode(base + *key)));
        }
        if (expand) {
          const std::uint64_t grain = std::max<std::uint64_t>(64, words / (64 * static_cast<std::uint64_t>(options_.threads)));
          parallel_chunks(words, grain, [&](std::uint64_t begin, std::uint64_t end) {
            Scratch& local = scratch.local();
            const std::uint64_t before = local.expanded;
            expand_words(cells, base, keys, begin, end, current, next, router, local);
            expanding.fetch_add(local.expanded - before, std::memory_order_relaxed);
            beat(t);
          });
          flush_routed(router, scratch);
          for (auto& s : scratch) {
            progress.ahead[t] += std::exchange(s.claimed, 0);
            progress.expanded += std::exchange(s.expanded, 0);
            progress.generated += std::exchange(s.generated, 0);
          }
          expanding.store(0, std::memory_order_relaxed);
          write_cells(dir, cells_file(depth + 1, t), cells, bytes, progress.cells[t]);
          run.bytes_written += bytes;
        }
      }
      progress.next_segment = t + 1;
      progress.bytes_read += run.bytes_read - read_before;
      progress.bytes_written += run.bytes_written + router.bytes - written_before;
      if (expand) {
        checkpoint();  // segment t-1's
        unsaved.emplace(t, progress);
      }
    }
    if (!expand) return progress.count;
    checkpoint();
    run.bytes_written += router.bytes;
    run.peak_disk_bytes = std::max(run.peak_disk_bytes, progress.peak_disk_bytes);
    commit(run, progress);
    if (progress.count > 0) depth_finished(run, depth, progress.count);
    return progress.count;
  }

  // Every successor of a segment goes to disk before its checkpoint: the buffers the
  // threads hold are sorted, encoded and appended in parallel, each with the sort scratch
  // of the thread that takes it (on the widest levels this is about half of all the routing
  // work, so one thread doing it alone would idle the others).
  static void flush_routed(Router& router, tbb::enumerable_thread_specific<Scratch>& scratch) {
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
  }

  // The commit point of a pass: until the manifest is replaced, a resumed run goes on from
  // pass.json.
  void commit(Run& run, const PassRecord& progress) {
    Manifest& m = run.manifest;
    const int depth = m.depth;
    const std::uint64_t count = progress.count;
    std::uint64_t pending = 0;
    for (const std::uint64_t e : progress.entries) pending += e;
    if (count > 0) m.depth_counts.push_back(count);
    if (!progress.samples.empty()) m.samples[depth] = progress.samples;
    m.depth = depth + 1;
    m.claimed_ahead = progress.ahead;
    m.pending_entries = pending;
    m.cells = progress.cells;
    m.incoming = progress.next;
    m.expanded += progress.expanded;
    m.generated += progress.generated;
    m.bytes_written += progress.bytes_written;
    m.bytes_read += progress.bytes_read;
    m.peak_disk_bytes = std::max(m.peak_disk_bytes, progress.peak_disk_bytes);
    if (count == 0) {
      finish(run);
    } else {
      save_manifest(run);
    }
    run.dir.remove(PassRecord::kFile);
  }

  // The search ran out: the manifest keeps the answer, the data files go.
  void finish(Run& run) {
    Manifest& m = run.manifest;
    m.finished = true;
    m.cells.assign(m.segments, FileRecord{});
    m.incoming.assign(m.segments, FileRecord{});
    save_manifest(run);
    for (std::uint64_t t = 0; t < run.layout.segments; ++t) {
      run.dir.remove(cells_file(m.depth, t));
      run.dir.remove(cells_file(m.depth + 1, t));
      run.dir.remove(next_file(m.depth, t));
    }
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
  // routed to their segment. A signal stops the pass between batches (the segment is redone
  // on resume).
  void expand_words(TwoBitCells& cells, Key base, std::uint64_t keys, std::uint64_t begin, std::uint64_t end, unsigned current,
                    unsigned next, Router& router, Scratch& local) const {
    const std::uint64_t per_segment = router.segment_keys;
    if (local.routed.size() != router.locks.size()) local.routed.resize(router.locks.size());
    for_each_frontier_batch(cells, begin, end, current, base, local.keys, kBatch, [&] {
      throw_if_interrupted();
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
  ExternalOptions settings_;
};

}  // namespace searchbench
