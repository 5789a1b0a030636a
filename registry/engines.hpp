// The engine list: every engine the suite runs, in the order `list`, `compare`, the tests
// and the benchmarks show them. An engine is a class template over (puzzle, encoder) that
// declares kName and kSummary; what it can do is read off its interface:
//   whole space  it has explore(start)
//   encoder      it is constructed from (puzzle, encoder, options), not (puzzle, options)
//   threaded     it declares kThreaded = true (honours SearchOptions::threads)
//   counts only  it declares kCountsOnly = true (whole-space counts; no paths, no point queries)
//   perfect only it declares kPerfectEncoderOnly = true (runs with encoders whose every key
//                is a state; the family builds it over those only)
//   inverses     it declares kNeedsInverseMoves = true (runs on puzzles whose every move has
//                an inverse move, Puzzle::inverse_move(m) >= 0; the others are left out)
//   distributed  it declares kDistributed = true (runs across MPI ranks, one job per
//                process: compare, the matrix and the benchmarks leave it out)
//   heuristic    it declares kUsesHeuristic = true: point queries through a heuristic
//                (core/heuristic.hpp), `search(start, target, heuristic)`; the family builds
//                it over each of its heuristics
//   any optimal  it declares kAnyOptimalPath = true: its paths are shortest but not always
//                the lexicographically smallest (the tests check their length and moves)
//   options      it declares `using Options = S;`, S a struct of declared options
//                (core/declared_options.hpp), and takes an S after its SearchOptions
// Adding an engine: its file under engines/, its #include and its name in BuiltinEngines.
#pragma once

#include <concepts>
#include <string_view>
#include <vector>

#include "core/declared_options.hpp"
#include "core/result.hpp"
#include "core/search_options.hpp"
#include "engines/astar.hpp"
#include "engines/bidir_bfs.hpp"
#include "engines/external_bfs.hpp"
#include "engines/frontier_bfs.hpp"
#include "engines/iddfs.hpp"
#include "engines/idastar.hpp"
#include "engines/naive_bfs.hpp"
#include "engines/parallel_bfs.hpp"
#include "engines/ring_bfs.hpp"

namespace searchbench {

template <template <class, class> class... Engines>
struct EngineList {
  // The list with `More` after its own engines.
  template <template <class, class> class... More>
  using With = EngineList<Engines..., More...>;
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

// What engine template `Engine` offers over puzzle P with encoder E.
template <template <class, class> class Engine, class P, class E>
struct EngineTraits {
  using Type = Engine<P, E>;
  static constexpr std::string_view name = Type::kName;
  static constexpr std::string_view summary = Type::kSummary;
  static constexpr bool uses_encoder = std::constructible_from<Type, const P&, const E&, SearchOptions>;
  static constexpr bool whole_space = requires(Type& e, const typename P::State& s) { e.explore(s); };
  static constexpr bool threaded = requires { requires Type::kThreaded; };
  static constexpr bool counts_only = requires { requires Type::kCountsOnly; };
  static constexpr bool perfect_only = requires { requires Type::kPerfectEncoderOnly; };
  static constexpr bool distributed = requires { requires Type::kDistributed; };
  static constexpr bool needs_inverse_moves = requires { requires Type::kNeedsInverseMoves; };
  static constexpr bool uses_heuristic = requires { requires Type::kUsesHeuristic; };
  static constexpr bool any_optimal_path = requires { requires Type::kAnyOptimalPath; };
  // The options it declares (Type::Options, core/declared_options.hpp).
  static std::vector<OptionSpec> options() {
    if constexpr (requires { typename Type::Options; }) return option_specs<typename Type::Options>();
    else return {};
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
