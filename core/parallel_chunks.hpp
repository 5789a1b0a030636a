// Runs a body over [0, size) in chunks with tbb::parallel_for, in a form ThreadSanitizer
// can check: the one parallel loop of the parallel engine and of the explicit-graph
// yardstick.
#pragma once

#include <atomic>
#include <cstdint>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>

namespace searchbench {

// Runs body(begin, end) over [0, size) in chunks of `grain` with tbb::parallel_for.
// simple_partitioner: auto_partitioner's steal checks read fields that libtbb writes
// uninstrumented, which ThreadSanitizer reports. The fork and join themselves happen inside
// libtbb, which sanitizers do not see either; one atomic (an add per chunk) publishes the
// same hand-off in code they do see, so ThreadSanitizer checks the caller's code itself.
template <class Body>
void parallel_chunks(std::uint64_t size, std::uint64_t grain, Body body) {
  std::atomic<std::uint64_t> handoff{0};
  handoff.fetch_add(1, std::memory_order_release);
  tbb::parallel_for(
      tbb::blocked_range<std::uint64_t>(0, size, grain),
      [&](const tbb::blocked_range<std::uint64_t>& r) {
        handoff.load(std::memory_order_acquire);
        body(r.begin(), r.end());
        handoff.fetch_add(1, std::memory_order_acq_rel);
      },
      tbb::simple_partitioner());
  handoff.load(std::memory_order_acquire);
}

}  // namespace searchbench
