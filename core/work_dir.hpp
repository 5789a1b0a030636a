// A folder of work files for out-of-core searches, with the POSIX calls that make a
// checkpoint durable: data is fsync'ed before a small manifest is written to a temporary
// name, fsync'ed and renamed over the old one (rename is atomic), and the folder itself is
// fsync'ed so the rename survives a power loss. Every failure is one InputError line naming
// the file and the system's reason.
#pragma once

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <utility>

#include "core/errors.hpp"

namespace searchbench {

inline std::string system_reason() { return std::strerror(errno); }

// An open file descriptor; closed on destruction.
class DataFile {
 public:
  enum class Mode { read, create, append };
  DataFile() = default;
  DataFile(const std::string& path, Mode mode) : path_(path) {
    const int flags = mode == Mode::read ? O_RDONLY : mode == Mode::create ? O_WRONLY | O_CREAT | O_TRUNC : O_WRONLY | O_CREAT | O_APPEND;
    fd_ = ::open(path.c_str(), flags | O_CLOEXEC, 0644);
    if (fd_ < 0) throw InputError("cannot open '" + path + "': " + system_reason());
  }
  DataFile(DataFile&& other) noexcept : fd_(std::exchange(other.fd_, -1)), path_(std::move(other.path_)) {}
  DataFile& operator=(DataFile&& other) noexcept {
    std::swap(fd_, other.fd_);
    std::swap(path_, other.path_);
    return *this;
  }
  ~DataFile() {
    if (fd_ >= 0) ::close(fd_);
  }
  bool is_open() const { return fd_ >= 0; }

  void write_all(const void* data, std::size_t bytes) {
    const char* p = static_cast<const char*>(data);
    while (bytes > 0) {
      const ssize_t n = ::write(fd_, p, bytes);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) throw InputError("cannot write '" + path_ + "': " + system_reason());
      p += n;
      bytes -= static_cast<std::size_t>(n);
    }
  }
  // Reads up to `bytes`; fewer only at the end of the file.
  std::size_t read_up_to(void* data, std::size_t bytes) {
    char* p = static_cast<char*>(data);
    std::size_t got = 0;
    while (got < bytes) {
      const ssize_t n = ::read(fd_, p + got, bytes - got);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) throw InputError("cannot read '" + path_ + "': " + system_reason());
      if (n == 0) break;
      got += static_cast<std::size_t>(n);
    }
    return got;
  }
  void read_exactly(void* data, std::size_t bytes) {
    if (read_up_to(data, bytes) != bytes) throw InputError("'" + path_ + "' is shorter than expected (a damaged work folder)");
  }
  // Starts writing the file's dirty pages to disk without waiting (a later sync() then
  // has less to wait for); a no-op where the system lacks sync_file_range.
  void start_writeback() {
#if defined(__linux__)
    ::sync_file_range(fd_, 0, 0, SYNC_FILE_RANGE_WRITE);
#endif
  }
  void sync() {
    if (::fsync(fd_) != 0) throw InputError("cannot sync '" + path_ + "': " + system_reason());
  }
  void close() {
    if (fd_ >= 0 && ::close(std::exchange(fd_, -1)) != 0) throw InputError("cannot close '" + path_ + "': " + system_reason());
  }

 private:
  int fd_ = -1;
  std::string path_;
};

class WorkDir {
 public:
  // `path` empty: a fresh temporary folder under $TMPDIR (or /tmp), removed with its files
  // when this object goes away. Otherwise the folder is created when missing and kept.
  explicit WorkDir(const std::string& path) {
    if (path.empty()) {
      const char* tmp = std::getenv("TMPDIR");
      std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/searchbench-external-XXXXXX";
      if (!::mkdtemp(pattern.data())) throw InputError("cannot create a temporary work folder: " + system_reason());
      path_ = pattern;
      temporary_ = true;
      return;
    }
    path_ = path;
    if (::mkdir(path_.c_str(), 0755) != 0 && errno != EEXIST)
      throw InputError("cannot create work folder '" + path_ + "': " + system_reason());
    struct stat st {};
    if (::stat(path_.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) throw InputError("work folder '" + path_ + "' is not a folder");
  }
  WorkDir(const WorkDir&) = delete;
  WorkDir& operator=(const WorkDir&) = delete;
  ~WorkDir() {
    if (!temporary_) return;
    if (DIR* dir = ::opendir(path_.c_str())) {
      while (const dirent* entry = ::readdir(dir))
        if (std::strcmp(entry->d_name, ".") != 0 && std::strcmp(entry->d_name, "..") != 0) ::unlink(file(entry->d_name).c_str());
      ::closedir(dir);
    }
    ::rmdir(path_.c_str());
  }

  const std::string& path() const { return path_; }
  // A temporary folder dies with the process, so nothing in it needs to survive a crash.
  bool durable() const { return !temporary_; }
  void sync(DataFile& f) const {
    if (durable()) f.sync();
  }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

  // Bytes an unprivileged process may still write on the folder's file system.
  std::uint64_t free_bytes() const {
    struct statvfs vfs {};
    if (::statvfs(path_.c_str(), &vfs) != 0) throw InputError("cannot query free space of '" + path_ + "': " + system_reason());
    return static_cast<std::uint64_t>(vfs.f_bavail) * vfs.f_frsize;
  }
  std::uint64_t size_of(const std::string& name) const {
    struct stat st {};
    return ::stat(file(name).c_str(), &st) == 0 ? static_cast<std::uint64_t>(st.st_size) : 0;
  }
  // Bytes of every file in the folder.
  std::uint64_t total_bytes() const {
    std::uint64_t total = 0;
    if (DIR* dir = ::opendir(path_.c_str())) {
      while (const dirent* entry = ::readdir(dir))
        if (std::strcmp(entry->d_name, ".") != 0 && std::strcmp(entry->d_name, "..") != 0) total += size_of(entry->d_name);
      ::closedir(dir);
    }
    return total;
  }
  // Asks the system to start reading `name` into its cache (a file soon to be read whole).
  void prefetch(const std::string& name) const {
    const int fd = ::open(file(name).c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_WILLNEED);
    ::close(fd);
  }
  // A second name for the file `from` (the same data, no copy).
  void link(const std::string& from, const std::string& to) const {
    if (::link(file(from).c_str(), file(to).c_str()) != 0)
      throw InputError("cannot link '" + file(from) + "' to '" + file(to) + "': " + system_reason());
  }
  // Cuts `name` back to `bytes` (dropping what was appended after a checkpoint).
  void truncate(const std::string& name, std::uint64_t bytes) const {
    if (::truncate(file(name).c_str(), static_cast<off_t>(bytes)) != 0)
      throw InputError("cannot truncate '" + file(name) + "': " + system_reason());
  }
  bool exists(const std::string& name) const { return ::access(file(name).c_str(), F_OK) == 0; }
  void remove(const std::string& name) const {
    if (::unlink(file(name).c_str()) != 0 && errno != ENOENT)
      throw InputError("cannot remove '" + file(name) + "': " + system_reason());
  }

  std::optional<std::string> read_text(const std::string& name) const {
    if (!exists(name)) return std::nullopt;
    DataFile f(file(name), DataFile::Mode::read);
    std::string text;
    char block[4096];
    for (std::size_t n; (n = f.read_up_to(block, sizeof block)) > 0;) text.append(block, n);
    return text;
  }
  // Replaces `name` atomically: a reader (or a resumed run after a crash) sees the old
  // text or the new one, never a mix.
  void write_text_atomically(const std::string& name, const std::string& text) const {
    const std::string temp = name + ".tmp";
    DataFile f(file(temp), DataFile::Mode::create);
    f.write_all(text.data(), text.size());
    sync(f);
    f.close();
    if (::rename(file(temp).c_str(), file(name).c_str()) != 0)
      throw InputError("cannot rename '" + file(temp) + "': " + system_reason());
    sync();
  }
  // Makes created, renamed and removed names durable.
  void sync() const {
    if (!durable()) return;
    DataFile dir(path_, DataFile::Mode::read);
    dir.sync();
  }

 private:
  std::string path_;
  bool temporary_ = false;
};

}  // namespace searchbench
