// The one memory budget of a run: how many bytes its search structures may hold, worked out
// once by the front end (--max-memory when given, else 7/8 of the memory available as the
// run starts) and read by every engine through SearchOptions::memory. Engines whose size is
// known up front are checked before they allocate (check_up_front); point queries, whose
// size is not, check as their tables grow (enforce); the out-of-core engine sizes its working
// set from it (working_set). Also: byte counts as people read them.
#pragma once

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <utility>

#include "core/errors.hpp"

namespace searchbench {

// 1023 B, 1.5 KiB, 12.3 MiB: three significant figures, so limits a few KiB apart differ.
inline std::string human_bytes(std::uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024 && u < 6) v /= 1024, ++u;
  char buf[32];
  if (u == 0) std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(bytes));
  else std::snprintf(buf, sizeof buf, v < 10 ? "%.2f %s" : v < 100 ? "%.1f %s" : "%.0f %s", v, units[u]);
  return buf;
}

// Two sizes to be read side by side ("needs X, only Y free"): as human_bytes, or as exact
// byte counts where rounding would print the same figure twice.
inline std::pair<std::string, std::string> human_bytes_apart(std::uint64_t a, std::uint64_t b) {
  std::string x = human_bytes(a), y = human_bytes(b);
  if (a != b && x == y) x = std::to_string(a) + " B", y = std::to_string(b) + " B";
  return {x, y};
}

// MemAvailable from /proc/meminfo, in bytes (0 when unknown).
inline std::uint64_t available_memory() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024;
  return 0;
}

class MemoryBudget {
 public:
  MemoryBudget() = default;  // no limit: a library caller or a test that sets none
  // A limit the user chose (--max-memory), in bytes; 0 is no limit.
  static MemoryBudget of(std::uint64_t bytes) { return MemoryBudget(bytes, bytes > 0); }
  // The front end's budget: `max_memory` when given (non-zero), else seven eighths of the
  // memory available now: the headroom covers what a growing search allocates between two
  // looks at its size, so the guard fires before the kernel's out-of-memory killer does.
  static MemoryBudget from_option(std::uint64_t max_memory) {
    return max_memory > 0 ? of(max_memory) : MemoryBudget(available_memory() / 8 * 7, false);
  }

  std::uint64_t limit() const { return limit_; }  // 0: no limit
  bool chosen() const { return chosen_; }         // set by the user, not read off the machine

  // Throws BudgetError when a growing search's `bytes` exceed the limit.
  void enforce(std::uint64_t bytes, const std::string& what) const {
    if (limit_ > 0 && bytes > limit_) {
      const auto [needed, limit] = human_bytes_apart(bytes, limit_);
      throw BudgetError(what + " needs " + needed + ", more than the memory limit of " + limit +
                        " (--max-memory, or the memory available)");
    }
  }
  // Throws InputError when `doing` `what` ("a whole-space run of " "msquare-2x8"), needing
  // about `needed` bytes, cannot fit: past the chosen limit, or past the memory available now.
  void check_up_front(std::uint64_t needed, const std::string& what, const std::string& doing = "a whole-space run of ") const {
    if (chosen_ && needed > limit_) {
      const auto [need, limit] = human_bytes_apart(needed, limit_);
      throw InputError(doing + what + " needs about " + need + ", more than --max-memory " + limit);
    }
    const std::uint64_t available = available_memory();
    if (available > 0 && needed > available) {
      const auto [need, room] = human_bytes_apart(needed, available);
      throw InputError(doing + what + " needs about " + need + ", more than the " + room +
                       " of memory available; choose a smaller puzzle or a denser encoder");
    }
  }
  // The memory an engine that can trade memory for disk passes keeps its working set within:
  // the chosen limit, else `otherwise` (its own default, not all the machine has).
  std::uint64_t working_set(std::uint64_t otherwise) const { return chosen_ ? limit_ : otherwise; }

 private:
  MemoryBudget(std::uint64_t limit, bool chosen) : limit_(limit), chosen_(chosen) {}
  std::uint64_t limit_ = 0;
  bool chosen_ = false;
};

}  // namespace searchbench
