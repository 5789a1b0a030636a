// Builds solvers for one puzzle family: every engine of the engine list over every encoder
// of the family, each over the family's puzzle services (registry/family_puzzle.hpp). Only
// the per-family translation units the build generates include this, each with its one
// family header (registry/families/), and instantiate make_family_solver and
// make_family_puzzle for that family type: nothing here reads the family list, so one
// family's unit is not rebuilt for another's change.
#pragma once

#include <memory>
#include <type_traits>
#include <string>
#include <vector>

#include "core/closest_names.hpp"
#include "core/errors.hpp"
#include "registry/engines.hpp"
#include "registry/family_puzzle.hpp"
#include "registry/solver_impl.hpp"

namespace searchbench {

// The solver of engine Engine over encoder E (NoEncoder for whole-state engines), with the
// chosen heuristic for heuristic engines.
template <class F, template <class, class> class Engine, class P, class E>
std::unique_ptr<Solver> make_engine_solver(std::shared_ptr<FamilyPuzzleInstance<F>> instance, const P& puzzle, const SolverConfig& config) {
  using Traits = EngineTraits<Engine, P, E>;
  if constexpr (Traits::uses_heuristic) {
    const std::string chosen = F::chosen_heuristic(puzzle, config.heuristic);
    std::unique_ptr<Solver> solver;
    F::HeuristicTypes::for_each([&]<class H>() {
      if (!solver && chosen == H::kName)
        solver = std::make_unique<SolverImpl<P, E, Engine<P, E>, H>>(instance, puzzle, instance->start(), config.options,
                                                                    config.engine_options, config.heuristic_options);
    });
    return solver;
  } else {
    if (!config.heuristic.empty() || !config.heuristic_options.empty())
      throw InputError("engine '" + config.engine + "' is a blind search; --heuristic and its options apply to heuristic engines only");
    return std::make_unique<SolverImpl<P, E, Engine<P, E>>>(instance, puzzle, instance->start(), config.options,
                                                           config.engine_options);
  }
}

template <class F>
std::unique_ptr<Solver> make_family_solver(const typename F::Puzzle& shape, const SolverConfig& config) {
  using P = typename F::Puzzle;
  auto instance = std::make_shared<FamilyPuzzleInstance<F>>(shape, PuzzleConfig{config.puzzle, config.start, config.text_options});
  const P& puzzle = instance->puzzle();
  const std::string& engine = config.engine;
  const std::string chosen = F::chosen_encoder(puzzle, config.encoder);
  std::unique_ptr<Solver> solver;
  bool encoder_known = false;
  AllEngines::for_each([&]<template <class, class> class Engine>() {
    F::for_each_encoder([&]<class E>() {
      using Traits = EngineTraits<Engine, P, E>;
      if (solver || engine != Traits::name) return;
      if constexpr (!Traits::uses_encoder) {
        if (!config.encoder.empty() && config.encoder != "none")
          throw InputError("engine '" + engine + "' keeps whole states and takes no encoder (got '" + config.encoder + "')");
        // P spelled as a type that depends on E, so that clang does not check a whole-state
        // engine's constraints in this branch where it is discarded for encoder engines.
        using WholeStates = std::conditional_t<std::is_void_v<E>, void, P>;
        solver = make_engine_solver<F, Engine, WholeStates, NoEncoder<WholeStates>>(instance, puzzle, config);
      } else {
        if (chosen != E::kName) return;
        encoder_known = true;
        if (auto why = E::fits(puzzle); !why.empty())
          throw InputError("encoder '" + std::string(E::kName) + "' does not fit " + puzzle.name() + ": " + why);
        if constexpr (Traits::perfect_only && !every_key_is_state<E>())
          throw InputError("engine '" + engine + "' needs a perfect encoder (every key a state); '" + std::string(E::kName) +
                           "' is not one");
        else
          solver = make_engine_solver<F, Engine, P, E>(instance, puzzle, config);
      }
    });
  });
  if (!solver) {
    if (encoder_known || chosen.empty()) throw InputError("unknown engine '" + engine + "'");
    unknown_encoder(chosen, puzzle.name(), F::encoder_fits(puzzle));
  }
  return solver;
}

}  // namespace searchbench
