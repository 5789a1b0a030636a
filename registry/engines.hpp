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
// Adding an engine: its file under engines/, its #include and its name in AllEngines.
#pragma once

#include <concepts>
#include <string_view>

#include "core/result.hpp"
#include "engines/bidir_bfs.hpp"
#include "engines/external_bfs.hpp"
#include "engines/frontier_bfs.hpp"
#include "engines/iddfs.hpp"
#include "engines/naive_bfs.hpp"
#include "engines/parallel_bfs.hpp"
#include "engines/ring_bfs.hpp"
#ifdef SEARCHBENCH_HAVE_MPI
#include "engines/mpi_bfs.hpp"
#endif

namespace searchbench {

template <template <class, class> class... Engines>
struct EngineList {
  // Calls fn.template operator()<Engine>() for each engine, in order.
  template <class Fn>
  static void for_each(Fn&& fn) {
    (fn.template operator()<Engines>(), ...);
  }
};

#ifdef SEARCHBENCH_HAVE_MPI  // built when CMake finds MPI
using AllEngines = EngineList<RingBfs, ParallelBfs, BidirBfs, Iddfs, NaiveBfs, ExternalBfs, FrontierBfs, MpiBfs>;
#else
using AllEngines = EngineList<RingBfs, ParallelBfs, BidirBfs, Iddfs, NaiveBfs, ExternalBfs, FrontierBfs>;
#endif

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
};

}  // namespace searchbench
