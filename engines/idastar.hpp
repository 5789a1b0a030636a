// Engine `idastar`: iterative-deepening A* (Korf 1985) for point queries, serial or in
// parallel on oneTBB.
//
// * Depth-first search with a bound on f = g + h: a child whose f exceeds the bound is cut,
//   and the smallest f that was cut is the next iteration's bound. With an admissible
//   heuristic the first bound at which the target is met is its distance. No memory beyond
//   the path: whole states, no encoder.
// * The answer is the lexicographically smallest shortest path, as every engine's: moves are
//   tried in letter order, and every prefix of a shortest path has f <= the distance (h
//   never overestimates), so the first solution the last iteration meets in depth-first
//   order is the smallest one.
// * Pruning from the puzzle, never from its name: a move right after its inverse, and a move
//   repeated up to its order (the magic board's A twice), cannot lie on a shortest path.
// * The heuristic is asked once per generated child, through estimate_after where it keeps
//   its value incrementally (a tile's Manhattan distance changes by one move's worth), through
//   estimate_child where it carries per-node data down each dive (NodeCache: the pattern
//   databases' per-pattern entries, of which a move changes one), or through children_within
//   before the child is made, so a child beyond the bound never is.
// * A node whose f equals the bound can reach the target within it only by moves that each
//   lower h by one. Where the heuristic decides that faster than this search would
//   (complete_tight: the pancake gap's, from both ends of the path), the node is handed to
//   it whole, and its answer is this search's: the same smallest path, or none. Where it
//   answers many at once (first_completion), such nodes are queued in depth-first order and
//   asked together, before any later solution is taken.
// * In parallel, each iteration first lists the nodes at a split depth (every node whose
//   f fits the bound, in depth-first order, which is the lexicographic order of their
//   paths), and the threads take them one at a time, in order, and search below each. The
//   solution is the one of the first listed node that has one: a thread stops early only
//   once an earlier node has a solution, so the answer, its path and every iteration's
//   bound are the same at every thread count. Node counts are not: in the last iteration
//   later subtrees stop at different points, and where the heuristic completes nodes whose
//   f is the bound, the listing steps through the top of such a node's tree move by move,
//   where one thread hands it to the completion.
// * The threads stay together for the whole query (core/helper_team.hpp), the helpers
//   spinning between splits: on Korf's 100 with large databases an iteration is a few
//   hundred microseconds, and a thread woken for each one joined after the work was done.
//   An iteration after one too small to repay its listing runs on one thread until it
//   proves large; see kSplitWorthy.
// * Statistics as Fast Downward keeps them: per iteration its bound and the nodes expanded
//   and generated. The node budget, the time limit and the progress heartbeats go by the
//   query's totals as they grow (core/node_meter.hpp), every few thousand nodes per thread;
//   one line per bound as it ends. The one-node-per-depth dive is engines/idastar/dive.hpp.
// * An unreachable target is answered, distance -1: where the puzzle tells the two apart
//   (same_component), at once; else once the bound passes the component's size less one,
//   which no shortest path exceeds.
#pragma once

#include <algorithm>
#include <atomic>
#include <climits>
#include <exception>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <tbb/task_arena.h>

#include "core/concepts.hpp"
#include "core/declared_options.hpp"
#include "core/engine_capabilities.hpp"
#include "core/errors.hpp"
#include "core/heuristic.hpp"
#include "core/helper_team.hpp"
#include "core/node_meter.hpp"
#include "core/progress_reporter.hpp"
#include "core/result.hpp"
#include "core/search_options.hpp"
#include "core/thread_arena.hpp"
#include "core/timer.hpp"
#include "core/work_dir.hpp"
#include "engines/idastar/checkpoint.hpp"
#include "engines/idastar/dive.hpp"
#include "engines/idastar/split.hpp"

namespace searchbench {

struct IdaStarOptions {
  std::uint64_t node_budget = 100'000'000'000ULL;  // nodes expanded before the query gives up
  std::string workdir;  // empty: no checkpoint
  bool resume = false;

  template <class V>
  void declare(V& v) {
    v(node_budget, {.name = "node-budget", .help = "nodes to expand before giving up (the query's total, resumed runs' included)"});
    v(workdir, {.name = "workdir",
                .help = "folder for a checkpoint saved after each f bound (engines/idastar/checkpoint.hpp), locked while a "
                        "run uses it; with more than one run (--repetitions, --warmup) each gets a fresh subfolder",
                .default_text = "none: no checkpoint",
                .folder_per_run = true});
    v(resume, {.name = "resume",
               .help = "continue the query checkpointed in --workdir from its next f bound; a damaged or foreign "
                       "checkpoint, or one of another query, is refused",
               .one_run_only = true});
  }
  void check() const {
    if (resume && workdir.empty()) throw InputError("--resume needs the --workdir of the run to continue");
  }
};

template <Puzzle P, class UnusedEncoder = void>
class IdaStar {
 public:
  static constexpr std::string_view kName = "idastar";
  static constexpr std::string_view kSummary = "iterative-deepening A*: depth-first under an f bound, parallel by subtrees";
  static constexpr EngineCapabilities kCapabilities{.threaded = true, .uses_heuristic = true};
  using State = typename P::State;
  using Options = IdaStarOptions;

  IdaStar(const P& puzzle, SearchOptions options = {}, IdaStarOptions settings = {})
      : puzzle_(puzzle), options_(std::move(options)), settings_(settings) {}

  template <Heuristic<P> H>
  SearchResult search(const State& start, const State& target, const H& heuristic) {
    Timer timer;
    ProgressReporter progress(options_, timer);
    SearchResult result;
    result.threads = 1;
    if (!puzzle_.same_component(start, target)) return finish(result, timer);
    const int h0 = heuristic.estimate(start);
    const int limit = options_.max_depth >= 0 ? options_.max_depth : INT_MAX - 1;
    const std::uint64_t component = puzzle_.component_size(start);
    const int threads = runnable_threads(options_.threads);
    NodeMeter meter(progress, "idastar", "raise --node-budget or use a stronger --heuristic", settings_.node_budget);
    int bound = h0;
    std::optional<WorkDir> folder;
    IdaCheckpoint checkpoint;
    if (!settings_.workdir.empty()) {
      folder.emplace(settings_.workdir, !settings_.resume);
      checkpoint.query = puzzle_.name() + " from " + puzzle_.format(start) + " to " + puzzle_.format(target);
      if (settings_.resume) {
        checkpoint = IdaCheckpoint::load(*folder, checkpoint.query);
        bound = std::max(bound, checkpoint.next_bound);
        result.iterations = checkpoint.iterations;
        for (const IterationStats& it : result.iterations) {
          result.expanded += it.expanded;
          result.generated += it.generated;
        }
      } else {
        IdaCheckpoint::refuse_existing(*folder);
      }
    }
    // In parallel the whole query runs in one team (core/helper_team.hpp): the helpers wait
    // for each split's subtrees spinning, not asleep.
    const IdaSplit<P> split(puzzle_);
    typename IdaSplit<P>::Team team;
    auto iterate = [&] {
      for (; bound <= limit;) {
        meter.start(bound, "f bound " + std::to_string(bound), result.expanded, result.generated, held_bytes(bound, threads));
        Iteration it = one_iteration(start, target, heuristic, bound, threads, result.iterations, meter, split, team);
        result.iterations.push_back({bound, it.expanded, it.generated});
        result.expanded += it.expanded;
        result.generated += it.generated;
        meter.throw_if_stopped(result.expanded);
        if (it.found) {
          result.found = true;
          result.path = std::move(it.path);
          result.distance = static_cast<int>(result.path.size());
          break;
        }
        if (it.next_bound == INT_MAX) break;  // nothing was cut: the target is not reachable
        // No shortest path is longer than the component's states less one: past that, unreachable.
        if (static_cast<std::uint64_t>(it.next_bound) >= component) break;
        if (result.expanded > settings_.node_budget) meter.throw_out_of_budget(result.expanded, "f bound " + std::to_string(it.next_bound));
        progress.nodes(true, bound, result.expanded, result.generated, held_bytes(bound, threads),
                       "f bound " + std::to_string(bound) + " done");
        bound = it.next_bound;
        if (folder) {
          checkpoint.next_bound = bound;
          checkpoint.iterations = result.iterations;
          checkpoint.save(*folder);
        }
      }
    };
    if (threads == 1) {
      iterate();
    } else {
      tbb::task_arena arena(threads);
      run_with_helpers(arena, threads, iterate, [&](const std::atomic<bool>& done) {
        team.help(done, [&](typename IdaSplit<P>::Job& job) { split.work_on(job, heuristic, target, meter); });
      });
    }
    result.threads = threads;
    return finish(result, timer);
  }

 private:
  using Iteration = IdaIteration;

  template <class H, class Stop>
  IdaDive<P, H, Stop> dive(const H& heuristic, const State& target, int bound, Stop stop, NodeMeter& meter) const {
    return IdaDive<P, H, Stop>{puzzle_, heuristic, target, bound, stop, meter};
  }

  // An iteration after one of this many nodes expanded is split from its start: the next
  // is several times larger (the 15-puzzle's grow about fivefold), so its listing (the time
  // of a few hundred nodes) is repaid, where starting alone and splitting past
  // kSerialProbe would search the probe's nodes twice.
  static constexpr std::uint64_t kSplitWorthy = 128;
  // Else it runs on one thread up to this many nodes expanded: the soonest a dive looks.
  static constexpr std::uint64_t kSerialProbe = kIdaStopCheckEvery;

  // One iteration under `bound`, after those `before` (its statistics). One too small to
  // pay for the split's listing runs on this thread: after a small one, and the first, of
  // which nothing is known, it starts so and is handed to the split once it passes
  // kSerialProbe nodes (the nodes it spent count: work done). With a strong heuristic (the
  // pancake gap) the first is often the whole search.
  template <class H>
  Iteration one_iteration(const State& start, const State& target, const H& heuristic, int bound, int threads,
                          const std::vector<IterationStats>& before, NodeMeter& meter, const IdaSplit<P>& split,
                          typename IdaSplit<P>::Team& team) const {
    Iteration it;
    const bool first = before.empty();
    bool split_now = threads > 1 && !first && before.back().expanded >= kSplitWorthy;
    if (!split_now) {
      const std::uint64_t probe = threads == 1 ? UINT64_MAX : kSerialProbe;
      bool cut_short = false;
      it = serial_iteration(start, target, heuristic, bound, meter, probe, cut_short);
      split_now = cut_short && !meter.halted();
    }
    if (split_now) {
      const std::uint64_t size_hint = first ? UINT64_MAX : std::max(it.expanded, before.back().expanded);
      Iteration whole = split.iteration(start, target, heuristic, bound, threads, size_hint, meter, team);
      whole.expanded += it.expanded;
      whole.generated += it.generated;
      it = std::move(whole);
    }
    return it;
  }

  // The iteration on this thread; past `limit` nodes expanded it stops and says so in
  // `cut_short` (its counts are the nodes it spent, its answer none).
  template <class H>
  Iteration serial_iteration(const State& start, const State& target, const H& heuristic, int bound, NodeMeter& meter,
                             std::uint64_t limit, bool& cut_short) const {
    const IdaIteration* so_far = nullptr;
    auto d = dive(heuristic, target, bound, [&] { return so_far->expanded >= limit; }, meter);
    so_far = &d.out;
    d.search(start, 0, heuristic.estimate(start), -1, 0);
    cut_short = d.stopped;
    return std::move(d.out);
  }

  // What a query holds besides the heuristic: the path, and in parallel the split's lists.
  std::uint64_t held_bytes(int bound, int threads) const {
    const std::uint64_t path = sizeof(State) * static_cast<std::uint64_t>(bound + 1);
    return threads == 1 ? path : path + IdaSplit<P>::Lists::of_this_thread().bytes();
  }

  SearchResult& finish(SearchResult& result, const Timer& timer) const {
    result.peak_bytes = sizeof(State) * static_cast<std::uint64_t>(result.distance > 0 ? result.distance : 1);
    result.seconds = timer.seconds();
    return result;
  }

  const P& puzzle_;
  SearchOptions options_;
  IdaStarOptions settings_;
};

}  // namespace searchbench
