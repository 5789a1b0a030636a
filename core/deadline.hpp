// A run's time limit (--timeout): the moment past which a search stops, on the steady
// clock. Set by the front end before the heuristic's build and the search, so that the
// limit covers the whole command (compare: each case); engines look at it where they
// already look at the clock for their progress heartbeats (core/progress_reporter.hpp),
// every few thousand nodes, and stop by throwing TimeLimitReached with what they had done.
#pragma once

#include <chrono>
#include <string>

namespace searchbench {

class Deadline {
 public:
  using Clock = std::chrono::steady_clock;
  Deadline() = default;  // none
  // `seconds` from now; 0 or less: none.
  static Deadline in(double seconds) {
    Deadline d;
    if (seconds > 0) {
      d.limit_seconds_ = seconds;
      d.at_ = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    }
    return d;
  }
  bool set() const { return limit_seconds_ > 0; }
  bool passed() const { return set() && Clock::now() >= at_; }
  double limit_seconds() const { return limit_seconds_; }  // as given; 0 when none

 private:
  Clock::time_point at_{};
  double limit_seconds_ = 0;
};

// A time limit as it was given: "5 s", "0.25 s".
inline std::string limit_text(double seconds) {
  std::string text = std::to_string(seconds);
  text.erase(text.find_last_not_of('0') + 1);
  if (text.back() == '.') text.pop_back();
  return text + " s";
}

}  // namespace searchbench
