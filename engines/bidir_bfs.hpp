// Engine `bidir`: bidirectional breadth-first search for point-to-point queries.
//
// * Two searches, one from the start along the moves and one from the target along the
//   inverse moves (apply_inverse), each storing the exact depth of every state it reached.
// * Each round grows whichever frontier is smaller by one whole level, so the work is
//   about twice b^(D/2) instead of b^D.
// * Stopping rule that proves optimality: after a level of one side, if any new state is
//   known to the other side, D = (this side's radius) + min(other side's depth over those
//   states). Every shorter path would have met in an earlier round.
// * Lexicographically smallest path: with rF the forward radius, every shortest path
//   passes a state x with depth_f(x) = rF and depth_b(x) = D - rF. The path's first rF
//   moves follow the backward layers from that meeting set through the forward depths,
//   the rest follows the backward depths down to 0 (core/lex_path.hpp, greedy in move
//   order at every step).
// Depth tables are hash maps that move into direct arrays when they grow (core/byte_table.hpp).
// Every 4096 expansions the memory they hold is checked against the limit, the time limit
// is, and a progress heartbeat may go out; one progress line per level.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "core/byte_table.hpp"
#include "core/concepts.hpp"
#include "core/declared_options.hpp"
#include "core/engine_capabilities.hpp"
#include "core/errors.hpp"
#include "core/lex_path.hpp"
#include "core/memory_budget.hpp"
#include "core/progress_reporter.hpp"
#include "core/result.hpp"
#include "core/search_options.hpp"
#include "core/timer.hpp"

namespace searchbench {

template <Puzzle P, Encoder<P> E>
class BidirBfs {
 public:
  static constexpr std::string_view kName = "bidir";
  static constexpr std::string_view kSummary = "bidirectional BFS for point queries";
  static constexpr EngineCapabilities kCapabilities{};
  using Options = NoOptions;
  using State = typename P::State;

  BidirBfs(const P& puzzle, const E& enc, SearchOptions options = {})
      : puzzle_(puzzle), enc_(enc), options_(std::move(options)) {}

  SearchResult search(const State& start, const State& target) {
    Timer timer;
    ProgressReporter progress(options_, timer);
    SearchResult result;
    if (!puzzle_.same_component(start, target)) return result;
    const Key start_key = enc_.encode(start), target_key = enc_.encode(target);
    if (start_key == target_key) {
      result.found = true;
      result.distance = 0;
      result.depth_counts = {1};
      return result;
    }
    ByteTable fwd(enc_.dense(), enc_.key_bound(), 1024, ByteTable::Start::hashed_until_large);
    ByteTable bwd(enc_.dense(), enc_.key_bound(), 1024, ByteTable::Start::hashed_until_large);
    fwd.insert(start_key, 0);
    bwd.insert(target_key, 0);
    std::vector<Key> front_f{start_key}, front_b{target_key}, next;
    int radius_f = 0, radius_b = 0, distance = -1;
    std::uint64_t peak_frontiers = 2;
    const auto held = [&] { return fwd.bytes() + bwd.bytes() + (front_f.size() + front_b.size() + next.size()) * sizeof(Key); };
    const auto where = [&](int f, int b) { return "depths " + std::to_string(f) + "+" + std::to_string(b); };

    while (!front_f.empty() && !front_b.empty()) {
      if (options_.max_depth >= 0 && radius_f + radius_b >= options_.max_depth) break;
      const bool forward = front_f.size() <= front_b.size();
      auto& mine = forward ? fwd : bwd;
      auto& other = forward ? bwd : fwd;
      auto& front = forward ? front_f : front_b;
      int& radius = forward ? radius_f : radius_b;
      if (radius + 1 >= ByteTable::kEmpty - 1) throw BudgetError("bidir: depth exceeds 253 on one side");
      next.clear();
      int best_other = -1;
      State state, succ;
      for (Key k : front) {
        state = enc_.decode(k);
        if ((++result.expanded & 4095) == 0) {  // inside a wide level: the memory limit, the time limit, a heartbeat
          options_.memory.enforce(held(), "this bidirectional search");
          if (progress.heartbeat_due())
            progress.nodes(false, radius_f + radius_b + 1, result.expanded, result.generated, held(),
                           where(radius_f + (forward ? 1 : 0), radius_b + (forward ? 0 : 1)) + " in progress");
        }
        for (int m = 0; m < puzzle_.move_count(); ++m) {
          const bool ok = forward ? puzzle_.apply(state, m, succ) : puzzle_.apply_inverse(state, m, succ);
          if (!ok) continue;
          ++result.generated;
          const Key sk = enc_.encode(succ);
          if (!mine.insert(sk, static_cast<std::uint8_t>(radius + 1))) continue;
          next.push_back(sk);
          const std::uint8_t there = other.get(sk);
          if (there != ByteTable::kEmpty && (best_other < 0 || there < best_other)) best_other = there;
        }
      }
      ++radius;
      front.swap(next);
      peak_frontiers = std::max<std::uint64_t>(peak_frontiers, front_f.size() + front_b.size() + next.size());
      options_.memory.enforce(fwd.bytes() + bwd.bytes() + peak_frontiers * sizeof(Key),
                           "this bidirectional search");
      progress.nodes(true, radius_f + radius_b, result.expanded, result.generated, held(), where(radius_f, radius_b) + " done");
      if (best_other >= 0) {
        distance = radius + best_other;
        break;
      }
    }
    result.peak_bytes = fwd.bytes() + bwd.bytes() + peak_frontiers * sizeof(Key);
    if (distance >= 0 && (options_.max_depth < 0 || distance <= options_.max_depth)) {
      result.found = true;
      result.distance = distance;
      result.path = smallest_path(start, distance, radius_f, front_f, fwd, bwd);
    }
    result.seconds = timer.seconds();
    return result;
  }

 private:
  // The lexicographically smallest path of `distance` moves, from the forward frontier at
  // depth `split` and both depth tables.
  std::string smallest_path(const State& start, int distance, int split, const std::vector<Key>& front_f, const ByteTable& fwd,
                            const ByteTable& bwd) const {
    // Meeting set: forward frontier states at the split that the backward side reached
    // at exactly the remaining distance.
    KeyLayer meeting;
    for (Key k : front_f)
      if (bwd.get(k) == distance - split) meeting.insert(k);
    auto layers = backward_layers(puzzle_, enc_, std::move(meeting), split, [&](Key k, int d) { return fwd.get(k) == d; });
    return greedy_forward(puzzle_, enc_, start, distance, [&](Key k, int step) {
      return step <= split ? layers[step].contains(k) : bwd.get(k) == distance - step;
    });
  }

  const P& puzzle_;
  const E& enc_;
  SearchOptions options_;
};

}  // namespace searchbench
