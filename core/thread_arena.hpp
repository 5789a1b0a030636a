// The threads a oneTBB arena can really run: the count asked for, capped at what oneTBB lets
// run at once (global_control's max_allowed_parallelism: the machine's cores, or the
// process's CPU affinity mask, by default). A larger arena gets no more workers, only a
// warning from oneTBB on stderr.
#pragma once

#include <algorithm>
#include <cstddef>
#include <map>
#include <memory>

#include <tbb/global_control.h>
#include <tbb/task_arena.h>

namespace searchbench {

inline int runnable_threads(int requested) {
  const auto allowed = tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism);
  return static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(std::max(requested, 1)), allowed));
}

// An arena of `threads` kept for the calling thread's life, for searches of a few
// milliseconds run one after another (IDA*'s point queries): with a new arena each query,
// its workers had to leave the old one and join the new, and the helpers arrived a sizeable
// part of a small query late; in an arena that stays they are there at once. Each calling
// thread has its own, so queries from different threads do not share one.
inline tbb::task_arena& lasting_arena(int threads) {
  thread_local std::map<int, std::unique_ptr<tbb::task_arena>> arenas;
  std::unique_ptr<tbb::task_arena>& arena = arenas[threads];
  if (!arena) arena = std::make_unique<tbb::task_arena>(threads);
  return *arena;
}

}  // namespace searchbench
