// A leader thread and up to threads-1 helpers held together for the length of one call, in
// a oneTBB arena: for searches whose parallel phases are too short to wait for threads to
// wake (IDA*'s iterations on Korf's 100 are a few hundred microseconds; handing each to
// oneTBB afresh cost about as much as the search, since a worker that had gone to sleep
// joined after the caller had done the work alone).
//
// * The leader runs the search and hands out work as it goes; helpers spin, looking for it,
//   until the leader returns. Roles go by arrival: the first chunk that runs leads, so no
//   thread ever waits for one that oneTBB has not started (an arena may run the chunks one
//   after another; then the helper arrives after the leader has finished, and returns).
// * A helper costs a core for the call's length whether or not there is work; callers use a
//   team only where the call is short or its parallel share large.
// * What the leader throws reaches the caller as it was; the helpers stop either way.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <thread>

#include <tbb/task_arena.h>

#include "core/parallel_chunks.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace searchbench {

// One step of a spin wait: a pause instruction for the first thousand, then a yield, so that
// a waiting thread gives its core back where the machine is busier than the search.
class SpinWait {
 public:
  void pause() {
    if (++spins_ < 1024) {
#if defined(__x86_64__) || defined(__i386__)
      _mm_pause();
#endif
    } else {
      std::this_thread::yield();
    }
  }

 private:
  unsigned spins_ = 0;
};

// Runs lead() on one thread of `arena` and help(done) on up to threads-1 others; help must
// return once `done` is true, which it becomes when lead returns or throws.
template <class Lead, class Help>
void run_with_helpers(tbb::task_arena& arena, int threads, Lead&& lead, Help&& help) {
  std::atomic<int> arrivals{0};
  std::atomic<bool> done{false};
  std::exception_ptr error;
  arena.execute([&] {
    parallel_chunks(static_cast<std::uint64_t>(threads), 1, [&](std::uint64_t, std::uint64_t) {
      if (arrivals.fetch_add(1, std::memory_order_relaxed) != 0) {
        help(static_cast<const std::atomic<bool>&>(done));
        return;
      }
      try {
        lead();
      } catch (...) {
        error = std::current_exception();
      }
      done.store(true, std::memory_order_release);
    });
  });
  if (error) std::rethrow_exception(error);
}

}  // namespace searchbench
