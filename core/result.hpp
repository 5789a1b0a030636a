// The one result type every engine fills the same way, so engines compare on equal terms.
#pragma once

#include <cstdint>
#include <functional>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

namespace searchbench {

struct SearchResult {
  // Point queries: true when the target was reached within the depth limit.
  bool found = false;
  int distance = -1;  // -1: unreachable or beyond the depth limit
  std::string path;   // lexicographically smallest shortest path (move letters)
  // Whole-space runs (and the levels a point query completed): states first reached at depth d.
  std::vector<std::uint64_t> depth_counts;
  std::uint64_t expanded = 0;   // states whose moves were generated
  std::uint64_t generated = 0;  // successor states produced
  std::uint64_t peak_bytes = 0; // peak bytes held by the search structures
  double seconds = 0.0;

  std::uint64_t states() const {
    return std::accumulate(depth_counts.begin(), depth_counts.end(), std::uint64_t{0});
  }
  int radius() const { return static_cast<int>(depth_counts.size()) - 1; }
};

// Called once per completed depth: (depth, states new at that depth, seconds so far).
using ProgressFn = std::function<void(int, std::uint64_t, double)>;

struct SearchOptions {
  int threads = 1;
  int max_depth = -1;                           // -1: unlimited
  std::uint64_t node_budget = 4'000'000'000ULL; // iddfs: nodes before it gives up
  bool keep_table = true;  // whole-space runs keep what later path queries need
  bool bottom_up = true;   // parallel: allow bottom-up levels when the frontier is large
  // parallel: a level runs bottom-up once its frontier outnumbers the unseen states by this
  // factor (1.0 chosen by timing whole runs; scripts/reproduce.sh measures the effect).
  double bottom_up_ratio = 1.0;
  ProgressFn progress;
};

}  // namespace searchbench
