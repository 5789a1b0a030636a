// A folder of work files for out-of-core searches, with the POSIX calls that make a
// checkpoint durable: data is fsync'ed before a small manifest is written to a temporary
// name, fsync'ed and renamed over the old one (rename is atomic), and the folder itself is
// fsync'ed so the rename survives a power loss. Every failure is one InputError line naming
// the file and the system's reason.
//
// A folder is owned by one run at a time: the run holds an exclusive flock on the folder's
// `lock` file (holding its process id) for its whole life, and a second run is refused with
// the holder's id. Files are opened with O_NOFOLLOW and created with O_EXCL, so a symbolic
// link planted in the folder, or a file that appeared under a name the run is about to
// write, is refused rather than followed or clobbered.
#pragma once

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
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
#include <vector>

#include "core/errors.hpp"

namespace searchbench {

inline std::string system_reason() { return std::strerror(errno); }

// An open file descriptor; closed on destruction.
class DataFile {
 public:
  // create: a new file (an existing one is refused: remove it first); folder: to sync it.
  enum class Mode { read, create, append, folder };
  DataFile() = default;
  DataFile(const std::string& path, Mode mode) : path_(path) {
    const int flags = mode == Mode::read     ? O_RDONLY | O_NOFOLLOW
                      : mode == Mode::create ? O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW
                      : mode == Mode::append ? O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW
                                             : O_RDONLY | O_DIRECTORY;
    fd_ = ::open(path.c_str(), flags | O_CLOEXEC, 0644);
    if (fd_ < 0 && errno == ELOOP) throw InputError("refused '" + path + "': a symbolic link in a work folder");
    if (fd_ < 0) throw InputError("cannot open '" + path + "': " + system_reason());
    if (mode == Mode::read || mode == Mode::append) {
      // A regular file with no other name: a hard link to a file outside the folder would
      // let a truncation or an append change that file.
      struct stat st {};
      if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode) || (mode == Mode::append && st.st_nlink > 1)) {
        ::close(std::exchange(fd_, -1));
        throw InputError("refused '" + path + "': not a regular file of its own in a work folder");
      }
    }
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
  std::uint64_t size() const {
    struct stat st {};
    if (::fstat(fd_, &st) != 0) throw InputError("cannot read '" + path_ + "': " + system_reason());
    return static_cast<std::uint64_t>(st.st_size);
  }
  int fd() const { return fd_; }

 private:
  int fd_ = -1;
  std::string path_;
};

class WorkDir {
 public:
  // `path` empty: a fresh temporary folder under $TMPDIR (or /tmp), removed with its files
  // when this object goes away. Otherwise the folder is kept, and created when missing if
  // `create` (a run to resume must find its folder).
  explicit WorkDir(const std::string& path, bool create = true) {
    if (path.empty()) {
      const char* tmp = std::getenv("TMPDIR");
      std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/searchbench-external-XXXXXX";
      if (!::mkdtemp(pattern.data())) throw InputError("cannot create a temporary work folder: " + system_reason());
      path_ = pattern;
      temporary_ = true;
      return;
    }
    path_ = path;
    if (struct stat st {}; !create && ::stat(path_.c_str(), &st) != 0)
      throw InputError("nothing to resume in '" + path_ + "': " + system_reason());
    if (create && ::mkdir(path_.c_str(), 0755) != 0 && errno != EEXIST)
      throw InputError("cannot create work folder '" + path_ + "': " + system_reason());
    struct stat st {};
    if (::stat(path_.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) throw InputError("work folder '" + path_ + "' is not a folder");
    take_lock();
  }
  WorkDir(const WorkDir&) = delete;
  WorkDir& operator=(const WorkDir&) = delete;
  ~WorkDir() {
    if (lock_fd_ >= 0) ::close(lock_fd_);  // releases the flock
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
    return ::lstat(file(name).c_str(), &st) == 0 ? static_cast<std::uint64_t>(st.st_size) : 0;
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
    const int fd = ::open(file(name).c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
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
    DataFile f(file(name), DataFile::Mode::append);  // refuses links and files with other names
    if (::ftruncate(f.fd(), static_cast<off_t>(bytes)) != 0)
      throw InputError("cannot truncate '" + file(name) + "': " + system_reason());
  }
  // Whether the name exists at all (a symbolic link counts, whatever it points to).
  bool exists(const std::string& name) const {
    struct stat st {};
    return ::lstat(file(name).c_str(), &st) == 0;
  }
  // The folder's entries other than . and ..; a symbolic link, a folder or anything else
  // that is not a regular file is refused: nothing in a work folder may lead outside it.
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    DIR* dir = ::opendir(path_.c_str());
    if (!dir) throw InputError("cannot read work folder '" + path_ + "': " + system_reason());
    while (const dirent* entry = ::readdir(dir))
      if (std::strcmp(entry->d_name, ".") != 0 && std::strcmp(entry->d_name, "..") != 0) names.emplace_back(entry->d_name);
    ::closedir(dir);
    for (const std::string& name : names) {
      struct stat st {};
      if (::lstat(file(name).c_str(), &st) != 0) continue;  // gone meanwhile
      if (S_ISLNK(st.st_mode)) throw InputError("damaged work folder: " + name + ": a symbolic link (refused: it could lead outside the folder)");
      if (!S_ISREG(st.st_mode)) throw InputError("damaged work folder: " + name + ": not a regular file");
    }
    return names;
  }
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
    remove(temp);  // a killed run's
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
    DataFile dir(path_, DataFile::Mode::folder);
    dir.sync();
  }
  static constexpr const char* kLockFile = "lock";

 private:
  // The exclusive flock that makes this process the folder's only user, or one line naming
  // the process that holds it.
  void take_lock() {
    const std::string name = file(kLockFile);
    lock_fd_ = ::open(name.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (lock_fd_ < 0 && errno == ELOOP) throw InputError("damaged work folder: lock: a symbolic link (refused)");
    if (lock_fd_ < 0) throw InputError("cannot open '" + name + "': " + system_reason());
    // The lock file gets this process's id written into it: it must be the folder's own.
    if (struct stat st {}; ::fstat(lock_fd_, &st) != 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1) {
      ::close(std::exchange(lock_fd_, -1));
      throw InputError("damaged work folder: lock: not a regular file of its own (a hard link, a FIFO or a folder; refused)");
    }
    if (::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
      const int why = errno;
      char text[32] = {};
      const ssize_t n = ::pread(lock_fd_, text, sizeof text - 1, 0);
      ::close(std::exchange(lock_fd_, -1));
      if (why != EWOULDBLOCK) throw InputError("cannot lock '" + name + "': " + std::strerror(why));
      std::string holder = n > 0 ? std::string(text, static_cast<std::size_t>(n)) : "";
      while (!holder.empty() && (holder.back() == '\n' || holder.back() == ' ')) holder.pop_back();
      throw InputError("work folder '" + path_ + "' is in use by another run (process " + (holder.empty() ? "unknown" : holder) +
                       "); wait for it to end or use another folder");
    }
    const std::string pid = std::to_string(::getpid()) + "\n";
    if (::ftruncate(lock_fd_, 0) != 0 || ::pwrite(lock_fd_, pid.data(), pid.size(), 0) != static_cast<ssize_t>(pid.size()))
      throw InputError("cannot write '" + name + "': " + system_reason());
  }

  std::string path_;
  bool temporary_ = false;
  int lock_fd_ = -1;
};

}  // namespace searchbench
