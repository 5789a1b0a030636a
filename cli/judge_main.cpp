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
#include <vector>

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
  // As CLI11 reads the main executable's: --help or --version anywhere, "--" ends the
  // options, and one judge name.
  std::vector<std::string_view> names;
  bool options_end = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (!options_end && (arg == "--help" || arg == "-h")) {
      std::printf("searchbench-judge: a judge's input on stdin answered in its exact output format, with the judges'\n"
                  "own searches (searchbench judge gives the same answers and also takes --engine and --encoder).\n\n"
                  "%s\n\n%s\n",
                  usage().c_str(), judge_formats().c_str());
      return 0;
    }
    if (!options_end && arg == "--version") {
      std::printf("searchbench-judge %s\n", cli::version());
      return 0;
    }
    if (!options_end && arg == "--") options_end = true;
    else if (!options_end && arg.size() > 1 && arg[0] == '-') return fail("unknown option '" + std::string(arg) + "'; " + usage(), 2);
    else names.push_back(arg);
  }
  if (names.size() != 1) return fail((names.empty() ? "a judge name is required; " : "one judge name only; ") + usage(), 2);
  const std::string_view name = names.front();
  try {
    cli::answer_judge_on_stdio(name, nullptr);
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
