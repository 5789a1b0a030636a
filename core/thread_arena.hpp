// The threads a oneTBB arena can really run: the count asked for, capped at what oneTBB lets
// run at once (global_control's max_allowed_parallelism: the machine's cores, or the
// process's CPU affinity mask, by default). A larger arena gets no more workers, only a
// warning from oneTBB on stderr.
#pragma once

#include <algorithm>
#include <cstddef>

#include <tbb/global_control.h>

namespace searchbench {

inline int runnable_threads(int requested) {
  const auto allowed = tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism);
  return static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(std::max(requested, 1)), allowed));
}

}  // namespace searchbench
