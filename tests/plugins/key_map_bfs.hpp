// An engine that exists only in the test tree, to show that a new engine reaches every front
// end through its one line in an engine list (tests/plugins/engine_list.hpp): `keymap`, a
// breadth-first search that keeps each state's first path in a hash map by key. Moves are
// tried in order and the queue is first in, first out, so each first path is the
// lexicographically smallest shortest one. It declares one option, --reserve.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "core/concepts.hpp"
#include "core/declared_options.hpp"
#include "core/engine_capabilities.hpp"
#include "core/result.hpp"
#include "core/search_options.hpp"
#include "core/timer.hpp"

namespace searchbench::test_plugins {

struct KeyMapOptions {
  std::uint64_t reserve = 0;  // keys the map makes room for up front

  template <class V>
  void declare(V& v) {
    v(reserve, {.name = "reserve", .help = "keys the map makes room for before the search"});
  }
};

template <Puzzle P, Encoder<P> E>
class KeyMapBfs {
 public:
  using State = typename P::State;
  using Options = KeyMapOptions;
  static constexpr std::string_view kName = "keymap";
  static constexpr std::string_view kSummary = "test-only BFS keeping each state's first path in a hash map";
  static constexpr EngineCapabilities kCapabilities{.whole_space = true};

  KeyMapBfs(const P& puzzle, const E& enc, SearchOptions options = {}, KeyMapOptions settings = {})
      : puzzle_(puzzle), enc_(enc), options_(std::move(options)), settings_(settings) {}

  SearchResult explore(const State& start) {
    SearchResult r = run(start, nullptr, paths_);
    if (!options_.keep_table) paths_.clear();
    return r;
  }
  // Point query; leaves the table of an earlier explore() untouched.
  SearchResult search(const State& start, const State& target) {
    std::unordered_map<Key, std::string> paths;
    SearchResult r = run(start, &target, paths);
    r.depth_counts.clear();  // a point query covers part of the space
    return r;
  }
  std::uint64_t estimate_explore_bytes(const State& start) const { return puzzle_.component_size(start) * 64; }
  std::optional<std::string> path_to(const State& target) const {
    const auto it = paths_.find(enc_.encode(target));
    if (it == paths_.end()) return std::nullopt;
    return it->second;
  }

 private:
  SearchResult run(const State& start, const State* target, std::unordered_map<Key, std::string>& paths) {
    Timer timer;
    SearchResult r;
    paths.clear();
    paths.reserve(settings_.reserve);
    std::deque<std::pair<State, int>> queue{{start, 0}};
    paths.emplace(enc_.encode(start), std::string());
    r.depth_counts.push_back(1);
    State next;
    while (!queue.empty()) {
      const auto [s, depth] = queue.front();
      queue.pop_front();
      const std::string path = paths.at(enc_.encode(s));
      if (target && s == *target) {
        r.found = true;
        r.distance = depth;
        r.path = path;
        break;
      }
      if (options_.max_depth >= 0 && depth >= options_.max_depth) continue;
      ++r.expanded;
      for (int m = 0; m < puzzle_.move_count(); ++m) {
        if (!puzzle_.apply(s, m, next)) continue;
        ++r.generated;
        if (!paths.emplace(enc_.encode(next), path + puzzle_.move_name(m)).second) continue;
        if (static_cast<int>(r.depth_counts.size()) <= depth + 1) r.depth_counts.push_back(0);
        ++r.depth_counts[depth + 1];
        queue.emplace_back(next, depth + 1);
      }
    }
    r.peak_bytes = paths.size() * 64;
    r.seconds = timer.seconds();
    return r;
  }

  const P& puzzle_;
  const E& enc_;
  SearchOptions options_;
  KeyMapOptions settings_;
  std::unordered_map<Key, std::string> paths_;
};

}  // namespace searchbench::test_plugins
