// Must not compile (ctest NodeCache.MisspeltHookFailsToCompile): a heuristic that declares
// a NodeCache but misspells estimate_child, which `requires` alone would silently skip.
#include "core/heuristic.hpp"
#include "puzzles/sliding_tiles.hpp"

namespace searchbench {

struct Misspelt {
  static constexpr std::string_view kName = "misspelt";
  static constexpr std::string_view kSummary = "declares NodeCache, misspells estimate_child";
  struct Options {};
  struct NodeCache {
    int h;
  };
  Misspelt(const SlidingTiles&, const TilesState&, const Options&, const SearchOptions&) {}
  static std::string fits(const SlidingTiles&) { return {}; }
  int estimate(const TilesState&) const { return 0; }
  std::uint64_t bytes() const { return 0; }
  NodeCache cache_of(const TilesState&) const { return {0}; }
  int estimate_chlid(const TilesState&, const NodeCache&, int, const TilesState&, NodeCache&) const { return 0; }
};

static_assert(Heuristic<Misspelt, SlidingTiles>);

}  // namespace searchbench
