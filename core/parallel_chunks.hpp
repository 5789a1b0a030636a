// Runs a body over [0, size) in chunks with tbb::parallel_for, in a form ThreadSanitizer
// can check: the one parallel loop of the parallel engines, the pattern-database builds and
// the explicit-graph yardstick.
#pragma once

#include <atomic>
#include <cstdint>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>

namespace searchbench {

namespace parallel_chunks_detail {

// The fork and join happen inside libtbb, which sanitizers do not see. This atomic
// publishes the same hand-off in code they do see. It has a fixed address, so a worker can
// acquire it before it reads anything of the task TBB handed it; the task's copies (made on
// whichever thread splits or spawns it) release it after they are written.
inline std::atomic<std::uint64_t> handoff{0};

template <class Body>
class Chunk {
 public:
  explicit Chunk(Body& body) : body_(&body) { handoff.fetch_add(1, std::memory_order_release); }
  Chunk(const Chunk& other) : body_(other.body_) { handoff.fetch_add(1, std::memory_order_release); }
  Chunk& operator=(const Chunk&) = delete;
  void operator()(const tbb::blocked_range<std::uint64_t>& r) const {
    handoff.load(std::memory_order_acquire);
    (*body_)(r.begin(), r.end());
    handoff.fetch_add(1, std::memory_order_acq_rel);  // to the join
  }

 private:
  Body* body_;
};

}  // namespace parallel_chunks_detail

// Runs body(begin, end) over [0, size) in chunks of `grain` with tbb::parallel_for.
// simple_partitioner: auto_partitioner's steal checks read fields that libtbb writes
// uninstrumented, which ThreadSanitizer reports.
template <class Body>
void parallel_chunks(std::uint64_t size, std::uint64_t grain, Body body) {
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, size, grain), parallel_chunks_detail::Chunk<Body>(body),
                    tbb::simple_partitioner());
  parallel_chunks_detail::handoff.load(std::memory_order_acquire);
}

}  // namespace searchbench
