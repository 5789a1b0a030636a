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
//
// Where the parts live: the work folder's files and a run's state
// (engines/external/store.hpp), the typed records (engines/external/work_state.hpp), the
// layout (engines/external/layout.hpp), taking up the folder, fresh or resumed
// (engines/external/run_start.hpp, seeding the first depths in memory:
// engines/external/seeding.hpp), the router (engines/external/router.hpp), the successor
// lists applied (engines/external/incoming.hpp), checkpoints and resumption
// (engines/external/checkpoint.hpp), free space (engines/external/forecast.hpp) and
// samples (engines/external/sampling.hpp). The expansion itself is the step every two-bit
// engine shares (engines/two_bit/expansion_kernel.hpp), routed by segment. This file is the pass
// driver.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <numeric>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <tbb/enumerable_thread_specific.h>
#include <tbb/task_arena.h>

#include "core/concepts.hpp"
#include "core/engine_capabilities.hpp"
#include "core/errors.hpp"
#include "core/interrupt.hpp"
#include "core/parallel_chunks.hpp"
#include "core/progress_reporter.hpp"
#include "core/result.hpp"
#include "core/search_options.hpp"
#include "core/thread_arena.hpp"
#include "core/timer.hpp"
#include "core/two_bit_cells.hpp"
#include "core/work_dir.hpp"
#include "engines/two_bit/expansion_kernel.hpp"
#include "engines/external/checkpoint.hpp"
#include "engines/external/forecast.hpp"
#include "engines/external/incoming.hpp"
#include "engines/external/layout.hpp"
#include "engines/external/options.hpp"
#include "engines/external/router.hpp"
#include "engines/external/run_start.hpp"
#include "engines/external/sampling.hpp"
#include "engines/external/store.hpp"
#include "engines/external/work_state.hpp"

namespace searchbench {

template <Puzzle P, Encoder<P> E>
class ExternalBfs {
 public:
  using State = typename P::State;
  static constexpr std::string_view kName = "external";
  static constexpr std::string_view kSummary = "out-of-core two-bit BFS: segments on disk (--workdir), checkpoints, --resume";
  static constexpr EngineCapabilities kCapabilities{.whole_space = true, .threaded = true, .counts_only = true, .perfect_encoder_only = true};

  using Options = external::ExternalOptions;

  ExternalBfs(const P& puzzle, const E& enc, SearchOptions options, external::ExternalOptions own = {})
      : puzzle_(puzzle),
        enc_(enc),
        options_(std::move(options)),
        settings_{options_.threads, options_.max_depth, own.workdir, own.resume,
                  options_.memory.working_set(external::ExternalLayout::kDefaultMemory), own.segment_keys, own.seed_keys} {
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
    const external::RunRequest request{settings_.resume, settings_.max_depth, settings_.segment_keys, settings_.seed_keys,
                                       settings_.threads};
    external::start_run(puzzle_, enc_, run, request, [&](std::uint64_t segment_keys) { return layout(segment_keys); });
    const int limit = settings_.max_depth;
    std::optional<std::uint64_t> count_at_limit;
    tbb::task_arena arena(runnable_threads(settings_.threads));
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
    SearchResult result = result_of(run, count_at_limit, limit);
    result.seconds = timer.seconds();
    return result;
  }

 private:
  using Run = external::ExternalRun;

  // Every SearchOptions field this engine reads, read once in the constructor (the progress
  // callback and heartbeat interval are ProgressReporter's).
  struct Settings {
    int threads;
    int max_depth;
    std::string workdir;
    bool resume;
    std::uint64_t max_memory;  // the working set (--max-memory, else external::ExternalLayout::kDefaultMemory)
    std::uint64_t segment_keys;
    std::optional<std::uint64_t> seed_keys;
  };

  external::ExternalLayout layout(std::uint64_t segment_keys) const {
    return external::ExternalLayout::choose(enc_.key_bound(), settings_.max_memory, settings_.threads, segment_keys, puzzle_.name());
  }

  // The counts of the manifest (plus the depth of --max-depth, which it does not hold),
  // cut at the limit, with this run's times and out-of-core figures.
  static SearchResult result_of(const Run& run, const std::optional<std::uint64_t>& count_at_limit, int limit) {
    const external::Manifest& m = run.manifest;
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
    // Bytes by this run (a resumed one: since it resumed); the peak is the largest work
    // folder of a depth, cells plus successor lists; resumed_from is the first depth a
    // resumed run still had to count (-1: a fresh run).
    result.add_extra("workdir", run.dir.path());
    result.add_extra("segments", std::uint64_t{run.layout.segments});
    result.add_extra("segment_keys", std::uint64_t{run.layout.segment_keys});
    result.add_extra("bytes_written", std::uint64_t{run.bytes_written});
    result.add_extra("bytes_read", std::uint64_t{run.bytes_read});
    result.add_extra("peak_disk_bytes", std::uint64_t{std::max(run.peak_disk_bytes, m.peak_disk_bytes)});
    result.add_extra("resumed_from", std::int64_t{run.resumed_from});
    return result;
  }

  // Depth `depth` (of `count` states; counted and expanded, or the count of --max-depth's
  // depth) is finished: its time and its progress line. `reached` and `expanded` come from
  // the manifest, the depth at the limit added when the manifest does not hold it yet.
  static void depth_finished(Run& run, int depth, std::uint64_t count) {
    const double now = run.reporter->seconds();
    run.finished_at[depth] = now;
    if (depth == 0) return;
    const external::Manifest& m = run.manifest;
    std::uint64_t reached = 0;
    for (std::size_t d = 0; d < m.depth_counts.size() && d <= static_cast<std::size_t>(depth); ++d) reached += m.depth_counts[d];
    if (m.depth_counts.size() <= static_cast<std::size_t>(depth)) reached += count;
    run.reporter->depth_done(depth, count, reached, m.expanded, now);
  }

  // One pass under way: its checkpoint record, the loaded segment's cells, the router of
  // the next depth's successor files and the threads' scratch.
  struct Pass {
    Pass(Run& r, external::PassRecord& p, bool e)
        : run(r),
          progress(p),
          depth(r.manifest.depth),
          expand(e),
          cells(r.layout.segment_keys),
          router(r.dir, depth + 1, r.layout, p),
          checkpoints(r.dir, depth, router, p),
          current(TwoBitCells::current_code(depth)),
          next(TwoBitCells::next_code(depth)),
          counted_before(std::accumulate(r.manifest.depth_counts.begin(), r.manifest.depth_counts.end(), std::uint64_t{0})) {}
    Run& run;
    external::PassRecord& progress;
    const int depth;
    const bool expand;
    TwoBitCells cells;
    external::SegmentRouter router;
    external::SegmentCheckpoints checkpoints;
    tbb::enumerable_thread_specific<external::RoutingScratch> scratch;
    const unsigned current, next;
    const std::uint64_t counted_before;
    std::atomic<std::uint64_t> expanding{0};  // states expanded in the segment under way, added once per chunk

    // Heartbeats inside the pass: before each segment, between the batches it applies and
    // between the chunks it expands (those from worker threads, while nothing else changes
    // the counts read here).
    void beat(std::uint64_t t) {
      if (!run.reporter->heartbeat_due()) return;
      run.reporter->heartbeat(depth, progress.count, counted_before + progress.count,
                              run.manifest.expanded + progress.expanded + expanding.load(std::memory_order_relaxed),
                              "segment " + std::to_string(t + 1) + "/" + std::to_string(run.layout.segments));
    }
  };

  // One depth: apply the successors sent to each segment and, when `expand`, expand its
  // cells at this depth and save them as the next generation with a checkpoint, then commit
  // the manifest. Without `expand` (the depth of --max-depth) the pass only counts: it
  // writes nothing, so the folder can still go deeper. Returns the states at this depth.
  std::uint64_t pass(Run& run, bool expand) {
    const external::Manifest& m = run.manifest;
    const int depth = m.depth;
    external::PassRecord progress = external::resume_point(run, depth);
    if (progress.next_segment == 0 && depth > 0 && m.claimed_ahead_total() == 0 && m.pending_entries == 0) {  // nothing at this depth
      external::finish(run);
      return 0;
    }
    if (expand)
      external::require_space_for_pass(run.dir, m, run.layout, depth, progress.next_segment, puzzle_.name(), puzzle_.move_count());
    Pass p(run, progress, expand);
    for (std::uint64_t t = progress.next_segment; t < run.layout.segments; ++t) {
      pass_segment(p, t);
      if (expand) p.checkpoints.segment_done(t);  // takes segment t-1's checkpoint
    }
    if (!expand) return progress.count;
    p.checkpoints.flush();
    run.bytes_written += p.router.bytes;
    run.peak_disk_bytes = std::max(run.peak_disk_bytes, progress.peak_disk_bytes);
    external::commit(run, progress);
    if (progress.count > 0) depth_finished(run, depth, progress.count);
    return progress.count;
  }

  // Segment t of a pass: its cells loaded (or left as they are when nothing reached it),
  // the successors sent to it applied, a sample taken and, when the pass expands, its
  // frontier expanded and its new cells saved.
  void pass_segment(Pass& p, std::uint64_t t) const {
    Run& run = p.run;
    WorkDir& dir = run.dir;
    const external::Manifest& m = run.manifest;
    const external::ExternalLayout& l = run.layout;
    const int depth = p.depth;
    throw_if_interrupted();
    p.beat(t);
    const std::uint64_t read_before = run.bytes_read, written_before = run.bytes_written + p.router.bytes;
    const Key base = t * l.segment_keys;
    const std::uint64_t keys = std::min<Key>(l.segment_keys, enc_.key_bound() - base);
    const std::uint64_t bytes = external::ExternalLayout::segment_bytes(keys), words = bytes / 8;
    if (t + 1 < l.segments) {  // the next segment's files come in from disk while this one works
      dir.prefetch(external::cells_file(depth, t + 1));
      dir.prefetch(external::next_file(depth, t + 1));
    }
    if (p.expand) dir.remove(external::cells_file(depth + 1, t));  // a redo's leftover (possibly a link to the old cells)
    if (m.incoming[t].length == 0 && m.claimed_ahead[t] == 0) {
      // Nothing reached this segment at this depth: its cells stay as they are (a file
      // that does not exist holds only unseen cells).
      if (p.expand && m.cells[t].length) dir.link(external::cells_file(depth, t), external::cells_file(depth + 1, t));
      p.progress.cells[t] = m.cells[t];
    } else {
      if (m.cells[t].length) {
        external::read_cells(dir, external::cells_file(depth, t), p.cells, bytes, m.cells[t]);
        run.bytes_read += bytes;
      } else {
        std::fill(p.cells.raw_bytes(), p.cells.raw_bytes() + bytes, 0);
      }
      if (keys % TwoBitCells::kCellsPerWord != 0)  // cells past the last key: done, so no scan sees them
        p.cells.mark(words - 1, ~std::uint64_t{0} << (keys % TwoBitCells::kCellsPerWord * 2) & TwoBitCells::kLow, TwoBitCells::kDone);
      p.progress.count += external::apply_incoming(run, depth, t, keys, p.cells, p.current, [&] { p.beat(t); });
      if (p.progress.samples.size() < external::kSamplesPerDepth) {
        if (const auto key = external::sample_cell(p.cells, words, p.current, depth, t))
          p.progress.samples.push_back(puzzle_.format(enc_.decode(base + *key)));
      }
      if (p.expand) expand_segment(p, t, base, keys, bytes);
    }
    p.progress.next_segment = t + 1;
    p.progress.bytes_read += run.bytes_read - read_before;
    p.progress.bytes_written += run.bytes_written + p.router.bytes - written_before;
  }

  // Expands the frontier of the loaded segment t (keys [base, base + keys)) with oneTBB
  // threads, claiming successors inside it at once and routing the others by segment; then
  // every routing buffer goes to disk and the new cells to their file.
  void expand_segment(Pass& p, std::uint64_t t, Key base, std::uint64_t keys, std::uint64_t bytes) const {
    const std::uint64_t words = bytes / 8;
    const std::uint64_t grain = std::max<std::uint64_t>(64, words / (64 * static_cast<std::uint64_t>(settings_.threads)));
    parallel_chunks(words, grain, [&](std::uint64_t begin, std::uint64_t end) {
      external::RoutingScratch& local = p.scratch.local();
      const std::uint64_t before = local.expanded;
      external::RouteBySegment by_segment(base, keys, p.router, local);
      expand_and_route(puzzle_, enc_, p.cells, begin, end, p.current, p.next, local, by_segment);
      p.expanding.fetch_add(local.expanded - before, std::memory_order_relaxed);
      p.beat(t);
    });
    external::flush_routed(p.router, p.scratch);
    for (auto& s : p.scratch) {
      p.progress.ahead[t] += std::exchange(s.found, 0);
      p.progress.expanded += std::exchange(s.expanded, 0);
      p.progress.generated += std::exchange(s.generated, 0);
    }
    p.expanding.store(0, std::memory_order_relaxed);
    external::write_cells(p.run.dir, external::cells_file(p.depth + 1, t), p.cells, bytes, p.progress.cells[t]);
    p.run.bytes_written += bytes;
  }

  const P& puzzle_;
  const E& enc_;
  SearchOptions options_;
  Settings settings_;
};

}  // namespace searchbench
