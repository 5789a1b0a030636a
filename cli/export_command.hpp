// The export command (searchbench export), and the rules by which a command writes its
// output file without clobbering what it does not own (open_output, usable by any command).
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <cstdio>
#include <string>

#include "registry/registry.hpp"

namespace searchbench {


// Where a command's output goes, chosen by open_output() from what the path names now:
//   "-"                       stdout;
//   a new path, or a regular  a temporary file ".NAME.XXXXXX" in the same folder, renamed
//   file                      over the path by commit(), so the old file stays intact (and
//                             nothing new appears) until the output is complete;
//   a character device, or    opened (never created, truncated or replaced) and written
//   a FIFO                    straight through; a FIFO waits for its reader;
//   a symbolic link           the file it points to, by the rules above (a temporary file
//                             beside the target, renamed over the target: the link stays);
//   anything else             refused with InputError: a folder, a block device, a socket,
//                             a dangling link or one to a folder, an empty path.
// The file is opened at once; write to file(), then commit(). Without commit() (an error or
// an Interrupted exception unwinding) the destructor closes the file and removes the
// temporary one, so nothing is left behind and the old file is untouched.
class OutputTarget {
 public:
  enum class Kind { standard_output, replaced_file, stream };

  OutputTarget(OutputTarget&& other) noexcept;
  OutputTarget(const OutputTarget&) = delete;
  OutputTarget& operator=(const OutputTarget&) = delete;
  OutputTarget& operator=(OutputTarget&&) = delete;
  ~OutputTarget();

  std::FILE* file() const { return file_; }
  Kind kind() const { return kind_; }
  // The file receiving the output: the path given, or the file its link points to.
  const std::string& target() const { return target_; }
  // The folder of the temporary file (replaced_file only).
  std::string folder() const;
  // For messages: 'PATH', or 'PATH' (a link to 'TARGET').
  std::string described() const;

  // Flushes and closes the output; a temporary file is renamed over the target, unless the
  // target became something other than a regular file meanwhile. Throws OutputError when
  // the output cannot be completed, Interrupted when a signal arrived since the last poll.
  void commit();

 private:
  friend OutputTarget open_output(const std::string& path);
  OutputTarget(Kind kind, std::string path, std::string target, std::string temp, std::FILE* file);
  void install_temp() const;

  Kind kind_;
  std::string path_, target_, temp_;  // temp_: empty when there is none (left) to remove
  std::FILE* file_ = nullptr;         // stdout is never closed
};

// Throws InputError (one line: what the path is, why it is refused) before anything is
// written; Interrupted when a signal arrives while waiting for a FIFO's reader.
OutputTarget open_output(const std::string& path);

struct ExportArgs {
  std::string puzzle = default_puzzle();
  std::string encoder;
  std::string format = "el";
  std::string output = "-";
  std::uint64_t max_output = 0;  // 0: not given
};

// Upper bound on the bytes of an edge list: a line of two keys per move of every key.
std::uint64_t estimate_export_bytes(int moves, std::uint64_t key_bound);

// The export subcommand and its options, read into `args`.
CLI::App* add_export_command(CLI::App& app, ExportArgs& args);

// Edges go to --output (stdout by default) through open_output(); the start key, vertex and
// edge counts go to stdout after them when writing a file, else to stderr, so they never mix
// with the edges. SIGINT, SIGTERM and SIGHUP stop the export with its temporary file removed
// (the Interrupted exception reaches the caller, which ends the process by the signal).
int command_export(const ExportArgs& a);

}  // namespace searchbench
