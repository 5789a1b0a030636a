// Compiled by tests/plugins/check_compile_fails.cmake once per CASE: a heuristic whose
// declared capabilities (kCapabilities) and members disagree must not compile, and the
// error must name the hook. CASE 0 is the same heuristic spelled right, which must compile.
#include <cstdint>
#include <string>
#include <string_view>

#include "core/heuristic.hpp"
#include "puzzles/sliding_tiles.hpp"

namespace searchbench {

struct MisspelledHeuristic {
  static constexpr std::string_view kName = "misspelled";
  static constexpr std::string_view kSummary = "a heuristic whose declarations disagree";
  struct Options {};
  struct NodeCache {
    int h = 0;
  };
#if CASE == 1  // a node-cache hook misspelled: estimate_chlid for estimate_child
  static constexpr HeuristicCapabilities kCapabilities{.node_cache = true};
  int estimate_chlid(const TilesState&, const NodeCache&, int, const TilesState&, NodeCache&) const { return 0; }
#elif CASE == 2  // node-cache members without the declaration
  static constexpr HeuristicCapabilities kCapabilities{};
  int estimate_child(const TilesState&, const NodeCache&, int, const TilesState&, NodeCache&) const { return 0; }
#elif CASE == 3  // estimate_after declared, its member misspelled
  static constexpr HeuristicCapabilities kCapabilities{.estimate_after = true};
  int estimate_afterr(const TilesState&, int, int, const TilesState&) const { return 0; }
  int estimate_child(const TilesState&, const NodeCache&, int, const TilesState&, NodeCache&) const { return 0; }
#elif CASE == 4  // consistency declared the old way
  static constexpr HeuristicCapabilities kCapabilities{.node_cache = true};
  static constexpr bool kConsistent = true;
  int estimate_child(const TilesState&, const NodeCache&, int, const TilesState&, NodeCache&) const { return 0; }
#else  // spelled right
  static constexpr HeuristicCapabilities kCapabilities{.consistent = true, .node_cache = true};
  int estimate_child(const TilesState&, const NodeCache&, int, const TilesState&, NodeCache&) const { return 0; }
#endif
  MisspelledHeuristic(const SlidingTiles&, const TilesState&, const Options&, const SearchOptions&) {}
  static std::string fits(const SlidingTiles&) { return {}; }
  int estimate(const TilesState&) const { return 0; }
  std::uint64_t bytes() const { return 0; }
  NodeCache cache_of(const TilesState&) const { return {}; }
};

static_assert(Heuristic<MisspelledHeuristic, SlidingTiles>);

}  // namespace searchbench
