// The memory guard: estimate what a whole-space run needs before allocating anything and
// refuse at once when it exceeds the memory available (or the user's --max-memory).
#pragma once

#include <cctype>
#include <cstdint>
#include <fstream>
#include <string>

#include "core/errors.hpp"

namespace searchbench {

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

// "512M", "4G", "1.5G", "1000000" (bytes). Empty: no limit (0).
inline std::uint64_t parse_memory_limit(const std::string& text) {
  if (text.empty()) return 0;
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    throw InputError("malformed --max-memory '" + text + "' (use e.g. 512M or 4G)");
  }
  std::string suffix = text.substr(used);
  double scale = 1;
  if (suffix == "K" || suffix == "KiB" || suffix == "k") scale = 1024.0;
  else if (suffix == "M" || suffix == "MiB") scale = 1024.0 * 1024;
  else if (suffix == "G" || suffix == "GiB") scale = 1024.0 * 1024 * 1024;
  else if (!suffix.empty()) throw InputError("malformed --max-memory '" + text + "' (use e.g. 512M or 4G)");
  if (!(value > 0)) throw InputError("--max-memory must be positive (got '" + text + "')");
  return static_cast<std::uint64_t>(value * scale);
}

inline void check_memory(std::uint64_t needed, std::uint64_t limit, const std::string& what) {
  const std::uint64_t available = available_memory();
  auto mib = [](std::uint64_t b) { return std::to_string(b >> 20) + " MiB"; };
  if (limit > 0 && needed > limit)
    throw InputError("a whole-space run of " + what + " needs about " + mib(needed) + ", more than --max-memory " + mib(limit));
  if (available > 0 && needed > available)
    throw InputError("a whole-space run of " + what + " needs about " + mib(needed) + ", more than the " + mib(available) +
                     " of memory available; choose a smaller puzzle or a denser encoder");
}

}  // namespace searchbench
