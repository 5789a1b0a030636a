// A judge on standard input and output, shared by `searchbench judge` and the statically
// linked searchbench-judge (cli/judge_main.cpp): stdin read whole, the answers written in one
// go, and the answers before a bad case printed ahead of its error.
#include "cli/judge_io.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>

#include "core/errors.hpp"

namespace searchbench::cli {

namespace {

// The whole of stdin. A regular file is read in one call into a buffer whose pages are
// entered at once (an anonymous mapping, populated): copying sicily1151's 766 KB input into
// a string faulted in 190 fresh pages one by one, a tenth of the judge's time. The file is
// read, not mapped, so that one shortened while the judge runs cannot end it with a bus
// error. Anything else (a pipe, a terminal), and whatever a file grew by, is read in large
// blocks (istreambuf_iterator is several times slower).
class StandardInput {
 public:
  StandardInput() {
    const int fd = fileno(stdin);
    struct stat st;
    const off_t at = lseek(fd, 0, SEEK_CUR);
    std::size_t read_at_once = 0;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && at >= 0 && st.st_size > at) {
      const auto expected = static_cast<std::size_t>(st.st_size - at);
      void* p = mmap(nullptr, expected, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
      if (p != MAP_FAILED) {
        buffer_ = static_cast<char*>(p);
        buffer_size_ = expected;
        for (ssize_t n; read_at_once < expected && (n = read(fd, buffer_ + read_at_once, expected - read_at_once)) != 0;) {
          if (n < 0 && errno == EINTR) continue;
          if (n < 0) throw InputError(std::string("cannot read standard input: ") + std::strerror(errno));
          read_at_once += static_cast<std::size_t>(n);
        }
      }
    }
    char block[1 << 16];
    for (ssize_t n; (n = read(fd, block, sizeof block)) != 0;) {
      if (n < 0 && errno == EINTR) continue;
      // A closed stdin or a folder would otherwise read as an empty input.
      if (n < 0) throw InputError(std::string("cannot read standard input: ") + std::strerror(errno));
      copy_.append(block, static_cast<std::size_t>(n));
    }
    if (copy_.empty()) {
      text_ = std::string_view(buffer_ ? buffer_ : "", read_at_once);
    } else {
      copy_.insert(0, buffer_ ? buffer_ : "", read_at_once);
      text_ = copy_;
    }
  }
  ~StandardInput() {
    if (buffer_) munmap(buffer_, buffer_size_);
  }
  StandardInput(const StandardInput&) = delete;
  StandardInput& operator=(const StandardInput&) = delete;
  std::string_view text() const { return text_; }

 private:
  char* buffer_ = nullptr;
  std::size_t buffer_size_ = 0;
  std::string copy_;
  std::string_view text_;
};

// Where stdout is a pipe, widens it to hold `bytes` (up to the system's limit for anyone,
// 1 MiB by default): sicily1151's 800 KB of answers then go in one write, where a 64 KiB
// pipe made the judge wait for its reader a dozen times. Advice only: a refusal leaves the
// pipe as it was.
void make_room_in_pipe(std::size_t bytes) {
#if defined(F_SETPIPE_SZ)
  constexpr std::size_t kDefaultPipe = std::size_t{64} << 10;
  struct stat st;
  if (bytes <= kDefaultPipe || fstat(fileno(stdout), &st) != 0 || !S_ISFIFO(st.st_mode)) return;
  const int fd = fileno(stdout);
  for (std::size_t size = std::min<std::size_t>(bytes, std::size_t{1} << 20); size > kDefaultPipe; size /= 2)
    if (fcntl(fd, F_SETPIPE_SZ, static_cast<int>(size)) >= 0) return;
#else
  (void)bytes;
#endif
}

}  // namespace

void answer_judge_on_stdio(std::string_view name, const JudgeRegistry* registry) {
  validate_judge(name, registry);  // before waiting for stdin
  const StandardInput input;
  try {
    const std::string out = run_judge(name, input.text(), registry);
    make_room_in_pipe(out.size());
    std::fwrite(out.data(), 1, out.size(), stdout);
  } catch (const JudgeInputError& e) {
    std::fwrite(e.answered.data(), 1, e.answered.size(), stdout);
    if (std::fflush(stdout) != 0) throw OutputError(std::string("cannot write the output: ") + std::strerror(errno));
    throw;
  }
}

}  // namespace searchbench::cli
