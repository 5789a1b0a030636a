// Seeding of a fresh external run (engines/external_bfs.hpp): its first depths are searched
// in memory (engines/sorted_levels.hpp) while they fit a budget of keys, then one
// generation of cells is written at once: the states of the earlier depths done, those of
// the last level at its depth's current code, claimed ahead as a pass would have left
// them; the passes go on from that depth. The first levels are tiny, and a pass over every
// segment for each of them would cost far more than their states. Killed before the
// manifest is written, the folder holds no run, and a fresh start removes these cells.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include <tbb/task_arena.h>

#include "core/concepts.hpp"
#include "core/interrupt.hpp"
#include "core/thread_arena.hpp"
#include "core/two_bit_cells.hpp"
#include "core/work_dir.hpp"
#include "engines/external/layout.hpp"
#include "engines/external/sampling.hpp"
#include "engines/sorted_levels.hpp"
#include "engines/external/store.hpp"
#include "engines/external/work_state.hpp"

namespace searchbench::external {

// The cells of the seeded levels `s` (its last level, at `last_depth`, still to expand), one
// file per segment holding any, made durable; their records go into the manifest.
inline void write_seeded_cells(ExternalRun& run, const SortedLevels& s, int last_depth, Key bound) {
  WorkDir& dir = run.dir;
  const ExternalLayout& l = run.layout;
  Manifest& m = run.manifest;
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

// Seeds a fresh run from its start key with at most `budget_keys` keys in memory, on
// `threads` threads, no deeper than `max_depth` (-1: unlimited); fills the manifest (not
// yet saved). When the whole search fits, the manifest is the finished answer.
template <Puzzle P, Encoder<P> E>
void seed_first_depths(const P& puzzle, const E& enc, ExternalRun& run, std::uint64_t budget_keys, int threads, int max_depth) {
  const ExternalLayout& l = run.layout;
  SortedLevels s;
  tbb::task_arena arena(runnable_threads(threads));
  // A depth is finished once its successors are merged, as a pass finishes its depth.
  const auto expanded = [&](int depth, const SortedLevels& levels) {
    const double now = run.reporter->seconds();
    run.finished_at[depth] = now;
    if (depth == 0) return;
    const std::uint64_t reached = std::accumulate(levels.counts.begin(), levels.counts.begin() + depth + 1, std::uint64_t{0});
    run.reporter->depth_done(depth, levels.counts[depth], reached, reached, now);
  };
  arena.execute([&] { s = sorted_levels(puzzle, enc, run.start_key, budget_keys, max_depth, l.segment_keys, kSamplesPerDepth, expanded); });
  Manifest& m = run.manifest;
  const int last_depth = static_cast<int>(s.counts.size()) - 1;
  // Every depth found is done, except the last when the search stopped short: the pass
  // of that depth expands (and samples) its cells.
  const int done_depths = s.complete ? last_depth + 1 : last_depth;
  for (int d = 0; d < done_depths; ++d) {
    std::vector<std::string> texts;
    for (const Key k : s.samples[d]) texts.push_back(puzzle.format(enc.decode(k)));
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
  write_seeded_cells(run, s, last_depth, enc.key_bound());
}

}  // namespace searchbench::external
