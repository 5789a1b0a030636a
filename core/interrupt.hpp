// Stopping cleanly on SIGINT, SIGTERM and SIGHUP. Work that leaves files behind (an export's
// temporary file, an out-of-core run's temporary folder) holds an InterruptScope while it
// runs: the handler only records the signal, the work polls throw_if_interrupted() at points
// where stopping is safe, and the Interrupted exception unwinds through the destructors that
// remove the files. The front end then ends the process by the same signal (its exit status
// says so to the shell), through end_by_signal(). A second signal while the first is being
// handled ends the process at once, so a stuck cleanup can always be cut short.
#pragma once

#include <signal.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <stdexcept>
#include <string>

namespace searchbench {

// Thrown by throw_if_interrupted(): the signal that asked the process to stop.
struct Interrupted : std::runtime_error {
  explicit Interrupted(int sig) : std::runtime_error("interrupted by signal " + std::to_string(sig)), signal(sig) {}
  int signal;
};

namespace interrupt_detail {
inline std::atomic<int> caught{0};   // the first signal caught, 0 when none
inline std::atomic<int> scopes{0};   // InterruptScope objects alive
inline constexpr std::array<int, 3> kSignals = {SIGINT, SIGTERM, SIGHUP};
inline void on_signal(int sig) {
  int none = 0;
  if (!caught.compare_exchange_strong(none, sig)) {  // a second signal: stop now
    ::signal(sig, SIG_DFL);
    ::raise(sig);
  }
}
}  // namespace interrupt_detail

// While one is alive, the three signals are recorded instead of ending the process.
class InterruptScope {
 public:
  InterruptScope() {
    if (interrupt_detail::scopes.fetch_add(1) != 0) return;
    struct sigaction action {};
    action.sa_handler = interrupt_detail::on_signal;
    sigemptyset(&action.sa_mask);
    for (std::size_t i = 0; i < interrupt_detail::kSignals.size(); ++i) {
      ::sigaction(interrupt_detail::kSignals[i], &action, &previous_[i]);
      // A signal the caller ignores (nohup's SIGHUP, a background job's SIGINT) stays ignored.
      if (previous_[i].sa_handler == SIG_IGN) ::sigaction(interrupt_detail::kSignals[i], &previous_[i], nullptr);
    }
  }
  ~InterruptScope() {
    if (interrupt_detail::scopes.fetch_sub(1) != 1) return;
    for (std::size_t i = 0; i < interrupt_detail::kSignals.size(); ++i)
      ::sigaction(interrupt_detail::kSignals[i], &previous_[i], nullptr);
  }
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;

 private:
  std::array<struct sigaction, 3> previous_{};
};

inline int interrupt_signal() { return interrupt_detail::caught.load(std::memory_order_relaxed); }

inline void throw_if_interrupted() {
  if (const int sig = interrupt_signal()) throw Interrupted(sig);
}

// Ends the process by `sig` with its default action (after the files were cleaned up).
[[noreturn]] inline void end_by_signal(int sig) {
  ::signal(sig, SIG_DFL);
  ::raise(sig);
  ::_exit(128 + sig);
}

}  // namespace searchbench
