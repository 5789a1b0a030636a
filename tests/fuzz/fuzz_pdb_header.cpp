// libFuzzer target for the pattern database cache file reader (heuristics/pdb_file.hpp): the
// input is written as a cache file and read by read_pdb_file, the very call through which
// cached_pdb_table decides to load a table, to rebuild a stale copy of ours or to refuse a
// foreign file. A cache folder is shared by runs and may hold anything (a damaged disk, a
// killed writer, another program's file), so the reader must never crash, leak, hang or
// allocate by what a file claims. The keys are the two tables of a small fixed shape
// (tiles-2x3, --pattern 1,2,3/4,5, toward the default target: 120 and 30 entries of 4
// bits), and the first again at a byte an entry (as the magic board's and the cube's tables
// are kept), so an accepted file is a few hundred bytes. Each input is read as the file of
// every key, and the
// outcome is checked against the writer's format:
// * refused (InputError) exactly when the bytes neither start with the magic line nor are a
//   shorter prefix of it;
// * accepted exactly when the bytes are what write_pdb_file writes for that key and that
//   payload (the header, with the payload's xxh64, then the entries' bytes); the table handed
//   back is that payload;
// * otherwise stale, with a reason, and reported as found (the one file a save may replace).
// No single allocation during a read may exceed the header window plus the key's payload.
#include <fcntl.h>
#include <sanitizer/allocator_interface.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "core/errors.hpp"
#include "heuristics/pdb_file.hpp"

using namespace searchbench;

namespace {

// The keys TilesPdb gives `searchbench run --puzzle tiles-2x3 --heuristic pdb --pattern
// 1,2,3/4,5`, and the first at a byte an entry (the seed corpus holds files of both widths).
const PdbFileKey kKeys[] = {
    {"tiles-2x3", "pdb", "1,2,3", "1 2 3 / 4 5 0", 120, 4},
    {"tiles-2x3", "pdb", "4,5", "1 2 3 / 4 5 0", 30, 4},
    {"tiles-2x3", "pdb", "1,2,3", "1 2 3 / 4 5 0", 120, 8},
};

// The largest single allocation while `measuring` (this thread only).
thread_local bool measuring = false;
thread_local std::size_t largest = 0;

void on_malloc(const volatile void*, std::size_t size) {
  if (measuring && size > largest) largest = size;
}
void on_free(const volatile void*) {}

[[noreturn]] void fail(const char* what, const PdbFileKey& key) {
  std::fprintf(stderr, "fuzz_pdb_header: %s (key pattern %s)\n", what, key.pattern.c_str());
  std::abort();
}

// A folder of this process's own, removed at exit with the files in it.
struct Folder {
  std::string path;
  Folder() {
    const char* tmp = std::getenv("TMPDIR");
    std::string templ = std::string(tmp && *tmp == '/' ? tmp : "/tmp") + "/fuzz_pdb_header-XXXXXX";
    if (!::mkdtemp(templ.data())) {
      std::perror("fuzz_pdb_header: mkdtemp");
      std::abort();
    }
    path = templ;
  }
  ~Folder() {
    for (const PdbFileKey& key : kKeys) ::unlink(pdb_file_path(path, key).c_str());
    ::rmdir(path.c_str());
  }
};

const Folder& folder() {
  static const Folder f;
  return f;
}

// A new file each time, as the writer makes (ext4 flushes a file truncated and rewritten on
// close, which would cost a disk write per input).
void write_file(const std::string& path, std::string_view bytes) {
  ::unlink(path.c_str());
  pdb_file_detail::Fd f{::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644)};
  if (f.fd < 0 || !pdb_file_detail::write_fully(f.fd, bytes.data(), bytes.size())) {
    std::perror("fuzz_pdb_header: writing the cache file");
    std::abort();
  }
}

// What the writer's format says of `bytes` as the file of `key`.
bool ours(std::string_view bytes) {
  const std::string_view magic = pdb_file_detail::kMagic;
  return bytes.size() < magic.size() ? magic.substr(0, bytes.size()) == bytes : bytes.substr(0, magic.size()) == magic;
}
bool valid(std::string_view bytes, const PdbFileKey& key) {
  const std::size_t header = pdb_file_detail::header_of(key, 0).size();  // the checksum is always 16 digits
  if (bytes.size() != header + key.payload_bytes()) return false;
  const std::string_view payload = bytes.substr(header);
  return bytes.substr(0, header) == pdb_file_detail::header_of(key, XXH64(payload.data(), payload.size(), 0));
}

void check(std::string_view bytes, const PdbFileKey& key) {
  const std::string path = pdb_file_path(folder().path, key);
  write_file(path, bytes);
  PdbFileRead read;
  bool refused = false;
  largest = 0;
  measuring = true;
  try {
    read = read_pdb_file(path, key);
  } catch (const InputError&) {
    refused = true;
  }
  measuring = false;
  if (largest > pdb_file_detail::kMaxHeader + 1 + key.payload_bytes()) fail("an allocation beyond the header window and the table", key);
  if (refused != !ours(bytes)) fail(refused ? "a file of ours refused as foreign" : "a foreign file read as ours", key);
  if (refused) return;
  if (read.table.has_value() != valid(bytes, key))
    fail(read.table ? "a file that is not the writer's accepted" : "the writer's file not accepted", key);
  if (!read.table) {
    if (read.stale.empty()) fail("a stale file without a reason", key);
    if (read.found.absent) fail("a stale file reported absent (a save would not replace it)", key);
    return;
  }
  const std::string_view payload = bytes.substr(bytes.size() - key.payload_bytes());
  if (!read.stale.empty() || read.table->size() != key.payload_bytes() ||
      std::memcmp(read.table->data(), payload.data(), payload.size()) != 0)
    fail("an accepted table that is not the file's payload", key);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  __sanitizer_install_malloc_and_free_hooks(on_malloc, on_free);
  folder();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  for (const PdbFileKey& key : kKeys) check(bytes, key);
  return 0;
}
