// How a run of the external engine (engines/external_bfs.hpp) takes up its work folder:
// * --resume reads the folder's manifest, checks that it belongs to this run (puzzle,
//   encoder, start, key space) and that every file it lists is there
//   (engines/external/checkpoint.hpp);
// * a fresh start refuses a folder holding a run or anything not this program's, removes
//   what a fresh start killed before its first manifest left, checks the segment size and
//   the free space (engines/external/forecast.hpp), and writes the first manifest: seeded
//   depths (engines/external/seeding.hpp) or depth 0 with the start key waiting in the
//   successor file of its segment.
#pragma once

#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/concepts.hpp"
#include "core/errors.hpp"
#include "core/offset_runs.hpp"
#include "core/work_dir.hpp"
#include "engines/external/checkpoint.hpp"
#include "engines/external/forecast.hpp"
#include "engines/external/layout.hpp"
#include "engines/external/seeding.hpp"
#include "engines/external/store.hpp"
#include "engines/external/work_state.hpp"

namespace searchbench::external {

// What the engine's options say about taking up the folder.
struct RunRequest {
  bool resume = false;
  int max_depth = -1;
  std::uint64_t segment_keys = 0;  // 0: the largest that fits
  std::optional<std::uint64_t> seed_keys;
  int threads = 1;
};

inline std::string run_identity(const std::string& puzzle, std::string_view encoder, const std::string& start_text) {
  return puzzle + " (encoder " + std::string(encoder) + ", start " + start_text + ")";
}

// --resume: the folder's manifest, checked against this run (`layout_for(segment_keys)`: the
// layout of a segment size).
template <class LayoutFor>
void resume_run(ExternalRun& run, const std::string& text, const std::vector<std::string>& names, const std::string& puzzle,
                std::string_view encoder, Key bound, int max_depth, LayoutFor&& layout_for) {
  WorkDir& dir = run.dir;
  run.manifest = Manifest::parse(text, ExternalLayout::kMaxSegments, ExternalLayout::kMaxSegmentKeys);
  Manifest& m = run.manifest;
  if (m.puzzle != puzzle || m.encoder != encoder || m.start != run.start_text || m.key_bound != bound)
    throw InputError("work folder '" + dir.path() + "' holds a run of " + m.identity + ", not of " +
                     run_identity(puzzle, encoder, run.start_text));
  run.layout = layout_for(m.segment_keys);
  run.resumed_from = static_cast<int>(m.depth_counts.size());  // the first depth not yet counted
  check_files(run, names);
  if (m.last_max_depth != max_depth && !m.finished) {
    m.last_max_depth = max_depth;
    save_manifest(run);
  }
}

// A fresh start may use the folder: it holds no run, and besides the lock only files a
// fresh start killed before its first manifest leaves (this program's to remove).
inline void clear_for_fresh_start(WorkDir& dir, const std::optional<std::string>& manifest_text, const std::vector<std::string>& names) {
  if (manifest_text) {
    throw InputError("work folder '" + dir.path() + "' already holds a run (" + Manifest::kFile +
                     "); add --resume to continue it or choose an empty folder");
  }
  for (const std::string& name : names) {
    if (name == WorkDir::kLockFile) continue;
    if (!own_leftover(name))
      throw InputError("work folder '" + dir.path() + "' holds '" + name + "', not a file of this program; choose an empty folder");
  }
  for (const std::string& name : names)
    if (name != WorkDir::kLockFile) dir.remove(name);
}

// Depth 0 without seeding: the start key waits in the successor file of its segment.
inline void write_start_key(ExternalRun& run) {
  const std::uint64_t segment = run.start_key / run.layout.segment_keys;
  const std::uint32_t offset = static_cast<std::uint32_t>(run.start_key - segment * run.layout.segment_keys);
  std::vector<unsigned char> encoded;
  OffsetRuns::encode(&offset, 1, encoded);
  DataFile f(run.dir.file(next_file(0, segment)), DataFile::Mode::create);
  f.write_all(encoded.data(), encoded.size());
  run.dir.sync(f);
  f.close();
  run.manifest.incoming[segment].append(encoded.data(), encoded.size());
}

// Takes up the folder of `run` (its dir, start key and text set) for a search of `puzzle`
// with encoder `enc`: resumed or fresh, as `request` says; the first manifest of a fresh
// run is its commit point.
template <Puzzle P, Encoder<P> E, class LayoutFor>
void start_run(const P& puzzle, const E& enc, ExternalRun& run, const RunRequest& request, LayoutFor&& layout_for) {
  WorkDir& dir = run.dir;
  const Key bound = enc.key_bound();
  const std::vector<std::string> names = dir.entries();  // refuses links and anything not a regular file
  const auto text = dir.read_text(Manifest::kFile);
  if (request.resume) {
    if (!text) throw InputError("nothing to resume in '" + dir.path() + "' (no " + Manifest::kFile + ")");
    resume_run(run, *text, names, puzzle.name(), E::kName, bound, request.max_depth, layout_for);
    return;
  }
  clear_for_fresh_start(dir, text, names);
  const std::uint64_t wanted = request.segment_keys;
  if (wanted != 0 && (!std::has_single_bit(wanted) || wanted < ExternalLayout::kMinSegmentKeys || wanted > ExternalLayout::kMaxSegmentKeys))
    throw InputError("segment size must be a power of two between 2^11 and 2^32 keys (got " + std::to_string(wanted) + ")");
  run.layout = layout_for(wanted);
  require_space_for_start(dir, run.layout, bound, puzzle.name());
  Manifest& m = run.manifest;
  m.identity = run_identity(puzzle.name(), E::kName, run.start_text);
  m.puzzle = puzzle.name();
  m.encoder = E::kName;
  m.start = run.start_text;
  m.key_bound = bound;
  m.segment_keys = run.layout.segment_keys;
  m.segments = run.layout.segments;
  m.claimed_ahead.assign(m.segments, 0);
  m.cells.assign(m.segments, FileRecord{});
  m.incoming.assign(m.segments, FileRecord{});
  m.pending_entries = 1;
  m.last_max_depth = request.max_depth;
  const std::uint64_t seed_keys = request.seed_keys.value_or(run.layout.memory_bytes / sizeof(Key));
  if (seed_keys > 0) seed_first_depths(puzzle, enc, run, seed_keys, request.threads, request.max_depth);
  else write_start_key(run);
  save_manifest(run);  // the commit point
}

}  // namespace searchbench::external
