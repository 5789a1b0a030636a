// The delayed duplicate detection of the external engine (engines/external_bfs.hpp): the
// successor offsets other segments sent segment t for this depth (its next- file, written
// by engines/external/router.hpp) claim the cells still unseen; the others were reached
// earlier and are left alone. Runs are read in batches of whole runs and applied in
// parallel, each run's bytes summed into the file's checksum as it is read; the sum must
// match the record before the segment's new cells can be saved, so a damaged file never
// changes a count that is kept.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/interrupt.hpp"
#include "core/offset_runs.hpp"
#include "core/parallel_chunks.hpp"
#include "core/two_bit_cells.hpp"
#include "core/work_dir.hpp"
#include "engines/external/layout.hpp"
#include "engines/external/store.hpp"
#include "engines/external/work_state.hpp"

namespace searchbench::external {

// 4 MiB of cells: stays in the cache while every run of a batch is applied to it.
inline constexpr std::uint64_t kApplyWindow = std::uint64_t{1} << 24;

using RunBatch = std::vector<std::pair<OffsetRunHeader, std::size_t>>;  // header, payload position in the batch

// Reads one successor file run by run, keeping the checksum of the bytes read so far.
class IncomingRuns {
 public:
  IncomingRuns(DataFile& f, std::string name, std::uint64_t batch_bytes) : f_(f), name_(std::move(name)), batch_bytes_(batch_bytes) {}

  // Whole runs into `batch` until it is full (at least one run; none at the end of the
  // file). Returns false once the file has no more. Adds the bytes read to `bytes_read`.
  bool read_batch(std::vector<unsigned char>& batch, RunBatch& runs, std::uint64_t& bytes_read) {
    batch.clear();
    runs.clear();
    for (;;) {
      OffsetRunHeader h{};
      if (have_pending_) {
        h = pending_;
        have_pending_ = false;
      } else {
        const std::size_t got = f_.read_up_to(&h, sizeof h);
        if (got == 0) return false;
        if (got != sizeof h) throw damaged_folder(name_, "a partial run header");
        bytes_read += got;
      }
      if (h.count == 0 || h.count > ExternalLayout::kMaxBufferEntries ||
          h.payload_bytes > std::uint64_t{h.count} * ExternalLayout::kEncodedBytesPerEntry + 8)
        throw damaged_folder(name_, "a run header out of range");
      if (!runs.empty() && batch.size() + h.payload_bytes > batch_bytes_) {
        pending_ = h;
        have_pending_ = true;
        return true;
      }
      const std::size_t at = batch.size();
      batch.resize(at + h.payload_bytes);
      f_.read_exactly(batch.data() + at, h.payload_bytes);
      bytes_read += h.payload_bytes;
      ChunkReader chunk(offset_);
      chunk.update(&h, sizeof h);
      chunk.update(batch.data() + at, h.payload_bytes);
      checksum_ += chunk.hash();
      offset_ += sizeof h + h.payload_bytes;
      runs.emplace_back(h, at);
    }
  }

  std::uint64_t offset() const { return offset_; }  // bytes of the file read so far
  std::uint64_t checksum() const { return checksum_; }

 private:
  DataFile& f_;
  std::string name_;
  std::uint64_t batch_bytes_;
  std::uint64_t offset_ = 0, checksum_ = 0;
  OffsetRunHeader pending_{};
  bool have_pending_ = false;
};

// Window by window of kApplyWindow keys, every run's offsets inside it: each run is sorted
// over the whole segment, so applying runs one after another would sweep all the segment's
// cells once per run. Returns the cells claimed with `code`.
inline std::uint64_t apply_runs(const std::vector<unsigned char>& batch, const RunBatch& runs, std::uint64_t keys,
                                TwoBitCells& cells, unsigned code, const std::string& name) {
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
  return claimed;
}

// The offsets sent to segment `t` (of `keys` keys) for `depth` claim its unseen cells with
// `code`. Returns the cells claimed. `between_batches` is called before each batch
// (heartbeats).
inline std::uint64_t apply_incoming(ExternalRun& run, int depth, std::uint64_t t, std::uint64_t keys, TwoBitCells& cells,
                                    unsigned code, const std::function<void()>& between_batches) {
  WorkDir& dir = run.dir;
  const FileRecord& record = run.manifest.incoming[t];
  if (record.length == 0) return 0;
  const std::string name = next_file(depth, t);
  DataFile f(dir.file(name), DataFile::Mode::read);
  if (f.size() != record.length)
    throw damaged_folder(name, std::to_string(f.size()) + " bytes, the records say " + std::to_string(record.length));
  const std::uint64_t batch_bytes = std::max<std::uint64_t>(run.layout.buffer_entries, ExternalLayout::kMinBufferEntries) *
                                    ExternalLayout::kEncodedBytesPerEntry;
  IncomingRuns reader(f, name, batch_bytes);
  std::vector<unsigned char> batch;
  RunBatch runs;
  std::uint64_t claimed = 0;
  for (bool more = true; more;) {
    throw_if_interrupted();
    between_batches();
    more = reader.read_batch(batch, runs, run.bytes_read);
    if (runs.empty()) break;
    claimed += apply_runs(batch, runs, keys, cells, code, name);
  }
  if (reader.offset() != record.length || reader.checksum() != record.checksum) throw damaged_folder(name, "checksum mismatch");
  return claimed;
}

}  // namespace searchbench::external
