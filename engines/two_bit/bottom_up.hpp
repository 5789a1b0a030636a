// A bottom-up level of the two-bit search over one chunk of cell words (direction-
// optimizing BFS, Beamer et al.): every unseen cell looks for a parent holding the current
// code, trying the moves in order and stopping at the first parent found; one move at a
// time across the whole batch, so the parents' cells can be prefetched together. It
// decodes keys nobody generated, so it needs an encoder whose every key is a state.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/concepts.hpp"
#include "core/two_bit_cells.hpp"
#include "engines/two_bit/expansion_kernel.hpp"

namespace searchbench {

// Per-thread scratch of the two-bit levels (the parallel and the mpi engine): the batch
// being worked on and the thread's counts, those of the shared expansion step
// (engines/two_bit/expansion_kernel.hpp) plus the parents looked up by bottom-up levels.
// Unseen cells are resolved together in the expansion step's batch, for the same reason
// (their parents' cells are prefetched as a batch).
inline constexpr std::size_t kTwoBitBatch = kExpansionBatch;

template <class State>
struct TwoBitScratch : ExpansionScratch {
  std::vector<Key> neighbours;  // bottom-up: a parent key per open cell of the batch
  std::vector<State> states;
};

// The unseen cells of words [begin, end) look for a parent holding the current code.
// `base` is the key of cell 0 (a rank's slice of the space starts past 0);
// prefetch(parent key) and is_current(parent key) look a parent up wherever the current
// level is kept (the cells themselves, or another rank's frontier bits); a cell that finds
// one is marked `next`.
template <Puzzle P, Encoder<P> E, class Prefetch, class IsCurrent>
void find_parents_in_words(const P& puzzle, const E& enc, TwoBitCells& cells, Key base, unsigned next, std::uint64_t begin,
                           std::uint64_t end, TwoBitScratch<typename P::State>& local, Prefetch prefetch, IsCurrent is_current) {
  using State = typename P::State;
  constexpr Key kNoKey = ~Key{0};
  const int moves = puzzle.move_count();
  local.keys.clear();
  auto decoder = key_decoder(enc);  // the unseen cells come in increasing key order
  // An encoder that moves keys by table needs no state: none is decoded (one stands in).
  constexpr bool kStates = !E::kCapabilities.key_successors;
  const State stand_in{};
  auto resolve = [&] {
    local.states.clear();
    if constexpr (kStates)
      for (const Key k : local.keys) local.states.push_back(decoder.decode(base + k));
    std::size_t open = local.keys.size();  // keys[0, open) have no parent found yet
    State parent;
    for (int m = 0; m < moves && open > 0; ++m) {
      local.neighbours.resize(open);
      for (std::size_t i = 0; i < open; ++i) {
        Key p = kNoKey;
        if (predecessor_key(puzzle, enc, base + local.keys[i], kStates ? local.states[i] : stand_in, m, parent, p)) {
          prefetch(p);
          ++local.generated;
        }
        local.neighbours[i] = p;
      }
      for (std::size_t i = 0; i < open;) {
        const Key p = local.neighbours[i];
        if (p == kNoKey || !is_current(p)) {
          ++i;
          continue;
        }
        cells.mark_owned_key(local.keys[i], next);  // words [begin, end) are this thread's
        ++local.found;
        --open;  // swap the resolved key out of the open range
        std::swap(local.keys[i], local.keys[open]);
        if constexpr (kStates) std::swap(local.states[i], local.states[open]);
        std::swap(local.neighbours[i], local.neighbours[open]);
      }
    }
    local.expanded += local.keys.size();
    local.keys.clear();
  };
  for (std::uint64_t w = begin; w != end; ++w) {
    for (std::uint64_t unseen = TwoBitCells::cells_with(cells.word(w), TwoBitCells::kUnseen); unseen; unseen &= unseen - 1) {
      local.keys.push_back(TwoBitCells::key_of(w, unseen));
      if (local.keys.size() == kTwoBitBatch) resolve();
    }
  }
  resolve();
}

template <Puzzle P, Encoder<P> E>
void two_bit_bottom_up_chunk(const P& puzzle, const E& enc, TwoBitCells& cells, int depth, std::uint64_t begin,
                             std::uint64_t end, TwoBitScratch<typename P::State>& local) {
  const unsigned current = TwoBitCells::current_code(depth);
  find_parents_in_words(
      puzzle, enc, cells, 0, TwoBitCells::next_code(depth), begin, end, local,
      [&](Key p) { __builtin_prefetch(cells.address_of(p), 0); }, [&](Key p) { return cells.get(p) == current; });
}

}  // namespace searchbench
