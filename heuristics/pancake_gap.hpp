// Pancake heuristic `gap` (Helmert, "Landmark heuristics for the pancake problem", 2010):
// the adjacent positions i, i+1 of the stack (the bottom and the plate, a virtual pancake
// below all others, included) whose pancakes are not neighbours in the target. Sizes are
// relabelled by their position in the target (it reads 0..N-1 from the top, the plate N);
// a gap is an adjacent pair whose labels differ by more than one, and only the target has
// none. Admissible and consistent: flipping the top k reverses positions 0..k-1, which
// keeps every pair inside the prefix and below it; only the pair at k-1, k changes. So a
// flip removes at most one gap, h(s) <= 1 + h(t) for every move s -> t, and h(target) = 0.
// That one pair makes estimate_move a constant-time update, which IDA* (through
// children_within) asks before it flips, so most flips are never made.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>

#include "core/declared_options.hpp"
#include "core/heuristic.hpp"
#include "core/search_options.hpp"
#include "puzzles/pancake_stack.hpp"
#if defined(__AVX512BW__) && defined(__AVX512VBMI__)
#include <immintrin.h>
#endif

namespace searchbench {

class PancakeGap {
#if defined(__AVX512BW__) && defined(__AVX512VBMI__)
  using Labels = __m512i;  // byte i: the label at position i (past N: unused)
#else
  using Labels = std::array<std::uint8_t, 64>;
#endif

 public:
  static constexpr std::string_view kName = "gap";
  static constexpr std::string_view kSummary =
      "adjacent pancakes that are not neighbours in the target (the plate counts): Helmert's gap heuristic";
  static constexpr bool kConsistent = true;
  using Options = NoOptions;
  using State = PancakeState;

  static std::string fits(const PancakeStack&) { return {}; }

  PancakeGap(const PancakeStack& puzzle, const State& target, const Options&, const SearchOptions&) : n_(puzzle.cells()) {
    for (int i = 0; i < n_; ++i) {
      label_[target.cells[i]] = static_cast<std::uint8_t>(i);
      sorted_target_ = sorted_target_ && target.cells[i] == i;
    }
    in_stack_ = n_ == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n_) - 1;
    flips_ = in_stack_ >> 1;
    if (n_ < 64) plate_[n_] = static_cast<std::uint8_t>(n_);
  }

  int estimate(const State& s) const {
    int gaps = 0;
    for (int i = 0; i + 1 < n_; ++i) gaps += is_gap(label(s.cells[i]), label(s.cells[i + 1]));
    return gaps + is_gap(label(s.cells[n_ - 1]), n_);
  }

  // Flip m reverses the top k = m + 2 pancakes: only the pair at positions k-1, k changes,
  // from (parent[k-1], below) to (parent[0], below). Engines ask before they flip.
  int estimate_move(const State& parent, int parent_h, int move) const {
    const int k = move + 2;
    const int below = k < n_ ? label(parent.cells[k]) : n_;
    return parent_h - is_gap(label(parent.cells[k - 1]), below) + is_gap(label(parent.cells[0]), below);
  }
  int estimate_after(const State& parent, int parent_h, int move, const State&) const { return estimate_move(parent, parent_h, move); }

  // IDA* at a node with no room to spare (room = h - 1) needs only the flips that close a
  // gap: flipping the top k closes one exactly when the pancake at k is a target neighbour of
  // the top one and the pair at k-1, k was a gap, so at most two flips, found from where
  // the top's two neighbours lie. Every other flip keeps h or raises it: the floor of those
  // not looked at is h. With more room every flip is looked at.
  ChildMoves children_within(const State& s, int h, int room) const {
    if (room >= h) {
      ChildMoves out;
      for (int m = 0; m + 1 < n_; ++m) {
        const int hc = estimate_move(s, h, m);
        if (hc <= room) out.moves |= std::uint64_t{1} << m;
        else out.floor = std::min(out.floor, hc);
      }
      return out;
    }
    if (room < h - 1) return {0, h - 1};  // no flip closes more than one gap
    return {closing_flips(s), h};
  }

  // The flips that close a gap, as a move set.
  std::uint64_t closing_flips(const State& s) const { return closing_of(labels_of(s)); }

  // A node with no room to spare (room = h - 1) has a path within the bound only if each of
  // its h flips closes a gap; whether it has one is NP-hard in general (Bulteau, Fertin and
  // Rusu, "Pancake flipping is hard", 2015), and below such nodes IDA* on random stacks
  // spends nearly all its work. A stack and its inverse (the positions of the labels, read
  // as a stack) have the same gaps (the plate counted) and the same distance, since the
  // flips that sort one, taken backwards, sort the other; a closing flip of the inverse is
  // the last flip of a path of the stack (flipping the inverse's top k relabels the stack:
  // label j < k becomes k-1-j). So the search may go on from either end at each node: it
  // stops where either end has no closing flip and follows the end with fewer (at most two
  // each). Answer and path are the forward pass's (follow_trace).
  TightCompletion complete_tight(const State& s, int h) const {
    const TightParent own = tight_parent(s);  // the node's own labels and inverse
    const TightStart start{own.labels, own.inverse, h};
    return first_completion(&start, 1).completion;
  }

  // A node's labels and their inverse, kept for its children whose f is the bound: each
  // child's pair is one flip and one relabelling away (its own inverse costs more).
  struct TightParent {
    Labels labels, inverse;
  };
  TightParent tight_parent(const State& s) const {
    const Labels labels = labels_of(s);
    return {labels, inverse_of(labels)};
  }
  TightCompletion complete_tight(const TightParent& parent, int move, int h) const {
    const TightStart start = tight_start(parent, move, h);
    return first_completion(&start, 1).completion;
  }

  // The same question for many nodes at once, each a child of a kept parent (IDA* queues
  // the nodes whose f is the bound in depth-first order): the first that has such a path,
  // with its answer. The searches below them run side by side (search_side_by_side).
  struct TightStart {
    Labels forward, backward;  // the stack's labels and their inverse
    int h;                     // its gaps
  };
  TightStart tight_start(const TightParent& parent, int move, int h) const {
    return {flipped(parent.labels, move), relabelled(parent.inverse, move), h};
  }
  TightFirst first_completion(const TightStart* starts, int count) const {
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

  std::uint64_t bytes() const { return sizeof(label_); }

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
        at = {flipped(at.forward, m), relabelled(at.backward, m), at.h - 1};
        continue;
      }
      std::array<TightStart, 2> next;
      std::array<int, 2> move_of;
      int count = 0;
      for (std::uint64_t moves = closing_of(at.forward); moves != 0; moves &= moves - 1, ++count) {
        move_of[count] = std::countr_zero(moves);
        next[count] = {flipped(at.forward, move_of[count]), relabelled(at.backward, move_of[count]), at.h - 1};
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
    Labels forward, backward;  // the node, its ends as the search took them
    int h, move;               // the child's gaps, the flip that makes it
    bool turned;               // the ends have swapped an odd number of times
  };
  // A searcher's state, apart from its stack and trace, so that it stays in registers.
  struct Searcher {
    Labels forward{}, backward{};
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
  [[gnu::always_inline]] Step step(Searcher& s, Waiting* stack, Trace& trace, Batch& batch) const {
    if (s.h == 0) return Step::kFound;  // no gap: the target
    ++batch.expanded;
    const std::uint64_t ahead = closing_of(s.forward), behind = closing_of(s.backward);
    if (ahead == 0 || behind == 0) {
      if (s.top == s.bottom) return Step::kNone;
      const Waiting& w = stack[--s.top];
      ++batch.generated;
      s.depth += s.h - w.h;
      trace[s.depth - 1] = static_cast<std::int8_t>(w.turned ? -1 : w.move);
      s.forward = flipped(w.forward, w.move), s.backward = relabelled(w.backward, w.move), s.h = w.h, s.turned = w.turned;
      return Step::kGoing;
    }
    const bool swap = std::popcount(behind) < std::popcount(ahead);
    const Labels forward = pick(swap, s.forward, s.backward), backward = pick(swap, s.backward, s.forward);
    const std::uint64_t moves = swap ? behind : ahead, second = moves & (moves - 1);
    const int m = std::countr_zero(moves);
    s.turned = s.turned != swap;
    stack[s.top] = {forward, backward, s.h - 1, std::countr_zero(second), s.turned};
    s.top += second != 0;
    ++batch.generated;
    trace[s.depth++] = static_cast<std::int8_t>(s.turned ? -1 : m);
    s.forward = flipped(forward, m), s.backward = relabelled(backward, m), --s.h;
    return Step::kGoing;
  }

  // A free searcher takes the shallowest node waiting on the other's stack, else the next
  // start (none once a path is found).
  [[gnu::always_inline]] void take(Searcher& s, Searcher& other, Waiting* other_stack, Batch& batch) const {
    s.bottom = s.top = s.depth = 0;
    if (other.live && other.top > other.bottom) {
      const Waiting& w = other_stack[other.bottom++];
      ++batch.generated;
      s.forward = flipped(w.forward, w.move), s.backward = relabelled(w.backward, w.move), s.h = w.h;
      s.turned = w.turned, s.start = other.start;
      s.began = false;  // its trace is never read
      s.live = true;
    } else if (batch.next < batch.count && batch.first == batch.count) {
      const TightStart& t = batch.starts[batch.next];
      s.forward = t.forward, s.backward = t.backward, s.h = t.h, s.turned = false;
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

  static int is_gap(int a, int b) { return std::abs(a - b) != 1; }
  // Against the sorted stack (the usual target) a size is its own label: no table on the
  // path from one node's top pancake to the next node's.
  int label(int size) const { return sorted_target_ ? size : label_[size]; }

  // Byte i of row k: the position whose pancake lands at i when the top k are flipped, which
  // is also where label i goes when labels below k are read backwards.
  static constexpr std::array<std::array<std::uint8_t, 64>, 65> kReversed = [] {
    std::array<std::array<std::uint8_t, 64>, 65> rows{};
    for (int k = 0; k <= 64; ++k)
      for (int i = 0; i < 64; ++i) rows[k][i] = static_cast<std::uint8_t>(i < k ? k - 1 - i : i);
    return rows;
  }();

  Labels inverse_of(const Labels& forward) const {
    alignas(64) std::array<std::uint8_t, 64> at{}, back{};
    store(at, forward);
    for (int i = 0; i < n_; ++i) back[at[i]] = static_cast<std::uint8_t>(i);
    if (n_ < 64) back[n_] = static_cast<std::uint8_t>(n_);  // the plate stays where it is
    return load(back);
  }

#if defined(__AVX512BW__) && defined(__AVX512VBMI__)
  static Labels load(const std::array<std::uint8_t, 64>& bytes) { return _mm512_loadu_si512(bytes.data()); }
  static void store(std::array<std::uint8_t, 64>& bytes, const Labels& v) { _mm512_storeu_si512(bytes.data(), v); }
  // Flip m (the top m + 2) of a stack of labels, and the relabelling that is the same flip
  // made on the inverse: one byte permutation each, the same row either way round (masked
  // with every byte on: gcc 12 warns of the unmasked form's undefined pass-through).
  static Labels flipped(const Labels& v, int m) { return _mm512_maskz_permutexvar_epi8(~__mmask64{0}, load(kReversed[m + 2]), v); }
  static Labels relabelled(const Labels& v, int m) { return _mm512_maskz_permutexvar_epi8(~__mmask64{0}, v, load(kReversed[m + 2])); }
  // `second ? b : a` without a branch: which end a search follows is a coin toss.
  static Labels pick(bool second, const Labels& a, const Labels& b) { return _mm512_mask_blend_epi64(second ? 0xff : 0, a, b); }

  // Labels by position, the plate's (N) at position N where the vector has room for it.
  Labels labels_of(const State& s) const {
    const __m512i stack = _mm512_loadu_si512(s.cells.data());
    const __m512i labels = sorted_target_ ? stack : _mm512_maskz_permutexvar_epi8(in_stack_, stack, _mm512_loadu_si512(label_.data()));
    return _mm512_or_si512(labels, _mm512_loadu_si512(plate_.data()));
  }

  // The whole stack at once, without a branch: its gaps (adjacent labels more than one
  // apart) and where the top's target neighbours lie are two masks over the positions, the
  // plate at position N taking part as the label N; flip k closes a gap where both hold,
  // at k and at k - 1. With 64 pancakes the plate has no byte and is looked at apart.
  std::uint64_t closing_of(const Labels& labels) const {
    const __m512i one = _mm512_set1_epi8(1);
    const __m512i top = _mm512_maskz_permutexvar_epi8(~__mmask64{0}, _mm512_setzero_si512(), labels);  // every byte the top label
    const std::uint64_t beside = _mm512_cmpeq_epi8_mask(_mm512_abs_epi8(_mm512_sub_epi8(labels, top)), one);
    const __m512i below = _mm512_maskz_permutexvar_epi8(~__mmask64{0}, _mm512_loadu_si512(kNextPosition.data()), labels);
    const std::uint64_t gaps = _mm512_cmpneq_epi8_mask(_mm512_abs_epi8(_mm512_sub_epi8(labels, below)), one);
    std::uint64_t closing = (beside >> 2) & (gaps >> 1) & flips_;
    if (n_ == 64) {
      alignas(64) std::array<std::uint8_t, 64> at;
      store(at, labels);
      if (at[0] == 63 && at[63] != 63) closing |= std::uint64_t{1} << 62;
    }
    return closing;
  }
#else
  static Labels load(const std::array<std::uint8_t, 64>& bytes) { return bytes; }
  static void store(std::array<std::uint8_t, 64>& bytes, const Labels& v) { bytes = v; }
  static Labels flipped(const Labels& v, int m) {
    Labels out = v;
    std::reverse(out.begin(), out.begin() + m + 2);
    return out;
  }
  static Labels pick(bool second, const Labels& a, const Labels& b) { return second ? b : a; }
  static Labels relabelled(const Labels& v, int m) {
    Labels out;
    for (int i = 0; i < 64; ++i) out[i] = kReversed[m + 2][v[i] & 63];
    return out;
  }

  Labels labels_of(const State& s) const {
    Labels out{};
    for (int i = 0; i < n_; ++i) out[i] = static_cast<std::uint8_t>(label(s.cells[i]));
    return out;
  }

  std::uint64_t closing_of(const Labels& labels) const {
    const int top = labels[0];
    const auto label_at = [&](int k) { return k < n_ ? int{labels[k]} : n_; };
    std::uint64_t closing = 0;
    for (int k = 2; k <= n_; ++k)
      if (std::abs(label_at(k) - top) == 1 && is_gap(label_at(k - 1), label_at(k))) closing |= std::uint64_t{1} << (k - 2);
    return closing;
  }
#endif

  int n_;
  std::array<std::uint8_t, PancakeState::kCapacity> label_{};    // size-1 -> its position in the target
  bool sorted_target_ = true;                                      // the target is 1..N from the top
  std::uint64_t in_stack_ = 0;                                     // positions 0..N-1
  std::uint64_t flips_ = 0;                                        // moves 0..N-2
  std::array<std::uint8_t, 64> plate_{};                           // byte N: N (N < 64)
  // Byte i: i + 1, the position below i (the last reads itself: with 64 pancakes the plate is
  // looked at apart).
  static constexpr std::array<std::uint8_t, 64> kNextPosition = [] {
    std::array<std::uint8_t, 64> next{};
    for (int i = 0; i < 64; ++i) next[i] = static_cast<std::uint8_t>(i < 63 ? i + 1 : 63);
    return next;
  }();
};

}  // namespace searchbench
