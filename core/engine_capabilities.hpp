// What an engine says it can do, declared in one place so that a typo is a compile error:
//
//   static constexpr EngineCapabilities kCapabilities{.whole_space = true, .threaded = true};
//
// A misspelled field does not compile (designated initialisers name real fields), and the
// registry checks each field against the members it implies (registry/engines.hpp,
// EngineTraits): a whole-space engine must have explore(), a distributed one its job hooks,
// and a capability declared the old way, as a constant of its own, is refused. Fields left
// out are false.
#pragma once

namespace searchbench {

struct EngineCapabilities {
  // explore(start): a whole-space search with per-depth counts, and estimate_explore_bytes
  // (start); unless counts_only, also path_to(target) over the table explore() kept.
  bool whole_space = false;
  bool threaded = false;              // honours SearchOptions::threads
  bool counts_only = false;           // whole-space counts only: no table of paths, no point queries
  bool perfect_encoder_only = false;  // runs with encoders whose every key is a state
  bool needs_inverse_moves = false;   // runs on puzzles whose every move has an inverse move
  // Runs across MPI ranks, one job per process (compare, the matrix and the benchmarks leave
  // it out). The engine then has the job's two hooks, which the front end reaches through
  // the registry: static bool same_configuration_everywhere(std::string_view canonical)
  // (every rank was started with rank 0's configuration; rank 0 says why not) and static
  // void end_job_on_error(int status) (no rank is left waiting in a collective).
  bool distributed = false;
  // Point queries through a heuristic (core/heuristic.hpp): search(start, target, heuristic);
  // the family builds it over each of its heuristics.
  bool uses_heuristic = false;
  bool any_optimal_path = false;  // shortest paths, not always the lexicographically smallest
};

}  // namespace searchbench
