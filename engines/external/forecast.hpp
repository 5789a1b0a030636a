// Free-space forecasting of the external engine (engines/external_bfs.hpp): a fresh run
// needs room for a generation of cells and two more segments; before each pass the free
// space of the work folder must hold two more segments plus the expected growth of the
// successor lists. Otherwise the run stops with one line before it writes anything, and
// can be resumed once space is freed (as it can after a write that finds the disk full).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "core/errors.hpp"
#include "core/memory_budget.hpp"
#include "core/offset_runs.hpp"
#include "core/work_dir.hpp"
#include "engines/external/layout.hpp"
#include "engines/external/work_state.hpp"

namespace searchbench::external {

// Bytes the folder is expected to grow by while this depth's pass routes its successor
// lists, from segment `first_segment` on (`moves`: the puzzle's move count). The keys
// claimed and routed to this depth bound its states, but the routed ones count every
// duplicate and every state already seen (about twice the states on the widest levels), so
// once two depths are known the new lists are estimated as the last depth's states times
// its growth ratio plus a quarter, times the successors the last pass routed per state and
// the bytes each took; the lists this pass applies are deleted as it goes and count
// against that.
inline std::uint64_t expected_routing(const Manifest& m, const ExternalLayout& l, int depth, std::uint64_t first_segment, int moves) {
  const std::uint64_t pending = m.pending_entries;
  const std::uint64_t frontier_bound = m.claimed_ahead_total() + pending;
  const auto& counts = m.depth_counts;
  if (counts.size() < 2 || static_cast<int>(counts.size()) != depth || pending == 0)
    return l.expected_routed_bytes(frontier_bound, moves);
  if (first_segment >= l.segments) return 0;
  std::uint64_t incoming_bytes = 0, total_incoming_bytes = 0;  // of the segments still to do; of all
  for (std::uint64_t t = 0; t < l.segments; ++t) {
    total_incoming_bytes += m.incoming[t].length;
    if (t >= first_segment) incoming_bytes += m.incoming[t].length;
  }
  const double last = static_cast<double>(counts.back()), before = static_cast<double>(counts[counts.size() - 2]);
  const double states = std::min(static_cast<double>(frontier_bound), last * std::max(1.0, last / before) * 1.25);
  const double routed_per_state = static_cast<double>(pending) / last;
  const double bytes_per_successor = static_cast<double>(total_incoming_bytes) / static_cast<double>(pending);
  const double expected = states * routed_per_state * bytes_per_successor + static_cast<double>(l.segments * l.segments * sizeof(OffsetRunHeader));
  // The new lists grow about evenly over the segments as the pass goes, while each
  // segment's applied list is removed once the segment after it is done: the folder
  // grows by the new bytes less the applied ones, plus at most two segments' lists.
  const double remaining = static_cast<double>(l.segments - first_segment) / static_cast<double>(l.segments);
  const double lag = 2.0 * static_cast<double>(incoming_bytes) / static_cast<double>(l.segments - first_segment);
  return static_cast<std::uint64_t>(std::max(0.0, expected * remaining - static_cast<double>(incoming_bytes)) + lag);
}

// Before a fresh run of `puzzle` writes anything: a generation of cells and two segments.
inline void require_space_for_start(const WorkDir& dir, const ExternalLayout& l, Key bound, const std::string& puzzle) {
  const std::uint64_t cells = l.generation_bytes(bound) + 2 * ExternalLayout::segment_bytes(l.segment_keys);
  const std::uint64_t free = dir.free_bytes();
  if (free < cells) {
    const auto [need_text, free_text] = human_bytes_apart(cells, free);
    throw InputError("an out-of-core run of " + puzzle + " needs at least " + need_text + " in '" + dir.path() +
                     "' (a generation of two-bit cells and two more segments, plus successor lists), only " + free_text + " free");
  }
}

// Before the pass of `depth` expands, from segment `first_segment` on: two segments and
// the successor lists it is expected to add.
inline void require_space_for_pass(const WorkDir& dir, const Manifest& m, const ExternalLayout& l, int depth,
                                   std::uint64_t first_segment, const std::string& puzzle, int moves) {
  const std::uint64_t need = 2 * ExternalLayout::segment_bytes(l.segment_keys) + expected_routing(m, l, depth, first_segment, moves);
  if (const std::uint64_t free = dir.free_bytes(); free < need) {
    const auto [need_text, free_text] = human_bytes_apart(need, free);
    throw InputError("depth " + std::to_string(depth) + " of " + puzzle + " may need " + need_text + " more in '" + dir.path() +
                     "', only " + free_text + " free; free some space and rerun with --resume");
  }
}

}  // namespace searchbench::external
