// Byte counts as people read them, and the check engines make as their tables grow
// against SearchOptions::memory_limit.
#pragma once

#include <cstdint>
#include <cstdio>
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

// Throws BudgetError when `bytes` exceeds a non-zero `limit`.
inline void enforce_memory_limit(std::uint64_t limit, std::uint64_t bytes, const std::string& what) {
  if (limit > 0 && bytes > limit)
    throw BudgetError(what + " needs " + human_bytes(bytes) + ", more than the memory limit of " + human_bytes(limit) +
                      " (--max-memory, or the memory available)");
}

}  // namespace searchbench
