// The shared structures engines are built on: the byte table that moves from a hash map to
// a direct table, and the two-bit cells of whole-space levels.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <random>
#include <vector>

#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include "core/byte_table.hpp"
#include "core/declared_options.hpp"
#include "core/errors.hpp"
#include "core/helper_team.hpp"
#include "core/memory_budget.hpp"
#include "core/offset_runs.hpp"
#include "registry/registry.hpp"
#include "core/two_bit_cells.hpp"
#include "core/zeroed_pages.hpp"
#include "engines/external/options.hpp"
#include "engines/iddfs.hpp"
#include "engines/two_bit/level_strategy.hpp"

using namespace searchbench;

TEST(ByteTable, ClusteredKeysMoveToADirectTableWithoutLosingEntries) {
  const Key bound = 1 << 24;
  ByteTable table(true, bound, 16, ByteTable::Start::hashed_until_large);
  EXPECT_LT(table.bytes(), bound);
  // Keys on few pages: the direct table is cheaper than the map from kDirectAfter entries on.
  const Key base = 5'000'000;
  for (std::uint64_t i = 0; i < ByteTable::kDirectAfter + 1000; ++i) {
    EXPECT_TRUE(table.insert(base + i, static_cast<std::uint8_t>(i % 255)));  // values 0..0xFE
    EXPECT_FALSE(table.insert(base + i, 7));  // never overwrites
  }
  EXPECT_EQ(table.bytes(), bound);  // moved over
  for (std::uint64_t i = 0; i < ByteTable::kDirectAfter + 1000; ++i)
    ASSERT_EQ(table.get(base + i), i % 255) << i;
  EXPECT_EQ(table.get(base - 1), ByteTable::kEmpty);
  table.set(0, 0xFE);
  EXPECT_EQ(table.get(0), 0xFE);
  table.clear();
  EXPECT_EQ(table.get(0), ByteTable::kEmpty);
  EXPECT_EQ(table.get(base), ByteTable::kEmpty);
}

TEST(ByteTable, ScatteredKeysStayHashedWhileTheMapIsSmaller) {
  const Key bound = Key{1} << 30;
  ByteTable table(true, bound, 16, ByteTable::Start::hashed_until_large);
  for (std::uint64_t i = 0; i < ByteTable::kDirectAfter + 1000; ++i) table.insert((i * 2654435761u) % bound, 3);
  EXPECT_LT(table.bytes(), bound / 64);  // one key per page: a direct table would hold 256 MiB
  EXPECT_EQ(table.get((5 * 2654435761u) % bound), 3);
}

TEST(ByteTable, SparseTablesStayHashedAndDenseWholeSpaceTablesStartDirect) {
  ByteTable sparse(false, ~Key{0}, 16);
  for (Key k = 0; k < 100'000; ++k) sparse.insert(k << 40, 1);
  EXPECT_EQ(sparse.get(Key{99'999} << 40), 1);
  EXPECT_EQ(sparse.get(1), ByteTable::kEmpty);
  EXPECT_LT(sparse.bytes(), ByteTable::estimate(false, ~Key{0}, 200'000));
  ByteTable whole(true, 1000, 1000);
  EXPECT_EQ(whole.bytes(), 1000u);
  EXPECT_TRUE(whole.insert(999, 0xFE));
  EXPECT_EQ(whole.get(999), 0xFE);
}

TEST(ZeroedPages, ZerosAlignedForHugePagesAndMovedWhole) {
  // Small or scattered: plain zeroed pages.
  ZeroedPages small(5000, false);
  ASSERT_TRUE(small);
  EXPECT_TRUE(std::all_of(small.data(), small.data() + 5000, [](std::uint8_t b) { return b == 0; }));
  small.data()[4999] = 7;
  // Touched all over: 2 MiB aligned, every byte zero, writable to the end.
  const std::size_t bytes = 3 * ZeroedPages::kHugePage + 12345;
  ZeroedPages table(bytes, true);
  ASSERT_TRUE(table);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(table.data()) % ZeroedPages::kHugePage, 0u);
  EXPECT_TRUE(std::all_of(table.data(), table.data() + bytes, [](std::uint8_t b) { return b == 0; }));
  std::fill_n(table.data(), bytes, std::uint8_t{0xAB});
  // A move hands the pages over; the one moved from holds none.
  const std::uint8_t* where = table.data();
  ZeroedPages moved = std::move(table);
  EXPECT_EQ(moved.data(), where);
  EXPECT_FALSE(table);
  EXPECT_EQ(moved.data()[bytes - 1], 0xAB);
  moved = std::move(small);
  EXPECT_EQ(moved.data()[4999], 7);
  // Below one huge page but touched all over: aligned too, so one huge page can hold it.
  const std::size_t part = ZeroedPages::kSmallestHuge + 4096;
  ZeroedPages smaller(part, true);
  ASSERT_TRUE(smaller);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(smaller.data()) % ZeroedPages::kHugePage, 0u);
  EXPECT_TRUE(std::all_of(smaller.data(), smaller.data() + part, [](std::uint8_t b) { return b == 0; }));
  smaller.data()[part - 1] = 1;
}

TEST(TwoBitCells, CodesClaimsAndRetirement) {
  const Key bound = 100;  // not a multiple of 32: the padding cells must read as done
  TwoBitCells cells(bound);
  cells.clear(0, cells.words());
  EXPECT_EQ(cells.words(), 4u);
  EXPECT_EQ(TwoBitCells::cells_with(cells.word(3), TwoBitCells::kUnseen), TwoBitCells::kLow >> (64 - 2 * 4));
  const unsigned current = TwoBitCells::current_code(0), next = TwoBitCells::next_code(0);
  EXPECT_NE(current, next);
  EXPECT_EQ(TwoBitCells::current_code(1), next);
  EXPECT_TRUE(cells.claim(37, next));
  EXPECT_FALSE(cells.claim(37, next));
  EXPECT_EQ(cells.get(37), next);
  EXPECT_EQ(cells.get(36), TwoBitCells::kUnseen);
  // Mark a current-level cell, then retire it to done; the claimed neighbour is untouched.
  cells.mark(1, std::uint64_t{1} << 2 * (38 - 32), current);
  EXPECT_EQ(cells.get(38), current);
  const std::uint64_t frontier = TwoBitCells::cells_with(cells.word(1), current);
  EXPECT_EQ(TwoBitCells::key_of(1, frontier), 38u);
  cells.mark(1, frontier, TwoBitCells::kDone);
  EXPECT_EQ(cells.get(38), TwoBitCells::kDone);
  EXPECT_EQ(cells.get(37), next);
  EXPECT_FALSE(cells.claim(38, next));
}

// Runs of sorted offsets round-trip exactly: dense and sparse runs, single offsets, far
// outliers (the escape), both ends of the 32-bit range; and they take about a byte per
// offset when there is one in every 64 keys. Damage is reported, not decoded.
TEST(OffsetRuns, RoundTripSizeAndDamage) {
  std::mt19937_64 rng(7);
  const auto round_trip = [](const std::vector<std::uint32_t>& in) {
    std::vector<unsigned char> bytes;
    OffsetRuns::encode(in.data(), in.size(), bytes);
    OffsetRunHeader h;
    std::memcpy(&h, bytes.data(), sizeof h);
    EXPECT_EQ(h.count, in.size());
    EXPECT_EQ(bytes.size(), sizeof h + h.payload_bytes);
    EXPECT_LE(h.payload_bytes, in.size() * 5 + 8);
    std::vector<std::uint32_t> out;
    EXPECT_TRUE(OffsetRuns::decode(h, bytes.data() + sizeof h, std::uint64_t{1} << 32, out));  // a whole 2^32-key segment
    EXPECT_EQ(out, in);
    return bytes;
  };
  round_trip({0});
  round_trip({~std::uint32_t{0} - 1});
  round_trip({0, 1, 2, 3, 4, 5});
  round_trip({0, ~std::uint32_t{0}});  // the first and last offsets of a 2^32-key segment
  std::vector<std::uint32_t> clustered;
  for (std::uint32_t i = 0; i < 1000; ++i) clustered.push_back(i * 3);
  clustered.push_back(4'000'000'000u);  // one far outlier after a dense run: the escape
  round_trip(clustered);
  for (const std::size_t n : {std::size_t{2}, std::size_t{100}, std::size_t{100'000}}) {
    std::vector<std::uint32_t> v(n);
    for (auto& x : v) x = static_cast<std::uint32_t>(rng() % 0xFFFFFFFFu);
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    round_trip(v);
  }
  std::vector<std::uint32_t> routed(4'000'000);
  for (auto& x : routed) x = static_cast<std::uint32_t>(rng() >> 36);  // 4M offsets below 2^28
  std::sort(routed.begin(), routed.end());
  routed.erase(std::unique(routed.begin(), routed.end()), routed.end());
  const auto bytes = round_trip(routed);
  EXPECT_LT(static_cast<double>(bytes.size()) / routed.size(), 1.1) << "bytes per offset";

  OffsetRunHeader h;
  std::memcpy(&h, bytes.data(), sizeof h);
  std::vector<std::uint32_t> out;
  EXPECT_FALSE(OffsetRuns::decode(h, bytes.data() + sizeof h, routed.back(), out)) << "an offset past the limit";
  OffsetRunHeader short_payload = h;
  short_payload.payload_bytes /= 2;
  EXPECT_FALSE(OffsetRuns::decode(short_payload, bytes.data() + sizeof h, ~std::uint32_t{0}, out)) << "a cut payload";
  OffsetRunHeader more = h;
  more.count += 10;
  EXPECT_FALSE(OffsetRuns::decode(more, bytes.data() + sizeof h, ~std::uint32_t{0}, out)) << "a count past the payload";
}

TEST(MemoryLimit, HumanSizesTellNearbyLimitsApart) {
  EXPECT_EQ(human_bytes(0), "0 B");
  EXPECT_EQ(human_bytes(1023), "1023 B");
  EXPECT_EQ(human_bytes(1024), "1.00 KiB");
  EXPECT_EQ(human_bytes(4700), "4.59 KiB");
  EXPECT_EQ(human_bytes(120u << 20), "120 MiB");
  EXPECT_NO_THROW(MemoryBudget().enforce(1u << 30, "x"));  // no limit
  EXPECT_NO_THROW(MemoryBudget::of(0).enforce(1u << 30, "x"));
  EXPECT_NO_THROW(MemoryBudget::of(2048).enforce(2048, "x"));
  EXPECT_THROW(MemoryBudget::of(2048).enforce(2049, "x"), BudgetError);
}

// A need and a limit that round to the same figure are printed as exact byte counts, never
// as "needs 1.00 GiB, more than the memory limit of 1.00 GiB".
TEST(MemoryLimit, MessagesNeverPrintTheSameFigureTwice) {
  const auto message = [](auto&& refuse) {
    try {
      refuse();
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string("no refusal");
  };
  const std::uint64_t gib = std::uint64_t{1} << 30;
  EXPECT_EQ(message([&] { MemoryBudget::of(gib).enforce(gib + 4096, "a search"); }),
            "a search needs 1073745920 B, more than the memory limit of 1073741824 B (--max-memory, or the memory available)");
  EXPECT_EQ(message([&] { MemoryBudget::of(gib).enforce(2 * gib, "a search"); }),
            "a search needs 2.00 GiB, more than the memory limit of 1.00 GiB (--max-memory, or the memory available)");
  EXPECT_EQ(message([&] { MemoryBudget::of(gib).check_up_front(gib + 1, "x"); }),
            "a whole-space run of x needs about 1073741825 B, more than --max-memory 1073741824 B");
  EXPECT_EQ(message([&] { MemoryBudget::of(gib).check_up_front(3 * gib, "x"); }),
            "a whole-space run of x needs about 3.00 GiB, more than --max-memory 1.00 GiB");
}

// oneTBB's arena slot ids are 16 bits: 65,537 threads crashed the run when its arena was
// torn down. Counts past kMaxThreads are refused; what ran is what the arena allowed.
TEST(ParallelThreads, AbsurdCountsAreRefusedAndTheReportIsWhatRan) {
  for (int threads : {kMaxThreads + 1, 65'537, 2'147'483'647}) {
    SolverConfig config;
    config.puzzle = "msquare-2x3";
    config.engine = "parallel";
    config.options.threads = threads;
    EXPECT_THROW(make_solver(config)->explore(), InputError) << threads;
  }
  SolverConfig config;
  config.puzzle = "msquare-2x3";
  config.engine = "parallel";
  config.options.threads = 64;
  const auto allowed = static_cast<int>(tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism));
  const SearchResult r = make_solver(config)->explore();
  EXPECT_EQ(r.threads, std::min(64, allowed));
  EXPECT_EQ(r.states(), 720u);
}

// A team whose arena runs its chunks one after another (one thread) must still end: the
// first chunk leads, the helper arrives once the leader is done and returns at once.
TEST(HelperTeam, EndsWhenTheArenaRunsOneThreadAtATime) {
  tbb::task_arena one(1);
  int led = 0, helped = 0;
  run_with_helpers(one, 2, [&] { ++led; }, [&](const std::atomic<bool>& done) {
    EXPECT_TRUE(done.load());
    ++helped;
  });
  EXPECT_EQ(led, 1);
  EXPECT_EQ(helped, 1);
}

// What the leader throws reaches the caller as it was, and the helpers, which spin until
// the leader is done, stop.
TEST(HelperTeam, TheLeadersErrorReachesTheCallerAndTheHelpersStop) {
  tbb::task_arena two(2);
  std::atomic<int> stopped{0};
  EXPECT_THROW(run_with_helpers(
                   two, 2, [] { throw InputError("from the leader"); },
                   [&](const std::atomic<bool>& done) {
                     for (SpinWait wait; !done.load(std::memory_order_acquire);) wait.pause();
                     ++stopped;
                   }),
               InputError);
  EXPECT_LE(stopped.load(), 1);  // the helper ran to its end, or oneTBB never started it
}

// Work handed out by the leader is done exactly once whether or not a helper joins in time.
TEST(HelperTeam, HandedOutWorkIsDoneOnce) {
  tbb::task_arena two(2);
  constexpr int kItems = 10'000;
  std::vector<std::atomic<int>> done_count(kItems);
  std::atomic<int> next{0};
  std::atomic<bool> open{false};
  auto work = [&] {
    for (int i; (i = next.fetch_add(1)) < kItems;) done_count[static_cast<std::size_t>(i)].fetch_add(1);
  };
  run_with_helpers(
      two, 2,
      [&] {
        open.store(true);
        work();
      },
      [&](const std::atomic<bool>& done) {
        for (SpinWait wait; !done.load(std::memory_order_acquire) && !open.load();) wait.pause();
        work();
      });
  for (const auto& c : done_count) EXPECT_EQ(c.load(), 1);
}

// A point query touches a sliver of the space: a one-move query on msquare 2x8 (16! states)
// must not size anything by the component, and a deep one stops at the memory limit.
TEST(PointQueries, GrowWithTheSearchAndStopAtTheMemoryLimit) {
  const std::string one_move = "16 15 14 13 12 11 10 9 / 1 2 3 4 5 6 7 8";  // A from the start
  const std::string far = "9 10 11 12 13 14 15 16 / 1 2 3 4 5 6 7 8";
  for (const char* engine : {"ring", "parallel", "bidir", "iddfs"}) {
    SolverConfig config;
    config.puzzle = "msquare-2x8";
    config.engine = engine;
    config.options.memory = MemoryBudget::of(8u << 20);
    auto solver = make_solver(config);
    const SearchResult r = solver->search(one_move);
    EXPECT_EQ(r.path, "A") << engine;
    EXPECT_LT(r.peak_bytes, 8u << 20) << engine;
    if (std::string(engine) != "iddfs") {  // iddfs keeps a node budget instead
      EXPECT_THROW(solver->search(far), BudgetError) << engine;
    }
  }
}

// A plug-in's options, declared once: the field's type gives the kind, its initial value the
// default; given text is read once, refused when the name is not declared or the value is
// not of the kind, and the struct's own check() sees the combination.
TEST(DeclaredOptions, KindsDefaultsAndRefusals) {
  const auto specs = option_specs<external::ExternalOptions>();
  ASSERT_EQ(specs.size(), 4u);
  EXPECT_EQ(specs[0].name, "workdir");
  EXPECT_EQ(specs[0].kind, OptionKind::text);
  EXPECT_TRUE(specs[0].folder_per_run);
  EXPECT_EQ(specs[1].kind, OptionKind::flag);
  EXPECT_TRUE(specs[1].one_run_only);
  EXPECT_EQ(specs[2].kind, OptionKind::count);
  EXPECT_EQ(specs[2].default_text, "what --max-memory holds");
  EXPECT_EQ(option_specs<IddfsOptions>().at(0).default_text, "4000000000");
  EXPECT_EQ(option_specs<LevelStrategyOptions>().at(1).kind, OptionKind::ratio);

  EXPECT_EQ(options_from<IddfsOptions>({{"node-budget", "12"}}, "engine 'iddfs'").node_budget, 12u);
  EXPECT_EQ(options_from<IddfsOptions>({}, "engine 'iddfs'").node_budget, IddfsOptions{}.node_budget);
  EXPECT_TRUE(options_from<LevelStrategyOptions>({{"top-down", "true"}}, "x").top_down);
  EXPECT_DOUBLE_EQ(options_from<LevelStrategyOptions>({{"bottom-up-ratio", "0.25"}}, "x").bottom_up_ratio, 0.25);
  EXPECT_EQ(options_from<external::ExternalOptions>({{"seed-keys", "0"}}, "x").seed_keys, std::optional<std::uint64_t>(0));
  try {
    options_from<IddfsOptions>({{"nodes", "1"}}, "engine 'iddfs'");
    FAIL() << "an undeclared option was accepted";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "--nodes does not apply to engine 'iddfs'");
  }
  for (const char* bad : {"-1", "", "1e3", "0x10", "18446744073709551616"})
    EXPECT_THROW(options_from<IddfsOptions>({{"node-budget", bad}}, "x"), InputError) << bad;
  for (const char* bad : {"inf", "nan", "-1", "x", ""})
    EXPECT_THROW(options_from<LevelStrategyOptions>({{"bottom-up-ratio", bad}}, "x"), InputError) << bad;
  EXPECT_THROW(options_from<LevelStrategyOptions>({{"top-down", "yes"}}, "x"), InputError);
  EXPECT_THROW(options_from<external::ExternalOptions>({{"resume", "true"}}, "x"), InputError);  // check(): no --workdir
  EXPECT_THROW(options_from<NoOptions>({{"anything", "1"}}, "engine 'ring'"), InputError);
}

// One memory budget per run: a chosen limit, or the machine's memory; the out-of-core
// engine's working set is the chosen limit or its own default, never all the machine has.
TEST(MemoryLimit, OneBudgetChosenOrAvailable) {
  EXPECT_FALSE(MemoryBudget().chosen());
  EXPECT_EQ(MemoryBudget().limit(), 0u);
  EXPECT_TRUE(MemoryBudget::of(1 << 20).chosen());
  EXPECT_FALSE(MemoryBudget::of(0).chosen());
  EXPECT_EQ(MemoryBudget::from_option(5 << 20).limit(), 5u << 20);
  EXPECT_FALSE(MemoryBudget::from_option(0).chosen());
  // The default leaves an eighth of the memory available as headroom.
  const std::uint64_t available = available_memory(), limit = MemoryBudget::from_option(0).limit();
  EXPECT_GT(limit, available / 8 * 6);
  EXPECT_LT(limit, available / 16 * 15);
  EXPECT_EQ(MemoryBudget::of(5 << 20).working_set(1 << 30), 5u << 20);
  EXPECT_EQ(MemoryBudget::from_option(0).working_set(1 << 30), 1u << 30);
  EXPECT_THROW(MemoryBudget::of(1 << 20).check_up_front(2 << 20, "x"), InputError);
  EXPECT_NO_THROW(MemoryBudget::of(2 << 20).check_up_front(2 << 20, "x"));
}
