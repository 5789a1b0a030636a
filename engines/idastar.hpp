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
//   its value incrementally (a tile's Manhattan distance changes by one move's worth), or
//   through children_within before the child is made, so a child beyond the bound never is.
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
// * Statistics as Fast Downward keeps them: per iteration its bound and the nodes expanded
//   and generated.
#pragma once

#include <atomic>
#include <climits>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <tbb/task_arena.h>

#include "core/concepts.hpp"
#include "core/declared_options.hpp"
#include "core/errors.hpp"
#include "core/heuristic.hpp"
#include "core/parallel_chunks.hpp"
#include "core/result.hpp"
#include "core/search_options.hpp"
#include "core/thread_arena.hpp"
#include "core/timer.hpp"

namespace searchbench {

struct IdaStarOptions {
  std::uint64_t node_budget = 100'000'000'000ULL;  // nodes expanded before the query gives up

  template <class V>
  void declare(V& v) {
    v(node_budget, {.name = "node-budget", .help = "nodes to expand before giving up"});
  }
};

template <Puzzle P, class UnusedEncoder = void>
class IdaStar {
 public:
  static constexpr std::string_view kName = "idastar";
  static constexpr std::string_view kSummary = "iterative-deepening A*: depth-first under an f bound, parallel by subtrees";
  static constexpr bool kThreaded = true;
  static constexpr bool kUsesHeuristic = true;
  using State = typename P::State;
  using Options = IdaStarOptions;

  IdaStar(const P& puzzle, SearchOptions options = {}, IdaStarOptions settings = {})
      : puzzle_(puzzle), options_(std::move(options)), settings_(settings) {}

  template <Heuristic<P> H>
  SearchResult search(const State& start, const State& target, const H& heuristic) {
    Timer timer;
    SearchResult result;
    result.threads = 1;
    if (!puzzle_.same_component(start, target)) return finish(result, timer);
    const int h0 = heuristic.estimate(start);
    const int limit = options_.max_depth >= 0 ? options_.max_depth : INT_MAX - 1;
    std::uint64_t spent = 0;
    const std::uint64_t component = puzzle_.component_size(start);
    const int threads = runnable_threads(options_.threads);
    tbb::task_arena arena(threads);
    for (int bound = h0; bound <= limit;) {
      Iteration it = threads > 1 ? arena.execute([&] { return parallel_iteration(start, target, heuristic, bound, threads); })
                                 : serial_iteration(start, target, heuristic, bound);
      result.iterations.push_back({bound, it.expanded, it.generated});
      result.expanded += it.expanded;
      result.generated += it.generated;
      spent += it.expanded;
      if (it.found) {
        result.found = true;
        result.path = std::move(it.path);
        result.distance = static_cast<int>(result.path.size());
        break;
      }
      if (it.next_bound == INT_MAX) break;  // nothing was cut: the target is not reachable
      // No shortest path is longer than the component's states less one: past that, unreachable.
      if (static_cast<std::uint64_t>(it.next_bound) >= component) break;
      if (spent > settings_.node_budget)
        throw BudgetError("idastar: node budget of " + std::to_string(settings_.node_budget) + " nodes exhausted below f bound " +
                          std::to_string(it.next_bound) + " (raise --node-budget or use a stronger --heuristic)");
      bound = it.next_bound;
    }
    result.threads = threads;
    return finish(result, timer);
  }

 private:
  static constexpr std::uint64_t kStopCheckEvery = 4096;  // nodes between looks at the stop flag

  struct Iteration {
    bool found = false;
    std::string path;
    std::uint64_t expanded = 0, generated = 0;
    int next_bound = INT_MAX;
  };

  // Move m right after `last` (made `run` times in a row) cannot lie on a shortest path: it
  // undoes `last`, repeats a move up to its order, or is one the puzzle calls redundant
  // after `last` (redundant_after, where the puzzle declares it).
  static bool skipped(const P& puzzle, int last, int run, int m) {
    if (last >= 0 && puzzle.inverse_move(last) == m) return true;
    if constexpr (requires { puzzle.redundant_after(last, m); })
      if (last >= 0 && puzzle.redundant_after(last, m)) return true;
    const int order = puzzle.move_order(m);
    return order > 0 && (m == last ? run + 1 : 1) >= order;
  }

  // One depth-first search under `bound`, from one node. `stop()` is asked every few
  // thousand nodes and before each completion; when it says so the search unwinds without a
  // solution.
  template <class H, class Stop>
  struct Dive {
    const P& puzzle;
    const H& heuristic;
    const State& target;
    int bound;
    Stop stop;
    Iteration out{};
    // Nodes whose f is the bound wait in `queue` to be asked together, where the heuristic
    // asks many at once (first_completion): kept in depth-first order, asked before any
    // later solution is taken and at the end, so the first that completes is the answer.
    static constexpr bool kQueues = requires(const H& h, const State& s) {
      h.tight_start(h.tight_parent(s), 0, 0);
      h.first_completion(static_cast<const typename H::TightStart*>(nullptr), 1);
    };
    static constexpr std::size_t kQueueLength = 256;
    TightQueueOf<H, kQueues> queue{};
    bool stopped = false;
    // The moves from the first node down to the one at depth g are trail[first_g, g): one
    // store per node where a string's push and pop were a tenth of the search's time.
    int first_g = 0;
    std::string trail{};

    bool search(const State& s, int g, int h, int last, int run) {
      first_g = g;
      trail.assign(static_cast<std::size_t>(bound - g + 1), '\0');
      if (from(s, g, h, last, run)) return true;
      if constexpr (kQueues) return !stopped && ask_queue();
      return false;
    }

    bool from(const State& s, int g, int h, int last, int run) {
      if (h == 0 && s == target) {
        if constexpr (kQueues)
          if (ask_queue() || stopped) return !stopped;  // a node before this one completes
        out.found = true;
        out.path.assign(trail, 0, static_cast<std::size_t>(g - first_g));
        return true;
      }
      const int room = bound - g - 1;
      if constexpr (requires { heuristic.complete_tight(s, h); }) {
        if (room == h - 1) return complete(g, h, [&] { return heuristic.complete_tight(s, h); });
      }
      if ((++out.expanded % kStopCheckEvery) == 0 && stop()) stopped = true;
      if (stopped) return false;
      State child;
      [[maybe_unused]] TightParentOf<H, State> parent;  // built at the first child whose f is the bound, if the heuristic keeps one
      const ChildScan scan = scan_children(
          puzzle, heuristic, s, h, room, child,
          [&](int m) { return skipped(puzzle, last, run, m); },
          [&](int m, int hc) {
            ++out.generated;
            if (hc > room) {
              out.next_bound = std::min(out.next_bound, g + 1 + hc);
              return false;
            }
            trail[static_cast<std::size_t>(g - first_g)] = puzzle.move_name(m);
            if constexpr (requires { heuristic.tight_parent(s); }) {
              if (hc == room && hc > 0) {  // the child's f is the bound
                if (!parent) parent.emplace(heuristic.tight_parent(s));
                if constexpr (kQueues) {
                  queue.push(heuristic.tight_start(*parent, m, hc), trail, static_cast<std::size_t>(g + 1 - first_g));
                  return queue.starts.size() == kQueueLength && (ask_queue() || stopped);
                } else {
                  return complete(g + 1, hc, [&] { return heuristic.complete_tight(*parent, m, hc); }) || stopped;
                }
              }
            }
            return from(child, g + 1, hc, m, m == last ? run + 1 : 1) || stopped;
          });
      if (scan.floor != INT_MAX) out.next_bound = std::min(out.next_bound, g + 1 + scan.floor);
      return scan.stopped && !stopped;
    }

    // A node at depth g whose f is the bound: the heuristic says (`ask`) whether a path
    // lowers h at every move to the target, and gives the smallest. Else every child's f is
    // past the bound, by one at least.
    template <class Ask>
    bool complete(int g, int h, Ask&& ask) {
      if (stopped || stop()) {
        stopped = true;
        return false;
      }
      const TightCompletion done = ask();
      out.expanded += done.expanded;
      out.generated += done.generated;
      if (!done.found) {
        out.next_bound = std::min(out.next_bound, g + 1 + h);
        return false;
      }
      out.found = true;
      out.path.assign(trail, 0, static_cast<std::size_t>(g - first_g));
      for (const int m : done.moves) out.path += puzzle.move_name(m);
      return true;
    }

    // The queued nodes asked together: the first that completes is the solution. Every
    // queued node's f is the bound, so where none does, the next bound is one more.
    bool ask_queue() {
      if constexpr (kQueues) {
        if (queue.starts.empty()) return false;
        if (stopped || stop()) {
          stopped = true;
          return false;
        }
        const TightFirst first = heuristic.first_completion(queue.starts.data(), static_cast<int>(queue.starts.size()));
        out.expanded += first.completion.expanded;
        out.generated += first.completion.generated;
        if (first.index < 0) out.next_bound = std::min(out.next_bound, bound + 1);
        else {
          out.found = true;
          out.path = queue.path(static_cast<std::size_t>(first.index));
          for (const int m : first.completion.moves) out.path += puzzle.move_name(m);
        }
        queue.clear();
        return out.found;
      }
      return false;
    }
  };
  template <class H, class Stop>
  Dive<H, Stop> dive(const H& heuristic, const State& target, int bound, Stop stop) const {
    return Dive<H, Stop>{puzzle_, heuristic, target, bound, stop};
  }

  template <class H>
  Iteration serial_iteration(const State& start, const State& target, const H& heuristic, int bound) const {
    auto d = dive(heuristic, target, bound, [] { return false; });
    d.search(start, 0, heuristic.estimate(start), -1, 0);
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
        [&](int m) { return skipped(puzzle_, node.last, node.run, m); },
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
  Iteration parallel_iteration(const State& start, const State& target, const H& heuristic, int bound, int threads) const {
    // Deepen the split until there are enough subtrees to keep every thread busy: hundreds
    // per thread, since below a gap heuristic's bound most subtrees are short chains and a
    // few are most of the work.
    const std::size_t wanted = static_cast<std::size_t>(threads) * 512;
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
        auto d = dive(heuristic, target, bound, [&] { return first_solution.load(std::memory_order_relaxed) < i; });
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
