// Free disk space, for an export to refuse up front rather than fill the disk.
#pragma once

#include <sys/stat.h>
#include <sys/statvfs.h>

#include <cstdint>

namespace searchbench {

// Bytes free to an unprivileged writer on the file system an open file lives on; 0 unless
// `fd` is a regular file (a pipe or a terminal has no disk to fill).
inline std::uint64_t available_disk(int fd) {
  struct stat st {};
  struct statvfs fs {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || fstatvfs(fd, &fs) != 0) return 0;
  return static_cast<std::uint64_t>(fs.f_bavail) * fs.f_frsize;
}

}  // namespace searchbench
