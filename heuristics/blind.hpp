// Heuristic `blind`: zero everywhere. Every family has it: A* with it is Dijkstra's search
// (uniform cost, here breadth-first), IDA* with it iterative deepening without a
// transposition table, the baselines that show what a real heuristic saves.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/heuristic_capabilities.hpp"
#include "core/declared_options.hpp"
#include "core/search_options.hpp"

namespace searchbench {

template <class P>
class Blind {
 public:
  static constexpr std::string_view kName = "blind";
  static constexpr std::string_view kSummary = "zero everywhere: uniform-cost search, the baseline";
  static constexpr HeuristicCapabilities kCapabilities{.consistent = true, .estimate_after = true};
  using Options = NoOptions;
  using State = typename P::State;

  static std::string fits(const P&) { return {}; }
  Blind(const P&, const State&, const Options&, const SearchOptions&) {}
  int estimate(const State&) const { return 0; }
  int estimate_after(const State&, int, int, const State&) const { return 0; }
  std::uint64_t bytes() const { return 0; }
};

}  // namespace searchbench
