// The parallel iteration of IDA* (engines/idastar/share.hpp): work that busy dives give to
// idle threads is searched exactly once (an iteration without a solution expands and
// generates the serial counts, node for node), the solution is the first in depth-first
// order whichever thread meets it, and a node budget stops a shared iteration.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/helper_team.hpp"
#include "core/node_meter.hpp"
#include "core/progress_reporter.hpp"
#include "core/search_options.hpp"
#include "core/thread_arena.hpp"
#include "core/timer.hpp"
#include "engines/idastar.hpp"
#include "heuristics/pancake_gap.hpp"
#include "heuristics/tiles_manhattan.hpp"
#include "puzzles/pancake_stack.hpp"
#include "puzzles/sliding_tiles.hpp"
#include "registry/registry.hpp"

using namespace searchbench;

namespace {

using State = SlidingTiles::State;

const SlidingTiles& fifteen() {
  static const SlidingTiles puzzle = *SlidingTiles::from_name("tiles-4x4");
  return puzzle;
}

// A board `moves` random moves from the goal (none undoing the one before).
State scramble(std::uint64_t seed, int moves) { return fifteen().parse(make_puzzle("tiles-4x4")->random_walk(seed, moves)); }

struct Shared {
  IdaIteration out;
  std::uint64_t gives = 0;
};

// One iteration under `bound` from `start`, shared by `threads` from the root alone, so
// that every piece but the first is one a dive gave.
template <class P, class H>
Shared shared_iteration_of(const P& p, const H& h, const typename P::State& start, int bound, int threads,
                           std::uint64_t budget = UINT64_MAX) {
  using S = typename P::State;
  SearchOptions options;
  Timer timer;
  ProgressReporter progress(options, timer);
  NodeMeter meter(progress, "idastar", "test", budget);
  const std::vector<IdaPiece<S>> root{IdaPiece<S>::root(start, h.estimate(start))};
  IdaShare<S> share(bound, root);
  IdaTeam<IdaShare<S>> team;
  const int runnable = runnable_threads(threads);
  run_with_helpers(
      lasting_arena(runnable), runnable,
      [&] {
        team.publish(share);
        work_on_share(p, h, p.start(), share, meter);
        team.withdraw();
      },
      [&](const std::atomic<bool>& done) { team.help(done, [&](IdaShare<S>& s) { work_on_share(p, h, p.start(), s, meter); }); });
  meter.throw_if_stopped(0);
  return {share.result(), share.gives()};
}

template <class P, class H>
IdaIteration serial_iteration_of(const P& p, const H& h, const typename P::State& start, int bound) {
  SearchOptions options;
  Timer timer;
  ProgressReporter progress(options, timer);
  NodeMeter meter(progress, "idastar", "test");
  IdaDive<P, H, bool (*)()> d{p, h, p.start(), bound, [] { return false; }, meter};
  d.search(start, 0, h.estimate(start), -1, 0);
  return d.out;
}

const TilesManhattan& manhattan() {
  static const TilesManhattan h(fifteen(), fifteen().start(), {}, {});
  return h;
}
Shared shared_iteration(const State& start, int bound, int threads, std::uint64_t budget = UINT64_MAX) {
  return shared_iteration_of(fifteen(), manhattan(), start, bound, threads, budget);
}
IdaIteration serial_iteration(const State& start, int bound) { return serial_iteration_of(fifteen(), manhattan(), start, bound); }

SearchResult solve(const State& start, int threads) {
  SearchOptions options;
  options.threads = threads;
  const TilesManhattan h(fifteen(), fifteen().start(), {}, {});
  return IdaStar<SlidingTiles>(fifteen(), options).search(start, fifteen().start(), h);
}

}  // namespace

// Iterations with no solution (the bound below the distance): the pieces given away and
// those kept cover the tree exactly, so the counts are the serial ones, and work did move.
TEST(IdaStarShare, GivenPiecesSearchEveryNodeOnce) {
  for (unsigned seed : {1, 2, 3, 10}) {  // iterations of 3,589, 166,057, 77,279 and 50,266 nodes
    const State start = scramble(seed, 54);
    const SearchResult whole = solve(start, 1);
    ASSERT_TRUE(whole.found);
    for (int threads : {2, 4}) {
      const int bound = whole.distance - 2;  // the iteration before the last
      const IdaIteration serial = serial_iteration(start, bound);
      const Shared shared = shared_iteration(start, bound, threads);
      ASSERT_FALSE(serial.found);
      EXPECT_FALSE(shared.out.found);
      EXPECT_EQ(shared.out.expanded, serial.expanded) << "seed " << seed << ", " << threads << " threads";
      EXPECT_EQ(shared.out.generated, serial.generated) << "seed " << seed;
      EXPECT_EQ(shared.out.next_bound, serial.next_bound) << "seed " << seed;
      if (runnable_threads(threads) > 1 && serial.expanded > 100'000) {
        EXPECT_GT(shared.gives, 0u) << "seed " << seed;
      }
    }
  }
}

// The last iteration: whichever thread meets a solution, the answer is the serial one (the
// first in depth-first order, so the lexicographically smallest shortest path).
TEST(IdaStarShare, TheFirstSolutionInDepthFirstOrderIsTheAnswer) {
  for (unsigned seed = 11; seed <= 16; ++seed) {
    const State start = scramble(seed, 60);
    const SearchResult whole = solve(start, 1);
    ASSERT_TRUE(whole.found);
    const IdaIteration serial = serial_iteration(start, whole.distance);
    ASSERT_TRUE(serial.found);
    EXPECT_EQ(serial.path, whole.path);
    for (int threads : {2, 4}) {
      const Shared shared = shared_iteration(start, whole.distance, threads);
      EXPECT_TRUE(shared.out.found);
      EXPECT_EQ(shared.out.path, serial.path) << "seed " << seed << ", " << threads << " threads";
    }
  }
}

// Whole queries: the same path and bounds at every thread count, and every iteration but
// the last (listed or started from the root, shared either way) with the serial counts.
TEST(IdaStarShare, EveryIterationButTheLastCountsTheSerialNodes) {
  for (unsigned seed = 21; seed <= 26; ++seed) {
    const State start = scramble(seed, 60);
    const SearchResult one = solve(start, 1);
    ASSERT_TRUE(one.found);
    for (int threads : {2, 4}) {
      const SearchResult many = solve(start, threads);
      EXPECT_EQ(many.path, one.path) << "seed " << seed;
      ASSERT_EQ(many.iterations.size(), one.iterations.size()) << "seed " << seed;
      for (std::size_t i = 0; i < one.iterations.size(); ++i) {
        EXPECT_EQ(many.iterations[i].bound, one.iterations[i].bound);
        if (i + 1 == one.iterations.size()) break;
        EXPECT_EQ(many.iterations[i].expanded, one.iterations[i].expanded) << "seed " << seed << ", iteration " << i;
        EXPECT_EQ(many.iterations[i].generated, one.iterations[i].generated) << "seed " << seed << ", iteration " << i;
      }
    }
  }
}

// The rule that keeps the answer the serial one, on its own: a piece stops, or is dropped
// when taken, only for a known solution before its key in depth-first order (moves in
// letter order, so string order); the best solution is the least found.
TEST(IdaStarShare, APieceStopsOnlyForASolutionBeforeIt) {
  const State s = fifteen().start();
  std::vector<IdaPiece<State>> listed(3, IdaPiece<State>::root(s, 0));
  listed[0].key = "DL";
  listed[1].key = "LD";
  listed[2].key = "UL";
  IdaShare<State> share(10, listed);
  IdaPiece<State> local;
  const IdaPiece<State>* first = share.take(local);
  const IdaPiece<State>* second = share.take(local);
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(first->key, "DL");
  EXPECT_EQ(second->key, "LD");
  IdaIteration found;  // the second piece's answer
  found.found = true;
  found.path = "LURD";
  share.done(found);
  for (const char* before : {"", "D", "DRUL", "L", "LDRU", "LU"}) {
    std::uint64_t seen = 0;
    EXPECT_FALSE(share.stops(before, seen)) << before;
  }
  for (const char* after : {"LUU", "R", "RD", "U"}) {
    std::uint64_t seen = 0;
    EXPECT_TRUE(share.stops(after, seen)) << after;
  }
  EXPECT_EQ(share.take(local), nullptr);  // "UL", past the solution: done as it is taken
  EXPECT_FALSE(share.finished());
  found.path = "DRUL";  // the first piece's, before it
  share.done(found);
  std::uint64_t seen = 0;
  EXPECT_TRUE(share.stops("L", seen));
  EXPECT_TRUE(share.finished());
  EXPECT_EQ(share.result().path, "DRUL");
}

// The pancake gap completes the nodes whose f is the bound and asks them in batches, in
// depth-first order, inside whichever dive holds them: in iterations shared from the root
// alone (every piece but the first given), the last gives the serial path and the one
// before it the serial counts; whole queries the serial path at every thread count.
TEST(IdaStarShare, GapCompletionsInGivenPiecesGiveTheSerialAnswer) {
  const PancakeStack p(60);
  const PancakeGap gap(p, p.start(), {}, {});
  std::uint64_t gives = 0;
  for (unsigned seed = 0; seed < 12; ++seed) {
    const std::string text = make_puzzle("pancake-60")->random_state(seed);
    const PancakeStack::State start = p.parse(text);
    std::string serial;
    for (int threads : {1, 2, 4}) {
      SearchOptions options;
      options.threads = threads;
      const SearchResult r = IdaStar<PancakeStack>(p, options).search(start, p.start(), gap);
      ASSERT_TRUE(r.found);
      if (threads == 1) serial = r.path;
      EXPECT_EQ(r.path, serial) << text << " at " << threads << " threads";
    }
    const int distance = static_cast<int>(serial.size());
    const Shared last = shared_iteration_of(p, gap, start, distance, 2);
    EXPECT_EQ(last.out.path, serial) << text;
    const IdaIteration before = serial_iteration_of(p, gap, start, distance - 1);
    const Shared shared_before = shared_iteration_of(p, gap, start, distance - 1, 2);
    EXPECT_EQ(shared_before.out.expanded, before.expanded) << text;
    EXPECT_EQ(shared_before.out.generated, before.generated) << text;
    gives += last.gives + shared_before.gives;
  }
  if (runnable_threads(2) > 1) {
    EXPECT_GT(gives, 0u);
  }
}

// A node budget reached inside a shared iteration of small pieces stops it: every piece
// tells the meter its nodes when it ends.
TEST(IdaStarShare, ANodeBudgetStopsASharedIteration) {
  const State start = scramble(3, 80);
  EXPECT_THROW(shared_iteration(start, 60, 2, 20'000), BudgetError);
}
