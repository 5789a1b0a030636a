// The parallel split of one iteration of iterative-deepening A* (engines/idastar.hpp): the
// nodes at a split depth listed in depth-first order, and the threads of a team
// (core/helper_team.hpp) taking them one at a time, in that order, each diving below its
// node (engines/idastar/dive.hpp). The answer is the first listed node's that has one,
// whichever thread finds it, so it is the same at every thread count.
#pragma once

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "core/concepts.hpp"
#include "core/helper_team.hpp"
#include "core/heuristic.hpp"
#include "core/node_meter.hpp"
#include "engines/idastar/dive.hpp"

namespace searchbench {

// A node at the split depth (or a solution above it), with the path that reached it.
template <class State>
struct IdaSubtree {
  State state;
  int g = 0, h = 0, last = -1, run = 0;
  std::string path;
  bool solution = false;
};

// The split's lists, kept on the thread that lists them from one iteration and search to
// the next: new vectors of a few hundred kilobytes each iteration were fresh pages, whose
// faults cost a small search about as much as its listing.
template <class State>
struct IdaSplitLists {
  std::vector<IdaSubtree<State>> subtrees, deeper;
  std::vector<IdaIteration> below;
  static IdaSplitLists& of_this_thread() {
    thread_local IdaSplitLists lists;
    return lists;
  }
  std::uint64_t bytes() const {
    return (subtrees.capacity() + deeper.capacity()) * sizeof(IdaSubtree<State>) + below.capacity() * sizeof(IdaIteration);
  }
};

// One split's work as the team shares it: the subtrees (in depth-first order) and what
// each dive found, with the counters that hand them out.
template <class State>
struct IdaSplitJob {
  IdaSplitLists<State>& lists;
  int bound;
  std::atomic<std::size_t> next{0}, finished{0}, first_solution;
  // What a dive threw, on whichever thread: kept (the first only) for the leader to rethrow
  // once every subtree is accounted for, the others stopped as if solved before them.
  std::atomic<bool> failed{false};
  std::exception_ptr error;
  IdaSplitJob(IdaSplitLists<State>& l, int b) : lists(l), bound(b), first_solution(l.subtrees.size()) {}
  void fail(std::exception_ptr e) {
    if (!failed.exchange(true, std::memory_order_relaxed)) error = std::move(e);
    first_solution.store(0, std::memory_order_relaxed);
  }
};

// How the leader hands a split to the helpers of its team (core/helper_team.hpp), which
// spin between splits. A helper enters a job only while it is published (it counts itself
// a visitor, then checks the job is still the current one), and the leader changes a job
// only once it is withdrawn and no visitor is left, so a slow helper never reads a job
// being rewritten; each job is worked once per helper (its generation).
template <class Job>
class IdaSplitTeam {
 public:
  void publish(Job& job) {
    generation_.fetch_add(1, std::memory_order_relaxed);
    current_.store(&job, std::memory_order_seq_cst);
  }
  void withdraw() {
    current_.store(nullptr, std::memory_order_seq_cst);
    for (SpinWait wait; visitors_.load(std::memory_order_seq_cst) != 0;) wait.pause();
  }
  template <class Work>
  void help(const std::atomic<bool>& done, Work&& work) {
    std::uint64_t worked = 0;
    for (SpinWait wait; !done.load(std::memory_order_acquire);) {
      Job* job = current_.load(std::memory_order_seq_cst);
      if (job == nullptr) {
        wait.pause();
        continue;
      }
      visitors_.fetch_add(1, std::memory_order_seq_cst);
      bool worked_now = false;
      if (current_.load(std::memory_order_seq_cst) == job) {
        // Still published: neither the job nor its generation changes while this visit lasts.
        const std::uint64_t generation = generation_.load(std::memory_order_relaxed);
        if (generation != worked) {
          worked = generation;
          work(*job);
          worked_now = true;
        }
      }
      visitors_.fetch_sub(1, std::memory_order_release);
      if (worked_now) wait = SpinWait{};
      else wait.pause();
    }
  }

 private:
  std::atomic<Job*> current_{nullptr};
  std::atomic<int> visitors_{0};
  std::atomic<std::uint64_t> generation_{0};
};

// The split of one iteration over a team of threads, for puzzle P: the listing, each
// thread's share, and the leader's whole.
template <Puzzle P>
class IdaSplit {
 public:
  using State = typename P::State;
  using Subtree = IdaSubtree<State>;
  using Lists = IdaSplitLists<State>;
  using Job = IdaSplitJob<State>;
  using Team = IdaSplitTeam<Job>;
  using Iteration = IdaIteration;

  explicit IdaSplit(const P& puzzle) : puzzle_(puzzle) {}

  // Takes the job's subtrees one at a time, in order, until none is left: a split range
  // would start a thread far past the solution, on work the answer never needs. Subtrees
  // past a solution already found, or taken once the query is halted, are not searched;
  // every one taken counts as finished (the loop's increment), which the leader waits for.
  template <class H>
  void work_on(Job& job, const H& heuristic, const State& target, NodeMeter& meter) const {
    const std::vector<Subtree>& subtrees = job.lists.subtrees;
    std::vector<Iteration>& below = job.lists.below;
    auto lower_first = [&](std::size_t i) {
      std::size_t seen = job.first_solution.load(std::memory_order_relaxed);
      while (i < seen && !job.first_solution.compare_exchange_weak(seen, i, std::memory_order_relaxed)) {}
    };
    for (std::size_t i; (i = job.next.fetch_add(1, std::memory_order_relaxed)) < subtrees.size();
         job.finished.fetch_add(1, std::memory_order_release)) {
      if (job.first_solution.load(std::memory_order_relaxed) < i || meter.halted()) continue;
      const Subtree& t = subtrees[i];
      if (t.solution) {
        below[i].found = true;
        lower_first(i);
        continue;
      }
      try {
        auto stop = [&] { return job.first_solution.load(std::memory_order_relaxed) < i; };
        IdaDive<P, H, decltype(stop)> d{puzzle_, heuristic, target, job.bound, stop, meter};
        d.search(t.state, t.g, t.h, t.last, t.run);
        below[i] = std::move(d.out);
      } catch (...) {
        job.fail(std::current_exception());
      }
      if (below[i].found) lower_first(i);
    }
  }

  // The leader's part: lists the split, hands it to the team, takes its share of it, and
  // once every subtree is done sums what they found.
  template <class H>
  Iteration iteration(const State& start, const State& target, const H& heuristic, int bound, int threads,
                      std::uint64_t size_hint, NodeMeter& meter, Team& team) const {
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
    Lists& lists = Lists::of_this_thread();
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
    Job job(lists, bound);
    team.publish(job);
    work_on(job, heuristic, target, meter);
    for (SpinWait wait; job.finished.load(std::memory_order_acquire) < subtrees.size();) wait.pause();
    team.withdraw();
    if (job.failed.load(std::memory_order_relaxed)) std::rethrow_exception(job.error);
    Iteration out = above;
    for (const auto& b : below) {
      out.expanded += b.expanded;
      out.generated += b.generated;
      out.next_bound = std::min(out.next_bound, b.next_bound);
    }
    if (const std::size_t i = job.first_solution.load(); i < subtrees.size()) {
      out.found = true;
      out.path = subtrees[i].path + below[i].path;
    }
    return out;
  }

 private:
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

  const P& puzzle_;
};

}  // namespace searchbench
