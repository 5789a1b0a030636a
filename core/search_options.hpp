// What a caller asks of a search (SearchOptions) and what an engine tells it as the search
// goes (ProgressEvent).
#pragma once

#include <cstdint>
#include <functional>
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

// What every engine is asked; an engine's own options (the parallel engine's bottom-up
// ratio, the out-of-core engine's folder) are its declared Options struct
// (core/declared_options.hpp), not fields here. tests/test_source_shape.py checks that
// every field below is read somewhere outside this file.
struct SearchOptions {
  int threads = 1;          // 1..kMaxThreads
  int max_depth = -1;       // -1: unlimited
  bool keep_table = true;   // whole-space runs keep what later path queries need
  // What the search structures may hold (core/memory_budget.hpp; default: no limit).
  MemoryBudget memory;
  ProgressFn progress;
  // Seconds a depth may run without a progress event before a heartbeat is sent (0: none).
  double heartbeat_seconds = 10.0;
  // Past this moment the search stops with TimeLimitReached (core/progress_reporter.hpp).
  Deadline deadline;
};

}  // namespace searchbench
