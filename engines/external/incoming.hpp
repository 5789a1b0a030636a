// The delayed duplicate detection of the external engine (engines/external_bfs.hpp): the
// successor offsets other segments sent segment t for this depth (its next- file, written
// by engines/external/router.hpp) claim the cells still unseen; the others were reached
// earlier and are left alone. Runs are read in batches of whole runs and applied in
// parallel, each run's bytes summed into the file's checksum as it is read; the sum must
// match the record before the segment's new cells can be saved, so a damaged file never
// changes a count that is kept.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <tbb/enumerable_thread_specific.h>
#include <tbb/task_arena.h>

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
// cells once per run. A window is applied in rounds of three steps: the runs are decoded in
// parallel, each thread into a buffer of its own of at most `round_offsets` offsets; each
// buffer is sorted by part of the window (kApplyParts of them, a counting sort); then each
// part is claimed by one thread with plain loads and stores. Claiming straight from the
// runs would have two threads setting bits in the same cache lines with locked
// instructions, and on two cores that traffic cost more than the decoding. A window takes
// another round while a run still holds offsets inside it (the buffers are full), so the
// buffers never outgrow their bound however the offsets cluster.
inline constexpr std::uint64_t kApplyParts = 64;
static_assert(kApplyWindow % (kApplyParts * TwoBitCells::kCellsPerWord) == 0, "a part holds whole words of cells");

// One thread's offsets of a round: as decoded, then grouped by part (part p's offsets at
// [starts[p], starts[p + 1]) of `by_part`). Kept across rounds so the memory is reused.
struct ApplyBuffer {
  std::vector<std::uint32_t> decoded, by_part;
  std::array<std::uint64_t, kApplyParts + 1> starts{};
};
using ApplyBuffers = tbb::enumerable_thread_specific<ApplyBuffer>;

inline std::uint64_t apply_runs(const std::vector<unsigned char>& batch, const RunBatch& runs, std::uint64_t keys,
                                TwoBitCells& cells, unsigned code, const std::string& name, ApplyBuffers& buffers,
                                std::uint64_t round_offsets) {
  constexpr std::uint64_t part_keys = kApplyWindow / kApplyParts;
  std::vector<OffsetRuns::Cursor> cursors;
  for (const auto& [h, at] : runs) cursors.emplace_back(h, batch.data() + at);
  std::atomic<std::uint64_t> claimed{0};
  std::atomic<bool> bad{false};
  std::vector<ApplyBuffer*> filled;
  for (std::uint64_t window = 0; window < keys; window += kApplyWindow) {
    const std::uint64_t end = std::min<std::uint64_t>(keys, window + kApplyWindow);
    for (bool again = true; again;) {
      std::atomic<bool> full{false};
      parallel_chunks(cursors.size(), 1, [&](std::uint64_t begin, std::uint64_t stop) {
        ApplyBuffer& mine = buffers.local();
        for (std::uint64_t r = begin; r != stop; ++r) {
          const std::uint64_t room = round_offsets - std::min(round_offsets, mine.decoded.size());
          if (!cursors[r].take_below(end, keys, [&](std::uint32_t key) { mine.decoded.push_back(key); }, room))
            bad.store(true, std::memory_order_relaxed);
          if (cursors[r].has_below(end)) full.store(true, std::memory_order_relaxed);
        }
      });
      if (bad) break;
      filled.clear();
      for (ApplyBuffer& b : buffers)
        if (!b.decoded.empty()) filled.push_back(&b);
      parallel_chunks(filled.size(), 1, [&](std::uint64_t begin, std::uint64_t stop) {
        for (std::uint64_t i = begin; i != stop; ++i) {
          ApplyBuffer& b = *filled[i];
          b.starts.fill(0);
          for (const std::uint32_t key : b.decoded) ++b.starts[(key - window) / part_keys + 1];
          for (std::uint64_t p = 0; p < kApplyParts; ++p) b.starts[p + 1] += b.starts[p];
          b.by_part.resize(b.decoded.size());
          std::array<std::uint64_t, kApplyParts> next;
          std::copy_n(b.starts.begin(), kApplyParts, next.begin());
          for (const std::uint32_t key : b.decoded) b.by_part[next[(key - window) / part_keys]++] = key;
          b.decoded.clear();
        }
      });
      parallel_chunks(kApplyParts, 1, [&](std::uint64_t begin, std::uint64_t stop) {
        std::uint64_t mine = 0;
        for (std::uint64_t p = begin; p != stop; ++p)
          for (const ApplyBuffer* b : filled)
            for (std::uint64_t i = b->starts[p]; i != b->starts[p + 1]; ++i) mine += cells.claim_owned(b->by_part[i], code);
        claimed.fetch_add(mine, std::memory_order_relaxed);
      });
      again = full.load(std::memory_order_relaxed);
    }
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
  // The threads' buffers of decoded offsets take two words of 4 bytes per offset, as much
  // memory in all as a batch read back (which the layout sets aside twice).
  ApplyBuffers buffers;
  const std::uint64_t threads = static_cast<std::uint64_t>(std::max(1, tbb::this_task_arena::max_concurrency()));
  const std::uint64_t round_offsets = std::max<std::uint64_t>(1024, batch_bytes / (8 * threads));
  std::uint64_t claimed = 0;
  for (bool more = true; more;) {
    throw_if_interrupted();
    between_batches();
    more = reader.read_batch(batch, runs, run.bytes_read);
    if (runs.empty()) break;
    claimed += apply_runs(batch, runs, keys, cells, code, name, buffers, round_offsets);
  }
  if (reader.offset() != record.length || reader.checksum() != record.checksum) throw damaged_folder(name, "checksum mismatch");
  return claimed;
}

}  // namespace searchbench::external
