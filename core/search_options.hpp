// What a caller asks of a search (SearchOptions) and what an engine tells it as the search
// goes (ProgressEvent).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "core/deadline.hpp"
#include "core/memory_budget.hpp"

namespace searchbench {

// What an engine tells SearchOptions::progress. Three kinds:
// * depth_done: once per completed depth from 1 to the radius, in order. The level-
//   synchronous engines send depth d when expanding depth d-1 has finished (d's count is
//   final); `external` when the pass of depth d has counted and expanded it.
// * heartbeat: inside a depth that runs longer than SearchOptions::heartbeat_seconds, at
//   most once per that interval since the last event: `depth` is the depth under way,
//   `new_states` its states found so far, `detail` where the engine is ("segment 12/21").
// * nodes: a point query's node counts (idastar, astar, iddfs, bidir), as each bound or
//   level ends ("f bound 52 done") and as heartbeats inside it ("f bound 53 in progress"):
//   `depth` is the bound, f value or depth under way, `detail` says which, `generated` and
//   `held_bytes` (what its tables and lists hold) come with it; `reached` is 0.
// reached and expanded count from depth 0 on, in this run and those it resumed: states
// reached so far, and states whose successors have all been generated (for a level-
// synchronous engine at depth_done: every state but depth d's). Calls never overlap, but a
// heartbeat may come from a worker thread of the engine.
struct ProgressEvent {
  enum class Kind { depth_done, heartbeat, nodes };
  Kind kind = Kind::depth_done;
  int depth = 0;
  std::uint64_t new_states = 0;
  std::uint64_t reached = 0;
  std::uint64_t expanded = 0;
  double seconds = 0.0;  // since the run started
  std::string detail;    // heartbeats and nodes only
  std::uint64_t generated = 0, held_bytes = 0;  // nodes only
};
using ProgressFn = std::function<void(const ProgressEvent&)>;

// oneTBB names arena slots with 16-bit ids, so an arena of 65,535 slots or more corrupts its
// bookkeeping (a crash when the arena is torn down). Far below that, and far above any
// machine this suite runs on, 1024 is the most threads a run accepts.
inline constexpr int kMaxThreads = 1024;

struct SearchOptions {
  int threads = 1;                              // 1..kMaxThreads
  int max_depth = -1;                           // -1: unlimited
  bool keep_table = true;  // whole-space runs keep what later path queries need
  bool bottom_up = true;   // parallel: allow bottom-up levels when the frontier is large
  // parallel: a level runs bottom-up once its frontier outnumbers the unseen states by this
  // factor (1.0 chosen by timing whole runs; scripts/reproduce.sh measures the effect).
  double bottom_up_ratio = 1.0;
  // What the search structures may hold (core/memory_budget.hpp; default: no limit).
  MemoryBudget memory;
  // external: the folder of work files (empty: a temporary one, removed afterwards) and
  // whether to continue the run recorded there.
  std::string workdir;
  bool resume = false;
  std::uint64_t segment_keys = 0;  // external: keys per segment, a power of two (0: the largest that fits)
  // external: keys the first depths may hold in memory (sorted lists) before passes over the
  // segments take over; none: as many as the run's memory holds; 0: passes from depth 0.
  std::optional<std::uint64_t> seed_keys;
  ProgressFn progress;
  // Seconds a depth may run without a progress event before a heartbeat is sent (0: none).
  double heartbeat_seconds = 10.0;
  // Past this moment the search stops with TimeLimitReached (core/progress_reporter.hpp).
  Deadline deadline;
};

}  // namespace searchbench
