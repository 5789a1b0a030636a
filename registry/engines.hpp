// The engine list: every engine the suite runs, in the order `list`, `compare`, the tests
// and the benchmarks show them. An engine is a class template over (puzzle, encoder) that
// declares
//   kName, kSummary
//   kCapabilities  an EngineCapabilities (core/engine_capabilities.hpp): whole space,
//                  threaded, counts only, perfect encoders only, inverse moves, distributed,
//                  heuristic, any optimal path; EngineTraits below checks each against the
//                  members it implies, so a misspelled member is a compile error
//   Options        `using Options = S;`, S a struct of declared options
//                  (core/declared_options.hpp; NoOptions when it has none), taken after
//                  its SearchOptions
// and whether it takes an encoder is read off its constructor: (puzzle, encoder, options),
// not (puzzle, options).
// Adding an engine: its file under engines/, its #include and its name in BuiltinEngines;
// the threaded ones reach the ThreadSanitizer build (registry/threaded_engines.hpp) and its
// test selection by their kCapabilities alone.
#pragma once

#include <concepts>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/declared_options.hpp"
#include "core/engine_capabilities.hpp"
#include "core/result.hpp"
#include "core/search_options.hpp"
#include "engines/astar.hpp"
#include "engines/bidir_bfs.hpp"
#include "engines/external_bfs.hpp"
#include "engines/frontier_bfs.hpp"
#include "engines/idastar.hpp"
#include "engines/iddfs.hpp"
#include "engines/naive_bfs.hpp"
#include "engines/parallel_bfs.hpp"
#include "engines/ring_bfs.hpp"

namespace searchbench {

template <template <class, class> class... Engines>
struct EngineList;

// The engines of a list that Keep<Engine>::value selects, in order (EngineList::Where).
template <template <template <class, class> class> class Keep, class Kept, template <class, class> class... Rest>
struct KeepEngines {
  using type = Kept;
};
template <template <template <class, class> class> class Keep, template <class, class> class... Kept,
          template <class, class> class First, template <class, class> class... Rest>
struct KeepEngines<Keep, EngineList<Kept...>, First, Rest...> {
  using type = typename KeepEngines<Keep, std::conditional_t<Keep<First>::value, EngineList<Kept..., First>, EngineList<Kept...>>,
                                    Rest...>::type;
};

template <template <class, class> class... Engines>
struct EngineList {
  // The list with `More` after its own engines.
  template <template <class, class> class... More>
  using With = EngineList<Engines..., More...>;
  // The list's engines that Keep<Engine>::value selects.
  template <template <template <class, class> class> class Keep>
  using Where = typename KeepEngines<Keep, EngineList<>, Engines...>::type;
  // Calls fn.template operator()<Engine>() for each engine, in order.
  template <class Fn>
  static void for_each(Fn&& fn) {
    (fn.template operator()<Engines>(), ...);
  }
};

// The engines of the searchbench executable. The mpi engine is not among them: it has an
// executable of its own, searchbench-mpi (registry/mpi_engines.hpp), so that no other run
// loads the MPI libraries.
using BuiltinEngines = EngineList<RingBfs, ParallelBfs, BidirBfs, Iddfs, NaiveBfs, ExternalBfs, FrontierBfs, IdaStar, AStar>;

// A capability declared the old way, as a constant of its own, which kCapabilities replaced.
template <class T>
concept DeclaresLooseCapability = requires { T::kThreaded; } || requires { T::kCountsOnly; } ||
                                  requires { T::kPerfectEncoderOnly; } || requires { T::kDistributed; } ||
                                  requires { T::kNeedsInverseMoves; } || requires { T::kUsesHeuristic; } ||
                                  requires { T::kAnyOptimalPath; };

// What engine template `Engine` offers over puzzle P with encoder E, as it declares it.
template <template <class, class> class Engine, class P, class E>
struct EngineTraits {
  using Type = Engine<P, E>;
  static_assert(requires { { Type::kCapabilities } -> std::convertible_to<EngineCapabilities>; },
                "an engine declares static constexpr EngineCapabilities kCapabilities{...} (core/engine_capabilities.hpp)");
  static_assert(requires { typename Type::Options; }, "an engine declares `using Options = S;` (NoOptions when it has none)");
  static_assert(!DeclaresLooseCapability<Type>,
                "an engine declares its capabilities in kCapabilities, not as constants of their own (kThreaded, ...)");
  static constexpr EngineCapabilities capabilities = Type::kCapabilities;
  static constexpr bool has_explore = requires(Type& e, const typename P::State& s) { e.explore(s); };
  static_assert(capabilities.whole_space == has_explore,
                "kCapabilities.whole_space and the member explore(start) go together: one is missing or misspelled");
  static_assert(!capabilities.whole_space ||
                    requires(const Type& e, const typename P::State& s) { { e.estimate_explore_bytes(s) } -> std::same_as<std::uint64_t>; },
                "a whole-space engine has std::uint64_t estimate_explore_bytes(start) const");
  static_assert(!capabilities.whole_space || capabilities.counts_only ||
                    requires(Type& e, const typename P::State& s) { e.path_to(s); },
                "a whole-space engine that keeps a table (not counts_only) has path_to(target)");
  static_assert(capabilities.distributed == requires(std::string_view text, int status) {
    { Type::same_configuration_everywhere(text) } -> std::same_as<bool>;
    Type::end_job_on_error(status);
  }, "kCapabilities.distributed and the static members same_configuration_everywhere(canonical) and "
     "end_job_on_error(status) go together: one is missing or misspelled");

  static constexpr std::string_view name = Type::kName;
  static constexpr std::string_view summary = Type::kSummary;
  static constexpr bool uses_encoder = std::constructible_from<Type, const P&, const E&, SearchOptions>;
  static constexpr bool whole_space = capabilities.whole_space;
  static constexpr bool threaded = capabilities.threaded;
  static constexpr bool counts_only = capabilities.counts_only;
  static constexpr bool perfect_only = capabilities.perfect_encoder_only;
  static constexpr bool distributed = capabilities.distributed;
  static constexpr bool needs_inverse_moves = capabilities.needs_inverse_moves;
  static constexpr bool uses_heuristic = capabilities.uses_heuristic;
  static constexpr bool any_optimal_path = capabilities.any_optimal_path;
  // The options it declares (Type::Options, core/declared_options.hpp).
  static std::vector<OptionSpec> options() { return option_specs<typename Type::Options>(); }
  // A distributed engine's job hooks (EngineInfo), null for the others.
  static constexpr auto same_configuration_everywhere() {
    if constexpr (distributed) return &Type::same_configuration_everywhere;
    else return static_cast<bool (*)(std::string_view)>(nullptr);
  }
  static constexpr auto end_job_on_error() {
    if constexpr (distributed) return &Type::end_job_on_error;
    else return static_cast<void (*)(int)>(nullptr);
  }
};

}  // namespace searchbench

// A build may name a header of its own that defines AllEngines (the test tree's plug-in
// test adds an engine that exists only there: BuiltinEngines::With<...>).
#ifdef SEARCHBENCH_ENGINE_LIST
#include SEARCHBENCH_ENGINE_LIST
#else
namespace searchbench {
using AllEngines = BuiltinEngines;
}  // namespace searchbench
#endif
