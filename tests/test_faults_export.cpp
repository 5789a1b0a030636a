// Fault injection on `searchbench export`: outputs that are not plain files (character
// devices, FIFOs, folders, links, sockets, block devices, an empty name) and exports stopped
// by SIGINT, SIGTERM or SIGHUP while writing. An export replaces only a regular file (by a
// complete temporary file renamed over it), writes straight into a device or FIFO without
// replacing it, follows a link to its target, refuses everything else with one line, and
// never leaves a temporary file behind. Device nodes are made in the test's own folder
// (never the real /dev/null): the cases that need them skip without root.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace fs = std::filesystem;

struct ExportOutcome {
  int status = -1;  // the exit status, or 128 + the signal
  std::string out, err;
};

std::string export_slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

// Runs the executable with `args` (shell words) under a 20 s limit, capturing both streams.
ExportOutcome export_run(const std::string& args) {
  static int call = 0;
  const std::string base = ::testing::TempDir() + "/searchbench_export_faults_" + std::to_string(getpid()) + "_run" + std::to_string(++call);
  const std::string out = base + ".out", err = base + ".err";
  const std::string cmd = "timeout 20 " SEARCHBENCH_EXE " " + args + " </dev/null >" + out + " 2>" + err;
  const int raw = std::system(cmd.c_str());
  ExportOutcome o;
  o.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  o.out = export_slurp(out);
  o.err = export_slurp(err);
  std::remove(out.c_str());
  std::remove(err.c_str());
  return o;
}

// A refusal: exactly one stderr line, and it starts with "searchbench: ".
void expect_one_export_error_line(const ExportOutcome& o, const std::string& what) {
  EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << what << ": " << o.err;
  EXPECT_EQ(o.err.rfind("searchbench: ", 0), 0u) << what << ": " << o.err;
}

// A fresh folder of its own for each case, removed afterwards (links are not followed).
struct ExportFolder {
  std::string path;
  explicit ExportFolder(const std::string& name)
      : path(::testing::TempDir() + "/searchbench_export_faults_" + std::to_string(getpid()) + "_" + name) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~ExportFolder() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
  std::string operator/(const std::string& name) const { return path + "/" + name; }
  // The names in the folder, sorted (a leftover temporary file shows up here).
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& entry : fs::directory_iterator(path)) out.push_back(entry.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
  }
};

mode_t export_file_type(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 ? (st.st_mode & S_IFMT) : 0;
}

// msquare-2x3 exported to a plain new file: what every other kind of output must receive.
const std::string& export_reference_edges() {
  static const std::string edges = [] {
    const ExportFolder folder("reference");
    const ExportOutcome o = export_run("export --puzzle msquare-2x3 --output " + (folder / "ref.el"));
    EXPECT_EQ(o.status, 0) << o.err;
    return export_slurp(folder / "ref.el");
  }();
  return edges;
}

// A character device node (major, minor) in `path`; "" when made and usable, else why not.
std::string make_export_char_device(const std::string& path, unsigned major_number, unsigned minor_number) {
  if (::mknod(path.c_str(), S_IFCHR | 0666, makedev(major_number, minor_number)) != 0)
    return errno == EPERM ? "needs root to make a device node" : std::string("mknod: ") + std::strerror(errno);
  const int fd = ::open(path.c_str(), O_WRONLY | O_NOFOLLOW);
  if (fd < 0) return std::string("the device node cannot be opened here (a nodev file system?): ") + std::strerror(errno);
  ::close(fd);
  return "";
}

}  // namespace

TEST(ExportFaults, OwnNullDeviceStaysACharacterDevice) {
  const ExportFolder folder("null");
  const std::string node = folder / "null";
  if (const std::string why = make_export_char_device(node, 1, 3); !why.empty()) GTEST_SKIP() << why;
  const ExportOutcome o = export_run("export --puzzle msquare-2x3 --output " + node);
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_NE(o.out.find("edges 2160"), std::string::npos) << o.out;
  struct stat st {};
  ASSERT_EQ(::lstat(node.c_str(), &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode)) << "the device node was replaced";
  EXPECT_EQ(st.st_rdev, makedev(1, 3));
  EXPECT_EQ(folder.names(), std::vector<std::string>{"null"});
  // Through a link the same: the device receives the edges, the link stays a link.
  const std::string link = folder / "link";
  ASSERT_EQ(::symlink("null", link.c_str()), 0);
  const ExportOutcome l = export_run("export --puzzle msquare-2x3 --output " + link);
  EXPECT_EQ(l.status, 0) << l.err;
  EXPECT_EQ(export_file_type(link), S_IFLNK);
  EXPECT_EQ(export_file_type(node), S_IFCHR);
  EXPECT_EQ(folder.names(), (std::vector<std::string>{"link", "null"}));
}

TEST(ExportFaults, FullDeviceFailsWithExit6AndStaysADevice) {
  const ExportFolder folder("full");
  const std::string node = folder / "full";
  if (const std::string why = make_export_char_device(node, 1, 7); !why.empty()) GTEST_SKIP() << why;
  const ExportOutcome o = export_run("export --puzzle msquare-2x3 --output " + node);
  EXPECT_EQ(o.status, 6) << o.err;
  expect_one_export_error_line(o, "a full device");
  EXPECT_NE(o.err.find("cannot write"), std::string::npos) << o.err;
  EXPECT_EQ(export_file_type(node), S_IFCHR) << "the device node was replaced";
  EXPECT_EQ(folder.names(), std::vector<std::string>{"full"});
}

TEST(ExportFaults, FifoReaderGetsTheSameEdgesAsAFile) {
  const std::string& expected = export_reference_edges();
  ASSERT_FALSE(expected.empty());
  const ExportFolder folder("fifo");
  const std::string fifo = folder / "graph.el", received = folder / "received";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
  const pid_t reader = ::fork();
  ASSERT_GE(reader, 0);
  if (reader == 0) {  // copies everything read from the FIFO into `received`
    const int in = ::open(fifo.c_str(), O_RDONLY);
    const int out = ::open(received.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (in < 0 || out < 0) ::_exit(1);
    char block[1 << 16];
    for (ssize_t n; (n = ::read(in, block, sizeof block)) > 0;)
      if (::write(out, block, static_cast<std::size_t>(n)) != n) ::_exit(1);
    ::_exit(0);
  }
  const ExportOutcome o = export_run("export --puzzle msquare-2x3 --output " + fifo);
  int reader_status = 0;
  bool reader_done = false;
  for (int i = 0; i < 300 && !reader_done; ++i) {  // at most 3 s: a reader never reached is killed
    reader_done = ::waitpid(reader, &reader_status, WNOHANG) == reader;
    if (!reader_done) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (!reader_done) {
    ::kill(reader, SIGKILL);
    ::waitpid(reader, &reader_status, 0);
  }
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_NE(o.out.find("edges 2160"), std::string::npos) << o.out;
  EXPECT_TRUE(reader_done) << "the reader of the FIFO never got an end of file";
  EXPECT_EQ(export_file_type(fifo), S_IFIFO) << "the FIFO was replaced";
  EXPECT_TRUE(export_slurp(received) == expected) << "the reader got " << export_slurp(received).size() << " bytes, a file "
                                                  << expected.size();
  EXPECT_EQ(folder.names(), (std::vector<std::string>{"graph.el", "received"}));
}

TEST(ExportFaults, FolderIsRefusedWithExit2) {
  const ExportFolder folder("folder");
  const std::string sub = folder / "sub";
  fs::create_directory(sub);
  const ExportOutcome o = export_run("export --puzzle msquare-2x3 --output " + sub);
  EXPECT_EQ(o.status, 2) << o.err;
  expect_one_export_error_line(o, "a folder");
  EXPECT_EQ(export_file_type(sub), S_IFDIR);
  EXPECT_TRUE(fs::is_empty(sub));
  EXPECT_EQ(folder.names(), std::vector<std::string>{"sub"});
}

TEST(ExportFaults, SymlinkStaysALinkAndItsTargetGetsTheEdges) {
  const std::string& expected = export_reference_edges();
  ASSERT_FALSE(expected.empty());
  const ExportFolder folder("link");
  fs::create_directory(folder / "targets");
  const std::string target = folder / "targets/real.el", link = folder / "link.el";
  std::ofstream(target) << "old\n";
  ASSERT_EQ(::symlink("targets/real.el", link.c_str()), 0);
  const ExportOutcome o = export_run("export --puzzle msquare-2x3 --output " + link);
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(export_file_type(link), S_IFLNK) << "the link was replaced";
  std::error_code not_a_link;
  EXPECT_EQ(fs::read_symlink(link, not_a_link).string(), "targets/real.el");
  EXPECT_EQ(export_file_type(target), S_IFREG);
  EXPECT_TRUE(export_slurp(target) == expected) << export_slurp(target).size() << " bytes in the target";
  // The temporary file was beside the target and is gone from both folders.
  EXPECT_EQ(folder.names(), (std::vector<std::string>{"link.el", "targets"}));
  std::vector<std::string> in_targets;
  for (const auto& entry : fs::directory_iterator(folder / "targets")) in_targets.push_back(entry.path().filename().string());
  EXPECT_EQ(in_targets, std::vector<std::string>{"real.el"});
}

TEST(ExportFaults, DanglingLinkAndLinkToAFolderAreRefused) {
  const ExportFolder folder("dangling");
  const std::string dangling = folder / "dangling.el", to_folder = folder / "to_folder";
  ASSERT_EQ(::symlink("missing.el", dangling.c_str()), 0);
  fs::create_directory(folder / "sub");
  ASSERT_EQ(::symlink("sub", to_folder.c_str()), 0);
  for (const std::string& path : {dangling, to_folder}) {
    const ExportOutcome o = export_run("export --puzzle msquare-2x3 --output " + path);
    EXPECT_EQ(o.status, 2) << path << ": " << o.err;
    expect_one_export_error_line(o, path);
    EXPECT_EQ(export_file_type(path), S_IFLNK) << path;
  }
  EXPECT_TRUE(fs::is_empty(folder / "sub"));
  EXPECT_EQ(folder.names(), (std::vector<std::string>{"dangling.el", "sub", "to_folder"}));
}

TEST(ExportFaults, EmptyOutputIsRefusedWithExit2) {
  const ExportOutcome o = export_run("export --puzzle msquare-2x3 --output ''");
  EXPECT_EQ(o.status, 2) << o.err;
  expect_one_export_error_line(o, "--output ''");
}

TEST(ExportFaults, SocketAndBlockDeviceAreRefusedWithExit2) {
  const ExportFolder folder("socket");
  const std::string socket_path = folder / "sock";
  const int sock = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(sock, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  ASSERT_LT(socket_path.size(), sizeof address.sun_path);
  std::strcpy(address.sun_path, socket_path.c_str());
  ASSERT_EQ(::bind(sock, reinterpret_cast<const sockaddr*>(&address), sizeof address), 0) << std::strerror(errno);
  const ExportOutcome o = export_run("export --puzzle msquare-2x3 --output " + socket_path);
  ::close(sock);
  EXPECT_EQ(o.status, 2) << o.err;
  expect_one_export_error_line(o, "a socket");
  EXPECT_EQ(export_file_type(socket_path), S_IFSOCK) << "the socket was replaced";
  const std::string block = folder / "block";
  if (::mknod(block.c_str(), S_IFBLK | 0600, makedev(7, 0)) != 0) GTEST_SKIP() << "needs root to make a device node";
  const ExportOutcome b = export_run("export --puzzle msquare-2x3 --output " + block);
  EXPECT_EQ(b.status, 2) << b.err;
  expect_one_export_error_line(b, "a block device");
  EXPECT_EQ(export_file_type(block), S_IFBLK) << "the block device node was replaced";
  EXPECT_EQ(folder.names(), (std::vector<std::string>{"block", "sock"}));
}

// msquare-2x5 writes 167 MB over a few tenths of a second: the signal is sent once its
// temporary file holds data, so it lands while the edges are written.
TEST(ExportFaults, SignalMidExportLeavesNoTemporaryFileAndTheOldFileIntact) {
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
    SCOPED_TRACE(strsignal(sig));
    const ExportFolder folder("signal" + std::to_string(sig));
    const std::string output = folder / "graph.el", log = folder.path + ".log";
    std::ofstream(output) << "old edges\n";
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      sigset_t none;
      sigemptyset(&none);
      ::sigprocmask(SIG_SETMASK, &none, nullptr);
      for (const int s : {SIGINT, SIGTERM, SIGHUP}) ::signal(s, SIG_DFL);
      const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      if (fd >= 0) {
        ::dup2(fd, STDOUT_FILENO);
        ::dup2(fd, STDERR_FILENO);
      }
      ::execl(SEARCHBENCH_EXE, SEARCHBENCH_EXE, "export", "--puzzle", "msquare-2x5", "--output", output.c_str(), nullptr);
      ::_exit(127);
    }
    // Wait (at most 10 s) for a temporary file with data in it, then send the signal.
    bool writing = false, exited_early = false;
    int status = 0;
    for (int i = 0; i < 10'000 && !writing && !exited_early; ++i) {
      for (const auto& entry : fs::directory_iterator(folder.path)) {
        std::error_code ec;
        if (entry.path().filename().string().rfind(".graph.el.", 0) == 0 && fs::file_size(entry.path(), ec) > 0 && !ec) writing = true;
      }
      if (!writing) {
        exited_early = ::waitpid(child, &status, WNOHANG) == child;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    }
    if (writing) ::kill(child, sig);
    if (!exited_early) {
      bool done = false;
      for (int i = 0; i < 1000 && !done; ++i) {  // at most 10 s
        done = ::waitpid(child, &status, WNOHANG) == child;
        if (!done) std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
      if (!done) {
        ::kill(child, SIGKILL);
        ::waitpid(child, &status, 0);
      }
    }
    const std::string said = export_slurp(log);
    std::remove(log.c_str());
    ASSERT_TRUE(writing) << "the export never wrote its temporary file, or finished before the signal: " << said;
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig)
        << "status " << status << " (exited " << (WIFEXITED(status) ? WEXITSTATUS(status) : -1) << "): " << said;
    EXPECT_EQ(folder.names(), std::vector<std::string>{"graph.el"}) << "a temporary file was left behind";
    EXPECT_EQ(export_slurp(output), "old edges\n") << "the old output was changed";
  }
}
