// Compiled by tests/plugins/check_compile_fails.cmake once per CASE: an engine whose
// declared capabilities and members disagree must not compile, and the error must say
// which declaration is wrong. CASE 0 is the same engine spelled right, which must compile
// (so a failure of the others is the check's, not a broken include).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "registry/engines.hpp"
#include "tests/plugins/dial.hpp"

namespace searchbench::test_plugins {

template <Puzzle P, Encoder<P> E>
class MisspelledBfs {
 public:
  using State = typename P::State;
  static constexpr std::string_view kName = "misspelled";
  static constexpr std::string_view kSummary = "an engine whose declarations disagree";
  using Options = NoOptions;
#if CASE == 1  // the whole-space member misspelled: explor for explore
  static constexpr EngineCapabilities kCapabilities{.whole_space = true};
  SearchResult explor(const State&) { return {}; }
  std::uint64_t estimate_explore_bytes(const State&) const { return 0; }
  std::optional<std::string> path_to(const State&) { return std::nullopt; }
#elif CASE == 2  // a capability field misspelled: threded for threaded
  static constexpr EngineCapabilities kCapabilities{.whole_space = true, .threded = true};
  SearchResult explore(const State&) { return {}; }
  std::uint64_t estimate_explore_bytes(const State&) const { return 0; }
  std::optional<std::string> path_to(const State&) { return std::nullopt; }
#elif CASE == 3  // a capability declared the old way, beside kCapabilities
  static constexpr EngineCapabilities kCapabilities{};
  static constexpr bool kThreaded = true;
#elif CASE == 4  // a distributed engine whose job hook is misspelled
  static constexpr EngineCapabilities kCapabilities{.distributed = true};
  static bool same_configuration_everywhere(std::string_view) { return true; }
  static void end_job_on_eror(int) {}
#else  // spelled right
  static constexpr EngineCapabilities kCapabilities{.whole_space = true, .threaded = true};
  SearchResult explore(const State&) { return {}; }
  std::uint64_t estimate_explore_bytes(const State&) const { return 0; }
  std::optional<std::string> path_to(const State&) { return std::nullopt; }
#endif
  MisspelledBfs(const P&, const E&, SearchOptions) {}
  SearchResult search(const State&, const State&) { return {}; }
};

// What the registry reads of every engine of its list.
static_assert(EngineTraits<MisspelledBfs, Dial, DialPosition>::name == "misspelled");

}  // namespace searchbench::test_plugins
