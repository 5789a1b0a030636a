// The one result type every engine fills the same way, so engines compare on equal terms.
#pragma once

#include <cstdint>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace searchbench {

// A figure an engine adds to its result beyond those every engine fills (an out-of-core
// run's bytes written, a distributed run's ranks). The front ends write whatever a result
// carries under the name the engine gives it, so they need to know no engine.
using ResultValue = std::variant<bool, std::int64_t, std::uint64_t, double, std::string>;
struct ResultExtra {
  std::string name;
  ResultValue value;
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
  std::optional<HeuristicStats> heuristic;  // heuristic searches only; seconds excludes its build
  std::vector<IterationStats> iterations;   // idastar: one per f bound tried
  // The engine's own figures, in the order it added them (see ResultExtra).
  std::vector<ResultExtra> extras;
  // False in a distributed run's ranks other than 0: only rank 0's result is printed.
  bool reporting = true;

  std::uint64_t states() const {
    return std::accumulate(depth_counts.begin(), depth_counts.end(), std::uint64_t{0});
  }
  int radius() const { return static_cast<int>(depth_counts.size()) - 1; }
  void add_extra(std::string name, ResultValue value) { extras.push_back({std::move(name), std::move(value)}); }
  // The engine's figure `name` as a T; throws std::logic_error when it has none of that type.
  template <class T>
  const T& extra(std::string_view name) const {
    for (const auto& e : extras)
      if (e.name == name && std::holds_alternative<T>(e.value)) return std::get<T>(e.value);
    throw std::logic_error("the result has no figure '" + std::string(name) + "' of the type asked for");
  }
};

}  // namespace searchbench
