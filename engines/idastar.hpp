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
// * In parallel, the threads share each iteration (engines/idastar/share.hpp): they take
//   the nodes at a split depth (engines/idastar/listing.hpp; the root alone where the
//   iteration is expected small) one at a time in depth-first order, and once none is left
//   a thread with nothing to do is given the untried moves of nodes on a busy thread's path.
//   A piece of work stops early only once a solution before it in depth-first order is
//   known, so the answer, its path and every iteration's bound are the same at every thread
//   count. Node counts are not: in the last iteration pieces past the solution run until it
//   is found, and where the heuristic completes nodes whose f is the bound, the listing
//   steps through the top of such a node's tree move by move, where one thread hands it to
//   the completion. With neither, every other iteration counts the serial nodes exactly.
// * The threads stay together for the whole query (core/helper_team.hpp), the helpers
//   spinning between iterations: on Korf's 100 with large databases an iteration is a few
//   hundred microseconds, and a thread woken for each one joined after the work was done.
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
#include "engines/idastar/share.hpp"

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
    // for each iteration spinning, not asleep.
    IdaTeam<IdaShare<State>> team;
    auto iterate = [&] {
      for (; bound <= limit;) {
        meter.start(bound, "f bound " + std::to_string(bound), result.expanded, result.generated, held_bytes(bound, threads));
        Iteration it = threads == 1 ? serial_iteration(start, target, heuristic, bound, meter)
                                    : shared_iteration(start, target, heuristic, bound, threads, result.iterations, meter, team);
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
      run_with_helpers(lasting_arena(threads), threads, iterate, [&](const std::atomic<bool>& done) {
        team.help(done, [&](IdaShare<State>& share) { work_on_share(puzzle_, heuristic, target, share, meter); });
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

  // The iteration on this thread alone.
  template <class H>
  Iteration serial_iteration(const State& start, const State& target, const H& heuristic, int bound, NodeMeter& meter) const {
    auto d = dive(heuristic, target, bound, [] { return false; }, meter);
    d.search(start, 0, heuristic.estimate(start), -1, 0);
    return std::move(d.out);
  }

  // An iteration after one of this many nodes expanded starts from a listing of its top
  // (engines/idastar/listing.hpp): the next is several times larger (the 15-puzzle's grow
  // about fivefold), so the listing (the time of a few hundred nodes) is repaid by work
  // handed out with no asking. A smaller one, and the first, start from the root alone.
  static constexpr std::uint64_t kListWorthy = 128;

  // The iteration shared by the team (engines/idastar/share.hpp): the leader's part, until
  // every piece of it is done.
  template <class H>
  Iteration shared_iteration(const State& start, const State& target, const H& heuristic, int bound, int threads,
                             const std::vector<IterationStats>& before, NodeMeter& meter, IdaTeam<IdaShare<State>>& team) const {
    IdaListing<State>& listing = IdaListing<State>::of_this_thread();
    Iteration above;
    const std::uint64_t size_hint = before.empty() ? 0 : before.back().expanded;
    if (size_hint >= kListWorthy) {
      // Up to hundreds of pieces per thread, since below a gap heuristic's bound most
      // subtrees are short chains and a few are most of the work; fewer where the
      // iteration is expected small, so that listing them stays a small part of it.
      const std::size_t wanted = std::clamp<std::size_t>(static_cast<std::size_t>(size_hint / 64),
                                                         static_cast<std::size_t>(threads) * 16, static_cast<std::size_t>(threads) * 512);
      above = IdaLister<P>(puzzle_).list(heuristic, start, target, bound, wanted, listing);
      // The listing's nodes count toward the budget before any dive starts.
      if (meter.add(above.expanded, above.generated)) return above;
    } else {
      listing.pieces.assign(1, IdaPiece<State>::root(start, heuristic.estimate(start)));
    }
    IdaShare<State> share(bound, listing.pieces);
    team.publish(share);
    work_on_share(puzzle_, heuristic, target, share, meter);
    team.withdraw();
    Iteration out = share.result();
    out.expanded += above.expanded;
    out.generated += above.generated;
    out.next_bound = std::min(out.next_bound, above.next_bound);
    return out;
  }

  // What a query holds besides the heuristic: the path, and in parallel the listing.
  std::uint64_t held_bytes(int bound, int threads) const {
    const std::uint64_t path = sizeof(State) * static_cast<std::uint64_t>(bound + 1);
    return threads == 1 ? path : path + IdaListing<State>::of_this_thread().bytes();
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
