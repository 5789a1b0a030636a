// Compiled by tests/plugins/check_compile_fails.cmake once per CASE: a puzzle type whose
// declared hooks (kHooks) and members disagree must not compile, and the error must name
// the hook. CASE 0 is the same puzzle spelled right, which must compile.
#include <string_view>

#include "registry/family.hpp"
#include "tests/plugins/dial.hpp"

namespace searchbench::test_plugins {

struct HookedDial : Dial {
  using Dial::Dial;
#if CASE == 1  // the member misspelled: benchmark_pln for benchmark_plan
  static constexpr PuzzleHooks kHooks{.benchmark_plan = true};
  static BenchmarkPlan benchmark_pln() { return {}; }
#elif CASE == 2  // the member without its declaration
  static constexpr PuzzleHooks kHooks{};
  HookedDial for_start(const State&) const { return *this; }
#elif CASE == 3  // a hook's field misspelled
  static constexpr PuzzleHooks kHooks{.clasic_encoder = "position"};
#else  // spelled right
  static constexpr PuzzleHooks kHooks{.classic_encoder = "position", .benchmark_plan = true};
  static BenchmarkPlan benchmark_plan() { return {}; }
#endif
};

static_assert(FamilyHooksAgree<HookedDial>::value);

}  // namespace searchbench::test_plugins
