// Samples of the external engine (engines/external_bfs.hpp): a few states of each depth go
// into the manifest, one per segment from the first segments that hold any, so that a run
// too large to keep can still be spot-checked afterwards (a point query must find each at
// its depth; scripts/long_run.py --check-samples). The word a segment's sample is taken
// from is picked by the depth and the segment, so the samples spread over the space.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "core/concepts.hpp"
#include "core/two_bit_cells.hpp"

namespace searchbench::external {

inline constexpr std::size_t kSamplesPerDepth = 3;

// The first cell holding `code` from a word picked by the depth and segment, wrapping.
inline std::optional<Key> sample_cell(const TwoBitCells& cells, std::uint64_t words, unsigned code, int depth, std::uint64_t segment) {
  const std::uint64_t start = (static_cast<std::uint64_t>(depth) * 0x9E3779B97F4A7C15ULL ^ segment * 0xC2B2AE3D27D4EB4FULL) % words;
  for (std::uint64_t i = 0; i < words; ++i) {
    const std::uint64_t w = (start + i) % words;
    if (const std::uint64_t hits = TwoBitCells::cells_with(cells.word(w), code)) return TwoBitCells::key_of(w, hits);
  }
  return std::nullopt;
}

}  // namespace searchbench::external
