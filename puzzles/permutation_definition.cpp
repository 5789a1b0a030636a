// The definition model's operations and the loader: a definition file read once per process
// (the readers are puzzles/tws_reader.cpp and puzzles/kpuzzle_reader.cpp), refusing what is
// no regular file before reading it.
#include "puzzles/permutation_definition.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>

#include "puzzles/definition_builder.hpp"

namespace searchbench {

int PermutationDefinition::move_index(std::string_view wanted) const {
  for (std::size_t m = 0; m < moves.size(); ++m)
    if (moves[m].name == wanted) return static_cast<int>(m);
  return -1;
}

int PermutationDefinition::set_index(std::string_view wanted) const {
  for (std::size_t s = 0; s < sets.size(); ++s)
    if (sets[s].name == wanted) return static_cast<int>(s);
  return -1;
}

DefinitionMove PermutationDefinition::then(const DefinitionMove& a, const DefinitionMove& b) const {
  DefinitionMove c;
  c.source.resize(static_cast<std::size_t>(slots));
  c.twist.resize(static_cast<std::size_t>(slots));
  for (int i = 0; i < slots; ++i) {
    const int from = b.source[i];
    c.source[i] = a.source[from];
    c.twist[i] = static_cast<std::uint8_t>((a.twist[from] + b.twist[i]) % modulus[i]);
  }
  return c;
}

bool PermutationDefinition::is_identity(const DefinitionMove& m) const {
  for (int i = 0; i < slots; ++i)
    if (m.source[i] != i || m.twist[i] != 0) return false;
  return true;
}

bool names_definition_file(std::string_view name) {
  return name.ends_with(".tws") || name.ends_with(".json");
}


namespace {

using definition_reading::fail;

// Files larger than this are refused before reading (the largest real definitions, big
// cubes' with every slice move, are a few hundred kilobytes).
constexpr std::size_t kMaxDefinitionBytes = std::size_t{4} << 20;


// The text of a definition file, refusing what is no regular file or too large before
// reading it (a FIFO would block a plain read; a device could stream forever).
std::optional<std::string> read_file_text(const std::string& path, struct stat& st) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return std::nullopt;
    fail(path, 0, std::string("cannot open: ") + std::strerror(errno));
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  if (::fstat(fd, &st) != 0) fail(path, 0, std::string("cannot read: ") + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) fail(path, 0, "is a folder, not a definition file");
  if (!S_ISREG(st.st_mode)) fail(path, 0, "is not a regular file (a FIFO, socket or device is refused)");
  if (static_cast<std::size_t>(st.st_size) > kMaxDefinitionBytes)
    fail(path, 0, "is larger than " + std::to_string(kMaxDefinitionBytes >> 20) + " MiB; refused as no definition file");
  std::string text(static_cast<std::size_t>(st.st_size), '\0');
  std::size_t got = 0;
  while (got < text.size()) {
    const ssize_t n = ::read(fd, text.data() + got, text.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail(path, 0, std::string("cannot read: ") + std::strerror(errno));
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  text.resize(got);
  return text;
}

}  // namespace

std::shared_ptr<const PermutationDefinition> load_definition(std::string_view name) {
  struct Cached {
    std::string text;
    std::shared_ptr<const PermutationDefinition> definition;
  };
  static std::mutex mutex;
  static std::map<std::string, Cached, std::less<>> cache;
  const std::string file(name);
  struct stat st {};
  std::optional<std::string> text = read_file_text(file, st);
  if (!text) {
    for (const auto& s : shipped_definitions())
      if (s.file == name) text = std::string(s.text);
    if (!text) fail(file, 0, "no such file (and no shipped definition of that name)");
  }
  const std::lock_guard lock(mutex);
  auto it = cache.find(file);
  if (it != cache.end() && it->second.text == *text) return it->second.definition;
  auto read = std::make_shared<const PermutationDefinition>(name.ends_with(".json") ? read_kpuzzle_json(*text, file)
                                                                                    : read_tws(*text, file));
  cache[file] = {std::move(*text), read};
  return read;
}

}  // namespace searchbench