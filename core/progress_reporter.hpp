// How an engine sends its ProgressEvents (core/search_options.hpp): depth_done lines as depths end,
// and heartbeats paced by SearchOptions::heartbeat_seconds inside long depths. One per run,
// made with the run's timer.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <utility>

#include "core/result.hpp"
#include "core/search_options.hpp"
#include "core/timer.hpp"

namespace searchbench {

class ProgressReporter {
 public:
  ProgressReporter(const SearchOptions& options, const Timer& timer)
      : fn_(&options.progress), interval_(options.heartbeat_seconds), timer_(timer), next_beat_(interval_) {}
  ProgressReporter(const ProgressReporter&) = delete;
  ProgressReporter& operator=(const ProgressReporter&) = delete;

  bool on() const { return static_cast<bool>(*fn_); }
  double seconds() const { return timer_.seconds(); }

  // Depth `depth` has ended at `seconds` (of the run's timer): sends its line, and the next
  // heartbeat is due an interval later.
  void depth_done(int depth, std::uint64_t new_states, std::uint64_t reached, std::uint64_t expanded, double seconds) {
    if (!*fn_) return;
    std::lock_guard lock(mutex_);
    (*fn_)(ProgressEvent{ProgressEvent::Kind::depth_done, depth, new_states, reached, expanded, seconds, {}});
    next_beat_.store(timer_.seconds() + interval_, std::memory_order_relaxed);
  }

  // Whether a heartbeat is due: an interval has passed since the last event. Cheap (one
  // clock read) and safe from any thread; true for one caller per interval.
  bool heartbeat_due() {
    if (!*fn_ || !(interval_ > 0)) return false;
    double due = next_beat_.load(std::memory_order_relaxed);
    const double now = timer_.seconds();
    return now >= due && next_beat_.compare_exchange_strong(due, now + interval_, std::memory_order_relaxed);
  }

  // A heartbeat of the depth under way; skipped when another event is being sent.
  void heartbeat(int depth, std::uint64_t found, std::uint64_t reached, std::uint64_t expanded, std::string detail) {
    if (!*fn_) return;
    std::unique_lock lock(mutex_, std::try_to_lock);
    if (!lock) return;
    (*fn_)(ProgressEvent{ProgressEvent::Kind::heartbeat, depth, found, reached, expanded, timer_.seconds(), std::move(detail)});
  }

  // "45%" of `done` out of `all`, for heartbeat details.
  static std::string percent(std::uint64_t done, std::uint64_t all) {
    const int p = all == 0 ? 100 : static_cast<int>(100.0 * static_cast<double>(done) / static_cast<double>(all));
    return std::to_string(p) + "%";
  }

 private:
  const ProgressFn* fn_;
  double interval_;
  const Timer& timer_;
  std::atomic<double> next_beat_;
  std::mutex mutex_;
};

}  // namespace searchbench
