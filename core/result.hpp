// The one result type every engine fills the same way, so engines compare on equal terms.
#pragma once

#include <cstdint>
#include <functional>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

namespace searchbench {

// What an out-of-core run (engine `external`) adds to its result.
struct OutOfCoreStats {
  std::string workdir;
  std::uint64_t segments = 0, segment_keys = 0;
  std::uint64_t bytes_written = 0, bytes_read = 0;  // by this run (a resumed one: since it resumed)
  std::uint64_t peak_disk_bytes = 0;                // largest work folder of a depth, cells plus successor lists
  int resumed_from = -1;                            // the first depth a resumed run still had to count; -1: a fresh run
};

struct SearchResult {
  // Point queries: true when the target was reached within the depth limit.
  bool found = false;
  int distance = -1;  // -1: unreachable or beyond the depth limit
  std::string path;   // lexicographically smallest shortest path (move letters)
  // Whole-space runs (and the levels a point query completed): states first reached at depth d.
  std::vector<std::uint64_t> depth_counts;
  // One entry per depth of depth_counts: seconds from the start of the run until the engine
  // had finished that depth (when its progress line is sent, see ProgressEvent); depth 0:
  // 0, except for `external`, whose depths end with their pass. Empty: an engine that does
  // not time its depths (point-query-only engines); nullopt: a depth this run did not count
  // (those a resumed external run found done).
  std::vector<std::optional<double>> depth_seconds;
  std::uint64_t expanded = 0;   // states whose moves were generated
  std::uint64_t generated = 0;  // successor states produced
  std::uint64_t peak_bytes = 0; // peak bytes held by the search structures
  double seconds = 0.0;
  int threads = 0;              // threads the run could actually use (parallel: its arena's); 0: not reported
  std::optional<OutOfCoreStats> out_of_core;
  // Distributed runs (engine mpi): the ranks that took part and the bytes they sent one
  // another; peak_bytes then sums all ranks. Only rank 0's result reports.
  int ranks = 1;
  std::uint64_t bytes_exchanged = 0;
  bool reporting = true;

  std::uint64_t states() const {
    return std::accumulate(depth_counts.begin(), depth_counts.end(), std::uint64_t{0});
  }
  int radius() const { return static_cast<int>(depth_counts.size()) - 1; }
};

// What an engine tells SearchOptions::progress. Two kinds:
// * depth_done: once per completed depth from 1 to the radius, in order. The level-
//   synchronous engines send depth d when expanding depth d-1 has finished (d's count is
//   final); `external` when the pass of depth d has counted and expanded it.
// * heartbeat: inside a depth that runs longer than SearchOptions::heartbeat_seconds, at
//   most once per that interval since the last event: `depth` is the depth under way,
//   `new_states` its states found so far, `detail` where the engine is ("segment 12/21").
// reached and expanded count from depth 0 on, in this run and those it resumed: states
// reached so far, and states whose successors have all been generated (for a level-
// synchronous engine at depth_done: every state but depth d's). Calls never overlap, but a
// heartbeat may come from a worker thread of the engine.
struct ProgressEvent {
  enum class Kind { depth_done, heartbeat };
  Kind kind = Kind::depth_done;
  int depth = 0;
  std::uint64_t new_states = 0;
  std::uint64_t reached = 0;
  std::uint64_t expanded = 0;
  double seconds = 0.0;  // since the run started
  std::string detail;    // heartbeats only
};
using ProgressFn = std::function<void(const ProgressEvent&)>;

// oneTBB names arena slots with 16-bit ids, so an arena of 65,535 slots or more corrupts its
// bookkeeping (a crash when the arena is torn down). Far below that, and far above any
// machine this suite runs on, 1024 is the most threads a run accepts.
inline constexpr int kMaxThreads = 1024;

struct SearchOptions {
  int threads = 1;                              // 1..kMaxThreads
  int max_depth = -1;                           // -1: unlimited
  std::uint64_t node_budget = 4'000'000'000ULL; // iddfs: nodes before it gives up
  bool keep_table = true;  // whole-space runs keep what later path queries need
  bool bottom_up = true;   // parallel: allow bottom-up levels when the frontier is large
  // parallel: a level runs bottom-up once its frontier outnumbers the unseen states by this
  // factor (1.0 chosen by timing whole runs; scripts/reproduce.sh measures the effect).
  double bottom_up_ratio = 1.0;
  // Bytes the search structures may hold (0: no limit). Point queries cannot know their
  // size up front, so engines check as they grow and throw BudgetError past it.
  std::uint64_t memory_limit = 0;
  // external: the folder of work files (empty: a temporary one, removed afterwards), whether
  // to continue the run recorded there, and the memory to stay within (0: 1 GiB).
  std::string workdir;
  bool resume = false;
  std::uint64_t max_memory = 0;
  std::uint64_t segment_keys = 0;  // external: keys per segment, a power of two (0: the largest that fits)
  // external: keys the first depths may hold in memory (sorted lists) before passes over the
  // segments take over; none: as many as the run's memory holds; 0: passes from depth 0.
  std::optional<std::uint64_t> seed_keys;
  ProgressFn progress;
  // Seconds a depth may run without a progress event before a heartbeat is sent (engines
  // parallel, ring, naive and external; 0: none).
  double heartbeat_seconds = 10.0;
};

}  // namespace searchbench
