// The completion search of the pancake `gap` heuristic (heuristics/pancake_gap.hpp): at a
// node with no room to spare (room = h - 1) a path within the bound exists only if each of
// its h flips closes a gap; whether one does is NP-hard in general (Bulteau, Fertin and
// Rusu, "Pancake flipping is hard", 2015), and below such nodes IDA* on random stacks
// spends nearly all its work. A stack and its inverse (the positions of the labels, read
// as a stack) have the same gaps (the plate counted) and the same distance, since the
// flips that sort one, taken backwards, sort the other; a closing flip of the inverse is
// the last flip of a path of the stack (flipping the inverse's top k relabels the stack:
// label j < k becomes k-1-j). So the search may go on from either end at each node: it
// stops where either end has no closing flip and follows the end with fewer (at most two
// each). Answer and path are the forward pass's (follow_trace). The heuristic answers IDA*'s
// tight_completion hook (core/heuristic_capabilities.hpp) with this search.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <utility>

#include "core/heuristic.hpp"
#include "heuristics/pancake_labels.hpp"

namespace searchbench {

// A search over the labels of one target, made for a call (it keeps a reference to them).
class GapCompletion {
  using Labels = PancakeLabels::Vector;  // byte i: the label at position i (past N: unused)
  using Node = PancakeLabels::Node;      // a stack's labels and their inverse

 public:
  explicit GapCompletion(const PancakeLabels& labels) : labels_(labels) {}

  // A node's labels and their inverse, kept for its children whose f is the bound: each
  // child's pair is one flip and one relabelling away (its own inverse costs more).
  struct TightParent {
    Labels labels, inverse;
  };
  TightParent parent(const Labels& labels) const { return {labels, labels_.inverse(labels)}; }

  // A node asked about: its stack's labels and their inverse, and its gaps.
  struct TightStart {
    Node node;
    int h;
  };
  static TightStart start(const TightParent& parent, int move, int h) {
    return {{PancakeLabels::flipped(parent.labels, move), PancakeLabels::relabelled(parent.inverse, move)}, h};
  }

  // Whether the node of these labels, with h gaps, has such a path, and the smallest.
  TightCompletion complete(const Labels& labels, int h) const {
    const TightParent own = parent(labels);
    const TightStart start{{own.labels, own.inverse}, h};
    return first(&start, 1).completion;
  }

  // The same question for many nodes at once (IDA* queues the nodes whose f is the bound
  // in depth-first order): the first that has such a path, with its answer. The searches
  // below them run side by side (search_side_by_side).
  TightFirst first(const TightStart* starts, int count) const {
    TightFirst out;
    Trace trace;
    const SideBySide found = search_side_by_side<true>(starts, count, out.completion, trace);
    if (found.first < 0) return out;
    out.index = found.first;
    out.completion.found = true;
    // A path met below a taken node: the start alone, one searcher, meets its first.
    if (!found.traced) search_side_by_side<false>(starts + found.first, 1, out.completion, trace);
    follow_trace(starts[found.first], trace, out.completion);
    return out;
  }

 private:
  // The path a successful search took, a step per byte: the flip of the stack it made, or
  // -1 where it flipped the inverse.
  using Trace = std::array<std::int8_t, 64>;

  // The path a search found, as flips of its start's stack. The search tries a node's flips
  // in move order and moves on from one only once it has no path, so a step it made on the
  // stack is the first flip that leads to the target; after a step on the inverse, the
  // stack's next flip is found in move order, each candidate asked the same question.
  void follow_trace(TightStart at, Trace trace, TightCompletion& out) const {
    for (int step = 0; at.h > 0;) {
      if (trace[step] >= 0) {
        const int m = trace[step++];
        out.moves.push_back(m);
        at = {labels_.child(at.node, m), at.h - 1};
        continue;
      }
      std::array<TightStart, 2> next;
      std::array<int, 2> move_of;
      int count = 0;
      for (std::uint64_t moves = labels_.closing(at.node, 0); moves != 0; moves &= moves - 1, ++count) {
        move_of[count] = std::countr_zero(moves);
        next[count] = {labels_.child(at.node, move_of[count]), at.h - 1};
      }
      const int found = search_side_by_side<false>(next.data(), count, out, trace).first;
      out.generated += static_cast<std::uint64_t>(found + 1);
      out.moves.push_back(move_of[found]);
      at = next[found];
      step = 0;
    }
  }

  // Which of `count` starts has a path of h flips that each close a gap: the first that
  // has one, and whether `trace` holds its first such path (else the caller asks that start
  // alone); -1 if none. `work` gains every node the searches took. Depth-first from either
  // end (complete_tight), a node's second flip waiting on the searcher's stack. Two
  // searchers work side by side (kTwo), a node of each in turn: one search is a chain of
  // dependent vector operations, and the processor overlaps two (four were slower: their
  // state spilled from registers). A free searcher takes the shallowest waiting node of
  // the other, else the next start. A path found drops later starts. The searcher that
  // began a start meets its paths in move order (what is taken from its stack lies after
  // its own path), so its trace is the start's first path; one found below a taken node
  // may not be.
  struct SideBySide { int first = -1; bool traced = false; };
  struct Waiting {
    Node node;        // the node, its ends as the search took them
    int h, move;      // the child's gaps, the flip that makes it
    bool turned;      // the ends have swapped an odd number of times
  };
  // A searcher's state, apart from its stack and trace, so that it stays in registers.
  struct Searcher {
    Node node{};
    int h = 0, depth = 0, start = 0, bottom = 0, top = 0;  // its stack: [bottom, top)
    bool turned = false, began = false, live = false;
  };
  enum class Step { kGoing, kFound, kNone };
  struct Batch {  // the starts, the next to begin, the first found and the work done
    const TightStart* starts;
    int count, next = 0, first;
    bool traced = false;
    std::uint64_t expanded = 0, generated = 0;
  };

  template <bool kTwo>
  SideBySide search_side_by_side(const TightStart* starts, int count, TightCompletion& work, Trace& trace) const {
    Batch batch{starts, count, 0, count};
    Searcher one, two;
    Waiting stacks[2][64];
    Trace traces[2];
    for (;;) {
      if (!one.live) take(one, two, stacks[1], batch);
      if (kTwo && !two.live) take(two, one, stacks[0], batch);
      if (!one.live && !two.live) break;
      const bool idle = !one.live || !two.live;
      Step first_step = Step::kGoing, second_step = Step::kGoing;
      // A node of each in turn until one ends (one node only while one is idle, so that it
      // takes a waiting node as soon as there is one).
      do {
        if (one.live) first_step = step(one, stacks[0], traces[0], batch);
        if (kTwo && two.live) second_step = step(two, stacks[1], traces[1], batch);
      } while (first_step == Step::kGoing && second_step == Step::kGoing && !idle);
      if (first_step != Step::kGoing) end(one, first_step, traces[0], two, batch, trace);
      if (second_step != Step::kGoing) end(two, second_step, traces[1], one, batch, trace);
    }
    work.expanded += batch.expanded;
    work.generated += batch.generated;
    return {batch.first < count ? batch.first : -1, batch.traced};
  }

  // One node of a search: the target, a dead end with nothing waiting, or on to the next.
  // The inverse's flips are looked for only where the stack has some (it has none at about
  // a fifth of the nodes, the inverse almost never where the stack has some).
  [[gnu::always_inline]] Step step(Searcher& s, Waiting* stack, Trace& trace, Batch& batch) const {
    if (s.h == 0) return Step::kFound;  // no gap: the target
    ++batch.expanded;
    const std::uint64_t ahead = labels_.closing(s.node, 0);
    if (ahead == 0) return dead_end(s, stack, trace, batch);
    const std::uint64_t behind = labels_.closing(s.node, 1);
    if (behind == 0) return dead_end(s, stack, trace, batch);
    // Each end has one closing flip or two: the inverse is followed where it has one and
    // the stack two. Both ends' first flips are found before the choice, which is then a
    // select, not a chain.
    const std::uint64_t ahead_second = ahead & (ahead - 1), behind_second = behind & (behind - 1);
    const bool swap = (behind_second == 0) & (ahead_second != 0);
    const int ahead_first = std::countr_zero(ahead), behind_first = std::countr_zero(behind);
    const Node node = PancakeLabels::turned(swap, s.node);
    const std::uint64_t second = swap ? behind_second : ahead_second;
    const int m = swap ? behind_first : ahead_first;
    s.turned = s.turned != swap;
    stack[s.top] = {node, s.h - 1, std::countr_zero(second), s.turned};
    s.top += second != 0;
    ++batch.generated;
    trace[s.depth++] = static_cast<std::int8_t>(s.turned ? -1 : m);
    s.node = labels_.child(node, m), --s.h;
    return Step::kGoing;
  }
  // No closing flip at one end: the next node waiting, if any.
  [[gnu::always_inline]] Step dead_end(Searcher& s, Waiting* stack, Trace& trace, Batch& batch) const {
    if (s.top == s.bottom) return Step::kNone;
    const Waiting& w = stack[--s.top];
    ++batch.generated;
    s.depth += s.h - w.h;
    trace[s.depth - 1] = static_cast<std::int8_t>(w.turned ? -1 : w.move);
    s.node = labels_.child(w.node, w.move), s.h = w.h, s.turned = w.turned;
    return Step::kGoing;
  }

  // A free searcher takes the shallowest node waiting on the other's stack, else the next
  // start (none once a path is found).
  [[gnu::always_inline]] void take(Searcher& s, Searcher& other, Waiting* other_stack, Batch& batch) const {
    s.bottom = s.top = s.depth = 0;
    if (other.live && other.top > other.bottom) {
      const Waiting& w = other_stack[other.bottom++];
      ++batch.generated;
      s.node = labels_.child(w.node, w.move), s.h = w.h;
      s.turned = w.turned, s.start = other.start;
      s.began = false;  // its trace is never read
      s.live = true;
    } else if (batch.next < batch.count && batch.first == batch.count) {
      const TightStart& t = batch.starts[batch.next];
      s.node = t.node, s.h = t.h, s.turned = false;
      s.start = batch.next++;
      s.began = s.live = true;
    }
  }

  // A searcher that ended: a path found drops the other where it is on a later start.
  [[gnu::always_inline]] static void end(Searcher& s, Step taken, const Trace& s_trace, Searcher& other, Batch& batch, Trace& trace) {
    if (!std::exchange(s.live, false)) return;  // dropped by the other this round
    if (taken != Step::kFound || s.start >= batch.first) return;
    batch.first = s.start, batch.traced = s.began;
    if (s.began) trace = s_trace;
    other.live = other.live && other.start < batch.first;
  }

  const PancakeLabels& labels_;
};

}  // namespace searchbench
