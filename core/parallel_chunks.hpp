// Runs a body over [0, size) in chunks with tbb::parallel_for: the one parallel loop of the
// parallel engines, the pattern-database builds and the explicit-graph yardstick.
#pragma once

#include <cstdint>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>

#if defined(__SANITIZE_THREAD__)
#define SEARCHBENCH_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SEARCHBENCH_TSAN 1
#endif
#endif

#ifdef SEARCHBENCH_TSAN
#include <atomic>
#endif

namespace searchbench {

namespace parallel_chunks_detail {

#ifdef SEARCHBENCH_TSAN
// Under ThreadSanitizer only: the fork and join happen inside libtbb, which it does not
// see. This atomic publishes the same hand-off in code it does see. It has a fixed address,
// so a worker can acquire it before it reads anything of the task TBB handed it; the task's
// copies (made on whichever thread splits or spawns it) release it after they are written.
inline std::atomic<std::uint64_t> handoff{0};
inline void publish() { handoff.fetch_add(1, std::memory_order_release); }
inline void acquire() { handoff.load(std::memory_order_acquire); }
inline void join() { handoff.fetch_add(1, std::memory_order_acq_rel); }
#else
inline void publish() {}
inline void acquire() {}
inline void join() {}
#endif

template <class Body>
class Chunk {
 public:
  explicit Chunk(Body& body) : body_(&body) { publish(); }
  Chunk(const Chunk& other) : body_(other.body_) { publish(); }
  Chunk& operator=(const Chunk&) = delete;
  void operator()(const tbb::blocked_range<std::uint64_t>& r) const {
    acquire();
    (*body_)(r.begin(), r.end());
    join();
  }

 private:
  Body* body_;
};

}  // namespace parallel_chunks_detail

// Runs body(begin, end) over [0, size) in chunks of `grain` with tbb::parallel_for.
// simple_partitioner: a chunk is never longer than `grain`, which callers rely on (one
// subtree or one slice per chunk, handed out as threads come free; per-chunk buffers sized
// by the grain). It also keeps ThreadSanitizer quiet: auto_partitioner's steal checks read
// fields that libtbb writes uninstrumented.
template <class Body>
void parallel_chunks(std::uint64_t size, std::uint64_t grain, Body body) {
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, size, grain), parallel_chunks_detail::Chunk<Body>(body),
                    tbb::simple_partitioner());
  parallel_chunks_detail::acquire();
}

}  // namespace searchbench
