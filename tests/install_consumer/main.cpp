// Uses the installed library the way a program outside the tree would: asks the registry
// for a solver and explores a whole space, then checks the answer against the puzzle's
// known size and radius (msquare 2x3: 6! = 720 boards, radius 12).
#include <cstdio>

#include "registry/registry.hpp"

int main() {
  searchbench::SolverConfig config;
  config.puzzle = "msquare-2x3";
  config.engine = "ring";
  const auto result = searchbench::make_solver(config)->explore();
  std::printf("%s: %llu states, radius %d\n", config.puzzle.c_str(), static_cast<unsigned long long>(result.states()),
              static_cast<int>(result.radius()));
  return result.states() == 720 && result.radius() == 12 ? 0 : 1;
}
