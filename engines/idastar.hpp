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
//   paths) and searches below them as oneTBB tasks. The solution is the one of the first
//   listed node that has one: a task stops early only once an earlier node has a solution,
//   so the answer, its path and every iteration's bound are the same at every thread count.
//   Node counts are not: in the last iteration later tasks stop at different points, and
//   where the heuristic completes nodes whose f is the bound, the listing steps through the
//   top of such a node's tree move by move, where one thread hands it to the completion.
//   An iteration too small to repay the split (most of Korf's 100 with large databases are
//   a few thousand nodes an iteration) runs on one thread until it proves large; see
//   kSerialProbe.
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
#include "core/node_meter.hpp"
#include "core/parallel_chunks.hpp"
#include "core/progress_reporter.hpp"
#include "core/result.hpp"
#include "core/search_options.hpp"
#include "core/thread_arena.hpp"
#include "core/timer.hpp"
#include "core/work_dir.hpp"
#include "engines/idastar/checkpoint.hpp"
#include "engines/idastar/dive.hpp"

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
    tbb::task_arena arena(threads);
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
    for (; bound <= limit;) {
      meter.start(bound, "f bound " + std::to_string(bound), result.expanded, result.generated, held_bytes(bound, threads));
      // An iteration too small to pay for the split (its listing, the threads' wake-up) runs
      // on this thread: after a small one, the next starts so and is handed to the split
      // once it passes kSerialProbe nodes (the nodes it spent count: work done). The first,
      // of which nothing is known, is handed over sooner: with a strong heuristic (the
      // pancake gap) it is often the whole search.
      Iteration it;
      const bool first = result.iterations.empty();
      bool split = threads > 1 && !first && result.iterations.back().expanded >= kSerialProbe / 8;
      if (!split) {
        const std::uint64_t probe = threads == 1 ? UINT64_MAX : first ? kFirstProbe : kSerialProbe;
        bool cut_short = false;
        it = serial_iteration(start, target, heuristic, bound, meter, probe, cut_short);
        split = cut_short && !meter.halted();
      }
      if (split) {
        const std::uint64_t size_hint = first ? UINT64_MAX : std::max(it.expanded, result.iterations.back().expanded);
        Iteration whole = arena.execute([&] { return parallel_iteration(start, target, heuristic, bound, threads, size_hint, meter); });
        whole.expanded += it.expanded;
        whole.generated += it.generated;
        it = std::move(whole);
      }
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
    result.threads = threads;
    return finish(result, timer);
  }

 private:
  using Iteration = IdaIteration;

  template <class H, class Stop>
  IdaDive<P, H, Stop> dive(const H& heuristic, const State& target, int bound, Stop stop, NodeMeter& meter) const {
    return IdaDive<P, H, Stop>{puzzle_, heuristic, target, bound, stop, meter};
  }

  // Below this many nodes expanded an iteration is not worth splitting across threads.
  static constexpr std::uint64_t kSerialProbe = std::uint64_t{1} << 15;
  static constexpr std::uint64_t kFirstProbe = kIdaStopCheckEvery;  // the soonest a dive looks

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

  // A node at the split depth (or a solution above it), with the path that reached it.
  struct Subtree {
    State state;
    int g = 0, h = 0, last = -1, run = 0;
    std::string path;
    bool solution = false;
  };

  // Every node at `depth` whose f fits the bound, plus solutions above it, in depth-first
  // order (the lexicographic order of their paths); `above` counts the nodes expanded and
  // generated on the way.
  template <class H>
  void list_subtrees(const H& heuristic, const State& target, int bound, int depth, const Subtree& node,
                     std::vector<Subtree>& out, Iteration& above) const {
    if (node.h == 0 && node.state == target) {
      out.push_back(node);
      out.back().solution = true;
      return;
    }
    if (node.g == depth) {
      out.push_back(node);
      return;
    }
    ++above.expanded;
    Subtree child;
    child.g = node.g + 1;
    const int room = bound - child.g;
    const ChildScan scan = scan_children(
        puzzle_, heuristic, node.state, node.h, room, child.state,
        [&](int m) { return ida_skipped(puzzle_, node.last, node.run, m); },
        [&](int m, int hc) {
          ++above.generated;
          if (hc > room) {
            above.next_bound = std::min(above.next_bound, child.g + hc);
            return false;
          }
          child.h = hc;
          child.last = m;
          child.run = m == node.last ? node.run + 1 : 1;
          child.path = node.path + puzzle_.move_name(m);
          list_subtrees(heuristic, target, bound, depth, child, out, above);
          return false;
        });
    if (scan.floor != INT_MAX) above.next_bound = std::min(above.next_bound, child.g + scan.floor);
  }

  // The split's lists, kept on the thread that lists them from one iteration and search to
  // the next: new vectors of a few hundred kilobytes each iteration were fresh pages, whose
  // faults cost a small search about as much as its listing.
  struct SplitLists {
    std::vector<Subtree> subtrees, deeper;
    std::vector<Iteration> below;
  };
  static SplitLists& split_lists() {
    thread_local SplitLists lists;
    return lists;
  }

  template <class H>
  Iteration parallel_iteration(const State& start, const State& target, const H& heuristic, int bound, int threads,
                               std::uint64_t size_hint, NodeMeter& meter) const {
    // Deepen the split until there are enough subtrees to keep every thread busy: up to
    // hundreds per thread, since below a gap heuristic's bound most subtrees are short
    // chains and a few are most of the work; fewer where the iteration is expected small
    // (`size_hint`: nodes of the last one), so that listing them stays a small part of it.
    const std::size_t wanted =
        std::clamp<std::size_t>(static_cast<std::size_t>(size_hint / 64), static_cast<std::size_t>(threads) * 16,
                                static_cast<std::size_t>(threads) * 512);
    // One level at a time, each node's children in its place: the list stays in depth-first
    // order and no level is listed twice (re-listing from the root per depth was a serial
    // phase as long as the search itself on Korf's 100).
    SplitLists& lists = split_lists();
    std::vector<Subtree>&subtrees = lists.subtrees, &deeper = lists.deeper;
    subtrees.clear();
    Iteration above;
    list_subtrees(heuristic, target, bound, 0, Subtree{start, 0, heuristic.estimate(start), -1, 0, {}, false}, subtrees, above);
    for (int depth = 1; depth <= bound && subtrees.size() < wanted; ++depth) {
      deeper.clear();
      for (Subtree& t : subtrees) {
        if (t.solution) deeper.push_back(std::move(t));
        else list_subtrees(heuristic, target, bound, depth, t, deeper, above);
      }
      std::swap(subtrees, deeper);
    }
    // The listing's nodes count toward the budget before any dive starts.
    if (meter.add(above.expanded, above.generated)) return above;
    std::vector<Iteration>& below = lists.below;
    below.assign(subtrees.size(), Iteration{});
    std::atomic<std::size_t> first_solution{subtrees.size()};
    auto lower_first = [&](std::size_t i) {
      std::size_t seen = first_solution.load(std::memory_order_relaxed);
      while (i < seen && !first_solution.compare_exchange_weak(seen, i, std::memory_order_relaxed)) {}
    };
    // Subtrees are handed out in order, one at a time: a split range would start a thread
    // far past the solution, on work the answer never needs.
    std::atomic<std::size_t> next{0};
    parallel_chunks(static_cast<std::uint64_t>(threads), 1, [&](std::uint64_t, std::uint64_t) {
      for (std::size_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < subtrees.size();) {
        if (first_solution.load(std::memory_order_relaxed) < i) return;
        const Subtree& t = subtrees[i];
        if (t.solution) {
          below[i].found = true;
          lower_first(i);
          continue;
        }
        if (meter.halted()) return;
        auto d = dive(heuristic, target, bound, [&] { return first_solution.load(std::memory_order_relaxed) < i; }, meter);
        d.search(t.state, t.g, t.h, t.last, t.run);
        below[i] = std::move(d.out);
        if (below[i].found) lower_first(i);
      }
    });
    Iteration out = above;
    for (const auto& b : below) {
      out.expanded += b.expanded;
      out.generated += b.generated;
      out.next_bound = std::min(out.next_bound, b.next_bound);
    }
    if (const std::size_t i = first_solution.load(); i < subtrees.size()) {
      out.found = true;
      out.path = subtrees[i].path + below[i].path;
    }
    return out;
  }

  // What a query holds besides the heuristic: the path, and in parallel the split's lists.
  std::uint64_t held_bytes(int bound, int threads) const {
    const std::uint64_t path = sizeof(State) * static_cast<std::uint64_t>(bound + 1);
    if (threads == 1) return path;
    const SplitLists& lists = split_lists();
    return path + (lists.subtrees.capacity() + lists.deeper.capacity()) * sizeof(Subtree) + lists.below.capacity() * sizeof(Iteration);
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
