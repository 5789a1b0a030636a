// The mpi engine's MPI session and the collectives about the job itself, apart from the
// search (engines/mpi_bfs.hpp): MPI is started by the first mpi engine a process builds, not
// in main, so no other command or test runs it, and without mpirun the process is a world
// of one rank. MPI_THREAD_FUNNELED: only the thread that started MPI communicates.
// * require_same_configuration: every rank must run the same collectives in the same order,
//   so the first collective of a run checks that all ranks were started alike.
// * agree_on_threads: the threads reported are the fewest any rank's arena has, with one
//   warning from rank 0 when CPU affinity gave some rank fewer than it asked for.
// * abort_job_if_distributed: the error path, so no rank is left waiting in a collective.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "core/errors.hpp"

namespace searchbench {

// The process's MPI session: initialized on first use (MPI_THREAD_FUNNELED), finalized at
// exit.
class MpiWorld {
 public:
  static MpiWorld& get() {
    static MpiWorld world;
    return world;
  }
  int rank() const { return rank_; }
  int size() const { return size_; }

  // Ends every rank of a job of several ranks with `status` (the error path: a rank that
  // stops while the others wait in a collective would otherwise leave them waiting). Does
  // nothing when MPI was never started or the world is one rank.
  static void abort_job_if_distributed(int status) {
    int started = 0, finished = 0;
    MPI_Initialized(&started);
    MPI_Finalized(&finished);
    if (!started || finished) return;
    int size = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size > 1) MPI_Abort(MPI_COMM_WORLD, status);
  }

  // Collective, and the first one a run makes: whether every rank was started with the same
  // configuration. `canonical` is the run's configuration as "--option value" lines in a
  // fixed order, the same text on ranks that run the same search. Rank 0's text goes to
  // every rank (MPI_Bcast), each compares it with its own, and one MPI_Allreduce makes the
  // verdict every rank's. When some rank differs, the first such rank sends its text to
  // rank 0, rank 0 prints one line naming the options that differ, and every rank returns
  // false with no collective pending (the caller ends with status 2; MPI finalizes at
  // exit). A world of one rank always agrees.
  [[nodiscard]] bool require_same_configuration(std::string_view canonical) const {
    if (size_ == 1) return true;
    std::uint64_t length = canonical.size();
    MPI_Bcast(&length, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    std::string root(canonical);
    root.resize(length);
    MPI_Bcast(root.data(), static_cast<int>(length), MPI_CHAR, 0, MPI_COMM_WORLD);
    // The first rank that differs (MPI_MIN; size_ when none) and, only when one does, how
    // many differ (MPI_SUM): every rank takes the same branch after the first.
    const bool differs = root != canonical;
    int mine[2] = {differs ? rank_ : size_, differs ? 1 : 0}, agreed[2] = {size_, 0};
    MPI_Allreduce(&mine[0], &agreed[0], 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (agreed[0] == size_) return true;
    MPI_Allreduce(&mine[1], &agreed[1], 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    const int first = agreed[0];
    if (rank_ == first) {
      const std::uint64_t own = canonical.size();
      MPI_Send(&own, 1, MPI_UINT64_T, 0, 0, MPI_COMM_WORLD);
      MPI_Send(canonical.data(), static_cast<int>(own), MPI_CHAR, 0, 0, MPI_COMM_WORLD);
    } else if (rank_ == 0) {
      std::uint64_t theirs_length = 0;
      MPI_Recv(&theirs_length, 1, MPI_UINT64_T, first, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      std::string theirs(theirs_length, '\0');
      MPI_Recv(theirs.data(), static_cast<int>(theirs_length), MPI_CHAR, first, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      const std::string others = agreed[1] > 1 ? ", and " + std::to_string(agreed[1] - 1) + " more of the " +
                                                     std::to_string(size_) + " ranks differ" : "";
      std::fprintf(stderr,
                   "searchbench: the ranks of this MPI job were started with different arguments (rank 0: %s; rank %d: %s%s); "
                   "start every rank with the same run options\n",
                   difference(root, theirs).c_str(), first, difference(theirs, root).c_str(), others.c_str());
    }
    return false;
  }

  // Collective, once per engine (its first explore): the fewest threads any rank's arena
  // has (`threads`: this rank's), and one warning line from rank 0 when the CPU affinity of
  // some rank allowed it fewer threads than it `asked` for and its machine has (asking for
  // more threads than cores is capped without a word, as in the parallel engine).
  int agree_on_threads(int threads, int asked) const {
    int fewest = 0;
    MPI_Allreduce(&threads, &fewest, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    const int could = std::min(asked, cores);
    int missing[2] = {could - threads, rank_}, most[2] = {0, 0};  // {threads missing, rank}
    MPI_Allreduce(missing, most, 1, MPI_2INT, MPI_MAXLOC, MPI_COMM_WORLD);
    if (most[0] <= 0) return fewest;
    // The rank missing the most threads tells rank 0 what it had and asked for.
    int counts[2] = {threads, asked};
    if (most[1] != 0 && rank_ == most[1]) MPI_Send(counts, 2, MPI_INT, 0, 1, MPI_COMM_WORLD);
    if (rank_ != 0) return fewest;
    if (most[1] != 0) MPI_Recv(counts, 2, MPI_INT, most[1], 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    std::fprintf(stderr,
                 "searchbench: warning: rank %d runs %d of the %d threads asked for: its CPU affinity allows no more "
                 "(mpirun binds each rank to a core by default; run mpirun with --bind-to none, or --map-by slot:PE=%d)\n",
                 most[1], counts[0], counts[1], counts[1]);
    return fewest;
  }

  ~MpiWorld() {
    int finished = 0;
    MPI_Finalized(&finished);
    if (!finished) MPI_Finalize();
  }
  MpiWorld(const MpiWorld&) = delete;
  MpiWorld& operator=(const MpiWorld&) = delete;

 private:
  MpiWorld() {
    int started = 0, provided = 0;
    MPI_Initialized(&started);
    if (!started) MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
    else MPI_Query_thread(&provided);
    if (provided < MPI_THREAD_FUNNELED) throw InputError("this MPI library does not support MPI_THREAD_FUNNELED");
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
  }
  // The lines of `text` ("--option value") that `other` lacks, joined by ", ", values with
  // spaces quoted; "(none)" when every line of `text` is in `other`.
  static std::string difference(const std::string& text, const std::string& other) {
    auto lines = [](const std::string& t) {
      std::vector<std::string> out;
      for (std::size_t at = 0; at < t.size();) {
        const std::size_t end = std::min(t.find('\n', at), t.size());
        if (end > at) out.push_back(t.substr(at, end - at));
        at = end + 1;
      }
      return out;
    };
    const std::vector<std::string> theirs = lines(other);
    std::string out;
    for (const std::string& line : lines(text)) {
      if (std::find(theirs.begin(), theirs.end(), line) != theirs.end()) continue;
      const std::size_t space = line.find(' ');
      std::string shown = line;
      if (space != std::string::npos && line.find(' ', space + 1) != std::string::npos)
        shown = line.substr(0, space) + " '" + line.substr(space + 1) + "'";
      out += (out.empty() ? "" : ", ") + shown;
    }
    return out.empty() ? "(none)" : out;
  }

  int rank_ = 0, size_ = 1;
};

}  // namespace searchbench
