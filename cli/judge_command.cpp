#include "cli/judge_command.hpp"

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
#include <vector>

#include "core/errors.hpp"
#include "registry/registry.hpp"

namespace searchbench::cli {

CLI::App* JudgeCommand::add_to(CLI::App& app) {
  std::vector<std::string> engine_names;
  for (const auto& e : engines()) engine_names.emplace_back(e.name);
  auto* cmd = app.add_subcommand("judge", "Answer a judge's input on stdin in its exact output format");
  cmd->footer(judge_formats());
  cmd->add_option("name", name_, judge_names(" | "))->required();
  cmd->add_option("--engine", options_.engine,
                  "route the cases through this engine of the registry (default: none, one search that keeps every "
                  "board's path, for fixed starts; a distance-only search from both boards for fzu1603)")
      ->check(CLI::IsMember(engine_names));
  cmd->add_option("--encoder", options_.encoder, "encoder for --engine (default: bitpack-implied / bitpack)");
  return cmd;
}

namespace {

// The whole of stdin. A regular file is mapped, its pages entered in one call, rather than
// copied into a string: the copy of sicily1151's 766 KB input faulted in 190 fresh pages one
// by one, a tenth of the judge's time. Anything else (a pipe, a terminal, a file mapping
// refuses) is read in large blocks (istreambuf_iterator is several times slower).
class StandardInput {
 public:
  StandardInput() {
    const int fd = fileno(stdin);
    struct stat st;
    const off_t at = lseek(fd, 0, SEEK_CUR);
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && at >= 0 && st.st_size > at) {
      void* p = mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
      if (p != MAP_FAILED) {
        mapped_ = p;
        mapped_size_ = static_cast<std::size_t>(st.st_size);
        text_ = std::string_view(static_cast<const char*>(p) + at, mapped_size_ - static_cast<std::size_t>(at));
        lseek(fd, 0, SEEK_END);  // consumed, as a read to the end would leave it
        return;
      }
    }
    char block[1 << 16];
    for (std::size_t n; (n = std::fread(block, 1, sizeof block, stdin)) > 0;) copy_.append(block, n);
    // A closed stdin or a folder would otherwise read as an empty input.
    if (std::ferror(stdin)) throw InputError(std::string("cannot read standard input: ") + std::strerror(errno));
    text_ = copy_;
  }
  ~StandardInput() {
    if (mapped_) munmap(mapped_, mapped_size_);
  }
  StandardInput(const StandardInput&) = delete;
  StandardInput& operator=(const StandardInput&) = delete;
  std::string_view text() const { return text_; }

 private:
  void* mapped_ = nullptr;
  std::size_t mapped_size_ = 0;
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

int JudgeCommand::run() const {
  validate_judge(name_, options_);  // before waiting for stdin
  const StandardInput input;
  try {
    const std::string out = run_judge(name_, input.text(), options_);
    make_room_in_pipe(out.size());
    std::fwrite(out.data(), 1, out.size(), stdout);
  } catch (const JudgeInputError& e) {
    std::fwrite(e.answered.data(), 1, e.answered.size(), stdout);
    if (std::fflush(stdout) != 0) throw OutputError(std::string("cannot write the output: ") + std::strerror(errno));
    throw;
  }
  return 0;
}

}  // namespace searchbench::cli
