// Engine `mpi`: level-synchronous breadth-first search across the ranks of an MPI job
// (distributed two-bit BFS), with oneTBB threads inside each rank.
//
// * Ownership: the key space [0, key_bound) of a perfect encoder is cut into one contiguous
//   slice per rank, and each rank keeps two bits per key of its slice only
//   (core/two_bit_cells.hpp, the same codes as the parallel engine's two-bit levels). Every
//   key is a state, so equal slices of keys are equal shares of the states; sparse
//   packings would leave some ranks nearly empty, so only perfect encoders run here.
// * A level is one pass over each rank's slice in rounds, each over an equal part of the
//   slice. In a round the rank's threads expand the frontier cells of that part
//   (tbb::parallel_for via parallel_chunks), claim the successors they own at once, and
//   batch the others per destination rank as offsets into the owner's slice (32 bits when
//   slices are below 2^32 keys, else 64). The main thread then exchanges the batches:
//   MPI_Alltoall for the counts, MPI_Alltoallv for the offsets, and the threads claim what
//   arrived. The count of rounds follows the level's width (known on every rank, so all
//   take part in the same exchanges): enough that a rank's batches stay near kBatchBytes,
//   and no more, since every round is a point where all ranks wait for the slowest.
//   MPI_Allreduce sums the states new at each level; the search ends when a level finds
//   none anywhere.
// * Bottom-up levels, for small jobs only. Once the frontier outnumbers the unseen states,
//   the parallel engine asks every unseen state for a parent in the frontier instead; here
//   those parents lie in any slice, so every rank needs the frontier of the whole space.
//   The ranks allgather it as a bitmap (MPI_Allgather, one bit per key) and then resolve
//   their own unseen states with no further exchange. The bitmap costs key_bound / 8 bytes
//   on every rank whatever the count of ranks, so it is used only while that is at most
//   twice a rank's own cells (up to 4 ranks); beyond, levels stay top-down, since the
//   bitmap would cost the very memory that slicing saves (2.6 TB per rank at 2x8), and
//   asking each parent's owner instead takes a query and a reply per parent, more traffic
//   than the successors a top-down level pushes.
// * MPI_THREAD_FUNNELED: only the thread that started MPI communicates; the TBB workers
//   touch only the rank's cells and their own batches, handed over at parallel_chunks'
//   joins.
// * MPI is started by the first mpi engine a process builds (MpiWorld), not in main, so
//   no other command or test runs it; without mpirun the process is a world of one rank.
//   Only rank 0's result reports: the other ranks print nothing.
// * One configuration for all ranks. Every rank must run the same collectives in the same
//   order, so ranks started with different arguments (mpirun's `-np 1 A : -np 1 B`) would
//   read past their slices or wait forever for one another. Before any other collective,
//   MpiWorld::require_same_configuration gives every rank rank 0's canonical text of the
//   run (the puzzle, encoder, start, depth limit, repetitions, ...: all that decides the
//   sequence of collectives) and agrees with one MPI_Allreduce whether any rank differs;
//   if one does, rank 0 names the first such rank's difference in one line and every rank
//   ends with status 2 (no MPI_Abort: no rank is left inside a collective). The thread
//   count is not part of it: threads only split a rank's own work, exchange nothing, and
//   may legitimately differ between ranks (nodes with different core counts, or the
//   default of every core of each rank's machine).
// * Threads reported are threads that ran: each rank's arena is capped at what oneTBB may
//   run in this process (its CPU affinity mask: mpirun binds each rank to one core by
//   default with few ranks), the result reports the smallest arena of any rank, and rank 0
//   warns once when a rank got fewer threads than it asked for.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include <tbb/enumerable_thread_specific.h>
#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include "core/concepts.hpp"
#include "core/errors.hpp"
#include "core/progress_reporter.hpp"
#include "core/result.hpp"
#include "core/search_options.hpp"
#include "core/thread_arena.hpp"
#include "core/timer.hpp"
#include "core/two_bit_cells.hpp"
#include "core/parallel_chunks.hpp"
#include "engines/parallel/level_strategy.hpp"
#include "engines/parallel/two_bit_bottom_up.hpp"

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

template <Puzzle P, Encoder<P> E>
class MpiBfs {
 public:
  using State = typename P::State;
  static constexpr std::string_view kName = "mpi";
  static constexpr std::string_view kSummary = "level-synchronous BFS across MPI ranks (run under mpirun), 2-bit cells per rank";
  static constexpr bool kThreaded = true;     // oneTBB threads inside each rank
  static constexpr bool kDistributed = true;

  using Options = LevelStrategyOptions;

  MpiBfs(const P& puzzle, const E& enc, SearchOptions options, LevelStrategyOptions strategy = {})
      : puzzle_(puzzle), enc_(enc), options_(std::move(options)), strategy_(strategy) {
    if constexpr (!every_key_is_state<E>())
      throw InputError("engine 'mpi' needs a perfect encoder (cantor or combinatorial); '" + std::string(E::kName) +
                       "' has keys that are no state");
    world_ = &MpiWorld::get();
  }

  // Bytes one rank needs: two bits per key of its slice plus a round's batches (sent,
  // received, and the threads' own before they are joined), and the frontier bitmap of
  // bottom-up levels where it applies.
  std::uint64_t estimate_explore_bytes(const State&) const {
    const Layout layout = layout_of();
    return layout.slice / 4 + 3 * kBatchBytes + (layout.bitmap ? layout.slice / 8 * static_cast<Key>(world_->size()) : 0);
  }

  // Whole-space search, collective: every rank of the job calls it.
  SearchResult explore(const State& start) {
    try {
      const Layout layout = layout_of();
      return layout.slice <= (Key{1} << 32) ? levels<std::uint32_t>(start, layout) : levels<std::uint64_t>(start, layout);
    } catch (const std::exception& e) {
      if (world_->size() == 1) throw;
      std::fprintf(stderr, "searchbench: rank %d: %s\n", world_->rank(), e.what());
      MpiWorld::abort_job_if_distributed(4);
      throw;
    }
  }

  SearchResult search(const State&, const State&) {
    throw InputError("engine 'mpi' counts whole spaces only; for point queries use bidir");
  }

 private:
  struct Layout {
    Key bound = 0, slice = 0, lo = 0, hi = 0;  // this rank owns keys [lo, hi)
    std::uint64_t slice_words = 0;             // words of a full slice (the last may be shorter)
    std::uint64_t min_rounds = 1;              // keeps every Alltoallv count within an int
    bool bitmap = false;                       // bottom-up levels allowed (frontier bitmap fits)
  };

  Layout layout_of() const {
    Layout l;
    const Key ranks = static_cast<Key>(world_->size());
    l.bound = enc_.key_bound();
    // Slices start on a word of cells, so that each rank's part of the frontier bitmap is
    // whole 32-bit words.
    l.slice = ((l.bound + ranks - 1) / ranks + TwoBitCells::kCellsPerWord - 1) / TwoBitCells::kCellsPerWord *
              TwoBitCells::kCellsPerWord;
    l.lo = std::min(l.bound, l.slice * static_cast<Key>(world_->rank()));
    l.hi = std::min(l.bound, l.lo + l.slice);
    l.slice_words = (l.slice + TwoBitCells::kCellsPerWord - 1) / TwoBitCells::kCellsPerWord;
    // Every count and offset of MPI_Alltoallv is an int: a round may send at most INT_MAX
    // elements in all, and each cell has at most move_count successors.
    const std::uint64_t cells_per_round = static_cast<std::uint64_t>(INT_MAX) / (ranks * static_cast<Key>(puzzle_.move_count()));
    l.min_rounds = std::max<std::uint64_t>(1, (l.slice + cells_per_round - 1) / cells_per_round);
    l.bitmap = every_key_is_state<E>() && !strategy_.top_down && l.slice / 8 * ranks <= 2 * (l.slice / 4) &&
               l.slice_words <= static_cast<std::uint64_t>(INT_MAX);
    return l;
  }

  // Rounds for a level whose frontier holds `frontier` states on all ranks together:
  // the same figure on every rank.
  template <class Wire>
  std::uint64_t rounds_for(const Layout& layout, std::uint64_t frontier) const {
    const std::uint64_t batch_bytes = frontier / static_cast<std::uint64_t>(world_->size()) *
                                      static_cast<std::uint64_t>(puzzle_.move_count()) * sizeof(Wire);
    return std::clamp<std::uint64_t>(batch_bytes / kBatchBytes + 1, layout.min_rounds, std::max<std::uint64_t>(1, layout.slice_words));
  }

  // A rank's batches per round, about: 16 MiB bounds the buffers at a fraction of the
  // cells of a large slice while keeping the rounds of a level few (2x6's widest level
  // takes some 30 rounds with two ranks).
  static constexpr std::uint64_t kBatchBytes = std::uint64_t{16} << 20;
  static constexpr std::size_t kBatch = 64;  // successors computed and prefetched together

  template <class Wire>
  struct Scratch {
    std::vector<std::vector<Wire>> outgoing;  // per destination rank
    std::vector<Key> keys, local;
    std::uint64_t found = 0, expanded = 0, generated = 0;
    TwoBitScratch<State> bottom_up;  // the batch and counts of bottom-up levels
  };

  template <class Wire>
  static MPI_Datatype wire_type() {
    return std::is_same_v<Wire, std::uint32_t> ? MPI_UINT32_T : MPI_UINT64_T;
  }

  template <class Wire>
  SearchResult levels(const State& start, const Layout& layout) {
    Timer timer;
    ProgressReporter progress(options_, timer);  // rank 0's lines only; no heartbeats (a level's count is known at its end)
    SearchResult result;
    const int ranks = world_->size(), me = world_->rank();
    // No more threads than oneTBB may run in this process (its CPU affinity mask, e.g. one
    // core where mpirun binds each rank to a core), then the concurrency the arena has.
    tbb::task_arena arena(runnable_threads(options_.threads));
    int threads = 1;
    arena.execute([&] { threads = tbb::this_task_arena::max_concurrency(); });
    report_threads(threads);
    result.threads = fewest_threads_;
    TwoBitCells cells(layout.hi - layout.lo);
    arena.execute([&] {
      parallel_chunks(cells.words(), 4096, [&](std::uint64_t begin, std::uint64_t end) { cells.clear(begin, end); });
    });
    const Key start_key = enc_.encode(start);
    if (start_key >= layout.lo && start_key < layout.hi) cells.mark_key(start_key - layout.lo, TwoBitCells::current_code(0));
    result.depth_counts.push_back(1);
    result.depth_seconds.push_back(0.0);

    tbb::enumerable_thread_specific<Scratch<Wire>> scratch([ranks] {
      Scratch<Wire> s;
      s.outgoing.resize(static_cast<std::size_t>(ranks));
      return s;
    });
    std::vector<int> send_counts(ranks), recv_counts(ranks), send_displs(ranks), recv_displs(ranks);
    std::vector<Wire> send, received;
    std::vector<std::uint32_t> frontier_bits;  // bottom-up levels: the whole space's frontier
    std::uint64_t bytes_sent = 0, peak_buffers = 0, seen = 1;

    for (int depth = 0;; ++depth) {
      if (options_.max_depth >= 0 && depth >= options_.max_depth) break;
      const unsigned current = TwoBitCells::current_code(depth), next = TwoBitCells::next_code(depth);
      // The same rule as the parallel engine's, on the global counts (the same on every rank).
      if (layout.bitmap && static_cast<double>(result.depth_counts.back()) > static_cast<double>(layout.bound - seen)) {
        bytes_sent += bottom_up_level(cells, layout, current, next, arena, threads, frontier_bits, scratch);
        peak_buffers = std::max<std::uint64_t>(peak_buffers, frontier_bits.capacity() * sizeof(std::uint32_t));
      } else {
        const std::uint64_t rounds = rounds_for<Wire>(layout, result.depth_counts.back());
        const std::uint64_t round_words = (layout.slice_words + rounds - 1) / rounds;
        const std::uint64_t grain = std::max<std::uint64_t>(64, round_words / (64 * static_cast<std::uint64_t>(threads)));
        for (std::uint64_t round = 0; round < rounds; ++round) {
          const std::uint64_t first = std::min(cells.words(), round * round_words);
          const std::uint64_t last = std::min(cells.words(), first + round_words);
          arena.execute([&] {
            parallel_chunks(last - first, grain, [&](std::uint64_t begin, std::uint64_t end) {
              expand_words(cells, layout, current, next, first + begin, first + end, scratch.local());
            });
          });
          // Join the threads' batches into one buffer ordered by destination.
          std::fill(send_counts.begin(), send_counts.end(), 0);
          for (auto& s : scratch)
            for (int r = 0; r < ranks; ++r) send_counts[r] += static_cast<int>(s.outgoing[r].size());
          for (int r = 0, offset = 0; r < ranks; offset += send_counts[r], ++r) send_displs[r] = offset;
          send.resize(static_cast<std::size_t>(send_displs[ranks - 1] + send_counts[ranks - 1]));
          std::vector<int> fill = send_displs;
          for (auto& s : scratch)
            for (int r = 0; r < ranks; ++r) {
              std::copy(s.outgoing[r].begin(), s.outgoing[r].end(), send.begin() + fill[r]);
              fill[r] += static_cast<int>(s.outgoing[r].size());
              s.outgoing[r].clear();
            }
          MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
          for (int r = 0, offset = 0; r < ranks; offset += recv_counts[r], ++r) recv_displs[r] = offset;
          received.resize(static_cast<std::size_t>(recv_displs[ranks - 1] + recv_counts[ranks - 1]));
          MPI_Alltoallv(send.data(), send_counts.data(), send_displs.data(), wire_type<Wire>(), received.data(),
                        recv_counts.data(), recv_displs.data(), wire_type<Wire>(), MPI_COMM_WORLD);
          bytes_sent += send.size() * sizeof(Wire) + static_cast<std::uint64_t>(ranks - 1) * sizeof(int);
          peak_buffers = std::max<std::uint64_t>(peak_buffers, (send.capacity() + received.capacity()) * sizeof(Wire));
          arena.execute([&] {
            parallel_chunks(received.size(), 4096, [&](std::uint64_t begin, std::uint64_t end) {
              Scratch<Wire>& local = scratch.local();
              for (std::uint64_t i = begin; i != end; ++i) {
                if (i + 16 < end) __builtin_prefetch(cells.address_of(received[i + 16]), 1);
                local.found += cells.claim(received[i], next);
              }
            });
          });
        }
      }
      std::uint64_t found_here = 0, found = 0;
      for (auto& s : scratch) found_here += std::exchange(s.found, 0) + std::exchange(s.bottom_up.found, 0);
      MPI_Allreduce(&found_here, &found, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
      if (found == 0) break;
      seen += found;
      result.depth_counts.push_back(found);
      result.depth_seconds.push_back(timer.seconds());
      if (me == 0) progress.depth_done(depth + 1, found, seen, seen - found, *result.depth_seconds.back());
    }

    std::uint64_t totals[4] = {0, 0, bytes_sent, cells.bytes() + peak_buffers};
    for (auto& s : scratch) {
      totals[0] += s.expanded + s.bottom_up.expanded;
      totals[1] += s.generated + s.bottom_up.generated;
      for (const auto& out : s.outgoing) totals[3] += out.capacity() * sizeof(Wire);
    }
    std::uint64_t sums[4];
    MPI_Allreduce(totals, sums, 4, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    result.expanded = sums[0];
    result.generated = sums[1];
    result.bytes_exchanged = sums[2];
    result.peak_bytes = sums[3];
    result.ranks = ranks;
    result.reporting = me == 0;
    result.seconds = timer.seconds();
    return result;
  }

  // Collective, once per engine (its first explore): the fewest threads any rank's arena
  // has, kept for the result, and one warning line from rank 0 when the CPU affinity of
  // some rank allowed it fewer threads than it asked for and its machine has (asking for
  // more threads than cores is capped without a word, as in the parallel engine).
  void report_threads(int threads) {
    if (fewest_threads_ > 0) return;
    MPI_Allreduce(&threads, &fewest_threads_, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    const int could = std::min(options_.threads, cores);
    int missing[2] = {could - threads, world_->rank()}, most[2] = {0, 0};  // {threads missing, rank}
    MPI_Allreduce(missing, most, 1, MPI_2INT, MPI_MAXLOC, MPI_COMM_WORLD);
    if (most[0] <= 0) return;
    // The rank missing the most threads tells rank 0 what it had and asked for.
    int counts[2] = {threads, options_.threads};
    if (most[1] != 0 && world_->rank() == most[1]) MPI_Send(counts, 2, MPI_INT, 0, 1, MPI_COMM_WORLD);
    if (world_->rank() != 0) return;
    if (most[1] != 0) MPI_Recv(counts, 2, MPI_INT, most[1], 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    std::fprintf(stderr,
                 "searchbench: warning: rank %d runs %d of the %d threads asked for: its CPU affinity allows no more "
                 "(mpirun binds each rank to a core by default; run mpirun with --bind-to none, or --map-by slot:PE=%d)\n",
                 most[1], counts[0], counts[1], counts[1]);
  }

  // A bottom-up level: allgather the frontier as one bit per key, let every unseen cell of
  // this rank's slice look for a parent in it (stopping at the first), then retire the
  // frontier. Returns the bytes this rank sent.
  template <class Wire>
  std::uint64_t bottom_up_level(TwoBitCells& cells, const Layout& layout, unsigned current, unsigned next,
                                tbb::task_arena& arena, int threads, std::vector<std::uint32_t>& bits,
                                tbb::enumerable_thread_specific<Scratch<Wire>>& scratch) const {
    const std::uint64_t words = layout.slice_words, ranks = static_cast<std::uint64_t>(world_->size());
    const std::uint64_t mine = words * static_cast<std::uint64_t>(world_->rank());
    bits.resize(words * ranks);
    arena.execute([&] {
      parallel_chunks(words, 4096, [&](std::uint64_t begin, std::uint64_t end) {
        for (std::uint64_t w = begin; w != end; ++w)
          bits[mine + w] = w < cells.words() ? compress_cells(TwoBitCells::cells_with(cells.word(w), current)) : 0;
      });
    });
    MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, bits.data(), static_cast<int>(words), MPI_UINT32_T, MPI_COMM_WORLD);
    const std::uint64_t grain = std::max<std::uint64_t>(64, cells.words() / (256 * static_cast<std::uint64_t>(threads)));
    arena.execute([&] {
      parallel_chunks(cells.words(), grain, [&](std::uint64_t begin, std::uint64_t end) {
        find_parents_in_words(
            puzzle_, enc_, cells, layout.lo, next, begin, end, scratch.local().bottom_up,
            [&](Key p) { __builtin_prefetch(&bits[p / 32], 0); }, [&](Key p) { return (bits[p / 32] >> (p % 32)) & 1u; });
      });
      parallel_chunks(cells.words(), 4096, [&](std::uint64_t begin, std::uint64_t end) {
        for (std::uint64_t w = begin; w != end; ++w)
          cells.mark(w, TwoBitCells::cells_with(cells.word(w), current), TwoBitCells::kDone);
      });
    });
    return words * (ranks - 1) * sizeof(std::uint32_t);
  }

  // The low bits of the 32 two-bit cells of a word, packed into 32 bits.
  static std::uint32_t compress_cells(std::uint64_t low_bits) {
    std::uint64_t x = low_bits & TwoBitCells::kLow;
    x = (x | x >> 1) & 0x3333333333333333ULL;
    x = (x | x >> 2) & 0x0F0F0F0F0F0F0F0FULL;
    x = (x | x >> 4) & 0x00FF00FF00FF00FFULL;
    x = (x | x >> 8) & 0x0000FFFF0000FFFFULL;
    x = (x | x >> 16) & 0x00000000FFFFFFFFULL;
    return static_cast<std::uint32_t>(x);
  }

  static constexpr Key kNoKey = ~Key{0};

  // Top-down over words [begin, end) of the slice: retire every frontier cell, claim the
  // successors this rank owns, batch the others for their owners.
  template <class Wire>
  void expand_words(TwoBitCells& cells, const Layout& layout, unsigned current, unsigned next, std::uint64_t begin,
                    std::uint64_t end, Scratch<Wire>& local) const {
    for_each_frontier_batch(cells, begin, end, current, layout.lo, local.keys, kBatch, [&] {
      local.local.clear();
      State successor;
      for (const Key k : local.keys)
        local.generated += for_each_successor_key(puzzle_, enc_, k, successor, [&](Key n) {
          if (n >= layout.lo && n < layout.hi) {
            __builtin_prefetch(cells.address_of(n - layout.lo), 1);
            local.local.push_back(n - layout.lo);
          } else {
            const Key owner = n / layout.slice;
            local.outgoing[owner].push_back(static_cast<Wire>(n - owner * layout.slice));
          }
        });
      for (const Key n : local.local) local.found += cells.claim(n, next);
      local.expanded += local.keys.size();
    });
  }

  const P& puzzle_;
  const E& enc_;
  SearchOptions options_;
  LevelStrategyOptions strategy_;
  MpiWorld* world_ = nullptr;
  int fewest_threads_ = 0;  // the fewest threads of any rank's arena; 0: not yet agreed
};

}  // namespace searchbench
