// Rebuilding the lexicographically smallest shortest path from depth information.
//
// Engines that do not record "the first move that reached each state" in lexicographic
// order (the parallel and bidirectional ones, whose discovery order depends on threads and
// on which side grew) recover the canonical answer afterwards:
//   1. backward_layers: from the target (or a meeting set) walk back through the inverse
//      moves, keeping only predecessors one level nearer the start. Layer i holds every
//      state that is i moves from the start and on some shortest path to the target.
//   2. greedy_forward: from the start take, at every step, the first move in A, B, C order
//      whose successor lies in the next layer. Every layer state still reaches the target
//      in the remaining moves, so the greedy choice is the lexicographic minimum.
// Both touch only states on shortest paths, a tiny part of the search.
#pragma once

#include <string>
#include <unordered_set>
#include <vector>

#include "core/concepts.hpp"

namespace searchbench {

using KeyLayer = std::unordered_set<Key>;

// layers[top] = seeds; layers[i-1] = predecessors of layers[i] for which at_depth(key, i-1).
template <Puzzle P, Encoder<P> E, class AtDepth>
std::vector<KeyLayer> backward_layers(const P& puzzle, const E& enc, KeyLayer seeds, int top,
                                      AtDepth at_depth) {
  std::vector<KeyLayer> layers(top + 1);
  layers[top] = std::move(seeds);
  typename P::State prev;
  for (int i = top; i > 0; --i) {
    for (Key k : layers[i]) {
      const auto s = enc.decode(k);
      for (int m = 0; m < puzzle.move_count(); ++m) {
        if (!puzzle.apply_inverse(s, m, prev)) continue;
        const Key pk = enc.encode(prev);
        if (at_depth(pk, i - 1)) layers[i - 1].insert(pk);
      }
    }
  }
  return layers;
}

// Walks `distance` steps from `start`, taking the first move whose successor satisfies
// on_path(key, step) (step = moves taken after this one).
template <Puzzle P, Encoder<P> E, class OnPath>
std::string greedy_forward(const P& puzzle, const E& enc, typename P::State state, int distance,
                           OnPath on_path) {
  std::string path;
  path.reserve(distance);
  typename P::State next;
  for (int step = 1; step <= distance; ++step) {
    bool moved = false;
    for (int m = 0; m < puzzle.move_count() && !moved; ++m) {
      if (!puzzle.apply(state, m, next)) continue;
      if (on_path(enc.encode(next), step)) {
        path.push_back(puzzle.move_name(m));
        state = next;
        moved = true;
      }
    }
    if (!moved) throw std::logic_error("greedy_forward: depth information is inconsistent");
  }
  return path;
}

// Both steps for the common case: depths known from the start up to the target's depth.
template <Puzzle P, Encoder<P> E, class AtDepth>
std::string lex_smallest_path(const P& puzzle, const E& enc, const typename P::State& start,
                              const typename P::State& target, int distance, AtDepth at_depth) {
  auto layers = backward_layers(puzzle, enc, KeyLayer{enc.encode(target)}, distance, at_depth);
  return greedy_forward(puzzle, enc, start, distance,
                        [&](Key k, int step) { return layers[step].contains(k); });
}

}  // namespace searchbench
