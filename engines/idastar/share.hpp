// One iteration of iterative-deepening A* (engines/idastar.hpp) shared by a team of threads
// (core/helper_team.hpp): the threads take the listed pieces of work (engines/idastar/
// listing.hpp: the nodes at a split depth, or the root alone where the iteration is expected
// small) one at a time in depth-first order, and once none is left a thread with nothing to
// do asks the busy dives (engines/idastar/dive.hpp) to give it work: every few dozen nodes
// a dive looks, and where it is asked it gives moves it has not tried yet (IdaSharedFrames).
// So no thread waits for one long subtree while another is idle, and an iteration too small
// to list is still shared.
//
// * Every piece is a node and a range of its moves, named by its key: the path to the node
//   and, where the range starts past the first move, that move's letter. Moves are tried in
//   letter order, so keys and solution paths compare as strings in depth-first order.
// * The answer is the first solution in depth-first order, whichever thread finds it: a
//   piece is stopped (or dropped before it starts) only once a solution before its key is
//   known, and threads take pieces in key order. So the answer, its path and every
//   iteration's bound are the same at every thread count; node counts in the last
//   iteration are not, since pieces past the solution run until it is found.
// * A given piece's node was expanded by the thread that gave it; it is counted there only.
#pragma once

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "core/concepts.hpp"
#include "core/helper_team.hpp"
#include "core/heuristic.hpp"
#include "core/node_meter.hpp"
#include "engines/idastar/dive.hpp"
#include "engines/idastar/listing.hpp"

namespace searchbench {

// An iteration's shared state: the listed pieces and the given ones not yet taken, the best
// solution so far, and the counts of the pieces done.
template <class State>
class IdaShare {
 public:
  using Piece = IdaPiece<State>;

  // `listed`: the pieces in depth-first order, unchanged until the iteration ends.
  IdaShare(int bound, const std::vector<Piece>& listed) : bound_(bound), listed_(listed) {
    open_.store(listed.size(), std::memory_order_relaxed);
  }
  int bound() const { return bound_; }

  // The next piece in depth-first order, where a known solution does not precede it (those
  // it precedes are done as they are taken): the next listed one, else the first given one,
  // after asking the busy dives to give (so that it is the piece next to the earliest dive's
  // position, not one given long before and far past it). Null when none is waiting;
  // `local` holds a given piece taken.
  const Piece* take(Piece& local) {
    for (std::size_t i; next_.load(std::memory_order_relaxed) < listed_.size() &&
                        (i = next_.fetch_add(1, std::memory_order_relaxed)) < listed_.size();) {
      std::uint64_t seen = 0;
      if (!stops(listed_[i].key, seen)) return &listed_[i];
      open_.fetch_sub(1, std::memory_order_release);
    }
    if (busy_.load(std::memory_order_relaxed) > 0) until_given(ask());
    if (pooled_.load(std::memory_order_relaxed) == 0) return nullptr;
    std::lock_guard lock(mutex_);
    while (!given_.empty()) {
      auto first = std::min_element(given_.begin(), given_.end(), [](const Piece& a, const Piece& b) { return a.key < b.key; });
      local = std::move(*first);
      *first = std::move(given_.back());
      given_.pop_back();
      pooled_.store(given_.size(), std::memory_order_relaxed);
      if (!stops_locked(local.key)) return &local;
      open_.fetch_sub(1, std::memory_order_release);
    }
    return nullptr;
  }

  // How many times threads have asked for work: a dive gives where this has moved since it
  // last gave.
  std::uint64_t asks() const { return asks_.load(std::memory_order_relaxed); }
  void give(std::vector<Piece>& pieces) {
    std::lock_guard lock(mutex_);
    open_.fetch_add(pieces.size(), std::memory_order_relaxed);  // before the giver's own piece can end
    for (Piece& piece : pieces) given_.push_back(std::move(piece));
    pooled_.store(given_.size(), std::memory_order_relaxed);
    gives_.fetch_add(1, std::memory_order_release);
  }
  // A dive starts or ends on some thread.
  void busy(int change) { busy_.fetch_add(change, std::memory_order_relaxed); }

  // Whether the piece keyed `key` is to stop (or not start): a solution before it is known,
  // or a dive failed. `seen` is the caller's count of solutions it has compared with (0 for
  // a piece not started), so the lock is taken only when a new one has come.
  bool stops(const std::string& key, std::uint64_t& seen) {
    if (failed_.load(std::memory_order_relaxed)) return true;
    const std::uint64_t now = solutions_.load(std::memory_order_acquire);
    if (now == seen) return false;
    std::lock_guard lock(mutex_);
    seen = now;
    return stops_locked(key);
  }
  // A piece ended, with what it found and counted.
  void done(const IdaIteration& out) {
    {
      std::lock_guard lock(mutex_);
      total_.expanded += out.expanded;
      total_.generated += out.generated;
      total_.next_bound = std::min(total_.next_bound, out.next_bound);
      if (out.found && (!total_.found || out.path < total_.path)) {
        total_.found = true;
        total_.path = out.path;
        solutions_.fetch_add(1, std::memory_order_release);
      }
    }
    open_.fetch_sub(1, std::memory_order_release);
  }
  // What a dive threw: kept (the first only) for the leader, every piece stopped.
  void fail(std::exception_ptr e) {
    std::lock_guard lock(mutex_);
    if (!failed_.exchange(true, std::memory_order_relaxed)) error_ = std::move(e);
  }
  bool finished() const { return open_.load(std::memory_order_acquire) == 0; }
  // How many times dives gave work (the tests check that work moved).
  std::uint64_t gives() const { return gives_.load(std::memory_order_relaxed); }

  // Once finished(): what the pieces found, or the error rethrown.
  IdaIteration result() {
    std::lock_guard lock(mutex_);
    if (failed_.load(std::memory_order_relaxed)) std::rethrow_exception(error_);
    return total_;
  }

 private:
  // Spins an asking thread waits for a give at most (microseconds: a dive deep in a long
  // completion looks seldom).
  static constexpr int kAskPatience = 512;

  // Asks every busy dive to give; returns the count of gives so far.
  std::uint64_t ask() {
    asks_.fetch_add(1, std::memory_order_relaxed);
    return gives_.load(std::memory_order_acquire);
  }
  // Waits until a dive has given since `gives_before`, no dive is busy, or a while has passed.
  void until_given(std::uint64_t gives_before) const {
    SpinWait wait;
    for (int spins = 0; spins < kAskPatience && gives_.load(std::memory_order_acquire) == gives_before &&
                        busy_.load(std::memory_order_relaxed) > 0;
         ++spins)
      wait.pause();
  }
  bool stops_locked(const std::string& key) const { return failed_.load(std::memory_order_relaxed) || (total_.found && total_.path < key); }

  int bound_;
  const std::vector<Piece>& listed_;
  // Read at every dive's look, written only when a thread asks or a piece is given: apart
  // from the lock and the counters every piece changes.
  alignas(64) std::atomic<std::uint64_t> asks_{0};
  std::atomic<std::uint64_t> gives_{0};
  std::atomic<std::size_t> pooled_{0};
  std::atomic<std::uint64_t> solutions_{0};
  std::atomic<bool> failed_{false};
  alignas(64) std::atomic<std::size_t> next_{0};
  std::atomic<std::size_t> open_{0};  // pieces listed or given and not done
  std::atomic<int> busy_{0};
  std::mutex mutex_;
  std::vector<Piece> given_;
  IdaIteration total_;
  std::exception_ptr error_;
};

// What a dive keeps for the share (IdaDive's Frames): per depth below the piece's node, the
// node being expanded, the move it is on, the moves it may still try (which a give
// narrows) and the nodes the dive had expanded when it entered it.
//
// Asked for work, a dive gives the untried moves of every node on its path with
// kWorthGiving nodes or more searched below it so far, each as a piece: the shallow ones,
// large and far ahead in depth-first order. Where none has, it gives those of the deepest
// node that has any: a small piece next to its position. Threads take the first piece in
// depth-first order after asking afresh, so they stay next to each other in the tree, and
// the last iteration searches little past its solution.
template <Puzzle P>
class IdaSharedFrames {
 public:
  using State = typename P::State;
  static constexpr bool kShares = true;
  // Nodes between looks: an idle thread waits for the next look, so it comes often; a look
  // is two reads of lines that change only when work moves.
  static constexpr std::uint64_t kLookEvery = 32;
  static constexpr std::uint64_t kWorthGiving = 512;

  IdaSharedFrames(const P& puzzle, IdaShare<State>& share, const IdaPiece<State>& piece)
      : puzzle_(puzzle), share_(share), piece_(piece), answered_(share.asks()) {}

  void enter(int depth, const State& s, int h, int last, int run, std::uint64_t expanded) {
    if (static_cast<std::size_t>(depth) >= frames_.size()) frames_.resize(static_cast<std::size_t>(depth) + 1);
    frames_[static_cast<std::size_t>(depth)] = {&s, h, last, run, depth == 0 ? piece_.first - 1 : -1,
                                                depth == 0 ? piece_.limit : INT_MAX, expanded};
  }
  // Whether the dive is to try move m at `depth` (moves come in increasing order): not one
  // before the piece's range, nor one given away.
  bool take(int depth, int m) {
    Frame& f = frames_[static_cast<std::size_t>(depth)];
    if (m <= f.current || m >= f.limit) return false;
    f.current = m;
    return true;
  }
  // A look from a node at `depth` (the frames above it on their moves; `trail` their
  // letters), `expanded` nodes into the dive: if the share asks, give work.
  void look(const std::string& trail, int depth, std::uint64_t expanded) {
    const std::uint64_t asks = share_.asks();
    if (asks == answered_) return;
    std::vector<IdaPiece<State>>& pieces = given_;
    pieces.clear();
    int deepest = -1, deepest_move = 0;
    for (int d = 0; d < depth; ++d) {
      Frame& f = frames_[static_cast<std::size_t>(d)];
      const int m = next_move(f);
      if (m < 0) continue;
      deepest = d, deepest_move = m;
      if (expanded - f.entered >= kWorthGiving) pieces.push_back(cut(d, m, trail));
    }
    if (pieces.empty() && deepest >= 0) pieces.push_back(cut(deepest, deepest_move, trail));
    if (pieces.empty()) return;  // asked again at the next look, with more of the tree seen
    share_.give(pieces);
    answered_ = asks;
  }

 private:
  struct Frame {
    const State* state;
    int h, last, run, current, limit;
    std::uint64_t entered;  // the dive's nodes expanded when it entered this node
  };
  // The first untried move of a frame that can be made, or -1.
  int next_move(const Frame& f) const {
    State child;
    for (int m = f.current + 1, end = std::min(f.limit, puzzle_.move_count()); m < end; ++m)
      if (!ida_skipped(puzzle_, f.last, f.run, m) && puzzle_.apply(*f.state, m, child)) return m;
    return -1;
  }
  // Frame d's moves from m on, as a piece; the frame keeps those before.
  IdaPiece<State> cut(int d, int m, const std::string& trail) {
    Frame& f = frames_[static_cast<std::size_t>(d)];
    IdaPiece<State> piece{*f.state, piece_.g + d, f.h, f.last, f.run, m, f.limit, piece_.path, {}, true, false};
    piece.path.append(trail, 0, static_cast<std::size_t>(d));
    piece.key = piece.path + puzzle_.move_name(m);
    f.limit = m;
    return piece;
  }

  const P& puzzle_;
  IdaShare<State>& share_;
  const IdaPiece<State>& piece_;
  std::vector<Frame> frames_;
  std::vector<IdaPiece<State>> given_;
  std::uint64_t answered_;  // the asks counted when this dive last gave (or began)
};

// How the leader hands an iteration to the helpers of its team (core/helper_team.hpp),
// which spin between iterations. A helper enters a job only while it is published (it
// counts itself a visitor, then checks the job is still the current one), and the leader
// ends a job only once it is withdrawn and no visitor is left, so a slow helper never reads
// one that is gone; each job is worked once per helper (its generation).
template <class Job>
class IdaTeam {
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

// Runs pieces of `share` until none is left anywhere: the leader's and each helper's part.
template <Puzzle P, class H>
void work_on_share(const P& puzzle, const H& heuristic, const typename P::State& target, IdaShare<typename P::State>& share,
                   NodeMeter& meter) {
  IdaPiece<typename P::State> local;
  for (SpinWait wait; !share.finished();) {
    const IdaPiece<typename P::State>* piece = share.take(local);
    if (piece == nullptr) {
      wait.pause();
      continue;
    }
    wait = SpinWait{};
    IdaIteration out;
    if (piece->solution) {
      out.found = true;
      out.path = piece->path;
    } else if (!meter.halted()) {
      share.busy(1);
      try {
        std::uint64_t seen = 0;
        auto stop = [&] { return meter.halted() || share.stops(piece->key, seen); };
        IdaDive<P, H, decltype(stop), IdaSharedFrames<P>> d{puzzle, heuristic, target, share.bound(), stop, meter,
                                                             IdaSharedFrames<P>(puzzle, share, *piece)};
        // A given piece's node was expanded, and counted, by the dive that gave it: neither
        // this dive's count nor what it tells the meter holds it again.
        if (piece->given) d.told_expanded = 1;
        d.search(piece->state, piece->g, piece->h, piece->last, piece->run);
        d.tell_meter();
        out = std::move(d.out);
        if (piece->given) --out.expanded;
        if (out.found) out.path = piece->path + out.path;
      } catch (...) {
        share.fail(std::current_exception());
      }
      share.busy(-1);
    }
    share.done(out);
  }
}

}  // namespace searchbench
