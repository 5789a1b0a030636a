// Fault injection on the out-of-core engine's work folder, through the executable: every
// file of a folder (the manifest, the pass checkpoint, cells and successor lists of both
// depths a pass touches) deleted, cut short, altered by one byte or replaced by a link to a
// file outside; records edited by hand; two runs on one folder at once; --max-depth and
// --resume; a full disk; signals. Each case must end in exactly one refusal line (exit 2)
// or in exactly the space's true depth counts, and must leave every file outside the folder
// as it was.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "engines/external/work_state.hpp"

namespace {

namespace fs = std::filesystem;

struct Outcome {
  int status = -1;
  std::string out, err;
};

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}
void write_file(const std::string& path, const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }

// A folder of this test process's own under the test temp dir, on a small tmpfs when the
// test may mount one (root): fsync is then free and a full disk can be made on purpose.
class Scratch {
 public:
  Scratch() {
    path_ = ::testing::TempDir() + "/searchbench_faults_" + std::to_string(getpid()) + "_" + std::to_string(++count_);
    fs::remove_all(path_);
    fs::create_directories(path_);
    if (geteuid() == 0 && ::mount("tmpfs", path_.c_str(), "tmpfs", 0, "size=256m") == 0) mounted_ = true;
  }
  ~Scratch() {
    if (mounted_) ::umount2(path_.c_str(), MNT_DETACH);
    fs::remove_all(path_);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  const std::string& path() const { return path_; }
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }
  bool on_tmpfs() const { return mounted_; }

 private:
  static inline int count_ = 0;
  std::string path_;
  bool mounted_ = false;
};

// Runs the executable; a 60 s limit turns a hang into a failure.
Outcome run(const std::string& args, const std::string& env = "") {
  static int call = 0;
  const std::string base = ::testing::TempDir() + "/searchbench_faults_io_" + std::to_string(getpid()) + "_" + std::to_string(++call);
  const std::string cmd = env + " timeout 60 " SEARCHBENCH_EXE " " + args + " </dev/null >" + base + ".out 2>" + base + ".err";
  const int raw = std::system(cmd.c_str());
  Outcome o;
  o.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  o.out = read_file(base + ".out");
  o.err = read_file(base + ".err");
  std::remove((base + ".out").c_str());
  std::remove((base + ".err").c_str());
  return o;
}

// Starts the executable in the background; its pid.
pid_t start(const std::string& args, const std::string& env = "") {
  const pid_t child = fork();
  if (child == 0) {
    const std::string cmd = env + " exec " SEARCHBENCH_EXE " " + args + " </dev/null >/dev/null 2>&1";
    execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  return child;
}
int wait_for(pid_t child) {
  int raw = 0;
  waitpid(child, &raw, 0);
  return WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
}

const char* const kPuzzle = "msquare-2x5";
// Small segments (14 of them) so that every pass reads and writes many files, and no depth
// found in memory, so that every depth is a pass over the folder.
std::string external_args(const std::string& folder) {
  return std::string("run --puzzle ") + kPuzzle + " --engine external --threads 2 --max-memory 256K --seed-keys 0 --quiet --json --workdir " +
         folder;
}

const std::vector<std::uint64_t>& true_counts() {
  static const std::vector<std::uint64_t> counts = [] {
    const Outcome o = run(std::string("run --puzzle ") + kPuzzle + " --engine parallel --threads 2 --quiet --json");
    return nlohmann::json::parse(o.out)["depth_counts"].get<std::vector<std::uint64_t>>();
  }();
  return counts;
}

// The outcome is one refusal line, or the true counts.
void expect_refusal_or_truth(const Outcome& o, const std::string& what) {
  if (o.status == 0) {
    EXPECT_EQ(nlohmann::json::parse(o.out)["depth_counts"].get<std::vector<std::uint64_t>>(), true_counts()) << what;
    return;
  }
  EXPECT_EQ(o.status, 2) << what << ": " << o.err;
  EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << what << ": " << o.err;
  EXPECT_EQ(o.err.rfind("searchbench: ", 0), 0u) << what << ": " << o.err;
}
void expect_refusal(const Outcome& o, const std::string& fragment, const std::string& what) {
  EXPECT_EQ(o.status, 2) << what << ": " << o.out << o.err;
  EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << what << ": " << o.err;
  EXPECT_NE(o.err.find(fragment), std::string::npos) << what << ": " << o.err;
}

std::vector<std::string> names_in(const std::string& folder) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(folder)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// The kinds of file a folder stopped inside a pass holds: the records, the cells of both
// generations and successor lists.
const std::vector<std::string> kFileKinds = {"manifest.json", "pass.json", "cells-0-", "cells-1-", "next-"};
bool is_of_kind(const std::string& name, const std::string& kind) {
  return name.rfind(kind, 0) == 0 && name.find(".tmp") == std::string::npos;
}
bool holds_every_kind(const std::string& folder) {
  const std::vector<std::string> names = names_in(folder);
  return std::all_of(kFileKinds.begin(), kFileKinds.end(), [&](const std::string& kind) {
    return std::any_of(names.begin(), names.end(), [&](const std::string& name) { return is_of_kind(name, kind); });
  });
}

// A folder stopped inside a pass, as SIGKILL leaves it: a run resumed from depth 8 is killed
// as soon as it has written a pass checkpoint. The kill may come late on a loaded machine
// (at the end of a pass the cells of the depth it expanded are gone), so each attempt starts
// again from the same depth-8 folder until one is caught holding every kind of file.
void make_killed_mid_pass(const std::string& folder) {
  const std::string at_depth_8 = folder + "-depth-8";
  ASSERT_EQ(run(external_args(at_depth_8) + " --max-depth 8").status, 0);
  for (int attempt = 0; attempt < 20; ++attempt) {
    fs::remove_all(folder);
    fs::copy(at_depth_8, folder);
    const pid_t child = start(external_args(folder) + " --resume");
    for (int i = 0; i < 20000 && !fs::exists(folder + "/pass.json"); ++i) std::this_thread::sleep_for(std::chrono::microseconds(100));
    kill(child, SIGKILL);
    wait_for(child);
    const auto manifest = nlohmann::json::parse(read_file(folder + "/manifest.json"));
    if (!manifest["finished"].get<bool>() && holds_every_kind(folder)) {  // pass.json among them
      fs::remove_all(at_depth_8);
      return;
    }
  }
  FAIL() << "no run was caught inside a pass with every kind of file";
}

TEST(WorkFolderFaults, EveryFileDeletedTruncatedAlteredOrLinkedIsRefusedOrHarmless) {
  Scratch scratch;
  const std::string pristine = scratch / "pristine";
  make_killed_mid_pass(pristine);
  if (::testing::Test::HasFatalFailure()) return;
  // A file outside every folder that links may point to: it must never change.
  const std::string foreign = scratch / "foreign.txt";
  const std::string foreign_bytes(100'000, 'x');
  write_file(foreign, foreign_bytes);

  const std::vector<std::string> files = names_in(pristine);
  int damaged_cases = 0, checked_kinds = 0;
  for (const std::string& kind : kFileKinds) {
    bool seen = false;
    for (const std::string& name : files) {
      if (!is_of_kind(name, kind)) continue;
      seen = true;
      for (const char* damage : {"delete", "truncate", "flip", "link"}) {
        const std::string folder = scratch / ("case-" + std::to_string(damaged_cases++));
        fs::copy(pristine, folder);
        const std::string file = folder + "/" + name;
        const std::string bytes = read_file(file);
        if (std::string(damage) == "delete") fs::remove(file);
        if (std::string(damage) == "truncate") fs::resize_file(file, bytes.size() / 2);
        if (std::string(damage) == "flip") {
          std::string flipped = bytes;
          flipped[flipped.size() / 3] ^= 0x10;
          write_file(file, flipped);
        }
        if (std::string(damage) == "link") {
          fs::remove(file);
          fs::create_symlink(foreign, file);
        }
        const Outcome o = run(external_args(folder) + " --resume");
        const std::string what = std::string(damage) + " " + name;
        expect_refusal_or_truth(o, what);
        // A link is never followed, whichever file it replaces.
        if (std::string(damage) == "link") expect_refusal(o, "symbolic link", what);
        // Altered data never passes as a run's state.
        if (std::string(damage) == "flip" && o.status != 0) {
          EXPECT_NE(o.err.find("damaged work folder"), std::string::npos) << what << ": " << o.err;
        }
        EXPECT_EQ(read_file(foreign), foreign_bytes) << what << " changed a file outside the folder";
        fs::remove_all(folder);
      }
    }
    checked_kinds += seen;
  }
  EXPECT_EQ(checked_kinds, static_cast<int>(kFileKinds.size())) << "the killed folder should hold every kind of file";
  // The undamaged folder resumes to the true counts.
  const Outcome o = run(external_args(pristine) + " --resume");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(nlohmann::json::parse(o.out)["depth_counts"].get<std::vector<std::uint64_t>>(), true_counts());
}

// SIGKILL at random moments, each time resuming, until a run finishes: the true counts.
TEST(WorkFolderFaults, KilledAtRandomMomentsResumesToTheTruth) {
  Scratch scratch;
  const std::string folder = scratch / "killed";
  std::mt19937 rng(42);
  int kills = 0;
  for (int attempt = 0; attempt < 8; ++attempt) {
    const bool resume = fs::exists(folder + "/manifest.json");
    const pid_t child = start(external_args(folder) + (resume ? " --resume" : ""));
    std::this_thread::sleep_for(std::chrono::milliseconds(20 + rng() % 300));
    kills += kill(child, SIGKILL) == 0;
    wait_for(child);
  }
  EXPECT_GT(kills, 0);
  const Outcome o = run(external_args(folder) + (fs::exists(folder + "/manifest.json") ? " --resume" : ""));
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(nlohmann::json::parse(o.out)["depth_counts"].get<std::vector<std::uint64_t>>(), true_counts());
}

// Records edited by hand: a finished flag, values out of range, of the wrong type; an
// extra file and a file of another kind in the folder.
TEST(WorkFolderFaults, HandEditedRecordsAndStrayFilesAreRefused) {
  Scratch scratch;
  const std::string pristine = scratch / "pristine";
  make_killed_mid_pass(pristine);
  if (::testing::Test::HasFatalFailure()) return;
  struct Edit {
    const char* file;
    const char* field;
    nlohmann::json value;
    const char* fragment;
  };
  // Each edit as a hand would make it (the record's own checksum no longer matches) and
  // re-signed (the checksum made to match, so the field's type and range checks answer).
  const std::vector<Edit> edits = {
      {"manifest.json", "finished", true, "damaged work folder: manifest.json"},
      {"manifest.json", "depth", nlohmann::json::parse("1e30"), "field 'depth' is not an integer"},
      {"manifest.json", "segments", nullptr, "field 'segments' is not a non-negative integer"},
      {"manifest.json", "puzzle", 7, "field 'puzzle' is not a string"},
      {"manifest.json", "schema_version", 99, "schema version 99"},
      {"pass.json", "next_segment", "three", "field 'next_segment' is not a non-negative integer"},
      {"pass.json", "count", -1, "field 'count' is not a non-negative integer"},
      {"pass.json", "next", nlohmann::json::parse("1e30"), "field 'next[0]' is not a non-negative integer"},
  };
  int n = 0;
  for (const Edit& e : edits) {
    for (const bool resign : {false, true}) {
      if (resign && std::string(e.field) == "finished") continue;  // a forged record is not damage
      const std::string folder = scratch / ("edit-" + std::to_string(n++));
      fs::copy(pristine, folder);
      const std::string file = folder + "/" + e.file;
      auto doc = nlohmann::json::parse(read_file(file));
      if (std::string(e.field) == "next") doc["next"][0][0] = e.value;  // one successor list's length
      else doc[e.field] = e.value;
      if (resign) {
        doc.erase("checksum");
        doc["checksum"] = searchbench::external::RecordReader::self_checksum(doc);
      }
      write_file(file, doc.dump(1));
      const std::string what = std::string(e.file) + " " + e.field + (resign ? " (re-signed)" : "");
      const Outcome o = run(external_args(folder) + " --resume");
      expect_refusal(o, resign || std::string(e.field) == "schema_version" ? e.fragment : "checksum mismatch", what);
      fs::remove_all(folder);
    }
  }
  // Files the records do not list, of this program's names and of others.
  for (const char* stray : {"next-99-0", "cells-0-999", "notes.txt"}) {
    const std::string folder = scratch / ("stray-" + std::to_string(n++));
    fs::copy(pristine, folder);
    write_file(folder + "/" + stray, "hello");
    expect_refusal(run(external_args(folder) + " --resume"), "damaged work folder", stray);
    fs::remove_all(folder);
  }
  const std::string sub = scratch / "subfolder";
  fs::copy(pristine, sub);
  fs::create_directory(sub + "/inner");
  expect_refusal(run(external_args(sub) + " --resume"), "not a regular file", "a folder inside");
}

// A fresh run refuses a folder holding someone else's files or a link, and leaves them as
// they were.
TEST(WorkFolderFaults, FreshRunsTouchOnlyTheirOwnFiles) {
  Scratch scratch;
  const std::string folder = scratch / "mine";
  fs::create_directories(folder);
  write_file(folder + "/thesis.tex", "precious");
  expect_refusal(run(external_args(folder)), "not a file of this program", "a foreign file");
  EXPECT_EQ(read_file(folder + "/thesis.tex"), "precious");
  fs::remove(folder + "/thesis.tex");
  const std::string foreign = scratch / "elsewhere";
  write_file(foreign, "precious");
  fs::create_symlink(foreign, folder + "/next-0-3");
  expect_refusal(run(external_args(folder)), "symbolic link", "a link at a fresh start");
  EXPECT_EQ(read_file(foreign), "precious");
}

// The lock file is the folder's own too: a hard link to a file outside is refused before
// the process id is written into it; a resume of a folder that does not exist creates none.
TEST(WorkFolderFaults, TheLockFileAndMissingFoldersAreNotTrusted) {
  Scratch scratch;
  const std::string outside = scratch / "outside.txt";
  write_file(outside, "precious");
  const std::string fresh = scratch / "fresh";
  fs::create_directories(fresh);
  fs::create_hard_link(outside, fresh + "/lock");
  expect_refusal(run(external_args(fresh)), "lock", "a hard-linked lock at a fresh start");
  EXPECT_EQ(read_file(outside), "precious");
  const std::string resumed = scratch / "resumed";
  ASSERT_EQ(run(external_args(resumed) + " --max-depth 4").status, 0);
  fs::remove(resumed + "/lock");
  fs::create_hard_link(outside, resumed + "/lock");
  expect_refusal(run(external_args(resumed) + " --resume"), "lock", "a hard-linked lock on resume");
  EXPECT_EQ(read_file(outside), "precious");
  const std::string missing = scratch / "missing";
  expect_refusal(run(external_args(missing) + " --resume"), "nothing to resume", "a missing folder");
  EXPECT_FALSE(fs::exists(missing)) << "a refused resume created its folder";
}

// A record nested far deeper than any the program writes is refused, not parsed into a
// stack overflow.
TEST(WorkFolderFaults, DeeplyNestedRecordsAreRefused) {
  Scratch scratch;
  const std::string folder = scratch / "nested";
  ASSERT_EQ(run(external_args(folder) + " --max-depth 6").status, 0);
  std::string text = read_file(folder + "/manifest.json");
  const auto end = text.rfind('}');
  text.insert(end, ", \"zz\": " + std::string(100'000, '[') + std::string(100'000, ']'));
  write_file(folder + "/manifest.json", text);
  expect_refusal(run(external_args(folder) + " --resume"), "nested too deeply", "a manifest nested 100,000 deep");
}

// More threads than oneTBB can run: the run uses what it can, and oneTBB's warning never
// reaches stderr.
TEST(WorkFolderFaults, MoreThreadsThanCoresRunQuietly) {
  const Outcome o = run(std::string("run --puzzle ") + kPuzzle + " --engine external --threads 64 --max-memory 1M --quiet --json");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.err, "");
  EXPECT_EQ(nlohmann::json::parse(o.out)["depth_counts"].get<std::vector<std::uint64_t>>(), true_counts());
}

// Two runs on one folder: never both at once. Whatever the timing, each either finishes
// with the true counts or is refused with the holder's process id.
TEST(WorkFolderFaults, TwoRunsOnOneFolderNeverShareIt) {
  Scratch scratch;
  std::mt19937 rng(20261201);
  int refused = 0;
  for (int trial = 0; trial < 6; ++trial) {
    const std::string folder = scratch / ("shared-" + std::to_string(trial));
    const bool resume = trial % 2 == 1;
    if (resume) {
      ASSERT_EQ(run(external_args(folder) + " --max-depth 6").status, 0);
    }
    const std::string args = external_args(folder) + (resume ? " --resume" : "");
    const std::string base = scratch / ("out-" + std::to_string(trial));
    const auto cmd = [&](int i) {
      return "timeout 60 " SEARCHBENCH_EXE " " + args + " >" + base + std::to_string(i) + ".out 2>" + base + std::to_string(i) + ".err";
    };
    const int gap_ms = static_cast<int>(rng() % 300);
    const std::string both = "(" + cmd(1) + "; echo $? >" + base + "1.rc) & sleep " + std::to_string(gap_ms / 1000.0) + "; (" + cmd(2) +
                             "; echo $? >" + base + "2.rc); wait";
    std::system(both.c_str());
    for (int i = 1; i <= 2; ++i) {
      Outcome o;
      o.status = std::stoi(read_file(base + std::to_string(i) + ".rc"));
      o.out = read_file(base + std::to_string(i) + ".out");
      o.err = read_file(base + std::to_string(i) + ".err");
      expect_refusal_or_truth(o, "trial " + std::to_string(trial) + " run " + std::to_string(i));
      if (o.status != 0) {
        ++refused;
        // A fresh run that starts after the other finished finds its manifest instead.
        EXPECT_TRUE(o.err.find("in use by another run (process ") != std::string::npos || o.err.find("already holds a run") != std::string::npos)
            << o.err;
      }
    }
  }
  EXPECT_GT(refused, 0) << "the runs never overlapped: the test proves nothing";
}

// --max-depth is a stop, not an end: resuming goes deeper or answers from the depths known.
TEST(WorkFolderFaults, MaxDepthThenResumeGivesTheRightCounts) {
  Scratch scratch;
  const std::string folder = scratch / "limits";
  const auto counts_of = [](const Outcome& o) { return nlohmann::json::parse(o.out)["depth_counts"].get<std::vector<std::uint64_t>>(); };
  const auto prefix = [](int depth) {
    return std::vector<std::uint64_t>(true_counts().begin(), true_counts().begin() + depth + 1);
  };
  Outcome o = run(external_args(folder) + " --max-depth 5");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(counts_of(o), prefix(5));
  EXPECT_TRUE(nlohmann::json::parse(o.out)["truncated"].get<bool>());
  o = run(external_args(folder) + " --resume --max-depth 10");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(counts_of(o), prefix(10));
  EXPECT_TRUE(nlohmann::json::parse(o.out)["truncated"].get<bool>());
  o = run(external_args(folder) + " --resume --max-depth 3");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(counts_of(o), prefix(3));
  o = run(external_args(folder) + " --resume");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(counts_of(o), true_counts());
  EXPECT_FALSE(nlohmann::json::parse(o.out)["truncated"].get<bool>());
  o = run(external_args(folder) + " --resume --max-depth 5");  // finished: the first depths
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(counts_of(o), prefix(5));
  EXPECT_EQ(nlohmann::json::parse(o.out)["radius"], 5);
  EXPECT_TRUE(nlohmann::json::parse(o.out)["truncated"].get<bool>());
  // The same with the first depths found in memory.
  const std::string seeded = scratch / "seeded";
  o = run(std::string("run --puzzle ") + kPuzzle + " --engine external --max-memory 1M --quiet --json --max-depth 5 --workdir " + seeded);
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(counts_of(o), prefix(5));
  o = run(std::string("run --puzzle ") + kPuzzle + " --engine external --max-memory 1M --quiet --json --resume --workdir " + seeded);
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(counts_of(o), true_counts());
}

// A full disk mid-pass: one line, and once there is room again the run resumes to the truth.
TEST(WorkFolderFaults, FullDiskMidPassThenResume) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root to mount a small tmpfs";
  const std::string folder = ::testing::TempDir() + "/searchbench_faults_full_" + std::to_string(getpid());
  fs::remove_all(folder);
  fs::create_directories(folder);
  ASSERT_EQ(::mount("tmpfs", folder.c_str(), "tmpfs", 0, "size=2m"), 0) << std::strerror(errno);
  const Outcome full = run(external_args(folder + "/run"));
  expect_refusal(full, "", "a 2 MiB disk");
  EXPECT_TRUE(full.err.find("No space left") != std::string::npos || full.err.find("free some space") != std::string::npos) << full.err;
  // The free-space line shows two different figures, neither of them a rounded-down zero.
  if (const auto need = full.err.find("may need "); need != std::string::npos) {
    const auto only = full.err.find("only ", need);
    ASSERT_NE(only, std::string::npos) << full.err;
    const std::string needed = full.err.substr(need + 9, full.err.find(" more", need) - need - 9);
    const std::string free = full.err.substr(only + 5, full.err.find(" free", only) - only - 5);
    EXPECT_NE(needed, free) << full.err;
    EXPECT_NE(needed.rfind("0 ", 0), 0u) << full.err;
  }
  ASSERT_EQ(::mount("tmpfs", folder.c_str(), "tmpfs", MS_REMOUNT, "size=64m"), 0) << std::strerror(errno);
  const Outcome resumed = run(external_args(folder + "/run") + (fs::exists(folder + "/run/manifest.json") ? " --resume" : ""));
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  EXPECT_EQ(nlohmann::json::parse(resumed.out)["depth_counts"].get<std::vector<std::uint64_t>>(), true_counts());
  ::umount2(folder.c_str(), MNT_DETACH);
  fs::remove_all(folder);
}

// Without --workdir the run's temporary folder goes with it, also on SIGINT, SIGTERM, SIGHUP.
TEST(WorkFolderFaults, SignalsRemoveTheTemporaryFolder) {
  Scratch scratch;
  const std::string tmp = scratch / "tmp";
  fs::create_directories(tmp);
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
    const pid_t child =
        start(std::string("run --puzzle ") + kPuzzle + " --engine external --threads 2 --max-memory 256K --seed-keys 0 --quiet", "TMPDIR=" + tmp);
    bool started = false;
    for (int i = 0; i < 20000 && !started; ++i) {
      for (const auto& e : fs::directory_iterator(tmp)) started = started || fs::exists(e.path() / "manifest.json");
      if (!started) std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    EXPECT_TRUE(started) << "signal " << sig;
    kill(child, sig);
    EXPECT_EQ(wait_for(child), 128 + sig) << "signal " << sig;
    EXPECT_TRUE(names_in(tmp).empty()) << "signal " << sig << " left " << (names_in(tmp).empty() ? "" : names_in(tmp)[0]);
  }
}

// The memory refusal names a minimum that runs, and a limit that holds some layout is never
// refused (msquare-2x4's one segment of 10 KiB fits 28 KiB, though two segments would not).
TEST(WorkFolderFaults, TheStatedMinimumMemoryRuns) {
  for (const char* puzzle : {"msquare", "msquare-2x5"}) {
    for (const char* memory : {"8k", "10k", "28k", "64k", "100k"}) {
      const std::string args = std::string("run --puzzle ") + puzzle + " --engine external --threads 2 --quiet --json --max-depth 3 --max-memory ";
      const Outcome o = run(args + memory);
      const std::string what = std::string(puzzle) + " " + memory;
      if (std::string(puzzle) == "msquare" && std::string(memory) == "28k") {
        EXPECT_EQ(o.status, 0) << what << ": " << o.err;
      }
      if (o.status == 0) continue;
      expect_refusal(o, "too small", what);
      const auto at = o.err.find("at least ");
      ASSERT_NE(at, std::string::npos) << o.err;
      const int least = std::stoi(o.err.substr(at + 9));
      EXPECT_GT(least, std::stoi(memory)) << o.err;
      const Outcome enough = run(args + std::to_string(least) + "k");
      EXPECT_EQ(enough.status, 0) << what << ": the stated minimum " << least << " KiB: " << enough.err;
    }
  }
}

}  // namespace
