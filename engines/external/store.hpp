// The store of the external engine (engines/external_bfs.hpp): what one run holds about its
// work folder (ExternalRun), the names of the data files in it, and how a segment's cells
// go to and come back from their file. Apart from the pass driver so that the checkpoint,
// routing and seeding code (engines/external/*.hpp) names the files one way.
//
// Files of a folder: manifest.json and pass.json (engines/external/work_state.hpp, each
// written through a .tmp name), `lock` (core/work_dir.hpp), cells-<depth & 1>-<segment>
// (a segment's two-bit cells, two generations named by the parity of their depth) and
// next-<depth>-<segment> (the successor offsets routed to a segment for a depth, as runs of
// core/offset_runs.hpp).
#pragma once

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>

#include "core/concepts.hpp"
#include "core/progress_reporter.hpp"
#include "core/two_bit_cells.hpp"
#include "core/work_dir.hpp"
#include "engines/external/layout.hpp"
#include "engines/external/work_state.hpp"

namespace searchbench::external {

// One run over a work folder: what it was started with and what it has done so far.
struct ExternalRun {
  explicit ExternalRun(WorkDir& d) : dir(d) {}
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

inline std::string cells_file(int depth, std::uint64_t segment) {
  return "cells-" + std::to_string(depth & 1) + "-" + std::to_string(segment);
}
inline std::string next_file(int depth, std::uint64_t segment) {
  return "next-" + std::to_string(depth) + "-" + std::to_string(segment);
}

// Names this program writes in a work folder (a run killed at any point may leave them).
inline bool own_leftover(const std::string& name) {
  unsigned long long a = 0, b = 0;
  int used = 0;
  const auto is = [&](const char* pattern) {
    used = 0;
    return std::sscanf(name.c_str(), pattern, &a, &b, &used) == 2 && static_cast<std::size_t>(used) == name.size();
  };
  return name == Manifest::kFile || name == PassRecord::kFile || name == std::string(Manifest::kFile) + ".tmp" ||
         name == std::string(PassRecord::kFile) + ".tmp" || is("cells-%llu-%llu%n") || is("next-%llu-%llu%n");
}

inline void save_manifest(ExternalRun& run) { run.dir.write_text_atomically(Manifest::kFile, run.manifest.text()); }

// A segment's cells to a new file, with their record (one chunk).
inline void write_cells(WorkDir& dir, const std::string& name, TwoBitCells& cells, std::uint64_t bytes, FileRecord& record) {
  DataFile out(dir.file(name), DataFile::Mode::create);
  out.write_all(cells.raw_bytes(), bytes);
  out.start_writeback();
  out.close();
  record = FileRecord{};
  record.append(cells.raw_bytes(), bytes);
}

// A segment's cells back from its file, checked against their record.
inline void read_cells(WorkDir& dir, const std::string& name, TwoBitCells& cells, std::uint64_t bytes, const FileRecord& record) {
  DataFile f(dir.file(name), DataFile::Mode::read);
  if (record.length != bytes || f.size() != bytes)
    throw damaged_folder(name, std::to_string(f.size()) + " bytes, the records say " + std::to_string(record.length));
  f.read_exactly(cells.raw_bytes(), bytes);
  if (FileRecord::chunk_hash(cells.raw_bytes(), bytes, 0) != record.checksum) throw damaged_folder(name, "checksum mismatch");
}

}  // namespace searchbench::external
