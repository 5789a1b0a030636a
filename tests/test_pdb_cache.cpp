// Pattern database cache files (heuristics/pdb_file.hpp) through the tiles `pdb`: a second
// build loads the same table; a truncated or damaged file is rebuilt and replaced; a file
// that is not ours (another magic, a symbolic link, a folder) is refused and left alone;
// `none` writes nothing; two builders at once both end with correct tables; a folder that
// cannot be written keeps the table in memory with a note saying why.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dirent.h>
#include <spawn.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "heuristics/tiles_pdb.hpp"

extern char** environ;

namespace searchbench {
namespace {

class PdbCache : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/searchbench-pdb-test-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    root_ = pattern;
    folder_ = root_ + "/cache";
  }
  void TearDown() override { ASSERT_EQ(std::system(("chmod -R u+w '" + root_ + "'; rm -rf '" + root_ + "'").c_str()), 0); }

  PdbOptions options(const std::string& cache) const {
    PdbOptions o;
    o.pattern = "1,2,3/4,5,6/7,8";
    o.pdb_cache = cache;
    return o;
  }
  TilesPdb build(const std::string& cache) const { return TilesPdb(board_, board_.start(), options(cache), SearchOptions{}); }
  // The one file the tiles-3x3 pattern 1,2,3 is saved as.
  std::string file_of_first_pattern() const {
    return pdb_file_path(folder_, PdbFileKey{board_.name(), "pdb", "1,2,3", board_.format(board_.start()), 0, 4});
  }
  std::vector<std::string> names_in(const std::string& folder) const {
    std::vector<std::string> names;
    if (DIR* dir = ::opendir(folder.c_str())) {
      while (const dirent* e = ::readdir(dir))
        if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0) names.emplace_back(e->d_name);
      ::closedir(dir);
    }
    return names;
  }
  static std::string contents(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  static void write(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
  }
  void expect_same_tables(const TilesPdb& a, const TilesPdb& b) const {
    ASSERT_EQ(a.patterns().size(), b.patterns().size());
    for (std::size_t p = 0; p < a.patterns().size(); ++p) EXPECT_EQ(a.nibbles(p), b.nibbles(p));
  }
  void expect_refused(const std::string& says) const {
    try {
      build(folder_);
      ADD_FAILURE() << "not refused";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(file_of_first_pattern()), std::string::npos) << e.what();
    }
  }

  SlidingTiles board_{3, 3};
  std::string root_, folder_;
};

TEST_F(PdbCache, SecondBuildLoadsTheSameTable) {
  const TilesPdb first = build(folder_);
  EXPECT_NE(first.build_note().find("built in"), std::string::npos) << first.build_note();
  EXPECT_NE(first.build_note().find("saved to " + file_of_first_pattern()), std::string::npos) << first.build_note();
  EXPECT_EQ(names_in(folder_).size(), 3u);
  const TilesPdb second = build(folder_);
  EXPECT_NE(second.build_note().find("loaded from " + file_of_first_pattern()), std::string::npos) << second.build_note();
  EXPECT_EQ(second.build_note().find("built"), std::string::npos) << second.build_note();
  expect_same_tables(first, second);
  expect_same_tables(first, build("none"));
}

TEST_F(PdbCache, DamagedFilesAreRebuiltAndReplaced) {
  const TilesPdb reference = build(folder_);
  const std::string path = file_of_first_pattern(), good = contents(path);
  const std::string truncated = good.substr(0, good.size() / 2);
  std::string flipped = good;
  flipped[flipped.size() - 7] ^= 0x10;
  std::string other_version = good;
  other_version.replace(other_version.find("version 1"), 9, "version 9");
  for (const auto& [bytes, why] : {std::pair{truncated, "truncated"}, std::pair{flipped, "checksum mismatch"},
                                   std::pair{other_version, "another version"}, std::pair{good.substr(0, 5), "truncated"}}) {
    write(path, bytes);
    const TilesPdb rebuilt = build(folder_);
    EXPECT_NE(rebuilt.build_note().find(std::string("saved to " + path + "; a stale copy (") + why), std::string::npos)
        << rebuilt.build_note();
    EXPECT_NE(rebuilt.build_note().find(") was replaced"), std::string::npos) << rebuilt.build_note();
    expect_same_tables(reference, rebuilt);
    EXPECT_EQ(contents(path), good);
  }
  EXPECT_EQ(names_in(folder_).size(), 3u);  // no temporary file left behind
}

TEST_F(PdbCache, ForeignFilesAreRefusedAndLeftAlone) {
  build(folder_);
  const std::string path = file_of_first_pattern();
  write(path, "#!/bin/sh\necho not a table\n");
  expect_refused("does not start with the pattern database magic line");
  EXPECT_EQ(contents(path), "#!/bin/sh\necho not a table\n");
  ASSERT_EQ(::unlink(path.c_str()), 0);
  write(root_ + "/elsewhere", "precious");
  ASSERT_EQ(::symlink((root_ + "/elsewhere").c_str(), path.c_str()), 0);
  expect_refused("a symbolic link");
  EXPECT_EQ(contents(root_ + "/elsewhere"), "precious");
  ASSERT_EQ(::unlink(path.c_str()), 0);
  ASSERT_EQ(::mkdir(path.c_str(), 0755), 0);
  expect_refused("a folder");
  ASSERT_EQ(::rmdir(path.c_str()), 0);
  ASSERT_EQ(::mkfifo(path.c_str(), 0644), 0);
  expect_refused("not a regular file");
}

// What appears at the path while a table is built (the file was absent when the search
// began) or replaces the stale copy it read is left as it is: the save refuses to replace
// it and removes its temporary file. A stale copy still in place is replaced.
TEST_F(PdbCache, SaveReplacesOnlyWhatItRead) {
  ASSERT_EQ(::mkdir(folder_.c_str(), 0755), 0);
  const std::string path = folder_ + "/t.pdb";
  const PdbFileKey key{"tiles-3x3", "pdb", "1", "target", 3};
  const std::vector<std::uint8_t> table = {1, 2, 3};
  write(path, "a file put here meanwhile");
  EXPECT_NE(write_pdb_file(folder_, path, key, table, PdbFileFound{}).find("appeared while the table was built"), std::string::npos);
  EXPECT_EQ(contents(path), "a file put here meanwhile");
  ASSERT_EQ(::unlink(path.c_str()), 0);
  write(root_ + "/elsewhere", "precious");
  ASSERT_EQ(::symlink((root_ + "/elsewhere").c_str(), path.c_str()), 0);
  EXPECT_NE(write_pdb_file(folder_, path, key, table, PdbFileFound{}), "");
  EXPECT_EQ(contents(root_ + "/elsewhere"), "precious");
  ASSERT_EQ(::unlink(path.c_str()), 0);
  ASSERT_EQ(::mkfifo(path.c_str(), 0644), 0);
  EXPECT_NE(write_pdb_file(folder_, path, key, table, PdbFileFound{}), "");
  ASSERT_EQ(::unlink(path.c_str()), 0);
  // A stale copy read at the start, then swapped for another file: left alone.
  write(path, "stale copy");
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  const PdbFileFound stale{.absent = false, .device = st.st_dev, .inode = st.st_ino};
  write(path + ".new", "another file");
  ASSERT_EQ(::rename((path + ".new").c_str(), path.c_str()), 0);
  EXPECT_NE(write_pdb_file(folder_, path, key, table, stale).find("changed while the table was built"), std::string::npos);
  EXPECT_EQ(contents(path), "another file");
  // The stale copy still in place: replaced by the table.
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(write_pdb_file(folder_, path, key, table, PdbFileFound{.absent = false, .device = st.st_dev, .inode = st.st_ino}), "");
  ASSERT_TRUE(read_pdb_file(path, key).table);
  EXPECT_EQ(*read_pdb_file(path, key).table, table);
  EXPECT_EQ(names_in(folder_), std::vector<std::string>{"t.pdb"});  // no temporary file left
}

// The note says a stale copy was replaced only when the save replaced it: one swapped for
// another file while the table was built is left as it is, and the note says so.
TEST_F(PdbCache, NoteSaysWhetherTheStaleCopyWasReplaced) {
  ASSERT_EQ(::mkdir(folder_.c_str(), 0755), 0);
  const PdbFileKey key{"tiles-3x3", "pdb", "1", "target", 3};
  const std::vector<std::uint8_t> table = {1, 2, 3};
  const std::string path = pdb_file_path(folder_, key);
  const auto damage = [&] {
    ASSERT_EQ(write_pdb_file(folder_, path, key, table, PdbFileFound{}), "");
    std::string bytes = contents(path);
    bytes.back() ^= 0x10;
    write(path, bytes);
  };
  std::string note;
  damage();
  EXPECT_EQ(cached_pdb_table(folder_, key, [&] { return table; }, note), table);
  EXPECT_NE(note.find("saved to " + path + "; a stale copy (checksum mismatch) was replaced"), std::string::npos) << note;
  ASSERT_TRUE(read_pdb_file(path, key).table);
  ASSERT_EQ(::unlink(path.c_str()), 0);
  damage();
  const auto swap_while_building = [&] {
    write(path + ".new", "another file");
    EXPECT_EQ(::rename((path + ".new").c_str(), path.c_str()), 0);
    return table;
  };
  EXPECT_EQ(cached_pdb_table(folder_, key, swap_while_building, note), table);
  EXPECT_NE(note.find("kept in memory only: '" + path + "' changed while the table was built"), std::string::npos) << note;
  EXPECT_NE(note.find("; the copy found there was stale (checksum mismatch)"), std::string::npos) << note;
  EXPECT_EQ(note.find("replaced"), std::string::npos) << note;
  EXPECT_EQ(contents(path), "another file");
}

// A temporary file of a process that no longer runs (killed with -9 while writing) is
// removed by the next save into the folder; one of a running process is not.
TEST_F(PdbCache, StaleTemporariesOfDeadProcessesAreSwept) {
  ASSERT_EQ(::mkdir(folder_.c_str(), 0755), 0);
  pid_t child = 0;
  char exe[] = "/bin/true";
  char* argv[] = {exe, nullptr};
  ASSERT_EQ(::posix_spawn(&child, exe, nullptr, nullptr, argv, environ), 0);
  ASSERT_EQ(::waitpid(child, nullptr, 0), child);
  const std::string dead = "x.pdb.tmp-" + std::to_string(child) + "-0";
  const std::string alive = "y.pdb.tmp-" + std::to_string(::getpid()) + "-7";
  write(folder_ + "/" + dead, "half a table");
  write(folder_ + "/" + alive, "being written");
  build(folder_);
  const auto names = names_in(folder_);
  EXPECT_EQ(std::count(names.begin(), names.end(), dead), 0);
  EXPECT_EQ(std::count(names.begin(), names.end(), alive), 1);
}

TEST_F(PdbCache, NoneAndTheDefaultFolder) {
  const char* before = std::getenv("XDG_CACHE_HOME");
  const std::optional<std::string> saved_variable = before ? std::optional<std::string>(before) : std::nullopt;
  ASSERT_EQ(::setenv("XDG_CACHE_HOME", root_.c_str(), 1), 0);
  const TilesPdb memory = build("none");
  EXPECT_NE(memory.build_note().find("built in memory"), std::string::npos) << memory.build_note();
  EXPECT_TRUE(names_in(root_).empty());
  const TilesPdb saved = build("");
  EXPECT_NE(saved.build_note().find("saved to " + root_ + "/searchbench/"), std::string::npos) << saved.build_note();
  EXPECT_EQ(names_in(root_ + "/searchbench").size(), 3u);
  if (saved_variable) ::setenv("XDG_CACHE_HOME", saved_variable->c_str(), 1);
  else ::unsetenv("XDG_CACHE_HOME");
}

TEST_F(PdbCache, TwoBuildersAtOnceBothEndCorrect) {
  const TilesPdb reference = build("none");
  for (int round = 0; round < 3; ++round) {
    std::optional<TilesPdb> a, b;
    std::thread ta([&] { a.emplace(build(folder_)); }), tb([&] { b.emplace(build(folder_)); });
    ta.join();
    tb.join();
    expect_same_tables(reference, *a);
    expect_same_tables(reference, *b);
    EXPECT_NE(build(folder_).build_note().find("loaded from"), std::string::npos);
    EXPECT_EQ(names_in(folder_).size(), 3u);
    ASSERT_EQ(std::system(("rm -rf '" + folder_ + "'").c_str()), 0);
  }
  // Two processes: this test binary again, running only PdbCacheChild, builds while this one does.
  ::setenv("SEARCHBENCH_PDB_CHILD_FOLDER", folder_.c_str(), 1);
  char exe[] = "/proc/self/exe", filter[] = "--gtest_filter=PdbCacheChild.*";
  char* argv[] = {exe, filter, nullptr};
  pid_t child = 0;
  ASSERT_EQ(::posix_spawn(&child, exe, nullptr, nullptr, argv, environ), 0);
  ::unsetenv("SEARCHBENCH_PDB_CHILD_FOLDER");
  expect_same_tables(reference, build(folder_));
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_NE(build(folder_).build_note().find("loaded from"), std::string::npos);
  EXPECT_EQ(names_in(folder_).size(), 3u);
}

// The other process of TwoBuildersAtOnceBothEndCorrect (skipped when run on its own).
TEST(PdbCacheChild, BuildsIntoTheSameFolder) {
  const char* folder = std::getenv("SEARCHBENCH_PDB_CHILD_FOLDER");
  if (!folder) GTEST_SKIP() << "run by PdbCache.TwoBuildersAtOnceBothEndCorrect";
  const SlidingTiles board(3, 3);
  PdbOptions o;
  o.pattern = "1,2,3/4,5,6/7,8";
  o.pdb_cache = folder;
  const TilesPdb built(board, board.start(), o, SearchOptions{});
  o.pdb_cache = "none";
  const TilesPdb reference(board, board.start(), o, SearchOptions{});
  for (std::size_t p = 0; p < reference.patterns().size(); ++p) EXPECT_EQ(built.nibbles(p), reference.nibbles(p));
}

TEST_F(PdbCache, UnwritableFolderKeepsTheTableInMemoryWithANote) {
  // A cache path below a regular file cannot be created, for root too.
  write(root_ + "/plain", "x");
  const TilesPdb below_file = build(root_ + "/plain/cache");
  EXPECT_NE(below_file.build_note().find("kept in memory only: cannot create"), std::string::npos) << below_file.build_note();
  expect_same_tables(below_file, build("none"));
  if (::geteuid() != 0) {  // permissions do not stop root
    ASSERT_EQ(::mkdir(folder_.c_str(), 0555), 0);
    const TilesPdb read_only = build(folder_);
    EXPECT_NE(read_only.build_note().find("kept in memory only"), std::string::npos) << read_only.build_note();
  }
  // A cache path that is a file is a mistake, not a folder to fall back from.
  try {
    build(root_ + "/plain");
    ADD_FAILURE() << "a file accepted as the cache folder";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("is not a folder"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace searchbench
