// Cache files of pattern databases: a table is built once and read back by later runs.
//
// A file is keyed by puzzle, heuristic, pattern and target: its name is the puzzle's, the
// heuristic's and the xxh64 of the pattern and target text, and its header repeats all four,
// so a name collision reads as a stale file. The header is text (a person can `head` it):
//
//   searchbench pattern database        the magic line
//   version 1
//   puzzle tiles-4x4 / heuristic pdb / pattern 1,2,5,6,9,10 / target 1 2 3 ... (a line each)
//   entries 5765760 / width 8 / xxh64 <16 hex digits of the payload's XXH64>
//   (an empty line), then the payload: `entries` entries of `width` bits (8: a byte each;
//   4: two to a byte, the even entry in the low half), what the heuristic reads them as.
//
// What is found at the file's path decides what happens:
// * nothing: the table is built and saved;
// * our magic, but another version, other fields, a wrong size (truncated) or a checksum that
//   does not match (damaged): rebuilt and replaced. A file shorter than the magic line that
//   is a prefix of it counts as ours, truncated;
// * anything else (another magic, a symbolic link, a folder, a FIFO): refused with one
//   InputError line, never read as a table and never replaced: it is not ours to clobber.
// Saving writes a temporary file of a name unique to this process and call in the same
// folder (O_EXCL), fsyncs it and moves it to the final name only over what was found there
// when the search began: over nothing by a rename that refuses to replace (RENAME_NOREPLACE,
// or link then unlink where the file system cannot), over a stale copy of ours only while it
// is still that same file. Whatever appeared at the path meanwhile (a file, a link, a FIFO,
// another process's complete copy) is left as it is, and the table is kept in memory. A
// signal (INT, TERM, HUP) while the file is written removes the temporary file before the
// process ends by it; temporary files of processes that no longer run (killed with -9) are
// removed by the next save into the folder. A reader sees the old file or a new one, never
// a mix. A cache folder that cannot be written (missing permissions, a read-only file system,
// a full disk) is no reason to refuse a search: the table is kept in memory and the note
// says why it was not saved. A cache path that exists and is not a folder is refused.
#pragma once

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/xxhash.hpp"

#include "core/errors.hpp"
#include "core/interrupt.hpp"
#include "core/memory_budget.hpp"
#include "core/timer.hpp"
#include "heuristics/pdb_options.hpp"

namespace searchbench {

// What a table file is keyed by and holds: `entries` of `width` bits (8 or 4).
struct PdbFileKey {
  std::string puzzle, heuristic, pattern, target;
  std::uint64_t entries = 0;
  int width = 8;
  std::uint64_t payload_bytes() const { return (entries * static_cast<std::uint64_t>(width) + 7) / 8; }
};

namespace pdb_file_detail {

inline constexpr std::string_view kMagic = "searchbench pattern database\n";
inline constexpr int kVersion = 1;
inline constexpr std::size_t kMaxHeader = 1 << 16;

inline std::string hex64(std::uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

inline std::string header_of(const PdbFileKey& key, std::uint64_t checksum) {
  return std::string(kMagic) + "version " + std::to_string(kVersion) + "\npuzzle " + key.puzzle + "\nheuristic " +
         key.heuristic + "\npattern " + key.pattern + "\ntarget " + key.target + "\nentries " +
         std::to_string(key.entries) + "\nwidth " + std::to_string(key.width) + "\nxxh64 " + hex64(checksum) + "\n\n";
}

// Reads until `bytes` are in or the file ends; false on a read error.
inline bool read_fully(int fd, void* data, std::size_t bytes, std::size_t& got) {
  char* p = static_cast<char*>(data);
  got = 0;
  while (got < bytes) {
    const ssize_t n = ::read(fd, p + got, bytes - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  return true;
}

inline bool write_fully(int fd, const void* data, std::size_t bytes) {
  const char* p = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t n = ::write(fd, p, bytes);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    bytes -= static_cast<std::size_t>(n);
  }
  return true;
}

[[noreturn]] inline void refuse_foreign(const std::string& path, const std::string& what) {
  throw InputError("refused pattern database cache file '" + path + "': " + what +
                   " (not a file this suite wrote; remove it or choose another --pdb-cache)");
}

// An open descriptor, closed on every way out.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace pdb_file_detail

// What was found at a table file's path.
// What was at a table file's path when it was read: nothing, or a stale copy of ours (the
// only file a save may replace, and only while it is still that file).
struct PdbFileFound {
  bool absent = true;
  dev_t device = 0;
  ino_t inode = 0;
};

struct PdbFileRead {
  std::optional<std::vector<std::uint8_t>> table;  // a valid table of the key
  std::string stale;  // why a file of ours could not be used (empty: there was none)
  PdbFileFound found;  // what a save may replace
};

// Reads the table of `key` from `path`. Throws InputError for a path that is not ours.
inline PdbFileRead read_pdb_file(const std::string& path, const PdbFileKey& key) {
  using namespace pdb_file_detail;
  PdbFileRead r;
  struct stat st {};
  const auto stale_file = [&st](std::string why) {
    PdbFileRead stale;
    stale.stale = std::move(why);
    stale.found = {.absent = false, .device = st.st_dev, .inode = st.st_ino};
    return stale;
  };
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) return r;  // no file (below a path that is no folder: saving says why)
    throw InputError("cannot read pattern database cache file '" + path + "': " + std::strerror(errno));
  }
  if (S_ISLNK(st.st_mode)) refuse_foreign(path, "a symbolic link");
  if (S_ISDIR(st.st_mode)) refuse_foreign(path, "a folder");
  if (!S_ISREG(st.st_mode)) refuse_foreign(path, "not a regular file");
  Fd f{::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC)};
  if (f.fd < 0 && errno == ELOOP) refuse_foreign(path, "a symbolic link");
  if (f.fd < 0) throw InputError("cannot read pattern database cache file '" + path + "': " + std::strerror(errno));
  if (::fstat(f.fd, &st) != 0 || !S_ISREG(st.st_mode)) refuse_foreign(path, "not a regular file");
  const auto size = static_cast<std::uint64_t>(st.st_size);
  std::string head(std::min<std::uint64_t>(size, kMaxHeader), '\0');
  std::size_t got = 0;
  if (!read_fully(f.fd, head.data(), head.size(), got))
    throw InputError("cannot read pattern database cache file '" + path + "': " + std::strerror(errno));
  head.resize(got);
  if (head.size() < kMagic.size()) {
    if (kMagic.substr(0, head.size()) != head) refuse_foreign(path, "it does not start with the pattern database magic line");
    return stale_file("truncated");
  }
  if (head.compare(0, kMagic.size(), kMagic) != 0) refuse_foreign(path, "it does not start with the pattern database magic line");
  const std::size_t end = head.find("\n\n");
  if (end == std::string::npos) return stale_file("truncated or malformed header");
  const std::string header = head.substr(0, end + 2);
  const std::size_t sum_at = header.rfind("xxh64 ");
  if (sum_at == std::string::npos || header.size() < sum_at + 6 + 16 + 2) return stale_file("malformed header");
  const std::uint64_t checksum = std::strtoull(header.substr(sum_at + 6, 16).c_str(), nullptr, 16);
  if (header != header_of(key, checksum)) return stale_file("another version, key or size");
  if (size != header.size() + key.payload_bytes()) return stale_file("truncated or padded (" + std::to_string(size) + " bytes)");
  std::vector<std::uint8_t> table(key.payload_bytes());
  if (::lseek(f.fd, static_cast<off_t>(header.size()), SEEK_SET) < 0 || !read_fully(f.fd, table.data(), table.size(), got) ||
      got != table.size())
    return stale_file("unreadable payload");
  if (XXH64(table.data(), table.size(), 0) != checksum) return stale_file("checksum mismatch");
  r.table = std::move(table);
  return r;
}

// Creates `folder` and its missing parents; "" on success, else the system's reason. A path
// that exists and is not a folder is refused.
inline std::string make_cache_folder(const std::string& folder) {
  for (std::size_t at = 1; at <= folder.size(); ++at) {
    if (at < folder.size() && folder[at] != '/') continue;
    const std::string part = folder.substr(0, at);
    if (::mkdir(part.c_str(), 0755) != 0 && errno != EEXIST) return "cannot create '" + part + "': " + std::strerror(errno);
  }
  struct stat st {};
  if (::stat(folder.c_str(), &st) != 0) return "cannot reach '" + folder + "': " + std::strerror(errno);
  if (!S_ISDIR(st.st_mode)) throw InputError("--pdb-cache '" + folder + "' is not a folder");
  return {};
}

namespace pdb_file_detail {

inline constexpr std::string_view kTempMark = ".pdb.tmp-";

// Removes the temporary files in `folder` left by processes that no longer run.
inline void sweep_stale_temporaries(const std::string& folder) {
  DIR* dir = ::opendir(folder.c_str());
  if (!dir) return;
  while (const dirent* entry = ::readdir(dir)) {
    const std::string name = entry->d_name;
    const std::size_t mark = name.find(kTempMark);
    if (mark == std::string::npos) continue;
    const char* pid_text = name.c_str() + mark + kTempMark.size();
    char* end = nullptr;
    const long pid = std::strtol(pid_text, &end, 10);
    if (end == pid_text || *end != '-' || pid <= 0) continue;
    if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;  // alive, or not ours to judge
    struct stat st {};
    const std::string path = folder + "/" + name;
    if (::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) ::unlink(path.c_str());
  }
  ::closedir(dir);
}

// Moves the complete `temp` to `path` if `path` still holds what `found` says; "" when it
// did, else why the table was not saved (the temporary file is then removed).
inline std::string install(const std::string& temp, const std::string& path, const PdbFileFound& found) {
  auto give_up = [&](const std::string& why) {
    ::unlink(temp.c_str());
    return why;
  };
  if (found.absent) {
    if (::renameat2(AT_FDCWD, temp.c_str(), AT_FDCWD, path.c_str(), RENAME_NOREPLACE) == 0) return {};
    int error = errno;
    if (error == EINVAL || error == ENOSYS) {  // a file system that cannot refuse to replace: link is atomic too
      if (::link(temp.c_str(), path.c_str()) == 0) return give_up({});
      error = errno;
    }
    if (error == EEXIST) return give_up("'" + path + "' appeared while the table was built; left as it is");
    return give_up("cannot write '" + path + "': " + std::strerror(error));
  }
  struct stat now {};
  if (::lstat(path.c_str(), &now) != 0 || !S_ISREG(now.st_mode) || now.st_dev != found.device || now.st_ino != found.inode)
    return give_up("'" + path + "' changed while the table was built; left as it is");
  if (::rename(temp.c_str(), path.c_str()) != 0) return give_up("cannot write '" + path + "': " + std::strerror(errno));
  return {};
}

}  // namespace pdb_file_detail

// Saves `table` as the file of `key` at `path` (see the top) if the path still holds what
// `found` says; "" on success, else why not.
inline std::string write_pdb_file(const std::string& folder, const std::string& path, const PdbFileKey& key,
                                  const std::vector<std::uint8_t>& table, const PdbFileFound& found) {
  using namespace pdb_file_detail;
  if (std::string why = make_cache_folder(folder); !why.empty()) return why;
  sweep_stale_temporaries(folder);
  static std::atomic<unsigned> calls{0};
  const std::string temp = path + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(calls.fetch_add(1));
  const std::string header = header_of(key, XXH64(table.data(), table.size(), 0));
  const InterruptScope signals_wait;  // a signal now is answered once the temporary file is gone
  Fd f{::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644)};
  if (f.fd < 0) return "cannot create '" + temp + "': " + std::strerror(errno);
  const bool written = write_fully(f.fd, header.data(), header.size()) && write_fully(f.fd, table.data(), table.size()) &&
                       ::fsync(f.fd) == 0;
  const int why = errno;
  const bool closed = ::close(std::exchange(f.fd, -1)) == 0;
  if (interrupt_signal() != 0) {
    ::unlink(temp.c_str());
    throw_if_interrupted();
  }
  if (!written || !closed) {
    const int reason = !written ? why : errno;
    ::unlink(temp.c_str());
    return "cannot write '" + path + "': " + std::strerror(reason);
  }
  if (std::string refused = install(temp, path, found); !refused.empty()) return refused;
  if (Fd dir{::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)}; dir.fd >= 0) ::fsync(dir.fd);
  return {};
}

// The cache folder --pdb-cache names: the option's value, else $XDG_CACHE_HOME/searchbench,
// else $HOME/.cache/searchbench; nullopt for `none` (or with neither variable set).
inline std::optional<std::string> pdb_cache_folder(const std::string& option) {
  if (option == "none") return std::nullopt;
  if (!option.empty()) return option;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg == '/') return std::string(xdg) + "/searchbench";
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.cache/searchbench";
  return std::nullopt;
}

// The file of `key` in `folder` (a table of another width is another file).
inline std::string pdb_file_path(const std::string& folder, const PdbFileKey& key) {
  std::string keyed = key.heuristic + "\n" + key.pattern + "\n" + key.target;
  if (key.width != 8) keyed += "\nwidth " + std::to_string(key.width);
  return folder + "/" + key.puzzle + "-" + key.heuristic + "-" + pdb_file_detail::hex64(XXH64(keyed.data(), keyed.size(), 0)) +
         ".pdb";
}

// The table of `key`: read from the cache folder `cache_option` names (see pdb_cache_folder),
// else built by `build()` (returning the table) and saved there. `note` gets how ("loaded
// from <file>", "built in N s, saved to <file>", "built in memory"), and what became of a
// stale copy found at the file's path.
template <class Build>
std::vector<std::uint8_t> cached_pdb_table(const std::string& cache_option, const PdbFileKey& key, Build&& build,
                                           std::string& note) {
  const std::optional<std::string> folder = pdb_cache_folder(cache_option);
  std::string path, stale;
  PdbFileFound on_disk;
  if (folder) {
    if (struct stat st {}; ::stat(folder->c_str(), &st) == 0 && !S_ISDIR(st.st_mode))
      throw InputError("--pdb-cache '" + *folder + "' is not a folder");
    path = pdb_file_path(*folder, key);
    PdbFileRead found = read_pdb_file(path, key);
    if (found.table) {
      note = "loaded from " + path;
      return std::move(*found.table);
    }
    stale = std::move(found.stale);
    on_disk = found.found;
  }
  Timer timer;
  std::vector<std::uint8_t> table = build();
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.2f", timer.seconds());
  if (!folder) {
    note = "built in memory (" + std::string(seconds) + " s)";
    return table;
  }
  const std::string why = write_pdb_file(*folder, path, key, table, on_disk);
  note = "built in " + std::string(seconds) + " s, " + (why.empty() ? "saved to " + path : "kept in memory only: " + why);
  // Replaced only when saved: a save that failed may have found the stale copy already gone.
  if (!stale.empty())
    note += why.empty() ? "; a stale copy (" + stale + ") was replaced" : "; the copy found there was stale (" + stale + ")";
  return table;
}

// Databases whose largest entry is the estimate (the magic board's and the cube's patterns,
// which may overlap, so they are maxed, never summed): each loaded from the cache or built,
// their notes joined, their bytes summed. Rank turns a pattern's placement into its index.
template <class Rank>
class MaxedPdbTables {
 public:
  struct Table {
    std::vector<int> members;  // the pattern's values or corners, in increasing order
    Rank rank;
    std::vector<std::uint8_t> values;  // per index of rank
    std::string pattern;               // its text, as the file key names it
  };

  // One pattern's table, through cached_pdb_table(cache_option, key, build). A pattern given
  // twice adds nothing to the largest entry and is held once; the tables held so far plus
  // this one are checked against `memory` before it is loaded or built.
  template <class Build>
  void add(std::vector<int> members, Rank rank, const std::string& cache_option, const PdbFileKey& key, const MemoryBudget& memory,
           Build&& build) {
    if (std::any_of(tables_.begin(), tables_.end(), [&](const Table& t) { return t.pattern == key.pattern; })) return;
    memory.check_up_front(bytes() + key.payload_bytes(), "the pattern databases of " + key.puzzle, "holding ");
    std::string note;
    std::vector<std::uint8_t> values = cached_pdb_table(cache_option, key, std::forward<Build>(build), note);
    tables_.push_back(Table{std::move(members), std::move(rank), std::move(values), key.pattern});
    append_listed(note_, "; ", "pattern " + key.pattern + ": " + note);
  }

  // The largest entry, index_of(table) giving each table's index for the state at hand.
  template <class IndexOf>
  int largest(IndexOf&& index_of) const {
    int h = 0;
    for (const Table& t : tables_) h = std::max<int>(h, t.values[index_of(t)]);
    return h;
  }

  std::uint64_t bytes() const {
    std::uint64_t total = 0;
    for (const Table& t : tables_) total += t.values.size();
    return total;
  }
  const std::string& note() const { return note_; }
  std::size_t size() const { return tables_.size(); }

 private:
  std::vector<Table> tables_;
  std::string note_;
};

}  // namespace searchbench
