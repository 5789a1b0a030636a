// Every state of a small puzzle's start component, as text: every key of the family's
// perfect encoder (the default), decoded, that lies in the start's component. The encoder
// tests check separately that those encoders are bijections onto the states.
#pragma once

#include <string>
#include <vector>

#include "registry/registry.hpp"

namespace searchbench::testing_support {

inline std::vector<std::string> all_states(const std::string& puzzle_name) {
  SolverConfig c;
  c.puzzle = puzzle_name;
  return make_solver(c)->puzzle().component_states();
}

}  // namespace searchbench::testing_support
