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
//   slices are below 2^32 keys, else 64): the expansion step the other two-bit engines
//   run (engines/two_bit/expansion_kernel.hpp, routed by rank). The main thread then exchanges
//   the batches (engines/mpi/exchange.hpp): MPI_Alltoall for the counts, MPI_Alltoallv for
//   the offsets, and the threads claim what arrived. The count of rounds follows the
//   level's width (known on every rank, so all take part in the same exchanges): enough
//   that a rank's batches stay near kBatchBytes, and no more, since every round is a point where all ranks wait for the slowest.
//   MPI_Allreduce sums the states new at each level; the search ends when a level finds
//   none anywhere.
// * Bottom-up levels, for small jobs only. Once the frontier outnumbers the unseen states
//   by --bottom-up-ratio (LevelStrategyOptions: the parallel engine's rule and level loop,
//   engines/two_bit/level_loop.hpp, which honours --top-down and --bottom-up-ratio), the
//   parallel engine asks every unseen state for a parent in the frontier instead; here
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
// * MPI is started by the first mpi engine a process builds (MpiWorld,
//   engines/mpi/world.hpp), not in main, so no other command or test runs it; without
//   mpirun the process is a world of one rank. Only rank 0's result reports: the other
//   ranks print nothing.
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
#include <climits>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <tbb/enumerable_thread_specific.h>
#include <tbb/task_arena.h>

#include "core/concepts.hpp"
#include "core/engine_capabilities.hpp"
#include "core/errors.hpp"
#include "core/parallel_chunks.hpp"
#include "core/progress_reporter.hpp"
#include "core/result.hpp"
#include "core/search_options.hpp"
#include "core/thread_arena.hpp"
#include "core/timer.hpp"
#include "core/two_bit_cells.hpp"
#include "engines/two_bit/expansion_kernel.hpp"
#include "engines/mpi/exchange.hpp"
#include "engines/mpi/world.hpp"
#include "engines/two_bit/level_loop.hpp"
#include "engines/two_bit/level_strategy.hpp"
#include "engines/two_bit/bottom_up.hpp"

namespace searchbench {

template <Puzzle P, Encoder<P> E>
class MpiBfs {
 public:
  using State = typename P::State;
  static constexpr std::string_view kName = "mpi";
  static constexpr std::string_view kSummary = "level-synchronous BFS across MPI ranks (run under mpirun), 2-bit cells per rank";
  static constexpr EngineCapabilities kCapabilities{.whole_space = true, .threaded = true, .counts_only = true, .distributed = true};

  using Options = LevelStrategyOptions;

  MpiBfs(const P& puzzle, const E& enc, SearchOptions options, LevelStrategyOptions strategy = {})
      : puzzle_(puzzle),
        enc_(enc),
        options_(std::move(options)),
        settings_{options_.threads, options_.max_depth, !strategy.top_down, strategy.bottom_up_ratio} {
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

  // The job's hooks (core/engine_capabilities.hpp), which the front end reaches through the
  // registry: every rank must run rank 0's search, and an error on one rank ends them all.
  static bool same_configuration_everywhere(std::string_view canonical) {
    return MpiWorld::get().require_same_configuration(canonical);
  }
  static void end_job_on_error(int status) { MpiWorld::abort_job_if_distributed(status); }

 private:
  // Every SearchOptions field this engine reads, read once in the constructor (the progress
  // callback and heartbeat interval are ProgressReporter's).
  struct Settings {
    int threads;
    int max_depth;
    bool bottom_up;
    double bottom_up_ratio;
  };

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
    l.bitmap = every_key_is_state<E>() && settings_.bottom_up && l.slice / 8 * ranks <= 2 * (l.slice / 4) &&
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

  template <class Wire>
  struct Scratch : ExpansionScratch {
    std::vector<std::vector<Wire>> outgoing;  // per destination rank
    TwoBitScratch<State> bottom_up;           // the batch and counts of bottom-up levels
  };

  // What one rank holds during a search.
  template <class Wire>
  struct Rank {
    Rank(const Layout& l, int ranks, tbb::task_arena& a)
        : layout(l), cells(l.hi - l.lo), arena(a), exchange(ranks), scratch([ranks] {
            Scratch<Wire> s;
            s.outgoing.resize(static_cast<std::size_t>(ranks));
            return s;
          }) {}
    const Layout& layout;
    TwoBitCells cells;
    tbb::task_arena& arena;
    int threads = 1;  // the arena's concurrency
    BatchExchange<Wire> exchange;
    tbb::enumerable_thread_specific<Scratch<Wire>> scratch;
    std::vector<std::uint32_t> frontier_bits;  // bottom-up levels: the whole space's frontier
    std::uint64_t bytes_sent = 0, peak_buffers = 0;
  };

  template <class Wire>
  SearchResult levels(const State& start, const Layout& layout) {
    Timer timer;
    ProgressReporter progress(options_, timer);  // rank 0's lines only; no heartbeats (a level's count is known at its end)
    SearchResult result;
    // No more threads than oneTBB may run in this process (its CPU affinity mask, e.g. one
    // core where mpirun binds each rank to a core), then the concurrency the arena has.
    tbb::task_arena arena(runnable_threads(settings_.threads));
    Rank<Wire> rank(layout, world_->size(), arena);
    arena.execute([&] { rank.threads = tbb::this_task_arena::max_concurrency(); });
    if (fewest_threads_ == 0) fewest_threads_ = world_->agree_on_threads(rank.threads, settings_.threads);
    result.threads = fewest_threads_;
    TwoBitCells& cells = rank.cells;
    arena.execute([&] {
      parallel_chunks(cells.words(), 4096, [&](std::uint64_t begin, std::uint64_t end) { cells.clear(begin, end); });
    });
    const Key start_key = enc_.encode(start);
    if (start_key >= layout.lo && start_key < layout.hi) cells.mark_key(start_key - layout.lo, TwoBitCells::current_code(0));
    result.depth_counts.push_back(1);
    result.depth_seconds.push_back(0.0);

    std::uint64_t seen = 1;
    const LevelRule rule{settings_.max_depth, layout.bitmap, settings_.bottom_up_ratio, layout.bound};
    run_levels(rule, 0, seen, result, progress, world_->rank() == 0, [&](int depth, bool bottom_up) {
      const unsigned current = TwoBitCells::current_code(depth), next = TwoBitCells::next_code(depth);
      if (bottom_up) bottom_up_level(rank, current, next);
      else top_down_level(rank, current, next, result.depth_counts.back());
      std::uint64_t found_here = 0;
      for (auto& s : rank.scratch) found_here += std::exchange(s.found, 0) + std::exchange(s.bottom_up.found, 0);
      return sum_over_ranks(found_here);
    });
    totals(rank, result);
    result.seconds = timer.seconds();
    return result;
  }

  // Collective: the job's expanded, generated, bytes exchanged and peak bytes (all ranks
  // summed) into `result`.
  template <class Wire>
  void totals(Rank<Wire>& rank, SearchResult& result) const {
    std::uint64_t totals[4] = {0, 0, rank.bytes_sent, rank.cells.bytes() + rank.peak_buffers};
    for (auto& s : rank.scratch) {
      totals[0] += s.expanded + s.bottom_up.expanded;
      totals[1] += s.generated + s.bottom_up.generated;
      for (const auto& out : s.outgoing) totals[3] += out.capacity() * sizeof(Wire);
    }
    std::uint64_t sums[4];
    MPI_Allreduce(totals, sums, 4, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    result.expanded = sums[0];
    result.generated = sums[1];
    result.peak_bytes = sums[3];  // all ranks' together
    result.add_extra("ranks", std::int64_t{world_->size()});
    result.add_extra("bytes_exchanged", std::uint64_t{sums[2]});
    result.reporting = world_->rank() == 0;
  }

  // A top-down level of a frontier of `frontier` states (all ranks), in rounds: the threads
  // expand a part of the slice, routing successors by rank, then the batches are exchanged
  // and the threads claim what arrived.
  template <class Wire>
  void top_down_level(Rank<Wire>& rank, unsigned current, unsigned next, std::uint64_t frontier) const {
    const Layout& layout = rank.layout;
    TwoBitCells& cells = rank.cells;
    const std::uint64_t rounds = rounds_for<Wire>(layout, frontier);
    const std::uint64_t round_words = (layout.slice_words + rounds - 1) / rounds;
    const std::uint64_t grain = std::max<std::uint64_t>(64, round_words / (64 * static_cast<std::uint64_t>(rank.threads)));
    for (std::uint64_t round = 0; round < rounds; ++round) {
      const std::uint64_t first = std::min(cells.words(), round * round_words);
      const std::uint64_t last = std::min(cells.words(), first + round_words);
      rank.arena.execute([&] {
        parallel_chunks(last - first, grain, [&](std::uint64_t begin, std::uint64_t end) {
          Scratch<Wire>& local = rank.scratch.local();
          RouteByRank<Wire> by_rank{layout.lo, layout.hi, layout.slice, local.outgoing};
          expand_and_route(puzzle_, enc_, cells, first + begin, first + end, current, next, local, by_rank);
        });
      });
      const std::vector<Wire>& received = rank.exchange.exchange(rank.scratch, rank.bytes_sent);
      rank.peak_buffers = std::max<std::uint64_t>(rank.peak_buffers, rank.exchange.buffer_bytes());
      rank.arena.execute([&] {
        parallel_chunks(received.size(), 4096, [&](std::uint64_t begin, std::uint64_t end) {
          Scratch<Wire>& local = rank.scratch.local();
          for (std::uint64_t i = begin; i != end; ++i) {
            if (i + 16 < end) __builtin_prefetch(cells.address_of(received[i + 16]), 1);
            local.found += cells.claim(received[i], next);
          }
        });
      });
    }
  }

  // A bottom-up level: allgather the frontier as one bit per key, let every unseen cell of
  // this rank's slice look for a parent in it (stopping at the first), then retire the
  // frontier.
  template <class Wire>
  void bottom_up_level(Rank<Wire>& rank, unsigned current, unsigned next) const {
    const Layout& layout = rank.layout;
    TwoBitCells& cells = rank.cells;
    std::vector<std::uint32_t>& bits = rank.frontier_bits;
    const std::uint64_t words = layout.slice_words, ranks = static_cast<std::uint64_t>(world_->size());
    const std::uint64_t mine = words * static_cast<std::uint64_t>(world_->rank());
    bits.resize(words * ranks);
    rank.arena.execute([&] {
      parallel_chunks(words, 4096, [&](std::uint64_t begin, std::uint64_t end) {
        for (std::uint64_t w = begin; w != end; ++w)
          bits[mine + w] = w < cells.words() ? compress_cells(TwoBitCells::cells_with(cells.word(w), current)) : 0;
      });
    });
    rank.bytes_sent += allgather_frontier_bits(bits, words, world_->size());
    const std::uint64_t grain = std::max<std::uint64_t>(64, cells.words() / (256 * static_cast<std::uint64_t>(rank.threads)));
    rank.arena.execute([&] {
      parallel_chunks(cells.words(), grain, [&](std::uint64_t begin, std::uint64_t end) {
        find_parents_in_words(
            puzzle_, enc_, cells, layout.lo, next, begin, end, rank.scratch.local().bottom_up,
            [&](Key p) { __builtin_prefetch(&bits[p / 32], 0); }, [&](Key p) { return (bits[p / 32] >> (p % 32)) & 1u; });
      });
      parallel_chunks(cells.words(), 4096, [&](std::uint64_t begin, std::uint64_t end) { cells.retire_owned(begin, end, current); });
    });
    rank.peak_buffers = std::max<std::uint64_t>(rank.peak_buffers, bits.capacity() * sizeof(std::uint32_t));
  }

  const P& puzzle_;
  const E& enc_;
  SearchOptions options_;
  Settings settings_;
  MpiWorld* world_ = nullptr;
  int fewest_threads_ = 0;  // the fewest threads of any rank's arena; 0: not yet agreed
};

}  // namespace searchbench
