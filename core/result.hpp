// The one result type every engine fills the same way, so engines compare on equal terms.
#pragma once

#include <cstdint>
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

// What a heuristic search (engines idastar, astar) adds to its result, kept as Fast Downward
// keeps it: the heuristic's build apart from the search.
struct HeuristicStats {
  std::string name;
  double build_seconds = 0.0;  // building it for this target (a database's BFS or load); 0 when reused
  std::uint64_t bytes = 0;     // what it holds in memory
  int initial = 0;             // its estimate at the start
  std::string note;            // how it was built ("loaded from ...", "built in-process", ...)
  bool reused = false;         // built earlier in this process for the same target
};
// One iteration of IDA*: its f bound and the nodes it expanded and generated.
struct IterationStats {
  int bound = 0;
  std::uint64_t expanded = 0, generated = 0;
  bool resumed = false;  // read back from idastar's checkpoint (--resume), searched by an earlier run
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
  std::optional<HeuristicStats> heuristic;  // heuristic searches only; seconds excludes its build
  std::vector<IterationStats> iterations;   // idastar: one per f bound tried
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

}  // namespace searchbench
