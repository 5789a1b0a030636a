// The lines `run --progress` prints on stderr, one per ProgressEvent (core/search_options.hpp):
//
//   depth  30  new     89257622   59.2%    28051462 states/s  elapsed     9.52 s  ETA ~13 s
//   depth  31  in progress  top-down scan 45%  found 41384230   67.9%  ...  elapsed    11.40 s  ETA ~10 s
//
// A completed depth starts "depth D  new N" and has "elapsed S s" (scripts/long_run.py reads
// both); a heartbeat inside a long depth says "in progress", where the engine is and the
// states of that depth found so far. The percentage is of the states reached out of the
// component (known up front), rounded down, so 100.0% means every state has been reached.
// states/s is the rate of states reached over the estimator's recent window.
//
// A point query's node counts (idastar, astar, iddfs, bidir) are lines of their own, with
// the nodes generated per second since the run started and what its tables hold:
//
//   f bound 52 done         expanded 123456789  generated 345678901   28051462 nodes/s  holding 1.20 KiB  elapsed 12.32 s
#pragma once

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <optional>
#include <string>

#include "core/errors.hpp"
#include "core/memory_budget.hpp"
#include "core/result.hpp"
#include "core/search_options.hpp"

namespace searchbench::cli {

// The time left, from the events of one run.
//
// Work: every state costs the engine twice, once when it is first reached (claimed, counted,
// written) and once when it is expanded (its successors generated), so the run has done
// `reached + expanded` of `2 * total` units. Counting expansions matters in the second half
// of a breadth-first search: the levels shrink there while the frontiers being expanded are
// the widest: on msquare-2x6 at half-way a rate of states reached alone says about 0.6 of
// the time really left, one of expansions alone about 1.5 times it; both together, 0.7-1.3.
//
// Rate: units per second over a recent window, from the newest event back to the newest
// event at least window_seconds(elapsed) older: a quarter of the elapsed time, at least 10 s
// and at most 10 min (the whole run while it is younger). So the narrow first depths, slow
// per state (each level has fixed costs: a scan of the whole table, a pass over every
// segment), stop counting once the run is past them, where the cumulative average would
// carry them to the end.
//
// ETA = (2 * total - reached - expanded) / rate, but never more than the time the whole run
// would take at its average rate of states reached so far, elapsed * total / reached (which
// also bounds a window that saw no work); shown once 1% of the states have been reached and
// the run has gone 1 s (before that the rate mostly measures fixed costs). The first event
// of a run is its baseline for both (a resumed run's earlier work is not its own).
class EtaEstimator {
 public:
  static constexpr double kMinSeconds = 1.0, kMinShare = 0.01;
  static double window_seconds(double elapsed) { return std::clamp(elapsed / 4, 10.0, 600.0); }

  explicit EtaEstimator(std::uint64_t total) : total_(total) {}

  void add(const ProgressEvent& e) {
    const Sample s{e.seconds, static_cast<double>(e.reached), static_cast<double>(e.reached) + static_cast<double>(e.expanded)};
    // A new run (a repetition): its clock or its counts start over.
    if (!samples_.empty() && (s.seconds < samples_.back().seconds || s.work < samples_.back().work)) samples_.clear();
    if (samples_.empty()) first_ = s;
    samples_.push_back(s);
    const double window = window_seconds(s.seconds);
    while (samples_.size() > 2 && samples_[1].seconds <= s.seconds - window) samples_.pop_front();
  }

  // States reached per second over the window; before a second event, since the start.
  double reached_rate() const {
    if (samples_.empty()) return 0.0;
    const Sample& now = samples_.back();
    if (samples_.size() < 2) return now.seconds > 0 ? now.reached / now.seconds : 0.0;
    const Sample& from = samples_.front();
    return now.seconds > from.seconds ? (now.reached - from.reached) / (now.seconds - from.seconds) : 0.0;
  }

  // Seconds left, once meaningful.
  std::optional<double> eta() const {
    if (samples_.size() < 2 || total_ == 0) return std::nullopt;
    const Sample& now = samples_.back();
    if (now.seconds < kMinSeconds || now.reached < kMinShare * static_cast<double>(total_)) return std::nullopt;
    const double total = static_cast<double>(total_);
    std::optional<double> bound;
    if (now.reached > first_.reached && now.seconds > first_.seconds)
      bound = (now.seconds - first_.seconds) * (total - first_.reached) / (now.reached - first_.reached);
    const Sample& from = samples_.front();
    const double rate = now.seconds > from.seconds ? (now.work - from.work) / (now.seconds - from.seconds) : 0.0;
    if (!(rate > 0)) return bound;
    const double left = std::max(0.0, 2.0 * total - now.work) / rate;
    return bound ? std::min(left, *bound) : left;
  }

 private:
  struct Sample {
    double seconds = 0, reached = 0, work = 0;
  };
  std::uint64_t total_;
  std::deque<Sample> samples_;
  Sample first_;
};

// Prints the events of `run` on `out` (stderr).
class ProgressPrinter {
 public:
  explicit ProgressPrinter(std::uint64_t total, std::FILE* out = stderr) : total_(total), out_(out), eta_(total) {}

  void print(const ProgressEvent& e) {
    if (e.kind == ProgressEvent::Kind::nodes) {
      const double rate = e.seconds > 0 ? static_cast<double>(e.generated) / e.seconds : 0.0;
      std::fprintf(out_, "%-23s  expanded %llu  generated %llu  %10.0f nodes/s  holding %s  elapsed %8.2f s\n", e.detail.c_str(),
                   static_cast<unsigned long long>(e.expanded), static_cast<unsigned long long>(e.generated), rate,
                   human_bytes(e.held_bytes).c_str(), e.seconds);
      std::fflush(out_);
      return;
    }
    eta_.add(e);
    std::string tail;
    if (const auto left = eta_.eta()) {
      char buf[48];
      std::snprintf(buf, sizeof buf, *left < 10 ? "  ETA ~%.1f s" : "  ETA ~%.0f s", *left);
      tail = buf;
    }
    const auto n = static_cast<unsigned long long>(e.new_states);
    const double share = percent_reached(e.reached);
    if (e.kind == ProgressEvent::Kind::depth_done)
      std::fprintf(out_, "depth %3d  new %12llu  %5.1f%%  %10.0f states/s  elapsed %8.2f s%s\n", e.depth, n, share,
                   eta_.reached_rate(), e.seconds, tail.c_str());
    else
      std::fprintf(out_, "depth %3d  in progress  %s  found %llu  %5.1f%%  %10.0f states/s  elapsed %8.2f s%s\n", e.depth,
                   e.detail.c_str(), n, share, eta_.reached_rate(), e.seconds, tail.c_str());
    std::fflush(out_);
  }

  // Rounded down to a tenth of a percent: 100.0 only when every state has been reached.
  double percent_reached(std::uint64_t reached) const {
    if (total_ == 0 || reached >= total_) return 100.0;
    return static_cast<double>(static_cast<unsigned __int128>(reached) * 1000 / total_) / 10.0;
  }

 private:
  std::uint64_t total_;
  std::FILE* out_;
  EtaEstimator eta_;
};

// SearchOptions::heartbeat_seconds from SEARCHBENCH_HEARTBEAT_SECONDS when set (tests use a
// short interval), else `fallback`.
inline double heartbeat_seconds_from_env(double fallback) {
  const char* text = std::getenv("SEARCHBENCH_HEARTBEAT_SECONDS");
  if (!text) return fallback;
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text, &end);
  if (end == text || *end != '\0' || errno != 0 || !std::isfinite(v) || v < 0)
    throw InputError("SEARCHBENCH_HEARTBEAT_SECONDS must be a number of seconds >= 0 (got '" + std::string(text) + "')");
  return v;
}

}  // namespace searchbench::cli
