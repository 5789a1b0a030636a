// searchbench-judge NAME: the judges alone, answered with their own searches (the path table
// for the magic boards, the meeting search for fzu1603), in an executable linked statically
// and without the registry or oneTBB. A judge starts one process per test case, and loading
// the shared libraries and oneTBB's start-up was most of a small input's time: this
// executable starts in about what a C program does. `searchbench judge` gives the same
// answers and takes --engine and --encoder.
//
// Exit status: 0 success; 2 bad input (one line on stderr naming the input line, after the
// answers to the cases before it); 4 out of memory; 5 internal error; 6 the output could not
// be written.
//
// Its command line is one judge name, --help or --version, read here without CLI11: building
// CLI11's parser and the iostreams it prints through was a tenth of this executable's
// start-up.
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <string_view>

#include "cli/judge_io.hpp"
#include "cli/version.hpp"
#include "core/errors.hpp"
#include "core/printable.hpp"
#include "judges/judges.hpp"

namespace {

int fail(const std::string& message, int status) {
  std::fprintf(stderr, "searchbench-judge: %s\n", searchbench::printable(message).c_str());
  return status;
}

std::string usage() { return "usage: searchbench-judge NAME < input > output (NAME: " + searchbench::judge_names(" | ") + ")"; }

int run(int argc, char** argv) {
  using namespace searchbench;
  const std::string_view arg = argc == 2 ? argv[1] : "";
  if (arg == "--help" || arg == "-h") {
    std::printf("searchbench-judge: a judge's input on stdin answered in its exact output format, with the judges'\n"
                "own searches (searchbench judge gives the same answers and also takes --engine and --encoder).\n\n"
                "%s\n\n%s\n",
                usage().c_str(), judge_formats().c_str());
    return 0;
  }
  if (arg == "--version") {
    std::printf("searchbench-judge %s\n", cli::version());
    return 0;
  }
  if (argc != 2 || arg.empty() || arg.starts_with("-"))
    return fail((argc < 2 ? "a judge name is required; " : argc > 2 ? "one judge name only; " : "unknown option '" + std::string(arg) + "'; ") + usage(), 2);
  try {
    cli::answer_judge_on_stdio(arg, nullptr);
  } catch (const InputError& e) {
    return fail(e.what(), 2);
  } catch (const OutputError& e) {
    return fail(e.what(), 6);
  } catch (const std::bad_alloc&) {
    return fail("out of memory", 4);
  } catch (const std::exception& e) {
    return fail(std::string("internal error: ") + e.what(), 5);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // A closed pipe makes the write fail with EPIPE (status 6) instead of SIGPIPE ending it.
  std::signal(SIGPIPE, SIG_IGN);
  const int status = run(argc, argv);
  if ((std::fflush(stdout) != 0 || std::ferror(stdout)) && status == 0)
    return fail(std::string("cannot write the output: ") + (errno ? std::strerror(errno) : "stdout failed"), 6);
  return status;
}
