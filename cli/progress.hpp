// The lines `run --progress` prints on a stderr that is not a terminal (a log), one per
// ProgressEvent (core/search_options.hpp); a terminal gets one line redrawn in place instead
// (ProgressPrinter::Style::redrawn, below):
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

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "cli/number_text.hpp"
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

// Prints the events of a run on `out` (stderr), in one of two styles:
// * lines, for a log (stderr not a terminal): the lines above, one per completed depth or
//   bound and one per heartbeat; scripts (scripts/long_run.py) read the depth lines as they
//   land, and heartbeats come at most once per SearchOptions::heartbeat_seconds.
// * redrawn, for a terminal: one line rewritten in place ("\r", the text, then "\033[K" to
//   erase what a longer line left), at most every kRedrawSeconds, cut to the terminal's width
//   so that it never wraps; finish() ends it with a newline (the newest figures drawn first).
//     depth 31  67.9%  28.1 M states/s  ETA ~10 s  elapsed 11.4 s
//     f bound 52 in progress  3.91 M generated  12.3 M nodes/s  elapsed 12.3 s  holding 1.20 KiB
class ProgressPrinter {
 public:
  enum class Style { lines, redrawn };
  static constexpr double kRedrawSeconds = 0.1;

  explicit ProgressPrinter(std::uint64_t total, std::FILE* out = stderr, Style style = Style::lines)
      : total_(total), out_(out), style_(style), eta_(total) {}
  ProgressPrinter(const ProgressPrinter&) = delete;
  ProgressPrinter& operator=(const ProgressPrinter&) = delete;
  ~ProgressPrinter() { finish(); }

  void print(const ProgressEvent& e) {
    if (e.kind != ProgressEvent::Kind::nodes) eta_.add(e);
    if (style_ == Style::lines) {
      std::fprintf(out_, "%s\n", logged_line(e).c_str());
      std::fflush(out_);
      return;
    }
    pending_ = short_line(e);
    const auto now = std::chrono::steady_clock::now();
    if (drawn_ && std::chrono::duration<double>(now - last_draw_).count() < kRedrawSeconds) return;
    draw();
    last_draw_ = now;
  }

  // Ends a redrawn line (its newest figures drawn first) with a newline, so that what is
  // printed next starts on a line of its own. Nothing in the lines style; once only.
  void finish() {
    if (!drawn_ && pending_.empty()) return;
    if (!pending_.empty()) draw();
    std::fputc('\n', out_);
    std::fflush(out_);
    drawn_ = false;
  }

  // Rounded down to a tenth of a percent: 100.0 only when every state has been reached.
  double percent_reached(std::uint64_t reached) const {
    if (total_ == 0 || reached >= total_) return 100.0;
    return static_cast<double>(static_cast<unsigned __int128>(reached) * 1000 / total_) / 10.0;
  }

 private:
  std::string eta_text() const {
    const auto left = eta_.eta();
    if (!left) return "";
    char buf[48];
    std::snprintf(buf, sizeof buf, *left < 10 ? "  ETA ~%.1f s" : "  ETA ~%.0f s", *left);
    return buf;
  }

  // The lines style: fixed-width columns a log and its scripts read.
  std::string logged_line(const ProgressEvent& e) const {
    char buf[512];
    if (e.kind == ProgressEvent::Kind::nodes) {
      const double rate = e.seconds > 0 ? static_cast<double>(e.generated) / e.seconds : 0.0;
      std::snprintf(buf, sizeof buf, "%-23s  expanded %llu  generated %llu  %10.0f nodes/s  holding %s  elapsed %8.2f s",
                    e.detail.c_str(), static_cast<unsigned long long>(e.expanded), static_cast<unsigned long long>(e.generated),
                    rate, human_bytes(e.held_bytes).c_str(), e.seconds);
      return buf;
    }
    const auto n = static_cast<unsigned long long>(e.new_states);
    const double share = percent_reached(e.reached);
    if (e.kind == ProgressEvent::Kind::depth_done)
      std::snprintf(buf, sizeof buf, "depth %3d  new %12llu  %5.1f%%  %10.0f states/s  elapsed %8.2f s%s", e.depth, n, share,
                    eta_.reached_rate(), e.seconds, eta_text().c_str());
    else
      std::snprintf(buf, sizeof buf, "depth %3d  in progress  %s  found %llu  %5.1f%%  %10.0f states/s  elapsed %8.2f s%s", e.depth,
                    e.detail.c_str(), n, share, eta_.reached_rate(), e.seconds, eta_text().c_str());
    return buf;
  }

  // The redrawn style: the depth or bound, the share, the rate and the time left, in short,
  // the most telling first (a narrow terminal cuts the end).
  std::string short_line(const ProgressEvent& e) const {
    char elapsed[32];
    std::snprintf(elapsed, sizeof elapsed, "  elapsed %.1f s", e.seconds);
    if (e.kind == ProgressEvent::Kind::nodes) {
      const double rate = e.seconds > 0 ? static_cast<double>(e.generated) / e.seconds : 0.0;
      return e.detail + "  " + human_quantity(static_cast<double>(e.generated)) + " generated  " + human_rate(rate, "nodes/s") +
             elapsed + "  holding " + human_bytes(e.held_bytes);
    }
    char share[16];
    std::snprintf(share, sizeof share, "%.1f%%", percent_reached(e.reached));
    std::string text = "depth " + std::to_string(e.depth);
    if (e.kind == ProgressEvent::Kind::heartbeat) text += " (" + e.detail + ")";
    return text + "  " + share + "  " + human_rate(eta_.reached_rate(), "states/s") + eta_text() + elapsed;
  }

  void draw() {
    std::string text = pending_;
    if (const std::size_t width = terminal_width(); width > 1 && text.size() >= width) text.resize(width - 1);
    std::fprintf(out_, "\r%s\033[K", text.c_str());
    std::fflush(out_);
    pending_.clear();
    drawn_ = true;
  }

  std::size_t terminal_width() const {
    winsize size{};
    return ::ioctl(::fileno(out_), TIOCGWINSZ, &size) == 0 ? size.ws_col : 0;
  }

  std::uint64_t total_;
  std::FILE* out_;
  Style style_;
  EtaEstimator eta_;
  std::string pending_;  // the newest redrawn line not drawn yet
  bool drawn_ = false;   // a redrawn line is on the screen, not yet ended
  std::chrono::steady_clock::time_point last_draw_;
};

// Ends a redrawn progress line when it goes out of scope (on an error too, before the error's
// line is printed).
class ProgressLineEnd {
 public:
  explicit ProgressLineEnd(std::shared_ptr<ProgressPrinter> printer) : printer_(std::move(printer)) {}
  ProgressLineEnd(const ProgressLineEnd&) = delete;
  ProgressLineEnd& operator=(const ProgressLineEnd&) = delete;
  ~ProgressLineEnd() {
    if (printer_) printer_->finish();
  }

 private:
  std::shared_ptr<ProgressPrinter> printer_;
};

// The progress line of a command that runs cases one after another (compare): "case 3/11:
// parallel/cantor, 2 threads" on a terminal's stderr, redrawn in place, and erased at the end
// (the destructor too, so an error's line starts clean). Nothing when stderr is no terminal.
class CaseProgressLine {
 public:
  explicit CaseProgressLine(bool on, std::FILE* out = stderr) : on_(on), out_(out) {}
  CaseProgressLine(const CaseProgressLine&) = delete;
  CaseProgressLine& operator=(const CaseProgressLine&) = delete;
  ~CaseProgressLine() { erase(); }
  void show(const std::string& text) {
    if (!on_) return;
    std::fprintf(out_, "\r%s\033[K", text.c_str());
    std::fflush(out_);
    shown_ = true;
  }
  void erase() {
    if (!shown_) return;
    std::fprintf(out_, "\r\033[K");
    std::fflush(out_);
    shown_ = false;
  }

 private:
  bool on_;
  std::FILE* out_;
  bool shown_ = false;
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
