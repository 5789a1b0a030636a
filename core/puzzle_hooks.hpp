// What a puzzle type offers beyond the Puzzle concept (core/concepts.hpp), declared in one
// place so that a typo is a compile error:
//
//   static constexpr PuzzleHooks kHooks{.classic_encoder = "bitpack", .benchmark_plan = true};
//
// A misspelled field does not compile, and the registry checks each member hook against
// the member it names (registry/family.hpp, FamilyHooksAgree): declared without the member,
// or the member without its declaration, is a compile error naming the hook.
#pragma once

#include <string_view>

namespace searchbench {

struct PuzzleHooks {
  // The encoder of the family's classic contest solution, the reports' "x classic"
  // yardstick with the ring engine (empty: none).
  std::string_view classic_encoder = {};
  // The commands' default puzzle, where this is the first family (empty: its first example).
  std::string_view default_puzzle = {};
  // The registry offers it every name that ends in .tws or .json (a definition file).
  bool reads_files = false;
  // `struct TextOptions` (declared options of how a state is written, with kAppliesTo
  // naming the family's puzzles in errors) and `read(text, options, what)`, how the front
  // ends read a state the user wrote (the magic board's --order).
  bool text_options = false;
  // `static BenchmarkPlan benchmark_plan()`: what the benchmarks run on it besides whole
  // spaces (core/benchmark_plan.hpp).
  bool benchmark_plan = false;
  // `for_start(state)`: the instance a start state needs (checkers: the piece counts the
  // encoders rank by).
  bool for_start = false;
  // `path_text(moves)`: a path written with the moves' names, where they are words.
  bool path_text = false;
  // `redundant_after(last, move)`: moves a depth-first search may skip after `last`.
  bool redundant_after = false;
};

}  // namespace searchbench
