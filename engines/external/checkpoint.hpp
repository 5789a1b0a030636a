// Checkpoints and resumption of the external engine (engines/external_bfs.hpp), on the
// typed records of engines/external/work_state.hpp:
// * per segment: once segment t is done, every routing buffer flushed, the new cells and
//   every successor file written since the last checkpoint are fsync'ed and pass.json
//   replaces the old one atomically; only then are t's old cells and applied successor
//   file removed, so the folder holds one generation of cells, not two (SegmentCheckpoints,
//   which takes t's checkpoint while t+1 computes, so that the kernel writes t's cells back
//   meanwhile and the fsync finds little to do);
// * per pass: manifest.json is replaced the same way (commit), or, when the search ran
//   out, keeps the answer while the data files go (finish);
// * on --resume: every file of the folder checked against the records before any of its
//   bytes is used (check_files), and a pass picked up where its checkpoint left it, the
//   successor files cut back to their recorded lengths (resume_point).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/work_dir.hpp"
#include "engines/external/router.hpp"
#include "engines/external/store.hpp"
#include "engines/external/work_state.hpp"

namespace searchbench::external {

// The files the records of a resumed folder list, with whether a file may be longer than
// its record (successor files appended to after the last checkpoint).
inline std::map<std::string, std::pair<FileRecord, bool>> listed_files(const Manifest& m, const std::optional<PassRecord>& within) {
  const int depth = m.depth;
  const std::uint64_t done = within ? within->next_segment : 0;
  std::map<std::string, std::pair<FileRecord, bool>> expected;
  for (std::uint64_t t = 0; t < m.segments; ++t) {
    if (t >= done) {
      if (m.cells[t].length) expected[cells_file(depth, t)] = {m.cells[t], false};
      if (m.incoming[t].length) expected[next_file(depth, t)] = {m.incoming[t], false};
    } else if (within->cells[t].length) {
      expected[cells_file(depth + 1, t)] = {within->cells[t], false};
    }
    if (within && within->next[t].length) expected[next_file(depth + 1, t)] = {within->next[t], true};
  }
  return expected;
}

// Whether `name`, not listed, is what a run killed at some point can leave (removed before
// it is used) in a folder at the manifest's depth with `done` segments of its pass done.
inline bool allowed_leftover(const std::string& name, const Manifest& m, std::uint64_t done) {
  const int depth = m.depth;
  unsigned long long a = 0, b = 0;
  if (name == Manifest::kFile || name == PassRecord::kFile || name == std::string(Manifest::kFile) + ".tmp" ||
      name == std::string(PassRecord::kFile) + ".tmp")
    return true;
  if (std::sscanf(name.c_str(), "cells-%llu-%llu", &a, &b) == 2 && own_leftover(name) && b < m.segments) {
    // The old generation of a segment already done, or a segment's new cells not yet
    // checkpointed: both redone or removed. Cells the records say do not exist are not.
    return (a == static_cast<unsigned long long>(depth & 1)) ? b < done : b >= done;
  }
  if (std::sscanf(name.c_str(), "next-%llu-%llu", &a, &b) == 2 && own_leftover(name) && b < m.segments) {
    // Lists of the committed pass before, of segments already applied, or appended to
    // after the last checkpoint.
    const auto d = static_cast<long long>(a);
    return d == depth - 1 || (d == depth && b < done) || d == depth + 1;
  }
  return false;
}

// Every file of a resumed folder against the records: the cells and successor lists the
// manifest and the pass checkpoint list must be there at their recorded lengths (their
// bytes are checked against the checksums as they are read); besides them, only what a
// run killed at some point can leave is allowed.
inline void check_files(ExternalRun& run, const std::vector<std::string>& names) {
  const Manifest& m = run.manifest;
  if (m.segments != run.layout.segments) throw damaged_folder(Manifest::kFile, "the layout does not match the key space");
  if (m.finished) return;  // the answer is the manifest's; leftover cells are removed on the way out
  std::optional<PassRecord> within;  // the checkpoint of the pass under way
  if (const auto text = run.dir.read_text(PassRecord::kFile)) {
    PassRecord p = PassRecord::parse(*text, m);
    if (p.depth > m.depth) throw damaged_folder(PassRecord::kFile, "a checkpoint of depth " + std::to_string(p.depth) +
                                                                     " after the manifest's depth " + std::to_string(m.depth));
    if (p.depth == m.depth) within = std::move(p);
  }
  const std::uint64_t done = within ? within->next_segment : 0;
  const auto expected = listed_files(m, within);
  for (const auto& [name, record] : expected) {
    if (!run.dir.exists(name)) throw damaged_folder(name, "missing (the records list it)");
    const std::uint64_t size = run.dir.size_of(name);
    const auto& [r, longer_ok] = record;
    if (size < r.length || (size > r.length && !longer_ok))
      throw damaged_folder(name, std::to_string(size) + " bytes, the records say " + std::to_string(r.length));
  }
  for (const std::string& name : names) {
    if (name == WorkDir::kLockFile || expected.count(name)) continue;
    if (!allowed_leftover(name, m, done)) throw damaged_folder(name, "not a file the records list");
  }
}

// Where pass `depth` starts: inside it when pass.json holds a checkpoint of it (the
// successor files are cut back to their recorded lengths, and whatever the interrupted
// segment wrote is redone), otherwise at its first segment after removing whatever an
// interrupted pass or the cleanup after a commit left behind.
inline PassRecord resume_point(ExternalRun& run, int depth) {
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

// The search ran out: the manifest keeps the answer, the data files go.
inline void finish(ExternalRun& run) {
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

// The commit point of a pass: until the manifest is replaced, a resumed run goes on from
// pass.json.
inline void commit(ExternalRun& run, const PassRecord& progress) {
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

// The checkpoints of one pass of depth `depth`: segment t's is taken after segment t+1
// has been worked on (segment_done(t+1) takes t's, then holds t+1's), the last by flush().
class SegmentCheckpoints {
 public:
  SegmentCheckpoints(WorkDir& dir, int depth, SegmentRouter& router, PassRecord& progress)
      : dir_(dir), depth_(depth), router_(router), progress_(progress) {}

  // Segment t is done: the checkpoint of the segment before it, then t's held.
  void segment_done(std::uint64_t t) {
    flush();
    unsaved_.emplace(t, progress_);
  }

  // The checkpoint held, if any.
  void flush() {
    if (!unsaved_) return;
    const auto& [t, snapshot] = *unsaved_;
    if (snapshot.cells[t].length) {
      DataFile f(dir_.file(cells_file(depth_ + 1, t)), DataFile::Mode::read);
      dir_.sync(f);
    }
    router_.sync();  // the successor files up to (at least) the lengths the snapshot records
    dir_.sync();
    progress_.peak_disk_bytes = std::max(progress_.peak_disk_bytes, dir_.total_bytes());
    PassRecord saved = snapshot;
    saved.peak_disk_bytes = progress_.peak_disk_bytes;
    dir_.write_text_atomically(PassRecord::kFile, saved.text());
    dir_.remove(cells_file(depth_, t));
    dir_.remove(next_file(depth_, t));
    unsaved_.reset();
  }

 private:
  WorkDir& dir_;
  int depth_;
  SegmentRouter& router_;
  PassRecord& progress_;
  std::optional<std::pair<std::uint64_t, PassRecord>> unsaved_;
};

}  // namespace searchbench::external
