// Large pancake stacks (up to 64, past what any 64-bit key holds) and the gap heuristic
// on them: text in and out, the refusals of what cannot run on them, gap's constant-time
// update against its definition along random walks, and IDA* with gap solving random
// 60-pancake stacks optimally (checked against breadth-first answers on smaller stacks).
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/timer.hpp"
#include "encoders/pancake_cantor.hpp"
#include "encoders/permutation_nibbles.hpp"
#include "heuristics/pancake_gap.hpp"
#include "puzzles/pancake_stack.hpp"
#include "registry/registry.hpp"

using namespace searchbench;

namespace {

std::string stack_text(const std::vector<int>& sizes) {
  std::string text;
  for (const int v : sizes) {
    if (!text.empty()) text += ' ';
    text += std::to_string(v);
  }
  return text;
}

std::vector<int> shuffled_sizes(int n, std::uint64_t seed) {
  std::vector<int> sizes(n);
  std::iota(sizes.begin(), sizes.end(), 1);
  std::mt19937_64 rng(seed);
  std::shuffle(sizes.begin(), sizes.end(), rng);
  return sizes;
}

PancakeState random_walk(const PancakeStack& p, PancakeState s, int steps, std::mt19937_64& rng) {
  PancakeState next;
  for (int i = 0; i < steps; ++i) {
    p.apply(s, static_cast<int>(rng() % static_cast<unsigned>(p.move_count())), next);
    s = next;
  }
  return s;
}

void expect_refused(const SolverConfig& config, const std::string& fragment) {
  try {
    make_solver(config);
    ADD_FAILURE() << config.engine << " / '" << config.encoder << "' was not refused";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(LargePancakes, SixtyFourPancakesReadAndPrint) {
  const PancakeStack p(64);
  EXPECT_EQ(p.name(), "pancake-64");
  EXPECT_EQ(p.move_count(), 63);
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const std::string text = stack_text(shuffled_sizes(64, seed));
    EXPECT_EQ(p.format(p.parse(text)), text);
  }
  std::vector<int> sizes = shuffled_sizes(64, 7);
  sizes.push_back(65);
  EXPECT_THROW(p.parse(stack_text(sizes)), InputError);  // 65 sizes
  sizes.pop_back();
  sizes.back() = 65;
  EXPECT_THROW(p.parse(stack_text(sizes)), InputError);  // out of range
  sizes.back() = sizes.front();
  EXPECT_THROW(p.parse(stack_text(sizes)), InputError);  // twice
  sizes.pop_back();
  EXPECT_THROW(p.parse(stack_text(sizes)), InputError);  // 63 sizes
  EXPECT_THROW(PancakeStack(65), InputError);
  EXPECT_THROW(PancakeStack::from_name("pancake-65"), InputError);
  // Letters rise with the flip's size, so the smallest path is the smallest string.
  for (int m = 1; m < p.move_count(); ++m) EXPECT_LT(p.move_name(m - 1), p.move_name(m));
  EXPECT_EQ(p.move_name(33), 'Z');
  EXPECT_EQ(p.move_name(34), 'a');
  EXPECT_EQ(p.move_name(62), '}');
  PancakeState out;
  ASSERT_TRUE(p.apply(p.start(), 62, out));  // flip all 64
  std::vector<int> reversed(64);
  std::iota(reversed.rbegin(), reversed.rend(), 1);
  EXPECT_EQ(p.format(out), stack_text(reversed));
  ASSERT_TRUE(p.apply(p.start(), 20, out));  // flip 22: past the shuffled 16
  EXPECT_EQ(out.cells[0], 21);
  EXPECT_EQ(out.cells[21], 0);
  EXPECT_EQ(out.cells[22], 22);
  EXPECT_EQ(out.cells[63], 63);
}

// The vector flips and the search for a pancake against their definitions, for every flip
// of stacks of every size up to 64.
TEST(LargePancakes, FlipsAndPositionsAreTheirDefinitions) {
  std::mt19937_64 rng(3);
  for (int n = 2; n <= 64; ++n) {
    const PancakeStack p(n);
    const PancakeState s = p.parse(stack_text(shuffled_sizes(n, static_cast<std::uint64_t>(n))));
    for (int m = 0; m < p.move_count(); ++m) {
      PancakeState flipped, expected = s;
      std::reverse(expected.cells.begin(), expected.cells.begin() + m + 2);
      ASSERT_TRUE(p.apply(s, m, flipped));
      ASSERT_EQ(flipped, expected) << "n=" << n << " flip of " << m + 2;
    }
    for (int i = 0; i < n; ++i) ASSERT_EQ(p.position_of(s, s.cells[i]), i) << "n=" << n;
    if (n < 64) {
      EXPECT_EQ(p.position_of(s, static_cast<std::uint8_t>(n)), n) << "a size past N is not in the stack";
    }
  }
}

TEST(LargePancakes, StatesAreSaturatedAndRandomStacksAreStacks) {
  EXPECT_EQ(PancakeStack(20).component_size({}), 2'432'902'008'176'640'000u);
  for (const int n : {21, 40, 64}) EXPECT_EQ(PancakeStack(n).component_size({}), ~std::uint64_t{0}) << n;
  const auto puzzle = make_puzzle(std::string("pancake-64"));
  EXPECT_EQ(puzzle->component_size(), ~std::uint64_t{0});
  const PancakeStack p(64);
  for (std::uint64_t seed = 0; seed < 5; ++seed) {
    const std::string text = puzzle->random_state(seed);
    EXPECT_EQ(p.format(p.parse(text)), text);
    EXPECT_NE(text, p.format(p.start()));
  }
}

TEST(LargePancakes, WhatCannotHoldThemIsRefusedWithOneLine) {
  EXPECT_FALSE(PancakeCantor::fits(PancakeStack(21)).empty());
  EXPECT_TRUE(PancakeCantor::fits(PancakeStack(20)).empty());
  EXPECT_THROW(PancakeCantor{PancakeStack(64)}, InputError);
  EXPECT_FALSE(PermutationNibbles<PancakeStack>::fits(PancakeStack(64)).empty());
  for (const char* engine : {"ring", "parallel", "bidir", "iddfs", "external", "frontier"}) {
    SolverConfig c;
    c.puzzle = "pancake-64";
    c.engine = engine;
    expect_refused(c, "no encoder fits pancake-64");
    c.encoder = "cantor";
    expect_refused(c, "does not fit pancake-64");
    c.encoder = "nibbles";
    expect_refused(c, "does not fit pancake-64");
  }
  // The engine that keeps whole states builds, but its whole-space run is refused before
  // it allocates (its size is saturated, not wrapped).
  SolverConfig naive;
  naive.puzzle = "pancake-64";
  naive.engine = "naive";
  const auto solver = make_solver(naive);
  EXPECT_THROW(MemoryBudget::from_option(0).check_up_front(solver->estimate_explore_bytes(), "pancake-64"), InputError);
  EXPECT_THROW(MemoryBudget::of(std::uint64_t{1} << 40).check_up_front(solver->estimate_explore_bytes(), "pancake-64"),
               InputError);
  // ...and answers a point query one flip away.
  const PancakeStack p(64);
  PancakeState target;
  p.apply(p.start(), 3, target);
  EXPECT_EQ(solver->search(p.format(target)).path, "5");
}

TEST(PancakeGap, ItsUpdateIsItsDefinitionAlongRandomWalks) {
  std::mt19937_64 rng(2010);
  for (const int n : {2, 3, 8, 20, 33, 64}) {
    const PancakeStack p(n);
    for (int t = 0; t < 3; ++t) {
      const PancakeState target = t == 0 ? p.start() : random_walk(p, p.start(), 200, rng);
      const PancakeGap gap(p, target, {}, {});
      EXPECT_EQ(gap.estimate(target), 0);
      PancakeState s = p.start(), next;
      int h = gap.estimate(s);
      for (int step = 0; step < 2000; ++step) {
        const int m = static_cast<int>(rng() % static_cast<unsigned>(p.move_count()));
        p.apply(s, m, next);
        const int updated = gap.estimate_after(s, h, m, next);
        ASSERT_EQ(updated, gap.estimate(next)) << "N=" << n << " move " << p.move_name(m) << " from " << p.format(s);
        ASSERT_LE(std::abs(updated - h), 1);
        ASSERT_EQ(updated == 0, next == target);
        s = next, h = updated;
      }
    }
  }
}

// A path of h flips that each close a gap, the first in move order: depth-first over them,
// the definition complete_tight is held to.
bool first_closing_path(const PancakeStack& p, const PancakeGap& gap, const PancakeState& s, int h, std::vector<int>& moves) {
  if (h == 0) return true;
  PancakeState child;
  for (int m = 0; m < p.move_count(); ++m) {
    if (gap.estimate_move(s, h, m) != h - 1) continue;
    p.apply(s, m, child);
    moves.push_back(m);
    if (first_closing_path(p, gap, child, h - 1, moves)) return true;
    moves.pop_back();
  }
  return false;
}

// Up to 64 pancakes, to the sorted stack and to shuffled ones: stacks made from the target by
// flips that each open a gap (so a closing path exists), the same with one flip that keeps
// the gaps on top (mostly none exists), and shuffled stacks.
TEST(PancakeGap, CompleteTightIsTheFirstPathOfClosingFlips) {
  std::mt19937_64 rng(2015);
  for (const int n : {3, 8, 20, 33, 60, 64}) {
    const PancakeStack p(n);
    for (int t = 0; t < 2; ++t) {
      const PancakeState target = t == 0 ? p.start() : p.parse(stack_text(shuffled_sizes(n, 64 + n)));
      const PancakeGap gap(p, target, {}, {});
      Timer timer;
      // Fewer of the large ones: below a flip that keeps the gaps, the depth-first pass can
      // take a million nodes.
      const int trials = n <= 20 ? 300 : 30;
      int found = 0;
      for (int trial = 0; trial < trials; ++trial) {
        PancakeState s = target, next;
        int h = 0;
        if (trial % 3 == 2) {
          s = p.parse(stack_text(shuffled_sizes(n, rng())));
          h = gap.estimate(s);
        } else {
          const int opened = static_cast<int>(rng() % static_cast<unsigned>(n));
          for (int step = 0; step < 4 * n && h < opened; ++step) {
            const int m = static_cast<int>(rng() % static_cast<unsigned>(p.move_count()));
            if (gap.estimate_move(s, h, m) != h + 1) continue;
            p.apply(s, m, next);
            s = next, ++h;
          }
          if (trial % 3 == 1) {
            for (int m = 0; m < p.move_count(); ++m) {
              const int k = (m + static_cast<int>(rng() % static_cast<unsigned>(p.move_count()))) % p.move_count();
              if (gap.estimate_move(s, h, k) != h) continue;
              p.apply(s, k, next);
              s = next;
              break;
            }
          }
        }
        ASSERT_EQ(h, gap.estimate(s));
        std::vector<int> expected;
        const bool exists = first_closing_path(p, gap, s, h, expected);
        const TightCompletion done = gap.complete_tight(s, h);
        ASSERT_EQ(done.found, exists) << "N=" << n << " h=" << h << " from " << p.format(s);
        ASSERT_EQ(done.moves, expected) << "N=" << n << " from " << p.format(s);
        // The same stack as the child of the one a flip away, asked from that parent.
        const int back = static_cast<int>(rng() % static_cast<unsigned>(p.move_count()));
        PancakeState parent;
        p.apply(s, back, parent);
        const PancakeGap::TightStart start = gap.tight_start(gap.tight_parent(parent), back, h);
        const TightCompletion asked = gap.first_completion(&start, 1).completion;
        ASSERT_EQ(asked.found, exists) << "N=" << n << " from the parent of " << p.format(s);
        ASSERT_EQ(asked.moves, expected) << "N=" << n << " from the parent of " << p.format(s);
        ASSERT_EQ(asked.expanded, done.expanded) << "N=" << n << " from the parent of " << p.format(s);
        found += exists;
      }
      EXPECT_GE(found, trials / 3) << "N=" << n;  // the made stacks all have a path
      EXPECT_LT(found, trials) << "N=" << n;
      std::printf("N=%d, target %s: %d of %d stacks have a closing path (%.2f s)\n", n, t == 0 ? "sorted" : "shuffled", found, trials,
                  timer.seconds());
    }
  }
}

// Many nodes asked at once (what IDA* does with its queue of nodes whose f is the bound):
// the answer is the first node, in the order given, that complete_tight completes, with the
// same path. Each batch mixes the children of stacks made to have a closing path and of
// shuffled ones, so the first that completes falls anywhere, or nowhere; 1 to 300 nodes.
TEST(PancakeGap, FirstCompletionIsTheFirstNodeThatCompletes) {
  std::mt19937_64 rng(2010);
  for (const int n : {8, 20, 60, 64}) {
    const PancakeStack p(n);
    const PancakeState target = p.start();
    const PancakeGap gap(p, target, {}, {});
    int batches_found = 0, batches = 0;
    for (const int length : {1, 2, 3, 5, 17, 64, 300}) {
      for (int trial = 0; trial < 8; ++trial, ++batches) {
        std::vector<PancakeGap::TightStart> starts;
        std::vector<TightCompletion> alone;
        while (static_cast<int>(starts.size()) < length) {
          // A parent: the target with a few gaps opened (its children often complete), or
          // a shuffled stack (they rarely do).
          PancakeState parent = target, next;
          if (rng() % 4 == 0) {
            parent = p.parse(stack_text(shuffled_sizes(n, rng())));
          } else {
            int h = 0;
            const int opened = 1 + static_cast<int>(rng() % static_cast<unsigned>(std::min(n, 24)));
            for (int step = 0; step < 8 * n && h < opened; ++step) {
              const int m = static_cast<int>(rng() % static_cast<unsigned>(p.move_count()));
              if (gap.estimate_move(parent, h, m) != h + 1) continue;
              p.apply(parent, m, next);
              parent = next, ++h;
            }
          }
          const auto kept = gap.tight_parent(parent);
          for (int m = 0; m < p.move_count() && static_cast<int>(starts.size()) < length; ++m) {
            if (rng() % 3 != 0) continue;
            p.apply(parent, m, next);
            const int hc = gap.estimate(next);
            if (hc == 0) continue;
            starts.push_back(gap.tight_start(kept, m, hc));
            alone.push_back(gap.first_completion(&starts.back(), 1).completion);
          }
        }
        const auto first = std::find_if(alone.begin(), alone.end(), [](const TightCompletion& c) { return c.found; });
        const int expected = first == alone.end() ? -1 : static_cast<int>(first - alone.begin());
        const TightFirst together = gap.first_completion(starts.data(), static_cast<int>(starts.size()));
        ASSERT_EQ(together.index, expected) << "N=" << n << ", " << length << " nodes, trial " << trial;
        ASSERT_EQ(together.completion.found, expected >= 0);
        if (expected >= 0) {
          ASSERT_EQ(together.completion.moves, first->moves) << "N=" << n << ", node " << expected;
        }
        batches_found += expected >= 0;
      }
    }
    EXPECT_GT(batches_found, batches / 4) << "N=" << n;  // the answer is not always "none"
    EXPECT_LT(batches_found, batches) << "N=" << n;
  }
}

// Textbook IDA* over whole stacks with gap: depth-first to a bound on g + h, the bound
// raised to the smallest f that exceeded it; a flip is never repeated (it undoes itself).
class GapIdaStar {
 public:
  GapIdaStar(const PancakeStack& p, const PancakeState& target) : p_(p), target_(target), gap_(p, target, {}, {}) {}

  std::string solve(const PancakeState& start) {
    const int h = gap_.estimate(start);
    path_.clear();
    for (int bound = h;;) {
      const int next = search(start, 0, h, -1, bound);
      if (next < 0) return std::string(path_.rbegin(), path_.rend());
      bound = next;
    }
  }
  std::uint64_t nodes() const { return nodes_; }

 private:
  // -1 when the target was found below `s` (path_ holds the moves, last first), else the
  // smallest f past the bound.
  int search(const PancakeState& s, int g, int h, int previous, int bound) {
    ++nodes_;
    if (h == 0) return -1;  // gap is 0 on the target only
    int smallest = INT_MAX;
    PancakeState child;
    for (int m = 0; m < p_.move_count(); ++m) {
      if (m == previous) continue;
      p_.apply(s, m, child);
      const int hc = gap_.estimate_after(s, h, m, child);
      if (g + 1 + hc > bound) {
        smallest = std::min(smallest, g + 1 + hc);
        continue;
      }
      const int found = search(child, g + 1, hc, m, bound);
      if (found < 0) {
        path_.push_back(p_.move_name(m));
        return -1;
      }
      smallest = std::min(smallest, found);
    }
    return smallest;
  }

  const PancakeStack& p_;
  PancakeState target_;
  PancakeGap gap_;
  std::string path_;
  std::uint64_t nodes_ = 0;
};

PancakeState apply_path(const PancakeStack& p, PancakeState s, const std::string& path) {
  PancakeState next;
  for (const char letter : path) {
    int m = 0;
    while (p.move_name(m) != letter) ++m;
    p.apply(s, m, next);
    s = next;
  }
  return s;
}

TEST(PancakeGap, IdaStarPathsAreAsShortAsBreadthFirstOnes) {
  const PancakeStack p(10);
  for (std::uint64_t seed = 0; seed < 12; ++seed) {
    const std::string start = stack_text(shuffled_sizes(10, seed)), target = stack_text(shuffled_sizes(10, seed + 100));
    SolverConfig c;
    c.puzzle = "pancake-10";
    c.engine = "bidir";
    c.start = start;
    const auto shortest = make_solver(c)->search(target);
    GapIdaStar ida(p, p.parse(target));
    const std::string path = ida.solve(p.parse(start));
    EXPECT_EQ(path.size(), shortest.path.size()) << start << " -> " << target;
    EXPECT_EQ(apply_path(p, p.parse(start), path), p.parse(target));
  }
}

// 100 random stacks of `n` pancakes to the sorted one: each path reaches it and is no
// shorter than gap says; prints the time, the nodes and the flips above gap.
double solve_random_stacks(int n) {
  const PancakeStack p(n);
  GapIdaStar ida(p, p.start());
  const PancakeGap gap(p, p.start(), {}, {});
  std::uint64_t flips = 0, above_gap = 0;
  Timer timer;
  for (std::uint64_t seed = 0; seed < 100; ++seed) {
    const PancakeState start = p.parse(stack_text(shuffled_sizes(n, seed)));
    const std::string path = ida.solve(start);
    EXPECT_EQ(apply_path(p, start, path), p.start()) << "seed " << seed;
    EXPECT_GE(static_cast<int>(path.size()), gap.estimate(start));
    flips += path.size();
    above_gap += path.size() - static_cast<std::size_t>(gap.estimate(start));
  }
  const double seconds = timer.seconds();
  std::printf("100 random %d-pancake stacks: %.3f s, %llu nodes expanded, %llu flips, %llu above gap\n", n, seconds,
              static_cast<unsigned long long>(ida.nodes()), static_cast<unsigned long long>(flips),
              static_cast<unsigned long long>(above_gap));
  return seconds;
}

// Gap is within one or two flips of the truth on random stacks; the 60-pancake set is a
// benchmark (bench_search --full), 30 pancakes are quick enough for a test.
TEST(PancakeGap, IdaStarSolvesOneHundredRandomThirtyStacks) { solve_random_stacks(30); }

}  // namespace
