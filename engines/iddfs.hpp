// Engine `iddfs`: iterative-deepening depth-first search for point queries.
//
// * Depth-limited DFS with limit L = 0, 1, 2, ... up to max_depth: the first limit that
//   finds the target is the distance, and because moves are tried in lexicographic order
//   (A, B, C / a, b, c, d) the first solution found is the lexicographically smallest.
// * Pruning derived from the puzzle, never from a puzzle's name: a move right after its
//   inverse (p.inverse_move), and a move repeated up to its order (p.move_order: A twice
//   and C four times on the magic board) can never lie on a shortest path.
// * Transposition table keyed by the encoder: the smallest depth at which each state was
//   met in this iteration. Meeting it again no shallower proves the subtree holds no
//   solution (the earlier visit had at least as many moves left and found none), so it is
//   cut. This turns the b^L tree into roughly (states within L) x moves per iteration.
//   Memory is one byte per state met, far below a BFS's queue plus table at large depths;
//   it is checked against the memory limit every 4096 nodes (status 3 past it).
// * A node budget (checked at every node) and the time limit (every 4096 nodes, with the
//   progress heartbeats) stop hopeless queries with a clear message instead of running for
//   hours.
#pragma once

#include <string>

#include "core/byte_table.hpp"
#include "core/concepts.hpp"
#include "core/declared_options.hpp"
#include "core/engine_capabilities.hpp"
#include "core/errors.hpp"
#include "core/progress_reporter.hpp"
#include "core/result.hpp"
#include "core/search_options.hpp"
#include "core/timer.hpp"

namespace searchbench {

struct IddfsOptions {
  std::uint64_t node_budget = 4'000'000'000ULL;  // nodes before the query gives up

  template <class V>
  void declare(V& v) {
    v(node_budget, {.name = "node-budget", .help = "nodes to expand before giving up"});
  }
};

template <Puzzle P, Encoder<P> E>
class Iddfs {
 public:
  static constexpr std::string_view kName = "iddfs";
  static constexpr std::string_view kSummary = "iterative deepening DFS with move pruning and a transposition table";
  static constexpr EngineCapabilities kCapabilities{};
  using State = typename P::State;

  using Options = IddfsOptions;

  Iddfs(const P& puzzle, const E& enc, SearchOptions options = {}, IddfsOptions settings = {})
      : puzzle_(puzzle), enc_(enc), options_(std::move(options)), settings_(settings) {}

  SearchResult search(const State& start, const State& target) {
    Timer timer;
    ProgressReporter progress(options_, timer);
    SearchResult result;
    if (!puzzle_.same_component(start, target)) return result;
    target_key_ = enc_.encode(target);
    const int limit_max = options_.max_depth >= 0 ? options_.max_depth : ByteTable::kEmpty - 1;
    ByteTable seen(enc_.dense(), enc_.key_bound(), 4096, ByteTable::Start::hashed_until_large);
    seen_ = &seen;
    nodes_ = 0;
    for (int limit = 0; limit <= limit_max; ++limit) {
      seen.clear();
      limit_ = limit;
      path_.clear();
      if (dfs(start, 0, -1, 0, progress)) {
        result.found = true;
        result.distance = limit;
        result.path = path_;
        break;
      }
      if (!grew_) break;  // the whole component lies within this limit: unreachable
      progress.nodes(true, limit, nodes_, generated_, seen.bytes(), "depth limit " + std::to_string(limit) + " done");
    }
    result.expanded = nodes_;
    result.generated = generated_;
    result.peak_bytes = seen.bytes();
    result.seconds = timer.seconds();
    return result;
  }

 private:
  // `run` = how many times `last` was just repeated.
  bool dfs(const State& state, int depth, int last, int run, ProgressReporter& progress) {
    if (depth == 0) grew_ = false;
    const Key key = enc_.encode(state);
    if (depth == limit_) {
      grew_ = grew_ || seen_->get(key) == ByteTable::kEmpty;
      return key == target_key_;
    }
    const std::uint8_t before = seen_->get(key);
    if (before != ByteTable::kEmpty && before <= depth) return false;
    seen_->set(key, static_cast<std::uint8_t>(depth));
    if ((nodes_ & 4095) == 0) {  // every 4096 nodes: the memory limit, the time limit, a heartbeat
      options_.memory.enforce(seen_->bytes(), "this iddfs search");
      if (progress.heartbeat_due())
        progress.nodes(false, limit_, nodes_, generated_, seen_->bytes(), "depth limit " + std::to_string(limit_) + " in progress");
    }
    if (++nodes_ > settings_.node_budget)
      throw BudgetError("iddfs: node budget of " + std::to_string(settings_.node_budget) +
                        " nodes exhausted at depth limit " + std::to_string(limit_) +
                        " (raise --node-budget or use bidir)");
    State next;
    for (int m = 0; m < puzzle_.move_count(); ++m) {
      if (last >= 0 && puzzle_.inverse_move(last) == m) continue;
      const int next_run = m == last ? run + 1 : 1;
      const int order = puzzle_.move_order(m);
      if (order > 0 && next_run >= order) continue;
      if (!puzzle_.apply(state, m, next)) continue;
      ++generated_;
      path_.push_back(puzzle_.move_name(m));
      if (dfs(next, depth + 1, m, next_run, progress)) return true;
      path_.pop_back();
    }
    return false;
  }

  const P& puzzle_;
  const E& enc_;
  SearchOptions options_;
  IddfsOptions settings_;
  ByteTable* seen_ = nullptr;
  Key target_key_ = 0;
  int limit_ = 0;
  bool grew_ = false;
  std::uint64_t nodes_ = 0, generated_ = 0;
  std::string path_;
};

}  // namespace searchbench
