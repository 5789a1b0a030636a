// The node counts of one point query (idastar, iddfs, astar), added up as the search goes,
// every few thousand nodes and from any thread: the node budget and the time limit are
// checked on these totals, so a query stops within a few thousand nodes per thread of
// either, and the progress heartbeats report them. A stop is asked of every worker (add()
// answers true from then on) and thrown by the engine's own thread once the workers are
// back (throw_if_stopped), so no exception crosses a worker that holds a half-made answer.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <limits>
#include <mutex>
#include <string>

#include "core/errors.hpp"
#include "core/progress_reporter.hpp"

namespace searchbench {

class NodeMeter {
 public:
  // `engine` names the budget's owner in its error ("idastar"); `advice` ends that error.
  NodeMeter(ProgressReporter& progress, std::string engine, std::string advice,
            std::uint64_t budget = std::numeric_limits<std::uint64_t>::max())
      : progress_(progress), engine_(std::move(engine)), advice_(std::move(advice)), budget_(budget) {}
  NodeMeter(const NodeMeter&) = delete;
  NodeMeter& operator=(const NodeMeter&) = delete;

  // A new bound, f value or depth limit `depth`, shown as `where` ("f bound 52"), after
  // `expanded` and `generated` nodes of the earlier ones; the search holds `held_bytes`.
  void start(int depth, std::string where, std::uint64_t expanded, std::uint64_t generated, std::uint64_t held_bytes) {
    depth_ = depth;
    held_bytes_ = held_bytes;
    where_ = std::move(where);
    expanded_before_ = expanded;
    generated_before_ = generated;
    expanded_ = 0;
    generated_ = 0;
  }

  // A worker's nodes since its last call; true when the query is to stop.
  bool add(std::uint64_t new_expanded, std::uint64_t new_generated) {
    const std::uint64_t e = expanded_before_ + expanded_.fetch_add(new_expanded, std::memory_order_relaxed) + new_expanded;
    const std::uint64_t g = generated_before_ + generated_.fetch_add(new_generated, std::memory_order_relaxed) + new_generated;
    if (halted()) return true;
    if (e > budget_) {
      std::lock_guard lock(mutex_);
      over_budget_ = true;
      halt_.store(true);
    } else if (progress_.heartbeat_due()) {
      try {
        progress_.nodes(false, depth_, e, g, held_bytes_, where_ + " in progress");
      } catch (const TimeLimitReached&) {
        std::lock_guard lock(mutex_);
        if (!time_limit_) time_limit_ = std::current_exception();
        halt_.store(true);
      }
    }
    return halted();
  }
  bool halted() const { return halt_.load(std::memory_order_relaxed); }

  // On the engine's thread, with every worker back: the stop that was asked for, if any.
  void throw_if_stopped(std::uint64_t expanded) const {
    if (time_limit_) std::rethrow_exception(time_limit_);
    if (over_budget_) throw_out_of_budget(expanded, where_);
  }
  [[noreturn]] void throw_out_of_budget(std::uint64_t expanded, const std::string& where) const {
    throw BudgetError(engine_ + ": node budget of " + std::to_string(budget_) + " nodes spent (" + std::to_string(expanded) +
                      " expanded) at " + where + " (" + advice_ + ")");
  }
  std::uint64_t budget() const { return budget_; }

 private:
  ProgressReporter& progress_;
  std::string engine_, advice_;
  std::uint64_t budget_;
  int depth_ = 0;
  std::uint64_t held_bytes_ = 0;
  std::string where_;
  std::uint64_t expanded_before_ = 0, generated_before_ = 0;  // the earlier bounds'
  std::atomic<std::uint64_t> expanded_{0}, generated_{0};     // this bound's, so far
  std::atomic<bool> halt_{false};
  std::mutex mutex_;
  bool over_budget_ = false;
  std::exception_ptr time_limit_;  // the TimeLimitReached a heartbeat threw
};

}  // namespace searchbench
