// Builds solvers for one puzzle family: every engine of the engine list over every encoder
// of the family. Only the per-family translation units the build generates include this
// (each instantiates make_family_solver for one family).
#pragma once

#include <memory>
#include <type_traits>
#include <string>

#include "core/errors.hpp"
#include "registry/engines.hpp"
#include "registry/families.hpp"
#include "registry/solver_impl.hpp"

namespace searchbench {

template <class F>
std::unique_ptr<Solver> make_family_solver(const typename F::Puzzle& shape, const SolverConfig& config) {
  using P = typename F::Puzzle;
  using State = typename P::State;
  const State start = config.start ? shape.parse(*config.start) : shape.start();
  const P puzzle = [&] {
    if constexpr (requires { shape.for_start(start); }) return shape.for_start(start);
    else return shape;
  }();
  const std::string& engine = config.engine;
  const SearchOptions& options = config.options;

  std::string chosen = config.encoder;
  F::for_each_encoder([&]<class E>() {  // an encoder may still answer to a former name
    if constexpr (requires { E::kFormerName; }) {
      if (chosen != E::kFormerName) return;
      if (auto why = E::former_name_fits(puzzle); !why.empty())
        throw InputError("encoder '" + chosen + "' does not fit " + puzzle.name() + ": " + why + " (use '" +
                         std::string(E::kName) + "')");
      chosen = E::kName;
    }
  });
  if (chosen.empty()) {  // default: the last listed that fits (the family's perfect ranking)
    for (const auto& e : F::encoders(puzzle))
      if (e.fit.empty()) chosen = e.name;
  }
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
        solver = std::make_unique<SolverImpl<WholeStates, NoEncoder<WholeStates>, Engine<WholeStates, NoEncoder<WholeStates>>>>(
            puzzle, start, options);
      } else {
        if (chosen != E::kName) return;
        encoder_known = true;
        if (auto why = E::fits(puzzle); !why.empty())
          throw InputError("encoder '" + std::string(E::kName) + "' does not fit " + puzzle.name() + ": " + why);
        if constexpr (Traits::perfect_only && !every_key_is_state<E>())
          throw InputError("engine '" + engine + "' needs a perfect encoder (every key a state); '" + std::string(E::kName) +
                           "' is not one");
        else solver = std::make_unique<SolverImpl<P, E, Engine<P, E>>>(puzzle, start, options);
      }
    });
  });
  if (!solver) {
    if (encoder_known || chosen.empty()) throw InputError("unknown engine '" + engine + "'");
    std::string known;
    for (const auto& e : F::encoders(puzzle)) known += (known.empty() ? "" : ", ") + e.name;
    throw InputError("unknown encoder '" + chosen + "' for " + puzzle.name() + " (choose one of: " + known + ")");
  }
  return solver;
}

}  // namespace searchbench
