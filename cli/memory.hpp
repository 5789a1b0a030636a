// The guards for requests that can grow huge: estimate what a run or an export needs before
// allocating or writing anything, and refuse at once past the memory or disk available or
// the user's --max-memory / --max-output.
#pragma once

#include <sys/stat.h>
#include <sys/statvfs.h>

#include <cstdint>
#include <fstream>
#include <string>

#include "core/errors.hpp"
#include "core/memory_limit.hpp"

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

// Bytes free to an unprivileged writer in `folder` (0 when unknown).
inline std::uint64_t available_disk(const std::string& folder) {
  struct statvfs fs {};
  if (statvfs(folder.c_str(), &fs) != 0) return 0;
  return static_cast<std::uint64_t>(fs.f_bavail) * fs.f_frsize;
}

// The same for the file system an open file lives on; 0 unless `fd` is a regular file (a
// pipe or a terminal has no disk to fill).
inline std::uint64_t available_disk(int fd) {
  struct stat st {};
  struct statvfs fs {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || fstatvfs(fd, &fs) != 0) return 0;
  return static_cast<std::uint64_t>(fs.f_bavail) * fs.f_frsize;
}

// `limit` is --max-memory in bytes (0: not given).
inline void check_memory(std::uint64_t needed, std::uint64_t limit, const std::string& what) {
  const std::uint64_t available = available_memory();
  if (limit > 0 && needed > limit)
    throw InputError("a whole-space run of " + what + " needs about " + human_bytes(needed) + ", more than --max-memory " +
                     human_bytes(limit));
  if (available > 0 && needed > available)
    throw InputError("a whole-space run of " + what + " needs about " + human_bytes(needed) + ", more than the " +
                     human_bytes(available) + " of memory available; choose a smaller puzzle or a denser encoder");
}

// The limit a search gets: --max-memory when given, else the memory available now.
inline std::uint64_t memory_limit(std::uint64_t max_memory) { return max_memory > 0 ? max_memory : available_memory(); }

}  // namespace searchbench
