// How an engine sends its ProgressEvents (core/search_options.hpp): depth_done lines as depths end,
// and heartbeats paced by SearchOptions::heartbeat_seconds inside long depths. One per run,
// made with the run's timer. It also keeps the run's time limit (SearchOptions::deadline):
// the places that ask whether a heartbeat is due ask about the deadline in the same look at
// the clock, and a heartbeat sent past the deadline throws TimeLimitReached instead, carrying
// the event it would have sent, so an engine gains its time limit from its heartbeats.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>

#include "core/result.hpp"
#include "core/search_options.hpp"
#include "core/timer.hpp"

namespace searchbench {

// A search stopped by its time limit, with where it was (`at`: a heartbeat's or a nodes
// event's figures) for the partial statistics the front end reports.
struct TimeLimitReached : std::runtime_error {
  TimeLimitReached(double limit_seconds, ProgressEvent where)
      : std::runtime_error("the time limit of " + limit_text(limit_seconds) + " passed (--timeout)"), at(std::move(where)) {}
  ProgressEvent at;
};

class ProgressReporter {
 public:
  ProgressReporter(const SearchOptions& options, const Timer& timer)
      : fn_(&options.progress), interval_(options.heartbeat_seconds), deadline_(options.deadline), timer_(timer), next_beat_(interval_) {}
  ProgressReporter(const ProgressReporter&) = delete;
  ProgressReporter& operator=(const ProgressReporter&) = delete;

  // Whether anyone listens: a progress function, or a deadline that heartbeats check.
  bool on() const { return static_cast<bool>(*fn_) || deadline_.set(); }
  double seconds() const { return timer_.seconds(); }

  // Depth `depth` has ended at `seconds` (of the run's timer): sends its line, and the next
  // heartbeat is due an interval later.
  // Past the deadline: throws TimeLimitReached with that line.
  void depth_done(int depth, std::uint64_t new_states, std::uint64_t reached, std::uint64_t expanded, double seconds) {
    send_always(ProgressEvent{ProgressEvent::Kind::depth_done, depth, new_states, reached, expanded, seconds, {}});
  }

  // Whether a heartbeat is due: an interval has passed since the last event (true for one
  // caller per interval), or the deadline has (true for every caller: its heartbeat throws).
  // Cheap (one clock read) and safe from any thread.
  bool heartbeat_due() {
    if (deadline_.passed()) return true;
    if (!*fn_ || !(interval_ > 0)) return false;
    double due = next_beat_.load(std::memory_order_relaxed);
    const double now = timer_.seconds();
    return now >= due && next_beat_.compare_exchange_strong(due, now + interval_, std::memory_order_relaxed);
  }

  // A heartbeat of the depth under way; skipped when another event is being sent. Past the
  // deadline: throws TimeLimitReached with it.
  void heartbeat(int depth, std::uint64_t found, std::uint64_t reached, std::uint64_t expanded, std::string detail) {
    send(ProgressEvent{ProgressEvent::Kind::heartbeat, depth, found, reached, expanded, timer_.seconds(), std::move(detail)});
  }

  // A point query's node counts (ProgressEvent::Kind::nodes): `done` as a bound or level
  // ends (sent always, and the next heartbeat is due an interval later), else as a
  // heartbeat. Past the deadline: throws TimeLimitReached with it.
  void nodes(bool done, int depth, std::uint64_t expanded, std::uint64_t generated, std::uint64_t held_bytes, std::string detail) {
    ProgressEvent e{ProgressEvent::Kind::nodes, depth, 0, 0, expanded, timer_.seconds(), std::move(detail), generated, held_bytes};
    if (done) send_always(std::move(e));
    else send(std::move(e));
  }

  // "45%" of `done` out of `all`, for heartbeat details.
  static std::string percent(std::uint64_t done, std::uint64_t all) {
    const int p = all == 0 ? 100 : static_cast<int>(100.0 * static_cast<double>(done) / static_cast<double>(all));
    return std::to_string(p) + "%";
  }

 private:
  // An event that ends a depth or bound: sent always, and the next heartbeat is due an
  // interval later. Past the deadline: throws TimeLimitReached with it.
  void send_always(ProgressEvent e) {
    if (deadline_.passed()) throw TimeLimitReached(deadline_.limit_seconds(), std::move(e));
    if (!*fn_) return;
    std::lock_guard lock(mutex_);
    (*fn_)(e);
    next_beat_.store(timer_.seconds() + interval_, std::memory_order_relaxed);
  }
  // A heartbeat: skipped when another event is being sent. Past the deadline: throws.
  void send(ProgressEvent e) {
    if (deadline_.passed()) throw TimeLimitReached(deadline_.limit_seconds(), std::move(e));
    if (!*fn_) return;
    std::unique_lock lock(mutex_, std::try_to_lock);
    if (!lock) return;
    (*fn_)(e);
  }

  const ProgressFn* fn_;
  double interval_;
  Deadline deadline_;
  const Timer& timer_;
  std::atomic<double> next_beat_;
  std::mutex mutex_;
};

}  // namespace searchbench
