// The one expansion step of the two-bit engines: expand the frontier cells of some words of
// a table of cells, claim at once the successors that land in that table, and hand every
// other successor to a routing policy. The parallel engine's top-down levels
// (engines/parallel/two_bit_levels.hpp: the table is the whole space, nothing is routed),
// the mpi engine's rounds (engines/mpi_bfs.hpp: the table is a rank's slice, the rest goes to
// per-rank buffers) and the external engine's passes (engines/external_bfs.hpp: the table is
// one segment, the rest goes to per-segment buffers flushed to disk) all run this step, so
// the batching, prefetching and counting are written once and cannot drift apart.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/concepts.hpp"
#include "core/two_bit_cells.hpp"

namespace searchbench {

// States expanded together: their successor keys are computed and the cells they land on
// prefetched as a batch before any is claimed, so the random accesses into a table far
// larger than the caches overlap instead of stalling one after another.
inline constexpr std::size_t kExpansionBatch = 64;

// A thread's batch and counts.
struct ExpansionScratch {
  std::vector<Key> keys;    // the batch of frontier keys
  std::vector<Key> inside;  // their successors that land in the table, as cell indices
  std::uint64_t found = 0;  // cells this thread claimed at the next depth
  std::uint64_t expanded = 0, generated = 0;
};

// Where the successors go. base(): the key of the table's cell 0; owns(key): whether the
// key's cell is in the table (then it is claimed there); route(key): takes any other key;
// before_batch(): called before each batch (a place to stop at a signal).
template <class R>
concept ExpansionRouting = requires(R r, Key k) {
  { r.base() } -> std::convertible_to<Key>;
  { r.owns(k) } -> std::convertible_to<bool>;
  r.route(k);
  r.before_batch();
};

// Local: the table holds the whole space, every successor is claimed in it.
struct ClaimLocally {
  static constexpr bool kAllLocal = true;  // nothing to test or route: the step's tightest loop
  static constexpr Key base() { return 0; }
  static constexpr bool owns(Key) { return true; }
  static void route(Key) {}
  static void before_batch() {}
};

// By rank: the table is the slice [lo, hi) of one rank; any other key is appended, as an
// offset into its owner's slice (`Wire`: 32 or 64 bits), to that rank's buffer.
template <class Wire>
struct RouteByRank {
  Key lo, hi, slice;
  std::vector<std::vector<Wire>>& outgoing;  // per destination rank
  Key base() const { return lo; }
  bool owns(Key n) const { return n >= lo && n < hi; }
  void route(Key n) {
    const Key owner = n / slice;
    outgoing[owner].push_back(static_cast<Wire>(n - owner * slice));
  }
  static void before_batch() {}
};

// Whether a policy routes nothing (kAllLocal): its keys start at 0 and all are owned.
template <class R>
constexpr bool all_local() {
  if constexpr (requires { R::kAllLocal; }) return R::kAllLocal;
  else return false;
}

// Expands the cells holding `current` in words [begin, end) of `cells` (retiring them),
// claims with `next` the successors the table owns and routes the others.
// Flattened: the decode, moves and encode of every successor are inlined into this loop
// (as they were into each of the three loops this one replaces); a policy keeps its cold
// work out of line (SegmentRouter::flush).
template <Puzzle P, Encoder<P> E, ExpansionRouting Routing>
[[gnu::flatten]] void expand_and_route(const P& puzzle, const E& enc, TwoBitCells& cells, std::uint64_t begin, std::uint64_t end,
                      unsigned current, unsigned next, ExpansionScratch& local, Routing& routing) {
  const Key base = routing.base();
  auto decoder = key_decoder(enc);  // the frontier comes in increasing key order
  for_each_frontier_batch(cells, begin, end, current, base, local.keys, kExpansionBatch, [&] {
    routing.before_batch();
    local.inside.clear();
    typename P::State successor;
    if constexpr (all_local<Routing>()) {
      // Every successor is inside: no test per successor, and the count is the batch's.
      for (const Key k : local.keys)
        for_each_successor_key(puzzle, enc, decoder, k, successor, [&](Key n) {
          __builtin_prefetch(cells.address_of(n), 1);
          local.inside.push_back(n);
        });
      local.generated += local.inside.size();
    } else {
      for (const Key k : local.keys)
        local.generated += for_each_successor_key(puzzle, enc, decoder, k, successor, [&](Key n) {
          if (routing.owns(n)) {
            __builtin_prefetch(cells.address_of(n - base), 1);
            local.inside.push_back(n - base);
          } else {
            routing.route(n);
          }
        });
    }
    local.found += cells.claim_all(local.inside.data(), local.inside.size(), next);
    local.expanded += local.keys.size();
  });
}

}  // namespace searchbench
