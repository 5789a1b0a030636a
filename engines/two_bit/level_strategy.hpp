// The options of the level-synchronous engines that pick a strategy per level (parallel,
// mpi): whether a level may run bottom-up, and the frontier size at which it does.
#pragma once

#include "core/declared_options.hpp"

namespace searchbench {

struct LevelStrategyOptions {
  bool top_down = false;  // never switch a level to bottom-up
  // A level runs bottom-up once its frontier outnumbers the unseen states by this factor
  // (1.0 chosen by timing whole runs; scripts/reproduce.sh measures the effect).
  double bottom_up_ratio = 1.0;

  template <class V>
  void declare(V& v) {
    v(top_down, {.name = "top-down", .help = "never switch a level to bottom-up (for comparison)"});
    v(bottom_up_ratio, {.name = "bottom-up-ratio",
                        .help = "a level runs bottom-up once its frontier outnumbers the unseen states by this factor",
                        .value_noun = "a bottom-up ratio"});
  }
};

}  // namespace searchbench
