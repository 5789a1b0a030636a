// Every heuristic of every family, checked exhaustively on small spaces: typed over the
// registry's lists (AllFamilies, each family's HeuristicTypes), so a heuristic added to a
// family line is checked with no edit here. For each space and each heuristic that fits it,
// for two targets (the puzzle's start, and the end of a seeded random walk, since a
// heuristic is built for its target):
//  * d(s), the moves from s TO the target, for every state of the target's component: one
//    breadth-first search from the target over inverse moves (the magic board's moves are
//    not their own inverses), keyed by the family's perfect encoder;
//  * h(s) <= d(s) for every state (admissible) and h(target) == 0;
//  * with kConsistent, h(s) <= 1 + h(t) for every move s -> t;
//  * with estimate_after (and estimate_move, and estimate_child from cache_of(s)), its value
//    equals estimate(t) for every move s -> t;
//    children_within lists exactly the moves whose child fits the room (check_children_within);
//  * with complete_tight, it finds a path of h(s) moves exactly where d(s) = h(s), and that
//    path is the lexicographically smallest shortest one (check_complete_tight).
// The spaces are those below; a family none of them belongs to is checked on its first
// test example. Each checked (space, heuristic, target) is printed as one line.
#include <gtest/gtest.h>

#include <cctype>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/heuristic.hpp"
#include "core/search_options.hpp"
#include "core/timer.hpp"
#include "registry/families.hpp"

using namespace searchbench;

namespace {

const std::vector<std::string> kNamedSpaces = {"tiles-3x3", "tiles-2x4", "pancake-8", "msquare-2x4",
                                               "cube2-htm", "cube2-qtm", "checkers-13"};
// A direct table of distances per key: the spaces above have at most 3.7M states.
constexpr Key kMaxKeys = Key{1} << 26;
constexpr std::uint8_t kUnseen = 0xFF;

template <class F>
bool belongs_to(const std::string& name) {
  try {
    return F::Puzzle::from_name(name).has_value();
  } catch (const InputError&) {
    return false;
  }
}

std::vector<std::string> spaces() {
  std::vector<std::string> out;
  AllFamilies::for_each([&]<class F>() {
    bool named = false;
    for (const auto& name : kNamedSpaces)
      if (belongs_to<F>(name)) named = true, out.push_back(name);
    if (!named) out.push_back(F::Puzzle::test_examples().front());
  });
  return out;
}

// The distances to `target` of every state of its component, by key, and the keys in the
// order the search reached them.
template <class P, class E>
struct Distances {
  std::vector<std::uint8_t> to_target;
  std::vector<Key> reached;

  Distances(const P& puzzle, const E& enc, const typename P::State& target) : to_target(enc.key_bound(), kUnseen) {
    typename P::State predecessor;
    to_target[enc.encode(target)] = 0;
    reached.push_back(enc.encode(target));
    for (std::size_t i = 0; i < reached.size(); ++i) {
      const auto state = enc.decode(reached[i]);
      const std::uint8_t next = static_cast<std::uint8_t>(to_target[reached[i]] + 1);
      for (int m = 0; m < puzzle.move_count(); ++m) {
        if (!puzzle.apply_inverse(state, m, predecessor)) continue;
        const Key k = enc.encode(predecessor);
        if (to_target[k] != kUnseen) continue;
        to_target[k] = next;
        reached.push_back(k);
      }
    }
  }
};

// What one check found: counts of violations and the first of each, as text.
struct Findings {
  std::uint64_t states = 0, overestimates = 0, inconsistencies = 0, update_mismatches = 0, completion_mismatches = 0;
  int largest = 0;
  std::string first;
  void note(std::uint64_t& counter, const std::string& what) {
    if (counter++ == 0 && first.empty()) first = what;
  }
};

// children_within at rooms h-1, h and h+1: every move whose child's estimate fits the room
// is listed, each with estimate_move giving that estimate; the floor never exceeds the
// estimate of a move it left out.
template <class P, class H>
void check_children_within(const P& puzzle, const H& h, const typename P::State& s, int hs, Findings& found) {
  typename P::State successor;
  std::vector<int> child_h(puzzle.move_count(), -1);
  for (int m = 0; m < puzzle.move_count(); ++m)
    if (puzzle.apply(s, m, successor)) child_h[m] = h.estimate(successor);
  for (const int room : {hs - 1, hs, hs + 1}) {
    const ChildMoves within = h.children_within(s, hs, room);
    for (int m = 0; m < puzzle.move_count(); ++m) {
      if (child_h[m] < 0) continue;
      const bool listed = (within.moves >> m) & 1;
      const bool wrong = listed ? child_h[m] > room || h.estimate_move(s, hs, m) != child_h[m]
                                : child_h[m] <= room || child_h[m] < within.floor;
      if (wrong)
        found.note(found.update_mismatches, "children_within at room " + std::to_string(room) + " wrong for move " +
                                                std::string(1, puzzle.move_name(m)) + " from " + puzzle.format(s));
    }
  }
}

// complete_tight at a state s with h(s) = hs: a path of hs moves exists exactly where the
// distance is hs, and then the one given is the lexicographically smallest shortest path
// (from the distances: at each state the first move to a state one nearer).
template <class P, class E, class H>
void check_complete_tight(const P& puzzle, const E& enc, const H& h, const typename P::State& s, int hs, const std::vector<std::uint8_t>& d,
                          Findings& found) {
  const TightCompletion done = h.complete_tight(s, hs);
  const int distance = d[enc.encode(s)];
  std::vector<int> smallest;
  if (distance == hs) {
    typename P::State at = s, next;
    for (int left = hs; left > 0; --left) {
      for (int m = 0; m < puzzle.move_count(); ++m) {
        if (!puzzle.apply(at, m, next) || d[enc.encode(next)] != left - 1) continue;
        smallest.push_back(m);
        at = next;
        break;
      }
    }
  }
  if (done.found != (distance == hs) || done.moves != smallest)
    found.note(found.completion_mismatches, "complete_tight at h=" + std::to_string(hs) + ", d=" + std::to_string(distance) +
                                                " says " + (done.found ? "found" : "none") + " from " + puzzle.format(s));
  // Asked from the parent instead (what IDA* does for a node's children whose f is the
  // bound), every child gets the same answer, path and counts as when asked itself.
  if constexpr (H::kCapabilities.tight_completion) {
    const auto parent = h.tight_parent(s);
    typename P::State child;
    for (int m = 0; m < puzzle.move_count(); ++m) {
      if (!puzzle.apply(s, m, child)) continue;
      const int hc = h.estimate(child);
      if (hc == 0) continue;
      const typename H::TightStart start = h.tight_start(parent, m, hc);
      const TightCompletion own = h.complete_tight(child, hc), asked = h.first_completion(&start, 1).completion;
      if (own.found != asked.found || own.moves != asked.moves || own.expanded != asked.expanded || own.generated != asked.generated)
        found.note(found.completion_mismatches, "complete_tight from the parent differs for move " + std::string(1, puzzle.move_name(m)) +
                                                    " from " + puzzle.format(s));
    }
  }
}

template <class P, class E, class H>
Findings check_heuristic(const P& puzzle, const E& enc, const typename P::State& target, const Distances<P, E>& d) {
  SearchOptions search;
  search.threads = 2;
  const H h(puzzle, target, typename H::Options{}, search);
  Findings found;
  EXPECT_EQ(h.estimate(target), 0) << "h(target) for target " << puzzle.format(target);
  typename P::State successor;
  for (const Key k : d.reached) {
    const auto s = enc.decode(k);
    const int hs = h.estimate(s);
    ++found.states;
    found.largest = std::max(found.largest, hs);
    if (hs < 0 || hs > d.to_target[k])
      found.note(found.overestimates, "h=" + std::to_string(hs) + " > d=" + std::to_string(d.to_target[k]) + " at " + puzzle.format(s));
    if constexpr (H::kCapabilities.children_within)
      check_children_within(puzzle, h, s, hs, found);
    if constexpr (H::kCapabilities.tight_completion)
      check_complete_tight(puzzle, enc, h, s, hs, d.to_target, found);
    for (int m = 0; m < puzzle.move_count(); ++m) {
      if (!puzzle.apply(s, m, successor)) continue;
      const int ht = h.estimate(successor);
      if (is_consistent<H>() && hs > 1 + ht)
        found.note(found.inconsistencies, "h=" + std::to_string(hs) + " at " + puzzle.format(s) + " but h=" +
                                              std::to_string(ht) + " after move " + puzzle.move_name(m));
      if (estimate_after<P, H>(h, s, hs, m, successor) != ht)
        found.note(found.update_mismatches, "estimate_after differs from estimate after move " +
                                                std::string(1, puzzle.move_name(m)) + " from " + puzzle.format(s));
      if constexpr (H::kCapabilities.node_cache) {
        typename H::NodeCache child_cache;
        if (h.estimate_child(s, h.cache_of(s), m, successor, child_cache) != ht)
          found.note(found.update_mismatches, "estimate_child differs from estimate after move " +
                                                  std::string(1, puzzle.move_name(m)) + " from " + puzzle.format(s));
      }
      if constexpr (requires { h.estimate_move(s, hs, m); })
        if (h.estimate_move(s, hs, m) != ht)
          found.note(found.update_mismatches, "estimate_move differs from estimate after move " +
                                                  std::string(1, puzzle.move_name(m)) + " from " + puzzle.format(s));
    }
  }
  return found;
}

// The end of a seeded walk of random moves from the start: a target in its component.
template <class P>
typename P::State random_target(const P& puzzle, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto state = puzzle.start(), next = state;
  for (int step = 0; step < 1000; ++step)
    if (puzzle.apply(state, static_cast<int>(rng() % static_cast<unsigned>(puzzle.move_count())), next)) state = next;
  return state;
}

template <class F, class E>
void check_space_with(const typename F::Puzzle& puzzle, const E& enc) {
  using P = typename F::Puzzle;
  const std::vector<std::pair<std::string, typename P::State>> targets = {{"start", puzzle.start()},
                                                                         {"random", random_target(puzzle, 1603)}};
  for (const auto& named : targets) {
    // Not a structured binding: clang 14 cannot capture one in the lambda below.
    const std::string& which = named.first;
    const typename P::State& target = named.second;
    Timer timer;
    const Distances<P, E> d(puzzle, enc, target);
    ASSERT_EQ(d.reached.size(), puzzle.component_size(target)) << "the search from the target missed states";
    const double search_seconds = timer.seconds();
    F::HeuristicTypes::for_each([&]<class H>() {
      const std::string pair = puzzle.name() + " / " + std::string(H::kName) + " / target " + which;
      SCOPED_TRACE(pair);
      if (auto why = H::fits(puzzle); !why.empty()) {
        std::printf("[ skipped ] %s: %s\n", pair.c_str(), why.c_str());
        return;
      }
      Timer checked;
      const Findings f = check_heuristic<P, E, H>(puzzle, enc, target, d);
      EXPECT_EQ(f.overestimates, 0u) << f.first;
      if (is_consistent<H>()) {
        EXPECT_EQ(f.inconsistencies, 0u) << f.first;
      }
      EXPECT_EQ(f.update_mismatches, 0u) << f.first;
      EXPECT_EQ(f.completion_mismatches, 0u) << f.first;
      std::printf("[ checked ] %s: %llu states, h up to %d; overestimates %llu%s (%.2f s; distances %.2f s)\n", pair.c_str(),
                  static_cast<unsigned long long>(f.states), f.largest, static_cast<unsigned long long>(f.overestimates),
                  is_consistent<H>() ? (", inconsistent moves " + std::to_string(f.inconsistencies)).c_str() : "",
                  checked.seconds(), search_seconds);
    });
  }
}

// The family's last encoder that fits, is perfect and keeps its keys in a small table.
template <class F>
void check_space(const typename F::Puzzle& puzzle) {
  std::string chosen;
  F::for_each_encoder([&]<class E>() {
    if constexpr (every_key_is_state<E>())
      if (E::fits(puzzle).empty() && E(puzzle).key_bound() <= kMaxKeys) chosen = E::kName;
  });
  ASSERT_FALSE(chosen.empty()) << "no perfect encoder with a small key space for " << puzzle.name();
  F::for_each_encoder([&]<class E>() {
    if (chosen == E::kName) check_space_with<F>(puzzle, E(puzzle));
  });
}

class EveryHeuristic : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryHeuristic, IsAdmissibleAndConsistentWhereItSaysSo) {
  bool found = false;
  AllFamilies::for_each([&]<class F>() {
    if (found || !belongs_to<F>(GetParam())) return;
    found = true;
    const auto shape = *F::Puzzle::from_name(GetParam());
    if constexpr (requires { shape.for_start(shape.start()); }) check_space<F>(shape.for_start(shape.start()));
    else check_space<F>(shape);
  });
  EXPECT_TRUE(found) << GetParam();
}

std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string name;
  for (const char c : info.param) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Spaces, EveryHeuristic, ::testing::ValuesIn(spaces()), test_name);

}  // namespace
