// The export command and open_output(): see cli/export_command.hpp for the rules.
#include "cli/export_command.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <utility>

#include "core/disk_space.hpp"
#include "core/memory_budget.hpp"
#include "core/errors.hpp"
#include "core/interrupt.hpp"
#include "cli/common.hpp"
#include "registry/registry.hpp"

namespace searchbench {

namespace {

std::string in_quotes(const std::string& s) { return "'" + s + "'"; }

std::string error_text(int error) { return std::strerror(error); }

// What a link points to, as written in the link ("" when unreadable).
std::string link_text(const std::string& path) {
  char buffer[PATH_MAX];
  const ssize_t n = ::readlink(path.c_str(), buffer, sizeof buffer);
  return n > 0 ? std::string(buffer, static_cast<std::size_t>(n)) : std::string();
}

// "a folder", "a block device", ...: what a refused non-regular file is.
const char* kind_name(mode_t mode) {
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISFIFO(mode)) return "a FIFO";
  return "not a regular file";
}

bool same_file(const struct stat& a, const struct stat& b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino && (a.st_mode & S_IFMT) == (b.st_mode & S_IFMT);
}

}  // namespace

OutputTarget::OutputTarget(Kind kind, std::string path, std::string target, std::string temp, std::FILE* file)
    : kind_(kind), path_(std::move(path)), target_(std::move(target)), temp_(std::move(temp)), file_(file) {}

OutputTarget::OutputTarget(OutputTarget&& other) noexcept
    : kind_(other.kind_),
      path_(std::move(other.path_)),
      target_(std::move(other.target_)),
      temp_(std::exchange(other.temp_, std::string())),
      file_(std::exchange(other.file_, nullptr)) {}

OutputTarget::~OutputTarget() {
  if (file_ && kind_ != Kind::standard_output) std::fclose(file_);
  if (!temp_.empty()) ::unlink(temp_.c_str());
}

std::string OutputTarget::folder() const {
  const std::filesystem::path p(target_);
  return p.has_parent_path() ? p.parent_path().string() : std::string(".");
}

std::string OutputTarget::described() const {
  return target_ == path_ ? in_quotes(path_) : in_quotes(path_) + " (a link to " + in_quotes(target_) + ")";
}

void OutputTarget::commit() {
  throw_if_interrupted();  // a signal since the last poll: keep the old file, remove the new one
  if (kind_ == Kind::standard_output) {
    if (std::fflush(stdout) != 0) throw OutputError("cannot write the output: " + error_text(errno));
    return;
  }
  if (!file_) return;  // committed already
  std::FILE* file = std::exchange(file_, nullptr);
  if (std::fclose(file) != 0) {
    const int error = errno;
    throw_if_interrupted();
    throw OutputError("cannot write " + described() + ": " + error_text(error));
  }
  if (kind_ == Kind::replaced_file) {
    install_temp();
    temp_.clear();
  }
}

// Renames the complete temporary file over the target, but only over a regular file or
// nothing: lstat just before the rename, and where the target was absent, a rename that
// refuses to replace (RENAME_NOREPLACE), so a device, FIFO, folder or link that appeared
// there meanwhile is never replaced.
void OutputTarget::install_temp() const {
  auto fail = [&](const std::string& why) { throw OutputError("cannot write " + described() + ": " + why); };
  for (int attempt = 0;; ++attempt) {
    struct stat now {};
    if (::lstat(target_.c_str(), &now) != 0) {
      if (errno != ENOENT) fail(error_text(errno));
      if (::renameat2(AT_FDCWD, temp_.c_str(), AT_FDCWD, target_.c_str(), RENAME_NOREPLACE) == 0) return;
      const int error = errno;
      if (error == EEXIST && attempt < 2) continue;  // something appeared meanwhile: look at it
      if (error != EINVAL && error != ENOSYS) fail(error_text(error));
      // A file system that cannot refuse to replace: the lstat above is the check.
    } else if (!S_ISREG(now.st_mode)) {
      fail(std::string("it became ") + kind_name(now.st_mode) + " while the output was written; left as it is");
    }
    if (std::rename(temp_.c_str(), target_.c_str()) != 0) fail(error_text(errno));
    return;
  }
}

OutputTarget open_output(const std::string& path) {
  using Kind = OutputTarget::Kind;
  if (path.empty()) throw InputError("the output path is empty (give a file, or '-' for stdout)");
  if (path == "-") return OutputTarget(Kind::standard_output, path, path, "", stdout);

  std::string target = path;
  struct stat st {};
  bool exists = ::lstat(path.c_str(), &st) == 0;
  if (!exists && errno != ENOENT) throw InputError("cannot open " + in_quotes(path) + " for writing: " + error_text(errno));
  if (exists && S_ISLNK(st.st_mode)) {  // the rules apply to the file the link points to
    char* resolved = ::realpath(path.c_str(), nullptr);
    if (!resolved) {
      const int error = errno;
      if (error == ENOENT)
        throw InputError(in_quotes(path) + " is a symbolic link to " + in_quotes(link_text(path)) + ", which does not exist");
      throw InputError("cannot follow the symbolic link " + in_quotes(path) + ": " + error_text(error));
    }
    target = resolved;
    std::free(resolved);
    if (::lstat(target.c_str(), &st) != 0 || S_ISLNK(st.st_mode))
      throw InputError("cannot follow the symbolic link " + in_quotes(path) + ": its target changed");
  }
  const std::string described = target == path ? in_quotes(path) : in_quotes(path) + " (a link to " + in_quotes(target) + ")";

  if (exists && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))) {
    // Written straight through: opened without O_CREAT or O_TRUNC and without following a
    // link, then checked to be the very file lstat saw.
    int fd;
    while ((fd = ::open(target.c_str(), O_WRONLY | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC)) < 0) {
      const int error = errno;
      if (error == EINTR) {  // waiting for a FIFO's reader
        throw_if_interrupted();
        continue;
      }
      throw InputError("cannot open " + described + " for writing: " + error_text(error));
    }
    struct stat opened {};
    if (::fstat(fd, &opened) != 0 || !same_file(st, opened)) {
      ::close(fd);
      throw InputError(described + " changed while it was opened; not writing to it");
    }
    std::FILE* file = ::fdopen(fd, "wb");
    if (!file) {
      const int error = errno;
      ::close(fd);
      throw InputError("cannot open " + described + " for writing: " + error_text(error));
    }
    return OutputTarget(Kind::stream, path, target, "", file);
  }
  if (exists && !S_ISREG(st.st_mode)) {
    if (S_ISDIR(st.st_mode)) throw InputError(described + " is a folder; give a file name for the output");
    throw InputError(described + " is " + kind_name(st.st_mode) +
                     "; the output goes to a file, a character device or a FIFO only");
  }

  // A regular file or a new one: a temporary file beside it, renamed over it when complete.
  const std::filesystem::path where(target);
  const std::string folder = where.has_parent_path() ? where.parent_path().string() : std::string(".");
  std::string temp = folder + "/." + where.filename().string() + ".XXXXXX";
  const int fd = ::mkostemp(temp.data(), O_CLOEXEC);
  if (fd < 0) throw InputError("cannot open " + described + " for writing: " + error_text(errno));
  OutputTarget out(Kind::replaced_file, path, target, temp, nullptr);  // removes the temporary file from here on
  if (exists) {
    ::fchmod(fd, st.st_mode & 07777);  // the replaced file's permissions
  } else {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    ::fchmod(fd, 0666 & ~mask);
  }
  out.file_ = ::fdopen(fd, "wb");
  if (!out.file_) {
    const int error = errno;
    ::close(fd);
    throw InputError("cannot open " + described + " for writing: " + error_text(error));
  }
  return out;
}

std::uint64_t estimate_export_bytes(int moves, std::uint64_t key_bound) {
  const std::uint64_t digits = std::to_string(key_bound > 0 ? key_bound - 1 : 0).size();
  const long double bytes = static_cast<long double>(key_bound) * moves * (2 * digits + 2);
  return bytes >= 1.8e19L ? std::numeric_limits<std::uint64_t>::max() : static_cast<std::uint64_t>(bytes);
}

CLI::App* add_export_command(CLI::App& app, ExportArgs& a) {
  auto* cmd = app.add_subcommand("export", "Write the state graph as an edge list of keys (for explicit-graph BFS codes)");
  cmd->add_option("--puzzle", a.puzzle, "puzzle name (see list)");
  cmd->add_option("--encoder", a.encoder, "an encoder whose every key is a state (default: the family's perfect ranking)");
  cmd->add_option("--format", a.format, "el: one 'from to' line per edge")->check(CLI::IsMember({"el"}));
  cmd->add_option("--output", a.output, "file for the edges ('-': stdout)");
  cli::add_size_option(cmd, "--max-output", a.max_output,
                       "refuse when the edge list could exceed this, e.g. 2G (a file is also checked against free disk)")
      ->default_str("no limit");
  return cmd;
}

int command_export(const ExportArgs& a) {
  const auto puzzle = make_puzzle(a.puzzle);
  const std::string encoder = puzzle->encoder_name(a.encoder);
  const std::string name = puzzle->name();
  const std::uint64_t estimate = estimate_export_bytes(puzzle->move_count(), puzzle->key_bound(encoder));
  if (a.max_output > 0 && estimate > a.max_output)
    throw InputError("the edge list of " + name + " takes up to " + human_bytes(estimate) + ", more than --max-output " +
                     human_bytes(a.max_output));
  // From here on a signal is recorded, the writer stops at its next poll, and `out` removes
  // its temporary file while the Interrupted exception unwinds.
  const InterruptScope interrupts;
  OutputTarget out = open_output(a.output);
  const bool to_stdout = out.kind() == OutputTarget::Kind::standard_output;
  const std::uint64_t free_bytes = available_disk(fileno(out.file()));  // 0 for a device, a FIFO or a pipe
  if (free_bytes > 0 && estimate > free_bytes)
    throw InputError("the edge list of " + name + " takes up to " + human_bytes(estimate) + ", more than the " +
                     human_bytes(free_bytes) + " free " + (to_stdout ? "where stdout goes" : "in " + in_quotes(out.folder())));
  EdgeListSummary summary;
  try {
    summary = puzzle->export_edge_list(encoder, out.file());
  } catch (const OutputError& e) {  // name the file the write failed on
    const std::string what = e.what(), prefix = "cannot write the edge list";
    if (to_stdout || what.rfind(prefix, 0) != 0) throw;
    throw OutputError(prefix + " to " + out.described() + what.substr(prefix.size()));
  }
  out.commit();
  std::fprintf(to_stdout ? stderr : stdout, "start %llu\nvertices %llu\nedges %llu\n",
               static_cast<unsigned long long>(summary.start_key), static_cast<unsigned long long>(summary.vertices),
               static_cast<unsigned long long>(summary.edges));
  return 0;
}

}  // namespace searchbench
