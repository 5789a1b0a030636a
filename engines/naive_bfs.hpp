// Engine `naive`: the textbook breadth-first search, kept as the yardstick.
//
// This is the first solution most people write: a std::queue of whole states, each
// carrying its own std::string path, and a std::set of visited states. No encoder, no
// table, no packing: every benchmark states how many times faster the other techniques
// are than this. Because moves are tried in order and first discovery wins, its paths are
// also the lexicographically smallest shortest paths, which makes it a handy oracle.
// explore() keeps a std::map from every state to its path (the textbook way to answer
// many queries from one start).
#pragma once

#include <map>
#include <optional>
#include <queue>
#include <set>
#include <string>
#include <utility>

#include "core/concepts.hpp"
#include "core/declared_options.hpp"
#include "core/engine_capabilities.hpp"
#include "core/progress_reporter.hpp"
#include "core/result.hpp"
#include "core/search_options.hpp"
#include "core/timer.hpp"

namespace searchbench {

// The second parameter only gives the engine the shape of the others (puzzle, encoder);
// naive keeps whole states and never uses an encoder.
template <Puzzle P, class UnusedEncoder = void>
class NaiveBfs {
 public:
  using State = typename P::State;
  static constexpr std::string_view kName = "naive";
  static constexpr std::string_view kSummary = "textbook BFS: std::queue of states with string paths, std::set visited";
  static constexpr EngineCapabilities kCapabilities{.whole_space = true};
  using Options = NoOptions;

  explicit NaiveBfs(const P& puzzle, SearchOptions options = {}) : puzzle_(puzzle), options_(std::move(options)) {}

  SearchResult explore(const State& start) {
    paths_.clear();
    return run(start, nullptr);
  }
  SearchResult search(const State& start, const State& target) {
    if (!puzzle_.same_component(start, target)) return SearchResult{};
    return run(start, &target);
  }
  // Bytes explore() will need: set and map nodes, queue entries and one path per state.
  std::uint64_t estimate_explore_bytes(const State& start) const {
    return puzzle_.component_size(start) * (2 * sizeof(State) + 8 * sizeof(void*) + 2 * sizeof(std::string) + 16);
  }
  std::optional<std::string> path_to(const State& target) const {
    auto it = paths_.find(target);
    if (it == paths_.end()) return std::nullopt;
    return it->second;
  }

 private:
  // Depths as the other engines report them: once per completed depth from 1 on, timed.
  void report_until(SearchResult& result, int depth, ProgressReporter& progress) {
    for (; reported_ < depth; ++reported_) {
      const double now = progress.seconds();
      result.depth_seconds.push_back(now);
      reached_ += result.depth_counts[reported_ + 1];
      progress.depth_done(reported_ + 1, result.depth_counts[reported_ + 1], reached_, result.expanded, now);
    }
  }

  SearchResult run(const State& start, const State* target) {
    Timer timer;
    ProgressReporter progress(options_, timer);
    reported_ = 0;
    reached_ = 1;
    SearchResult result;
    result.depth_seconds.push_back(0.0);
    std::queue<std::pair<State, std::string>> queue;
    std::set<State> visited;
    const bool keep = target == nullptr && options_.keep_table;
    queue.emplace(start, std::string());
    visited.insert(start);
    if (keep) paths_.emplace(start, std::string());
    result.depth_counts.push_back(1);
    std::uint64_t peak_queue = 1, pops = 0;
    if (target && *target == start) {
      result.found = true;
      result.distance = 0;
    }
    while (!queue.empty() && !result.found) {
      auto [state, path] = std::move(queue.front());
      queue.pop();
      const int depth = static_cast<int>(path.size());
      if ((++pops & 4095) == 0 && progress.heartbeat_due())
        progress.heartbeat(depth + 1, result.radius() > depth ? result.depth_counts[depth + 1] : 0, visited.size(), result.expanded,
                           std::to_string(queue.size()) + " states queued");
      if (options_.max_depth >= 0 && depth >= options_.max_depth) continue;
      ++result.expanded;
      for (int m = 0; m < puzzle_.move_count(); ++m) {
        State next;
        if (!puzzle_.apply(state, m, next)) continue;
        ++result.generated;
        if (!visited.insert(next).second) continue;
        std::string next_path = path + puzzle_.move_name(m);
        if (static_cast<int>(result.depth_counts.size()) <= depth + 1) {
          // The first state at depth+1: every state at depth is counted by now.
          report_until(result, depth, progress);
          result.depth_counts.push_back(0);
        }
        ++result.depth_counts[depth + 1];
        if (keep) paths_.emplace(next, next_path);
        if (target && next == *target) {
          result.found = true;
          result.distance = depth + 1;
          result.path = next_path;
          break;
        }
        queue.emplace(next, std::move(next_path));
      }
      peak_queue = std::max<std::uint64_t>(peak_queue, queue.size());
    }
    report_until(result, result.radius(), progress);
    // Estimated heap use: set nodes, queue entries, stored paths (tree nodes + strings).
    const std::uint64_t node = sizeof(State) + 4 * sizeof(void*);
    result.peak_bytes = visited.size() * node + peak_queue * (sizeof(State) + sizeof(std::string)) +
                        paths_.size() * (node + sizeof(std::string));
    result.seconds = timer.seconds();
    return result;
  }

  const P& puzzle_;
  SearchOptions options_;
  std::map<State, std::string> paths_;
  int reported_ = 0;          // depths reported in the current run
  std::uint64_t reached_ = 1;  // states of those depths
};

}  // namespace searchbench
